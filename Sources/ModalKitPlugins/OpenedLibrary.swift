// A style library opened once: the checks read the open descriptor and `dlopen` loads that same
// open file, so the file checked is the file loaded (docs/design.md, plugin metadata and trust).
import Glibc
import ModalKitStyle
import ModalKitSystemSupport

/// A candidate library file, opened once for reading (`O_RDONLY | O_CLOEXEC | O_NOFOLLOW`, its
/// real path). The trust rule's file part reads its `fstat`, the ELF checks and the note read it
/// with `pread`, and `dlopen` is given `/proc/self/fd/N`, this very open file: a file renamed or
/// linked into the path's place after the checks is never what loads. A file written in place
/// (the same inode) since the checks shows another size or modification time and is refused
/// (`StyleLoadError.changedSinceChecked`).
final class OpenedLibrary {
    /// The path as found or given.
    let path: String
    /// Its real path when it was opened; its directory is what `$ORIGIN` means.
    let realPath: String
    let fd: Int32
    /// `fstat` of the descriptor at the time of the checks.
    let status: stat
    /// What the ELF checks read from it; set by `StyleLoader.inspect`.
    var elf: ELFFile?
    /// Once `dlopen` has mapped it, the descriptor stays open for the life of the process, as
    /// the library does: its `/proc/self/fd/N` name is then never reused for another file (the
    /// dynamic loader hands back an already-loaded object whose name matches).
    private var keptOpen = false

    private init(path: String, realPath: String, fd: Int32, status: stat) {
        self.path = path; self.realPath = realPath; self.fd = fd; self.status = status
    }

    deinit { if !keptOpen { close(fd) } }

    /// Opens the library at `path`: it exists and is a regular file (a FIFO would block, a device
    /// is no file), checked on the open descriptor.
    static func open(_ path: String) -> Result<OpenedLibrary, StyleLoadError> {
        let real: String
        switch PluginLibrary.realPath(of: path) {
        case let .success(r): real = r
        case let .failure(e): return .failure(e)
        }
        // O_NONBLOCK: opening a FIFO nobody writes to returns at once (and fstat says what it
        // is); O_NOCTTY: a terminal does not become this process's.
        let fd = Glibc.open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP { return .failure(.changedSinceChecked(path: path)) }   // a link put in its place
            if code == ENOENT { return .failure(.notFound(path: path)) }
            return .failure(.loadFailed(path: path, message: String(cString: strerror(code))))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            return .failure(.loadFailed(path: path, message: message))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .failure(.notAFile(path: path, kind: OpenedLibrary.kind(of: info)))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(OpenedLibrary(path: path, realPath: real, fd: fd, status: info))
    }

    static func kind(of info: stat) -> String {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "no regular file"
        }
    }

    /// Whether the open file is still what was checked: the same device, inode, size and
    /// modification time.
    var isUnchanged: Bool {
        var now = stat()
        guard fstat(fd, &now) == 0 else { return false }
        return now.st_dev == status.st_dev && now.st_ino == status.st_ino && now.st_size == status.st_size
            && now.st_mtim.tv_sec == status.st_mtim.tv_sec && now.st_mtim.tv_nsec == status.st_mtim.tv_nsec
    }

    /// The name `dlopen` is given for this open file.
    var descriptorPath: String { "/proc/self/fd/\(fd)" }

    /// Keeps the descriptor open for good (the library is mapped and never unloaded).
    func keepOpen() { keptOpen = true }

    /// A private copy of the checked file's bytes, read from this descriptor into a new file
    /// (mode 0600) in a new private directory that is removed at once (the open copy stays): a
    /// new inode, so `dlopen` maps a new object whatever was loaded before, and nobody else can
    /// write it. The copy has this file's path and real path (its `$ORIGIN` is this file's
    /// directory). Refused when this file changed while it was copied.
    func privateCopy() -> Result<OpenedLibrary, StyleLoadError> {
        let directory: String
        do { directory = try StyleLoader.makePrivateDirectory(for: path) } catch {
            return .failure(error as? StyleLoadError ?? .loadFailed(path: path, message: "\(error)"))
        }
        let file = directory + "/" + PathName.lastComponent(realPath)
        let out = Glibc.open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        let code = errno
        unlink(file)
        rmdir(directory)
        guard out >= 0 else { return .failure(.loadFailed(path: path, message: "cannot make a copy: " + String(cString: strerror(code)))) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        let size = Int(status.st_size)
        while offset < size {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, min($0.count, size - offset), off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { close(out); return .failure(.changedSinceChecked(path: path)) }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(out, $0.baseAddress! + written, n - written) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else {
                    let message = String(cString: strerror(errno))
                    close(out)
                    return .failure(.loadFailed(path: path, message: "cannot make a copy: " + message))
                }
                written += w
            }
            offset += n
        }
        guard isUnchanged else { close(out); return .failure(.changedSinceChecked(path: path)) }
        var info = stat()
        guard fstat(out, &info) == 0 else { close(out); return .failure(.loadFailed(path: path, message: "cannot read the copy")) }
        return .success(OpenedLibrary(path: path, realPath: realPath, fd: out, status: info))
    }
}

/// A name for `dlopen` under which a library opened from its descriptor still finds what its
/// `$ORIGIN` entries name: a private directory (mode 0700) standing for the library's own
/// directory, holding a symbolic link to the open file (`/proc/self/fd/N`) under the library's
/// name and one to each other entry of its directory — as many levels up as its `$ORIGIN/..`
/// entries climb, the directories above stand in the same way. The dynamic loader takes
/// `$ORIGIN` from the name it was given (ld.so(8)), so it looks in the stand-in and reaches the
/// real neighbours; the stand-in is removed once `dlopen` returns.
struct OriginStandIn {
    /// The name to give `dlopen`.
    let name: String
    private let root: String

    /// The stand-in for `library`, whose `$ORIGIN` entries are `entries`.
    static func make(for library: OpenedLibrary, entries: [String]) -> Result<OriginStandIn, StyleLoadError> {
        let origin = PathName.deletingLastComponent(library.realPath)
        var ancestors = [origin.isEmpty ? "/" : origin]
        let climb = entries.map(levelsUp).max() ?? 0
        while ancestors.count <= climb, ancestors.last != "/" {
            let up = PathName.deletingLastComponent(ancestors.last!)
            ancestors.append(up.isEmpty ? "/" : up)
        }
        let root: String
        do { root = try StyleLoader.makePrivateDirectory(for: library.path) } catch {
            return .failure(error as? StyleLoadError ?? .loadFailed(path: library.path, message: "\(error)"))
        }
        // ancestors[i] stands at level i: level k (the top) is root itself.
        var standIns = [String](repeating: root, count: ancestors.count)
        for level in stride(from: ancestors.count - 2, through: 0, by: -1) {
            standIns[level] = standIns[level + 1] + "/" + PathName.lastComponent(ancestors[level])
            mkdir(standIns[level], 0o700)
        }
        let own = PathName.lastComponent(library.realPath)
        for (level, directory) in ancestors.enumerated() {
            let skip = level == 0 ? own : PathName.lastComponent(ancestors[level - 1])
            for entry in (try? FileSystem.entries(ofDirectory: directory)) ?? [] where entry != skip {
                symlink(PathName.appending(directory, entry), standIns[level] + "/" + entry)
            }
        }
        let name = standIns[0] + "/" + own
        guard symlink(library.descriptorPath, name) == 0 else {
            let message = String(cString: strerror(errno))
            OriginStandIn(name: name, root: root).remove()
            return .failure(.loadFailed(path: library.path, message: "cannot make a place to load it from: " + message))
        }
        return .success(OriginStandIn(name: name, root: root))
    }

    /// How many levels above `$ORIGIN` an entry reaches (`$ORIGIN/../lib`: 1).
    private static func levelsUp(_ entry: String) -> Int {
        var depth = 0, deepest = 0
        for part in entry.split(separator: "/").dropFirst() {
            if part == ".." { depth -= 1 } else if part != "." { depth += 1 }
            deepest = min(deepest, depth)
        }
        return min(-deepest, 16)
    }

    /// Removes the stand-in (its links and directories; nothing they point to).
    func remove() {
        func clear(_ directory: String) {
            for entry in (try? FileSystem.entries(ofDirectory: directory)) ?? [] {
                let path = directory + "/" + entry
                var info = stat()
                if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { clear(path); rmdir(path) } else { unlink(path) }
            }
        }
        clear(root)
        rmdir(root)
    }
}

/// The dispositions of the signals a host decides about (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
/// SIGPIPE), saved before plugin code runs at load time (its ELF constructors, its entry) and
/// put back after: a plugin cannot take over how the host ends.
struct SignalDispositions {
    static let signals: [(Int32, String)] = [(SIGHUP, "SIGHUP"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT"),
                                             (SIGPIPE, "SIGPIPE"), (SIGTERM, "SIGTERM")]
    private var saved: [sigaction] = []

    init() {
        for (signal, _) in SignalDispositions.signals {
            var action = sigaction()
            sigaction(signal, nil, &action)
            saved.append(action)
        }
    }

    /// Puts back every disposition that differs from the saved one (handler, flags).
    /// - Returns: the names of the signals whose handling had been changed.
    func restore() -> [String] {
        var changed: [String] = []
        for (i, (signal, name)) in SignalDispositions.signals.enumerated() {
            var now = sigaction()
            sigaction(signal, nil, &now)
            var old = saved[i]
            let before = unsafeBitCast(old.__sigaction_handler, to: UInt.self)
            let after = unsafeBitCast(now.__sigaction_handler, to: UInt.self)
            if before != after || old.sa_flags != now.sa_flags {
                sigaction(signal, &old, nil)
                changed.append(name)
            }
        }
        return changed
    }
}
