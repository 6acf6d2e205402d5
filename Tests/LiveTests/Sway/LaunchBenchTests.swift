// `modal-bench --launch` end to end: it starts its own headless sway (and wayvnc for the
// keyboard seat), measures modal-demo against another client, prints every figure, and leaves
// nothing running. Only the report's structure and the facts it states are checked (sizes, seat
// capabilities, VmRSS = RssAnon + RssFile + RssShmem), never a time: times are benchmark figures.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class LaunchBenchTests: CompositorTestCase {
    /// modal-bench from this build (a measuring tool, not a product users install), next to the
    /// test binary.
    private var bench: String { testBinaryDirectory() + "/modal-bench" }
    /// What it measures: the installed release modal-demo (``InstalledProducts``), what users run,
    /// rather than the debug one next to modal-bench.
    private var demo: [String] { get throws { ["--demo", try InstalledProducts.demo()] } }

    /// modal-bench's environment for these tests: no session of the developer's to reach.
    private var environment: [String: String] {
        harnessEnvironment(["WAYLAND_DISPLAY": nil, "WAYLAND_SOCKET": nil, "DISPLAY": nil, "WAYLAND_DEBUG": nil])
    }

    private func requireHeadlessPrograms() throws {
        try requireProgram("sway", "swaymsg", "wayvnc", "setpriv", "weston-simple-shm", "foot")
    }

    /// The cells of the Markdown row `| first | … |` of the first table after the line starting
    /// with `title` (searched from index `from` on).
    private func row(_ first: String, after title: String, in lines: [String], from: Int = 0,
                     file: StaticString = #filePath, line: UInt = #line) -> [String]? {
        guard let t = lines[from...].firstIndex(where: { $0.hasPrefix(title) }) else {
            XCTFail("no line starting '\(title)'", file: file, line: line)
            return nil
        }
        // The table starts after the title's lines (a title may take two).
        for l in lines[(t + 1)...].drop(while: { !$0.hasPrefix("|") }) {
            guard l.hasPrefix("|") else { break }
            let cells = l.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.first == first { return cells }
        }
        XCTFail("no row '\(first)' in the table after '\(title)'", file: file, line: line)
        return nil
    }

    private func positiveNumbers(_ cells: ArraySlice<String>, file: StaticString = #filePath, line: UInt = #line) -> [Double] {
        let values = cells.compactMap { Double($0.replacingOccurrences(of: ",", with: "")) }
        XCTAssertEqual(values.count, cells.count, "numbers: \(cells)", file: file, line: line)
        for v in values { XCTAssertGreaterThan(v, 0, "\(cells)", file: file, line: line) }
        return values
    }

    /// The whole run against foot (the default), with both seat variants: every first frame is
    /// found at the size both were given, with the seat the clients really had; the phases add
    /// up; memory at rest adds up as proc(5) says; both --version runs; the summary against the
    /// targets; and nothing is left behind.
    func testHeadlessLaunchAgainstFoot() throws {
        try requireHeadlessPrograms()
        let r = try ChildProcess.run([bench, "--launch", "--headless", "--runs", "2"] + demo, environment: environment, timeout: 300)
        let out = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, .exited(0), "stderr: \(r.stderr)\nstdout:\n\(out)")
        let lines = out.split(separator: "\n").map(String.init)

        XCTAssertTrue(lines.contains { $0.hasPrefix("session  private headless sway (sway version 1.") }, out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("B        /usr/bin/foot --window-size-pixels=800x600") }, out)
        for (seat, seen) in [("no input devices", "no input devices"),
                             ("pointer + keyboard (wayvnc)", "pointer + keyboard, keymap")] {
            let title = "first frame, seat: \(seat): 2 pairs"
            guard let start = lines.firstIndex(where: { $0.hasPrefix(title) }) else {
                XCTFail("no section '\(title)':\n\(out)")
                continue
            }
            // | client | runs | min | median | max | first buffer | seat seen by the client |
            for client in ["modal-demo", "foot"] {
                guard let cells = row(client, after: "exec → first frame, ms", in: lines, from: start) else { continue }
                XCTAssertEqual(cells[1], "2")
                let t = positiveNumbers(cells[2...4])
                XCTAssertTrue(t.count == 3 && t[0] <= t[1] && t[1] <= t[2], "min ≤ median ≤ max: \(cells)")
                XCTAssertEqual(cells[5], "800x600", "\(client) at 800x600 in an 800x600 tile")
                XCTAssertEqual(cells[6], seen, client)
                // | client | exec → first request | → first configure | → first frame | exec → first frame |
                // The median of 2 runs is their mean, so the three phases add up to the total
                // (each printed to 0.001 ms).
                // | … | CPU | waiting for a CPU |: the process's CPU time up to its first frame is
                // part of the wall time since exec.
                if let phases = row(client, after: "phases, medians in ms", in: lines, from: start) {
                    let p = positiveNumbers(phases[1...5])
                    if p.count == 5 {
                        XCTAssertEqual(p[0] + p[1] + p[2], p[3], accuracy: 0.004, "\(phases)")
                        XCTAssertLessThan(p[4], p[3] * 2, "CPU of its threads up to about the frame: \(phases)")
                    }
                    XCTAssertNotNil(Double(phases[6]), "\(phases)")
                    XCTAssertEqual(phases[4], cells[3], "exec → first frame is the table's median")
                }
            }
            let ratio = lines[start...].first { $0.hasPrefix("ratio    first frame (\(seat)) modal-demo/foot ") }
            XCTAssertTrue(ratio?.contains("(median of 2 per-pair ratios") == true, out)
            XCTAssertTrue(lines[start...].contains { $0.hasPrefix("ratio    CPU to first frame (\(seat)) modal-demo/foot ") }, out)

            // | client | VmRSS | RssAnon | RssFile | RssShmem | Pss | peak (VmHWM) | buffer at rest |
            guard let mem = lines[start...].firstIndex(where: { $0.hasPrefix("memory at rest, seat: \(seat): 2 pairs") }) else {
                XCTFail("no memory section for \(seat):\n\(out)")
                continue
            }
            for client in ["modal-demo", "foot"] {
                guard let m = row(client, after: "resident memory at rest, MiB", in: lines, from: mem) else { continue }
                let v = m[1...6].compactMap { Double($0) }
                XCTAssertEqual(v.count, 6, "\(m)")
                guard v.count == 6 else { continue }
                XCTAssertGreaterThan(v[0], 1, "more than 1 MiB resident: \(m)")
                XCTAssertEqual(v[1] + v[2] + v[3], v[0], accuracy: 0.2, "VmRSS = RssAnon + RssFile + RssShmem (proc(5)): \(m)")
                XCTAssertGreaterThan(v[4], 0)
                XCTAssertGreaterThanOrEqual(v[5], v[0], "peak ≥ current")
                XCTAssertEqual(m[7], "800x600", "the window's buffer at rest: \(m)")
            }
            XCTAssertTrue(lines[mem...].contains { $0.hasPrefix("ratio    VmRSS at rest (\(seat)) modal-demo/foot ") }, out)
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("ratio    --version modal-demo/foot ") }, out)
        // The summary: five figures, each with both medians, a ratio and a verdict.
        guard let summary = lines.firstIndex(where: { $0.hasPrefix("summary (medians;") }) else { return XCTFail(out) }
        let rows = lines[(summary + 3)...].prefix { $0.hasPrefix("|") }
        XCTAssertEqual(rows.map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces) },
                       ["first frame, no input devices (ms)", "VmRSS at rest, 800x600, no input devices (MiB)",
                        "first frame, pointer + keyboard (wayvnc) (ms)", "VmRSS at rest, 800x600, pointer + keyboard (wayvnc) (MiB)",
                        "--version, exec → exit (ms)"])
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            _ = positiveNumbers(cells[1...3])
            XCTAssertTrue(["met", "MISSED"].contains(cells[5]), row)
        }
        XCTAssertFalse(lines.contains("(the targets are stated against foot)"))
        // The session line names the private runtime directory (other processes on the machine may
        // make their own beside it, so only this one is checked).
        let session = lines.first { $0.hasPrefix("session  private headless sway") } ?? ""
        guard let dirStart = session.range(of: " in /")?.upperBound, session.hasSuffix(")") else {
            return XCTFail("no runtime directory on the session line: \(session)")
        }
        let directory = "/" + session[dirStart..<session.index(before: session.endIndex)]
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory), "the private sway's directory is removed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + ".sway.log"), "and its log")
    }

    /// weston-simple-shm (250×250 buffers, no wl_seat, no --version): its first frame is found at
    /// its own size; its missing --version is reported, not failed.
    func testFirstFrameAgainstWestonSimpleShm() throws {
        try requireHeadlessPrograms()
        let r = try ChildProcess.run([bench, "--launch", "--headless", "--seat", "none", "--only", "first-frame,version",
                                      "--runs", "2", "--vs", "weston-simple-shm"] + demo, environment: environment, timeout: 300)
        let out = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, .exited(0), "stderr: \(r.stderr)\nstdout:\n\(out)")
        let lines = out.split(separator: "\n").map(String.init)
        if let shm = row("weston-simple-shm", after: "exec → first frame, ms", in: lines) {
            _ = positiveNumbers(shm[2...4])
            XCTAssertEqual(shm[5], "250x250", "weston-simple-shm always draws 250×250")
            XCTAssertEqual(shm[6], "no wl_seat bound")
        }
        XCTAssertEqual(row("modal-demo", after: "exec → first frame, ms", in: lines)?[6], "no input devices")
        XCTAssertFalse(lines.contains { $0.hasPrefix("memory at rest") }, "--only leaves memory out")
        // Without a display it tries to connect and fails.
        XCTAssertTrue(lines.contains { $0.hasPrefix("  not measured: ") && $0.contains("weston-simple-shm --version") }, out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("| --version, exec → exit (ms) ") && $0.contains("not measured") }, out)
        XCTAssertTrue(lines.contains("(the targets are stated against foot)"), out)
    }

    /// `--only version` against foot needs no compositor: both programs' times, positive, and the ratio.
    func testVersionAgainstFoot() throws {
        try requireProgram("foot")
        let r = try ChildProcess.run([bench, "--launch", "--only", "version", "--runs", "3"] + demo, environment: environment,
                                     timeout: 120)
        let out = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, .exited(0), "stderr: \(r.stderr)\nstdout:\n\(out)")
        let lines = out.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("foot: foot version: 1.") }, out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("modal-demo: modal-demo ") }, out)
        for suffix in ["/modal-demo --version", "/foot --version"] {
            guard let l = lines.first(where: { $0.hasPrefix("| /") && $0.contains(suffix + " ") }) else {
                XCTFail("no row for \(suffix):\n\(out)")
                continue
            }
            let cells = l.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            XCTAssertEqual(cells[1], "3")
            let t = positiveNumbers(cells[2...5])
            XCTAssertTrue(t.count == 4 && t[0] <= t[1] && t[1] <= t[2], "min ≤ median ≤ max, then the CPU median: \(cells)")
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("ratio    --version modal-demo/foot ") && $0.contains("(median of 3 per-pair ratios") },
                      out)
        XCTAssertFalse(lines.contains { $0.hasPrefix("session ") }, "no compositor for --version alone")
    }

    /// A bad command line or a missing program: exit status 2 and one line naming it, before
    /// anything is started.
    func testMistakesExitWithStatus2() throws {
        try requireProgram("foot")
        for (args, message) in [
            (["--launch", "--vs", "no-such-client-\(getpid())"], "modal-bench: --vs: no-such-client-\(getpid()) not found in PATH"),
            (["--launch", "--seat", "keyboard"], "modal-bench: --seat needs --headless (in your own session the seat has the devices it has)"),
            (["--launch", "--runs", "0"], "modal-bench: --runs needs a whole number in 1...10000, got '0'"),
            (["--launch", "--compositing", "pixman"], "modal-bench: --compositing does not apply to --launch"),
        ] {
            let r = try ChildProcess.run([bench] + args, environment: environment, timeout: 30)
            XCTAssertEqual(r.status, .exited(2), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, message + "\n", "\(args)")
            XCTAssertEqual(r.stdout.count, 0, "\(args)")
        }
        // No session and no --headless: a runtime failure (1), one line saying what to do.
        let r = try ChildProcess.run([bench, "--launch", "--only", "first-frame"], environment: environment, timeout: 30)
        XCTAssertEqual(r.status, .exited(1), r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("modal-bench: no Wayland session: WAYLAND_DISPLAY is not set (--headless starts a private headless sway)\n"),
                      r.stderr)
    }

    /// SIGINT in the middle of a run: modal-bench stops its client and sway, removes the
    /// runtime directory and exits with 130.
    func testInterruptStopsEverythingItStarted() throws {
        try requireHeadlessPrograms()
        let child = try ChildProcess([bench, "--launch", "--headless", "--seat", "none", "--only", "first-frame",
                                      "--runs", "10000", "--vs", "weston-simple-shm"] + demo, environment: environment)
        addTeardownBlock { child.stop() }
        let session = child.stdout.wait(timeout: 60) { lines in lines.first { $0.hasPrefix("session  private headless sway") } }
        guard let session, let dirStart = session.range(of: " in /")?.upperBound, session.hasSuffix(")") else {
            return XCTFail("no session line: \(child.diagnostics())")
        }
        let directory = "/" + session[dirStart..<session.index(before: session.endIndex)]
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory))
        // Wait until it is measuring (the section's header is printed before the warm-up pair).
        XCTAssertNotNil(child.stdout.wait(timeout: 60) { $0.first { $0.hasPrefix("first frame, seat: no input devices") } },
                        child.diagnostics())
        usleep(300_000)
        kill(child.pid, SIGINT)
        let status = child.waitForExit(timeout: 20)
        XCTAssertEqual(status, .exited(130), child.diagnostics())
        // The exit is seen before the reader has all of stderr: read it to its end first.
        XCTAssertTrue(child.stderr.waitForEnd(timeout: 10), "stderr still open")
        XCTAssertTrue(child.stderr.text.hasSuffix("modal-bench: interrupted\n"), child.stderr.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory), "runtime directory removed")
        XCTAssertEqual(processes(mentioning: directory), [], "nothing started by modal-bench still runs")
    }

    /// PIDs of the processes whose command line contains `text`.
    private func processes(mentioning text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains(text)
        }
    }
}
