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
    var registry: Registry?
    var compositorObject: Compositor?
    package internal(set) var shm: Shm?
    var wmBase: XdgWmBase?
    var decorationManager: DecorationManager?
    package internal(set) var subcompositor: Subcompositor?
    package internal(set) var viewporter: Viewporter?
    var fractionalScaleManager: FractionalScaleManager?
    var presentationTime: PresentationTime?
    var layerShell: LayerShell?
    /// text-input-v3, the clipboard and the primary selection (each seat gets its devices).
    var textInputManager: TextInputManager?
    var dataDeviceManager: SelectionManager?
    var primarySelectionManager: SelectionManager?
    var outputs: [Output] = []
    var seats: [Seat] = []
    var windows: [WeakWindow] = []
    /// Extra file descriptors polled by ``run()`` (key-repeat timers, a D-Bus connection …).
    var watches: [FDWatch] = []
    /// The watch behind each `pollFDs` entry after the first (the display), refilled with it.
    var pollOwners: [FDWatch] = []
    /// Sources prepared before each sleep and dispatched after it (``addSource(_:)``); their
    /// descriptors follow the watches' in `pollFDs`.
    let sources = EventSourceSet()
    var cursorThemes: [Int: CursorTheme] = [:]
    /// The error that ended the connection; every later `run()` throws it again.
    var failure: WaylandError?
    /// The loop's `poll` set, refilled in place every iteration (a frame allocates nothing).
    var pollFDs: [pollfd] = []
    /// The newest version of each required global offered below its minimum (nil = none such).
    var tooOld: [String: UInt32] = [:]

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
        textInputManager = nil
        dataDeviceManager = nil
        primarySelectionManager = nil
        outputs.removeAll()
        cursorThemes.removeAll()
        fractionalScaleManager = nil
        presentationTime = nil
        layerShell = nil
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

    /// The registry names of the `wl_output` globals the compositor advertises now, in the order
    /// it announced them (an output added later, e.g. a monitor plugged in, comes last).
    public var outputNames: [UInt32] { outputs.map(\.globalName) }

    /// Whether the compositor offers `zwlr_layer_shell_v1` (sway, KWin; not mutter, not weston):
    /// a window may then take the layer-surface role (``WindowOptions/layerSurface``).
    public var offersLayerShell: Bool { layerShell != nil }
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
