// Base class of the end-to-end tests: starts compositors, wayvnc and clients, and registers every
// one for tear-down (LIFO: client, then input, then compositor), so nothing outlives a test even
// when an assertion fails or a helper throws.
import Foundation
import ModalKitSession
import XCTest
#if canImport(Glibc)
import Glibc
#endif

open class CompositorTestCase: XCTestCase {
    /// Generous bound for one event: debug builds on a loaded 2-core CI machine.
    public let eventTimeout: Double = 10

    private var diagnosticsProviders: [() -> String] = []
    /// This test's failures, first lines: repeated after the processes' output at tear-down, so
    /// the end of a failed test's log says what failed (a log reader that shows only the lines
    /// before "failed" sees them, not only the last process's output).
    private var failureSummaries: [String] = []
    private var keptScreenshots: [(label: String, image: RGBImage)] = []

    /// Keeps `image` so that, if the test fails, it is written as a PNG into
    /// `$MODALKIT_TEST_ARTIFACTS` (default /tmp/modalkit-e2e-failures)/<test name>/ and the path printed.
    public func keep(_ image: RGBImage, _ label: String) {
        keptScreenshots.append((label, image))
    }

    /// Skips the test (with the reason) when a compositor binary is missing. `scripts/test`
    /// installs all of them, so in CI nothing is skipped.
    public func requireProgram(_ names: String...) throws {
        for name in names where findExecutable(name) == nil {
            throw XCTSkip("\(name) is not installed (scripts/test installs it)")
        }
    }

    /// A headless sway whose lone tiled window is `windowWidth`×`windowHeight` at `sway.windowArea`.
    public func startSway(windowWidth: Int = 800, windowHeight: Int = 600, scale: Int = 1) throws -> HeadlessSway {
        try requireProgram("sway", "swaymsg", "grim")
        if getuid() == 0 { try requireProgram("setpriv", "useradd") }
        let sway = try HeadlessSway(windowWidth: windowWidth, windowHeight: windowHeight, scale: scale)
        addTeardownBlock { sway.stop() }
        diagnosticsProviders.append { "sway: " + sway.process.diagnostics(maxLines: 15) }
        return sway
    }

    /// wayvnc in `sway` (``VNCInput``), on seat `seat` of its own when given (nil: seat0).
    public func startVNC(_ sway: HeadlessSway, keyboardLayout: String? = nil, seat: String? = nil,
                         output: String? = nil) throws -> VNCInput {
        try requireProgram("wayvnc")
        let vnc = try VNCInput(sway: sway, keyboardLayout: keyboardLayout, seat: seat, output: output)
        addTeardownBlock { vnc.stop() }
        try vnc.park()   // the cursor starts somewhere over the window; keep it out of screenshots
        return vnc
    }

    public func startWeston(width: Int = 800, height: Int = 600, scale: Int = 1, repaintWindow: Int? = nil) throws -> HeadlessWeston {
        try requireProgram("weston", "weston-screenshooter")
        let weston = try HeadlessWeston(width: width, height: height, scale: scale, repaintWindow: repaintWindow)
        addTeardownBlock { weston.stop() }
        diagnosticsProviders.append { "weston: " + weston.process.diagnostics(maxLines: 15) }
        return weston
    }

    /// A headless KWin with one output of `width`×`height` logical pixels at `scale` (fractional
    /// allowed: 1.5 → 1200×900 device pixels for 800×600), its own session bus, and a driver for
    /// input, screenshots and window rectangles.
    public func startKWin(width: Int = 800, height: Int = 600, scale: Double = 1) throws -> HeadlessKWin {
        try requireProgram("kwin_wayland", "dbus-daemon", "wayland-scanner", "pkg-config")
        let kwin = try HeadlessKWin(width: width, height: height, scale: scale)
        addTeardownBlock { kwin.stop() }
        diagnosticsProviders.append { "kwin: " + kwin.process.diagnostics(maxLines: 20) + "\n" + kwin.driver.process.diagnostics(maxLines: 10) }
        return kwin
    }

    /// A headless GNOME mutter with one virtual monitor of `width`×`height` physical pixels at
    /// `scale`, input through its RemoteDesktop API and screenshots through its ScreenCast API
    /// (see `HeadlessMutter`).
    public func startMutter(width: Int = 800, height: Int = 600, scale: Int = 1) throws -> HeadlessMutter {
        try requireProgram("mutter", "dbus-daemon", "pipewire", "wireplumber", "gst-launch-1.0")
        let mutter = try HeadlessMutter(width: width, height: height, scale: scale)
        addTeardownBlock { mutter.stop() }
        diagnosticsProviders.append { "mutter session:\n" + mutter.diagnostics() }
        return mutter
    }

    public func startDemo(_ arguments: [String], environment: [String: String], executable: String? = nil) throws -> DemoProcess {
        let demo = try DemoProcess(arguments, environment: environment, executable: executable)
        addTeardownBlock { demo.stop() }
        diagnosticsProviders.append { "modal-demo: " + demo.diagnostics() }
        return demo
    }

    public func startDemo(_ arguments: [String], in session: WaylandSession) throws -> DemoProcess {
        try startDemo(arguments, environment: session.clientEnvironment)
    }

    /// Starts any client program (foot, wev, weston-simple-shm) in `session`, stopped at tear-down.
    public func startClient(_ arguments: [String], in session: WaylandSession) throws -> ChildProcess {
        let child = try ChildProcess(arguments, environment: session.clientEnvironment)
        addTeardownBlock { child.stop() }
        diagnosticsProviders.append { child.diagnostics(maxLines: 15) }
        return child
    }

    /// Fails (with the demo's output) unless an event `word` arrives at index ≥ `since`.
    @discardableResult
    public func expectEvent(_ demo: DemoProcess, _ word: String, since: Int = 0, timeout: Double? = nil,
                     _ message: String = "", file: StaticString = #filePath, line: UInt = #line) -> String? {
        let found = demo.waitForLine(word, since: since, timeout: timeout ?? eventTimeout)
        if found == nil {
            XCTFail("no `\(word)` event within \(timeout ?? eventTimeout) s \(message)\nstdout so far: \(demo.stdoutLines.suffix(30))\nstderr: \(demo.stderrLines.suffix(10))",
                    file: file, line: line)
        }
        return found
    }

    /// Starts modal-demo in `sway`, waits for its first `configure` and its mapped window, and
    /// returns both. Throws (failing the test) when either does not come. `environment` changes
    /// the session's client environment (nil removes a variable).
    public func launchDemo(_ arguments: [String], in sway: HeadlessSway, environment: [String: String?] = [:],
                    executable: String? = nil,
                    file: StaticString = #filePath, line: UInt = #line) throws -> (DemoProcess, SwayWindow) {
        var env = sway.clientEnvironment
        for (key, value) in environment { env[key] = value }
        let demo = try startDemo(arguments + ["--log-events"], environment: env, executable: executable)
        guard demo.waitForLine("configure", timeout: eventTimeout) != nil else {
            throw HarnessError("modal-demo logged no `configure` within \(eventTimeout) s:\n\(demo.diagnostics())")
        }
        var window = try sway.waitForWindow(pid: demo.pid, timeout: eventTimeout)
        // sway's first configure may leave the size to the client (0×0 → --size); the tiled size
        // follows once the window maps. Wait until the demo logged a configure of the window's
        // size and a frame after it, so screenshots show the window at its final size.
        var settled = false
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) {
            guard let w = (try? sway.windows())?.first(where: { $0.pid == Int(demo.pid) && $0.isVisible }) else { return false }
            window = w
            let lines = demo.stdoutLines
            guard let c = lines.lastIndex(where: { DemoProcess.firstWord($0) == "configure" }),
                  let size = DemoProcess.parseSize(lines[c]),
                  size.width == w.rect.width, size.height == w.rect.height else { return false }
            settled = lines[(c + 1)...].contains { DemoProcess.firstWord($0) == "frame" }
            return settled
        }
        guard settled else {
            throw HarnessError("modal-demo did not configure and draw at its window size \(window.rect) within \(eventTimeout) s:\n\(demo.diagnostics())")
        }
        return (demo, window)
    }

    /// CPU ticks `pid` uses over `seconds` of wall time.
    public func cpuTicksUsed(by pid: pid_t, over seconds: Double) throws -> Int {
        let before = try cpuTicks(pid: pid)
        usleep(useconds_t(seconds * 1e6))
        return try cpuTicks(pid: pid) - before
    }

    open override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
                                     expected: Bool) {
        let first = description.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        failureSummaries.append("\((filePath as NSString).lastPathComponent):\(lineNumber): \(first.prefix(300))")
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

    open override func tearDown() {
        // Print what the processes said when the test failed, before the tear-down blocks stop them.
        if let run = testRun, run.failureCount + run.unexpectedExceptionCount > 0 {
            for provide in diagnosticsProviders { print(provide()) }
            for failure in failureSummaries { print("failed here: " + failure) }
            if !keptScreenshots.isEmpty {
                let base = ProcessInfo.processInfo.environment["MODALKIT_TEST_ARTIFACTS"] ?? "/tmp/modalkit-e2e-failures"
                let dir = base + "/" + name.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" }
                try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                for (index, kept) in keptScreenshots.enumerated() {
                    let path = dir + "/" + String(format: "%02d-", index + 1) + kept.label + ".png"
                    do { try kept.image.writePNG(to: path); print("screenshot kept: \(path)") } catch { print("\(error)") }
                }
            }
        }
        diagnosticsProviders.removeAll()
        failureSummaries.removeAll()
        keptScreenshots.removeAll()
        super.tearDown()
    }
}
