import CModalKitDBus
import Glibc

/// A private connection to a D-Bus message bus, read, written and dispatched from the caller's
/// event loop (``PollLoop``; an app's is ModalKitWaylandClient's, through ``WaylandPollLoop``), with libdbus.
///
/// Nothing waits, ever: ``open(address:loop:)`` connects the socket and returns; authentication,
/// `Hello` and every method call go out as the loop finds the socket writable, and replies are
/// handed to their callbacks when the loop finds it readable. That is the loop integration libdbus
/// is made for (`dbus_connection_set_watch_functions`, as GLib's and Qt's); the blocking helpers
/// (`dbus_bus_register`, `dbus_connection_send_with_reply_and_block`) are never used, because
/// before the bus has authenticated the connection they can wait without bound.
///
/// A bus that accepts the connection but never answers costs one idle socket: no call returns,
/// nothing is reported, nothing spins. A bus that hangs up closes the connection
/// (``onDisconnect``). Not thread-safe: use it on the loop's thread.
public final class BusConnection {
    /// A method call's answer: its arguments (a value of a type ``BusValue`` does not read is nil),
    /// or the error the bus or the peer returned (e.g. `org.freedesktop.DBus.Error.ServiceUnknown`).
    public enum Reply: Equatable, Sendable {
        case values([BusValue?])
        case error(name: String)
    }

    /// A signal received through a match rule (``addMatch(_:)``).
    public struct Signal: Equatable, Sendable {
        public var sender: String?
        public var path: String
        public var interface: String
        public var member: String
        /// Its arguments (a value of a type ``BusValue`` does not read is nil).
        public var arguments: [BusValue?]
    }

    /// Whether libdbus has been loaded in this process (by the first ``open(address:loop:)``).
    public static var isLibraryLoaded: Bool { modalkit_dbus_is_loaded() != 0 }

    /// The unique name the bus gave this connection in its answer to `Hello`; nil before.
    public private(set) var uniqueName: String?
    /// Called for every signal a match rule lets through, on the loop's thread.
    public var onSignal: ((Signal) -> Void)?
    /// Called once when the bus hangs up or refuses `Hello`; the connection is closed then.
    public var onDisconnect: (() -> Void)?
    /// True after ``close()`` or a disconnection.
    public private(set) var isClosed = false

    private let connection: OpaquePointer
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

    /// Connects to the bus at `address` (a D-Bus address, e.g. `unix:path=/run/user/1000/bus`),
    /// hands its socket to `loop` and queues `Hello`; returns without waiting for the bus.
    /// libdbus is loaded (`dlopen`) by the first call in the process, not linked: a program that
    /// never connects to a bus maps none of it (docs/design.md, start-up and footprint).
    /// - Returns: nil when libdbus cannot be loaded, the address is not one libdbus understands or
    ///   its socket cannot be connected (no such file, refused). The corresponding C function is
    ///   `dbus_connection_open_private`.
    public static func open(address: String, loop: PollLoop) -> BusConnection? {
        guard modalkit_dbus_load() != 0 else { return nil }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else { return nil }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        let bus = BusConnection(connection: connection, loop: loop)
        bus.start()
        return bus
    }

    private init(connection: OpaquePointer, loop: PollLoop) {
        self.connection = connection
        watchBridge = WatchBridge(connection: connection, loop: loop)
    }

    deinit { close() }

    /// Closes the connection and removes its watches from the loop. Later replies are dropped,
    /// and no callback is called again. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        dbus_connection_close(connection)   // removes the watches through the bridge
        dbus_connection_unref(connection)
    }

    private func start() {
        let box = Unmanaged.passRetained(WeakBus(self)).toOpaque()
        _ = dbus_connection_add_filter(connection, { _, message, data in
            guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            Unmanaged<WeakBus>.fromOpaque(data).takeUnretainedValue().bus?.filter(message)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }, box, { data in
            if let data { Unmanaged<WeakBus>.fromOpaque(data).release() }
        })
        watchBridge.install()
        // Hello first: the bus answers nothing else before it (org.freedesktop.DBus.Hello).
        call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
             method: "Hello") { [weak self] reply in
            guard let self else { return }
            if case let .values(values) = reply, case let .string(name)?? = values.first {
                dbus_bus_set_unique_name(connection, name)
                uniqueName = name
            } else {
                disconnected()
            }
        }
    }

    /// Sends a method call with string arguments; `onReply` runs with its answer when the loop has
    /// read it (never from inside this call). No libdbus timeout: a late answer is still welcome;
    /// a call to a peer that never answers never calls `onReply`. Nothing is sent once closed.
    public func call(destination: String, path: String, interface: String, method: String, arguments: [String] = [],
                     onReply: @escaping (Reply) -> Void) {
        guard !isClosed, let message = dbus_message_new_method_call(destination, path, interface, method) else { return }
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for argument in arguments {
            let ok = argument.withCString { s -> Bool in
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
                if let bus = request.bus, !bus.isClosed {
                    if dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR {
                        let name = dbus_message_get_error_name(reply).map { String(cString: $0) } ?? ""
                        request.onReply(.error(name: name))
                    } else {
                        request.onReply(.values(BusValue.arguments(of: reply)))
                    }
                }
                dbus_message_unref(reply)
            }
            dbus_pending_call_unref(pending)
        }, request, { data in
            if let data { Unmanaged<PendingReply>.fromOpaque(data).release() }
        })
    }

    /// Asks the bus to route the signals matching `rule` (a D-Bus match rule, e.g.
    /// `type='signal',interface='…',member='…'`) to this connection; they arrive in ``onSignal``.
    /// Sent without waiting for the answer (`dbus_bus_add_match` without an error pointer).
    public func addMatch(_ rule: String) {
        guard !isClosed else { return }
        dbus_bus_add_match(connection, rule, nil)
    }

    private func filter(_ message: OpaquePointer) {
        guard !isClosed, let signal = Self.signal(message) else { return }
        // libdbus's own signal for a lost connection (DBUS_INTERFACE_LOCAL).
        if signal.interface == "org.freedesktop.DBus.Local" && signal.member == "Disconnected" {
            disconnected()
            return
        }
        onSignal?(signal)
    }

    /// `message` read as a signal (nil for a message of another type).
    static func signal(_ message: OpaquePointer) -> Signal? {
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL else { return nil }
        func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
        return Signal(sender: text(dbus_message_get_sender(message)), path: text(dbus_message_get_path(message)) ?? "",
                      interface: text(dbus_message_get_interface(message)) ?? "", member: text(dbus_message_get_member(message)) ?? "",
                      arguments: BusValue.arguments(of: message))
    }

    private func disconnected() {
        guard !isClosed else { return }
        let handler = onDisconnect
        close()
        handler?()
    }
}

/// A weak reference handed to libdbus callbacks (the filter), released by libdbus.
private final class WeakBus {
    weak var bus: BusConnection?
    init(_ bus: BusConnection) { self.bus = bus }
}

/// One outstanding method call, handed to its pending call's notify function.
private final class PendingReply {
    weak var bus: BusConnection?
    let onReply: (BusConnection.Reply) -> Void
    init(_ bus: BusConnection, _ onReply: @escaping (BusConnection.Reply) -> Void) {
        self.bus = bus; self.onReply = onReply
    }
}

/// libdbus watches ↔ the caller's poll loop. Each `DBusWatch` (a socket, readable and/or writable,
/// enabled or not) becomes one loop watch; when poll reports it ready, `dbus_watch_handle` reads or
/// writes, then every complete message is dispatched (replies, the filter). Retained by libdbus
/// while the watch functions are set, so callbacks during `dbus_connection_close` find it.
private final class WatchBridge {
    weak var loop: PollLoop?
    let connection: OpaquePointer

    init(connection: OpaquePointer, loop: PollLoop) {
        self.connection = connection
        self.loop = loop
    }

    /// Hands the connection's watches to the loop (libdbus adds the existing ones at once).
    func install() {
        let bridge = Unmanaged.passRetained(self).toOpaque()
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
    }

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
        // The connection may be closed by a callback while it is handled or dispatched.
        dbus_connection_ref(connection)
        defer { dbus_connection_unref(connection) }
        _ = dbus_watch_handle(watch, flags)
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }
}
