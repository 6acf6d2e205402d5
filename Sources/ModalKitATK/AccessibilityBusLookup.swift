import CDBus
import Glibc

/// Whether a session bus has an accessibility bus, asked the way at-spi2-core's own clients ask
/// (`org.a11y.Bus.GetAddress` on the session bus; the bus starts `at-spi-bus-launcher` on demand),
/// before anything of ATK is loaded: a session without at-spi2-core costs a program no library.
///
/// With libdbus (which the program has mapped already for the desktop's settings), every wait
/// bounded: the calls are sent as pending calls and the connection is read and dispatched with a
/// deadline (`dbus_bus_register` and `dbus_connection_send_with_reply_and_block` could wait without
/// bound before the bus has authenticated the connection).
enum AccessibilityBusLookup {
    /// `GetAddress` answered with an address within `timeout` seconds.
    static func hasAccessibilityBus(sessionBus address: String, timeout: Double = 1) -> Bool {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else { return false }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        defer {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
        }
        let deadline = monotonicNow() + max(0, timeout)
        guard let hello = call(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "Hello", deadline: deadline) else { return false }
        dbus_message_unref(hello)
        guard let reply = call(connection, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress",
                               deadline: deadline) else { return false }
        defer { dbus_message_unref(reply) }
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(reply, &iter) != 0, dbus_message_iter_get_arg_type(&iter) == Int32(UInt8(ascii: "s"))   // DBUS_TYPE_STRING (a macro Swift does not import)
        else { return false }
        var value: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &value)
        return value.map { $0.pointee != 0 } ?? false
    }

    /// A method call's reply, when it is a method return that came before `deadline`.
    private static func call(_ connection: OpaquePointer, _ destination: String, _ path: String, _ interface: String,
                             _ method: String, deadline: Double) -> OpaquePointer? {
        guard let message = dbus_message_new_method_call(destination, path, interface, method) else { return nil }
        defer { dbus_message_unref(message) }
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(connection, message, &pending, milliseconds(deadline)) != 0,
              let pending else { return nil }
        defer { dbus_pending_call_unref(pending) }
        while dbus_pending_call_get_completed(pending) == 0 {
            let ms = milliseconds(deadline)
            guard ms > 0, dbus_connection_read_write_dispatch(connection, ms) != 0 else {
                dbus_pending_call_cancel(pending)
                return nil
            }
        }
        guard let reply = dbus_pending_call_steal_reply(pending) else { return nil }
        guard dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_METHOD_RETURN else {
            dbus_message_unref(reply)
            return nil
        }
        return reply
    }

    private static func milliseconds(_ deadline: Double) -> Int32 {
        Int32(max(0, min(Double(Int32.max), ((deadline - monotonicNow()) * 1000).rounded(.up))))
    }

    private static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
