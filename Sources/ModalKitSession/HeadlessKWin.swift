// A private headless KWin (KDE Plasma 5.27): `kwin_wayland --virtual` on its own session bus,
// with real input (org_kde_kwin_fake_input), screenshots (org.kde.KWin.ScreenShot2) and window
// rectangles (KWin scripts) through Fixtures/kwin_driver.c, compiled at test time.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A rectangle in KWin's logical (global) coordinates, as KWin's scripting API gives it
/// (`QRectF`: fractional at a fractional output scale).
public struct KWinRect: Equatable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) { self.x = x; self.y = y; self.width = width; self.height = height }

    /// The rectangle in screenshot pixels at output scale `scale` (rounded to whole pixels).
    public func pixels(scale: Double = 1) -> PixelBox {
        let x0 = (x * scale).rounded(), y0 = (y * scale).rounded()
        return PixelBox(x: Int(x0), y: Int(y0),
                        width: Int(((x + width) * scale).rounded() - x0), height: Int(((y + height) * scale).rounded() - y0))
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// One window as a KWin script sees it (`workspace.clientList()`).
public struct KWinWindow {
    public let pid: Int
    /// The window with its server-side decoration (`frameGeometry`).
    public let frame: KWinRect
    /// The client's surface (`bufferGeometry`): for a client that draws no decoration of its
    /// own, its content.
    public let buffer: KWinRect
    public let caption: String

    /// Whether KWin draws a title bar above the client's surface (the frame starts above it).
    public var hasServerSideTitleBar: Bool { frame.y < buffer.y }
}

/// `kwin_wayland --virtual` with one output of `width`×`height` logical pixels (KWin's `--width`,
/// `--height`) at scale `scale` (`--scale`), so `width`·`scale` × `height`·`scale` device pixels; no
/// lock screen, no Xwayland. At a fractional scale such as 1.5 KWin offers
/// wp_fractional_scale_manager_v1 (and sends wl_output.scale 2, the scale rounded up).
///
/// Everything is private to the session: a 0700 directory under /tmp is XDG_RUNTIME_DIR and
/// HOME (KWin's config and cache go there); a `dbus-daemon` of our own is the session bus
/// (no service activation, so nothing else gets started on it); the Wayland socket is
/// `wayland-kwin` in that directory. `/usr/bin/kwin_wayland` carries the file capability
/// `cap_sys_resource=ep`, which a container without that capability refuses to exec (EPERM): the
/// session runs a plain copy of it (still named `kwin_wayland`: KWin looks at its own name).
/// `KWIN_WAYLAND_NO_PERMISSION_CHECKS=1` and `KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1` open the
/// restricted fake-input and screenshot interfaces to the driver. Animations are off
/// (`AnimationDurationFactor=0`), so windows appear and close at once.
///
/// A new window is centred on the output; KWin answers xdg-decoration with server_side and draws a
/// Breeze title bar above the window's content.
public final class HeadlessKWin: WaylandSession {
    /// The session's directory (XDG_RUNTIME_DIR and HOME; KWin's configuration and cache).
    public var runtimeDirectory: String { desktop.directory }
    public let displayName = "wayland-kwin"
    /// The output's logical size and its scale; device pixels = logical × scale.
    public let width: Int
    public let height: Int
    public let scale: Double
    /// The session's own `dbus-daemon` and its address (DBUS_SESSION_BUS_ADDRESS).
    public var bus: ChildProcess { desktop.bus.process }
    public var busAddress: String { desktop.bus.address }
    /// The directory, the bus and the stop path of everything the session started.
    private let desktop: PrivateDesktop
    /// kwin_wayland (the copy), by PID.
    public let process: ChildProcess
    /// Input, screenshots and scripts; one Wayland connection for the whole session.
    public let driver: KWinDriver
    /// Numbers the script and screenshot files in the session directory.
    private var fileCounter = 0

    /// Compiles the driver, starts the bus and KWin, and waits (bounded) until KWin's socket
    /// answers, its screenshot interface is on the bus and the seat has the driver's pointer,
    /// keyboard and touch devices.
    /// - Throws: `HarnessError` with the processes' output when something does not come up
    ///   within `timeout` seconds.
    public init(width: Int = 800, height: Int = 600, scale: Double = 1, timeout: Double = 20) throws {
        self.width = width
        self.height = height
        self.scale = scale
        var driverBinary = ""
        let desktop: PrivateDesktop
        do {
            desktop = try PrivateDesktop(prefix: "modalkit-kwin", timeout: timeout, variables: { dir in
                ["XDG_CONFIG_HOME": dir + "/.config", "XDG_CACHE_HOME": dir + "/.cache", "XDG_DATA_HOME": dir + "/.local/share"]
            }, prepare: { dir in
                try HeadlessKWin.writeConfiguration(in: dir)
                driverBinary = try KWinDriver.compile(into: dir)
                try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: false)
                guard let installed = findExecutable("kwin_wayland") else { throw HarnessError("kwin_wayland not installed") }
                try FileManager.default.copyItem(atPath: installed, toPath: dir + "/bin/kwin_wayland")
            })
        } catch {
            throw HarnessError("headless KWin did not start: \(error)")
        }
        self.desktop = desktop
        let dir = desktop.directory
        func fail(_ message: String) -> HarnessError {
            desktop.stop()
            return HarnessError(message)
        }

        var env = desktop.environment
        env["KWIN_WAYLAND_NO_PERMISSION_CHECKS"] = "1"
        env["KWIN_SCREENSHOT_NO_PERMISSION_CHECKS"] = "1"
        // Scripts' print() output lands in KWin's log, which Qt writes to stderr (forced, never
        // journald); kwin_scripting's debug messages are on too, so a failing script says why.
        env["QT_LOGGING_RULES"] = "kwin_scripting=true"
        env["QT_FORCE_STDERR_LOGGING"] = "1"
        var arguments = [dir + "/bin/kwin_wayland", "--virtual", "--width", String(width), "--height", String(height),
                         "--socket", displayName, "--no-lockscreen"]
        if scale != 1 { arguments += ["--scale", String(scale)] }
        let kwin: ChildProcess
        do {
            kwin = try desktop.start(arguments, environment: env, name: "kwin_wayland", stopTimeout: 5)
        } catch {
            throw fail("\(error)")
        }
        let socket = dir + "/" + displayName
        let up = waitUntil(timeout: timeout, interval: 0.05) { !kwin.isRunning || isSocket(socket) }
        guard up, kwin.isRunning else {
            throw fail("kwin_wayland did not start (\(kwin.isRunning ? "no socket within \(timeout) s" : "it ended")):\n\(kwin.diagnostics())")
        }

        var driverEnv = desktop.environment
        driverEnv["WAYLAND_DISPLAY"] = displayName
        let driver: KWinDriver
        do {
            driver = try KWinDriver(binary: driverBinary, environment: driverEnv)
        } catch {
            throw fail("\(error)\n\(kwin.diagnostics())")
        }
        desktop.teardown.add { driver.stop() }
        do {
            // The screenshot interface belongs to an effect, loaded once compositing runs.
            var hasScreenshots = false
            _ = try waitUntil(timeout: timeout, interval: 0.05) {
                hasScreenshots = try driver.command("has-name org.kde.KWin.ScreenShot2") == "1"
                return hasScreenshots || !kwin.isRunning
            }
            guard hasScreenshots else {
                throw HarnessError("org.kde.KWin.ScreenShot2 not on the session bus within \(timeout) s (it exists only when KWin composites with OpenGL: Mesa's libgl1-mesa-dri installed?)")
            }
            try driver.command("authenticate")
            // Each fake-input connection is a new input device of the seat: wait until the seat
            // announces pointer, keyboard and touch (wl_seat capabilities 1 | 2 | 4).
            var caps = 0
            _ = try waitUntil(timeout: timeout, interval: 0.05) {
                caps = Int(try driver.command("capabilities")) ?? 0
                return caps & 7 == 7
            }
            guard caps & 7 == 7 else { throw HarnessError("seat capabilities \(caps) after \(timeout) s, expected pointer, keyboard and touch") }
        } catch {
            throw fail("headless KWin not ready: \(error)\n\(driver.process.diagnostics())\n\(kwin.diagnostics())")
        }
        process = kwin
        self.driver = driver
    }

    deinit { stop() }

    /// Stops the driver, KWin and the bus (by PID, bounded) and removes the session directory.
    public func stop() { desktop.stop() }

    /// KWin's configuration: no animations.
    private static func writeConfiguration(in dir: String) throws {
        let config = dir + "/.config"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        // AnimationDurationFactor 0: KDE's global "animation speed: instant" (window open/close
        // effects end at once, so screenshots never catch a window half faded in).
        try """
        [KDE]
        AnimationDurationFactor=0

        """.write(toFile: config + "/kdeglobals", atomically: false, encoding: .utf8)
    }

    // MARK: windows

    /// Every window KWin manages, from a KWin script run now (`workspace.clientList()`); its
    /// `print` lines land in KWin's log, tagged with a token of this call.
    /// - Throws: `HarnessError` when the script cannot be loaded or its output does not come.
    public func windows(timeout: Double = 10) throws -> [KWinWindow] {
        fileCounter += 1
        let token = "modalkit-\(fileCounter)"
        let path = runtimeDirectory + "/windows-\(fileCounter).js"
        try """
        var list = workspace.clientList();
        for (var i = 0; i < list.length; i++) {
            var w = list[i], f = w.frameGeometry, b = w.bufferGeometry;
            print("\(token) window " + w.pid + " " + f.x + " " + f.y + " " + f.width + " " + f.height + " "
                  + b.x + " " + b.y + " " + b.width + " " + b.height + " " + w.caption);
        }
        print("\(token) end");

        """.write(toFile: path, atomically: false, encoding: .utf8)
        defer { unlink(path) }
        try runScript(path)
        let marker = "\(token) "
        let printed = process.stderr.wait(timeout: timeout, { lines -> [String]? in
            let mine = lines.compactMap { line -> String? in
                guard let r = line.range(of: marker) else { return nil }
                return String(line[r.upperBound...])
            }
            return mine.contains("end") ? mine : nil
        })
        try driver.command("unload-script \(path)")
        guard let lines = printed else {
            throw HarnessError("the window-listing script printed nothing within \(timeout) s:\n\(process.diagnostics())")
        }
        return try lines.filter { $0.hasPrefix("window ") }.map { line in
            let f = line.split(separator: " ", maxSplits: 10, omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 10, let pid = Int(f[1]) else { throw HarnessError("unexpected script line: \(line)") }
            let n = f[2...9].compactMap { Double($0) }
            guard n.count == 8 else { throw HarnessError("unexpected script line: \(line)") }
            return KWinWindow(pid: pid, frame: KWinRect(x: n[0], y: n[1], width: n[2], height: n[3]),
                              buffer: KWinRect(x: n[4], y: n[5], width: n[6], height: n[7]),
                              caption: f.count > 10 ? f[10] : "")
        }
    }

    /// Closes every window of process `pid` the way KWin's own close does (its title bar's close
    /// button, Alt+F4): a KWin script calls `closeWindow()` on it, and KWin sends the client
    /// `xdg_toplevel.close`. Returns once the script has run.
    /// - Throws: `HarnessError` when the script cannot be loaded, does not run within `timeout`
    ///   seconds, or finds no window of `pid`.
    public func closeWindows(pid: pid_t, timeout: Double = 10) throws {
        fileCounter += 1
        let token = "modalkit-\(fileCounter)"
        let path = runtimeDirectory + "/close-\(fileCounter).js"
        try """
        var list = workspace.clientList(), closed = 0;
        for (var i = 0; i < list.length; i++) {
            if (list[i].pid == \(pid)) { list[i].closeWindow(); closed++; }
        }
        print("\(token) closed " + closed);

        """.write(toFile: path, atomically: false, encoding: .utf8)
        defer { unlink(path) }
        try runScript(path)
        let marker = "\(token) closed "
        let closed = process.stderr.wait(timeout: timeout) { lines in
            lines.lazy.compactMap { line in line.range(of: marker).map { Int(line[$0.upperBound...]) ?? -1 } }.first
        }
        try driver.command("unload-script \(path)")
        guard let closed else {
            throw HarnessError("the close script printed nothing within \(timeout) s:\n\(process.diagnostics())")
        }
        guard closed > 0 else { throw HarnessError("KWin has no window of pid \(pid) to close") }
    }

    /// Loads and runs the KWin script at `path` (org.kde.kwin.Scripting.loadScript, Script.run).
    public func runScript(_ path: String) throws {
        try driver.command("script \(path)")
    }

    /// Waits (bounded) until process `pid` has a window of content size `width`×`height` (logical).
    public func waitForWindow(pid: pid_t, width: Int, height: Int, timeout: Double = 10) throws -> KWinWindow {
        var found: KWinWindow?
        var last: [KWinWindow] = []
        _ = waitUntil(timeout: timeout, interval: 0.1) {
            last = (try? windows()) ?? []
            found = last.first { $0.pid == Int(pid) && $0.buffer.width == Double(width) && $0.buffer.height == Double(height) }
            return found != nil
        }
        guard let found else {
            throw HarnessError("no \(width)x\(height) window of pid \(pid) within \(timeout) s; windows: \(last.map { "\($0.pid) \($0.buffer)" })")
        }
        return found
    }

    // MARK: screenshots

    /// The whole output (org.kde.KWin.ScreenShot2.CaptureActiveScreen; KWin leaves the cursor out
    /// unless asked with `include-cursor`, which the driver never does). In device pixels
    /// (`width`·`scale` × `height`·`scale`, `native-resolution`), or with `nativeResolution` false
    /// scaled by KWin to the logical size. At scale 1 both are the same.
    public func screenshot(nativeResolution: Bool = true) throws -> RGBImage {
        fileCounter += 1
        let path = runtimeDirectory + "/screenshot-\(fileCounter).ppm"
        defer { unlink(path) }
        try driver.command("screenshot \(path)" + (nativeResolution ? " native" : ""))
        return try RGBImage.parsePPM(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Screenshots until two taken `interval` apart are identical (the picture has settled), bounded.
    /// - Throws: `HarnessError` if it never settles within `timeout` seconds.
    public func stableScreenshot(nativeResolution: Bool = true, timeout: Double = 5, interval: Double = 0.15) throws -> RGBImage {
        try settledScreenshot(timeout: timeout, interval: interval) { try screenshot(nativeResolution: nativeResolution) }
    }
}

/// Fixtures/kwin_driver.c running in a KWin session: one command per line on its stdin, one
/// `ok …` / `error …` line back on stdout after KWin has processed it (a wl_display roundtrip).
/// Coordinates are KWin's global logical coordinates.
public final class KWinDriver: SeatDriving {
    /// Linux input event codes (linux/input-event-codes.h).
    public enum Key: Int {
        case escape = 1
        case enter = 28
        case tab = 15
        case space = 57
    }

    public let process: ChildProcess

    /// Builds the driver into `directory`: wayland-scanner glue for plasma-wayland-protocols'
    /// fake-input.xml, then cc with wayland-client and dbus-1 (pkg-config).
    /// - Returns: the path of the binary.
    public static func compile(into directory: String) throws -> String {
        let xml = "/usr/share/plasma-wayland-protocols/fake-input.xml"
        guard access(xml, R_OK) == 0 else { throw HarnessError("\(xml) missing (plasma-wayland-protocols)") }
        let env = harnessEnvironment([:])
        func run(_ arguments: [String]) throws -> String {
            let r = try ChildProcess.run(arguments, environment: env, timeout: 120)
            guard r.status == .exited(0) else {
                throw HarnessError("\(arguments.joined(separator: " ")) failed (\(r.status)): \(r.stderr)")
            }
            return String(decoding: r.stdout, as: UTF8.self)
        }
        _ = try run(["wayland-scanner", "client-header", xml, directory + "/fake-input-client-protocol.h"])
        _ = try run(["wayland-scanner", "private-code", xml, directory + "/fake-input-protocol.c"])
        let flags = try run(["pkg-config", "--cflags", "--libs", "wayland-client", "dbus-1"])
            .split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let binary = directory + "/kwin_driver"
        let source = try SessionHelpers.path("kwin_driver.c")
        _ = try run([try SessionHelpers.cCompiler(), "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", directory,
                     "-o", binary, source, directory + "/fake-input-protocol.c"] + flags + ["-lpthread"])
        return binary
    }

    /// Starts the driver and waits (bounded) for its `ready` (connected to Wayland and the bus).
    public init(binary: String, environment: [String: String], timeout: Double = 10) throws {
        process = try ChildProcess([binary], environment: environment, name: "kwin_driver", writableStandardInput: true)
        guard process.stdout.wait(timeout: timeout, { $0.contains("ready") ? true : nil }) == true else {
            process.stop()
            throw HarnessError("kwin_driver not ready within \(timeout) s:\n\(process.diagnostics())")
        }
    }

    /// Ends the driver: end of input (it disconnects), then by PID.
    public func stop() {
        process.closeStandardInput()
        if process.waitForExit(timeout: 2) == nil { process.stop() }
    }

    /// One finger (slot 0) down at (`x`, `y0`), moved `steps` times by `dy` `ms` milliseconds apart
    /// (timed inside the driver: `touch-path`), held `hold` seconds, lifted; every event followed
    /// by a touch frame. With no hold the lift goes to KWin together with the last motion (a
    /// flick): KWin stamps events when it handles them, and a command's round trip between the two
    /// on a busy machine read as a rest of over 40 ms before the lift (no flick). Coordinates in the
    /// output's logical pixels.
    /// - Throws: `HarnessError` when the driver refuses a command or does not answer.
    public func touchDrag(x: Double, from y0: Double, dy: Double, steps: Int, ms: Int, hold: Double) throws {
        try command("touch-down 0 \(x) \(y0)")
        try command("touch-frame")
        guard hold > 0 else {
            try command("touch-path 0 \(x) \(y0) 0 \(dy) \(steps) \(ms) lift")
            return
        }
        try command("touch-path 0 \(x) \(y0) 0 \(dy) \(steps) \(ms)")
        usleep(useconds_t(hold * 1e6))
        try command("touch-up 0")
        try command("touch-frame")
    }

    /// Sends one command and waits (bounded) for its answer.
    /// - Returns: what follows `ok` (may be empty).
    /// - Throws: `HarnessError` with the driver's answer or output when it fails or does not answer.
    @discardableResult
    public func command(_ line: String, timeout: Double = 15) throws -> String {
        let answer = try process.request(line, timeout: timeout)
        if answer == "ok" { return "" }
        guard answer.hasPrefix("ok ") else { throw HarnessError("kwin_driver `\(line)`: \(answer)") }
        return String(answer.dropFirst(3))
    }

    /// Moves the pointer to (`x`, `y`).
    public func move(x: Double, y: Double) throws { try command("motion \(x) \(y)") }

    /// Presses or releases the left button.
    public func leftButton(pressed: Bool) throws { try command("button \(pressed ? "down" : "up")") }

    /// Presses or releases a key.
    public func key(_ key: Key, pressed: Bool) throws { try command("key \(key.rawValue) \(pressed ? "down" : "up")") }

    /// One finger down at (`x`, `y`) and up again, each followed by a touch frame.
    public func tap(x: Double, y: Double, id: Int = 0) throws {
        try command("touch-down \(id) \(x) \(y)")
        try command("touch-frame")
        try command("touch-up \(id)")
        try command("touch-frame")
    }
}
