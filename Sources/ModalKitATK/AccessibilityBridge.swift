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
/// The accessibility bus is followed, as GTK and Qt follow it: when it goes away (at-spi2-core's
/// `org.a11y.Bus` leaves the session bus) the at-spi2-atk bridge lets go of it, and when one
/// appears — late, or restarted — the bridge registers on it again (at-spi2-atk allows
/// `atk_bridge_adaptor_init` after `atk_bridge_adaptor_cleanup`), so screen readers see the window
/// again without a restart. Nothing polls meanwhile: the session bus announces the owner.
///
/// Cost: ``start(host:connection:configuration:isWindowActive:onRequest:onProblem:completion:)`` loads nothing and says
/// nothing with `NO_AT_BRIDGE=1`, without a session bus, or when the session bus has no
/// accessibility bus (asked with one `org.a11y.Bus.GetAddress` on the loop; one idle connection
/// to the session bus stays, to hear of one appearing); the C library and its dependencies (ATK,
/// at-spi2-atk, GObject, libatspi and its X11 libraries) are loaded only when there is one; every
/// question is asked on the window's loop, so nothing waits for an answer. Start it after the
/// window's first frame is committed, so launching does not wait for the accessibility bus. One
/// bridge per process (ATK has one application root).
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
    /// The accessibility bus being found and followed (``start(host:connection:configuration:isWindowActive:onRequest:onProblem:completion:)``).
    private static var follower: AccessibilityBusFollower?
    /// The bridge, once it ran.
    private static var current: AccessibilityBridge?

    /// Starts the bridge for `host`, shown in the window of `connection`, and adds it to the
    /// connection's loop — once an accessibility bus is there and answers — and keeps following
    /// the bus: when it goes away the bridge stops, when one appears (late, or restarted) the
    /// bridge starts on it again and screen readers see the window again.
    ///
    /// Nothing here waits for a bus (``AccessibilityBusFollower``): the bus is found and asked on
    /// the connection's loop, and the at-spi2-atk bridge, whose start waits for the bus's answer
    /// with libdbus's blocking calls, is started only once the bus has answered. A bus that does
    /// not answer within 5 s is reported once through `onProblem` and otherwise left alone (a late
    /// answer still starts the bridge); frames, input and the compositor's pings go on meanwhile.
    /// Only the X display route (no session bus, no `AT_SPI_BUS_ADDRESS`) is left to
    /// at-spi2-core's own, blocking lookup, before this returns.
    ///
    /// - Parameters:
    ///   - isWindowActive: whether the Wayland window has keyboard focus now (`xdg_toplevel` state
    ///     `activated`); asked before each sleep. Only an active window's top level is active and
    ///     holds focus for assistive technology (GTK's rule).
    ///   - onRequest: a screen reader's request, to be handled as input is handled (e.g.
    ///     `host.handle($0, now: monotonicSeconds())`, then redraw if needed). Called from the loop.
    ///   - onProblem: a one-line description of a bus that does not answer (for stderr).
    ///   - completion: the bridge, the first time it runs; or, before that and at most once, why
    ///     there is none (nothing was printed) — a bus that appears later still brings
    ///     `.success`. Called from the loop (or, for a reason found in the environment, before
    ///     this returns).
    public static func start(host: PresentationHost, connection: WaylandConnection, configuration: Configuration,
                             isWindowActive: @escaping () -> Bool, onRequest: @escaping (PresentationInput) -> Void,
                             onProblem: @escaping (String) -> Void = { _ in },
                             completion: @escaping (Result<AccessibilityBridge, Unavailable>) -> Void) {
        let route: BusRoute
        switch Self.route() {
        case let .success(r): route = r
        case let .failure(reason): return completion(.failure(reason))
        }
        guard !started, follower == nil else { return completion(.failure(.alreadyStarted)) }
        // Whether completion has said why there is no bridge, or handed the bridge over.
        var reported = false
        var handedOver = false
        let found = { [weak host, weak connection] (address: String?) in
            if let bridge = current {
                if let address { bridge.resume(on: address) }
            } else {
                guard let host, let connection else { return }
                switch Self.begin(host: host, connection: connection, configuration: configuration, busAddress: address,
                                  isWindowActive: isWindowActive, onRequest: onRequest) {
                case .success: break
                case let .failure(reason):
                    // Nothing to start on any bus (an incomplete installation): stop following.
                    follower?.close()
                    follower = nil
                    guard !reported else { return }
                    reported = true
                    return completion(.failure(reason))
                }
            }
            if let bridge = current, bridge.isConnected, !handedOver {
                handedOver = true
                reported = true
                completion(.success(bridge))
            } else if !reported {
                reported = true
                completion(.failure(.noAccessibilityBus))
            }
        }
        let follow: AccessibilityBusFollower
        switch route {
        case .xDisplay:
            return found(nil)
        case .direct:
            follow = AccessibilityBusFollower(accessibilityBus: ProcessEnvironment.current["AT_SPI_BUS_ADDRESS"] ?? "",
                                              loop: WaylandPollLoop(connection), timers: WaylandLoopTimers(connection))
        case let .sessionBus(address):
            follow = AccessibilityBusFollower(sessionBus: address, loop: WaylandPollLoop(connection),
                                              timers: WaylandLoopTimers(connection))
        }
        follower = follow
        follow.onFound = { found($0) }
        follow.onMissing = {
            guard current == nil, !reported else { return }
            reported = true
            completion(.failure(.noAccessibilityBus))
        }
        follow.onLost = { current?.suspend() }
        follow.onSlow = { onProblem("accessibility: " + $0 + "; screen readers will see this window once it answers") }
        follow.begin()
    }

    /// Loads the library and starts the at-spi2-atk bridge (the accessibility bus is there and
    /// answered; `busAddress` nil: at-spi2-core's own lookup).
    private static func begin(host: PresentationHost, connection: WaylandConnection, configuration: Configuration,
                              busAddress: String?, isWindowActive: @escaping () -> Bool,
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
        // The library sets AT_SPI_BUS_ADDRESS for the bridge's start: under the environment's lock.
        let status = ProcessEnvironment.changing {
            library.api.start!(configuration.applicationName, configuration.toolkitName,
                               configuration.toolkitVersion, busAddress, { context, key, request in
                guard let context else { return }
                Unmanaged<AccessibilityBridge>.fromOpaque(context).takeUnretainedValue().request(key: key, request)
            }, context)
        }
        // AtkEditableText's requests, queued by the library like a click.
        library.api.set_text_request_callback!({ context, key, request, text, start, end in
            guard let context else { return }
            Unmanaged<AccessibilityBridge>.fromOpaque(context).takeUnretainedValue()
                .textRequest(key: key, UInt32(bitPattern: request), text: text.map { String(cString: $0) },
                             start: Int(start), end: Int(end))
        }, context)
        // Not registered: without a follower (the X display route) that is the end, as before;
        // with one (the bus went away after it answered), the objects are kept and the bridge
        // waits, suspended, for the next bus the follower finds.
        guard status == 0 || follower != nil else {
            library.api.stop!()
            return .failure(.noAccessibilityBus)
        }
        bridge.isRunning = true
        bridge.isConnected = status == 0
        bridge.connection = connection
        bridge.syncIfNeeded(force: true)
        connection.addSource(bridge)
        current = bridge
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
    /// The at-spi2-atk bridge is on a bus (not suspended after the bus went away).
    private var isConnected = false
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

    /// Removes the accessible objects, stops the at-spi2-atk bridge (`atk_bridge_adaptor_cleanup`),
    /// stops following the accessibility bus and leaves the loop. Idempotent; no bridge can be
    /// started again in this process (ATK has one application root).
    public func stop() {
        Self.follower?.close()
        Self.follower = nil
        if Self.current === self { Self.current = nil }
        guard isRunning else { return }
        isRunning = false
        isConnected = false
        connection?.removeSource(self)
        mirror.removeAll()
        library.api.set_text_request_callback!(nil, nil)
        library.api.stop!()
    }

    /// Stops what ``start(host:connection:configuration:isWindowActive:onRequest:onProblem:completion:)``
    /// began before it handed a bridge over (the window closed first): the following of the bus,
    /// and a bridge waiting for a bus to register on (as ``stop()``).
    public static func cancel() {
        follower?.close()
        follower = nil
        current?.stop()
    }

    /// The accessibility bus went away: the at-spi2-atk bridge lets go of it
    /// (`atk_bridge_adaptor_cleanup`); the accessible objects stay, kept up to date.
    private func suspend() {
        guard isRunning, isConnected else { return }
        isConnected = false
        library.api.suspend!()
    }

    /// An accessibility bus at `address` answered: the bridge registers on it
    /// (`atk_bridge_adaptor_init` again), and what a screen reader listening there hears first
    /// is announced again once it listens (``ATKLibrary/listeningGeneration``).
    private func resume(on address: String) {
        // Connected already: the bus's owner changes only after it left (onLost suspended).
        guard isRunning, !isConnected else { return }
        isConnected = ProcessEnvironment.changing { library.api.resume!(address) } == 0
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

    /// An `AtkEditableText` request, as ``textEdit(request:text:start:end:in:)`` reads it, for the
    /// element's content (the same path as a click).
    private func textRequest(key: UInt64, _ request: UInt32, text: String?, start: Int, end: Int) {
        guard isRunning, let target = mirror.target(forKey: key), let id = target.identifier,
              let current = mirror.text(forKey: key), current.isEditable,
              let edit = Self.textEdit(request: request, text: text, start: start, end: end, in: current) else { return }
        onRequest(.accessibility(.editText(id, edit), level: target.level))
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
