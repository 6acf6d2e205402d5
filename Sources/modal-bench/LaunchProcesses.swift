// Processes for `modal-bench --launch`: clients started with fork/exec and their exec time taken
// in the child just before execve, their output read line by line, every wait bounded, and the
// private headless sway (with wayvnc for a keyboard) that `--headless` starts and stops.
import Foundation
import ModalKitClock
import ModalKitBenchSupport

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

/// Looks a program up in PATH; a name with a slash is taken as is. Nil when not executable.
func findProgram(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
    func executable(_ p: String) -> Bool {
        var st = stat()
        return stat(p, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && access(p, X_OK) == 0
    }
    if name.contains("/") { return executable(name) ? name : nil }
    for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !dir.isEmpty {
        let candidate = dir + "/" + name
        if executable(candidate) { return candidate }
    }
    return nil
}

/// The complete lines written to one pipe, read without blocking.
final class LineReader {
    let fd: Int32
    private var partial: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65536)
    private(set) var atEnd = false

    init(fd: Int32) {
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// Reads what is available and hands every complete line (without its newline) to
    /// `line`; at end of file the last partial line too.
    func drain(_ line: (Substring) -> Void) {
        guard !atEnd else { return }
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                partial.append(contentsOf: chunk[0..<n])
                var start = 0
                while let nl = partial[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    let text = String(decoding: partial[start..<nl], as: UTF8.self)
                    line(text[...])
                    start = nl + 1
                }
                partial.removeFirst(start)
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return
            } else {
                if !partial.isEmpty {
                    let text = String(decoding: partial, as: UTF8.self)
                    line(text[...])
                    partial.removeAll()
                }
                atEnd = true
                return
            }
        }
    }
}

/// Waits until one of `readers` has something to read (or reached its end), at most `timeout`
/// seconds.
func waitReadable(_ readers: [LineReader], timeout: Double) {
    var fds = readers.filter { !$0.atEnd }.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
    let ms = Int32(max(0, min(timeout, 0.05)) * 1000)
    if fds.isEmpty {
        usleep(useconds_t(ms) * 1000)
    } else {
        _ = poll(&fds, nfds_t(fds.count), ms)
    }
}

/// How a child ended (waitpid's status).
enum ChildExit: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    init(raw: Int32) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        let sig = raw & 0x7f
        self = sig == 0 ? .exited((raw >> 8) & 0xff) : .signaled(sig)
    }

    var description: String {
        switch self {
        case .exited(let code): return "exit status \(code)"
        case .signaled(let sig): return "signal \(sig) (\(String(cString: strsignal(sig))))"
        }
    }
}

/// A child started with fork and execve. The child reads `CLOCK_REALTIME` and `CLOCK_MONOTONIC`
/// into a page shared with modal-bench immediately before its `execve`, so the exec time is the
/// child's own, on the clock libwayland stamps its debug lines with.
final class Child {
    enum Output { case null, pipe, file(String) }

    let pid: pid_t
    let name: String
    /// `CLOCK_REALTIME` just before execve, folded as libwayland folds its stamps.
    let execStamp: WaylandDebugTimestamp
    /// `CLOCK_MONOTONIC` just before execve, seconds.
    let execMonotonic: Double
    let stdout: LineReader?
    let stderr: LineReader?
    private(set) var ended: ChildExit?

    /// Starts `path` with `arguments` (argv[1...]) and exactly `environment`; stdin is /dev/null.
    /// - Throws: `LaunchError` when the pipes, fork or execve fail.
    init(path: String, arguments: [String], environment: [String: String], name: String? = nil,
         stdout stdoutMode: Output = .null, stderr stderrMode: Output = .pipe) throws {
        self.name = name ?? (path as NSString).lastPathComponent
        guard let page = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0),
              page != MAP_FAILED else {
            throw LaunchError("mmap failed: \(String(cString: strerror(errno)))")
        }
        defer { munmap(page, 4096) }
        let shared = page.bindMemory(to: Int.self, capacity: 8)
        for k in 0..<8 { shared[k] = 0 }

        var opened: [Int32] = []
        func closeAll() { for fd in opened { close(fd) } }
        func cloexec(_ fd: Int32) -> Int32 {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            opened.append(fd)
            return fd
        }
        func endpoints(_ mode: Output) throws -> (child: Int32, parent: Int32?) {
            switch mode {
            case .null:
                let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw LaunchError("cannot open /dev/null") }
                return (cloexec(fd), nil)
            case .pipe:
                var p: [Int32] = [-1, -1]
                guard pipe(&p) == 0 else { throw LaunchError("pipe failed: \(String(cString: strerror(errno)))") }
                return (cloexec(p[1]), cloexec(p[0]))
            case .file(let path):
                let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
                guard fd >= 0 else { throw LaunchError("cannot open \(path): \(String(cString: strerror(errno)))") }
                return (cloexec(fd), nil)
            }
        }
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw LaunchError("cannot open /dev/null") }
        opened.append(input)
        let out: (child: Int32, parent: Int32?), err: (child: Int32, parent: Int32?)
        do {
            out = try endpoints(stdoutMode)
            err = try endpoints(stderrMode)
        } catch {
            closeAll()
            throw error
        }

        // Everything the child touches is made before fork: after fork only async-signal-safe
        // calls (dup2, signal, clock_gettime, execve, write, _exit) on memory prepared here.
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let cPath = strdup(path)!
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
            free(cPath)
        }
        // execve's outcome: a close-on-exec pipe the child holds. A successful execve closes it
        // (end of file for modal-bench); a failed one writes errno into the page first.
        var status: [Int32] = [-1, -1]
        guard pipe(&status) == 0 else {
            closeAll()
            throw LaunchError("pipe failed: \(String(cString: strerror(errno)))")
        }
        _ = cloexec(status[0])
        _ = cloexec(status[1])
        let childIn = input, childOut = out.child, childErr = err.child, statusWrite = status[1]
        let pid: pid_t = argv.withUnsafeBufferPointer { av in
            envp.withUnsafeBufferPointer { ev in
                let child = fork()
                if child == 0 {
                    _ = dup2(childIn, 0)
                    _ = dup2(childOut, 1)
                    _ = dup2(childErr, 2)
                    // An ignored signal stays ignored across execve: give the program the default.
                    signal(SIGPIPE, SIG_DFL)
                    var rt = timespec(), mono = timespec()
                    clock_gettime(CLOCK_MONOTONIC, &mono)
                    clock_gettime(CLOCK_REALTIME, &rt)
                    shared[0] = rt.tv_sec
                    shared[1] = rt.tv_nsec
                    shared[2] = mono.tv_sec
                    shared[3] = mono.tv_nsec
                    execve(cPath, av.baseAddress!, ev.baseAddress!)
                    shared[4] = Int(errno)
                    var byte: UInt8 = 1
                    _ = write(statusWrite, &byte, 1)
                    _exit(127)
                }
                return child
            }
        }
        // The parent keeps only its read ends (and the status pipe's until execve's outcome).
        for fd in opened where fd != out.parent && fd != err.parent && fd != status[0] { close(fd) }
        guard pid > 0 else {
            for fd in [out.parent, err.parent, status[0]].compactMap({ $0 }) { close(fd) }
            throw LaunchError("fork failed: \(String(cString: strerror(errno)))")
        }
        self.pid = pid
        stdout = out.parent.map(LineReader.init(fd:))
        stderr = err.parent.map(LineReader.init(fd:))
        var byte: UInt8 = 0
        var n: Int
        repeat { n = read(status[0], &byte, 1) } while n < 0 && errno == EINTR
        close(status[0])
        if n != 0 {
            var raw: Int32 = 0
            _ = waitpid(pid, &raw, 0)
            ended = ChildExit(raw: raw)
            throw LaunchError("cannot run \(path): \(String(cString: strerror(Int32(shared[4]))))",
                              status: shared[4] == Int(ENOENT) || shared[4] == Int(EACCES) ? 2 : 1)
        }
        execStamp = WaylandDebugTimestamp(realtimeSeconds: shared[0], nanoseconds: shared[1])
        execMonotonic = Double(shared[2]) + Double(shared[3]) * 1e-9
    }

    deinit { stop() }

    /// The exit if the child has ended (reaps it), nil while it runs. Never blocks.
    @discardableResult
    func poll() -> ChildExit? {
        if let ended { return ended }
        var raw: Int32 = 0
        var usage = rusage()
        let r = wait4(pid, &raw, WNOHANG, &usage)
        if r == pid {
            ended = ChildExit(raw: raw)
            cpuSecondsAtExit = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
        } else if r < 0 && errno == ECHILD {
            ended = .signaled(0)
        }
        return ended
    }

    /// User + system CPU time of the whole process (all its threads), seconds, once it was reaped
    /// (`wait4`'s rusage).
    private(set) var cpuSecondsAtExit: Double?

    /// CPU time so far, summed over the process's threads from `/proc/PID/task/*/schedstat`:
    /// seconds on a CPU and seconds spent runnable but waiting for one; nil once it has ended.
    func cpuTime() -> (run: Double, wait: Double)? {
        guard poll() == nil, let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else {
            return nil
        }
        var run: UInt64 = 0, wait: UInt64 = 0
        for task in tasks {
            guard let text = readTextFile("/proc/\(pid)/task/\(task)/schedstat"), let s = ProcFiles.schedstat(text) else { continue }
            run += s.runNanoseconds
            wait += s.waitNanoseconds
        }
        return (Double(run) * 1e-9, Double(wait) * 1e-9)
    }

    var isRunning: Bool { poll() == nil }

    /// Reads both pipes while waiting (at most `timeout` s) for the child to end.
    func waitForExit(timeout: Double, onStdout: (Substring) -> Void = { _ in }, onStderr: (Substring) -> Void = { _ in }) -> ChildExit? {
        let deadline = monotonicSeconds() + timeout
        while true {
            stdout?.drain(onStdout)
            stderr?.drain(onStderr)
            if let e = poll() { return e }
            if monotonicSeconds() >= deadline { return nil }
            waitReadable([stdout, stderr].compactMap { $0 }, timeout: 0.01)
        }
    }

    /// Stops the child: SIGTERM, up to `timeout` s (its output still read, so a client logging
    /// on the way out cannot block on a full pipe), then SIGKILL and up to 5 s more.
    @discardableResult
    func stop(timeout: Double = 3) -> ChildExit? {
        if let e = poll() { return e }
        kill(pid, SIGTERM)
        if let e = waitForExit(timeout: timeout) { return e }
        kill(pid, SIGKILL)
        return waitForExit(timeout: 5)
    }
}

/// A short command run to completion (bounded): its exit and stdout.
func runCommand(_ path: String, _ arguments: [String], environment: [String: String], timeout: Double = 10) throws
    -> (exit: ChildExit, stdout: String, stderr: String)
{
    let child = try Child(path: path, arguments: arguments, environment: environment, stdout: .pipe, stderr: .pipe)
    var out = "", err = ""
    guard let exit = child.waitForExit(timeout: timeout, onStdout: { out += $0 + "\n" }, onStderr: { err += $0 + "\n" }) else {
        child.stop(timeout: 1)
        throw LaunchError("\(path) \(arguments.joined(separator: " ")) did not finish within \(timeout) s; stopped")
    }
    child.stdout?.drain { out += $0 + "\n" }
    child.stderr?.drain { err += $0 + "\n" }
    return (exit, out, err)
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

/// The user a private sway runs as: the current one, or when modal-bench runs as root (sway
/// refuses to), `modalkit-test` (the end-to-end tests' user) if it exists, else `nobody`.
struct CompositorUser {
    let name: String
    let uid: uid_t
    let gid: gid_t
    var isCurrentUser: Bool { uid == getuid() }

    static func choose() throws -> CompositorUser {
        guard getuid() == 0 else {
            let name = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "uid \(getuid())"
            return CompositorUser(name: name, uid: getuid(), gid: getgid())
        }
        for name in ["modalkit-test", "nobody"] {
            if let pw = getpwnam(name) { return CompositorUser(name: name, uid: pw.pointee.pw_uid, gid: pw.pointee.pw_gid) }
        }
        throw LaunchError("running as root, and neither user modalkit-test nor nobody exists to run sway as")
    }

    /// `setpriv` in front of `arguments`: the ids of this user when it is not the current one,
    /// and `--pdeathsig TERM`, so the compositor ends with modal-bench even if modal-bench is
    /// killed. setpriv execs, so the PID started is the program's own.
    func command(_ arguments: [String]) -> [String] {
        var c = ["--pdeathsig", "TERM"]
        if !isCurrentUser { c += ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"] }
        return c + ["--"] + arguments
    }
}

/// `WLR_BACKENDS=headless WLR_RENDERER=pixman sway` with one output of the window size at scale
/// 1, no borders, no gaps and no Xwayland, so a lone tiled window is exactly that size. Its
/// runtime directory is private (0700, under `$TMPDIR` when the compositor's user can reach it,
/// else /tmp) and removed by `stop()`.
final class PrivateSway: LaunchSession {
    let user: CompositorUser
    let runtimeDirectory: String
    let size: BenchSize
    private(set) var sway: Child?
    private(set) var displayName = ""
    private(set) var ipcSocket = ""
    private var wayvnc: Child?
    let version: String

    init(size: BenchSize) throws {
        self.size = size
        guard let setpriv = findProgram("setpriv") else { throw LaunchError("--headless needs setpriv (util-linux)", status: 2) }
        guard let swayPath = findProgram("sway"), findProgram("swaymsg") != nil else {
            throw LaunchError("--headless needs sway and swaymsg (Debian: apt install sway)", status: 2)
        }
        user = try CompositorUser.choose()
        version = (try? runCommand(swayPath, ["--version"], environment: ["PATH": "/usr/bin:/bin"], timeout: 5))
            .map { $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "sway"
        runtimeDirectory = try PrivateSway.makeDirectory(owner: user)
        do {
            let config = runtimeDirectory + "/sway.config"
            try """
            # modal-bench --launch: one output of the window size, nothing around a tiled window.
            output HEADLESS-1 resolution \(size.width)x\(size.height) position 0 0 scale 1
            default_border none
            default_floating_border none
            gaps inner 0
            gaps outer 0
            xwayland disable
            focus_follows_mouse no
            mouse_warping none

            """.write(toFile: config, atomically: false, encoding: .utf8)
            chmod(config, 0o644)
            let env = [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                "HOME": runtimeDirectory,
                "XDG_RUNTIME_DIR": runtimeDirectory,
                "LANG": "C.UTF-8",
                "WLR_BACKENDS": "headless",
                "WLR_LIBINPUT_NO_DEVICES": "1",
                "WLR_RENDERER": "pixman",
                "WLR_HEADLESS_OUTPUTS": "1",
            ]
            let log = runtimeDirectory + ".sway.log"
            let sway = try Child(path: setpriv, arguments: user.command([swayPath, "--config", config]), environment: env,
                                 name: "sway", stdout: .file(log), stderr: .file(log))
            self.sway = sway
            let ipc = runtimeDirectory + "/sway-ipc.\(user.uid).\(sway.pid).sock"
            var display: String?
            let deadline = monotonicSeconds() + 15
            while sway.isRunning, monotonicSeconds() < deadline {
                try checkInterrupted()
                if display == nil {
                    display = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory))?
                        .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") && isSocket(runtimeDirectory + "/" + $0) }
                }
                if display != nil && isSocket(ipc) { break }
                usleep(20_000)
            }
            guard sway.isRunning, let display, isSocket(ipc) else {
                throw LaunchError("headless sway did not start (\(sway.isRunning ? "no sockets within 15 s" : "it ended")):\n"
                                  + PrivateSway.tail(log))
            }
            displayName = display
            ipcSocket = ipc
            // The IPC socket is bound before sway reads its config: wait for the configured output.
            var ready = false
            while !ready, sway.isRunning, monotonicSeconds() < deadline {
                try checkInterrupted()
                let outputs = (try? swaymsgJSON(["-t", "get_outputs"])) as? [[String: Any]] ?? []
                ready = outputs.contains { o in
                    let rect = o["rect"] as? [String: Any]
                    return o["active"] as? Bool == true && rect?["width"] as? Int == size.width
                        && rect?["height"] as? Int == size.height
                }
                if !ready { usleep(50_000) }
            }
            guard ready else {
                throw LaunchError("headless sway has no active \(size) output after 15 s:\n" + PrivateSway.tail(log))
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    var summary: String {
        "private headless sway (\(version), WLR_RENDERER=pixman, one \(size) output at scale 1, run as \(user.name) in \(runtimeDirectory))"
    }

    var clientEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = displayName
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["WAYLAND_SOCKET"] = nil
        env["WAYLAND_DEBUG"] = nil
        env["DISPLAY"] = nil
        return env
    }

    /// Gives the seat a pointer and a keyboard: wayvnc (its virtual devices through
    /// wlr-virtual-pointer and virtual-keyboard) on a free port of 127.0.0.1; no VNC client needed.
    /// - Throws: `LaunchError` when wayvnc is missing or the seat has no keyboard within 15 s.
    func addKeyboard() throws {
        guard wayvnc == nil else { return }
        guard let setpriv = findProgram("setpriv"), let path = findProgram("wayvnc") else {
            throw LaunchError("--seat keyboard needs wayvnc (Debian: apt install wayvnc)", status: 2)
        }
        let port = try freeTCPPort()
        var env = clientEnvironment
        env["HOME"] = runtimeDirectory   // wayvnc reads ~/.config/wayvnc/config if present
        let log = runtimeDirectory + ".wayvnc.log"
        let vnc = try Child(path: setpriv, arguments: user.command([path, "127.0.0.1", String(port)]), environment: env,
                            name: "wayvnc", stdout: .file(log), stderr: .file(log))
        wayvnc = vnc
        let deadline = monotonicSeconds() + 15
        while vnc.isRunning, seatCapabilities() & 3 != 3, monotonicSeconds() < deadline {
            try checkInterrupted()
            usleep(50_000)
        }
        guard vnc.isRunning, seatCapabilities() & 3 == 3 else {
            let why = vnc.isRunning ? "the seat has capabilities \(seatCapabilities()) after 15 s" : "wayvnc ended"
            removeKeyboard()
            throw LaunchError("wayvnc did not give the seat a keyboard (\(why)):\n" + PrivateSway.tail(log))
        }
    }

    /// Stops wayvnc and waits (bounded) until its devices left the seat.
    func removeKeyboard() {
        guard let vnc = wayvnc else { return }
        vnc.stop()
        wayvnc = nil
        let deadline = monotonicSeconds() + 5
        while seatCapabilities() & 3 != 0, monotonicSeconds() < deadline { usleep(50_000) }
        unlink(runtimeDirectory + ".wayvnc.log")
    }

    /// The seat's capabilities from `swaymsg -t get_seats` (1 pointer, 2 keyboard, 4 touch).
    func seatCapabilities() -> Int {
        let seats = (try? swaymsgJSON(["-t", "get_seats"])) as? [[String: Any]] ?? []
        return seats.reduce(0) { $0 | ($1["capabilities"] as? Int ?? 0) }
    }

    func swaymsgJSON(_ arguments: [String]) throws -> Any {
        guard let swaymsg = findProgram("swaymsg") else { throw LaunchError("swaymsg not found") }
        let r = try runCommand(swaymsg, ["--socket", ipcSocket, "-r"] + arguments, environment: clientEnvironment, timeout: 5)
        guard r.exit == .exited(0) else { throw LaunchError("swaymsg \(arguments.joined(separator: " ")): \(r.exit) \(r.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    }

    func stop() {
        removeKeyboard()
        sway?.stop()
        sway = nil
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
        unlink(runtimeDirectory + ".sway.log")
    }

    /// The last lines of a log file, indented, for an error message.
    static func tail(_ path: String, lines: Int = 15) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).map { "    " + $0 }.joined(separator: "\n")
    }

    /// A new 0700 directory owned by `owner` under `$TMPDIR`, or /tmp when `owner` could not
    /// reach `$TMPDIR` (an ancestor not searchable by others) or socket paths in it would be too
    /// long for `sun_path` (108 bytes).
    static func makeDirectory(owner: CompositorUser) throws -> String {
        var base = NSTemporaryDirectory()
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        if !base.hasPrefix("/") || base.utf8.count > 48 { base = "/tmp" }
        if !owner.isCurrentUser {
            var path = base
            while true {
                var st = stat()
                guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_mode & 0o001 != 0 else { base = "/tmp"; break }
                if path == "/" { break }
                path = (path as NSString).deletingLastPathComponent
            }
        }
        var template = Array("\(base)/modal-bench-sway.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw LaunchError("mkdtemp in \(base) failed: \(String(cString: strerror(errno)))") }
        let path = String(cString: made)
        guard chown(path, owner.uid, owner.gid) == 0, chmod(path, 0o700) == 0 else {
            let why = String(cString: strerror(errno))
            rmdir(path)
            throw LaunchError("cannot hand \(path) to \(owner.name): \(why)")
        }
        return path
    }
}

func isSocket(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bind to port 0, read it, close).
func freeTCPPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw LaunchError("socket failed: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &addr) { ptr -> Bool in
        ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
            bind(fd, sa, len) == 0 && getsockname(fd, sa, &len) == 0
        }
    }
    guard ok else { throw LaunchError("cannot find a free TCP port: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: addr.sin_port))
}
