import CDBus
import Glibc

/// The desktop's animation settings that mean "reduce motion", as the XDG Desktop Portal reports
/// them (`org.freedesktop.portal.Settings`; each is `nil` until the portal has reported it).
public struct DesktopMotionSettings: Equatable, Sendable {
    /// GNOME: `org.gnome.desktop.interface` `enable-animations` (a boolean; false turns animations
    /// off — GNOME Settings › Accessibility › "Reduce Animation").
    public var gnomeEnableAnimations: Bool?
    /// KDE Plasma: `org.kde.kdeglobals.KDE` `AnimationDurationFactor` (kdeglobals `[KDE]`; a factor
    /// on animation durations, 0 = animations off — System Settings › "Animation speed: Instant").
    public var kdeAnimationDurationFactor: Double?
    /// The portal's standardized key `org.freedesktop.appearance` `reduced-motion` (`u`, newer
    /// portals): 0 no preference, 1 reduced motion; other values count as 0 (the specification's rule).
    public var appearanceReducedMotion: UInt32?

    public init(gnomeEnableAnimations: Bool? = nil, kdeAnimationDurationFactor: Double? = nil,
                appearanceReducedMotion: UInt32? = nil) {
        self.gnomeEnableAnimations = gnomeEnableAnimations
        self.kdeAnimationDurationFactor = kdeAnimationDurationFactor
        self.appearanceReducedMotion = appearanceReducedMotion
    }

    /// Whether the desktop asks applications to reduce motion: GNOME's `enable-animations` is
    /// false, KDE's `AnimationDurationFactor` is 0, or the portal's `reduced-motion` is 1. Unknown
    /// values ask for nothing.
    public var reducesMotion: Bool {
        gnomeEnableAnimations == false || kdeAnimationDurationFactor == 0 || appearanceReducedMotion == 1
    }
}

/// What `poll(2)` reported for a watched file descriptor.
public struct PollReadiness: Hashable, Sendable {
    public var readable, writable, hangup, error: Bool
    public init(readable: Bool = false, writable: Bool = false, hangup: Bool = false, error: Bool = false) {
        self.readable = readable; self.writable = writable; self.hangup = hangup; self.error = error
    }
}

/// An event loop that can poll extra file descriptors (e.g. the Wayland client's). The D-Bus
/// connection's sockets are added, changed and removed through it, as libdbus asks
/// (`dbus_connection_set_watch_functions`).
public protocol PollLoop: AnyObject {
    /// Starts polling `fd`; `onReady` runs on the loop's thread with what poll reported.
    /// - Returns: an id for `updateWatch`/`removeWatch`, ≥ 1.
    func addWatch(fd: Int32, readable: Bool, writable: Bool, onReady: @escaping (PollReadiness) -> Void) -> Int
    /// Changes what watch `id` waits for (both false: not polled for now).
    func updateWatch(_ id: Int, readable: Bool, writable: Bool)
    /// Stops polling watch `id`; removing an unknown or removed id does nothing.
    func removeWatch(_ id: Int)
}

/// The desktop's reduced-motion settings, read and then followed live through the XDG Desktop
/// Portal's Settings interface on the session bus, with libdbus.
///
/// Protocol (XDG Desktop Portal, `org.freedesktop.portal.Settings` on the bus name
/// `org.freedesktop.portal.Desktop`, object `/org/freedesktop/portal/desktop`):
/// - `ReadOne(s namespace, s key) → v value` (interface version 2) for
///   `org.gnome.desktop.interface enable-animations`, `org.kde.kdeglobals.KDE AnimationDurationFactor`
///   and the standardized `org.freedesktop.appearance reduced-motion`;
///   when the portal does not know `ReadOne` (`org.freedesktop.DBus.Error.UnknownMethod`, version 1
///   portals) the deprecated `Read`, whose value comes wrapped in one more variant;
/// - the signal `SettingChanged(s namespace, s key, v value)`, subscribed with a match rule, for
///   later changes.
/// Keys the portal does not have (`org.freedesktop.portal.Error.NotFound`), a missing portal, or
/// no session bus at all leave the values `nil`: nothing is printed, nothing fails.
///
/// Start-up never hangs: connecting, authenticating and the first reads share one deadline
/// (`connect(address:timeout:)`); replies that come later still apply, like a `SettingChanged`.
/// After `attach(to:)` every socket libdbus uses is polled by the caller's loop, and messages are
/// read, written and dispatched only when poll says so: nothing blocks. Not thread-safe: use it
/// from the loop's thread.
public final class PortalSettings {
    /// The values reported so far.
    public private(set) var settings = DesktopMotionSettings()
    /// Called (on the loop's thread) after `settings` changed through a reply or a signal.
    public var onChange: ((DesktopMotionSettings) -> Void)?

    static let portalName = "org.freedesktop.portal.Desktop"
    static let portalPath = "/org/freedesktop/portal/desktop"
    static let settingsInterface = "org.freedesktop.portal.Settings"
    static let gnomeNamespace = "org.gnome.desktop.interface", gnomeKey = "enable-animations"
    static let kdeNamespace = "org.kde.kdeglobals.KDE", kdeKey = "AnimationDurationFactor"
    static let appearanceNamespace = "org.freedesktop.appearance", appearanceKey = "reduced-motion"

    private let connection: OpaquePointer
    private var outstanding = 0
    /// The bus's answer to Hello: nil while waiting, then whether it was a unique name.
    private var registered: Bool?
    private var isClosed = false
    private let watchBridge: WatchBridge

    /// The session bus address libdbus would use, without X11 autolaunch: `$DBUS_SESSION_BUS_ADDRESS`
    /// when set and not empty, else `unix:path=$XDG_RUNTIME_DIR/bus` when that socket exists (the
    /// systemd user bus), else `nil` (no session bus).
    public static func sessionBusAddress() -> String? {
        if let a = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }), !a.isEmpty { return a }
        if let dir = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !dir.isEmpty {
            var st = stat()
            let path = dir + "/bus"
            if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFSOCK { return "unix:path=" + path }
        }
        return nil
    }

    /// Connects to the bus at `address`, registers (`Hello`), subscribes to `SettingChanged` and
    /// reads the keys, waiting at most `timeout` seconds in all.
    /// - Returns: `nil` — silently — when there is no address, the bus cannot be reached or does not
    ///   answer `Hello` in time. A bus without a portal gives a monitor whose values stay `nil`
    ///   (until a portal appears and signals a change).
    public static func connect(address: String? = PortalSettings.sessionBusAddress(), timeout: Double = 0.5) -> PortalSettings? {
        guard let address else { return nil }
        let deadline = monotonicSeconds() + max(0, timeout)
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else { return nil }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        let settings = PortalSettings(connection: connection)
        guard settings.start(deadline: deadline) else {
            settings.close()
            return nil
        }
        return settings
    }

    private init(connection: OpaquePointer) {
        self.connection = connection
        watchBridge = WatchBridge(connection: connection)
    }

    deinit { close() }

    /// Closes the connection and stops every watch. Called by `deinit`; later replies are dropped.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        dbus_connection_close(connection)   // removes the watches through the bridge
        dbus_connection_unref(connection)
    }

    /// Sends Hello, AddMatch and the three reads, then runs the connection (reading, writing,
    /// dispatching) until the bus and the portal have answered or `deadline` has passed.
    /// No libdbus call used here blocks without a bound: `dbus_connection_send_with_reply_and_block`
    /// and `dbus_bus_register` would (they flush the outgoing queue first, and before the bus has
    /// authenticated the connection that waits with no timeout), `dbus_connection_read_write_dispatch`
    /// with a timeout does not.
    /// - Returns: whether the bus registered the connection (Hello answered) in time.
    private func start(deadline: Double) -> Bool {
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello", []) { settings, reply in
            var iter = DBusMessageIter()
            guard dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_METHOD_RETURN, dbus_message_iter_init(reply, &iter) != 0,
                  case .string(let name)? = PortalSettings.value(&iter) else {
                settings.registered = false
                return
            }
            dbus_bus_set_unique_name(settings.connection, name)
            settings.registered = true
        }
        let box = Unmanaged.passRetained(WeakSettings(self)).toOpaque()
        _ = dbus_connection_add_filter(connection, { _, message, data in
            guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            Unmanaged<WeakSettings>.fromOpaque(data).takeUnretainedValue().settings?.filter(message)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }, box, { data in
            if let data { Unmanaged<WeakSettings>.fromOpaque(data).release() }
        })
        // Without an error pointer the AddMatch call is sent without waiting for its reply.
        let rule = "type='signal',sender='\(Self.portalName)',path='\(Self.portalPath)',"
            + "interface='\(Self.settingsInterface)',member='SettingChanged'"
        dbus_bus_add_match(connection, rule, nil)
        read(Self.gnomeNamespace, Self.gnomeKey, method: "ReadOne")
        read(Self.kdeNamespace, Self.kdeKey, method: "ReadOne")
        read(Self.appearanceNamespace, Self.appearanceKey, method: "ReadOne")
        // Wait (only here, before the loop runs) until all answers are in or the deadline passes.
        while registered == nil || (registered == true && outstanding > 0) {
            let ms = remainingMilliseconds(deadline)
            if ms <= 0 { break }
            if dbus_connection_read_write_dispatch(connection, ms) == 0 { return false }   // disconnected
        }
        return registered == true
    }

    /// Hands the connection's sockets to `loop`: from then on it is read, written and dispatched
    /// from there. Messages already queued are dispatched now.
    public func attach(to loop: PollLoop) {
        guard !isClosed else { return }
        watchBridge.loop = loop
        let bridge = Unmanaged.passRetained(watchBridge).toOpaque()
        _ = dbus_connection_set_watch_functions(connection, { watch, data in
            guard let watch, let data else { return 1 }
            Unmanaged<WatchBridge>.fromOpaque(data).takeUnretainedValue().add(watch)
            return 1
        }, { watch, data in
            guard let watch, let data else { return }
            Unmanaged<WatchBridge>.fromOpaque(data).takeUnretainedValue().remove(watch)
        }, { watch, data in
            guard let watch, let data else { return }
            Unmanaged<WatchBridge>.fromOpaque(data).takeUnretainedValue().toggled(watch)
        }, bridge, { data in
            if let data { Unmanaged<WatchBridge>.fromOpaque(data).release() }
        })
        watchBridge.dispatchAll()
    }

    // MARK: Calls and replies

    /// Sends a method call with string arguments without waiting; `onReply` runs with the reply
    /// (a return or an error) when it has been read and dispatched. No libdbus timeout: the deadline
    /// is ours at start-up, and a late reply is still welcome.
    private func call(_ destination: String, _ path: String, _ interface: String, _ method: String, _ args: [String],
                      onReply: @escaping (PortalSettings, OpaquePointer) -> Void) {
        guard let message = dbus_message_new_method_call(destination, path, interface, method) else { return }
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for arg in args {
            let ok = arg.withCString { s -> Bool in
                var p: UnsafePointer<CChar>? = s
                return dbus_message_iter_append_basic(&iter, DBusType.string, &p) != 0
            }
            if !ok { return }
        }
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(connection, message, &pending, DBusType.timeoutInfinite) != 0,
              let pending else { return }
        let request = Unmanaged.passRetained(PendingReply(self, onReply)).toOpaque()
        _ = dbus_pending_call_set_notify(pending, { pending, data in
            guard let pending, let data else { return }
            let request = Unmanaged<PendingReply>.fromOpaque(data).takeUnretainedValue()
            if let reply = dbus_pending_call_steal_reply(pending) {
                if let settings = request.settings { request.onReply(settings, reply) }
                dbus_message_unref(reply)
            }
            dbus_pending_call_unref(pending)
        }, request, { data in
            if let data { Unmanaged<PendingReply>.fromOpaque(data).release() }
        })
    }

    /// Sends `method` (ReadOne or Read) for one key; the reply arrives in `handleReply`.
    private func read(_ namespace: String, _ key: String, method: String) {
        outstanding += 1
        call(Self.portalName, Self.portalPath, Self.settingsInterface, method, [namespace, key]) { settings, reply in
            settings.handleReply(reply, namespace: namespace, key: key, method: method)
        }
    }

    private func handleReply(_ reply: OpaquePointer, namespace: String, key: String, method: String) {
        outstanding -= 1
        if dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR {
            let name = dbus_message_get_error_name(reply).map { String(cString: $0) } ?? ""
            if name == "org.freedesktop.DBus.Error.UnknownMethod" && method == "ReadOne" {
                read(namespace, key, method: "Read")   // a version 1 portal
            }
            return   // no portal, no such key: the value stays unknown
        }
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(reply, &iter) != 0 else { return }
        apply(namespace, key, PortalSettings.value(&iter))
    }

    private func filter(_ message: OpaquePointer) {
        guard dbus_message_is_signal(message, Self.settingsInterface, "SettingChanged") != 0 else { return }
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0,
              case .string(let namespace)? = PortalSettings.value(&iter), dbus_message_iter_next(&iter) != 0,
              case .string(let key)? = PortalSettings.value(&iter), dbus_message_iter_next(&iter) != 0 else { return }
        apply(namespace, key, PortalSettings.value(&iter))
    }

    private func apply(_ namespace: String, _ key: String, _ value: SettingValue?) {
        var s = settings
        switch (namespace, key) {
        case (Self.gnomeNamespace, Self.gnomeKey):
            s.gnomeEnableAnimations = value?.bool
        case (Self.kdeNamespace, Self.kdeKey):
            s.kdeAnimationDurationFactor = value?.number
        case (Self.appearanceNamespace, Self.appearanceKey):
            s.appearanceReducedMotion = value?.number.flatMap { UInt32(exactly: $0) }
        default:
            return
        }
        guard s != settings else { return }
        settings = s
        onChange?(s)
    }

    /// A basic value read from a message, through any number of variants (Read wraps twice).
    enum SettingValue: Equatable {
        case bool(Bool), number(Double), string(String)
        var bool: Bool? {
            if case .bool(let b) = self { return b }
            return nil
        }
        /// Numbers as themselves; strings that spell one (kdeglobals values are text).
        var number: Double? {
            switch self {
            case .number(let d): return d
            case .string(let s): return Double(s.filter { $0 != " " && $0 != "\t" })
            case .bool: return nil
            }
        }
    }

    static func value(_ iter: inout DBusMessageIter) -> SettingValue? {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case DBusType.variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return value(&inner)
        case DBusType.boolean:
            var b: dbus_bool_t = 0
            dbus_message_iter_get_basic(&iter, &b)
            return .bool(b != 0)
        case DBusType.double:
            var d = 0.0
            dbus_message_iter_get_basic(&iter, &d)
            return .number(d)
        case DBusType.int32:
            var i: Int32 = 0
            dbus_message_iter_get_basic(&iter, &i)
            return .number(Double(i))
        case DBusType.uint32:
            var u: UInt32 = 0
            dbus_message_iter_get_basic(&iter, &u)
            return .number(Double(u))
        case DBusType.int64:
            var i: Int64 = 0
            dbus_message_iter_get_basic(&iter, &i)
            return .number(Double(i))
        case DBusType.string:
            var p: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&iter, &p)
            return p.map { .string(String(cString: $0)) }
        default:
            return nil
        }
    }
}

/// D-Bus type codes and constants (dbus-protocol.h; cast macros do not reach Swift).
enum DBusType {
    static let string = Int32(UInt8(ascii: "s"))
    static let variant = Int32(UInt8(ascii: "v"))
    static let boolean = Int32(UInt8(ascii: "b"))
    static let double = Int32(UInt8(ascii: "d"))
    static let int32 = Int32(UInt8(ascii: "i"))
    static let uint32 = Int32(UInt8(ascii: "u"))
    static let int64 = Int32(UInt8(ascii: "x"))
    /// DBUS_TIMEOUT_INFINITE
    static let timeoutInfinite: Int32 = 0x7fff_ffff
}

/// A weak reference handed to libdbus callbacks (the filter), released by libdbus.
private final class WeakSettings {
    weak var settings: PortalSettings?
    init(_ settings: PortalSettings) { self.settings = settings }
}

/// One outstanding method call, handed to its pending call's notify function.
private final class PendingReply {
    weak var settings: PortalSettings?
    let onReply: (PortalSettings, OpaquePointer) -> Void
    init(_ settings: PortalSettings, _ onReply: @escaping (PortalSettings, OpaquePointer) -> Void) {
        self.settings = settings; self.onReply = onReply
    }
}

/// libdbus watches ↔ the caller's poll loop. Each `DBusWatch` (a socket, readable and/or writable,
/// enabled or not) becomes one loop watch; when poll reports it ready, `dbus_watch_handle` reads or
/// writes, then every complete message is dispatched (replies, the filter). Retained by libdbus
/// while the watch functions are set, so callbacks during `dbus_connection_close` find it.
private final class WatchBridge {
    weak var loop: PollLoop?
    let connection: OpaquePointer

    init(connection: OpaquePointer) { self.connection = connection }

    private func wants(_ watch: OpaquePointer) -> (readable: Bool, writable: Bool) {
        guard dbus_watch_get_enabled(watch) != 0 else { return (false, false) }
        let flags = dbus_watch_get_flags(watch)
        return (flags & DBUS_WATCH_READABLE.rawValue != 0, flags & DBUS_WATCH_WRITABLE.rawValue != 0)
    }

    private func id(of watch: OpaquePointer) -> Int? {
        dbus_watch_get_data(watch).map { Int(bitPattern: $0) }
    }

    func add(_ watch: OpaquePointer) {
        guard let loop else { return }
        let w = wants(watch)
        let id = loop.addWatch(fd: dbus_watch_get_unix_fd(watch), readable: w.readable, writable: w.writable) {
            [weak self] ready in
            self?.handle(watch, ready)
        }
        dbus_watch_set_data(watch, UnsafeMutableRawPointer(bitPattern: id), nil)
    }

    func remove(_ watch: OpaquePointer) {
        guard let id = id(of: watch) else { return }
        dbus_watch_set_data(watch, nil, nil)
        loop?.removeWatch(id)
    }

    func toggled(_ watch: OpaquePointer) {
        guard let id = id(of: watch) else { return }
        let w = wants(watch)
        loop?.updateWatch(id, readable: w.readable, writable: w.writable)
    }

    private func handle(_ watch: OpaquePointer, _ ready: PollReadiness) {
        var flags: UInt32 = 0
        if ready.readable { flags |= DBUS_WATCH_READABLE.rawValue }
        if ready.writable { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if ready.hangup { flags |= DBUS_WATCH_HANGUP.rawValue }
        if ready.error { flags |= DBUS_WATCH_ERROR.rawValue }
        _ = dbus_watch_handle(watch, flags)
        dispatchAll()
    }

    /// Dispatches every message libdbus has read (never blocks).
    func dispatchAll() {
        dbus_connection_ref(connection)
        defer { dbus_connection_unref(connection) }
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }
}

private func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Milliseconds left until `deadline` (monotonic seconds), at least 0.
private func remainingMilliseconds(_ deadline: Double) -> Int32 {
    Int32(max(0, min(Double(Int32.max), ((deadline - monotonicSeconds()) * 1000).rounded(.up))))
}
