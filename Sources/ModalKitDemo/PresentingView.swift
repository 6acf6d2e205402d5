import ModalKit

/// The scene's fonts, shared by both contents and replaced when the scale changes; loaded, or
/// loading on a thread (``SceneFontLoad``) and waited for at their first use.
final class FontBox {
    private var loaded: FontSet?
    private var loading: SceneFontLoad?
    private let onFailure: ((Error) -> Never)?

    init(_ set: FontSet) {
        loaded = set
        onFailure = nil
    }

    init(loading: SceneFontLoad, onFailure: @escaping (Error) -> Never) {
        self.loading = loading
        self.onFailure = onFailure
    }

    /// The scale the fonts are for, without waiting for them (a load is at scale 1).
    var scale: Double { loaded?.scale ?? 1 }

    /// The fonts: waits for the load the first time (a failure ends the program: `onFailure`).
    var set: FontSet {
        get {
            if let loaded { return loaded }
            do {
                let set = try loading!.wait(onLabelFailure: onFailure!)
                loaded = set
                loading = nil
                return set
            } catch {
                onFailure!(error)
            }
        }
        set {
            loading = nil
            loaded = newValue
        }
    }

    /// A set at `scale`. A load not waited for is cancelled first (its fonts are at scale 1); fcft
    /// makes fonts on several threads at once (the load may still be making the card's title font).
    func makeSet(scale: Double) throws -> FontSet {
        loading?.cancel()
        return try FontSet(scale: scale)
    }
}

/// Whether focus rings show (after keyboard use, hidden by a press: `:focus-visible`).
final class FocusVisibility {
    private(set) var isVisible = false
    func set(_ v: Bool, presenting: PresentingView, cards: [CardView]) {
        guard v != isVisible else { return }
        isVisible = v
        presenting.focusVisibilityChanged()
        for card in cards { card.focusVisibilityChanged() }
    }
}

/// The presenting view: background, header, the Present button, the hint.
final class PresentingView: PresentationContent {
    private let fonts: FontBox
    private let focus: FocusVisibility
    var bounds = Rect(x: 0, y: 0, width: 1, height: 1)
    var hint = DemoLook.hint { didSet { if hint != oldValue { invalidation = .all } } }
    var onActivate: (Double) -> Void = { _ in }
    private(set) var invalidation: ContentInvalidation = .all
    private var hover: Point?
    private var pressPoint: Point?
    private var modal = false
    private var drawn: ButtonAppearance?

    init(fonts: FontBox, focus: FocusVisibility) { self.fonts = fonts; self.focus = focus }

    private var buttonFrame: Rect { DemoLook.buttonFrame(in: bounds) }

    func appearance(modal: Bool) -> ButtonAppearance {
        var a = ButtonAppearance()
        if !modal, pressPoint == nil, let p = hover { a.isHovered = buttonFrame.contains(p) }
        if !modal, let p = pressPoint {
            a.isPressed = buttonFrame.contains(p)
            a.isHovered = a.isPressed
        }
        a.showsFocusRing = focus.isVisible && !modal
        return a
    }

    func invalidateAll() { invalidation = .all }
    func didLayout(size: Size) { bounds = Rect(size: size) }
    func focusVisibilityChanged() { buttonChanged() }
    /// Whether a modal layer covers this view (its button shows no hover, press or focus ring).
    func setModal(_ m: Bool) {
        modal = m
        buttonChanged()
    }

    private func buttonChanged() {
        guard appearance(modal: modal) != drawn, invalidation == .none else { return }
        invalidation = .area(DemoLook.buttonOuterFrame(in: bounds, scale: drawnScale))
    }
    /// The scale of the last draw (a new scale redraws everything: the scene invalidates all).
    private var drawnScale = 1.0

    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        drawnScale = scale
        let a = appearance(modal: modal)
        DemoLook.drawPresentingView(into: image, size: size, scale: scale, fonts: fonts.set, button: a, hint: hint)
        drawn = a
        invalidation = .none
    }

    func handle(_ input: ContentInput, now: Double) -> Bool {
        switch input {
        case let .hover(p):
            // hover(nil) is also how the host says a modal layer covers this view.
            hover = p
        case let .press(p):
            pressPoint = buttonFrame.contains(p) ? p : nil
            if pressPoint == nil { pressed = false } else { pressed = true }
        case let .drag(p):
            if pressed { pressPoint = p }
        case let .release(p):
            let tap = pressed && buttonFrame.contains(p)
            pressed = false
            pressPoint = nil
            hover = p
            if tap { onActivate(now) }
        case .cancel:
            pressed = false
            pressPoint = nil
        case .scroll, .textInput, .editText:
            return false   // nothing on it scrolls or takes text
        case let .key(key):
            if key == .activate { onActivate(now) }
        case .keyboard:
            return false  // its meaning (.key) is enough
        case let .focus(element):
            // Focus is always on the Present button while this view has it.
            guard element == nil || element == DemoLook.Element.present else { return false }
        case let .activate(element):
            guard element == DemoLook.Element.present else { return false }
            onActivate(now)
        }
        buttonChanged()
        return true
    }
    private var pressed = false

    var accessibilityElement: AccessibilityElement? {
        DemoLook.presentingAccessibility(size: bounds.size, scale: fonts.set.scale, fonts: fonts.set, hint: hint)
    }
}
