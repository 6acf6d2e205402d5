#if canImport(Glibc)
import Glibc
#endif
import ModalKitSystemSupport

/// Why an output file was not written. Descriptions are one line and name the path as given.
public enum OutputFileError: Error, Equatable, CustomStringConvertible {
    /// The path, or what a symbolic link there leads to, exists and is not a regular file (a
    /// directory, a device, a FIFO, a socket, a link to nothing or a loop of links). Nothing was
    /// opened or written. `what` says what it is ("a FIFO", "a symbolic link to 'x', a socket").
    /// A command-line mistake: exit status 2.
    case notRegularFile(path: String, what: String)
    /// Creating, writing, syncing or renaming failed (`reason`: the system's message, e.g. "No
    /// space left on device"). A file that was there is as it was; the temporary file is removed.
    /// A runtime failure: exit status 1.
    case writeFailed(path: String, reason: String)

    /// True for ``notRegularFile(path:what:)``: the command line named something that is never
    /// written (exit status 2); false for an I/O failure (exit status 1).
    public var isUsage: Bool {
        if case .notRegularFile = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case let .notRegularFile(path, what):
            return "cannot write '\(path)': it is \(what); only a regular file or a new path is written"
        case let .writeFailed(path, reason):
            return "cannot write '\(path)': \(reason)"
        }
    }
}

/// How `modal-demo render`, `preview` and `new-style` write files: only a regular file or a new
/// path, never through a device, a FIFO, a socket or a directory; and atomically, so that a
/// failed write (a full disk, a file size limit) leaves the previous file as it was.
///
/// Rules:
/// - The destination is classified with `lstat`/`stat`, without opening it (opening a FIFO
///   blocks; opening a device may have effects): a new path, or a regular file, is written; a
///   symbolic link is followed to what it finally names (the link stays a link and that file
///   gets the new contents; a link to a new path in an existing directory creates that file, as a
///   shell's `>` does); anything else throws ``OutputFileError/notRegularFile(path:what:)``.
/// - The contents go into a new temporary file in the directory of the file finally written
///   (`open` with `O_CREAT | O_EXCL | O_NOFOLLOW`, a random name starting with `.`), are
///   `fsync`ed, and the temporary file is renamed over the destination (`rename(2)` is atomic
///   within a directory): a reader sees the old file or the new one, never a part. A new path is
///   made with `link(2)`, which never replaces what appeared there meanwhile. The directory is
///   synced afterwards (best effort).
/// - Mode: a new file gets `0666` less the umask, as any newly created file; a replaced file
///   keeps its permission bits (not its owner: the new file belongs to the writer).
/// - A failed write removes the temporary file and nothing else. `SIGXFSZ` is ignored while
///   writing, so that a file size limit (`RLIMIT_FSIZE`) is a failed write (`EFBIG`), not a
///   killed process that leaves its temporary file behind.
/// - Like any rename-based write, a replaced file's other hard links keep the old contents.
public enum OutputFile {
    /// What writing a path writes to.
    public enum Destination: Equatable, Sendable {
        /// Nothing is there yet: `path` (the path given, or the one a link leads to) is created.
        case newFile(path: String)
        /// A regular file, replaced whole; `mode` its permission bits.
        case regularFile(path: String, mode: mode_t)

        /// The path that is written (a symbolic link's final target).
        public var path: String {
            switch self {
            case let .newFile(path), let .regularFile(path, _): return path
            }
        }
    }

    /// Most symbolic links followed from one path (Linux's own limit, `MAXSYMLINKS`).
    static let maximumLinks = 40

    /// Classifies `path` without opening anything.
    /// - Throws: ``OutputFileError/notRegularFile(path:what:)`` for anything but a regular file or
    ///   a new path (also when a symbolic link leads to such a thing, to nothing, or in a loop).
    public static func destination(of path: String) throws -> Destination {
        var current = path
        var via: String?   // the first link's target, for the message
        for _ in 0...maximumLinks {
            var st = stat()
            guard lstat(current, &st) == 0 else {
                let code = errno
                if code == ENOENT {
                    if let via {
                        // A link to nothing: created like a shell's `>` would, when its directory exists.
                        let directory = directoryName(current)
                        var dst = stat()
                        guard stat(directory, &dst) == 0, dst.st_mode & S_IFMT == S_IFDIR else {
                            throw OutputFileError.notRegularFile(path: path, what: "a symbolic link to '\(via)', which does not exist")
                        }
                    }
                    return .newFile(path: current)
                }
                // A path through a non-directory (ENOTDIR), no permission: a write failure, told by the write.
                return .newFile(path: current)
            }
            switch st.st_mode & S_IFMT {
            case S_IFREG:
                return .regularFile(path: current, mode: st.st_mode & 0o7777)
            case S_IFLNK:
                let target = try readLink(current, for: path)
                if via == nil { via = target }
                current = target.hasPrefix("/") ? target : directoryName(current) + "/" + target
            default:
                let kind = describe(st.st_mode)
                throw OutputFileError.notRegularFile(path: path, what: via.map { "a symbolic link to '\($0)', \(kind)" } ?? kind)
            }
        }
        throw OutputFileError.notRegularFile(path: path, what: "a loop of symbolic links (more than \(maximumLinks))")
    }

    /// Writes `contents` to `path` (see the type's rules).
    /// - Parameter replacing: false to write only a new path (a regular file there is refused as
    ///   "an existing file", exit status 2), as `new-style` does inside its package directory.
    /// - Throws: ``OutputFileError``.
    public static func write<Bytes: Collection>(_ contents: Bytes, to path: String, replacing: Bool = true) throws
    where Bytes.Element == UInt8 {
        let written: Void? = try contents.withContiguousStorageIfAvailable { bytes in
            try write(UnsafeRawBufferPointer(bytes), to: path, replacing: replacing)
        }
        if written == nil {
            try Array(contents).withUnsafeBytes { bytes in try write(bytes, to: path, replacing: replacing) }
        }
    }

    /// Writes the bytes of `contents` to `path` (see the type's rules).
    /// - Throws: ``OutputFileError``.
    public static func write(_ contents: UnsafeRawBufferPointer, to path: String, replacing: Bool = true) throws {
        let destination = try destination(of: path)
        if !replacing, case .regularFile = destination {
            throw OutputFileError.notRegularFile(path: path, what: "an existing file")
        }
        let target = destination.path
        let directory = directoryName(target)

        let previousXFSZ = signal(SIGXFSZ, SIG_IGN)
        defer { signal(SIGXFSZ, previousXFSZ) }

        let (fd, temporary) = try createTemporary(in: directory, for: target, path: path)
        func failure(_ code: Int32) -> OutputFileError {
            unlink(temporary)
            return .writeFailed(path: path, reason: String(cString: strerror(code)))
        }
        if case let .regularFile(_, mode) = destination, fchmod(fd, mode & 0o777) != 0 {
            let code = errno
            close(fd)
            throw failure(code)
        }
        var offset = 0
        while offset < contents.count {
            let n = Glibc.write(fd, contents.baseAddress! + offset, contents.count - offset)
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                close(fd)
                throw failure(code)
            }
            offset += n
        }
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            throw failure(code)
        }
        if close(fd) != 0 { throw failure(errno) }

        switch destination {
        case .newFile:
            // link(2) never replaces: a node made at the path meanwhile is left alone.
            if link(temporary, target) == 0 {
                unlink(temporary)
            } else {
                let code = errno
                if code == EEXIST {
                    unlink(temporary)
                    throw OutputFileError.notRegularFile(path: path, what: "a new file made by someone else while writing")
                }
                // A file system without hard links (EPERM, ENOTSUP): rename, after looking once more.
                var st = stat()
                guard lstat(target, &st) != 0, errno == ENOENT else {
                    unlink(temporary)
                    throw OutputFileError.notRegularFile(path: path, what: "a new file made by someone else while writing")
                }
                if rename(temporary, target) != 0 { throw failure(errno) }
            }
        case .regularFile:
            // Still a regular file? (rename would replace whatever is there.)
            var st = stat()
            guard lstat(target, &st) == 0 || errno == ENOENT else { throw failure(errno) }
            if st.st_mode & S_IFMT != S_IFREG && st.st_mode & S_IFMT != 0 {
                unlink(temporary)
                throw OutputFileError.notRegularFile(path: path, what: describe(st.st_mode) + " (made while writing)")
            }
            if rename(temporary, target) != 0 { throw failure(errno) }
        }
        syncDirectory(directory)
    }

    /// A new temporary file in `directory`: `.NAME.XXXXXXXX.tmp` (NAME: the target's file name,
    /// shortened to stay within `NAME_MAX`), created exclusively, never through a link.
    private static func createTemporary(in directory: String, for target: String, path: String) throws -> (Int32, String) {
        var base = PathName.lastComponent(target)
        while base.utf8.count > 200 { base.removeLast() }
        for _ in 0..<100 {
            let suffix = String(UInt64.random(in: 0...UInt64(UInt32.max)), radix: 36)
            let temporary = directory + "/." + base + "." + suffix + ".tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, temporary) }
            let code = errno
            if code == EEXIST || code == EINTR { continue }
            throw OutputFileError.writeFailed(path: path, reason: String(cString: strerror(code)))
        }
        throw OutputFileError.writeFailed(path: path, reason: "no free temporary file name in '\(directory)'")
    }

    private static func readLink(_ link: String, for path: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(link, &buffer, buffer.count - 1)
        guard n >= 0 else {
            throw OutputFileError.writeFailed(path: path, reason: "readlink '\(link)': \(String(cString: strerror(errno)))")
        }
        buffer[n] = 0
        return String(cString: buffer)
    }

    /// The directory part of `path` ("." for a bare name).
    package static func directoryName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// "a directory", "a FIFO", … for a file type.
    package static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        case S_IFREG: return "a regular file"
        default: return "not a regular file"
        }
    }

    /// `fsync` of a directory, so that a rename in it survives a crash; errors are ignored (some
    /// file systems refuse it, and the file itself was written).
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
