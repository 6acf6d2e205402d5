import ModalKitDemo
import ModalKit
import ModalKitWaylandClient
import ModalKitSystemSupport
import ModalKitPlugins
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
/// collected for 0.25 s, then the file is opened, checked on its descriptor, and its bytes copied
/// from that descriptor into a private file (``StyleLoader/loadPrivateCopy(_:)``) that is
/// loaded: the dynamic loader returns the already-loaded object for a file it has mapped
/// (dlopen(3)), and a loaded plugin is never unloaded (the Swift runtime keeps its metadata
/// registered), so every version is a new object; the watched file itself is never mapped, so
/// rewriting it in place cannot change code that runs. The copy's `$ORIGIN` is the watched
/// file's directory: libraries shipped beside it load as without `--watch`. The copy is
/// unlinked before `dlopen` (the open descriptor is loaded), so nothing is left behind.
///
/// Every copy is checked before `dlopen` like any library (`StyleLoader`): a file cut short is
/// refused rather than mapped past its end, which would kill the process with SIGBUS. Each copy
/// stays mapped for the life of the process (about the library's file size of address space;
/// `modal-bench --reloads N` measures it); the replaced style object is released. Past each
/// 256 MiB of copies loaded, one line on stderr says so.
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

    /// The first style, also loaded from a copy: the watched file itself is never mapped into this
    /// process, so rewriting it in place (`cp` over it) cannot change code that is running.
    /// - Throws: `ReloadError` naming the watched path (a bad style: exit 2).
    func loadInitial() throws -> PresentationStyle { try loadCopy() }

    /// Bytes of library copies this process has loaded (each stays mapped for good: a loaded
    /// plugin is never unloaded), and how many.
    private var mappedCopies = (bytes: 0, count: 0)
    /// Past each multiple of this many bytes of copies loaded, one line on stderr says so.
    static let mappedWarningStep = 256 << 20

    /// Loads a private copy of the file (``StyleLoader/loadPrivateCopy(_:)``) and creates the
    /// style; past each ``mappedWarningStep`` of copies mapped, one line says what they cost.
    private func loadCopy() throws -> PresentationStyle {
        do {
            let module = try StyleLoader.loadPrivateCopy(path)
            var info = stat()
            let size = stat(path, &info) == 0 ? Int(info.st_size) : 0
            let before = mappedCopies.bytes / StyleReloader.mappedWarningStep
            mappedCopies = (mappedCopies.bytes + size, mappedCopies.count + 1)
            if mappedCopies.bytes / StyleReloader.mappedWarningStep > before {
                warn("--watch: \(mappedCopies.count) loads of \(path) keep \(mappedCopies.bytes >> 20) MiB of library copies "
                     + "mapped (a loaded plugin is never unloaded); restart modal-demo to free them")
            }
            return try module.makeStyle(options: options)
        } catch {
            throw ReloadError(StyleCommandText.message(for: error))
        }
    }
}

struct ReloadError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
