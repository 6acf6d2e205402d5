import CModalKitATKInterface
import ModalKitDesktopSettings
import Glibc
import ModalKitSystemSupport
import ModalKit
import ModalKitWaylandClient

/// Shows one window's ``PresentationHost`` to screen readers on the Linux desktop (Orca), through
/// AT-SPI: ATK objects exposed by the at-spi2-atk bridge, as GTK 3, GNOME Shell and Tk do. The
/// window is an AT-SPI frame; while a level is presented it is a dialog (or alert) with the modal
/// state, named by its content's title and described by its body, and everything beneath is hidden
/// (no longer `showing`); focus moves onto the modal and back to the control that presented it
/// (``PresentationHost/accessibilitySnapshot()`` has the rules, ``AccessibilityMirror`` the events
/// and their order).
///
/// One object per window, fed by the host's snapshots and the window's activation, driven from the
/// window's event loop: it is an ``EventLoopSource`` of the ``WaylandConnection`` — GLib's default
/// main context (where the at-spi2-atk bridge does its D-Bus work) is prepared, polled and
/// dispatched in the connection's one `poll`, with no thread of its own. Before each sleep it
/// compares the host's ``PresentationHost/accessibilityVersion`` and the window's activation with
/// the last ones and, when either changed, brings the accessible objects up to date.
///
/// Requests of a screen reader (`do_action` "click" on a button, `grab_focus`) are queued by the C
/// library and handed to `onRequest` from the loop, never from inside the D-Bus call that asked, as
/// ``PresentationInput/accessibility(_:level:)`` — the same path as a key press. A request for an
/// object that has gone away (a dismissed modal's button) is refused with an error to the screen
/// reader; nothing reaches the app.
///
/// Cost: ``start(host:connection:configuration:isWindowActive:onRequest:completion:)`` loads nothing and says
/// nothing with `NO_AT_BRIDGE=1`, without a session bus, or when the session bus has no
/// accessibility bus (asked with one `org.a11y.Bus.GetAddress` on the loop); the C library and its
/// dependencies (ATK, at-spi2-atk, GObject, libatspi and its X11 libraries) are loaded only when
/// there is one; the question is asked on the window's loop, so nothing waits for the answer. Start
/// it after the window's first frame is committed, so launching does not wait for the accessibility
/// bus. One bridge per process (ATK has one application root), started once.
public final class AccessibilityBridge: EventLoopSource {
    /// How the application and its window are named to assistive technology.
    public struct Configuration: Sendable {
        /// The application's name (AT-SPI application name; GTK: `g_get_application_name`).
        public var applicationName: String
        /// The window's title: the frame's name (a screen reader says "ModalKit frame").
        public var windowTitle: String
        /// Reported as the toolkit (AT-SPI `toolkit_name`, `toolkit_version`).
        public var toolkitName = "ModalKit"
        public var toolkitVersion = "1"

        public init(applicationName: String, windowTitle: String) {
            self.applicationName = applicationName
            self.windowTitle = windowTitle
        }
    }

    /// Why no bridge runs. Only ``libraryUnavailable(_:)`` is worth telling a user about (an
    /// incomplete installation); the others mean nobody asked for one.
    public enum Unavailable: Error, Equatable, CustomStringConvertible {
        /// `NO_AT_BRIDGE=1` (the variable GTK and at-spi2-atk honour).
        case disabled
        /// No D-Bus session bus (`DBUS_SESSION_BUS_ADDRESS`, `$XDG_RUNTIME_DIR/bus`), no
        /// `AT_SPI_BUS_ADDRESS` and no X display: nowhere to find an accessibility bus.
        case noBus
        /// The session bus has no accessibility bus (at-spi2-core's `org.a11y.Bus` is neither
        /// running nor activatable), so the at-spi2-atk bridge did not start.
        case noAccessibilityBus
        /// libModalKitATKBridge.so could not be loaded (the reason follows).
        case libraryUnavailable(String)
        /// A bridge was started in this process already.
        case alreadyStarted

        public var description: String {
            switch self {
            case .disabled: return "disabled by NO_AT_BRIDGE=1"
            case .noBus: return "no D-Bus session bus"
            case .noAccessibilityBus: return "no accessibility bus"
            case let .libraryUnavailable(reason): return reason
            case .alreadyStarted: return "an accessibility bridge runs already"
            }
        }
    }

    /// Where an accessibility bus would be found, from the environment (at-spi2-core's rules).
    public enum BusRoute: Equatable, Sendable {
        /// `AT_SPI_BUS_ADDRESS`: the accessibility bus itself.
        case direct
        /// A session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`), asked with
        /// `org.a11y.Bus.GetAddress`.
        case sessionBus(String)
        /// Only an X display (`DISPLAY`): at-spi2-core reads the address from its root window.
        case xDisplay
    }

    /// Where an accessibility bus would be found, or why no bridge should start
    /// (``Unavailable/disabled`` or ``Unavailable/noBus``). Reads only the environment and the
    /// file system.
    public static func route(environment: [String: String] = ProcessEnvironment.current)
        -> Result<BusRoute, Unavailable> {
        // at-spi2-atk's own test: the value read as a number is 1.
        if let v = environment["NO_AT_BRIDGE"], Double(v.trimmingWhitespace()) == 1 {
            return .failure(.disabled)
        }
        func value(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        if value("AT_SPI_BUS_ADDRESS") != nil { return .success(.direct) }
        if let address = value("DBUS_SESSION_BUS_ADDRESS") { return .success(.sessionBus(address)) }
        if let dir = value("XDG_RUNTIME_DIR") {
            var st = stat()
            if stat(dir + "/bus", &st) == 0, st.st_mode & S_IFMT == S_IFSOCK { return .success(.sessionBus("unix:path=" + dir + "/bus")) }
        }
        if value("DISPLAY") != nil { return .success(.xDisplay) }
        return .failure(.noBus)
    }

    private static var started = false
    /// The session-bus lookup in progress (``start(host:connection:configuration:isWindowActive:onRequest:completion:)``).
    private static var lookup: AccessibilityBusLookup?
    private static var lookupLoop: WaylandPollLoop?

    /// Starts the bridge for `host`, shown in the window of `connection`, and adds it to the
    /// connection's loop — once the accessibility bus is known to be there.
    ///
    /// Through a session bus, whether it has an accessibility bus is asked on the connection's loop
    /// (``AccessibilityBusLookup``), so this returns at once and `completion` runs from the loop
    /// when the answer comes (a bus that never answers never completes, and nothing is loaded).
    /// Otherwise (`AT_SPI_BUS_ADDRESS`, an X display, or a reason not to start) `completion` runs
    /// before this returns.
    ///
    /// - Parameters:
    ///   - isWindowActive: whether the Wayland window has keyboard focus now (`xdg_toplevel` state
    ///     `activated`); asked before each sleep. Only an active window's top level is active and
    ///     holds focus for assistive technology (GTK's rule).
    ///   - onRequest: a screen reader's request, to be handled as input is handled (e.g.
    ///     `host.handle($0, now: monotonicSeconds())`, then redraw if needed). Called from the loop.
    ///   - completion: the bridge, or why there is none (nothing was printed).
    public static func start(host: PresentationHost, connection: WaylandConnection, configuration: Configuration,
                             isWindowActive: @escaping () -> Bool, onRequest: @escaping (PresentationInput) -> Void,
                             completion: @escaping (Result<AccessibilityBridge, Unavailable>) -> Void) {
        let route: BusRoute
        switch Self.route() {
        case let .success(r): route = r
        case let .failure(reason): return completion(.failure(reason))
        }
        guard !started, lookup == nil else { return completion(.failure(.alreadyStarted)) }
        let begin = { [weak host, weak connection] in
            guard let host, let connection else { return completion(.failure(.noBus)) }
            completion(Self.begin(host: host, connection: connection, configuration: configuration,
                                  isWindowActive: isWindowActive, onRequest: onRequest))
        }
        guard case let .sessionBus(address) = route else { return begin() }
        // A session bus without at-spi2-core's accessibility bus: nothing is loaded.
        let loop = WaylandPollLoop(connection)
        lookupLoop = loop
        lookup = AccessibilityBusLookup(sessionBus: address, loop: loop) { found in
            // Released after this call returns (the lookup is still on the stack).
            let finished = (Self.lookup, Self.lookupLoop)
            Self.lookup = nil
            Self.lookupLoop = nil
            withExtendedLifetime(finished) {
                if found { begin() } else { completion(.failure(.noAccessibilityBus)) }
            }
        }
    }

    /// Loads the library and starts the at-spi2-atk bridge (the accessibility bus is there).
    private static func begin(host: PresentationHost, connection: WaylandConnection, configuration: Configuration,
                              isWindowActive: @escaping () -> Bool,
                              onRequest: @escaping (PresentationInput) -> Void) -> Result<AccessibilityBridge, Unavailable> {
        guard !started else { return .failure(.alreadyStarted) }
        let library: ATKLibrary
        switch ATKLibrary.load() {
        case let .success(l): library = l
        case let .failure(e): return .failure(.libraryUnavailable(e.description))
        }
        started = true
        let bridge = AccessibilityBridge(host: host, library: library, configuration: configuration,
                                         isWindowActive: isWindowActive, onRequest: onRequest)
        let context = Unmanaged.passUnretained(bridge).toOpaque()
        let status = library.api.start!(configuration.applicationName, configuration.toolkitName,
                                        configuration.toolkitVersion, { context, key, request in
            guard let context else { return }
            Unmanaged<AccessibilityBridge>.fromOpaque(context).takeUnretainedValue().request(key: key, request)
        }, context)
        guard status == 0 else {
            library.api.stop!()
            return .failure(.noAccessibilityBus)
        }
        bridge.isRunning = true
        bridge.connection = connection
        bridge.syncIfNeeded(force: true)
        connection.addSource(bridge)
        return .success(bridge)
    }

    private let host: PresentationHost
    private let library: ATKLibrary
    private let configuration: Configuration
    private let isWindowActive: () -> Bool
    private let onRequest: (PresentationInput) -> Void
    private let mirror: AccessibilityMirror
    private weak var connection: WaylandConnection?
    private var isRunning = false
    private var syncedVersion: Int?
    private var syncedActive = false
    /// The bridge's ``ATKLibrary/listeningGeneration`` when the objects were last announced.
    private var announcedGeneration: UInt32 = 0
    /// The revents of the descriptors GLib asked for, refilled each dispatch.
    private var revents: [Int16] = []
    private var preparedCount: Int32 = 0

    private init(host: PresentationHost, library: ATKLibrary, configuration: Configuration,
                 isWindowActive: @escaping () -> Bool, onRequest: @escaping (PresentationInput) -> Void) {
        self.host = host
        self.library = library
        self.configuration = configuration
        self.isWindowActive = isWindowActive
        self.onRequest = onRequest
        mirror = AccessibilityMirror(backend: library)
    }

    deinit { stop() }

    /// Removes the accessible objects, stops the at-spi2-atk bridge (`atk_bridge_adaptor_cleanup`)
    /// and leaves the loop. Idempotent; the bridge cannot be started again in this process.
    public func stop() {
        guard isRunning else { return }
        isRunning = false
        connection?.removeSource(self)
        mirror.removeAll()
        library.api.stop!()
    }

    // MARK: Snapshots

    /// Takes a snapshot and brings the objects to it when the host's accessibility version or the
    /// window's activation changed (or `force`).
    private func syncIfNeeded(force: Bool = false) {
        let version = host.accessibilityVersion
        let active = isWindowActive()
        guard force || version != syncedVersion || active != syncedActive else { return }
        syncedVersion = version
        syncedActive = active
        var snapshot = host.accessibilitySnapshot()
        if !configuration.windowTitle.isEmpty, !snapshot.levels.isEmpty {
            snapshot.levels[0].label = configuration.windowTitle
        }
        mirror.sync(to: snapshot, windowIsActive: active)
    }

    private func request(key: UInt64, _ request: Int32) {
        guard isRunning, let target = mirror.target(forKey: key) else { return }
        switch UInt32(bitPattern: request) {
        case MODALKIT_ATK_REQUEST_ACTIVATE.rawValue:
            guard let id = target.identifier else { return }
            onRequest(.accessibility(.activate(id), level: target.level))
        case MODALKIT_ATK_REQUEST_FOCUS.rawValue:
            onRequest(.accessibility(.focus(target.identifier), level: target.level))
        default:
            break
        }
    }

    // MARK: EventLoopSource (GLib's default main context)

    public func prepare(_ descriptors: inout [PollDescriptor]) -> Double? {
        guard isRunning else { return nil }
        syncIfNeeded()
        // A screen reader began listening (the bridge connected its hooks): what it could not
        // hear before — the window appearing, its activation, the focus — is said now.
        let generation = library.listeningGeneration
        if generation != announcedGeneration {
            announcedGeneration = generation
            mirror.announce()
        }
        var timeout: Int32 = -1
        preparedCount = library.api.loop_prepare!(&timeout)
        for i in 0..<preparedCount {
            var fd: Int32 = -1
            var events: Int16 = 0
            library.api.loop_fd!(i, &fd, &events)
            descriptors.append(PollDescriptor(fd: fd, events: FDEvents(rawValue: events)))
        }
        return timeout < 0 ? nil : Double(timeout) / 1000
    }

    public func dispatch(_ descriptors: [PollDescriptor]) {
        guard isRunning else { return }
        revents.removeAll(keepingCapacity: true)
        for d in descriptors { revents.append(d.ready.rawValue) }
        let count = min(preparedCount, Int32(revents.count))
        revents.withUnsafeBufferPointer { library.api.loop_dispatch!($0.baseAddress, count) }
    }
}
