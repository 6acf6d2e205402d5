// Option helpers shared by the built-in styles for the chrome of style ABI 1.1 (a shadow, a
// background colour, a choice among words), next to `StyleOption.duration()` and `.curve()`.

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
    /// `shadow`: `none` or `soft` (``Shadow/soft``).
    public static func shadow(default value: String = "none") -> StyleOption {
        StyleOption(key: "shadow", summary: "drop shadow behind the presented view: none, or soft (black 25 %, 4 pt down, 16 pt blur)",
                    defaultValue: value)
    }

    /// `background`: the presented view's background colour, `#RRGGBB`, or `none` (the content
    /// paints every pixel itself).
    public static func background(default value: String = "none") -> StyleOption {
        StyleOption(key: "background", summary: "background colour of the presented view under its content: #RRGGBB or none",
                    defaultValue: value)
    }
}

extension StyleOptions {
    /// The value of `key`, which must be one of `choices`.
    /// - Throws: `StyleOptionError.badValue` naming the choices otherwise.
    public func choice(_ key: String, among choices: [String]) throws -> String {
        let text = string(key)
        guard choices.contains(text) else {
            throw StyleOptionError.badValue(key: key, value: text, expected: choices.joined(separator: " or "))
        }
        return text
    }

    /// The `shadow` option: nil for `none`, ``Shadow/soft`` for `soft`.
    public func shadow() throws -> Shadow? {
        try choice("shadow", among: ["none", "soft"]) == "soft" ? .soft : nil
    }

    /// An opaque colour option: `#RRGGBB` (hex digits, either case), or nil for `none`.
    /// - Throws: `StyleOptionError.badValue` for anything else.
    public func color(_ key: String) throws -> Color? {
        let text = string(key)
        if text == "none" { return nil }
        let digits = text.dropFirst()
        guard text.hasPrefix("#"), digits.count == 6, digits.allSatisfy(\.isHexDigit),
              let rgb = UInt32(digits, radix: 16) else {
            throw StyleOptionError.badValue(key: key, value: text, expected: "#RRGGBB or none")
        }
        return Color(rgb: rgb)
    }
}
