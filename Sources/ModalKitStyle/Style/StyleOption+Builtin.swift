// Option helpers shared by the built-in styles for what style ABI 1.1 adds (the presented view's
// shadow and background colour, a choice among words), next to `StyleOption.duration()` and `.curve()`.

extension Shadow {
    /// The built-in styles' `shadow=soft`: black at 25 % opacity, 4 pt down, blurred over 16 pt
    /// (a soft drop shadow in the manner of UIKit's `layer.shadowOpacity` 0.25,
    /// `shadowOffset` (0, 4), `shadowRadius` 16).
    public static let soft = Shadow(color: Color.black.multipliedAlpha(by: 0.25), offset: Point(x: 0, y: 4),
                                    blurRadius: 16)
}

extension PresentedViewChrome {
    /// UIKit's sheet grabber colour, `tertiaryLabel` in the light appearance: #3C3C43 at 30 %.
    public static let grabberColor = Color(red: 60.0 / 255, green: 60.0 / 255, blue: 67.0 / 255, alpha: 0.3)
}

extension StyleOption {
    /// `shadow`: `none` or `soft` (``Shadow/soft``); read with ``StyleOptions/shadow()``.
    public static func shadow(default value: String = "none") -> StyleOption {
        .choice("shadow", "drop shadow behind the presented view: none, or soft (black 25 %, 4 pt down, 16 pt blur)",
                default: value, among: ["none", "soft"])
    }

    /// `background`: the presented view's background colour under its content, or `none` (the
    /// content paints every pixel itself); read with ``StyleOptions/optionalColor(_:)``.
    public static func background(default value: String = "none") -> StyleOption {
        optionalColor("background", "background colour of the presented view under its content", default: value)
    }

    /// A colour that may be left out: `#RRGGBB`, `#RRGGBBAA` (straight alpha) or `none`; read with
    /// ``StyleOptions/optionalColor(_:)``.
    public static func optionalColor(_ key: String, _ summary: String, default value: String = "none") -> StyleOption {
        StyleOption(key: key, summary: summary, defaultValue: value, unit: "",
                    accepted: .text(StyleOptions.optionalColorSyntax))
    }
}

extension StyleOptions {
    /// What ``optionalColor(_:)`` accepts, in words.
    public static let optionalColorSyntax = "#RRGGBB, #RRGGBBAA or none"

    /// The `shadow` option: nil for `none`, ``Shadow/soft`` for `soft`.
    /// - Throws: `StyleOptionError.badValue` for another word.
    public func shadow() throws -> Shadow? {
        try choice(StyleOption.shadow()) == "soft" ? .soft : nil
    }

    /// A colour option that may be `none` (nil); otherwise as ``color(_:)``.
    /// - Throws: `StyleOptionError.badValue` naming ``optionalColorSyntax``.
    public func optionalColor(_ option: StyleOption) throws -> Color? {
        let text = string(option.key)
        if text == "none" { return nil }
        guard let c = StyleOptions.parseColor(text) else {
            throw StyleOptionError.badValue(key: option.key, value: text, expected: StyleOptions.optionalColorSyntax)
        }
        return c
    }
}
