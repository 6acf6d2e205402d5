import Glibc
import ModalKitSystemSupport

/// The options a style was created with: the declared defaults overlaid with what the user gave.
/// Creating one rejects keys the style does not declare.
public struct StyleOptions: Sendable {
    /// Every declared key's value as a string: the one given (on the command line or to
    /// `makeStyle(options:)`), else the declared default.
    public let values: [String: String]
    /// The declarations, by key.
    public let declarations: [String: StyleOption]

    /// - Throws: `StyleOptionError.unknownKey` for a key not in `declared`.
    public init(_ given: [String: String], declared: [StyleOption]) throws {
        var values: [String: String] = [:]
        var declarations: [String: StyleOption] = [:]
        for option in declared { values[option.key] = option.defaultValue; declarations[option.key] = option }
        for key in given.keys.sorted() {
            guard values[key] != nil else {
                throw StyleOptionError.unknownKey(key, known: declared.map(\.key))
            }
            values[key] = given[key]
        }
        self.values = values
        self.declarations = declarations
    }

    /// The value of `key` as a string (given or default), or the empty string for an undeclared key.
    public func string(_ key: String) -> String { values[key] ?? "" }

    /// A finite number within `range`.
    /// - Throws: `StyleOptionError.badValue` otherwise.
    public func double(_ key: String, in range: ClosedRange<Double> = -1e9...1e9) throws -> Double {
        let text = string(key)
        guard let v = Double(text.trimmingWhitespace()), v.isFinite, range.contains(v) else {
            throw StyleOptionError.badValue(key: key, value: text,
                                            expected: "a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return v
    }

    /// The value of a `.number` option, checked against its declared range.
    /// - Throws: `StyleOptionError.badValue` naming the declared range (and unit).
    public func number(_ option: StyleOption) throws -> Double {
        let text = string(option.key)
        let range: ClosedRange<Double>
        if case let .number(r) = option.accepted { range = r } else { range = -1e9...1e9 }
        guard let v = Double(text.trimmingWhitespace()), v.isFinite, range.contains(v) else {
            let unit = option.unit.isEmpty ? "" : " \(option.unit)"
            throw StyleOptionError.badValue(key: option.key, value: text, expected: "a number from "
                + "\(StyleOption.formatNumber(range.lowerBound)) to \(StyleOption.formatNumber(range.upperBound))\(unit)")
        }
        return v
    }

    /// The value of a `.choice` option: one of its declared words.
    /// - Throws: `StyleOptionError.badValue` listing them.
    public func choice(_ option: StyleOption) throws -> String {
        let text = string(option.key)
        guard case let .choice(values) = option.accepted else { return text }
        guard values.contains(text) else {
            throw StyleOptionError.badValue(key: option.key, value: text, expected: "one of \(values.joined(separator: ", "))")
        }
        return text
    }

    /// The value of a `.color` option (`#RRGGBB`, or `#RRGGBBAA` with straight alpha), premultiplied.
    /// - Throws: `StyleOptionError.badValue` for any other text.
    public func color(_ option: StyleOption) throws -> Color {
        let text = string(option.key)
        guard let c = StyleOptions.parseColor(text) else {
            throw StyleOptionError.badValue(key: option.key, value: text, expected: "#RRGGBB or #RRGGBBAA")
        }
        return c
    }

    /// `#RRGGBB` or `#RRGGBBAA` (hex digits, either case; straight alpha) as a premultiplied colour.
    public static func parseColor(_ text: String) -> Color? {
        let hex = Array(text.utf8)
        guard hex.count == 7 || hex.count == 9, hex[0] == UInt8(ascii: "#") else { return nil }
        var v: UInt64 = 0
        for c in hex.dropFirst() {
            guard let d = Int(String(UnicodeScalar(c)), radix: 16) else { return nil }
            v = v << 4 | UInt64(d)
        }
        if hex.count == 7 { v = v << 8 | 0xFF }
        func byte(_ shift: UInt64) -> Double { Double((v >> shift) & 0xFF) / 255 }
        return Color(red: byte(24), green: byte(16), blue: byte(8), alpha: byte(0))
    }

    /// The `duration` option in seconds, 0 (no animation) to 10.
    public func duration() throws -> Double { try double("duration", in: 0...10) }

    /// The `curve` option.
    /// - Throws: `StyleOptionError.badValue` when `TimingCurve(parsing:)` does not accept it.
    public func curve() throws -> TimingCurve {
        let text = string("curve")
        guard let c = TimingCurve(parsing: text) else {
            throw StyleOptionError.badValue(key: "curve", value: text, expected: TimingCurve.acceptedSyntax)
        }
        return c
    }
}
