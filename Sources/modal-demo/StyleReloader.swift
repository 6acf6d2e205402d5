import ModalKitDemo
import ModalKit
import ModalKitWaylandClient
import ModalKitSystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// `--watch`: reloads the style's plugin file when it changes, without restarting.
///
/// The file's directory is watched with inotify (inotify(7): `IN_CLOSE_WRITE`, `IN_MOVED_TO`,
/// `IN_CREATE`, `IN_DELETE`; `IN_DELETE_SELF`/`IN_MOVE_SELF`: a directory removed and made again,
/// as `rm -rf .build && swift build` does, is watched again once it is back), so a file replaced by a rename, rewritten in place or deleted and
/// made anew by a linker is seen. The inotify descriptor and the 0.25 s timer are on the window's
/// one loop (``WaylandConnection/watch(fd:events:onReady:)``, ``EventLoopTimer``). Changes are
/// collected for 0.25 s, then the file is copied under a
/// new name into a private directory and that copy is loaded: the dynamic loader returns the
/// already-loaded object for a path it has opened (dlopen(3)), and a loaded plugin is never
/// unloaded (the Swift runtime keeps its metadata registered), so every version is a new object.
/// The copy is unlinked right after `dlopen` (the mapping stays), so nothing is left behind.
///
/// Every copy is checked before `dlopen` like any library (`StyleLoader`): a file cut short is
/// refused rather than mapped past its end, which would kill the process with SIGBUS.
/// A copy that does not load is retried every 0.25 s (a linker may still be writing the file); once
/// it has failed on a file unchanged for a second (4 more tries), one line goes to stderr and the
/// style in use stays. A new style is handed to `apply`, which uses it at once
/// when no transition runs, else when the running one has finished.
final class StyleReloader {
    private let path: String
    private let options: [String: String]
    private let log: (String) -> Void
    private let apply: (PresentationStyle) -> Void
    private var inotifyFD: Int32 = -1
    private var timer: EventLoopTimer?
    private var watch: FDWatch?
    private weak var connection: WaylandConnection?
    private var generation = 0
    /// Size and modification time of the file at the last failed try.
    private var lastFailure: (size: Int, mtime: timespec)?
    private var retries = 0
    private var unchangedFailures = 0
    /// The watched directory went away (`rm -rf .build`): polled every 0.25 s until it is back,
    /// then watched again.
    private var directoryGone = false
    private var directory: String { let d = PathName.deletingLastComponent(path); return d.isEmpty ? "." : d }
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)

    init(path: String, options: [String: String], log: @escaping (String) -> Void,
         apply: @escaping (PresentationStyle) -> Void) {
        self.path = path; self.options = options; self.log = log; self.apply = apply
    }

    deinit {
        if let watch { connection?.removeWatch(watch) }
        timer?.invalidate()
        if inotifyFD >= 0 { close(inotifyFD) }
    }

    /// Starts watching. Failures are one line on stderr; the window runs on without reloading.
    func attach(to connection: WaylandConnection) {
        self.connection = connection
        inotifyFD = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotifyFD >= 0, inotify_add_watch(inotifyFD, directory, StyleReloader.mask) >= 0 else {
            warn("--watch: cannot watch \(directory): \(String(cString: strerror(errno)))")
            return
        }
        watch = connection.watch(fd: inotifyFD) { [weak self] _ in self?.readEvents() }
        timer = EventLoopTimer(connection: connection) { [weak self] in self?.timerFired() }
    }

    private func warn(_ line: String) {
        writeToStandardError("modal-demo: " + line.replacingAll("\n", with: " ") + "\n")
    }

    /// Drains the inotify queue; an event for the file's name (re)arms the 0.25 s timer.
    private func readEvents() {
        let name = PathName.lastComponent(path)
        var buffer = [UInt8](repeating: 0, count: 16384)
        var relevant = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(inotifyFD, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            buffer.withUnsafeBytes { raw in
                while offset + MemoryLayout<inotify_event>.size <= n {
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    // The directory itself was deleted or moved (its watch ends with IN_IGNORED).
                    if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { directoryGone = true }
                    if event.len > 0 {
                        let bytes = raw[nameStart..<min(n, nameStart + Int(event.len))].prefix { $0 != 0 }
                        if String(decoding: bytes, as: UTF8.self) == name { relevant = true }
                    }
                    offset = nameStart + Int(event.len)
                }
            }
        }
        if relevant || directoryGone { retries = 0; arm(after: 0.25) }
    }

    private func arm(after seconds: Double) {
        timer?.schedule(after: seconds)
    }

    private func timerFired() {
        if directoryGone {
            // Watch the directory again once it exists (a build recreates it); until then, poll.
            guard inotify_add_watch(inotifyFD, directory, StyleReloader.mask) >= 0 else { return arm(after: 0.25) }
            directoryGone = false
        }
        reload()
    }

    /// The file's size and modification time; nil when it is missing.
    private func stamp() -> (size: Int, mtime: timespec)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (Int(info.st_size), info.st_mtim)
    }

    private func reload() {
        guard let before = stamp() else { return }   // deleted: wait for the new file
        do {
            let style = try loadCopy()
            lastFailure = nil
            retries = 0
            unchangedFailures = 0
            apply(style)
        } catch {
            var message = String(describing: error)
            if message.hasPrefix(path + ": ") { message.removeFirst(path.count + 2) }
            let unchanged = lastFailure.map { $0.size == before.size && $0.mtime.tv_sec == before.mtime.tv_sec
                && $0.mtime.tv_nsec == before.mtime.tv_nsec } ?? false
            lastFailure = before
            unchangedFailures = unchanged ? unchangedFailures + 1 : 0
            retries += 1
            // Reported once the file has stayed the same over 4 more tries (1 s): a linker that
            // is still writing changes it meanwhile.
            if unchangedFailures >= 4 || retries > 120 {
                warn("cannot reload \(path): \(message) (keeping the previous style)")
                retries = 0
                unchangedFailures = 0
            } else {
                arm(after: 0.25)   // still being written, maybe: try again
            }
        }
    }

    /// Where copies are made, in order: `XDG_RUNTIME_DIR` (the user's own, on tmpfs), the user's
    /// cache directory (`XDG_CACHE_HOME`, else `HOME/.cache`; XDG Base Directory), the temporary
    /// directory (`TMPDIR`, else `/tmp`). A place that is unset, missing or not writable is
    /// skipped: a session whose runtime directory is not this user's (a root shell in another
    /// user's session, a check run without one) still reloads.
    static func copyDirectoryBases(environment: [String: String] = ProcessEnvironment.current) -> [String] {
        func set(_ key: String) -> String? { environment[key].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        var bases: [String] = []
        if let runtime = set("XDG_RUNTIME_DIR") { bases.append(runtime) }
        if let cache = set("XDG_CACHE_HOME") ?? set("HOME").map({ $0 + "/.cache" }) { bases.append(cache) }
        bases.append(set("TMPDIR") ?? "/tmp")
        return bases
    }

    /// A new private directory (mode 0700, mkdtemp(3)) for a copy of `path`, in the first of
    /// ``copyDirectoryBases(environment:)`` that takes one.
    /// - Throws: `ReloadError` naming every place tried.
    static func makeCopyDirectory(for path: String) throws -> String {
        let bases = copyDirectoryBases()
        for base in bases {
            var template = Array("\(base)/modal-demo-reload-XXXXXX".utf8CString)
            if let made = mkdtemp(&template) { return String(cString: made) }
        }
        throw ReloadError("\(path): cannot make a directory to load a copy in (tried \(bases.joined(separator: ", ")))")
    }

    /// The first style, also loaded from a copy: the watched file itself is never mapped into this
    /// process, so rewriting it in place (`cp` over it) cannot change code that is running.
    /// - Throws: `ReloadError` naming the watched path (a bad style: exit 2).
    func loadInitial() throws -> PresentationStyle { try loadCopy() }

    /// Copies the file to a new name, loads the copy, removes it, and creates the style.
    private func loadCopy() throws -> PresentationStyle {
        generation += 1
        let directory = try StyleReloader.makeCopyDirectory(for: path)
        let copy = directory + "/" + "reload-\(generation)-" + PathName.lastComponent(path)
        defer { unlink(copy); rmdir(directory) }
        // Only a regular file is copied (a FIFO would block); anything else goes to the loader,
        // whose message says what it is.
        var info = stat()
        guard stat(path, &info) == 0 else { throw ReloadError(StyleCommandText.message(for: StyleLoadError.notFound(path: path))) }
        let source = info.st_mode & S_IFMT == S_IFREG ? copy : path
        if source == copy {
            do {
                try FileSystem.copyFile(path, to: copy, mode: 0o600)   // ours alone, whatever the original's mode
            } catch {
                throw ReloadError("\(path): cannot be copied for loading: \(error)")
            }
            // The trust rule for a library named by path, on the file the user named (the copy
            // is this process's own).
            if let violation = StyleTrust.check(path, scope: .file) {
                throw ReloadError(StyleLoadError.refused(path: path, violation: violation).description)
            }
        }
        do {
            // The copy is checked before dlopen like any library: a file cut short (a linker
            // still writing) is refused here rather than mapped past its end (SIGBUS).
            let module = try StyleLoader(searchPath: []).load(source)
            return try module.makeStyle(options: options)
        } catch {
            throw ReloadError(StyleCommandText.message(for: error).replacingAll(copy, with: path))
        }
    }
}

struct ReloadError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
