import CModalKitWaylandClient
import CModalKitWaylandProtocols
import Glibc
import ModalKitSystemSupport

/// A connection to the Wayland compositor (`wl_display`), its globals, and the event loop.
///
/// On creation it connects, binds the globals at `min(offered, supported)` versions and checks
/// that the required ones exist (`wl_compositor`, `wl_shm`, `xdg_wm_base`) at the versions this
/// client needs (`GlobalVersions`: an optional global offered below its minimum is ignored, as if
/// absent; a required one is an error naming it); `wl_seat`, `wl_output`,
/// `wl_subcompositor`, `zxdg_decoration_manager_v1`, `wp_viewporter` and `wp_fractional_scale_manager_v1` are
/// optional, and seats and outputs may come and go at any time. Create ``Window``s on it, then call ``run()``.
///
/// Ownership: every object that wraps a Wayland proxy (the globals here, input devices, and each
/// window's surfaces, buffers, frame callbacks, sub-surface layers, decorations, cursor themes)
/// holds the connection's `wl_display` in a stored property (`Display`) and destroys its proxy
/// in its own `deinit`; `wl_display_disconnect` runs when the last of them, or this object, goes —
/// never before a proxy made on it is destroyed, whatever order ARC releases them in. Each
/// ``Window`` also keeps its connection alive (xdg-shell: windows go before `xdg_wm_base`).
/// Dropping the connection while an app still holds such an object (a ``SurfaceLayer`` after its
/// window closed, say) leaves the socket open until that object goes; nothing is dispatched on it.
/// Not thread-safe: use it, and every window on it, from one thread.
public final class WaylandConnection {
    /// The `wl_display`, shared with every proxy wrapper made on it (see the type's ownership rule).
    let display: Display
    private var registry: Registry?
    private var compositorObject: Compositor?
    package private(set) var shm: Shm?
    private(set) var wmBase: XdgWmBase?
    private(set) var decorationManager: DecorationManager?
    package private(set) var subcompositor: Subcompositor?
    package private(set) var viewporter: Viewporter?
    private(set) var fractionalScaleManager: FractionalScaleManager?
    private(set) var presentationTime: PresentationTime?
    private(set) var outputs: [Output] = []
    private(set) var seats: [Seat] = []
    private var windows: [WeakWindow] = []
    /// Extra file descriptors polled by ``run()`` (key-repeat timers, a D-Bus connection …).
    private var watches: [FDWatch] = []
    /// The watch behind each `pollFDs` entry after the first (the display), refilled with it.
    private var pollOwners: [FDWatch] = []
    /// Sources prepared before each sleep and dispatched after it (``addSource(_:)``); their
    /// descriptors follow the watches' in `pollFDs`.
    private let sources = EventSourceSet()
    private var cursorThemes: [Int: CursorTheme] = [:]
    /// The error that ended the connection; every later `run()` throws it again.
    private var failure: WaylandError?

    /// Connects to the compositor and binds its globals (two roundtrips).
    ///
    /// - Parameter socket: a socket name relative to `$XDG_RUNTIME_DIR`, or an absolute path;
    ///   nil = `$WAYLAND_DISPLAY` (libwayland's rule: `wayland-0` when unset; `$WAYLAND_SOCKET`,
    ///   an inherited fd, takes precedence).
    /// - Throws: ``WaylandError/noCompositor(socket:reason:)`` naming the full socket path tried
    ///   (never a crash on a NULL display); ``WaylandError/missingGlobal(_:)``;
    ///   ``WaylandError/globalTooOld(interface:offered:needed:neededFor:)``;
    ///   ``WaylandError/connectionLost(_:)`` / ``WaylandError/protocolError(interface:objectID:code:message:)``.
    public init(socket: String? = nil) throws {
        _ = LibwaylandLog.install
        LibwaylandLog.clear()
        errno = 0
        guard let display = wl_display_connect(socket) else {
            let code = errno
            let target = SocketTarget(socket: socket)
            var reason = code != 0 ? errnoDescription(code) : "connection failed"
            if !target.notes.isEmpty { reason += " (" + target.notes.joined(separator: "; ") + ")" }
            throw WaylandError.noCompositor(socket: target.path, reason: reason)
        }
        self.display = Display(display)
        let registry = Registry(display: self.display)
        registry.onGlobal = { [unowned self] name, interface, version in
            globalAdded(name: name, interface: interface, version: version)
        }
        registry.onGlobalRemove = { [unowned self] name in globalRemoved(name: name) }
        self.registry = registry
        // The first roundtrip is bounded: a socket that accepts but never answers (not a
        // compositor, or a hung one) would otherwise leave wl_display_roundtrip waiting forever.
        try startupRoundtrip(socket: SocketTarget(socket: socket).path)   // the globals
        try checkRequiredGlobals()
        try roundtrip()   // their initial events: output scales, seat capabilities, keymaps
    }

    /// How long the first roundtrip may take before the socket counts as not a compositor's.
    static let startupTimeout = 10.0

    /// `wl_display_roundtrip` with a deadline of ``startupTimeout`` seconds: `wl_display.sync`, then
    /// read and dispatch (libwayland's prepare-read / poll / read sequence) until its `done`.
    /// - Throws: ``WaylandError/noAnswer(socket:seconds:)`` when the deadline passes; the errors
    ///   of ``roundtrip()`` otherwise.
    private func startupRoundtrip(socket: String) throws {
        let done = SyncDone()
        guard let callback = wl_display_sync(display.pointer) else { throw currentError(fallback: ENOMEM) }
        defer { wl_callback_destroy(callback) }
        wl_callback_add_listener(callback, SyncDone.listener, userData(done))
        let deadline = monotonicSeconds() + WaylandConnection.startupTimeout
        while !done.value {
            try dispatchPending()
            if done.value { break }
            while wl_display_prepare_read(display.pointer) != 0 { try dispatchPending() }
            if wl_display_flush(display.pointer) < 0 && errno != EAGAIN {
                wl_display_cancel_read(display.pointer)
                throw currentError(fallback: errno)
            }
            let remaining = deadline - monotonicSeconds()
            var fd = pollfd(fd: wl_display_get_fd(display.pointer), events: Int16(POLLIN), revents: 0)
            let ready = remaining > 0 ? poll(&fd, 1, Int32(min(remaining * 1000, 60_000).rounded(.up))) : 0
            if ready <= 0 {
                let code = errno
                wl_display_cancel_read(display.pointer)
                if ready < 0 && code == EINTR { continue }
                if ready < 0 { throw currentError(fallback: code) }
                if monotonicSeconds() >= deadline {
                    throw WaylandError.noAnswer(socket: socket, seconds: WaylandConnection.startupTimeout)
                }
                continue
            }
            if wl_display_read_events(display.pointer) < 0 { throw currentError(fallback: errno) }
        }
        try dispatchPending()
    }

    deinit {
        windows.removeAll()
        seats.removeAll()
        outputs.removeAll()
        cursorThemes.removeAll()
        fractionalScaleManager = nil
        presentationTime = nil
        viewporter = nil
        decorationManager = nil
        subcompositor = nil
        wmBase = nil
        shm = nil
        compositorObject = nil
        registry = nil
        // No wl_display_disconnect here: `display` disconnects when its last holder goes (this
        // object or a proxy wrapper the app still holds; see the type's ownership rule).
    }

    /// The globals the sub-surface compositing backend needs that the compositor does not offer
    /// (`wl_subcompositor`, `wp_viewporter`), in that order; empty when it can be used
    /// (``CompositingMode``).
    public var missingCompositingGlobals: [String] {
        (subcompositor == nil ? ["wl_subcompositor"] : []) + (viewporter == nil ? ["wp_viewporter"] : [])
    }

    /// Whether the compositor offers `wp_presentation` (presentation-time feedback).
    public var offersPresentationTime: Bool { presentationTime != nil }

    // MARK: Event loop

    /// Runs the event loop until every window on this connection has been closed
    /// (``Window/close()``); returns at once when there is none.
    ///
    /// One iteration: dispatch queued events; let each window draw if it must (at most one frame
    /// per window, see ``Window/setNeedsRedraw()``); `wl_display_prepare_read`; flush (waiting for
    /// `POLLOUT` when the socket is full); prepare every ``EventLoopSource`` (``addSource(_:)``);
    /// sleep in one `poll` on the display fd, the key-repeat timers, every
    /// ``watch(fd:events:onReady:)`` and the sources' descriptors, at most as long as the sources
    /// allow; read and dispatch, run the handlers of the watches that are ready, then dispatch the
    /// sources. With nothing to draw and no source asking for a timeout nothing wakes the process.
    ///
    /// - Throws: ``WaylandError/connectionLost(_:)`` when the compositor goes away,
    ///   ``WaylandError/protocolError(interface:objectID:code:message:)`` when it reported an
    ///   error, ``WaylandError/bufferAllocation(_:)`` when a buffer cannot be made. After a throw
    ///   the connection is dead; its windows can only be dropped.
    public func run() throws {
        if let failure { throw failure }
        do {
            try loop()
        } catch let error as WaylandError {
            failure = error
            throw error
        }
    }

    private var pollFDs: [pollfd] = []

    private func loop() throws {
        var wantWrite = false
        while true {
            try dispatchPending()
            // Straight over the weak entries, not `liveWindows`: this runs once per frame while
            // animating, and a frame allocates nothing.
            for entry in windows { try entry.window?.update() }
            if !windows.contains(where: { $0.window.map { !$0.isClosed } ?? false }) {
                _ = wl_display_flush(display.pointer)   // the close's destroy requests
                return
            }
            // Events queued meanwhile (e.g. by a roundtrip inside a delegate): dispatch them first.
            guard wl_display_prepare_read(display.pointer) == 0 else { continue }
            if wl_display_flush(display.pointer) < 0 {
                if errno == EAGAIN {
                    wantWrite = true   // socket buffer full: wait until it drains, then flush again
                } else {
                    let code = errno
                    wl_display_cancel_read(display.pointer)
                    throw currentError(fallback: code)
                }
            } else {
                wantWrite = false
            }
            // One pollfd array for the connection's life, refilled in place: an animating window
            // goes through this loop once per frame, and a frame allocates nothing.
            pollFDs.removeAll(keepingCapacity: true)
            pollFDs.append(pollfd(fd: wl_display_get_fd(display.pointer),
                                  events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0))
            pollOwners.removeAll(keepingCapacity: true)
            for w in watches where !w.events.isEmpty {
                pollFDs.append(pollfd(fd: w.fd, events: w.events.pollEvents, revents: 0))
                pollOwners.append(w)
            }
            let timeout = sources.prepare(appendingTo: &pollFDs)
            if poll(&pollFDs, nfds_t(pollFDs.count), timeout) < 0 {
                let code = errno
                wl_display_cancel_read(display.pointer)
                if code == EINTR {
                    sources.dispatch(nil)   // every prepare gets its dispatch (nothing is ready)
                    continue
                }
                throw WaylandError.connectionLost("poll: \(errnoDescription(code))")
            }
            let revents = Int32(pollFDs[0].revents)
            if revents & Int32(POLLIN) != 0 {
                if wl_display_read_events(display.pointer) < 0 { throw currentError(fallback: errno) }
            } else {
                wl_display_cancel_read(display.pointer)
                if revents & Int32(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    throw currentError(fallback: EPIPE)
                }
            }
            // Watches after the display: their handlers run with up-to-date focus and keymap. A
            // handler may add or remove watches; one removed meanwhile is not called.
            for i in pollOwners.indices where pollFDs[i + 1].revents != 0 {
                let w = pollOwners[i]
                guard w.isActive else { continue }
                let ready = FDEvents(pollEvents: pollFDs[i + 1].revents)
                if !ready.isDisjoint(with: [.error, .hangup, .invalid]) {
                    // poll(2) reports these whether asked or not: a watch left in place would wake
                    // the loop forever, so it ends here (after its handler has seen why).
                    removeWatch(w)
                }
                w.onReady(ready)
            }
            sources.dispatch(pollFDs)
        }
    }

    /// Sends all requests and waits until the compositor has processed them (and every event they
    /// caused has been dispatched). The corresponding C function is `wl_display_roundtrip`.
    /// - Throws: as ``run()``.
    public func roundtrip() throws {
        if let failure { throw failure }
        if wl_display_roundtrip(display.pointer) < 0 {
            let error = currentError(fallback: errno)
            failure = error
            throw error
        }
    }

    private func dispatchPending() throws {
        if wl_display_dispatch_pending(display.pointer) < 0 { throw currentError(fallback: errno) }
    }

    /// Maps the display's error state to a ``WaylandError``.
    private func currentError(fallback: Int32) -> WaylandError {
        let code = wl_display_get_error(display.pointer)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var objectID: UInt32 = 0
            let errorCode = wl_display_get_protocol_error(display.pointer, &interface, &objectID)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown interface"
            // libwayland logged "iface@id: error N: text"; keep the text.
            var message = LibwaylandLog.lastMessage
            if let range = message.rangeOfText(": error \(errorCode): ") {
                message = String(message[range.upperBound...])
            }
            return .protocolError(interface: name, objectID: objectID, code: errorCode, message: message)
        }
        let errnoCode = code != 0 ? code : (fallback != 0 ? fallback : EPIPE)
        return .connectionLost(errnoDescription(errnoCode))
    }

    // MARK: Globals

    package var compositor: Compositor { compositorObject! }

    /// The newest version of each required global offered below its minimum (nil = none such).
    private var tooOld: [String: UInt32] = [:]

    /// Binds `name` at the version `versions` allows; nil when it is offered below the minimum
    /// (a required one is remembered for the error, an optional one is ignored, as if absent).
    private func bind(_ name: UInt32, _ interface: UnsafePointer<wl_interface>, offered: UInt32,
                      _ versions: GlobalVersion) -> (proxy: OpaquePointer, version: UInt32)? {
        guard let registry else { return nil }
        guard let bound = registry.bind(name: name, interface: interface, offered: offered, versions: versions) else {
            if versions.isRequired { tooOld[versions.interface] = max(tooOld[versions.interface] ?? 0, offered) }
            return nil
        }
        return bound
    }

    private func globalAdded(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "wl_compositor" where compositorObject == nil:
            guard let bound = bind(name, cwl_wl_compositor_interface(), offered: version, GlobalVersions.compositor)
            else { return }
            compositorObject = Compositor(proxy: bound.proxy, version: bound.version, display: display)
        case "wl_shm" where shm == nil:
            guard let bound = bind(name, cwl_wl_shm_interface(), offered: version, GlobalVersions.shm) else { return }
            shm = Shm(proxy: bound.proxy, version: bound.version, display: display)
        case "xdg_wm_base" where wmBase == nil:
            guard let bound = bind(name, cwl_xdg_wm_base_interface(), offered: version, GlobalVersions.xdgWmBase)
            else { return }
            wmBase = XdgWmBase(proxy: bound.proxy, version: bound.version, display: display)
        case "zxdg_decoration_manager_v1" where decorationManager == nil:
            guard let bound = bind(name, cwl_zxdg_decoration_manager_v1_interface(), offered: version,
                                   GlobalVersions.decorationManager) else { return }
            decorationManager = DecorationManager(proxy: bound.proxy, display: display)
        case "wl_subcompositor" where subcompositor == nil:
            guard let bound = bind(name, cwl_wl_subcompositor_interface(), offered: version,
                                   GlobalVersions.subcompositor) else { return }
            subcompositor = Subcompositor(proxy: bound.proxy, display: display)
        case "wp_viewporter" where viewporter == nil:
            guard let bound = bind(name, cwl_wp_viewporter_interface(), offered: version, GlobalVersions.viewporter)
            else { return }
            viewporter = Viewporter(proxy: bound.proxy, display: display)
        case "wp_fractional_scale_manager_v1" where fractionalScaleManager == nil:
            guard let bound = bind(name, cwl_wp_fractional_scale_manager_v1_interface(), offered: version,
                                   GlobalVersions.fractionalScaleManager) else { return }
            fractionalScaleManager = FractionalScaleManager(proxy: bound.proxy, display: display)
        case "wp_presentation" where presentationTime == nil:
            guard let bound = bind(name, cwl_wp_presentation_interface(), offered: version,
                                   GlobalVersions.presentation) else { return }
            presentationTime = PresentationTime(proxy: bound.proxy, display: display)
        case "wl_seat":
            guard let bound = bind(name, cwl_wl_seat_interface(), offered: version, GlobalVersions.seat) else { return }
            seats.append(Seat(globalName: name, proxy: bound.proxy, version: bound.version, display: display,
                              connection: self))
        case "wl_output":
            guard let bound = bind(name, cwl_wl_output_interface(), offered: version, GlobalVersions.output)
            else { return }
            let output = Output(globalName: name, proxy: bound.proxy, version: bound.version, display: display)
            output.onScaleChange = { [unowned self] output in
                for window in liveWindows { window.outputScaleChanged(output) }
            }
            outputs.append(output)
        default:
            break
        }
    }

    /// After the globals roundtrip: a required global absent, or offered only below its minimum,
    /// is an error naming it.
    private func checkRequiredGlobals() throws {
        let present: [(GlobalVersion, Bool)] = [(GlobalVersions.compositor, compositorObject != nil),
                                                (GlobalVersions.shm, shm != nil),
                                                (GlobalVersions.xdgWmBase, wmBase != nil)]
        for (versions, bound) in present where !bound {
            if let offered = tooOld[versions.interface] { throw versions.tooOldError(offered: offered) }
            throw WaylandError.missingGlobal(versions.interface)
        }
    }

    private func globalRemoved(name: UInt32) {
        if let index = outputs.firstIndex(where: { $0.globalName == name }) {
            let output = outputs.remove(at: index)
            for window in liveWindows { window.outputRemoved(output) }
        } else if let index = seats.firstIndex(where: { $0.globalName == name }) {
            seats.remove(at: index)   // releases its devices (a pointer sends .leave first)
        }
        // The singletons (compositor, shm, wm_base) are not removed by real compositors; if one
        // were, its requests would fail with a protocol error, reported by run().
    }

    func output(for proxy: OpaquePointer) -> Output? { outputs.first { $0.proxy == proxy } }

    /// A theme at `scale`, loaded once per scale.
    func cursorTheme(scale: Int) -> CursorTheme? {
        if let theme = cursorThemes[scale] { return theme }
        guard let shm, let theme = CursorTheme(shm: shm, scale: scale) else { return nil }
        cursorThemes[scale] = theme
        return theme
    }

    // MARK: Windows and fd sources

    private var liveWindows: [Window] { windows.compactMap(\.window) }

    func register(_ window: Window) {
        windows.removeAll { $0.window == nil }
        windows.append(WeakWindow(window))
    }

    /// The open window whose `wl_surface` is `surface`.
    func window(for surface: OpaquePointer?) -> Window? {
        guard let surface else { return nil }
        return liveWindows.first { $0.surfaceProxy == surface }
    }

    /// The open window one of whose surfaces (content or title bar) is `surface`, and which one.
    func windowPart(for surface: OpaquePointer?) -> (window: Window, part: WindowPart)? {
        guard let surface else { return nil }
        for window in liveWindows {
            if let part = window.part(of: surface) { return (window, part) }
        }
        return nil
    }

    /// A window was closed: input devices forget it.
    func windowClosed(_ window: Window) {
        for seat in seats {
            seat.pointer?.windowClosed(window)
            seat.keyboard?.windowClosed(window)
        }
    }

    /// A window's buffer scale changed: the pointer over it re-sets its cursor.
    func windowScaleChanged(_ window: Window) {
        for seat in seats { seat.pointer?.windowScaleChanged(window) }
    }

    /// Watches `fd` for reading in ``run()``; `handler` runs when it is readable.
    func addReadSource(fd: Int32, handler: @escaping () -> Void) {
        _ = watch(fd: fd, events: .readable) { _ in handler() }
    }

    func removeReadSource(fd: Int32) {
        for w in watches where w.fd == fd { removeWatch(w) }
    }

    /// Polls `fd` in ``run()``'s loop alongside the display: whenever it is ready for one of
    /// `events`, `onReady` runs on the loop's thread (after the Wayland events read in the same
    /// wake-up have been dispatched) with what `poll(2)` reported. Use it to drive another event
    /// source (a D-Bus connection, a timerfd) from the same loop without threads.
    ///
    /// The watch stays until ``removeWatch(_:)``, except that one whose fd reports an error, a
    /// hang-up or is invalid (`POLLERR`, `POLLHUP`, `POLLNVAL`) is removed just before its handler
    /// sees that (poll would report it again at once, forever). Set ``FDWatch/events`` to pause
    /// (empty) or change what it waits for. The fd stays the caller's: it is never closed here.
    /// - Returns: the watch, to change or remove it.
    @discardableResult
    public func watch(fd: Int32, events: FDEvents = .readable, onReady: @escaping (FDEvents) -> Void) -> FDWatch {
        let w = FDWatch(fd: fd, events: events, onReady: onReady)
        watches.append(w)
        return w
    }

    /// Stops polling `watch`'s fd (its handler is not called again). Removing twice does nothing.
    public func removeWatch(_ watch: FDWatch) {
        watch.isActive = false
        watches.removeAll { $0 === watch }
    }

    /// Drives `source` from ``run()``'s loop (``EventLoopSource``): prepared before every sleep
    /// from the next iteration on, dispatched after it. The connection keeps the source until
    /// ``removeSource(_:)``; adding one already added does nothing.
    public func addSource(_ source: EventLoopSource) {
        sources.add(source)
    }

    /// Stops driving `source`: it is not prepared again, and not dispatched even when it was
    /// prepared for the sleep in progress. Removing one not added does nothing.
    public func removeSource(_ source: EventLoopSource) {
        sources.remove(source)
    }
}

/// What a watched file descriptor is ready for, or waits for (`poll(2)` events).
public struct FDEvents: OptionSet, Hashable, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }
    /// `POLLIN`: data to read (or a peer that closed: reading returns 0).
    public static let readable = FDEvents(rawValue: Int16(POLLIN))
    /// `POLLOUT`: writing will not block.
    public static let writable = FDEvents(rawValue: Int16(POLLOUT))
    /// `POLLERR` (reported only, never waited for).
    public static let error = FDEvents(rawValue: Int16(POLLERR))
    /// `POLLHUP`: the peer hung up (reported only).
    public static let hangup = FDEvents(rawValue: Int16(POLLHUP))
    /// `POLLNVAL`: the fd is not open (reported only).
    public static let invalid = FDEvents(rawValue: Int16(POLLNVAL))

    var pollEvents: Int16 { rawValue & Int16(POLLIN | POLLOUT) }
    init(pollEvents: Int16) { self.init(rawValue: pollEvents & Int16(POLLIN | POLLOUT | POLLERR | POLLHUP | POLLNVAL)) }
}

/// A file descriptor polled by a ``WaylandConnection``'s event loop
/// (``WaylandConnection/watch(fd:events:onReady:)``).
public final class FDWatch {
    /// The watched file descriptor (not owned).
    public let fd: Int32
    /// What to wait for, `.readable` and/or `.writable`; empty = not polled for now.
    public var events: FDEvents
    /// False once removed.
    public internal(set) var isActive = true
    let onReady: (FDEvents) -> Void

    init(fd: Int32, events: FDEvents, onReady: @escaping (FDEvents) -> Void) {
        self.fd = fd
        self.events = events.intersection([.readable, .writable])
        self.onReady = onReady
    }
}

/// A weak reference to a window (connections and touch points do not keep windows alive).
struct WeakWindow {
    weak var window: Window?
    init(_ window: Window) { self.window = window }
}

/// The `done` of one `wl_display.sync`.
private final class SyncDone {
    var value = false
    static let listener = listenerTable(wl_callback_listener(done: { data, _, _ in
        withOwner(data, as: SyncDone.self) { $0.value = true }
    }))
}

/// The socket `wl_display_connect` tries, for the error message (libwayland's rules).
struct SocketTarget {
    /// The full path (or a description of the inherited fd).
    var path: String
    /// Why it is that path, when it is not obvious ("WAYLAND_DISPLAY is unset" …).
    var notes: [String] = []

    init(socket: String?, environment: [String: String] = SocketTarget.environment) {
        if socket == nil, let raw = environment["WAYLAND_SOCKET"] {
            if let fd = EnvironmentValues.socketFD(raw) {
                path = "fd \(fd)"
                notes.append("from WAYLAND_SOCKET")
            } else {
                path = "WAYLAND_SOCKET"
                notes.append("WAYLAND_SOCKET is not a file descriptor number")
            }
            return
        }
        var name: String
        if let socket {
            name = socket
        } else if let display = environment["WAYLAND_DISPLAY"] {
            name = display
        } else {
            name = "wayland-0"
            notes.append("WAYLAND_DISPLAY is unset")
        }
        if name.hasPrefix("/") {
            path = name
        } else if let runtime = environment["XDG_RUNTIME_DIR"] {
            // libwayland joins any value it finds (1.21); an empty or relative one is named, since
            // the path then says little (an empty one gives '/wayland-0').
            path = runtime + "/" + name
            if runtime.isEmpty {
                notes.append("XDG_RUNTIME_DIR is empty")
            } else if !runtime.hasPrefix("/") {
                notes.append("XDG_RUNTIME_DIR is not an absolute path")
            }
        } else {
            path = name
            notes.append("XDG_RUNTIME_DIR is unset")
        }
        if path.utf8.count > EnvironmentValues.maximumSocketPathLength {
            notes.append("longer than the \(EnvironmentValues.maximumSocketPathLength) bytes of a socket path")
        }
    }

    static var environment: [String: String] {
        var result: [String: String] = [:]
        for key in ["WAYLAND_SOCKET", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"] {
            if let value = EnvironmentValues.raw(key) { result[key] = value }
        }
        return result
    }
}
