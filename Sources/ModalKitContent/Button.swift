import ModalKit

/// A push button: a rounded field with a centred label (libadwaita's pill buttons in an
/// `AdwAlertDialog`, UIKit's `UIButton`). A value describing the button; the content holding it
/// keeps its pressed and focused state and calls ``draw(into:frame:scale:isPressed:isFocused:)``.
public struct Button: Hashable, Sendable {
    /// How a button looks (libadwaita's response appearances `ADW_RESPONSE_DEFAULT`, `_SUGGESTED`,
    /// `_DESTRUCTIVE`; UIKit's action styles default and destructive).
    public enum Appearance: Hashable, Sendable {
        /// A neutral grey field with dark text.
        case normal
        /// The accent colour (libadwaita's blue, `#3584E4`) with white text: the action the user
        /// most likely wants.
        case suggested
        /// Destructive red (libadwaita's `#E01B24`) with white text: the action that deletes or discards.
        case destructive
    }

    /// The label.
    public var title: String
    /// The look.
    public var appearance: Appearance
    /// A disabled button draws faded and does not activate.
    public var isEnabled: Bool

    /// A button's height, points (UIKit's 44 pt touch target).
    public static let height = 44.0
    /// Space between the label and each side of the button, points.
    public static let padding = 12.0
    /// The corner radius, points.
    public static let cornerRadius = 10.0
    /// The focus ring's width outside the button, points (drawn when focused by the keyboard).
    public static let focusRingWidth = 2.0
    /// The label's style (colour set by the appearance).
    public static let labelStyle = TextStyle.button

    /// - Parameters:
    ///   - title: the label.
    ///   - appearance: the look (default `.normal`).
    ///   - isEnabled: whether it can be activated (default true).
    public init(_ title: String, appearance: Appearance = .normal, isEnabled: Bool = true) {
        self.title = title
        self.appearance = appearance
        self.isEnabled = isEnabled
    }

    /// The width that shows the whole label on one line: the label's width plus ``padding`` on
    /// each side, points.
    public var naturalWidth: Double { Label(title, style: Button.labelStyle).naturalWidth + 2 * Button.padding }

    /// The field's colour and the label's, for the appearance and whether it is pressed.
    public func colors(isPressed: Bool) -> (fill: Color, text: Color) {
        switch appearance {
        case .normal: return (Color(rgb: isPressed ? 0xD6D6D6 : 0xEBEBEB), TextStyle.primaryColor)
        case .suggested: return (Color(rgb: isPressed ? 0x1C71D8 : 0x3584E4), Color(rgb: 0xFFFFFF))
        case .destructive: return (Color(rgb: isPressed ? 0xC01C28 : 0xE01B24), Color(rgb: 0xFFFFFF))
        }
    }

    /// Draws the button OVER `image` in `frame` (points) at `scale`: the field, the label centred
    /// (truncated with "…" when it does not fit), and, when `isFocused`, a focus ring of
    /// ``focusRingWidth`` points around it.
    public func draw(into image: OpaquePointer, frame: Rect, scale s: Double, isPressed: Bool = false, isFocused: Bool = false) {
        var (fill, text) = colors(isPressed: isPressed && isEnabled)
        if !isEnabled { fill = fill.withAlpha(0.5); text = text.withAlpha(0.5) }
        if isFocused {
            let w = Button.focusRingWidth
            Draw.fillRoundedRect(image, x: (frame.minX - w) * s, y: (frame.minY - w) * s, width: (frame.width + 2 * w) * s,
                                 height: (frame.height + 2 * w) * s, radius: (Button.cornerRadius + w) * s,
                                 color: Color(rgb: 0x3584E4).withAlpha(0.5), ring: (inset: w * s, radius: Button.cornerRadius * s))
        }
        Draw.fillRoundedRect(image, x: frame.minX * s, y: frame.minY * s, width: frame.width * s, height: frame.height * s,
                             radius: Button.cornerRadius * s, color: fill)
        var style = Button.labelStyle
        style.color = text
        guard let font = style.font(scale: s) else { return }
        let fitted = font.truncated(title, toWidth: max(0, px(frame.width - 2 * Button.padding, s)))
        font.drawCentered(fitted, into: image, centerX: frame.midX * s, centerY: frame.midY * s, color: text)
    }

    /// The button for assistive technology: role push button, its title as label, `frame` in the
    /// content's points, focusable (and focused when `isFocused`), disabled when not enabled, with
    /// the activate action.
    public func accessibilityElement(identifier: String, frame: Rect, isFocused: Bool) -> AccessibilityElement {
        .button(identifier, label: title, frame: frame, isFocused: isFocused, isEnabled: isEnabled)
    }
}

extension Color {
    /// The colour at `alpha` times its opacity (premultiplied: every channel scaled).
    func withAlpha(_ alpha: Double) -> Color {
        Color(premultipliedRed: red * alpha, green: green * alpha, blue: blue * alpha, alpha: self.alpha * alpha)
    }
}
