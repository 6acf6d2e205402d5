// What `modal-bench --launch` runs its clients with: its failures and interruption, the CPU time
// of a running client, and the sessions they run in — yours, or ModalKitSession's private headless
// sway (with wayvnc for a keyboard) that `--headless` starts and stops. The clients themselves are
// ModalKitSession's `ChildProcess`es.
import Foundation
import ModalKitClock
import ModalKitBenchSupport
import ModalKitSession

/// A failure of `--launch`, with its exit status (2: a program given or needed is missing; 1: a
/// runtime failure; 130: interrupted by a signal).
struct LaunchError: Error, CustomStringConvertible {
    let description: String
    var status: Int32 = 1
    init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }
}

/// Set to non-zero by SIGINT, SIGTERM and SIGHUP while `--launch` runs; every wait checks it, so
/// an interrupted run still stops the clients, wayvnc and sway it started and removes its files.
let launchInterruptFlag: UnsafeMutablePointer<sig_atomic_t> = {
    let p = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
    p.initialize(to: 0)
    return p
}()

/// Installs the handlers that set `launchInterruptFlag`.
func installLaunchInterruptHandlers() {
    _ = launchInterruptFlag.pointee   // initialise the global before a handler can touch it
    for sig in [SIGINT, SIGTERM, SIGHUP] {
        signal(sig) { _ in launchInterruptFlag.pointee = 1 }
    }
    // A client that exits while modal-bench writes to it must not kill modal-bench.
    signal(SIGPIPE, SIG_IGN)
}

func checkInterrupted() throws {
    if launchInterruptFlag.pointee != 0 { throw LaunchError("interrupted", status: 130) }
}

/// Sleeps `seconds` in steps, returning early (by throwing) when interrupted.
func pause(_ seconds: Double) throws {
    let end = monotonicSeconds() + seconds
    while true {
        try checkInterrupted()
        let left = end - monotonicSeconds()
        if left <= 0 { return }
        usleep(useconds_t(min(left, 0.05) * 1e6))
    }
}

/// Starts a client: `path` with `arguments` and exactly `environment` (ModalKitSession's child
/// process: its exec time, output and CPU time at exit).
/// - Throws: `LaunchError` when it cannot be started.
func startClient(path: String, arguments: [String], environment: [String: String], name: String) throws -> ChildProcess {
    do {
        return try ChildProcess([path] + arguments, environment: environment, name: name)
    } catch let e as HarnessError {
        throw LaunchError("\(name): \(e.description)")
    }
}

/// CPU time of a running process so far, summed over its threads from
/// `/proc/PID/task/*/schedstat`: seconds on a CPU and seconds spent runnable but waiting for one;
/// nil once it has ended.
func threadCPUTime(_ child: ChildProcess) -> (run: Double, wait: Double)? {
    guard child.isRunning, let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/task") else {
        return nil
    }
    var run: UInt64 = 0, wait: UInt64 = 0
    for task in tasks {
        guard let text = readTextFile("/proc/\(child.pid)/task/\(task)/schedstat"), let s = ProcFiles.schedstat(text) else { continue }
        run += s.runNanoseconds
        wait += s.waitNanoseconds
    }
    return (Double(run) * 1e-9, Double(wait) * 1e-9)
}

// MARK: Sessions

/// Where the clients run: the Wayland session modal-bench was started in, or a private headless sway.
protocol LaunchSession: AnyObject {
    /// One line for the report's header.
    var summary: String { get }
    /// modal-bench's environment pointed at this session (WAYLAND_DEBUG not set).
    var clientEnvironment: [String: String] { get }
    func stop()
}

/// The session modal-bench runs in: `$WAYLAND_DISPLAY` (with `$XDG_RUNTIME_DIR`).
final class CurrentSession: LaunchSession {
    let clientEnvironment: [String: String]
    let summary: String

    /// - Throws: `LaunchError` when there is no Wayland session to run in.
    init() throws {
        var env = ProcessInfo.processInfo.environment
        guard let display = env["WAYLAND_DISPLAY"], !display.isEmpty else {
            throw LaunchError("no Wayland session: WAYLAND_DISPLAY is not set (--headless starts a private headless sway)")
        }
        let socket = display.hasPrefix("/") ? display : (env["XDG_RUNTIME_DIR"] ?? "") + "/" + display
        var st = stat()
        guard stat(socket, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else {
            throw LaunchError("no Wayland compositor at \(socket) (--headless starts a private headless sway)")
        }
        env["WAYLAND_SOCKET"] = nil
        env["WAYLAND_DEBUG"] = nil
        clientEnvironment = env
        summary = "your session (WAYLAND_DISPLAY=\(display)); the seat has the devices it has"
    }

    func stop() {}
}

/// The private headless sway of ModalKitSession (`HeadlessSway`: its own runtime directory, run as
/// the unprivileged `modalkit-test` when modal-bench runs as root) with one output of the window
/// size at scale 1 and no gap, so a lone tiled window is exactly that size; `--pdeathsig`, so it
/// ends with modal-bench even if modal-bench is killed. `stop()` removes its directory.
final class PrivateSway: LaunchSession {
    let session: HeadlessSway
    let size: BenchSize
    let version: String
    /// wayvnc, whose virtual pointer and keyboard give the seat its devices (`--seat keyboard`).
    private var wayvnc: VNCInput?

    init(size: BenchSize) throws {
        self.size = size
        if getuid() == 0, findExecutable("setpriv") == nil { throw LaunchError("--headless needs setpriv (util-linux)", status: 2) }
        guard findExecutable("sway") != nil, findExecutable("swaymsg") != nil else {
            throw LaunchError("--headless needs sway and swaymsg (Debian: apt install sway)", status: 2)
        }
        version = (try? ChildProcess.run(["sway", "--version"], environment: ["PATH": "/usr/bin:/bin"], timeout: 5))
            .map { String(decoding: $0.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "sway"
        do {
            session = try HeadlessSway(windowWidth: size.width, windowHeight: size.height, margin: 0, diesWithParent: true)
        } catch let e as HarnessError {
            throw LaunchError(e.description)
        }
    }

    deinit { stop() }

    var summary: String {
        "private headless sway (\(version), WLR_RENDERER=pixman, one \(size) output at scale 1, run as \(session.user.name) in \(session.runtimeDirectory))"
    }

    var clientEnvironment: [String: String] {
        var env = session.clientEnvironment
        env["WAYLAND_DEBUG"] = nil
        return env
    }

    /// Gives the seat a pointer and a keyboard: wayvnc (its virtual devices through
    /// wlr-virtual-pointer and virtual-keyboard) on a free port of 127.0.0.1; no VNC client needed.
    /// - Throws: `LaunchError` when wayvnc is missing or the seat has no keyboard within 15 s.
    func addKeyboard() throws {
        guard wayvnc == nil else { return }
        guard findExecutable("wayvnc") != nil else {
            throw LaunchError("--seat keyboard needs wayvnc (Debian: apt install wayvnc)", status: 2)
        }
        do {
            wayvnc = try VNCInput(sway: session, diesWithParent: true)
        } catch let e as HarnessError {
            throw LaunchError("wayvnc did not give the seat a keyboard: \(e.description)")
        }
        try checkInterrupted()
    }

    /// Stops wayvnc and waits (bounded) until its devices left the seat.
    func removeKeyboard() {
        wayvnc?.stop()
        wayvnc = nil
    }

    func stop() {
        removeKeyboard()
        session.stop()
    }
}
