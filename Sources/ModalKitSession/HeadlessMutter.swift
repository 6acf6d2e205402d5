// A private headless GNOME mutter with its own session bus and PipeWire: input through mutter's
// RemoteDesktop D-Bus API, screenshots through its ScreenCast API, both held open by the driver
// Fixtures/mutter_remote_desktop.py for the whole session.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `mutter --headless --wayland --no-x11 --virtual-monitor WxH` (software rendering, no GPU) in
/// its own 0700 runtime directory, which is also its HOME, with its own `dbus-daemon` (a config
/// without service directories, so nothing gets D-Bus-activated behind the harness's back),
/// `pipewire` and `wireplumber` (the screen cast's transport and the session manager that links
/// `pipewiresrc` to it). Every process is started and stopped by PID.
///
/// What mutter 43 does with its default settings (which `GSETTINGS_BACKEND=memory` guarantees):
/// it offers no xdg-decoration manager, so clients draw their own title bar; its first
/// `xdg_toplevel.configure` is 0×0 (client chooses) with `configure_bounds` of the monitor (at
/// scale 2 that first one is in physical pixels, later ones in logical); it focuses a new window
/// and places it by its own first-fit rule (`center-new-windows` is off): a 400×328 window on an
/// 800×600 monitor lands at (199, 90), so tests find windows on the screenshot.
public final class HeadlessMutter: WaylandSession, SeatDriving {
    /// The connector name of mutter's first virtual monitor.
    public static let monitorConnector = "Meta-0"
    /// evdev BTN_LEFT (linux/input-event-codes.h).
    public static let leftButton = 0x110
    /// X keysyms (xkbcommon-keysyms.h).
    public static let keysymReturn: UInt32 = 0xff0d
    public static let keysymEscape: UInt32 = 0xff1b
    public static let keysymShiftLeft: UInt32 = 0xffe1
    public static let keysymAltLeft: UInt32 = 0xffe9
    public static let keysymF4: UInt32 = 0xffc1

    /// The session's directory (XDG_RUNTIME_DIR and HOME).
    public var runtimeDirectory: String { desktop.directory }
    public let displayName: String
    /// The monitor's size in physical pixels: screenshots and input coordinates use these.
    public let width: Int
    public let height: Int
    /// The monitor's integer scale (`wl_output.scale`): logical sizes are pixels ÷ scale.
    public let scale: Int
    /// mutter itself.
    public let process: ChildProcess
    /// The session bus, pipewire, wireplumber and the RemoteDesktop driver.
    private let helpers: [ChildProcess]
    private let driver: ChildProcess
    /// The PipeWire node of the monitor's screen-cast stream.
    public let streamNode: Int
    /// The environment of the session's own processes (runtime directory, HOME, session bus).
    public var sessionEnvironment: [String: String] { desktop.environment }
    /// The directory, the bus and the stop path of everything the session started.
    private let desktop: PrivateDesktop
    private var nextTouchSlot = 1

    /// Starts the session bus, PipeWire, mutter and the driver, warms the virtual input devices
    /// up and waits (bounded) until a screenshot of the monitor arrives. The monitor is
    /// `width`×`height` physical pixels at `scale` (applied through DisplayConfig before anything
    /// else; mutter offers 2 only from about 1600×960 up).
    /// - Throws: `HarnessError` with the processes' output when any part does not come up within
    ///   `timeout` seconds.
    public init(width: Int = 800, height: Int = 600, scale: Int = 1, timeout: Double = 15) throws {
        (self.width, self.height, self.scale) = (width, height, scale)
        let desktop: PrivateDesktop
        do {
            desktop = try PrivateDesktop(prefix: "modalkit-mutter", timeout: timeout,
                                         variables: { _ in ["GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1"] })
        } catch {
            throw HarnessError("headless mutter did not start: \(error)")
        }
        self.desktop = desktop
        let dir = desktop.directory, display = "wayland-modalkit"
        displayName = display
        var started: [ChildProcess] = [desktop.bus.process]
        do {
            let pipewire = try desktop.start(["pipewire"])
            started.append(pipewire)
            let mutter = try desktop.start(["mutter", "--headless", "--wayland", "--no-x11", "--wayland-display", display,
                                            "--virtual-monitor", "\(width)x\(height)"])
            started.append(mutter)
            guard waitUntil(timeout: timeout, interval: 0.01, { !pipewire.isRunning || isSocket(dir + "/pipewire-0") }),
                  pipewire.isRunning else {
                throw HarnessError("no pipewire socket")
            }
            let wireplumber = try desktop.start(["wireplumber"])
            started.append(wireplumber)
            guard waitUntil(timeout: timeout, interval: 0.01, { !mutter.isRunning || isSocket(dir + "/" + display) }),
                  mutter.isRunning else {
                throw HarnessError("no Wayland socket \(display)")
            }
            // Debian's python3 is the one with python3-gi (a python3 earlier in PATH may lack it).
            let python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3"
            let driver = try desktop.start(
                [python, HeadlessMutter.driverScript, HeadlessMutter.monitorConnector, String(timeout)]
                    + (scale == 1 ? [] : [String(scale)]),
                name: "mutter_remote_desktop", writableStandardInput: true)
            started.append(driver)
            let ready = driver.stdout.wait(timeout: timeout + 5) { lines in lines.first }
            guard let ready, ready.hasPrefix("ready "), let node = Int(ready.dropFirst(6)) else {
                throw HarnessError("the RemoteDesktop driver did not report ready")
            }
            process = mutter
            self.driver = driver
            streamNode = node
            helpers = started.filter { $0 !== mutter }
        } catch {
            // Stop (by PID) what did start, newest first, and remove the directory.
            let output = started.map { $0.diagnostics(maxLines: 15) }.joined(separator: "\n")
            desktop.stop()
            throw HarnessError("headless mutter did not start: \(error)\n\(output)")
        }
        do {
            // mutter creates each virtual device on its first event, and the first key only
            // reaches a client inside wl_keyboard.enter; so every kind gets one harmless event
            // now, before any window exists.
            try key(HeadlessMutter.keysymShiftLeft)
            try send("motion 0 0")
            try send("touch-down 0 \(width - 1) \(height - 1)")
            try send("touch-up 0")
            // The screen cast delivers frames once wireplumber links the consumer to the stream.
            var lastError: Error?
            let shot = waitUntil(timeout: timeout, interval: 0.1) {
                do { return try screenshot(timeout: 3).width == width } catch { lastError = error; return false }
            }
            guard shot else { throw HarnessError("no screenshot: \(lastError.map { "\($0)" } ?? "wrong size")") }
        } catch {
            let output = diagnostics()
            stop()
            throw HarnessError("headless mutter did not start: \(error)\n\(output)")
        }
    }

    deinit { stop() }

    /// Stops the driver (closing the sessions), wireplumber, mutter, pipewire and the bus (newest
    /// first), by PID, and removes the runtime directory.
    public func stop() { desktop.stop() }

    /// The session's mutter_remote_desktop.py (``SessionHelpers``).
    public static var driverScript: String { SessionHelpers.directory + "/mutter_remote_desktop.py" }

    /// Every process of the session: mutter, the bus, pipewire, wireplumber and the driver.
    public var processes: [ChildProcess] { [process] + helpers }

    /// Output of every process of the session, for failure messages.
    public func diagnostics(maxLines: Int = 15) -> String {
        processes.map { $0.diagnostics(maxLines: maxLines) }.joined(separator: "\n")
    }

    // MARK: input (monitor pixels = screenshot pixels)

    /// Sends one command to the driver and waits (bounded) for its answer.
    /// - Throws: `HarnessError` when the driver answers `error …`, ends, or does not answer.
    public func send(_ command: String, timeout: Double = 10) throws {
        let reply = try driver.request(command, timeout: timeout)
        guard reply == "ok" else { throw HarnessError("mutter RemoteDesktop `\(command)`: \(reply)") }
    }

    /// Moves the pointer to (`x`, `y`).
    public func move(x: Double, y: Double) throws { try send("motion \(x) \(y)") }

    /// Presses or releases the left button.
    public func leftButton(pressed: Bool) throws { try send("button \(HeadlessMutter.leftButton) \(pressed ? 1 : 0)") }

    /// Presses or releases the key of X keysym `keysym`.
    public func key(_ keysym: UInt32, pressed: Bool) throws { try send("keysym \(keysym) \(pressed ? 1 : 0)") }

    /// Alt+F4: mutter's default `close` key binding (org.gnome.desktop.wm.keybindings), which
    /// closes the focused window as its title bar's close button would, with `xdg_toplevel.close`.
    public func closeFocusedWindow() throws {
        try key(HeadlessMutter.keysymAltLeft, pressed: true)
        try key(HeadlessMutter.keysymF4)
        try key(HeadlessMutter.keysymAltLeft, pressed: false)
    }

    /// A touch tap at (`x`, `y`): down and up of a new touch point (NotifyTouchDown/Up).
    public func tap(x: Double, y: Double) throws {
        let slot = nextTouchSlot
        nextTouchSlot += 1
        try send("touch-down \(slot) \(x) \(y)")
        try send("touch-up \(slot)")
    }

    // MARK: screenshots

    /// One frame of the monitor's screen cast (no cursor): `gst-launch-1.0 pipewiresrc` converted
    /// to raw RGB (GStreamer pads each row to a multiple of 4 bytes).
    public func screenshot(timeout: Double = 10) throws -> RGBImage {
        let file = runtimeDirectory + "/shot-\(UUID().uuidString).rgb"
        defer { unlink(file) }
        let r = try ChildProcess.run(
            ["gst-launch-1.0", "-q", "pipewiresrc", "path=\(streamNode)", "num-buffers=1", "always-copy=true",
             "!", "videoconvert", "!", "video/x-raw,format=RGB,width=\(width),height=\(height)",
             "!", "filesink", "location=\(file)"],
            environment: sessionEnvironment, timeout: timeout)
        guard r.status == .exited(0), let data = FileManager.default.contents(atPath: file) else {
            throw HarnessError("gst-launch-1.0 pipewiresrc failed (\(r.status)): \(r.stderr)")
        }
        let stride = (width * 3 + 3) / 4 * 4
        guard data.count == stride * height else {
            throw HarnessError("screen cast frame of \(data.count) bytes, expected \(width)x\(height) RGB (\(stride * height))")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 3)
        for row in 0..<height { bytes.append(contentsOf: data[(row * stride)..<(row * stride + width * 3)]) }
        return RGBImage(width: width, height: height, bytes: bytes)
    }

    /// Screenshots until two taken `interval` apart are identical (the picture has settled), bounded.
    /// - Throws: `HarnessError` if it never settles within `timeout` seconds.
    public func stableScreenshot(timeout: Double = 5, interval: Double = 0.1) throws -> RGBImage {
        try settledScreenshot(timeout: timeout, interval: interval) { try screenshot() }
    }
}
