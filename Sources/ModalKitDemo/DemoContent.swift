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
}
