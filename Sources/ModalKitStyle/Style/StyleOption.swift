import Glibc

/// One option a style accepts on the command line (`--style-option KEY=VALUE`), declared once:
/// its key, meaning, unit, default and the values it accepts. The declaration is what
/// `modal-demo --describe-style` prints, what error messages list, and what the typed readers of
/// `StyleOptions` (`number(_:)`, `choice(_:)`, `color(_:)`) check values against.
///
/// ```swift
/// static let dim = StyleOption.number("dim-alpha", "alpha of the black dim when presented", default: 0.3, in: 0...1)
/// ```
public struct StyleOption: Hashable, Sendable {
    /// The values an option accepts.
    public enum Accepted: Hashable, Sendable {
        /// Any text; the string says what is meant (empty: not declared, e.g. a style of ABI 1.0).
        case text(String)
        /// A finite decimal number within the range (inclusive), in the option's `unit`.
        case number(ClosedRange<Double>)
        /// One of these words, exactly.
        case choice([String])
        /// A colour: `#RRGGBB` or `#RRGGBBAA` (straight alpha), as in CSS.
        case color
        /// A timing curve, as `TimingCurve(parsing:)` reads it.
        case curve
    }

    /// The key, lower-case with dashes, e.g. `margin-x`.
    public var key: String
    /// One line saying what the value means (and, for options declared with the plain
    /// initialiser, its unit), e.g. "left and right inset of the card".
    public var summary: String
    /// The value used when the option is not given, as it would be written on the command line.
    public var defaultValue: String
    /// The unit of a number, e.g. "points", "seconds"; empty for none (a fraction, a word).
    public var unit: String
    /// What values are accepted.
    public var accepted: Accepted

    /// An option declared with text alone (ABI 1.0's three fields): any value is passed to the
    /// style, which checks it itself.
    public init(key: String, summary: String, defaultValue: String) {
        self.init(key: key, summary: summary, defaultValue: defaultValue, unit: "", accepted: .text(""))
    }

    /// An option with its unit and accepted values.
    public init(key: String, summary: String, defaultValue: String, unit: String, accepted: Accepted) {
        self.key = key; self.summary = summary; self.defaultValue = defaultValue
        self.unit = unit; self.accepted = accepted
    }

    /// A number in `range` (inclusive), in `unit` (empty for none); read with `StyleOptions.number(_:)`.
    public static func number(_ key: String, _ summary: String, unit: String = "", default value: Double,
                              in range: ClosedRange<Double>) -> StyleOption {
        StyleOption(key: key, summary: summary, defaultValue: formatNumber(value), unit: unit, accepted: .number(range))
    }

    /// One of `values`; read with `StyleOptions.choice(_:)`.
    public static func choice(_ key: String, _ summary: String, default value: String, among values: [String]) -> StyleOption {
        StyleOption(key: key, summary: summary, defaultValue: value, unit: "", accepted: .choice(values))
    }

    /// A colour, `#RRGGBB` or `#RRGGBBAA`; read with `StyleOptions.color(_:)`.
    public static func color(_ key: String, _ summary: String, default value: String) -> StyleOption {
        StyleOption(key: key, summary: summary, defaultValue: value, unit: "", accepted: .color)
    }

    /// `duration`: the transition's duration in seconds, 0 to 10 (built-in styles: 0.35).
    public static func duration(default value: String = "0.35") -> StyleOption {
        StyleOption(key: "duration", summary: "transition duration", defaultValue: value, unit: "seconds",
                    accepted: .number(0...10))
    }

    /// `curve`: the timing curve (`TimingCurve(parsing:)`; built-in styles: ease-in-out).
    public static func curve(default value: String = "ease-in-out") -> StyleOption {
        StyleOption(key: "curve", summary: "timing curve", defaultValue: value, unit: "", accepted: .curve)
    }

    /// The meaning with its unit, e.g. "left and right inset of the card, points".
    public var meaning: String {
        unit.isEmpty ? summary : summary.isEmpty ? unit : "\(summary), \(unit)"
    }

    /// What is accepted, in words, e.g. "0 to 1", "left, right", "#RRGGBB or #RRGGBBAA"; empty
    /// when the option does not say (a 1.0 plugin's option, or plain text without a description).
    public var acceptedDescription: String {
        switch accepted {
        case let .text(s): return s
        case let .number(r): return "\(StyleOption.formatNumber(r.lowerBound)) to \(StyleOption.formatNumber(r.upperBound))"
        case let .choice(values): return values.joined(separator: ", ")
        case .color: return "#RRGGBB or #RRGGBBAA"
        case .curve: return TimingCurve.acceptedSyntax
        }
    }

    /// A number as it is written on the command line: no trailing ".0" (0.5, 20, 1e-06).
    public static func formatNumber(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }
}

extension TimingCurve {
    /// The curve syntax `init?(parsing:)` accepts, in words.
    public static let acceptedSyntax =
        "linear, ease-in-out, ease-out, cubic-bezier(x1,y1,x2,y2) with x in 0...1 and y in -10...10, or spring(stiffness,damping) with each above 0 and at most 1e6"
}
