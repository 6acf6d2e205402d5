import ModalKit

/// A push button: a rounded field with a centred label (libadwaita's pill buttons in an
/// `AdwAlertDialog`, UIKit's `UIButton`). A value describing the button; the content holding it
/// keeps its hover, pressed and focused state and calls
/// ``draw(into:frame:scale:isHovered:isPressed:isFocused:)``.
public struct Button: Hashable, Sendable {
    /// How a button looks (libadwaita's response appearances `ADW_RESPONSE_DEFAULT`, `_SUGGESTED`,
    /// `_DESTRUCTIVE`; UIKit's action styles default and destructive). Each is a ``ButtonStyle``
    /// (``ButtonStyle/init(appearance:)``); an app's own look is a ``ButtonStyle`` of its own.
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
    /// The built-in look, used unless ``style`` was set to a look of the app's own.
    public var appearance: Appearance
    /// A disabled button draws faded and does not activate.
    public var isEnabled: Bool
    /// The look drawn: ``ButtonStyle/init(appearance:)`` of ``appearance``, or the ``ButtonStyle``
    /// set here (an app's own colours, corners, label font or focus ring).
    public var style: ButtonStyle {
        get { customStyle ?? ButtonStyle(appearance: appearance) }
        set { customStyle = newValue }
    }
    private var customStyle: ButtonStyle?

    /// A button's height, points (UIKit's 44 pt touch target).
    public static let height = 44.0
    /// Space between the label and each side of the button, points (the built-in looks' ``ButtonStyle/labelInset``).
    public static let padding = 12.0
    /// The corner radius, points (the built-in looks' ``ButtonStyle/cornerRadius``).
    public static let cornerRadius = 10.0
    /// The focus ring's width outside the button, points (the built-in looks' ``ButtonStyle/focusRingWidth``;
    /// drawn when focused by the keyboard).
    public static let focusRingWidth = 2.0
    /// The label's style in the built-in looks (colour set by the appearance).
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

    /// A button of an app's own look.
    /// - Parameters:
    ///   - title: the label.
    ///   - style: the look.
    ///   - isEnabled: whether it can be activated (default true).
    public init(_ title: String, style: ButtonStyle, isEnabled: Bool = true) {
        self.init(title, appearance: .normal, isEnabled: isEnabled)
        customStyle = style
    }

    /// The width that shows the whole label on one line: the label's width plus the style's
    /// ``ButtonStyle/labelInset`` on each side, points.
    public var naturalWidth: Double {
        let look = style
        return Label(title, style: look.label).naturalWidth + 2 * look.labelInset
    }

    /// The field's colour and the label's, for the look and whether it is pressed.
    public func colors(isPressed: Bool) -> (fill: Color, text: Color) {
        let look = style
        return (isPressed ? look.pressedFill : look.fill, look.label.color)
    }

    /// The label as drawn in `frame` (points) at `scale`: the title, or its longest start that
    /// fits between the style's label insets followed by "…" (whole grapheme clusters), "" when
    /// not even "…" fits or without a font.
    public func fittedTitle(in frame: Rect, scale s: Double) -> String {
        guard let font = style.label.font(scale: s) else { return "" }
        return font.truncated(title, toWidth: max(0, labelRoom(in: frame, scale: s)))
    }

    /// The label's room across `frame` at `s`, buffer pixels.
    private func labelRoom(in frame: Rect, scale s: Double) -> Int {
        let look = style
        if look.snapsToPixels { return Int(frame.scaled(by: s).snappedToPixels.width) - 2 * px(look.labelInset, s) }
        return px(frame.width - 2 * look.labelInset, s)
    }

    /// Draws the button OVER `image` in `frame` (points) at `scale`: when `isFocused`, the style's
    /// focus ring around it; the field (``ButtonStyle/pressedFill`` while pressed, else
    /// ``ButtonStyle/hoveredFill`` while hovered, else ``ButtonStyle/fill``); the label centred,
    /// cut with "…" when it does not fit (``fittedTitle(in:scale:)``). A disabled button draws
    /// its field and label at half their opacity, without hover or pressed looks. With
    /// ``ButtonStyle/snapsToPixels`` the field is `frame` × `scale` with each edge rounded to a
    /// whole buffer pixel, and the ring and label are placed around that.
    public func draw(into image: OpaquePointer, frame: Rect, scale s: Double, isHovered: Bool = false, isPressed: Bool = false,
                     isFocused: Bool = false) {
        let look = style
        var fill = !isEnabled ? look.fill : isPressed ? look.pressedFill : isHovered ? look.hoveredFill : look.fill
        var text = look.label.color
        if !isEnabled { fill = fill.withAlpha(0.5); text = text.withAlpha(0.5) }
        let field = look.snapsToPixels ? frame.scaled(by: s).snappedToPixels : frame.scaled(by: s)
        if isFocused {
            let w = look.focusRingWidth, g = look.focusRingGap
            if look.snapsToPixels {
                let o = (g + w) * s
                Draw.fillRoundedRect(image, x: field.minX - o, y: field.minY - o, width: field.width + 2 * o,
                                     height: field.height + 2 * o, radius: look.cornerRadius * s + o, color: look.focusRingColor,
                                     ring: (inset: w * s, radius: look.cornerRadius * s + g * s))
            } else {
                let o = g + w
                Draw.fillRoundedRect(image, x: (frame.minX - o) * s, y: (frame.minY - o) * s, width: (frame.width + 2 * o) * s,
                                     height: (frame.height + 2 * o) * s, radius: (look.cornerRadius + o) * s,
                                     color: look.focusRingColor, ring: (inset: w * s, radius: (look.cornerRadius + g) * s))
            }
        }
        Draw.fillRoundedRect(image, x: field.minX, y: field.minY, width: field.width, height: field.height,
                             radius: look.cornerRadius * s, color: fill)
        guard let font = look.label.font(scale: s) else { return }
        let fitted = font.truncated(title, toWidth: max(0, labelRoom(in: frame, scale: s)))
        let center = look.snapsToPixels ? (x: field.midX, y: field.midY) : (x: frame.midX * s, y: frame.midY * s)
        font.drawCentered(fitted, into: image, centerX: center.x, centerY: center.y, color: text)
    }

    /// The button for assistive technology: role push button, its title as label, `frame` in the
    /// content's points, focusable (and focused when `isFocused`), disabled when not enabled, with
    /// the activate action.
    public func accessibilityElement(identifier: String, frame: Rect, isFocused: Bool) -> AccessibilityElement {
        .button(identifier, label: title, frame: frame, isFocused: isFocused, isEnabled: isEnabled)
    }
}

/// How a push button looks: its field's colour at rest, under the pointer and pressed, its label's
/// font and colour, its corners, the room beside its label, its focus ring, and whether its edges
/// sit on whole pixels. Points throughout; colours premultiplied. The built-in looks are
/// ``init(appearance:)``'s; an app's own (a card's tinted button) is
/// ``init(fill:hoveredFill:pressedFill:label:cornerRadius:labelInset:focusRingGap:focusRingWidth:focusRingColor:snapsToPixels:)``'s.
public struct ButtonStyle: Hashable, Sendable {
    /// The field at rest.
    public var fill: Color
    /// The field while the pointer is over it and nothing is pressed (GTK's `:hover`).
    public var hoveredFill: Color
    /// The field while pressed with the pointer or a finger still over it (UIKit's highlighted
    /// state, GTK's `:active`).
    public var pressedFill: Color
    /// The label's font (size, weight) and colour.
    public var label: TextStyle
    /// The field's corner radius, points.
    public var cornerRadius: Double
    /// The least room between the label and each end of the field, points: a longer label is cut with "…".
    public var labelInset: Double
    /// The gap between the field and its focus ring, points (0: the ring touches the field).
    public var focusRingGap: Double
    /// The focus ring's width, points (shown when focused by the keyboard: `:focus-visible`).
    public var focusRingWidth: Double
    /// The focus ring's colour.
    public var focusRingColor: Color
    /// true: the field's edges are rounded to whole buffer pixels at every scale (sharp edges at a
    /// fractional scale, as GTK allocates widgets in whole pixels), the label centred in and fitted
    /// to that pixel field, its insets rounded to whole pixels; false: the field is `frame` ×
    /// scale as it falls, edges anti-aliased.
    public var snapsToPixels: Bool

    /// A look of the app's own.
    /// - Parameters:
    ///   - fill: the field at rest.
    ///   - hoveredFill: the field under the pointer (default `fill`: no hover look).
    ///   - pressedFill: the field while pressed.
    ///   - label: the label's font and colour (default ``TextStyle/button``).
    ///   - cornerRadius: points (default 10).
    ///   - labelInset: points each side of the label (default 12).
    ///   - focusRingGap: points between the field and its ring (default 0).
    ///   - focusRingWidth: points (default 2).
    ///   - focusRingColor: default libadwaita's accent `#3584E4` at half opacity.
    ///   - snapsToPixels: edges on whole buffer pixels (default false).
    public init(fill: Color, hoveredFill: Color? = nil, pressedFill: Color, label: TextStyle = .button,
                cornerRadius: Double = Button.cornerRadius, labelInset: Double = Button.padding, focusRingGap: Double = 0,
                focusRingWidth: Double = Button.focusRingWidth, focusRingColor: Color = ButtonStyle.focusRingColor,
                snapsToPixels: Bool = false) {
        self.fill = fill
        self.hoveredFill = hoveredFill ?? fill
        self.pressedFill = pressedFill
        self.label = label
        self.cornerRadius = cornerRadius
        self.labelInset = labelInset
        self.focusRingGap = focusRingGap
        self.focusRingWidth = focusRingWidth
        self.focusRingColor = focusRingColor
        self.snapsToPixels = snapsToPixels
    }

    /// The built-in focus ring colour: libadwaita's accent `#3584E4` at half opacity.
    public static let focusRingColor = Color(rgb: 0x3584E4).withAlpha(0.5)

    /// The built-in look of `appearance` (libadwaita's colours): a field of 15 pt bold text
    /// (``TextStyle/button``), 10 pt corners, 12 pt beside the label, a 2 pt focus ring touching
    /// the field, no hover look, edges where they fall. `.normal`: grey `#EBEBEB` (pressed
    /// `#D6D6D6`), near-black text; `.suggested`: `#3584E4` (pressed `#1C71D8`), white text;
    /// `.destructive`: `#E01B24` (pressed `#C01C28`), white text.
    public init(appearance: Button.Appearance) {
        let (rest, pressed, text): (UInt32, UInt32, Color)
        switch appearance {
        case .normal: (rest, pressed, text) = (0xEBEBEB, 0xD6D6D6, TextStyle.primaryColor)
        case .suggested: (rest, pressed, text) = (0x3584E4, 0x1C71D8, Color(rgb: 0xFFFFFF))
        case .destructive: (rest, pressed, text) = (0xE01B24, 0xC01C28, Color(rgb: 0xFFFFFF))
        }
        var label = Button.labelStyle
        label.color = text
        self.init(fill: Color(rgb: rest), pressedFill: Color(rgb: pressed), label: label)
    }
}

extension Color {
    /// The colour at `alpha` times its opacity (premultiplied: every channel scaled).
    func withAlpha(_ alpha: Double) -> Color {
        Color(premultipliedRed: red * alpha, green: green * alpha, blue: blue * alpha, alpha: self.alpha * alpha)
    }
}
