// Child processes for the end-to-end harness: started by PID with posix_spawn, output collected by
// reader threads, every wait bounded, stopped by PID (SIGTERM, bounded wait, SIGKILL, reap).
//
// Foundation's Process is not used: the harness needs the exact PID of the program it started
// (sway under setpriv, which execs), bounded waits on exit, and a kill path that works from
// tearDown and from an atexit handler even when a test failed half-way.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a child ended.
public enum ExitStatus: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    public var description: String {
        switch self {
        case .exited(let code): return "exit status \(code)"
        case .signaled(let sig): return "killed by signal \(sig) (\(String(cString: strsignal(sig))))"
        }
    }
}

/// A failure of the harness itself (not of the program under test), with a one-line reason.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Seconds on CLOCK_MONOTONIC.
public func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Polls `condition` every `interval` seconds until it is true or `timeout` seconds have passed.
/// Returns whether it became true. The only way the harness waits for something.
@discardableResult
public func waitUntil(timeout: Double, interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = monotonicNow() + timeout
    while true {
        if try condition() { return true }
        if monotonicNow() >= deadline { return false }
        usleep(useconds_t(interval * 1e6))
    }
}

/// Collects everything a child writes to one pipe: the raw bytes and the complete lines (UTF-8,
/// without the newline). Thread-safe; waiters are woken on every chunk.
public final class OutputCollector {
    /// False for binary output (a screenshot): only the bytes are kept, no lines are made.
    private let collectsLines: Bool
    private let condition = NSCondition()
    private var raw = Data()
    private var partial = Data()
    private var collectedLines: [String] = []
    private var ended = false
    private var endedAt: Double?

    public init(collectsLines: Bool = true) { self.collectsLines = collectsLines }

    public var data: Data { condition.lock(); defer { condition.unlock() }; return raw }
    public var lines: [String] { condition.lock(); defer { condition.unlock() }; return collectedLines }
    public var text: String { String(decoding: data, as: UTF8.self) }
    /// True once the write end of the pipe is closed (every holder exited).
    public var isAtEnd: Bool { condition.lock(); defer { condition.unlock() }; return ended }
    /// When the reader saw the pipe closed (``monotonicNow()`` seconds), nil before.
    public var endTime: Double? { condition.lock(); defer { condition.unlock() }; return endedAt }

    fileprivate func append(_ chunk: Data) {
        condition.lock()
        raw.append(chunk)
        if collectsLines { splitLines(chunk) }
        condition.broadcast()
        condition.unlock()
    }

    /// Linear in the chunk's size: newlines are found with `memchr` in the new bytes only, and
    /// `partial` (the unfinished last line) is only appended to and emptied. (Binary output such
    /// as a screenshot is not split at all: a "line" every 256 bytes or so of pixels, each made a
    /// repaired String, was a fifth of the test process's CPU in the screenshot comparisons.)
    private func splitLines(_ chunk: Data) {
        chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count,
                  let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) {
                let end = base.distance(to: UnsafeRawPointer(found))
                partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                collectedLines.append(String(decoding: partial, as: UTF8.self))
                partial.removeAll(keepingCapacity: true)
                start = end + 1
            }
            if start < bytes.count { partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...])) }
        }
    }

    fileprivate func finish() {
        condition.lock()
        if !partial.isEmpty {
            collectedLines.append(String(decoding: partial, as: UTF8.self))
            partial.removeAll()
        }
        ended = true
        endedAt = monotonicNow()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits (bounded) until `predicate` holds for the lines collected so far; returns its last value.
    public func wait<T>(timeout: Double, _ predicate: ([String]) -> T?) -> T? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = predicate(collectedLines) { return value }
            if ended || !condition.wait(until: deadline) {
                return predicate(collectedLines)
            }
        }
    }

    /// The lines after the first `count`, waiting at most `timeout` seconds for one (empty when
    /// none came, or the pipe closed with none).
    public func lines(after count: Int, timeout: Double) -> ArraySlice<String> {
        wait(timeout: timeout) { lines in lines.count > count ? lines[count...] : nil } ?? []
    }

    /// Waits (bounded) until the pipe is closed.
    @discardableResult
    public func waitForEnd(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !ended {
            if !condition.wait(until: deadline) { return ended }
        }
        return true
    }
}

/// Every child the harness started and has not reaped yet, so that an `atexit` handler can stop
/// them even if a test crashed the run before its tearDown.
private let liveChildrenLock = NSLock()
private var liveChildren: [pid_t: String] = [:]
private var atexitInstalled = false

private func registerLive(_ pid: pid_t, _ name: String) {
    liveChildrenLock.lock()
    liveChildren[pid] = name
    if !atexitInstalled {
        atexitInstalled = true
        atexit {
            liveChildrenLock.lock()
            let pids = Array(liveChildren.keys)
            liveChildrenLock.unlock()
            for pid in pids { kill(pid, SIGKILL) }
            for pid in pids {
                var status: Int32 = 0
                _ = waitUntil(timeout: 2) { waitpid(pid, &status, WNOHANG) != 0 }
            }
        }
    }
    liveChildrenLock.unlock()
}

private func unregisterLive(_ pid: pid_t) {
    liveChildrenLock.lock()
    liveChildren[pid] = nil
    liveChildrenLock.unlock()
}

/// Looks a program up in PATH (plus the sbin directories, which a non-login root PATH may lack).
/// A name with a slash is taken as is; either way, nil unless it is an executable regular file.
public func findExecutable(_ name: String) -> String? {
    func executable(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
    if name.contains("/") { return executable(name) ? name : nil }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin", "/bin"]
    where !dir.isEmpty {
        let candidate = dir + "/" + name
        if executable(candidate) { return candidate }
    }
    return nil
}

/// One child process: spawned with posix_spawn (its PID is the program's PID), stdin from
/// /dev/null (or, with `writableStandardInput`, from a socket the harness writes with
/// `writeToStandardInput`), stdout and stderr collected. Stop it with `stop()`; `deinit` stops it too.
public final class ChildProcess {
    public let pid: pid_t
    /// Short name for messages (the program's base name).
    public let name: String
    public let stdout: OutputCollector
    public let stderr: OutputCollector
    /// `CLOCK_REALTIME` immediately before `posix_spawn`, whose clone returns once the child
    /// has called `execve` (glibc's `CLONE_VFORK`): the program's start, on the clock libwayland
    /// stamps `WAYLAND_DEBUG` lines with; the error is the spawn's own cost (posix_spawn of /bin/true
    /// took 0.17 ms, median of 200, on a loaded 2-core machine).
    public let spawnRealtime: timespec
    /// `CLOCK_MONOTONIC` at the same moment, seconds (as ``monotonicNow()``).
    public let spawnMonotonic: Double
    /// User + system CPU time of the whole process (all its threads), seconds, once it was
    /// reaped (`wait4`'s rusage); nil before.
    public var cpuSecondsAtExit: Double? { statusLock.lock(); defer { statusLock.unlock() }; return reapedCPUSeconds }
    private let statusLock = NSLock()
    private var reapedStatus: ExitStatus?
    private var reapedCPUSeconds: Double?
    /// The harness's end of the child's stdin (a socket, so that writing after the child died
    /// fails with EPIPE instead of raising SIGPIPE in the test process); -1 when stdin is /dev/null.
    private var stdinSocket: Int32 = -1

    /// Starts `arguments[0]` (looked up in PATH when it has no slash) with exactly `environment`.
    /// - Throws: `HarnessError` when the program is not found or posix_spawn fails.
    /// `name` defaults to the program's base name. With `writableStandardInput` the child's stdin
    /// is one end of a Unix stream socket pair (see `writeToStandardInput`), else /dev/null. With
    /// `binaryStandardOutput` stdout is kept as bytes only (`stdout.lines` stays empty).
    public init(_ arguments: [String], environment: [String: String], workingDirectory: String? = nil, name: String? = nil,
         writableStandardInput: Bool = false, binaryStandardOutput: Bool = false) throws {
        precondition(!arguments.isEmpty)
        guard let executable = findExecutable(arguments[0]) else {
            throw HarnessError("program '\(arguments[0])' not found in PATH")
        }
        self.name = name ?? (arguments[0] as NSString).lastPathComponent

        // pipe2(O_CLOEXEC) is not imported (it needs _GNU_SOURCE); only the test thread spawns,
        // so setting FD_CLOEXEC right after pipe() leaves no window for another spawn.
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw HarnessError("pipe failed: \(String(cString: strerror(errno)))")
        }
        var inPair: [Int32] = [-1, -1]
        if writableStandardInput {
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &inPair) == 0 else {
                for fd in outPipe + errPipe { close(fd) }
                throw HarnessError("socketpair failed: \(String(cString: strerror(errno)))")
            }
        }
        for fd in outPipe + errPipe + inPair where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if writableStandardInput {
            posix_spawn_file_actions_adddup2(&actions, inPair[1], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Children start with default signal dispositions and an empty mask, whatever the test
        // runner blocked or ignored (a child that ignores SIGTERM would not stop).
        var defaultSignals = sigset_t()
        sigfillset(&defaultSignals)
        sigdelset(&defaultSignals, SIGKILL)
        sigdelset(&defaultSignals, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        // posix_spawn_file_actions_addchdir_np is not imported either: change directory in a
        // shell that then execs the program, so the PID is still the program's.
        var command = [executable] + arguments.dropFirst()
        var path = executable
        if let dir = workingDirectory {
            command = ["/bin/sh", "-c", "cd \"$0\" || exit 127; exec \"$@\"", dir] + command
            path = "/bin/sh"
        }
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var childPID: pid_t = 0
        var realtime = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        clock_gettime(CLOCK_REALTIME, &realtime)
        let rc = posix_spawn(&childPID, path, &actions, &attributes, argv, envp)
        spawnRealtime = realtime
        spawnMonotonic = Double(monotonic.tv_sec) + Double(monotonic.tv_nsec) / 1e9
        close(outPipe[1])
        close(errPipe[1])
        if inPair[1] >= 0 { close(inPair[1]) }
        guard rc == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            if inPair[0] >= 0 { close(inPair[0]) }
            throw HarnessError("cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        pid = childPID
        stdinSocket = inPair[0]
        registerLive(childPID, self.name)
        stdout = OutputCollector(collectsLines: !binaryStandardOutput)
        stderr = OutputCollector()
        ChildProcess.startReader(fd: outPipe[0], into: stdout, name: "\(self.name)[\(childPID)].stdout")
        ChildProcess.startReader(fd: errPipe[0], into: stderr, name: "\(self.name)[\(childPID)].stderr")
    }

    deinit {
        if status == nil { stop(timeout: 1) }
        closeStandardInput()
    }

    /// Writes `text` to the child's stdin (started with `writableStandardInput`), all of it.
    /// - Throws: `HarnessError` when stdin is not writable or the child closed it (EPIPE).
    public func writeToStandardInput(_ text: String) throws {
        statusLock.lock()
        let fd = stdinSocket
        statusLock.unlock()
        guard fd >= 0 else { throw HarnessError("\(name): stdin is not writable") }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw HarnessError("\(name): cannot write to stdin: \(String(cString: strerror(errno)))") }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Closes the child's stdin (it reads end of file). Safe to call more than once.
    public func closeStandardInput() {
        statusLock.lock()
        let fd = stdinSocket
        stdinSocket = -1
        statusLock.unlock()
        if fd >= 0 { close(fd) }
    }

    private static func startReader(fd: Int32, into collector: OutputCollector, name: String) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    collector.append(Data(buffer[0..<n]))
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(fd)
            collector.finish()
        }
        thread.name = name
        thread.start()
    }

    /// The exit status if the child has ended (reaps it), nil while it runs. Never blocks.
    public var status: ExitStatus? {
        statusLock.lock()
        defer { statusLock.unlock() }
        if let s = reapedStatus { return s }
        var raw: Int32 = 0
        var usage = rusage()
        let r = wait4(pid, &raw, WNOHANG, &usage)
        if r == pid {
            // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
            let sig = raw & 0x7f
            reapedStatus = sig == 0 ? .exited((raw >> 8) & 0xff) : .signaled(sig)
            reapedCPUSeconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
            unregisterLive(pid)
        } else if r < 0 && errno == ECHILD {
            reapedStatus = .signaled(0)   // reaped elsewhere; should not happen
            unregisterLive(pid)
        }
        return reapedStatus
    }

    public var isRunning: Bool { status == nil }

    /// Waits at most `timeout` seconds for the child to end; nil if it still runs.
    public func waitForExit(timeout: Double) -> ExitStatus? {
        var result: ExitStatus?
        _ = waitUntil(timeout: timeout, interval: 0.005) {
            result = status
            return result != nil
        }
        return result
    }

    /// Stops the child: SIGTERM, up to `timeout` seconds, then SIGKILL and up to 5 s more.
    /// Returns how it ended. Safe to call more than once.
    @discardableResult
    public func stop(timeout: Double = 3) -> ExitStatus? {
        closeStandardInput()
        if let s = status { return s }
        kill(pid, SIGTERM)
        if let s = waitForExit(timeout: timeout) { return s }
        kill(pid, SIGKILL)
        return waitForExit(timeout: 5)
    }

    /// The child's stderr (and stdout) for failure messages, trimmed to the last `maxLines` lines.
    public func diagnostics(maxLines: Int = 30) -> String {
        func tail(_ lines: [String]) -> String {
            lines.suffix(maxLines).map { "    " + $0 }.joined(separator: "\n")
        }
        return "\(name) [pid \(pid)], \(status.map { $0.description } ?? "running")\n"
            + "  stdout:\n\(tail(stdout.lines))\n  stderr:\n\(tail(stderr.lines))"
    }

    /// Runs a short command to completion (bounded) and returns its status and output
    /// (`binaryStandardOutput`: stdout not split into lines, for pixels).
    /// - Throws: `HarnessError` when it cannot start or does not end within `timeout` seconds
    ///   (it is then killed).
    public static func run(_ arguments: [String], environment: [String: String],
                    workingDirectory: String? = nil, timeout: Double = 10, binaryStandardOutput: Bool = false) throws
        -> (status: ExitStatus, stdout: Data, stderr: String)
    {
        let child = try ChildProcess(arguments, environment: environment, workingDirectory: workingDirectory,
                                     binaryStandardOutput: binaryStandardOutput)
        guard let status = child.waitForExit(timeout: timeout) else {
            child.stop(timeout: 1)
            throw HarnessError("\(arguments.joined(separator: " ")) did not finish within \(timeout) s; killed")
        }
        child.stdout.waitForEnd(timeout: 2)
        child.stderr.waitForEnd(timeout: 2)
        return (status, child.stdout.data, child.stderr.text)
    }
}

/// The harness's own environment with `changes` applied (nil removes a variable).
public func harnessEnvironment(_ changes: [String: String?]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    for (key, value) in changes { env[key] = value }
    return env
}
