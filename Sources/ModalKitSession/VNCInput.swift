// Real input for a headless sway: wayvnc inside the session (virtual pointer + keyboard through
// wlr-virtual-pointer / virtual-keyboard), driven by one VNC client for the whole test
// (Fixtures/vnc_input.py on vncdotool's API) and, for a press held while the test looks at the
// screen, vncdotool's `vncdo`.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// wayvnc on 127.0.0.1:`port` inside `sway`, run as the compositor's user; one VNC client
/// (Fixtures/vnc_input.py, started at the first action) sends pointer moves, clicks and keys.
/// Coordinates are output pixels (= screenshot pixels).
public final class VNCInput {
    public let port: Int
    public let process: ChildProcess
    /// vncdotool's `vncdo` (``vncdoPath()``; "vncdo" when none was found: the seat's devices need
    /// no VNC client, and `send`, `start` fail then).
    public let vncdo: String
    private unowned let sway: HeadlessSway
    /// The sway seat of this wayvnc's devices.
    public let seat: String
    /// Fixtures/vnc_input.py, connected to wayvnc, from the first `send` until `stop`.
    private var client: ChildProcess?

    /// Starts wayvnc and waits (bounded) until it listens and the seat has a pointer and a keyboard.
    /// - Parameter keyboardLayout: wayvnc's `--keyboard` (an XKB layout such as "de"); every
    ///   wayvnc brings its own keymap, so each start sends the client a new `wl_keyboard.keymap`.
    /// `diesWithParent`: wayvnc gets SIGTERM when the thread that started it ends (setpriv(1)).
    /// `seat`: the sway seat whose virtual pointer and keyboard this wayvnc makes (`--seat`; one of
    /// `HeadlessSway`'s `seats`); nil: sway's default `seat0`. `output`: the output wayvnc serves,
    /// whose pixels its pointer coordinates are (`--output`); nil: wayvnc's choice, the first.
    /// - Throws: `HarnessError` when wayvnc does not come up.
    public init(sway: HeadlessSway, keyboardLayout: String? = nil, seat: String? = nil, output: String? = nil,
                timeout: Double = 15, diesWithParent: Bool = false) throws {
        self.vncdo = vncdoPath() ?? "vncdo"
        self.sway = sway
        // A seat sway was not started with is made now (``HeadlessSway/makeSeats(_:)``).
        if let seat, seat != "seat0" { try sway.makeSeats([seat]) }
        port = try freeTCPPort()
        var env = sway.clientEnvironment
        env["HOME"] = sway.runtimeDirectory     // wayvnc reads ~/.config/wayvnc/config if present
        var args = ["wayvnc"]
        if let layout = keyboardLayout { args.append("--keyboard=\(layout)") }
        let seatName = seat ?? "seat0"
        // With one seat wayvnc takes it; among several it must be told (else it takes the first
        // the compositor announces).
        if seat != nil || sway.seatNames().count > 1 { args.append("--seat=\(seatName)") }
        self.seat = seatName
        if let output { args.append("--output=\(output)") }
        args += ["127.0.0.1", String(port)]
        process = try ChildProcess(sway.user.command(args, diesWithParent: diesWithParent), environment: env, name: "wayvnc")
        let up = waitUntil(timeout: timeout, interval: 0.05) {
            !process.isRunning || (acceptsTCP(port: port) && sway.seatCapabilities(seatName) & 3 == 3)
        }
        guard up, process.isRunning else {
            let why = process.isRunning ? "\(seatName)'s capabilities \(sway.seatCapabilities(seatName)) after \(timeout) s" : "wayvnc ended"
            process.stop()
            throw HarnessError("wayvnc did not come up (\(why)):\n\(process.diagnostics())")
        }
    }

    deinit { stop() }

    /// Stops wayvnc and waits (bounded) until its virtual devices left the seat.
    public func stop() {
        if let client {
            client.closeStandardInput()
            if client.waitForExit(timeout: 5) == nil { client.stop() }
            self.client = nil
        }
        guard process.isRunning else { return }
        process.stop()
        _ = waitUntil(timeout: 5, interval: 0.05) { sway.seatCapabilities(seat) & 3 == 0 }
    }

    /// Runs `commands` (vncdotool's command language: `move X Y`, `click 1`, `mousedown 1`,
    /// `mouseup 1`, `key esc`, `keydown`/`keyup`, `pause 0.2`) through this test's one VNC client,
    /// bounded; returns once their bytes are on the way to wayvnc. Buttons and keys stay as the
    /// commands leave them (a `mousedown` holds until a later `mouseup`). `delay`: the pause after
    /// each action, ms (vncdo's `--delay`: 10 by default; 0 for a flick timed by `pause`s alone).
    /// - Throws: `HarnessError` when the client cannot start or connect, or a command fails or hangs.
    public func send(_ commands: [String], delay: Int = 10, timeout: Double = 30) throws {
        let client = try connectedClient()
        let before = client.stdout.lines.count
        try client.writeToStandardInput("\(delay) " + commands.joined(separator: " ") + "\n")
        guard let answer = client.stdout.wait(timeout: timeout, { $0.count > before ? $0[before] : nil }) else {
            throw HarnessError("vnc_input.py gave no answer to `\(commands.joined(separator: " "))` within \(timeout) s:\n\(client.diagnostics())")
        }
        guard answer == "ok" else {
            throw HarnessError("vnc_input.py `\(commands.joined(separator: " "))`: \(answer)\n\(client.diagnostics())")
        }
    }

    /// The running VNC client, started and connected (bounded) on first use.
    private func connectedClient(timeout: Double = 15) throws -> ChildProcess {
        if let client, client.isRunning { return client }
        if let client { client.stop() }
        self.client = nil
        guard access(vncdo, X_OK) == 0 else {
            throw HarnessError("vncdo (vncdotool) not found: set MODALKIT_VNCDO to it or put it on PATH (python3 -m venv DIR && DIR/bin/pip install vncdotool; scripts/demo and scripts/test make one in the checkout's .build/vncdotool)")
        }
        // vncdo is a script of the Python that has vncdotool: its `#!` line names that Python.
        guard let script = try? String(contentsOfFile: vncdo, encoding: .utf8),
              let first = script.split(separator: "\n", maxSplits: 1).first, first.hasPrefix("#!") else {
            throw HarnessError("\(vncdo) has no #! line naming its Python")
        }
        let interpreter = first.dropFirst(2).split(separator: " ").map(String.init)
        guard !interpreter.isEmpty else { throw HarnessError("\(vncdo) has an empty #! line") }
        let fixture = try SessionHelpers.path("vnc_input.py")
        let started = try ChildProcess(interpreter + [fixture, "127.0.0.1::\(port)"], environment: harnessEnvironment([:]),
                                       name: "vnc_input", writableStandardInput: true)
        let ready = started.stdout.wait(timeout: timeout) { lines in lines.isEmpty ? nil : lines[0] }
        guard ready == "ready" else {
            started.stop()
            throw HarnessError("vnc_input.py did not connect to wayvnc within \(timeout) s:\n\(started.diagnostics())")
        }
        client = started
        return started
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
