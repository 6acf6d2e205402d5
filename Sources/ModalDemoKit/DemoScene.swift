import CPixman
import ModalKit
import Foundation

/// A key the scene reacts to (the window maps keysyms to these): ModalKit's ``PresentationKey``.
public typealias SceneKey = PresentationKey

/// Input delivered to the scene, surface-local points: ModalKit's ``PresentationInput``.
public typealias SceneInput = PresentationInput

/// What the scene reports, in order, as it happens (`modal-demo --log-events` prints the raw value).
public enum SceneEvent: String, Hashable, Sendable {
    case presenting, presented, dismissing, dismissed
    /// The Present button was activated (click, tap, Return or space).
    case activated
    /// The card's Close button was activated (click, tap, Return or space); a dismissal follows.
    case close
    /// The presentation reached ``DemoScene/pauseFraction`` and stands still there (`--pause-at`).
    case paused
}

/// The element with keyboard focus.
public enum SceneFocus: Hashable, Sendable {
    /// The Present button on the presenting view (when nothing is presented).
    case presentButton
    /// The presented card (focus is trapped there from the start of a presentation until its
    /// dismissal completes; first on the card itself, Tab moves it to Close — its only enabled control).
    case presentedView
}

/// The demo's whole window content, an app on ModalKit's ``PresentationHost``: the presenting view
/// (background, title "ModalKit", centred "Present" button with hover/pressed/focused looks, a hint)
/// and the presented view (a white card with a title, a wrapped body text, a disabled "Present another"
/// button and a "Close" button), presented with one style.
///
/// Units: geometry in points; `render` writes buffer pixels = points × `scale`, premultiplied ARGB
/// (the host's rules: ``PresentationSnapshot/layerFrame(scale:)``). Time: every entry point takes
/// `now`, seconds of `CLOCK_MONOTONIC`; the scene never reads a clock.
///
/// Input: the host's routing (``PresentationHost``). Within the card, focus starts on the card
/// itself; Tab / Shift-Tab move it among the enabled controls (only Close while stacking does not
/// exist; "Present another" is drawn disabled and never focused), Return/space activate
/// the focused one, pointer and touch taps on Close dismiss; a tap elsewhere on the card does
/// nothing. The focus ring shows after keyboard use and hides on a press (`:focus-visible`).
public final class DemoScene {
    /// The host presenting the card over the presenting view. Its times are the scene's clock,
    /// which is the caller's `now` except while paused (``pauseFraction``).
    public let host: PresentationHost
    /// The presentation style.
    public var style: any PresentationStyle { host.style }
    private let events: (SceneEvent) -> Void
    private let presentingView: PresentingView
    private let card: CardView

    /// Container size in points and the scale (buffer pixels per point) of the last `layout`.
    public var containerSize: Size { host.containerSize }
    public var scale: Double { host.scale }
    /// The buffer size `render` draws: ``containerSize`` at ``scale``, each side ``pixelLength(_:scale:)``.
    public var pixelSize: (width: Int, height: Int) { host.pixelSize }

    /// Creates the scene for `style`.
    /// - Parameters:
    ///   - events: called synchronously, in order, for every state change and button activation.
    /// - Throws: `SceneError.fontUnavailable` when fontconfig/fcft cannot load the sans-serif font.
    public init(style: any PresentationStyle, events: @escaping (SceneEvent) -> Void = { _ in }) throws {
        let fonts = FontBox(try FontSet(scale: 1))
        let focus = FocusVisibility()
        presentingView = PresentingView(fonts: fonts, focus: focus)
        card = CardView(fonts: fonts, focus: focus)
        host = PresentationHost(style: style, presenting: presentingView)
        self.events = events
        self.fonts = fonts
        self.focusVisibility = focus
        host.onStateChange = { [unowned self] state in
            self.presentingView.setModal(state != .dismissed)
            self.stateChanged(state)
            self.events(SceneEvent(rawValue: state.rawValue)!)
        }
        // Contents are called back with the host's (scene) time.
        presentingView.onActivate = { [unowned self] sceneNow in
            self.events(.activated)
            if self.host.state == .dismissed { self.card.resetFocus() }
            self.host.present(self.card, now: sceneNow)
        }
        card.onClose = { [unowned self] sceneNow in
            self.events(.close)
            self.host.dismiss(now: sceneNow)
        }
    }

    private let fonts: FontBox
    private let focusVisibility: FocusVisibility
    private var hintSize: Size?

    // MARK: State

    /// The presentation state.
    public var state: PresentationState { host.state }
    /// True while a transition runs (not while it is paused at ``pauseFraction``: nothing moves).
    public var isAnimating: Bool { host.isAnimating && frozenTime == nil }
    /// True while animating or after a change (layout, input, state) that has not been rendered yet.
    public var needsRedraw: Bool { host.needsRedraw }

    /// The element with keyboard focus (the presented view while the modal layer is up).
    public var focus: SceneFocus { host.isModalLayerActive ? .presentedView : .presentButton }

    /// The Present button's frame, points.
    public var buttonFrame: Rect { DemoLook.buttonFrame(in: Rect(size: containerSize)) }

    /// The Present button's current look.
    public var buttonAppearance: ButtonAppearance { presentingView.appearance(modal: host.isModalLayerActive) }

    /// The card's Close button's current look.
    public var closeButtonAppearance: ButtonAppearance { card.appearance }

    /// The card's buttons, points relative to the presented view's frame (Present another, Close): side by
    /// side when they fit the card's width, else stacked (`DemoLook.cardButtonFrames(in:)`).
    public func cardButtonFrames() -> (presentAnother: Rect, close: Rect) {
        DemoLook.cardButtonFrames(in: host.presentedViewFrame.size)
    }

    /// The hint under the Present button for this style and container: "Esc or a tap outside
    /// dismisses", or "Esc dismisses" when no tap on the dim dismisses
    /// (``PresentationController/dismissingTapPoint(style:containerSize:)`` finds none).
    public var hint: String { presentingView.hint }

    /// Where the presented view is at `now`, points (`nil` when dismissed); under reduced motion
    /// always its frame.
    public func presentedViewRect(at now: Double) -> Rect? {
        host.presentedViewRect(at: sceneTime(now))
    }

    /// Whether transitions reduce motion (``PresentationHost/reducesMotion``, `ReducedMotion`):
    /// the presented view cross-fades at its frame instead of moving. Applies from the next
    /// transition; `renderSnapshot` uses it at once.
    public var reducesMotion: Bool {
        get { host.reducesMotion }
        set { host.reducesMotion = newValue }
    }

    // MARK: Pausing (`--pause-at`)

    /// A debugging aid for style authors (`modal-demo --pause-at F`): a linear time fraction
    /// 0...1 at which every presentation transition stops and stays, so its frame can be inspected
    /// live — exactly the frame of ``renderSnapshot(into:phase:progress:)`` at `.present`, F. The
    /// scene's clock stands still while paused (Core Animation pauses a layer's animations the same
    /// way, by stopping its clock: `speed = 0` at a `timeOffset`); ``isAnimating`` is false, so no
    /// frames are drawn, and ``SceneEvent/paused`` is reported once the frame is F's. Input works as
    /// usual: a dismissal (Escape, a tap on the dim, Close) runs back from F and the clock goes on.
    /// A presentation that starts beyond F (reversing a dismissal from further up) is not paused;
    /// F = 1 pauses nothing (the presentation ends there). nil (default): no pausing.
    public var pauseFraction: Double? {
        didSet { pauseFraction = pauseFraction.map { $0.isFinite ? min(max($0, 0), 1) : 0 } }
    }
    /// The caller's time minus the scene's: the time spent paused so far.
    private var clockOffset = 0.0
    /// The scene time the clock stands at while paused.
    private var frozenTime: Double?
    /// The scene time at which the running presentation reaches `pauseFraction`.
    private var pauseTime: Double?
    /// The caller's and the scene's time of the current entry point.
    private var callNow = 0.0, callSceneNow = 0.0

    /// Whether the presentation stands still at ``pauseFraction``.
    public var isPaused: Bool { frozenTime != nil }

    /// The scene's time for the caller's `now` (monotonic seconds): stands still at the pause.
    private func sceneTime(_ now: Double) -> Double {
        callNow = now
        if let t = frozenTime { callSceneNow = t; return t }
        var t = now - clockOffset
        if let tp = pauseTime, host.state == .presenting, t >= tp {
            t = tp
            frozenTime = tp
            events(.paused)
        }
        callSceneNow = t
        return t
    }

    private func stateChanged(_ state: PresentationState) {
        if state == .presenting, let f = pauseFraction, f < 1 {
            // The fraction moves at 1 / duration per second from where the presentation starts.
            let u = host.fraction(at: callSceneNow)
            pauseTime = u <= f ? callSceneNow + (f - u) * host.transitionDuration : nil
        } else if state != .presenting {
            pauseTime = nil
            if let t = frozenTime {
                // Resumed (a dismissal from the pause): the clock goes on from where it stood.
                frozenTime = nil
                clockOffset = callNow - t
            }
        }
    }

    // MARK: Layout

    /// Sets the container size (points, each side ≥ 1) and the scale: buffer pixels per point,
    /// whole (1, 2, …) or fractional (e.g. 1.25, 1.5); a scale that is not a positive finite number
    /// means 1. May be called at any time, also mid-transition.
    public func layout(containerSize size: Size, scale: Double) {
        let scale = scale.isFinite && scale > 0 ? scale : 1
        if scale != fonts.set.scale, let f = try? FontSet(scale: scale) {
            fonts.set = f
            presentingView.invalidateAll()  // (a size or scale change is a new cache for the host anyway)
            card.invalidateAll()
        }
        host.layout(containerSize: size, scale: scale)
        // The hint asks the style where a dim tap dismisses (its presentation hooks run on a
        // throw-away controller), so only between presentations and when the size changed.
        if host.state == .dismissed, hintSize != host.containerSize {
            hintSize = host.containerSize
            let tap = PresentationController.dismissingTapPoint(style: host.style, containerSize: host.containerSize)
            presentingView.hint = tap == nil ? DemoLook.escapeOnlyHint : DemoLook.hint
        }
    }

    /// ``layout(containerSize:scale:)`` at a whole scale (< 1 means 1).
    public func layout(containerSize size: Size, scale: Int) {
        layout(containerSize: size, scale: Double(max(1, scale)))
    }

    /// Replaces the style while no transition runs (``PresentationHost/replaceStyle(_:)``): a
    /// presented card takes the new frame at once; the hint is asked of the new style.
    /// - Returns: false (nothing changed) while a transition runs.
    @discardableResult
    public func replaceStyle(_ style: any PresentationStyle) -> Bool {
        guard host.replaceStyle(style) else { return false }
        hintSize = nil
        layout(containerSize: containerSize, scale: scale)
        return true
    }

    // MARK: Transitions

    /// Presents the card (ignored while presenting or presented; reverses a running dismissal).
    public func present(now: Double) {
        let t = sceneTime(now)
        if host.state == .dismissed { card.resetFocus() }
        host.present(card, now: t)
    }

    /// Dismisses the card (ignored while dismissing or dismissed; reverses a running presentation).
    public func dismiss(now: Double) {
        host.dismiss(now: sceneTime(now))
    }

    // MARK: Input

    /// Routes one input event at time `now` (``PresentationHost/handle(_:now:)``).
    public func handle(_ input: SceneInput, now: Double) {
        switch input {
        case .key(_, pressed: true): focusVisibility.set(true, presenting: presentingView, card: card)
        case .pointerButton(pressed: true), .touchDown: focusVisibility.set(false, presenting: presentingView, card: card)
        default: break
        }
        host.handle(input, now: sceneTime(now))
    }

    // MARK: Rendering

    /// Renders the frame for `now` into `target` (size = ``pixelSize``, buffer pixels,
    /// premultiplied ARGB8888); see ``PresentationHost/render(into:now:bufferAge:)``.
    @discardableResult
    public func render(into target: PixelBuffer, now: Double, bufferAge: Int) -> [PixelRect] {
        host.render(into: target, now: sceneTime(now), bufferAge: bufferAge)
    }

    /// The frame for `now` as layers for a backend that composes them itself (the scene's clock,
    /// as ``render(into:now:bufferAge:)``): ``PresentationHost/layerFrame(at:)``.
    public func layerFrame(at now: Double) -> LayerFrame {
        host.layerFrame(at: sceneTime(now))
    }

    /// Renders, offscreen, the frame at linear time fraction `progress` (0...1) of a presentation
    /// (`.present`) or of a dismissal (`.dismiss`), for the current container size and scale, into
    /// `target` (``pixelSize``): ``PresentationHost/snapshot(phase:fraction:)`` — the same
    /// geometry function as the live frame — drawn by the same caches and compositor. Does not
    /// change the live state, call style hooks or emit events.
    public func renderSnapshot(into target: PixelBuffer, phase: TransitionPhase, progress: Double) {
        host.renderOffline(host.snapshot(phase: phase, fraction: progress), presented: card, into: target)
    }

    /// Pixels repainted by the last `render`/`renderSnapshot` (for benchmarks).
    public var lastPaintedPixelCount: Int { host.lastPaintedPixelCount }
}

/// The scene's fonts, shared by both contents and replaced when the scale changes.
final class FontBox {
    var set: FontSet
    init(_ set: FontSet) { self.set = set }
}

/// Whether focus rings show (after keyboard use, hidden by a press: `:focus-visible`).
final class FocusVisibility {
    private(set) var isVisible = false
    func set(_ v: Bool, presenting: PresentingView, card: CardView) {
        guard v != isVisible else { return }
        isVisible = v
        presenting.focusVisibilityChanged()
        card.focusVisibilityChanged()
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
        invalidation = .area(DemoLook.buttonOuterFrame(in: bounds))
    }

    func draw(into image: OpaquePointer, size: Size, scale: Double) {
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
        case let .key(key):
            if key == .activate { onActivate(now) }
        }
        buttonChanged()
        return true
    }
    private var pressed = false
}

/// The presented card: title, body line, "Present another" (disabled), "Close".
final class CardView: PresentationContent {
    private let fonts: FontBox
    private let focus: FocusVisibility
    var onClose: (Double) -> Void = { _ in }
    private(set) var invalidation: ContentInvalidation = .all
    private var size = Size(width: 1, height: 1)
    private var hover: Point?
    private var pressPoint: Point?
    private var pressedClose = false
    private var drawn: ButtonAppearance?

    /// The enabled, focusable controls in Tab order; focus is on `focusIndex` of them.
    private enum Control { case close }
    private let enabledControls: [Control] = [.close]  // Present another is disabled until stacking exists
    /// nil: the card itself has focus (as a presentation starts — so a repeated Return that
    /// presented it cannot close it at once); Tab / Shift-Tab then move among `enabledControls`.
    private var focusIndex: Int?

    init(fonts: FontBox, focus: FocusVisibility) { self.fonts = fonts; self.focus = focus }

    private var closeFrame: Rect { DemoLook.cardButtonFrames(in: size).close }

    var appearance: ButtonAppearance {
        var a = ButtonAppearance()
        if pressPoint == nil, let p = hover { a.isHovered = closeFrame.contains(p) }
        if pressedClose, let p = pressPoint {
            a.isPressed = closeFrame.contains(p)
            a.isHovered = a.isPressed
        }
        a.showsFocusRing = focus.isVisible && focusIndex.map { enabledControls[$0] } == .close
        return a
    }

    func resetFocus() {
        focusIndex = nil
        hover = nil
        pressPoint = nil
        pressedClose = false
        changed()
    }
    func invalidateAll() { invalidation = .all }
    func didLayout(size: Size) {
        if size != self.size { invalidation = .all }
        self.size = size
    }
    func focusVisibilityChanged() { changed() }
    private func changed() { if appearance != drawn { invalidation = .all } }

    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let a = appearance
        DemoLook.drawPresentedView(into: image, size: size, scale: scale, fonts: fonts.set, close: a)
        drawn = a
        invalidation = .none
    }

    func handle(_ input: ContentInput, now: Double) -> Bool {
        var used = true
        switch input {
        case let .hover(p):
            hover = p
        case let .press(p):
            pressedClose = closeFrame.contains(p)
            pressPoint = pressedClose ? p : nil
            used = pressedClose  // a press on the card elsewhere does nothing
        case let .drag(p):
            if pressedClose { pressPoint = p }
        case let .release(p):
            let tap = pressedClose && closeFrame.contains(p)
            pressedClose = false
            pressPoint = nil
            hover = p
            if tap { activate(.close, now: now) }
        case .cancel:
            pressedClose = false
            pressPoint = nil
        case let .key(key):
            switch key {
            case .tab: focusIndex = focusIndex.map { ($0 + 1) % enabledControls.count } ?? 0
            case .backTab:
                let n = enabledControls.count
                focusIndex = focusIndex.map { ($0 + n - 1) % n } ?? n - 1
            case .activate: if let i = focusIndex { activate(enabledControls[i], now: now) }
            case .escape: used = false  // the host dismisses
            }
        }
        changed()
        return used
    }

    private func activate(_ control: Control, now: Double) {
        switch control {
        case .close: onClose(now)
        }
    }
}
