import CModalKitPixman
import ModalKit
import ModalKitContent

/// The presented card's look, made of ModalKitContent's pieces: a `Label` for its title, one for
/// its wrapped body, and a `Button` each for "Present another" and "Close".
extension DemoLook {
    static let cardTitle = "A modal card"
    static let cardBody = "Focus stays here until it is dismissed."
    static let presentAnotherTitle = "Present another"
    static let closeTitle = "Close"
    /// "Present another": a tinted secondary button (accent text on a light accent fill).
    static let secondaryFill = Color(rgb: 0xE6F0FF)
    static let secondaryHover = Color(rgb: 0xD6E6FF)
    static let secondaryPressed = Color(rgb: 0xC2DAFF)
    /// Card padding, button height, radius and gap, points.
    static let cardPadding = 16.0, cardButtonHeight = 36.0, cardButtonRadius = 8.0, cardButtonGap = 10.0
    static let presentAnotherWidth = 150.0, closeWidth = 88.0

    /// The card's title: 20 pt regular (`FontSet.labelPoints`) in the card's text colour.
    static let cardTitleStyle = TextStyle(points: Double(FontSet.labelPoints), color: cardText)
    /// The card's body: 15 pt regular (`FontSet.bodyPoints`), grey.
    static let cardBodyStyle = TextStyle(points: Double(FontSet.bodyPoints), color: secondaryColor)

    /// A card button's look: 15 pt regular label, 8 pt corners, 8 pt beside the label, edges on
    /// whole pixels, and the Present button's focus ring (3 pt gap, 2.5 pt wide, the accent at 55 %).
    private static func cardButtonStyle(fill: Color, hovered: Color, pressed: Color, text: Color) -> ButtonStyle {
        ButtonStyle(fill: fill, hoveredFill: hovered, pressedFill: pressed,
                    label: TextStyle(points: Double(FontSet.bodyPoints), color: text), cornerRadius: cardButtonRadius,
                    labelInset: cardButtonLabelInset, focusRingGap: focusGap, focusRingWidth: focusWidth,
                    focusRingColor: accent.multipliedAlpha(by: 0.55), snapsToPixels: true)
    }
    /// "Present another": accent text on the light accent tint, darker when hovered or pressed.
    static let presentAnotherStyle = cardButtonStyle(fill: secondaryFill, hovered: secondaryHover, pressed: secondaryPressed,
                                                     text: accent)
    /// "Close": white text on the accent, as the Present button's fills when hovered or pressed.
    static let closeStyle = cardButtonStyle(fill: accent, hovered: accentHover, pressed: accentPressed, text: buttonText)

    /// The width a row of both buttons needs, points: padding, Present another, gap, Close, padding.
    static let cardButtonRowWidth = 2 * cardPadding + presentAnotherWidth + cardButtonGap + closeWidth

    /// The card's two buttons in a card of `size` points, `cardPadding` from the card's edges.
    /// Side by side at the bottom right, Close rightmost, when the row fits the card's width
    /// (``cardButtonRowWidth``); otherwise stacked (a `VStack`), each as wide as the card's content
    /// (`size.width − 2·cardPadding`), Close on top of Present another at the bottom — as
    /// libadwaita's AdwAlertDialog stacks its responses vertically when they do not fit side by side.
    static func cardButtonFrames(in size: Size) -> (presentAnother: Rect, close: Rect) {
        let bottom = size.height - cardPadding - cardButtonHeight
        guard size.width >= cardButtonRowWidth else {
            let column = Rect(x: cardPadding, y: bottom - cardButtonGap - cardButtonHeight,
                              width: max(0, size.width - 2 * cardPadding), height: 0)
            let stacked = VStack(spacing: cardButtonGap).frames(heights: [cardButtonHeight, cardButtonHeight], in: column)
            return (stacked[1], stacked[0])
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

    /// A card's pieces and where they go at `scale` in a card of `size` points: the title label
    /// (one line, fitted to the content width) with its first box at the padding, the body label
    /// wrapped to the content width, its first baseline 22 pt under the title's (whole pixels) and
    /// as many lines as fit above the buttons, ``cardTextButtonGap`` clear of them (at least one),
    /// and the two buttons; with the text they draw, buffer pixels.
    struct CardText {
        var left = 0, titleBaseline = 0, firstBaseline = 0, linePitch = 0, contentWidth = 0
        var title = "", lines: [String] = [], presentAnother = "", close = ""
        let titleLabel: Label, bodyLabel: Label
        /// The labels' frames, points (the body's top is its first line's box top, in whole pixels).
        let titleFrame: Rect, bodyFrame: Rect
        let presentAnotherButton: Button, closeButton: Button
        let buttonFrames: (presentAnother: Rect, close: Rect)

        init(size: Size, scale s: Double, fonts: FontSet, texts: Texts) {
            left = Int((cardPadding * s).rounded())
            let width = size.width - 2 * cardPadding
            contentWidth = Int((width * s).rounded(.down))
            titleBaseline = Int((cardPadding * s).rounded()) + fonts.label.ascent
            firstBaseline = titleBaseline + Int((22 * s).rounded())
            linePitch = Int((cardBodyLineHeight * s).rounded())
            buttonFrames = cardButtonFrames(in: size)
            let buttonsTop = Int((min(buttonFrames.presentAnother.minY, buttonFrames.close.minY) * s).rounded())
            let room = buttonsTop - Int((cardTextButtonGap * s).rounded()) - fonts.body.descent - firstBaseline
            let maximumLines = max(1, 1 + (linePitch > 0 ? room / linePitch : 0))
            titleLabel = Label(texts.cardTitle, style: cardTitleStyle, maximumLines: 1)
            titleFrame = Rect(x: cardPadding, y: cardPadding, width: width, height: Double(fonts.label.ascent + fonts.label.descent) / s)
            bodyLabel = Label(texts.cardBody, style: cardBodyStyle, maximumLines: maximumLines, lineHeight: cardBodyLineHeight)
            let bodyTop = firstBaseline - fonts.body.ascent
            lines = bodyLabel.lines(in: Rect(x: cardPadding, y: Double(bodyTop) / s, width: width, height: 0), scale: s).map(\.text)
            bodyFrame = Rect(x: cardPadding, y: Double(bodyTop) / s, width: width,
                             height: Double(max(0, lines.count - 1) * linePitch + fonts.body.ascent + fonts.body.descent) / s)
            title = titleLabel.lines(in: titleFrame, scale: s).first?.text ?? ""
            presentAnotherButton = Button(texts.presentAnotherTitle, style: presentAnotherStyle)
            closeButton = Button(texts.closeTitle, style: closeStyle)
            presentAnother = presentAnotherButton.fittedTitle(in: buttonFrames.presentAnother, scale: s)
            close = closeButton.fittedTitle(in: buttonFrames.close, scale: s)
        }
    }

    /// Draws the presented view's content into `image` of `size` points × `scale`: the white card
    /// (replacing every pixel; with `fillsBackground` false only the foreground, OVER the style's
    /// background colour already in `image`), its title (20 pt) and the body (15 pt, wrapped to the
    /// card's width) at the top left, and the buttons (``cardButtonFrames(in:)``) — "Present
    /// another" tinted (accent text on a light accent fill, darker when hovered or pressed), "Close"
    /// filled with the accent (pressed/hovered looks as the Present button), a focus ring around the
    /// focused one (``CardText``'s pieces). The corner clip is applied by the host.
    static func drawPresentedView(into image: OpaquePointer, size: Size, scale s: Double, fonts: FontSet,
                                  presentAnother: ButtonAppearance = ButtonAppearance(), close: ButtonAppearance,
                                  fillsBackground: Bool = true, texts: Texts = .standard) {
        let wpx = Int(pixman_image_get_width(image)), hpx = Int(pixman_image_get_height(image))
        if fillsBackground { Draw.fill(image, width: wpx, height: hpx, color: cardBackground) }
        let card = CardText(size: size, scale: s, fonts: fonts, texts: texts)
        card.titleLabel.draw(into: image, frame: card.titleFrame, scale: s)
        card.bodyLabel.draw(into: image, frame: card.bodyFrame, scale: s)
        for (button, frame, look) in [(card.presentAnotherButton, card.buttonFrames.presentAnother, presentAnother),
                                      (card.closeButton, card.buttonFrames.close, close)] {
            button.draw(into: image, frame: frame, scale: s, isHovered: look.isHovered, isPressed: look.isPressed,
                        isFocused: look.showsFocusRing)
        }
    }

    /// A presented card as assistive technology sees it: a dialog named by its title and described
    /// by its body, with the title (a heading), the body text and its two buttons (frames where
    /// ``drawPresentedView(into:size:scale:fonts:presentAnother:close:fillsBackground:texts:)`` draws
    /// them); `focused` is the focused button's identifier (nil: the card itself has focus).
    static func cardAccessibility(size: Size, scale s: Double, fonts: FontSet, focused: String?,
                                  texts: Texts = .standard) -> AccessibilityElement {
        let card = CardText(size: size, scale: s, fonts: fonts, texts: texts)
        let widest = card.lines.map { fonts.body.width(of: $0) }.max() ?? 0
        let body = Rect(x: Double(card.left) / s, y: card.bodyFrame.minY, width: Double(widest) / s, height: card.bodyFrame.height)
        return AccessibilityElement(identifier: "card", role: .dialog, label: texts.cardTitle, description: texts.cardBody,
                                    frame: Rect(size: size), children: [
            .text(Element.cardTitle, texts.cardTitle,
                  frame: textFrame(card.title, font: fonts.label, x: card.left, baseline: card.titleBaseline, scale: s),
                  role: .heading),
            .text(Element.cardBody, texts.cardBody, frame: body),
            card.presentAnotherButton.accessibilityElement(identifier: Element.presentAnother, frame: card.buttonFrames.presentAnother,
                                                           isFocused: focused == Element.presentAnother),
            card.closeButton.accessibilityElement(identifier: Element.close, frame: card.buttonFrames.close,
                                                  isFocused: focused == Element.close),
        ], labelledBy: Element.cardTitle, describedBy: Element.cardBody)
    }
}

/// A presented card: its title, body, "Present another" and "Close" (``DemoLook/CardText``'s pieces),
/// their hover, pressed and focus states, Tab order and taps.
final class CardView: PresentationContent {
    private let fonts: FontBox
    private let focus: FocusVisibility
    var onClose: (Double) -> Void = { _ in }
    var onPresentAnother: (Double) -> Void = { _ in }
    private(set) var invalidation: ContentInvalidation = .all
    private var size = Size(width: 1, height: 1)
    private var hover: Point?
    private var pressPoint: Point?
    private var pressed: Control?
    private var drawn: (ButtonAppearance, ButtonAppearance)?

    /// The focusable controls in Tab order; focus is on `focusIndex` of them.
    private enum Control { case presentAnother, close }
    private let enabledControls: [Control] = [.presentAnother, .close]
    /// nil: the card itself has focus (as a presentation starts — so a repeated Return that
    /// presented it cannot close it at once); Tab / Shift-Tab, and the arrow keys (Down / Right
    /// as Tab, Up / Left as Shift-Tab), then move among `enabledControls`.
    private var focusIndex: Int?
    /// Printable keys typed on the card (``KeyInput/typedText``), as the scene's ``DemoScene/onTyped``.
    var onTyped: (String) -> Void = { _ in }
    var arrowKeysMoveFocus: Bool { true }

    init(fonts: FontBox, focus: FocusVisibility) { self.fonts = fonts; self.focus = focus }

    private var closeFrame: Rect { DemoLook.cardButtonFrames(in: size).close }
    private func frame(of control: Control) -> Rect {
        let f = DemoLook.cardButtonFrames(in: size)
        return control == .close ? f.close : f.presentAnother
    }

    private func appearance(of control: Control) -> ButtonAppearance {
        var a = ButtonAppearance()
        let r = frame(of: control)
        if pressPoint == nil, let p = hover { a.isHovered = r.contains(p) }
        if pressed == control, let p = pressPoint {
            a.isPressed = r.contains(p)
            a.isHovered = a.isPressed
        }
        a.showsFocusRing = focus.isVisible && !covered && focusIndex.map { enabledControls[$0] } == control
        return a
    }

    /// Whether a card presented over this one covers it (its focus ring hides, as the Present
    /// button's does under a card; its focus stays where it is for when it is in front again).
    private var covered = false
    func setCovered(_ c: Bool) {
        covered = c
        changed()
    }
    /// Close's look.
    var appearance: ButtonAppearance { appearance(of: .close) }
    /// Present another's look.
    var presentAnotherAppearance: ButtonAppearance { appearance(of: .presentAnother) }

    func resetFocus() {
        focusIndex = nil
        hover = nil
        pressPoint = nil
        pressed = nil
        changed()
    }
    /// Whether the card paints its white background (false: the style's chrome fills it).
    var fillsBackground = true {
        didSet { if fillsBackground != oldValue { invalidation = .all } }
    }
    func invalidateAll() { invalidation = .all }
    func didLayout(size: Size) {
        if size != self.size { invalidation = .all }
        self.size = size
    }
    /// As tall as its title, wrapped body and buttons need at `width` (``DemoLook/cardPreferredSize(width:fonts:)``).
    func preferredContentSize(fittingWidth width: Double) -> Size? {
        DemoLook.cardPreferredSize(width: width, fonts: fonts.set)
    }
    func focusVisibilityChanged() { changed() }
    private func changed() {
        if drawn.map({ $0 != (presentAnotherAppearance, appearance) }) ?? true { invalidation = .all }
    }

    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let a = (presentAnotherAppearance, appearance)
        DemoLook.drawPresentedView(into: image, size: size, scale: scale, fonts: fonts.set, presentAnother: a.0,
                                   close: a.1, fillsBackground: fillsBackground)
        drawn = a
        invalidation = .none
    }

    func handle(_ input: ContentInput, now: Double) -> Bool {
        var used = true
        switch input {
        case let .hover(p):
            hover = p
        case let .press(p):
            pressed = enabledControls.first { frame(of: $0).contains(p) }
            pressPoint = pressed == nil ? nil : p
            used = pressed != nil  // a press on the card elsewhere does nothing
        case let .drag(p):
            if pressed != nil { pressPoint = p }
        case let .release(p):
            let tapped = pressed.flatMap { frame(of: $0).contains(p) ? $0 : nil }
            pressed = nil
            pressPoint = nil
            hover = p
            if let c = tapped {
                // A tapped control takes focus (so it gets it back after the card it presents).
                focusIndex = enabledControls.firstIndex(of: c)
                activate(c, now: now)
            }
        case .cancel:
            pressed = nil
            pressPoint = nil
        case .scroll, .textInput, .editText:
            return false   // nothing on the card scrolls or takes text
        case let .key(key):
            switch key {
            case .tab: focusIndex = focusIndex.map { ($0 + 1) % enabledControls.count } ?? 0
            case .backTab:
                let n = enabledControls.count
                focusIndex = focusIndex.map { ($0 + n - 1) % n } ?? n - 1
            case .activate: if let i = focusIndex { activate(enabledControls[i], now: now) }
            case .escape: used = false  // the host dismisses
            }
        case let .keyboard(k):
            // Printable keys are typing (space too); everything else has its meaning (.key).
            let text = k.typedText
            guard !text.isEmpty else { return false }
            onTyped(text)
            return true
        case let .focus(element):
            // nil: the card itself (as a presentation starts); else one of its controls.
            if let element {
                guard let c = control(element) else { return false }
                focusIndex = enabledControls.firstIndex(of: c)
            } else {
                focusIndex = nil
            }
        case let .activate(element):
            // As a tap on the control: it takes focus, then acts.
            guard let c = control(element) else { return false }
            focusIndex = enabledControls.firstIndex(of: c)
            activate(c, now: now)
        }
        changed()
        return used
    }

    private func control(_ identifier: String) -> Control? {
        switch identifier {
        case DemoLook.Element.presentAnother: return .presentAnother
        case DemoLook.Element.close: return .close
        default: return nil
        }
    }

    var accessibilityElement: AccessibilityElement? {
        let focused = focusIndex.map { enabledControls[$0] == .close ? DemoLook.Element.close : DemoLook.Element.presentAnother }
        return DemoLook.cardAccessibility(size: size, scale: fonts.set.scale, fonts: fonts.set, focused: focused)
    }

    private func activate(_ control: Control, now: Double) {
        switch control {
        case .close: onClose(now)
        case .presentAnother: onPresentAnother(now)
        }
    }
}
