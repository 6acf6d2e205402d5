// `modalkit-session` as users run it: the installed command (``InstalledProducts``) runs
// Examples/HostApp (built as its own package, ExamplePackages) in its private headless sway, drives
// it with a step file and command-line steps, and leaves the screenshots and the app's output in
// the folder it names; a bad command line or step is one line and status 2, a step that does not
// hold one line and status 1, and nothing of the session is left behind either way.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class SessionCommandTests: CompositorTestCase {
    private var command: String { get throws { try InstalledProducts.binDirectory() + "/modalkit-session" } }

    /// A folder of the test's own (removed at tear-down) and the environment the command runs in:
    /// no Wayland session, the vncdo scripts/test installed.
    private func workspace() throws -> (dir: String, environment: [String: String]) {
        try requireProgram("sway", "swaymsg", "grim", "wayvnc")
        guard let vncdo = vncdoPath() else { throw XCTSkip("vncdo is not installed (scripts/test installs it)") }
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-session-test")
        addTeardownBlock { removeTree(dir) }
        return (dir, harnessEnvironment(["MODALKIT_VNCDO": vncdo, "WAYLAND_DISPLAY": nil, "WAYLAND_SOCKET": nil, "SWAYSOCK": nil]))
    }

    /// Checks the session that `stdout`'s `session:` line names is gone: its runtime directory
    /// removed, and sway, wayvnc and the app no longer running.
    private func assertSessionGone(_ stdout: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let session = stdout.split(separator: "\n").first(where: { $0.hasPrefix("session: XDG_RUNTIME_DIR=") }) else {
            return XCTFail("no session line: \(stdout)", file: file, line: line)
        }
        let fields = session.split(separator: " ")
        let directory = String(fields[1].dropFirst("XDG_RUNTIME_DIR=".count))
        XCTAssertTrue(directory.hasPrefix("/"), "\(session)", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory), "\(directory) removed", file: file, line: line)
        for name in ["sway", "wayvnc", "app"] {
            guard let i = fields.firstIndex(of: Substring(name)), i + 1 < fields.count, let pid = Int32(fields[i + 1]) else {
                XCTFail("no \(name) pid in \(session)", file: file, line: line)
                continue
            }
            let state = readProcFile("/proc/\(pid)/stat").flatMap { $0.split(separator: ")").last?.split(separator: " ").first }
            XCTAssertTrue(state == nil || state == "Z", "\(name) (pid \(pid)) still runs", file: file, line: line)
        }
    }

    /// HostApp's blue field (#1E40AF) fills its 800×600 window; a click on it presents the orange
    /// card (#FF8C00) inset 20 pt left and right and 110 pt top and bottom over a black dim of 0.5,
    /// so 60 pt from the top the blue shows as (15, 32, 88) ±1 (the premultiplied blend's rounding).
    func testItRunsHostAppClicksAndSavesTheScreenshotsAndTheOutput() throws {
        let (dir, environment) = try workspace()
        let app = try ExamplePackages.hostAppExecutable(for: self)
        let style = try InstalledProducts.style(PluginTestSupport.insetCenteredLibrary)
        let steps = dir + "/steps"
        try """
        # HostApp: its field, then the card
        wait ^frame$
        screenshot field

        click 400 300
        """.write(toFile: steps, atomically: false, encoding: .utf8)
        let output = dir + "/out"
        let r = try ChildProcess.run([try command, "--output", output, "--steps", steps,
                                      "--step", "wait -t 20 ^presented$", "--step", "screenshot card", "--", app, style],
                                     environment: environment, timeout: 180)
        let stdout = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, .exited(0), "stdout: \(stdout)\nstderr: \(r.stderr)")
        XCTAssertEqual(stdout.split(separator: "\n").first.map(String.init), "output: \(output)")
        XCTAssertTrue(stdout.contains("\n5 steps held; the app still ran and is stopped;"), stdout)

        let field = try RGBImage.loadPNG(path: output + "/field.png")
        keep(field, "field")
        XCTAssertEqual(field.width, 800)
        XCTAssertEqual(field.height, 600)
        for (x, y) in [(0, 0), (400, 300), (799, 599), (400, 60)] {
            XCTAssertEqual(field[x, y], RGB(0x1E, 0x40, 0xAF), "the blue field at \(x),\(y)")
        }
        let card = try RGBImage.loadPNG(path: output + "/card.png")
        keep(card, "card")
        XCTAssertEqual(card[400, 300], RGB(0xFF, 0x8C, 0x00), "the card's centre")
        let dim = card[400, 60]
        XCTAssert(abs(Int(dim.r) - 15) <= 1 && abs(Int(dim.g) - 32) <= 1 && abs(Int(dim.b) - 88) <= 1, "dim: \(dim)")

        // The app's output, as it printed it: frames, then the presentation's states in order.
        let lines = try String(contentsOfFile: output + "/stdout.log", encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "frame", "\(lines.prefix(5))")
        XCTAssertEqual(lines.filter { $0 != "frame" }.prefix(2), ["presenting", "presented"], "\(lines)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/stderr.log"))
        assertSessionGone(stdout)
    }

    /// Keys by the names the help gives: the form's field (modal-demo --content form) typed into,
    /// `backspace` deletes a character, `ctrl-backspace` a word, `ctrl-a` selects all to type over,
    /// `shift-left` extends a selection; Return answers with the text, as the demo's log says.
    func testKeysByTheirNamesEditTheFormsField() throws {
        let (dir, environment) = try workspace()
        let output = dir + "/out"
        let steps = ["wait ^frame", "click 400 300", "wait -t 20 ^presented$",
                     "type Hello worlds", "key backspace", "wait ^text \"Hello world\"$",
                     "key ctrl-backspace", "wait ^text \"Hello \"$",
                     "key ctrl-a", "type Notes", "key shift-left", "key shift-left", "type x", "wait ^text \"Notx\"$",
                     "key enter", "wait ^response ok", "wait ^dismissed$", "close"]
        let r = try ChildProcess.run([try command, "--output", output] + steps.flatMap { ["--step", $0] }
                                     + ["--", try InstalledProducts.demo(), "--content", "form", "--log-events"],
                                     environment: environment, timeout: 180)
        let stdout = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, .exited(0), "stdout: \(stdout)\nstderr: \(r.stderr)")
        let lines = try String(contentsOfFile: output + "/stdout.log", encoding: .utf8).split(separator: "\n").map(String.init)
        let texts = lines.filter { $0.hasPrefix("text ") }
        XCTAssertEqual(texts.suffix(6), ["text \"N\"", "text \"No\"", "text \"Not\"", "text \"Note\"", "text \"Notes\"",
                                         "text \"Notx\""], "\(lines)")
        XCTAssertTrue(texts.contains("text \"Hello world\"") && texts.contains("text \"Hello \""), "\(texts)")
        XCTAssertEqual(lines.first { $0.hasPrefix("response ") }, "response ok \"Notx\"")
        assertSessionGone(stdout)
    }

    /// `--overlay`: `modal-demo ask` maps a layer surface over the whole output and no window; the
    /// session starts once the output shows something, the output is --size, screenshots are the
    /// whole output (the alert's light card in the middle, one dim colour over the desktop along
    /// every edge), and Return answers it: the app ends by itself with the last step, status 0.
    func testAnOverlayIsDrivenOnTheWholeOutput() throws {
        let (dir, environment) = try workspace()
        let output = dir + "/out"
        let r = try ChildProcess.run([try command, "--overlay", "--size", "640x480", "--output", output,
                                      "--step", "screenshot prompt", "--step", "key enter", "--step", "exit 0", "--",
                                      try InstalledProducts.demo(), "ask", "question", "--text", "Delete 3 files?"],
                                     environment: environment, timeout: 120)
        let stdout = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, .exited(0), "stdout: \(stdout)\nstderr: \(r.stderr)")
        XCTAssertTrue(stdout.contains("\n3 steps held; the app ended (exit status 0);"), stdout)
        let prompt = try RGBImage.loadPNG(path: output + "/prompt.png")
        keep(prompt, "prompt")
        XCTAssertEqual(prompt.width, 640)
        XCTAssertEqual(prompt.height, 480)
        let centre = prompt[320, 240]
        XCTAssertTrue(centre.r > 200 && centre.g > 200 && centre.b > 200, "the alert's card at the centre: \(centre)")
        let dim = prompt[0, 0]
        XCTAssertLessThan(Int(dim.r) + Int(dim.g) + Int(dim.b), Int(centre.r) + Int(centre.g) + Int(centre.b))
        // (The pointer is parked at the bottom-right corner: the tip of its image shows there.)
        for x in stride(from: 0, to: 630, by: 29) {
            for y in [0, 479] { XCTAssertEqual(prompt[x, y], dim, "the dim along the top and bottom edges at \(x),\(y)") }
        }
        for y in stride(from: 0, to: 470, by: 23) {
            for x in [0, 639] { XCTAssertEqual(prompt[x, y], dim, "the dim along the left and right edges at \(x),\(y)") }
        }
        XCTAssertEqual(try String(contentsOfFile: output + "/stdout.log", encoding: .utf8), "", "a question prints nothing")
        assertSessionGone(stdout)

        // Escape cancels (ask's exit status 1): `exit 1` holds, `exit 0` is a failed step.
        for (expected, status, message) in [("1", ExitStatus.exited(0), ""),
                                            ("0", .exited(1), "modalkit-session: step 2 `exit 0` failed: the app ended with exit status 1, not exit status 0\n")] {
            let r = try ChildProcess.run([try command, "--overlay", "--size", "640x480", "--output", dir + "/cancel-\(expected)",
                                          "--step", "key esc", "--step", "exit \(expected)", "--",
                                          try InstalledProducts.demo(), "ask", "question", "--text", "Delete 3 files?"],
                                         environment: environment, timeout: 120)
            XCTAssertEqual(r.status, status, r.stderr)
            XCTAssertEqual(r.stderr, message)
            assertSessionGone(String(decoding: r.stdout, as: UTF8.self))
        }
    }

    /// `--overlay` with an app that shows nothing: one line after --timeout, status 1; with one
    /// that ends first: at once, one line with its status; the session stopped either way.
    func testAnOverlayThatNeverShowsIsOneLine() throws {
        let (dir, environment) = try workspace()
        let silent = try ChildProcess.run([try command, "--overlay", "--timeout", "2", "--output", dir + "/a",
                                           "--step", "screenshot never", "/bin/sleep", "30"], environment: environment, timeout: 60)
        XCTAssertEqual(silent.status, .exited(1), silent.stderr)
        XCTAssertEqual(silent.stderr, "modalkit-session: the app showed nothing on the output within 2.0 s\n")
        assertSessionGone(String(decoding: silent.stdout, as: UTF8.self))
        let started = monotonicNow()
        let ended = try ChildProcess.run([try command, "--overlay", "--timeout", "30", "--output", dir + "/b",
                                          "/bin/sh", "-c", "exit 3"], environment: environment, timeout: 60)
        XCTAssertEqual(ended.status, .exited(1), ended.stderr)
        XCTAssertEqual(ended.stderr, "modalkit-session: the app ended (exit status 3) before it showed anything\n")
        XCTAssertLessThan(monotonicNow() - started, 30, "it did not wait for the 30 s timeout")
        assertSessionGone(String(decoding: ended.stdout, as: UTF8.self))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/a/never.png"))
        // Without --overlay, an app that maps no window is told about it.
        let windowless = try ChildProcess.run([try command, "--timeout", "2", "--output", dir + "/c", "/bin/sleep", "30"],
                                              environment: environment, timeout: 60)
        XCTAssertEqual(windowless.status, .exited(1), windowless.stderr)
        XCTAssertEqual(windowless.stderr, "modalkit-session: the app mapped no window within 2.0 s "
                       + "(an app that shows a layer-shell overlay instead runs with --overlay)\n")
    }

    /// A step that does not hold: one line naming it, status 1, the app's output still saved, and
    /// the session stopped.
    func testAStepThatDoesNotHoldFailsWithOneLineAndStatusOne() throws {
        let (dir, environment) = try workspace()
        let app = try ExamplePackages.hostAppExecutable(for: self)
        let style = try InstalledProducts.style(PluginTestSupport.insetCenteredLibrary)
        let r = try ChildProcess.run([try command, "--output", dir + "/out", "--step", "wait -t 1 ^no such line$",
                                      "--step", "screenshot never", app, style], environment: environment, timeout: 120)
        XCTAssertEqual(r.status, .exited(1), r.stderr)
        XCTAssertEqual(r.stderr, "modalkit-session: step 1 `wait -t 1.0 ^no such line$` failed: no line matched within 1.0 s\n")
        XCTAssertTrue((try? String(contentsOfFile: dir + "/out/stdout.log", encoding: .utf8))?.hasPrefix("frame\n") == true,
                      "the app's output is saved")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out/never.png"), "no step after the failed one")
        assertSessionGone(String(decoding: r.stdout, as: UTF8.self))
    }

    /// An app that exits before it maps a window (a style it cannot find, say): at once, not after
    /// the window timeout, one line with its exit status and the last line it wrote to stderr,
    /// status 1, and the session stopped.
    func testAnAppThatEndsBeforeItsWindowIsOneLineWithWhatItSaid() throws {
        let (dir, environment) = try workspace()
        let started = monotonicNow()
        let r = try ChildProcess.run([try command, "--output", dir + "/out", "--timeout", "30", "--step", "screenshot never",
                                      "/bin/sh", "-c", "echo 'my-app: no style named bottom-sheet' >&2; exit 3"],
                                     environment: environment, timeout: 120)
        XCTAssertEqual(r.status, .exited(1), r.stderr)
        XCTAssertEqual(r.stderr, "modalkit-session: the app ended (exit status 3) before it mapped a window: "
                       + "my-app: no style named bottom-sheet\n")
        XCTAssertLessThan(monotonicNow() - started, 30, "it did not wait for the window's 30 s timeout")
        assertSessionGone(String(decoding: r.stdout, as: UTF8.self))
    }

    /// SIGINT during a `sleep` step ends the pause at once: the app and the session are stopped,
    /// one line says so, and the status is 128 + 2 (the man page's rule), not the sleep's end and 0.
    func testAnInterruptDuringASleepStopsEverythingAtOnce() throws {
        let (dir, environment) = try workspace()
        let child = try ChildProcess([try command, "--output", dir + "/out", "--step", "screenshot before", "--step", "sleep 60",
                                      try InstalledProducts.demo()], environment: environment)
        addTeardownBlock { child.stop() }
        // The screenshot saved: the sleep step is under way.
        XCTAssertTrue(waitUntil(timeout: 60, interval: 0.05) { FileManager.default.fileExists(atPath: dir + "/out/before.png") },
                      "the first step held\n\(child.diagnostics())")
        let interrupted = monotonicNow()
        kill(child.pid, SIGINT)
        XCTAssertEqual(child.waitForExit(timeout: 30), .exited(130), child.diagnostics())
        XCTAssertLessThan(monotonicNow() - interrupted, 30, "it did not sleep on")
        XCTAssertTrue(child.stderr.waitForEnd(timeout: 5))
        XCTAssertTrue(child.stdout.waitForEnd(timeout: 5))
        XCTAssertEqual(child.stderr.lines.filter { $0.hasPrefix("modalkit-session: ") }.count, 1, child.diagnostics())
        assertSessionGone(child.stdout.lines.joined(separator: "\n"))
    }

    /// Bad command lines and steps: one line on stderr, status 2, before any compositor starts.
    func testBadFlagsAndStepsAreOneLineAndStatusTwo() throws {
        let (dir, environment) = try workspace()
        let steps = dir + "/bad-steps"
        try "click 10 20\n\n# fine so far\njump 3\n".write(toFile: steps, atomically: false, encoding: .utf8)
        for (arguments, message) in [
            (["--step", "click 10", "/bin/true"], "--step: click takes two whole numbers X Y ≥ 0: `click 10`"),
            (["--step", "wait (", "/bin/true"], "--step: not a regular expression: (: `wait (`"),
            (["--step", "wait -t soon ^x", "/bin/true"], "--step: not a number of seconds: soon: `wait -t soon ^x`"),
            (["--step", "screenshot ../up", "/bin/true"], "--step: screenshot takes one file name without / (saved as NAME.png): `screenshot ../up`"),
            (["--steps", steps, "/bin/true"], "\(steps):4: unknown step 'jump' (click, key, type, wait, sleep, screenshot, close, exit): `jump 3`"),
            (["--step", "key backspaces", "/bin/true"],
             "--step: unknown key 'backspaces' (a letter, digit or punctuation character, or enter, esc, tab, space, backspace, "
             + "delete, home, end, left, right, up, down, pageup, pagedown, f1…f20; modifiers joined with -: ctrl-a, shift-tab): "
             + "`key backspaces`"),
            (["--step", "key ctrl-", "/bin/true"],
             "--step: unknown key 'ctrl-' (a letter, digit or punctuation character, or enter, esc, tab, space, backspace, "
             + "delete, home, end, left, right, up, down, pageup, pagedown, f1…f20; modifiers joined with -: ctrl-a, shift-tab): "
             + "`key ctrl-`"),
            (["--step", "exit", "/bin/true"], "--step: exit takes the app's exit status (0 to 255) and at most SECONDS: `exit`"),
            (["--step", "exit 256", "/bin/true"], "--step: exit takes the app's exit status (0 to 255) and at most SECONDS: `exit 256`"),
            (["--steps", dir + "/missing", "/bin/true"], "--steps: cannot read \(dir)/missing"),
            (["--size", "10x10", "/bin/true"], "--size takes WxH, each 64 to 8192 (not '10x10')"),
            (["--frobnicate", "/bin/true"], "unknown option '--frobnicate' (see --help)"),
            (["--step", "key esc"], "no app to run (modalkit-session [OPTIONS] APP [ARGS...])"),
            (["--", dir + "/no-such-app"], "cannot run '\(dir)/no-such-app': not an executable file"),
            (["--overlay", "--step", "close", "/bin/true"],
             "`close` closes the app's window, and with --overlay it has none (answer the overlay instead, e.g. key esc)"),
        ] {
            let r = try ChildProcess.run([try command] + arguments, environment: environment, timeout: 20)
            XCTAssertEqual(r.status, .exited(2), "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr, "modalkit-session: \(message)\n", "\(arguments)")
            XCTAssertEqual(r.stdout.count, 0, "\(arguments)")
        }
        let help = try ChildProcess.run([try command, "--help"], environment: environment, timeout: 20)
        XCTAssertEqual(help.status, .exited(0))
        XCTAssertTrue(String(decoding: help.stdout, as: UTF8.self).hasPrefix("usage: modalkit-session [OPTIONS] [--] APP [ARGS...]\n"))
    }
}
