// A private headless sway: its own user (when root), runtime directory, config and sockets.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Wayland compositor the harness started, that clients can be pointed at.
public protocol WaylandSession: AnyObject {
    /// XDG_RUNTIME_DIR of the session (a private 0700 directory under /tmp).
    var runtimeDirectory: String { get }
    /// The socket name inside `runtimeDirectory` (WAYLAND_DISPLAY).
    var displayName: String { get }
    /// The compositor process.
    var process: ChildProcess { get }
    /// Stops the compositor (and what the session started) and removes the runtime directory.
    func stop()
}

extension WaylandSession {
    /// The harness environment pointed at this session: WAYLAND_DISPLAY and XDG_RUNTIME_DIR set,
    /// WAYLAND_SOCKET and DISPLAY removed (so nothing reaches another compositor).
    public var clientEnvironment: [String: String] {
        harnessEnvironment(["WAYLAND_DISPLAY": displayName, "XDG_RUNTIME_DIR": runtimeDirectory,
                            "WAYLAND_SOCKET": nil, "DISPLAY": nil])
    }
    public var socketPath: String { runtimeDirectory + "/" + displayName }
}

/// A sway window rectangle, in output (= screenshot) pixels; the output is at 0,0 and scale 1.
public struct SwayWindow {
    public let pid: Int
    public let appID: String?
    /// The toplevel title.
    public let title: String?
    /// The window content (no borders: the config sets `default_border none`).
    public let rect: PixelBox
    public let isFloating: Bool
    public let isVisible: Bool
}

/// `WLR_BACKENDS=headless WLR_RENDERER=pixman sway` on one output at scale 1, no bar, no borders,
/// no Xwayland, and an outer gap of `margin` px: a lone tiled window gets exactly
/// `windowWidth`×`windowHeight` at (`margin`, `margin`) — `windowArea` — so its rect is
/// predictable, and the gap leaves a place outside every window to park the pointer
/// (`parkingSpot`), whose software cursor grim would otherwise capture over the window.
/// Runs as `SessionUser.forCompositor()`; the PID held is sway's own.
public final class HeadlessSway: WaylandSession {
    public let user: SessionUser
    public let runtimeDirectory: String
    /// The output size: the window area plus the margin on each side.
    public let width: Int
    public let height: Int
    /// Where a lone tiled window is, in output (= screenshot) pixels.
    public let windowArea: PixelBox
    /// A point in the outer gap, outside any tiled window, where the cursor image is off-screen:
    /// in output pixels (VNC's and the screenshot's), logical × scale.
    public let parkingSpot: (x: Int, y: Int)
    public let process: ChildProcess
    public private(set) var displayName = ""
    /// sway's IPC socket (SWAYSOCK).
    public private(set) var ipcSocket = ""
    /// The seats besides `seat0` (`init`'s `seats`).
    public let extraSeats: [String]
    private let teardown: SessionTeardown

    /// Starts sway and waits (bounded) until its Wayland and IPC sockets answer.
    /// - Throws: `HarnessError` with sway's output when it does not come up within `timeout` s.
    /// `scale` is the output's integer scale: sizes and window rectangles stay in logical pixels,
    /// screenshots are `scale` times larger. `margin` 0 makes the output exactly the window's size
    /// (modal-bench); `parkingSpot` is then the window's bottom-right pixel. With `diesWithParent`
    /// sway gets SIGTERM when the thread that started it ends (`setpriv --pdeathsig`), so it does
    /// not outlive a killed caller.
    ///
    /// `seats`: seats besides sway's `seat0`, each `seat NAME fallback false` (no device joins it
    /// unless asked for it by name: a `VNCInput(sway:seat:)`), for a second user at the same
    /// output; each is a `wl_seat` of its own to clients.
    public init(windowWidth: Int = 800, windowHeight: Int = 600, margin: Int = 20, scale: Int = 1, timeout: Double = 15,
                diesWithParent: Bool = false, seats: [String] = []) throws {
        precondition(margin >= 0)
        extraSeats = seats
        let width = windowWidth + 2 * margin, height = windowHeight + 2 * margin
        self.width = width
        self.height = height
        windowArea = PixelBox(x: margin, y: margin, width: windowWidth, height: windowHeight)
        // Bottom-right corner of the output: the cursor image hangs right and down from its
        // hotspot, so there it is drawn off the output instead of over the window. wayvnc's
        // coordinates are the output's pixels, `scale` times the logical ones.
        parkingSpot = (width * scale - 2, height * scale - 2)
        user = try SessionUser.forCompositor()
        runtimeDirectory = try user.makePrivateDirectory(prefix: "modalkit-sway")
        teardown = SessionTeardown(removing: runtimeDirectory)
        let config = runtimeDirectory + "/sway.config"
        do {
            try """
            # ModalKit end-to-end tests: one fixed output, nothing that moves a window's content.
            output HEADLESS-1 resolution \(width * scale)x\(height * scale) position 0 0 scale \(scale)
            default_border none
            default_floating_border none
            gaps inner 0
            gaps outer \(margin)
            xwayland disable
            focus_follows_mouse no
            mouse_warping none

            """.write(toFile: config, atomically: false, encoding: .utf8)
            chmod(config, 0o644)
        } catch {
            teardown.run()
            throw HarnessError("cannot write \(config): \(error)")
        }
        let env = sessionProcessEnvironment(runtimeDirectory, ["WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1",
                                                               "WLR_RENDERER": "pixman", "WLR_HEADLESS_OUTPUTS": "1"])
        do {
            process = try ChildProcess(user.command(["sway", "--config", config], diesWithParent: diesWithParent),
                                       environment: env, name: "sway")
        } catch {
            teardown.run()
            throw error
        }
        teardown.add(process)
        let ipc = runtimeDirectory + "/sway-ipc.\(user.uid).\(process.pid).sock"
        var display: String?
        let up = waitUntil(timeout: timeout) {
            guard process.isRunning else { return true }
            if display == nil {
                display = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory))?
                    .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") && isSocket(runtimeDirectory + "/" + $0) }
            }
            return display != nil && isSocket(ipc)
        }
        guard up, process.isRunning, let display else {
            let why = process.isRunning ? "no sockets within \(timeout) s" : "sway ended"
            stop()
            throw HarnessError("headless sway did not start (\(why)):\n\(process.diagnostics())")
        }
        displayName = display
        ipcSocket = ipc
        // The IPC socket is bound before sway reads its config; wait until the output is configured.
        let ready = waitUntil(timeout: timeout, interval: 0.05) {
            guard let outputs = try? self.swaymsgJSON(["-t", "get_outputs"]) as? [[String: Any]] else { return false }
            return outputs.contains { o in
                let rect = o["rect"] as? [String: Any]
                return (o["active"] as? Bool) == true && rect?["width"] as? Int == width && rect?["height"] as? Int == height
            }
        }
        guard ready else {
            stop()
            throw HarnessError("headless sway has no active \(width)x\(height) output:\n\(process.diagnostics())")
        }
        // A seat named only in the config file is made once a device joins it; one configured at
        // run time is made at once, so that a wayvnc can ask for it by name.
        do {
            try makeSeats(seats)
        } catch {
            stop()
            throw error
        }
        let made = waitUntil(timeout: timeout, interval: 0.05) { Set(seats).isSubset(of: self.seatNames()) }
        guard made else {
            stop()
            throw HarnessError("sway made no seat \(seats) (it has \(seatNames()))")
        }
    }

    deinit { stop() }

    public func stop() { teardown.run() }

    /// Environment for clients of this sway: the session's plus SWAYSOCK.
    public var swayEnvironment: [String: String] {
        var env = clientEnvironment
        env["SWAYSOCK"] = ipcSocket
        return env
    }

    /// Runs `swaymsg ARGS` against this sway (bounded) and returns its stdout.
    /// - Throws: `HarnessError` when swaymsg fails (sway's reply says why).
    @discardableResult
    public func swaymsg(_ arguments: [String], timeout: Double = 5) throws -> String {
        let r = try ChildProcess.run(["swaymsg", "--socket", ipcSocket] + arguments,
                                     environment: swayEnvironment, timeout: timeout)
        let out = String(decoding: r.stdout, as: UTF8.self)
        guard r.status == .exited(0) else {
            throw HarnessError("swaymsg \(arguments.joined(separator: " ")) failed (\(r.status)): \(out) \(r.stderr)")
        }
        return out
    }

    /// `swaymsg -r ARGS` parsed as JSON.
    public func swaymsgJSON(_ arguments: [String]) throws -> Any {
        let text = try swaymsg(["-r"] + arguments)
        return try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// Every application window in the tree, with its content rect.
    public func windows() throws -> [SwayWindow] {
        guard let tree = try swaymsgJSON(["-t", "get_tree"]) as? [String: Any] else {
            throw HarnessError("get_tree did not return an object")
        }
        var result: [SwayWindow] = []
        func box(_ any: Any?) -> PixelBox? {
            guard let d = any as? [String: Any], let x = d["x"] as? Int, let y = d["y"] as? Int,
                  let w = d["width"] as? Int, let h = d["height"] as? Int else { return nil }
            return PixelBox(x: x, y: y, width: w, height: h)
        }
        func walk(_ node: [String: Any], floating: Bool) {
            if let pid = node["pid"] as? Int, let rect = box(node["rect"]), let content = box(node["window_rect"]) {
                result.append(SwayWindow(
                    pid: pid, appID: node["app_id"] as? String, title: node["name"] as? String,
                    rect: PixelBox(x: rect.x + content.x, y: rect.y + content.y, width: content.width, height: content.height),
                    isFloating: floating, isVisible: node["visible"] as? Bool ?? false))
            }
            for child in node["nodes"] as? [[String: Any]] ?? [] { walk(child, floating: floating) }
            for child in node["floating_nodes"] as? [[String: Any]] ?? [] { walk(child, floating: true) }
        }
        walk(tree, floating: false)
        return result
    }

    /// Waits (bounded) until the window of process `pid` is mapped, visible and non-empty.
    public func waitForWindow(pid: pid_t, timeout: Double = 10) throws -> SwayWindow {
        var found: SwayWindow?
        _ = waitUntil(timeout: timeout, interval: 0.05) {
            found = (try? windows())?.first { $0.pid == Int(pid) && $0.isVisible && $0.rect.width > 0 && $0.rect.height > 0 }
            return found != nil
        }
        guard let found else {
            throw HarnessError("no visible window of pid \(pid) within \(timeout) s; tree windows: \((try? windows()) ?? [])")
        }
        return found
    }

    /// Waits (bounded) for the window of an app started as process `pid`: its own window, or, when a
    /// launcher script started the program that maps it (another PID), the one visible window.
    /// With `app` (the app's process), the wait ends as soon as the app has exited without a window.
    /// - Throws: `HarnessError` when neither shows within `timeout` seconds, or, at once, when `app`
    ///   ended first (its exit status and the last line it wrote to stderr).
    public func waitForAppWindow(pid: pid_t, timeout: Double = 10, app: ChildProcess? = nil) throws -> SwayWindow {
        var found: SwayWindow?
        _ = waitUntil(timeout: timeout, interval: 0.05) {
            let visible = ((try? windows()) ?? []).filter { $0.isVisible && $0.rect.width > 0 && $0.rect.height > 0 }
            found = visible.first { $0.pid == Int(pid) } ?? (visible.count == 1 ? visible[0] : nil)
            return found != nil || app?.status != nil
        }
        if found == nil, let app, let status = app.status {
            // Its stderr to the end (bounded: a child of the app may still hold the pipe).
            _ = waitUntil(timeout: 2, interval: 0.01) { app.stderr.isAtEnd }
            let said = app.stderr.lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            throw HarnessError("the app ended (\(status)) before it mapped a window" + (said.map { ": \($0)" } ?? ""))
        }
        guard let found else { throw HarnessError("the app mapped no window within \(timeout) s") }
        return found
    }

    /// The capabilities bitmask from `get_seats` (1 pointer, 2 keyboard, 4 touch) of seat `name`,
    /// or of every seat together when nil.
    public func seatCapabilities(_ name: String? = nil) -> Int {
        let seats = (try? swaymsgJSON(["-t", "get_seats"])) as? [[String: Any]] ?? []
        return seats.filter { name == nil || $0["name"] as? String == name }.reduce(0) { $0 | ($1["capabilities"] as? Int ?? 0) }
    }

    /// The names of sway's seats (`get_seats`).
    public func seatNames() -> [String] {
        let seats = (try? swaymsgJSON(["-t", "get_seats"])) as? [[String: Any]] ?? []
        return seats.compactMap { $0["name"] as? String }
    }

    /// Makes each of `names` a seat of its own at run time (`seat NAME fallback false`: no device
    /// joins it unless asked for it by name), after `seat seat0 fallback true`: applying a seat's
    /// configuration takes every device that no seat attaches away from all but the fallback seats,
    /// and seat0 is one only by default. A seat sway has already is left as it is.
    public func makeSeats(_ names: [String]) throws {
        let missing = names.filter { !seatNames().contains($0) }
        guard !missing.isEmpty else { return }
        _ = try swaymsg(["seat", "seat0", "fallback", "true"])
        for seat in missing { _ = try swaymsg(["seat", seat, "fallback", "false"]) }
    }


    /// The active layout names of the seat's keyboards (`get_inputs`).
    public func keyboardLayoutNames() -> [String] {
        let inputs = (try? swaymsgJSON(["-t", "get_inputs"])) as? [[String: Any]] ?? []
        return inputs.compactMap { $0["type"] as? String == "keyboard" ? $0["xkb_active_layout_name"] as? String : nil }
    }

    /// A screenshot of the whole output with `grim -t ppm -` (wlr-screencopy), cursor not included.
    public func screenshot() throws -> RGBImage {
        let r = try ChildProcess.run(["grim", "-t", "ppm", "-"], environment: clientEnvironment, timeout: 10,
                                     binaryStandardOutput: true)
        guard r.status == .exited(0) else { throw HarnessError("grim failed (\(r.status)): \(r.stderr)") }
        return try RGBImage.parsePPM(r.stdout)
    }

    /// Waits (bounded) until the screen shows `colour` (within `tolerance` per channel) at output
    /// pixel (`x`, `y`): what the compositor shows, not only what a client has committed, so that
    /// input sent next lands on it (a client's commit and the harness's input reach the compositor
    /// over different connections, in no set order).
    /// - Returns: false when it did not show within `timeout` seconds.
    public func waitUntilShown(_ colour: RGB, atX x: Int, y: Int, tolerance: Int = 2, timeout: Double = 10) -> Bool {
        waitUntil(timeout: timeout, interval: 0.05) {
            guard let shot = try? screenshot() else { return false }
            return shot[x, y].distance(to: colour) <= tolerance
        }
    }

    /// Screenshots until two taken `interval` apart are identical (the picture has settled), bounded.
    /// - Throws: `HarnessError` if it never settles within `timeout` seconds.
    public func stableScreenshot(timeout: Double = 5, interval: Double = 0.15) throws -> RGBImage {
        try settledScreenshot(timeout: timeout, interval: interval) { try screenshot() }
    }
}
