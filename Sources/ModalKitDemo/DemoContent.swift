import CModalKitPixman
import ModalKit
import Glibc

/// The look of the Present button (UIKit's `UIControl.State`: highlighted = pressed; focus shown
/// only after keyboard use, like the web's `:focus-visible` and UIKit's focus system on iPad).
public struct ButtonAppearance: Hashable, Sendable {
    public var isHovered = false
    public var isPressed = false
    public var showsFocusRing = false
    public init(isHovered: Bool = false, isPressed: Bool = false, showsFocusRing: Bool = false) {
        self.isHovered = isHovered; self.isPressed = isPressed; self.showsFocusRing = showsFocusRing
    }
}

/// Layout and colours of the demo's two views, in points. The presenting view: a soft background
/// gradient, a large title "ModalKit" with a subtitle, a centred filled "Present" button and a hint
/// line. The presented view: a white card with a title, one body line and two buttons,
/// "Present another" (a tinted secondary button) and "Close".
enum DemoLook {
    static let backgroundTop = Color(rgb: 0xF6F7FB)
    static let backgroundBottom = Color(rgb: 0xE7EBF3)
    static let titleColor = Color(rgb: 0x111827)
    static let secondaryColor = Color(rgb: 0x6B7280)
    static let accent = Color(rgb: 0x0A6CFF)
    static let accentHover = Color(rgb: 0x2A80FF)
    static let accentPressed = Color(rgb: 0x0656D1)
    static let buttonText = Color.white
    static let cardBackground = Color.white
    static let cardText = Color(rgb: 0x1C1C1E)

    static let title = "ModalKit"
    static let subtitle = "Custom modal presentation"
    static let buttonTitle = "Present"
    static let hint = "Esc or a tap outside dismisses"
    /// The hint for a style that no tap on the dim dismisses (`shouldDismiss` refuses every point,
    /// or the presented view covers the container).
    static let escapeOnlyHint = "Esc dismisses"

    /// Button size and corner radius, points.
    static let buttonSize = Size(width: 176, height: 50)
    static let buttonRadius = 12.0
    /// Focus ring: gap outside the button and ring width, points.
    static let focusGap = 3.0, focusWidth = 2.5
    /// The button's soft shadow reaches this far outside the button, points: its largest layer is
    /// grown by 6 pt and moved 3 pt down (``drawPresentingView(into:size:scale:fonts:button:hint:)``).
    static let shadowReach = 9.0

    /// The Present button's frame in a container of `bounds`, points: centred.
    static func buttonFrame(in bounds: Rect) -> Rect {
        let s = buttonSize
        return Rect(x: (bounds.midX - s.width / 2).rounded(), y: (bounds.midY - s.height / 2).rounded(),
                    width: s.width, height: s.height)
    }

    /// Everything the button's look can change, points (button + focus ring + shadow), drawn at
    /// `scale`: one more buffer pixel (at least one point) around it, since the button's edges are
    /// drawn snapped to whole pixels (up to half a pixel from its points × scale).
    static func buttonOuterFrame(in bounds: Rect, scale: Double) -> Rect {
        let r = max(focusGap + focusWidth, shadowReach) + max(1, 1 / scale)
        return buttonFrame(in: bounds).insetBy(dx: -r, dy: -r)
    }

    /// Draws the presenting view (replacing everything) into `image` of `size` points × `scale`
    /// (buffer pixels per point, > 0, whole or fractional). Text positions and the button's edges
    /// are rounded to whole pixels (exact at a whole scale, where they already are whole). `fonts`
    /// is asked for after the background is drawn (a window's first frame draws it while the fonts
    /// finish loading: ``FontBox``).
    static func drawPresentingView(into image: OpaquePointer, size: Size, scale: Double, fonts: @autoclosure () -> FontSet,
                                   button: ButtonAppearance, hint: String) {
        let s = scale
        let wpx = Int(pixman_image_get_width(image)), hpx = Int(pixman_image_get_height(image))
        Draw.verticalGradient(image, width: wpx, height: hpx, top: backgroundTop, bottom: backgroundBottom)
        let fonts = fonts()

        // Header: large title and subtitle, 20 pt from the left, like a UIKit large-title navigation bar.
        let left = Int((20 * s).rounded())
        let titleBaseline = Int((24 * s).rounded()) + fonts.title.ascent
        fonts.title.draw(title, into: image, x: left, baseline: titleBaseline, color: titleColor)
        fonts.body.draw(subtitle, into: image, x: left, baseline: titleBaseline + Int((26 * s).rounded()),
                        color: secondaryColor)

        // The button: soft shadow, fill, label, focus ring; its edges on whole pixels.
        let bounds = Rect(size: size)
        let frame = buttonFrame(in: bounds).scaled(by: scale).snappedToPixels
        let radius = buttonRadius * s
        if !button.isPressed {
            for (grow, alpha) in [(6.0, 0.035), (3.5, 0.05), (1.5, 0.07)] {
                let g = grow * s
                Draw.fillRoundedRect(image, x: frame.minX - g, y: frame.minY - g + 3 * s, width: frame.width + 2 * g,
                                     height: frame.height + 2 * g, radius: radius + g,
                                     color: Color(red: 0.04, green: 0.2, blue: 0.55, alpha: alpha))
            }
        }
        let fill = button.isPressed ? accentPressed : (button.isHovered ? accentHover : accent)
        Draw.fillRoundedRect(image, x: frame.minX, y: frame.minY, width: frame.width, height: frame.height,
                             radius: radius, color: fill)
        fonts.button.drawCentered(buttonTitle, into: image, centerX: frame.midX, centerY: frame.midY,
                                  color: buttonText)
        if button.showsFocusRing {
            let o = (focusGap + focusWidth) * s
            Draw.fillRoundedRect(image, x: frame.minX - o, y: frame.minY - o, width: frame.width + 2 * o,
                                 height: frame.height + 2 * o, radius: radius + o,
                                 color: accent.multipliedAlpha(by: 0.55),
                                 ring: (inset: focusWidth * s, radius: radius + focusGap * s))
        }

        // Hint under the button.
        fonts.caption.drawCentered(hint, into: image, centerX: frame.midX,
                                   centerY: frame.maxY + 28 * s, color: secondaryColor)
    }

    // MARK: The presented card

    static let cardTitle = "A modal card"
    static let cardBody = "Focus stays here until it is dismissed."
    static let presentAnotherTitle = "Present another"
    static let closeTitle = "Close"
    /// "Present another": a tinted secondary button (accent text on a light accent fill).
    static let secondaryFill = Color(rgb: 0xE6F0FF)
    static let secondaryHover = Color(rgb: 0xD6E6FF)
    static let secondaryPressed = Color(rgb: 0xC2DAFF)
    static let disabledFill = Color(rgb: 0xE5E7EB)
    static let disabledText = Color(rgb: 0x9CA3AF)
    /// Card padding, button height, radius and gap, points.
    static let cardPadding = 16.0, cardButtonHeight = 36.0, cardButtonRadius = 8.0, cardButtonGap = 10.0
    static let presentAnotherWidth = 150.0, closeWidth = 88.0

    /// The width a row of both buttons needs, points: padding, Present another, gap, Close, padding.
    static let cardButtonRowWidth = 2 * cardPadding + presentAnotherWidth + cardButtonGap + closeWidth

    /// The card's two buttons in a card of `size` points, `cardPadding` from the card's edges.
    /// Side by side at the bottom right, Close rightmost, when the row fits the card's width
    /// (``cardButtonRowWidth``); otherwise stacked, each as wide as the card's content
    /// (`size.width − 2·cardPadding`), Close on top of Present another at the bottom — as
    /// libadwaita's AdwAlertDialog stacks its responses vertically when they do not fit side by side.
    static func cardButtonFrames(in size: Size) -> (presentAnother: Rect, close: Rect) {
        let bottom = size.height - cardPadding - cardButtonHeight
        guard size.width >= cardButtonRowWidth else {
            let w = max(0, size.width - 2 * cardPadding)
            let another = Rect(x: cardPadding, y: bottom, width: w, height: cardButtonHeight)
            let close = Rect(x: cardPadding, y: bottom - cardButtonGap - cardButtonHeight, width: w,
                             height: cardButtonHeight)
            return (another, close)
        }
        let close = Rect(x: size.width - cardPadding - closeWidth, y: bottom, width: closeWidth, height: cardButtonHeight)
        let another = Rect(x: close.minX - cardButtonGap - presentAnotherWidth, y: bottom, width: presentAnotherWidth,
                           height: cardButtonHeight)
        return (another, close)
    }

    /// The gap between the body text and the buttons, points.
    static let cardTextButtonGap = 16.0

    /// The card's preferred size at `width` points, points (its content's `preferredContentSize`):
    /// `width` wide and as tall as ``drawPresentedView(into:size:scale:fonts:presentAnother:close:fillsBackground:)``
    /// needs to show everything at that width — padding, the title, the body wrapped to the width,
    /// ``cardTextButtonGap``, the buttons (one row, or stacked when the row does not fit), padding —
    /// rounded up to a whole point. Measured with `fonts` (their scale's glyph metrics).
    static func cardPreferredSize(width: Double, fonts: FontSet) -> Size {
        let s = fonts.scale
        let bodyWidth = Int(((width - 2 * cardPadding) * s).rounded(.down))
        let lines = max(1, wrap(cardBody, font: fonts.body, maxWidth: bodyWidth).count)
        let titleBaseline = cardPadding + Double(fonts.label.ascent) / s
        let textBottom = titleBaseline + 22 + Double(lines - 1) * cardBodyLineHeight + Double(fonts.body.descent) / s
        let buttons = width >= cardButtonRowWidth ? cardButtonHeight : 2 * cardButtonHeight + cardButtonGap
        return Size(width: width, height: (textBottom + cardTextButtonGap + buttons + cardPadding).rounded(.up))
    }

    /// The body text's line pitch, points (15 pt text).
    static let cardBodyLineHeight = 20.0

    /// `text` broken into lines at spaces, each at most `maxWidth` pixels wide as `font` draws it
    /// (greedy, like a label's word wrap; a single word wider than a line stays whole on its own line).
    static func wrap(_ text: String, font: Font, maxWidth: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if line.isEmpty || font.width(of: candidate) <= maxWidth {
                line = candidate
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Draws the presented view's content into `image` of `size` points × `scale`: the white card
    /// (replacing every pixel; with `fillsBackground` false only the foreground, OVER the style's
    /// background colour already in `image`), its title (20 pt) and the body (15 pt, wrapped to the
    /// card's width) at the top left, and the buttons (``cardButtonFrames(in:)``) — "Present
    /// another" tinted (accent text on a light accent fill, darker when hovered or pressed), "Close"
    /// filled with the accent (pressed/hovered looks as the Present button), a focus ring around the
    /// focused one. The corner clip is applied by the host.
    static func drawPresentedView(into image: OpaquePointer, size: Size, scale s: Double, fonts: FontSet,
                                  presentAnother: ButtonAppearance = ButtonAppearance(), close: ButtonAppearance,
                                  fillsBackground: Bool = true) {
        let wpx = Int(pixman_image_get_width(image)), hpx = Int(pixman_image_get_height(image))
        if fillsBackground { Draw.fill(image, width: wpx, height: hpx, color: cardBackground) }
        let left = Int((cardPadding * s).rounded())
        let titleBaseline = Int((cardPadding * s).rounded()) + fonts.label.ascent
        fonts.label.draw(cardTitle, into: image, x: left, baseline: titleBaseline, color: cardText)
        // The body wraps within the card's padding (a label's word wrap), so no word is cut at the edge.
        let bodyWidth = Int(((size.width - 2 * cardPadding) * s).rounded(.down))
        var baseline = titleBaseline + Int((22 * s).rounded())
        for line in wrap(cardBody, font: fonts.body, maxWidth: bodyWidth) {
            fonts.body.draw(line, into: image, x: left, baseline: baseline, color: secondaryColor)
            baseline += Int((cardBodyLineHeight * s).rounded())
        }
        let frames = cardButtonFrames(in: size)
        let radius = cardButtonRadius * s
        let another = frames.presentAnother.scaled(by: s).snappedToPixels
        let tint = presentAnother.isPressed ? secondaryPressed : (presentAnother.isHovered ? secondaryHover : secondaryFill)
        Draw.fillRoundedRect(image, x: another.minX, y: another.minY, width: another.width, height: another.height,
                             radius: radius, color: tint)
        fonts.body.drawCentered(presentAnotherTitle, into: image, centerX: another.midX, centerY: another.midY,
                                color: accent)
        if presentAnother.showsFocusRing {
            let o = (focusGap + focusWidth) * s
            Draw.fillRoundedRect(image, x: another.minX - o, y: another.minY - o, width: another.width + 2 * o,
                                 height: another.height + 2 * o, radius: radius + o,
                                 color: accent.multipliedAlpha(by: 0.55),
                                 ring: (inset: focusWidth * s, radius: radius + focusGap * s))
        }
        let c = frames.close.scaled(by: s).snappedToPixels
        let fill = close.isPressed ? accentPressed : (close.isHovered ? accentHover : accent)
        Draw.fillRoundedRect(image, x: c.minX, y: c.minY, width: c.width, height: c.height, radius: radius, color: fill)
        fonts.body.drawCentered(closeTitle, into: image, centerX: c.midX, centerY: c.midY, color: buttonText)
        if close.showsFocusRing {
            let o = (focusGap + focusWidth) * s
            Draw.fillRoundedRect(image, x: c.minX - o, y: c.minY - o, width: c.width + 2 * o, height: c.height + 2 * o,
                                 radius: radius + o, color: accent.multipliedAlpha(by: 0.55),
                                 ring: (inset: focusWidth * s, radius: radius + focusGap * s))
        }
    }

    // MARK: Accessibility

    /// Identifiers of the demo's accessible elements (``AccessibilityElement/identifier``).
    enum Element {
        static let title = "title", subtitle = "subtitle", present = "present", hint = "hint"
        static let cardTitle = "card-title", cardBody = "card-body"
        static let presentAnother = "present-another", close = "close"
    }

    /// Where `text` drawn by `font` with its left edge at `x` and its baseline at `baseline` (buffer
    /// pixels) is, points at `scale`: its advance width and the font's ascent + descent.
    static func textFrame(_ text: String, font: Font, x: Int, baseline: Int, scale: Double) -> Rect {
        Rect(x: Double(x) / scale, y: Double(baseline - font.ascent) / scale,
             width: Double(font.width(of: text)) / scale, height: Double(font.ascent + font.descent) / scale)
    }

    /// `text` drawn by `font` centred on (`centerX`, `centerY`) (buffer pixels), points at `scale`.
    static func centeredTextFrame(_ text: String, font: Font, centerX: Double, centerY: Double, scale: Double) -> Rect {
        let w = Double(font.width(of: text)), h = Double(font.ascent + font.descent)
        return Rect(x: (centerX - w / 2) / scale, y: (centerY - h / 2) / scale, width: w / scale, height: h / scale)
    }

    /// The presenting view as assistive technology sees it (the frames are where
    /// ``drawPresentingView(into:size:scale:fonts:button:hint:)`` draws): the title as a heading,
    /// the subtitle, the Present button — focused, the only control, so keyboard focus is always
    /// on it while this view has it — and the hint.
    static func presentingAccessibility(size: Size, scale s: Double, fonts: FontSet, hint: String) -> AccessibilityElement {
        let left = Int((20 * s).rounded())
        let titleBaseline = Int((24 * s).rounded()) + fonts.title.ascent
        let subtitleBaseline = titleBaseline + Int((26 * s).rounded())
        let button = buttonFrame(in: Rect(size: size))
        let pixelButton = button.scaled(by: s).snappedToPixels
        return AccessibilityElement(identifier: "presenting", role: .group, label: title, frame: Rect(size: size),
                                    children: [
            .text(Element.title, title, frame: textFrame(title, font: fonts.title, x: left, baseline: titleBaseline, scale: s),
                  role: .heading),
            .text(Element.subtitle, subtitle,
                  frame: textFrame(subtitle, font: fonts.body, x: left, baseline: subtitleBaseline, scale: s)),
            .button(Element.present, label: buttonTitle, frame: button, isFocused: true),
            .text(Element.hint, hint, frame: centeredTextFrame(hint, font: fonts.caption, centerX: pixelButton.midX,
                                                               centerY: pixelButton.maxY + 28 * s, scale: s)),
        ])
    }

    /// A presented card as assistive technology sees it: a dialog named by its title and described
    /// by its body, with the title (a heading), the body text and its two buttons (frames where
    /// ``drawPresentedView(into:size:scale:fonts:presentAnother:close:fillsBackground:)`` draws
    /// them); `focused` is the focused button's identifier (nil: the card itself has focus).
    static func cardAccessibility(size: Size, scale s: Double, fonts: FontSet, focused: String?) -> AccessibilityElement {
        let left = Int((cardPadding * s).rounded())
        let titleBaseline = Int((cardPadding * s).rounded()) + fonts.label.ascent
        let bodyWidth = Int(((size.width - 2 * cardPadding) * s).rounded(.down))
        let lines = wrap(cardBody, font: fonts.body, maxWidth: bodyWidth)
        let firstBaseline = titleBaseline + Int((22 * s).rounded())
        let lastBaseline = firstBaseline + max(0, lines.count - 1) * Int((cardBodyLineHeight * s).rounded())
        let widest = lines.map { fonts.body.width(of: $0) }.max() ?? 0
        let body = Rect(x: Double(left) / s, y: Double(firstBaseline - fonts.body.ascent) / s, width: Double(widest) / s,
                        height: Double(lastBaseline + fonts.body.descent - (firstBaseline - fonts.body.ascent)) / s)
        let buttons = cardButtonFrames(in: size)
        return AccessibilityElement(identifier: "card", role: .dialog, label: cardTitle, description: cardBody,
                                    frame: Rect(size: size), children: [
            .text(Element.cardTitle, cardTitle,
                  frame: textFrame(cardTitle, font: fonts.label, x: left, baseline: titleBaseline, scale: s), role: .heading),
            .text(Element.cardBody, cardBody, frame: body),
            .button(Element.presentAnother, label: presentAnotherTitle, frame: buttons.presentAnother,
                    isFocused: focused == Element.presentAnother),
            .button(Element.close, label: closeTitle, frame: buttons.close, isFocused: focused == Element.close),
        ], labelledBy: Element.cardTitle, describedBy: Element.cardBody)
    }
}
