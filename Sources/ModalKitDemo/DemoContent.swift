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

    /// The words of both views, drawn fitted to their boxes: a title, subtitle, hint or button
    /// label wider than its box ends in "…" at a grapheme boundary, the card's body wraps at spaces
    /// (a longer word at grapheme clusters) and ends in "…" when the card has no room for all its
    /// lines. Their accessible labels stay whole (a screen reader reads what was cut); their
    /// accessible frames are the fitted text's.
    struct Texts: Equatable {
        var title = DemoLook.title, subtitle = DemoLook.subtitle, buttonTitle = DemoLook.buttonTitle
        var cardTitle = DemoLook.cardTitle, cardBody = DemoLook.cardBody
        var presentAnotherTitle = DemoLook.presentAnotherTitle, closeTitle = DemoLook.closeTitle
        /// The demo's own words (the constants of ``DemoLook``).
        static let standard = Texts()
    }

    /// The horizontal room a label has inside its button, points each side.
    static let buttonLabelInset = 12.0, cardButtonLabelInset = 8.0
    /// The presenting view's text margins, points: the header's from the left and right edges, the
    /// hint's from both edges.
    static let headerMargin = 20.0, hintMargin = 16.0

    /// Where the presenting view's text goes at `scale` in a view of `size` points, buffer pixels:
    /// each string fitted to its box (``Texts``).
    struct PresentingText {
        var left = 0, titleBaseline = 0, subtitleBaseline = 0
        var title = "", subtitle = "", buttonTitle = "", hint = ""
        /// The Present button's frame, buffer pixels (snapped).
        var button = Rect.zero

        init(size: Size, scale s: Double, fonts: FontSet, texts: Texts, hint: String) {
            left = Int((headerMargin * s).rounded())
            let width = Int((size.width * s).rounded(.down))
            titleBaseline = Int((24 * s).rounded()) + fonts.title.ascent
            subtitleBaseline = titleBaseline + Int((26 * s).rounded())
            title = fonts.title.truncated(texts.title, toWidth: width - 2 * left)
            subtitle = fonts.body.truncated(texts.subtitle, toWidth: width - 2 * left)
            button = buttonFrame(in: Rect(size: size)).scaled(by: s).snappedToPixels
            buttonTitle = fonts.button.truncated(texts.buttonTitle,
                                                 toWidth: Int(button.width) - 2 * Int((buttonLabelInset * s).rounded()))
            self.hint = fonts.caption.truncated(hint, toWidth: width - 2 * Int((hintMargin * s).rounded()))
        }
    }

    /// Button size and corner radius, points.
    static let buttonSize = Size(width: 176, height: 50)
    static let buttonRadius = 12.0
    /// Focus ring: gap outside the button and ring width, points.
    static let focusGap = 3.0, focusWidth = 2.5
    /// The button's soft shadow reaches this far outside the button, points: its largest layer is
    /// grown by 6 pt and moved 3 pt down (``drawPresentingView(into:size:scale:fonts:button:hint:texts:)``).
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
    /// is asked for after the background and the button's shadow and fill are drawn (a window's
    /// first frame draws them while the fonts finish loading: ``FontBox``). The pixels are those of
    /// drawing in the order background, title, subtitle, button, label, focus ring, hint: the
    /// button comes before the header's text only where no pixel of that text is in the rows the
    /// button's shadow and fill touch, else the header and button are drawn again in that order.
    /// - Parameter buttonFirst: false draws in that order at once (the tests' reference).
    static func drawPresentingView(into image: OpaquePointer, size: Size, scale: Double, fonts: @autoclosure () -> FontSet,
                                   button: ButtonAppearance, hint: String, texts: Texts = .standard,
                                   buttonFirst: Bool = true) {
        let s = scale
        let wpx = Int(pixman_image_get_width(image)), hpx = Int(pixman_image_get_height(image))
        Draw.verticalGradient(image, width: wpx, height: hpx, top: backgroundTop, bottom: backgroundBottom)

        // The button: soft shadow, fill, label, focus ring; its edges on whole pixels.
        let bounds = Rect(size: size)
        let frame = buttonFrame(in: bounds).scaled(by: scale).snappedToPixels
        let radius = buttonRadius * s
        func drawButtonBody() {
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
        }
        if buttonFirst { drawButtonBody() }
        let fonts = fonts()
        let text = PresentingText(size: size, scale: s, fonts: fonts, texts: texts, hint: hint)

        // Header: large title and subtitle, 20 pt from the left, like a UIKit large-title navigation bar.
        func drawHeader() {
            fonts.title.draw(text.title, into: image, x: text.left, baseline: text.titleBaseline, color: titleColor)
            fonts.body.draw(text.subtitle, into: image, x: text.left, baseline: text.subtitleBaseline, color: secondaryColor)
        }
        if !buttonFirst {
            drawHeader()
            drawButtonBody()
        } else {
            // The first row the shadow (grown 6 pt, moved 3 pt down) or the fill can touch, and the
            // row after the header's lowest ink.
            let bodyTop = Int((frame.minY - (button.isPressed ? 0 : 3 * s)).rounded(.down)) - 1
            let inkEnd = max(inkBottom(fonts.title, text.title, baseline: text.titleBaseline),
                             inkBottom(fonts.body, text.subtitle, baseline: text.subtitleBaseline))
            if inkEnd <= bodyTop {
                drawHeader()
            } else {
                Draw.verticalGradient(image, width: wpx, height: hpx, top: backgroundTop, bottom: backgroundBottom)
                drawHeader()
                drawButtonBody()
            }
        }
        fonts.button.drawCentered(text.buttonTitle, into: image, centerX: frame.midX, centerY: frame.midY,
                                  color: buttonText)
        if button.showsFocusRing {
            let o = (focusGap + focusWidth) * s
            Draw.fillRoundedRect(image, x: frame.minX - o, y: frame.minY - o, width: frame.width + 2 * o,
                                 height: frame.height + 2 * o, radius: radius + o,
                                 color: accent.multipliedAlpha(by: 0.55),
                                 ring: (inset: focusWidth * s, radius: radius + focusGap * s))
        }

        // Hint under the button.
        fonts.caption.drawCentered(text.hint, into: image, centerX: frame.midX,
                                   centerY: frame.maxY + 28 * s, color: secondaryColor)
    }

    /// The row below the lowest pixel `text`'s glyphs ink when drawn on `baseline` (buffer pixels);
    /// `Int.min` for no ink.
    private static func inkBottom(_ font: Font, _ text: String, baseline: Int) -> Int {
        font.font.inkBottom(of: text).map { baseline + $0 } ?? Int.min
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
    /// `width` wide and as tall as ``drawPresentedView(into:size:scale:fonts:presentAnother:close:fillsBackground:texts:)``
    /// needs to show everything at that width — padding, the title, the body wrapped to the width,
    /// ``cardTextButtonGap``, the buttons (one row, or stacked when the row does not fit), padding —
    /// rounded up to a whole point. Measured with `fonts` (their scale's glyph metrics).
    static func cardPreferredSize(width: Double, fonts: FontSet, texts: Texts = .standard) -> Size {
        let s = fonts.scale
        let bodyWidth = Int(((width - 2 * cardPadding) * s).rounded(.down))
        let lines = max(1, fonts.body.wrapped(texts.cardBody, toWidth: bodyWidth).count)
        let titleBaseline = cardPadding + Double(fonts.label.ascent) / s
        let textBottom = titleBaseline + 22 + Double(lines - 1) * cardBodyLineHeight + Double(fonts.body.descent) / s
        let buttons = width >= cardButtonRowWidth ? cardButtonHeight : 2 * cardButtonHeight + cardButtonGap
        return Size(width: width, height: (textBottom + cardTextButtonGap + buttons + cardPadding).rounded(.up))
    }

    /// The body text's line pitch, points (15 pt text).
    static let cardBodyLineHeight = 20.0

    /// Where a card's text goes at `scale` in a card of `size` points, buffer pixels: the title
    /// fitted to the content width, the body wrapped to it (as many lines as fit above the buttons,
    /// ``cardTextButtonGap`` clear of them; at least one), each button's label fitted inside it.
    struct CardText {
        var left = 0, titleBaseline = 0, firstBaseline = 0, linePitch = 0, contentWidth = 0
        var title = "", lines: [String] = [], presentAnother = "", close = ""

        init(size: Size, scale s: Double, fonts: FontSet, texts: Texts) {
            left = Int((cardPadding * s).rounded())
            contentWidth = Int(((size.width - 2 * cardPadding) * s).rounded(.down))
            titleBaseline = Int((cardPadding * s).rounded()) + fonts.label.ascent
            title = fonts.label.truncated(texts.cardTitle, toWidth: contentWidth)
            firstBaseline = titleBaseline + Int((22 * s).rounded())
            linePitch = Int((cardBodyLineHeight * s).rounded())
            let frames = cardButtonFrames(in: size)
            let buttonsTop = Int((min(frames.presentAnother.minY, frames.close.minY) * s).rounded())
            let room = buttonsTop - Int((cardTextButtonGap * s).rounded()) - fonts.body.descent - firstBaseline
            let maximumLines = max(1, 1 + (linePitch > 0 ? room / linePitch : 0))
            lines = fonts.body.wrapped(texts.cardBody, toWidth: contentWidth, maximumLines: maximumLines)
            let another = frames.presentAnother.scaled(by: s).snappedToPixels
            let closeFrame = frames.close.scaled(by: s).snappedToPixels
            let inset = 2 * Int((cardButtonLabelInset * s).rounded())
            presentAnother = fonts.body.truncated(texts.presentAnotherTitle, toWidth: Int(another.width) - inset)
            close = fonts.body.truncated(texts.closeTitle, toWidth: Int(closeFrame.width) - inset)
        }
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
                                  fillsBackground: Bool = true, texts: Texts = .standard) {
        let wpx = Int(pixman_image_get_width(image)), hpx = Int(pixman_image_get_height(image))
        if fillsBackground { Draw.fill(image, width: wpx, height: hpx, color: cardBackground) }
        let text = CardText(size: size, scale: s, fonts: fonts, texts: texts)
        fonts.label.draw(text.title, into: image, x: text.left, baseline: text.titleBaseline, color: cardText)
        // The body wraps within the card's padding (a label's word wrap), so no word is cut at the edge.
        var baseline = text.firstBaseline
        for line in text.lines {
            fonts.body.draw(line, into: image, x: text.left, baseline: baseline, color: secondaryColor)
            baseline += text.linePitch
        }
        let frames = cardButtonFrames(in: size)
        let radius = cardButtonRadius * s
        let another = frames.presentAnother.scaled(by: s).snappedToPixels
        let tint = presentAnother.isPressed ? secondaryPressed : (presentAnother.isHovered ? secondaryHover : secondaryFill)
        Draw.fillRoundedRect(image, x: another.minX, y: another.minY, width: another.width, height: another.height,
                             radius: radius, color: tint)
        fonts.body.drawCentered(text.presentAnother, into: image, centerX: another.midX, centerY: another.midY,
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
        fonts.body.drawCentered(text.close, into: image, centerX: c.midX, centerY: c.midY, color: buttonText)
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
    /// ``drawPresentingView(into:size:scale:fonts:button:hint:texts:)`` draws): the title as a heading,
    /// the subtitle, the Present button — focused, the only control, so keyboard focus is always
    /// on it while this view has it — and the hint.
    static func presentingAccessibility(size: Size, scale s: Double, fonts: FontSet, hint: String,
                                        texts: Texts = .standard) -> AccessibilityElement {
        let text = PresentingText(size: size, scale: s, fonts: fonts, texts: texts, hint: hint)
        let button = buttonFrame(in: Rect(size: size))
        return AccessibilityElement(identifier: "presenting", role: .group, label: texts.title, frame: Rect(size: size),
                                    children: [
            .text(Element.title, texts.title,
                  frame: textFrame(text.title, font: fonts.title, x: text.left, baseline: text.titleBaseline, scale: s),
                  role: .heading),
            .text(Element.subtitle, texts.subtitle,
                  frame: textFrame(text.subtitle, font: fonts.body, x: text.left, baseline: text.subtitleBaseline, scale: s)),
            .button(Element.present, label: texts.buttonTitle, frame: button, isFocused: true),
            .text(Element.hint, hint, frame: centeredTextFrame(text.hint, font: fonts.caption, centerX: text.button.midX,
                                                               centerY: text.button.maxY + 28 * s, scale: s)),
        ])
    }

    /// A presented card as assistive technology sees it: a dialog named by its title and described
    /// by its body, with the title (a heading), the body text and its two buttons (frames where
    /// ``drawPresentedView(into:size:scale:fonts:presentAnother:close:fillsBackground:texts:)`` draws
    /// them); `focused` is the focused button's identifier (nil: the card itself has focus).
    static func cardAccessibility(size: Size, scale s: Double, fonts: FontSet, focused: String?,
                                  texts: Texts = .standard) -> AccessibilityElement {
        let text = CardText(size: size, scale: s, fonts: fonts, texts: texts)
        let lastBaseline = text.firstBaseline + max(0, text.lines.count - 1) * text.linePitch
        let widest = text.lines.map { fonts.body.width(of: $0) }.max() ?? 0
        let top = text.firstBaseline - fonts.body.ascent
        let body = Rect(x: Double(text.left) / s, y: Double(top) / s, width: Double(widest) / s,
                        height: Double(lastBaseline + fonts.body.descent - top) / s)
        let buttons = cardButtonFrames(in: size)
        return AccessibilityElement(identifier: "card", role: .dialog, label: texts.cardTitle, description: texts.cardBody,
                                    frame: Rect(size: size), children: [
            .text(Element.cardTitle, texts.cardTitle,
                  frame: textFrame(text.title, font: fonts.label, x: text.left, baseline: text.titleBaseline, scale: s),
                  role: .heading),
            .text(Element.cardBody, texts.cardBody, frame: body),
            .button(Element.presentAnother, label: texts.presentAnotherTitle, frame: buttons.presentAnother,
                    isFocused: focused == Element.presentAnother),
            .button(Element.close, label: texts.closeTitle, frame: buttons.close, isFocused: focused == Element.close),
        ], labelledBy: Element.cardTitle, describedBy: Element.cardBody)
    }
}
