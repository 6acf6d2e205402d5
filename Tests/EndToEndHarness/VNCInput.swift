// Real input for a headless sway: wayvnc inside the session (virtual pointer + keyboard through
// wlr-virtual-pointer / virtual-keyboard), driven with vncdotool's `vncdo`.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// wayvnc on 127.0.0.1:`port` inside `sway`, run as the compositor's user; `vncdo` sends pointer
/// moves, clicks and keys. Coordinates are output pixels (= screenshot pixels).
public final class VNCInput {
    public let port: Int
    public let process: ChildProcess
    public let vncdo: String
    private unowned let sway: HeadlessSway

    /// Starts wayvnc and waits (bounded) until it listens and the seat has a pointer and a keyboard.
    /// - Parameter keyboardLayout: wayvnc's `--keyboard` (an XKB layout such as "de"); every
    ///   wayvnc brings its own keymap, so each start sends the client a new `wl_keyboard.keymap`.
    /// - Throws: `HarnessError` when vncdo is missing or wayvnc does not come up.
    public init(sway: HeadlessSway, keyboardLayout: String? = nil, timeout: Double = 15) throws {
        guard let vncdo = vncdoPath() else {
            throw HarnessError("vncdo (vncdotool) not found: run scripts/test once (it installs vncdotool), or set MODALKIT_VNCDO")
        }
        self.vncdo = vncdo
        self.sway = sway
        port = try freeTCPPort()
        var env = sway.clientEnvironment
        env["HOME"] = sway.runtimeDirectory     // wayvnc reads ~/.config/wayvnc/config if present
        var args = ["wayvnc"]
        if let layout = keyboardLayout { args.append("--keyboard=\(layout)") }
        args += ["127.0.0.1", String(port)]
        process = try ChildProcess(sway.user.command(args), environment: env, name: "wayvnc")
        let up = waitUntil(timeout: timeout, interval: 0.05) {
            !process.isRunning || (acceptsTCP(port: port) && sway.seatCapabilities() & 3 == 3)
        }
        guard up, process.isRunning else {
            let why = process.isRunning ? "seat capabilities \(sway.seatCapabilities()) after \(timeout) s" : "wayvnc ended"
            process.stop()
            throw HarnessError("wayvnc did not come up (\(why)):\n\(process.diagnostics())")
        }
    }

    deinit { stop() }

    /// Stops wayvnc and waits (bounded) until its virtual devices left the seat.
    public func stop() {
        guard process.isRunning else { return }
        process.stop()
        _ = waitUntil(timeout: 5, interval: 0.05) { sway.seatCapabilities() & 3 == 0 }
    }

    /// Runs one `vncdo` with `commands` (vncdotool's command language: `move X Y`, `click 1`,
    /// `mousedown 1`, `key esc`, `pause 0.2`, …), bounded. `delay`: vncdo's pause after each
    /// action, ms (its default, 10; 0 for a flick timed by `pause`s alone).
    /// - Throws: `HarnessError` when vncdo fails or hangs.
    public func send(_ commands: [String], delay: Int = 10, timeout: Double = 30) throws {
        let r = try ChildProcess.run([vncdo, "--server", "127.0.0.1::\(port)", "--delay", String(delay)] + commands,
                                     environment: harnessEnvironment([:]), timeout: timeout)
        guard r.status == .exited(0) else {
            throw HarnessError("vncdo \(commands.joined(separator: " ")) failed (\(r.status)): \(r.stderr)")
        }
    }

    /// Starts one `vncdo` with `commands` without waiting for it (the caller waits with
    /// `waitForExit` and stops it): for a button held while the test looks at the screen. Each
    /// `vncdo` is a new VNC client whose buttons start released, so a press must be held within
    /// one run. `delay`: vncdo's pause after each action, ms (its default is 10).
    public func start(_ commands: [String], delay: Int = 10) throws -> ChildProcess {
        try ChildProcess([vncdo, "--server", "127.0.0.1::\(port)", "--delay", String(delay)] + commands,
                         environment: harnessEnvironment([:]), name: "vncdo")
    }

    /// Moves the pointer to (`x`, `y`) and clicks the left button.
    public func click(x: Int, y: Int) throws { try send(["move", String(x), String(y), "click", "1"]) }

    /// Moves the pointer to (`x`, `y`).
    public func move(x: Int, y: Int) throws { try send(["move", String(x), String(y)]) }

    /// Moves the pointer into sway's outer gap, off every tiled window (the window gets a
    /// pointer leave, and screenshots show no cursor over it).
    public func park() throws { try move(x: sway.parkingSpot.x, y: sway.parkingSpot.y) }

    /// Presses and releases a key by vncdotool name (`enter`, `esc`, `tab`, `space`, `a`, …).
    public func key(_ name: String) throws { try send(["key", name]) }
}
