// `modal-demo ask` under headless sway, which offers zwlr_layer_shell_v1: each prompt is an
// overlay on the whole output (the dim reaches the output's edges, where a tiled toplevel never
// goes: the harness's sway keeps a 20 px margin around its lone window) with exclusive keyboard;
// real keys through wayvnc. zenity's exit statuses: 0 OK, 1 cancel, 5 timeout; the answer on
// stdout with a final newline.
import Foundation
import ModalKitTestHarness
import XCTest

final class AskSwayTests: CompositorTestCase {
    /// Starts the installed `modal-demo ask ARGUMENTS` in `sway`, `stdin` written and closed when given.
    private func ask(_ arguments: [String], in sway: HeadlessSway, stdin: String? = nil) throws -> ChildProcess {
        let child = try ChildProcess([try InstalledProducts.demo(), "ask"] + arguments, environment: sway.clientEnvironment,
                                     writableStandardInput: stdin != nil)
        addTeardownBlock { child.stop() }
        if let stdin {
            try child.writeToStandardInput(stdin)
            child.closeStandardInput()
        }
        return child
    }

    /// Waits until the overlay's dim covers the output's corners (each darker than on `desktop`)
    /// and the picture has settled (the transition is over); returns that screenshot.
    private func waitForOverlay(_ sway: HeadlessSway, over desktop: RGBImage, _ child: ChildProcess,
                                file: StaticString = #filePath, line: UInt = #line) throws -> RGBImage? {
        // The bottom-right corner less 4 px: VNCInput parks the pointer there, drawn over everything.
        let corners = [(0, 0), (desktop.width - 1, 0), (0, desktop.height - 1), (desktop.width - 4, desktop.height - 4)]
        func darker(_ shot: RGBImage) -> Bool {
            corners.allSatisfy { x, y in
                let a = desktop[x, y], b = shot[x, y]
                return Int(b.r) + Int(b.g) + Int(b.b) + 30 < Int(a.r) + Int(a.g) + Int(a.b)
            }
        }
        let shown = waitUntil(timeout: eventTimeout, interval: 0.05) { (try? sway.screenshot()).map(darker) ?? false }
        guard shown else {
            let now = try? sway.screenshot()
            XCTFail("no dim over the output's corners within \(eventTimeout) s: \(corners.map { desktop[$0.0, $0.1] }) → \(corners.map { now?[$0.0, $0.1] as Any }), centre \(now.map { $0[$0.width / 2, $0.height / 2] } as Any)\n\(child.diagnostics(maxLines: 20))", file: file, line: line)
            return nil
        }
        return try sway.stableScreenshot()
    }

    /// A light desktop (swaybg, started by sway): black, the default, stays black under a dim.
    private func lightDesktop(_ sway: HeadlessSway) throws -> RGBImage {
        _ = try sway.swaymsg(["output", "HEADLESS-1", "bg", "#f6f5f4", "solid_color"])
        guard sway.waitUntilShown(RGB(0xF6, 0xF5, 0xF4), atX: 0, y: 0) else { throw HarnessError("swaybg drew no background") }
        return try sway.stableScreenshot()
    }

    private func finish(_ child: ChildProcess, file: StaticString = #filePath, line: UInt = #line) -> (ExitStatus?, [String]) {
        let status = child.waitForExit(timeout: eventTimeout)
        // The exit can be seen before the reader thread has taken the last line from the pipe:
        // read stdout once it is at its end (bounded), never right after the exit.
        XCTAssertTrue(child.stdout.waitForEnd(timeout: eventTimeout), "stdout still open", file: file, line: line)
        return (status, child.stdout.lines)
    }

    func testQuestionOverlayCoversTheOutputReturnIsZeroEscapeIsOne() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let desktop = try lightDesktop(sway)
        let child = try ask(["question", "--text", "Delete 3 files?"], in: sway)
        guard let shot = try waitForOverlay(sway, over: desktop, child) else { return }
        keep(shot, "ask-question-overlay")
        // Every pixel of the 20 px margin is dimmed: the dim is over the whole output.
        for x in stride(from: 0, to: shot.width, by: 37) {
            for y in [0, 10, shot.height - 1] {
                XCTAssertLessThan(Int(shot[x, y].r) + Int(shot[x, y].g) + Int(shot[x, y].b),
                                  Int(desktop[x, y].r) + Int(desktop[x, y].g) + Int(desktop[x, y].b), "(\(x), \(y))")
            }
        }
        try vnc.key("enter")
        var (status, out) = finish(child)
        XCTAssertEqual(status, .exited(0), child.diagnostics(maxLines: 20))
        XCTAssertEqual(out, [])

        let second = try ask(["question", "--text", "Delete 3 files?"], in: sway)
        guard try waitForOverlay(sway, over: desktop, second) != nil else { return }
        try vnc.key("esc")
        (status, out) = finish(second)
        XCTAssertEqual(status, .exited(1), second.diagnostics(maxLines: 20))
        XCTAssertEqual(out, [])
    }

    func testDefaultCancelAndNotices() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let desktop = try lightDesktop(sway)
        let child = try ask(["question", "--default-cancel", "--ok-label", "Delete", "--cancel-label", "Keep"], in: sway)
        guard try waitForOverlay(sway, over: desktop, child) != nil else { return }
        try vnc.key("enter")
        XCTAssertEqual(finish(child).0, .exited(1), "Return chooses Cancel with --default-cancel")
        for kind in ["warning", "info", "error"] {
            let notice = try ask([kind, "--text", "Disk almost full"], in: sway)
            guard try waitForOverlay(sway, over: desktop, notice) != nil else { return }
            try vnc.key(kind == "error" ? "enter" : "esc")
            XCTAssertEqual(finish(notice).0, .exited(kind == "error" ? 0 : 1),
                           "\(kind): Return chooses its only button, OK (0); Escape closes it unanswered (1, zenity's ZENITY_ESC)")
        }
    }

    func testEntryAndPasswordPrintTheTypedText() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let desktop = try lightDesktop(sway)
        let entry = try ask(["entry", "--text", "Name"], in: sway)
        guard try waitForOverlay(sway, over: desktop, entry) != nil else { return }
        // One VNC connection: the keys reach the field in order, Return last.
        try vnc.send(["key", "A", "key", "d", "key", "a", "key", "space", "key", "L", "key", "enter"])
        var (status, out) = finish(entry)
        XCTAssertEqual(status, .exited(0), entry.diagnostics(maxLines: 20))
        XCTAssertEqual(out, ["Ada L"])

        let initial = try ask(["entry", "--entry-text", "Report 2026.pdf"], in: sway)
        guard try waitForOverlay(sway, over: desktop, initial) != nil else { return }
        try vnc.key("enter")
        (status, out) = finish(initial)
        XCTAssertEqual(status, .exited(0))
        XCTAssertEqual(out, ["Report 2026.pdf"])

        let password = try ask(["password"], in: sway)
        guard try waitForOverlay(sway, over: desktop, password) != nil else { return }
        try vnc.send(["key", "s", "key", "3", "key", "enter"])
        (status, out) = finish(password)
        XCTAssertEqual(status, .exited(0), password.diagnostics(maxLines: 20))
        XCTAssertEqual(out, ["s3"])

        let cancelled = try ask(["entry"], in: sway)
        guard try waitForOverlay(sway, over: desktop, cancelled) != nil else { return }
        try vnc.send(["key", "x", "key", "esc"])
        (status, out) = finish(cancelled)
        XCTAssertEqual(status, .exited(1))
        XCTAssertEqual(out, [])
    }

    func testListFromStandardInput() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let desktop = try lightDesktop(sway)
        let list = try ask(["list", "--column", "File"], in: sway, stdin: "a.txt\nb.txt\n")
        guard let shot = try waitForOverlay(sway, over: desktop, list) else { return }
        keep(shot, "ask-list-overlay")
        try vnc.key("esc")
        XCTAssertEqual(finish(list).0, .exited(1))
        let none = try ask(["list", "a", "b"], in: sway)
        guard try waitForOverlay(sway, over: desktop, none) != nil else { return }
        try vnc.key("enter")
        let (status, out) = finish(none)
        XCTAssertEqual(status, .exited(0))
        XCTAssertEqual(out, [""], "OK with no row chosen: an empty line")
        // The keyboard alone: Down twice moves the cursor (and a single list's selection) to the
        // second row; Return answers OK with it.
        let keys = try ask(["list"], in: sway, stdin: "alpha\nbeta\ngamma\n")
        guard try waitForOverlay(sway, over: desktop, keys) != nil else { return }
        try vnc.send(["key", "down", "key", "down", "key", "enter"])
        let (keyStatus, keyOut) = finish(keys)
        XCTAssertEqual(keyStatus, .exited(0), keys.diagnostics(maxLines: 20))
        XCTAssertEqual(keyOut, ["beta"])
    }

    /// A screenshot of the output `name` alone (`grim -o`).
    private func screenshot(_ sway: HeadlessSway, output name: String) throws -> RGBImage {
        let r = try ChildProcess.run(["grim", "-o", name, "-t", "ppm", "-"], environment: sway.clientEnvironment, timeout: 10,
                                     binaryStandardOutput: true)
        guard r.status == .exited(0) else { throw HarnessError("grim -o \(name) failed (\(r.status)): \(r.stderr)") }
        return try RGBImage.parsePPM(r.stdout)
    }

    /// Adds a second output (`swaymsg create_output`, headless backend) and waits (bounded) until
    /// sway lists both; returns their names, sorted (HEADLESS-1 first).
    private func twoOutputs(_ sway: HeadlessSway) throws -> [String] {
        _ = try sway.swaymsg(["create_output"])
        func outputs() -> [String] {
            ((try? sway.swaymsgJSON(["-t", "get_outputs"])) as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        guard waitUntil(timeout: eventTimeout, interval: 0.05, { outputs().count == 2 }) else {
            throw HarnessError("no second output: \(outputs())")
        }
        return outputs().sorted()
    }

    /// With a second output (`swaymsg create_output`, headless backend), the overlay's dim covers
    /// both: the prompt on the focused output under its dim, the other output all one colour, the
    /// same dim over the same desktop; after the answer both show the desktop again.
    func testTheDimCoversEveryOutput() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let names = try twoOutputs(sway)
        let desktop = RGB(0xF6, 0xF5, 0xF4)
        for name in names { _ = try sway.swaymsg(["output", name, "bg", "#f6f5f4", "solid_color"]) }
        _ = try sway.swaymsg(["focus", "output", names[0]])
        func shows(_ colour: RGB, on name: String, at points: [(Int, Int)]) -> Bool {
            guard let shot = try? screenshot(sway, output: name) else { return false }
            return points.allSatisfy { x, y in
                let p = shot[min(x, shot.width - 1), min(y, shot.height - 1)]
                return abs(Int(p.r) - Int(colour.r)) <= 2 && abs(Int(p.g) - Int(colour.g)) <= 2 && abs(Int(p.b) - Int(colour.b)) <= 2
            }
        }
        for name in names {
            guard waitUntil(timeout: eventTimeout, interval: 0.05, { shows(desktop, on: name, at: [(0, 0)]) }) else {
                return XCTFail("swaybg drew no background on \(name)")
            }
        }
        let child = try ask(["question", "--text", "Delete 3 files?"], in: sway)
        // The dim on the prompt's output, once the transition is over (two equal screenshots).
        var previous: RGBImage?
        var first: RGBImage?
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            guard let shot = try? screenshot(sway, output: names[0]) else { return false }
            defer { previous = shot }
            let dimmed = Int(shot[0, 0].r) + 30 < Int(desktop.r)
            if dimmed, let previous, previous.bytes == shot.bytes { first = shot; return true }
            return false
        }
        guard let first else { return XCTFail("no dim on \(names[0])\n\(child.diagnostics(maxLines: 20))") }
        let dim = first[0, 0]
        keep(first, "ask-dim-output-1")
        // The other output: the same dim everywhere (no prompt there), once its fade is over.
        let w = first.width, h = first.height
        let grid = stride(from: w / 16, to: w, by: w / 8).flatMap { x in stride(from: h / 16, to: h, by: h / 8).map { (x, $0) } }
            + [(0, 0), (w / 2, h / 2)]   // not the bottom-right corner: VNCInput parks the pointer there
        let covered = waitUntil(timeout: eventTimeout, interval: 0.1) { shows(dim, on: names[1], at: grid) }
        if let second = try? screenshot(sway, output: names[1]) { keep(second, "ask-dim-output-2") }
        XCTAssertTrue(covered, "\(names[1]) is not all \(dim)\n\(child.diagnostics(maxLines: 20))")
        XCTAssertNotEqual(first[w / 2, h / 2], dim, "the prompt is on \(names[0])")
        try vnc.key("enter")
        XCTAssertEqual(finish(child).0, .exited(0), child.diagnostics(maxLines: 20))
        for name in names {
            let clear = waitUntil(timeout: eventTimeout, interval: 0.05) { shows(desktop, on: name, at: grid) }
            if !clear, let shot = try? screenshot(sway, output: name) {
                keep(shot, "after-\(name)")
                XCTFail("\(name) does not show the desktop again: \(grid.map { shot[min($0.0, shot.width - 1), min($0.1, shot.height - 1)] }.filter { $0 != desktop })")
            }
        }
    }

    /// A tap on the other output's dim is a tap on the prompt's dim: it cancels (exit 1) a prompt
    /// whose style dismisses on a tap there (inset-centered), and does nothing to an alert (which
    /// refuses taps on its dim, as UIKit's alerts do), whose Return still answers 0. The taps come
    /// from a second seat's pointer on the second output (wayvnc `--output`).
    func testATapOnTheOtherOutputsDimIsATapOnThePromptsDim() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let names = try twoOutputs(sway)
        _ = try sway.swaymsg(["focus", "output", names[0]])
        let other = try startVNC(sway, seat: "seat1", output: names[1])
        /// Waits until the other output is dimmed (its centre darker than the light desktop) and its
        /// picture has settled (two screenshots in a row equal: the prompt's transition is over).
        func dimmedOnTheOtherOutput(_ child: ChildProcess) -> Bool {
            var previous: RGBImage?
            let dimmed = waitUntil(timeout: eventTimeout, interval: 0.1) {
                guard let shot = try? screenshot(sway, output: names[1]) else { return false }
                defer { previous = shot }
                let p = shot[shot.width / 2, shot.height / 2]
                return Int(p.r) + 30 < 0xF6 && previous?.bytes == shot.bytes
            }
            if !dimmed { XCTFail("no dim on \(names[1])\n\(child.diagnostics(maxLines: 20))") }
            return dimmed
        }
        // A light desktop on both, drawn before any prompt (sway's default is black, which a dim
        // leaves black: the other output would read as dimmed before its dim is there).
        for name in names { _ = try sway.swaymsg(["output", name, "bg", "#f6f5f4", "solid_color"]) }
        for name in names {
            let light = waitUntil(timeout: eventTimeout, interval: 0.05) {
                guard let shot = try? screenshot(sway, output: name) else { return false }
                return shot[shot.width / 2, shot.height / 2] == RGB(0xF6, 0xF5, 0xF4)
            }
            guard light else { return XCTFail("swaybg drew no background on \(name)") }
        }

        let card = try ask(["question", "--style", "inset-centered", "--text", "Delete 3 files?"], in: sway)
        guard dimmedOnTheOtherOutput(card) else { return }
        // x 700: on the second output whether wayvnc's pointer is bound to its output or spans the
        // layout (both outputs side by side).
        try other.send(["move", "700", "300", "click", "1"])
        XCTAssertEqual(finish(card).0, .exited(1), "a tap on the other output's dim cancels\n\(card.diagnostics(maxLines: 20))")

        let alert = try ask(["question", "--text", "Delete 3 files?"], in: sway)
        guard dimmedOnTheOtherOutput(alert) else { return }
        try other.send(["move", "700", "300", "click", "1"])
        XCTAssertNil(alert.waitForExit(timeout: 1), "an alert's dim refuses the tap")
        try vnc.key("enter")
        XCTAssertEqual(finish(alert).0, .exited(0), alert.diagnostics(maxLines: 20))
    }

    func testTimeoutExitsFive() throws {
        let sway = try startSway()
        let started = monotonicNow()
        let child = try ask(["question", "--timeout", "1"], in: sway)
        let status = child.waitForExit(timeout: eventTimeout)
        XCTAssertEqual(status, .exited(5), child.diagnostics(maxLines: 20))
        XCTAssertGreaterThanOrEqual(monotonicNow() - started, 1)
        XCTAssertTrue(child.stdout.waitForEnd(timeout: eventTimeout), "stdout still open")
        XCTAssertEqual(child.stdout.lines, [])
    }
}
