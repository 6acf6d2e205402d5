// Processes for `modal-bench --launch`: clients started with fork/exec and their exec time taken
// in the child just before execve, their output read line by line, every wait bounded, and the
// private headless sway (with wayvnc for a keyboard) that `--headless` starts and stops
// (ModalKitSession's).
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
        if getuid() == 0, findProgram("setpriv") == nil { throw LaunchError("--headless needs setpriv (util-linux)", status: 2) }
        guard findProgram("sway") != nil, findProgram("swaymsg") != nil else {
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
        guard findProgram("wayvnc") != nil else {
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
