import CModalKitDBus

/// A basic D-Bus value read from a message, through any number of variants (the portal's `Read`
/// wraps its value twice). Integers of every width and doubles are numbers.
public enum BusValue: Equatable, Sendable {
    case bool(Bool), number(Double), string(String)

    /// The boolean, or nil for another type.
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// Numbers as themselves; strings that spell one (kdeglobals values are text), spaces ignored.
    public var number: Double? {
        switch self {
        case .number(let d): return d
        case .string(let s): return Double(s.filter { $0 != " " && $0 != "\t" })
        case .bool: return nil
        }
    }

    /// The string, or nil for another type.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value at `iter` (variants unwrapped), or nil for a type other than the basic ones above.
    static func read(_ iter: inout DBusMessageIter) -> BusValue? {
        switch dbus_message_iter_get_arg_type(&iter) {
        case DBusType.variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return read(&inner)
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

    /// Every top-level argument of `message` (nil for one of another type).
    static func arguments(of message: OpaquePointer) -> [BusValue?] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        var values: [BusValue?] = []
        repeat { values.append(read(&iter)) } while dbus_message_iter_next(&iter) != 0
        return values
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
