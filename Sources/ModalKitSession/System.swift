// Small system helpers for the harness: the unprivileged compositor user, private runtime
// directories, TCP ports, CPU time from /proc, and where the built products and tools are.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The user a compositor runs as. sway refuses to run as root, so when the tests run as root
/// (CI) the compositor and its helpers (wayvnc) run as the unprivileged `modalkit-test` user,
/// created on first use; the programs under test stay root, which may connect to any socket.
/// When the tests do not run as root everything runs as the current user.
public struct SessionUser {
    public static let testUserName = "modalkit-test"

    public let name: String
    public let uid: uid_t
    public let gid: gid_t

    public init(name: String, uid: uid_t, gid: gid_t) { self.name = name; self.uid = uid; self.gid = gid }

    public var isCurrentUser: Bool { uid == getuid() }

    /// The user to run compositors as (see the type's comment).
    /// - Throws: `HarnessError` when running as root and the user cannot be created.
    public static func forCompositor() throws -> SessionUser {
        guard getuid() == 0 else {
            let name = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "uid\(getuid())"
            return SessionUser(name: name, uid: getuid(), gid: getgid())
        }
        if let user = lookup(testUserName) { return user }
        // Another test process may create it at the same moment; look again whatever useradd says.
        let result = try ChildProcess.run(
            ["useradd", "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
             "--shell", "/usr/sbin/nologin", testUserName],
            environment: harnessEnvironment([:]), timeout: 20)
        if let user = lookup(testUserName) { return user }
        throw HarnessError("cannot create user \(testUserName) (useradd: \(result.status), \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))")
    }

    private static func lookup(_ name: String) -> SessionUser? {
        guard let pw = getpwnam(name) else { return nil }
        return SessionUser(name: name, uid: pw.pointee.pw_uid, gid: pw.pointee.pw_gid)
    }

    /// `arguments` run as this user: through `setpriv`, which sets the ids and then execs, so the
    /// PID of the started process is the program's own PID. `diesWithParent` adds `--pdeathsig
    /// TERM` (setpriv(1)): the program gets SIGTERM when the thread that started it ends.
    public func command(_ arguments: [String], diesWithParent: Bool = false) -> [String] {
        if isCurrentUser && !diesWithParent { return arguments }
        var prefix = ["setpriv"]
        if diesWithParent { prefix += ["--pdeathsig", "TERM"] }
        if !isCurrentUser { prefix += ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"] }
        return prefix + ["--"] + arguments
    }

    /// Where private directories are made: `$TMPDIR` (so that a run given its own, as
    /// `scripts/test` does, keeps everything in it), unless another user could not reach a
    /// directory in it — every ancestor must be searchable by others, since the compositor may run
    /// as `modalkit-test` — or the sockets in it would be too long for `sun_path`; then /tmp.
    public static let directoryBase: String = {
        var base = NSTemporaryDirectory()
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("/"), base.utf8.count <= 48 else { return "/tmp" }
        var path = base
        while true {
            var st = stat()
            guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_mode & 0o001 != 0 else { return "/tmp" }
            if path == "/" { return base }
            path = (path as NSString).deletingLastPathComponent
        }
    }()

    /// A new directory under ``directoryBase`` ($TMPDIR or /tmp) owned by this user, mode 0700
    /// (an XDG_RUNTIME_DIR).
    public func makePrivateDirectory(prefix: String) throws -> String {
        var template = Array("\(SessionUser.directoryBase)/\(prefix).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw HarnessError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        let path = String(cString: made)
        guard chown(path, uid, gid) == 0, chmod(path, 0o700) == 0 else {
            throw HarnessError("cannot hand \(path) to \(name): \(String(cString: strerror(errno)))")
        }
        return path
    }
}

/// The environment a session's own processes (compositor, bus, helpers) start with: nothing of the
/// caller's but PATH; `HOME` and `XDG_RUNTIME_DIR` the session's directory, `LANG` C.UTF-8; then
/// `extra` (which may override those).
public func sessionProcessEnvironment(_ directory: String, _ extra: [String: String] = [:]) -> [String: String] {
    ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory,
     "XDG_RUNTIME_DIR": directory, "LANG": "C.UTF-8"].merging(extra) { $1 }
}

/// Removes a directory tree, ignoring errors (used in tear-down).
public func removeTree(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// Whether `path` exists and is a Unix socket.
public func isSocket(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bind to port 0, read it, close).
public func freeTCPPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket failed: \(String(cString: strerror(errno)))") }
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
    guard ok else { throw HarnessError("cannot find a free TCP port: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: addr.sin_port))
}

/// Whether something accepts TCP connections on 127.0.0.1:`port` right now.
public func acceptsTCP(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &addr) { ptr in
        ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// CPU time (user + system) a process has used so far, in clock ticks (`sysconf(_SC_CLK_TCK)`,
/// normally 100 per second), from fields 14 and 15 of /proc/PID/stat (proc(5)).
/// - Throws: `HarnessError` when the process does not exist.
public func cpuTicks(pid: pid_t) throws -> Int {
    guard let text = readProcFile("/proc/\(pid)/stat"),
          let close = text.lastIndex(of: ")") else {
        throw HarnessError("cannot read /proc/\(pid)/stat (process gone?)")
    }
    // After "pid (comm)" the fields start at field 3 (state); utime is field 14, stime field 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let utime = Int(fields[11]), let stime = Int(fields[12]) else {
        throw HarnessError("unexpected /proc/\(pid)/stat: \(text)")
    }
    return utime + stime
}

/// The directory of the running test binary (`<scratch>/<triple>/debug`). The products under test
/// are not here but in an installed prefix (``InstalledProducts``).
public func testBinaryDirectory() -> String {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return (exe as NSString).deletingLastPathComponent
}

/// The `vncdo` program (vncdotool): `$MODALKIT_VNCDO`, else the virtualenv `scripts/test` makes in
/// the scratch directory (`<scratch>/vncdotool/bin/vncdo`, two levels above the test binary), else PATH.
public func vncdoPath() -> String? {
    if let env = ProcessInfo.processInfo.environment["MODALKIT_VNCDO"], !env.isEmpty, access(env, X_OK) == 0 {
        return env
    }
    let scratch = ((testBinaryDirectory() as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
    let venv = scratch + "/vncdotool/bin/vncdo"
    if access(venv, X_OK) == 0 { return venv }
    return findExecutable("vncdo")
}

/// The whole of a /proc file, read until end of file (its size is 0 for stat(2), and Foundation's
/// `String(contentsOfFile:)` reads only the first page of such a file); nil when it cannot be opened.
public func readProcFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        data.append(buffer, count: n)
    }
    return String(decoding: data, as: UTF8.self)
}
