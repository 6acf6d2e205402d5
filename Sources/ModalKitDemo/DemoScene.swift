import CModalKitPixman
import ModalKit
import ModalKitContent
import Glibc

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
/// and the presented views (white cards with a title, a wrapped body text, a "Present another"
/// button that presents the next card over this one, and a "Close" button), level n presented with
/// the style for level n.
///
/// Units: geometry in points; `render` writes buffer pixels = points × `scale`, premultiplied ARGB
/// (the host's rules: ``PresentationSnapshot/layerFrame(scale:)``). Time: every entry point takes
/// `now`, seconds of `CLOCK_MONOTONIC`; the scene never reads a clock.
///
/// Input: the host's routing (``PresentationHost``; only the top card takes input). Within a card,
/// focus starts on the card itself; Tab / Shift-Tab move it between "Present another" and "Close",
/// Return/space activate the focused one, pointer and touch taps on them activate them; a tap
/// elsewhere on the card does nothing. When a card is dismissed, focus is back on the control
/// that presented it (Present, or the lower card's Present another). The focus ring shows after
/// keyboard use and hides on a press (`:focus-visible`), and only in front: not on the Present
/// button nor on a card while a card covers them.
public final class DemoScene {
    /// The host presenting the card over the presenting view. Its times are the scene's clock,
    /// which is the caller's `now` except while paused (``pauseFraction``).
    public let host: PresentationHost
    /// The presentation style of level 1.
    public var style: PresentationStyle { host.style }
    private let events: (SceneEvent, Int) -> Void
    private let presentingView: PresentingView
    /// The card of level n at index n − 1, made when level n is first presented.
    private(set) var cards: [CardView] = []
    private let styleForLevel: (Int) -> PresentationStyle
    private var card: CardView { cards[0] }
    /// `--content list`: level 1 presents ``list`` instead of the card (``presentsList``).
    private lazy var list: List = {
        let l = ListView.make()
        l.onScroll = { [unowned self] offset, now in
            self.onListScroll(offset, self.host.presentedViewRect(at: now)?.minY ?? 0)
        }
        return l
    }()
    /// `--content alert`: level 1 presents ``alert`` instead of the card (``presentsAlert``). Made
    /// afresh for each presentation from rest (``renewAlertIfDismissed()``): an alert asks once, as
    /// a `UIAlertController` or an `AdwAlertDialog` is made for each question — the form's field
    /// starts empty every time.
    private var madeAlert: Alert?
    private var alert: Alert {
        if let a = madeAlert { return a }
        let a = makeAlertContent()
        a.onResponse = { [unowned self] response, _ in self.onAlertResponse(response) }
        a.dismiss = { [unowned self, unowned a] now in self.host.dismiss(a, now: now) }
        madeAlert = a
        return a
    }

    /// Forgets the alert when nothing is presented, so that the next presentation makes a new one.
    private func renewAlertIfDismissed() {
        if presentsAlert, host.state == .dismissed { madeAlert = nil }
    }
    /// What level 1 presents: the card, or with ``presentsList`` the list, with ``presentsAlert`` the alert.
    var firstContent: any PresentationContent {
        if presentsAlert { return alert }
        return presentsList ? list : card
    }

    /// `--content alert`'s alert: "Delete file?", a message, Cancel (the close response) and a
    /// destructive Delete (the default response): Return chooses Delete, Escape Cancel.
    public static func makeAlert() -> Alert {
        Alert(title: "Delete file?", message: "“Report.pdf” will be deleted permanently.",
              responses: [Response("cancel", label: "Cancel"), Response("delete", label: "Delete", appearance: .destructive)],
              defaultResponse: "delete", closeResponse: "cancel")
    }

    /// The alert level 1 presents with ``presentsAlert``: ``makeAlert()``'s, or `--content form`'s
    /// (`FormDemo`). Set before the first presentation.
    public var makeAlertContent: () -> Alert = DemoScene.makeAlert
    /// True: level 1 presents ``makeAlert()``'s alert (`--content alert`) instead of the card. Set
    /// before the first presentation.
    public var presentsAlert = false
    /// The alert's response was chosen (`--content alert`): its id, `delete` or `cancel`.
    public var onAlertResponse: (String) -> Void = { _ in }

    /// True: level 1 presents a list of 40 rows that scrolls (`--content list`) instead of the card.
    /// Set before the first presentation.
    public var presentsList = false
    /// The list's scroll offset changed (`--content list`): its offset (points from its top) and
    /// the presented view's top edge at that moment (container points).
    public var onListScroll: (Double, Double) -> Void = { _, _ in }
    /// The list's scroll offset, points from its top (0 without `--content list`).
    public var listScrollOffset: Double { presentsList ? list.position.offset.y : 0 }

    /// Container size in points and the scale (buffer pixels per point) of the last `layout`.
    public var containerSize: Size { host.containerSize }
    public var scale: Double { host.scale }
    /// The buffer size `render` draws: ``containerSize`` at ``scale``, each side ``pixelLength(_:scale:)``.
    public var pixelSize: (width: Int, height: Int) { host.pixelSize }

    /// Creates the scene for `style`.
    /// - Parameters:
    ///   - events: called synchronously, in order, for every state change and button activation.
    /// - Throws: `SceneError.fontUnavailable` when fontconfig/fcft cannot load the sans-serif font.
    public convenience init(style: PresentationStyle, events: @escaping (SceneEvent) -> Void = { _ in }) throws {
        try self.init(styleForLevel: { _ in style }, levelEvents: { event, _ in events(event) })
    }

    /// Creates the scene with a style per level.
    /// - Parameters:
    ///   - styleForLevel: the style of level n (n ≥ 1), asked once per level the first time it is
    ///     presented (level 1 at once); return a new style object per level (a style's hooks see
    ///     one presentation).
    ///   - levelEvents: called synchronously, in order, for every state change and button
    ///     activation, with the level it belongs to (1 = the first card; `activated` is level 1).
    /// - Throws: `SceneError.fontUnavailable` when fontconfig/fcft cannot load the sans-serif font.
    public convenience init(styleForLevel: @escaping (Int) -> PresentationStyle,
                            levelEvents: @escaping (SceneEvent, Int) -> Void) throws {
        self.init(styleForLevel: styleForLevel, fonts: FontBox(try FontSet(scale: 1)), levelEvents: levelEvents)
    }

    /// Creates the scene with a style per level and the fonts loading on a thread since before the
    /// window connected, waited for where text is first needed — in a window's first frame after
    /// its buffer is made and its background drawn, so that both happen while the fonts finish
    /// loading (docs/design.md, start-up and footprint).
    /// - Parameters:
    ///   - fonts: the load; the scene waits for it (once) at the first text it draws or measures,
    ///     or at a layout at another scale than 1.
    ///   - onFontFailure: called when the fonts could not be loaded (`SceneError.fontUnavailable`,
    ///     `.textLibraryUnavailable`): the scene cannot draw, so it must end the program.
    ///   - styleForLevel, levelEvents: as ``init(styleForLevel:levelEvents:)``.
    public convenience init(styleForLevel: @escaping (Int) -> PresentationStyle, fonts fontLoad: SceneFontLoad,
                            onFontFailure: @escaping (Error) -> Never,
                            levelEvents: @escaping (SceneEvent, Int) -> Void) {
        self.init(styleForLevel: styleForLevel, fonts: FontBox(loading: fontLoad, onFailure: onFontFailure),
                  levelEvents: levelEvents)
    }

    private init(styleForLevel: @escaping (Int) -> PresentationStyle, fonts: FontBox,
                 levelEvents: @escaping (SceneEvent, Int) -> Void) {
        let focus = FocusVisibility()
        presentingView = PresentingView(fonts: fonts, focus: focus)
        host = PresentationHost(style: styleForLevel(1), presenting: presentingView)
        self.styleForLevel = styleForLevel
        self.events = levelEvents
        self.fonts = fonts
        self.focusVisibility = focus
        host.onLevelStateChange = { [unowned self] state, level in
            if level == 1 {
                self.presentingView.setModal(state != .dismissed)
                self.stateChanged(state)
            } else if level - 2 < self.cards.count {
                // The card below is covered from the start of this presentation until its dismissal
                // completes: focus is in the top card only.
                self.cards[level - 2].setCovered(state != .dismissed)
            }
            self.events(SceneEvent(rawValue: state.rawValue)!, level)
        }
        host.onInteraction = { [unowned self] event in
            // A drag takes over a paused presentation (as it catches a moving one): the clock
            // runs again, so its spring can settle.
            if event == .dragBegan, let t = self.frozenTime {
                self.frozenTime = nil
                self.pauseTime = nil
                self.clockOffset = self.callNow - t
            }
            self.onInteraction(event)
        }
        // Contents are called back with the host's (scene) time.
        presentingView.onActivate = { [unowned self] sceneNow in
            self.events(.activated, 1)
            if self.host.state == .dismissed { self.card.resetFocus() }
            self.renewAlertIfDismissed()
            self.host.present(self.firstContent, sourceRect: self.buttonFrame, now: sceneNow)
        }
        _ = cardForLevel(1)
    }

    /// The card of `level` (≥ 1), made on first use. Its callbacks get the host's (scene) time.
    func cardForLevel(_ level: Int) -> CardView {
        while cards.count < level {
            let n = cards.count + 1
            let c = CardView(fonts: fonts, focus: focusVisibility)
            c.onClose = { [unowned self] sceneNow in
                self.events(.close, n)
                self.host.dismiss(now: sceneNow)
            }
            c.onPresentAnother = { [unowned self] sceneNow in self.presentAnother(from: n, now: sceneNow) }
            c.onTyped = { [unowned self] text in self.onTyped(text, n) }
            cards.append(c)
        }
        return cards[level - 1]
    }

    /// Whether `level`'s card paints its own white background (its style sets no background colour).
    func updateBackground(level: Int) {
        let bounds = Rect(size: host.containerSize)
        cards[level - 1].fillsBackground = style(level: level).chrome(LayoutContext(containerBounds: bounds)).backgroundColor == nil
    }

    /// Styles of the levels above 1, made on first use (level n at index n − 2).
    private var upperStyles: [PresentationStyle] = []
    func style(level: Int) -> PresentationStyle {
        if level == 1 { return host.style }
        while upperStyles.count < level - 1 { upperStyles.append(styleForLevel(upperStyles.count + 2)) }
        return upperStyles[level - 2]
    }

    /// The Present another button of `level`'s card in container points (at the card's frame).
    private func presentAnotherFrame(level: Int) -> Rect? {
        guard let f = host.presentedViewFrame(level: level) else { return nil }
        return DemoLook.cardButtonFrames(in: f.size).presentAnother.offsetBy(dx: f.minX, dy: f.minY)
    }

    /// The card of `level` activated Present another: the next level is presented over it.
    private func presentAnother(from level: Int, now: Double) {
        guard host.levelCount == level else { return }
        let next = cardForLevel(level + 1)
        next.resetFocus()
        updateBackground(level: level + 1)
        host.present(next, style: style(level: level + 1), sourceRect: presentAnotherFrame(level: level), now: now)
    }

    /// Gesture events of the host (``PresentationHost/onInteraction``: drag began/ended, detent,
    /// close attempt), in order with the state events.
    public var onInteraction: (PresentationInteractionEvent) -> Void = { _ in }

    /// Text typed on the card of a level (the level's ``KeyInput/typedText``, one key at a time,
    /// with its level): the card takes printable keys as typing, so space types " " there rather
    /// than activating (`modal-demo --log-events` prints `typed "TEXT" LEVEL`).
    public var onTyped: (String, Int) -> Void = { _, _ in }

    private let fonts: FontBox
    private let focusVisibility: FocusVisibility
    private var hintSize: Size?

    // MARK: State

    /// The top level's presentation state (level 1's when nothing is presented).
    public var state: PresentationState { host.state }
    /// How many cards are in the stack (a card stays until its dismissal completes).
    public var levelCount: Int { host.levelCount }
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

    /// The first card's Close button's current look.
    public var closeButtonAppearance: ButtonAppearance { card.appearance }

    /// The look of `level`'s card buttons (Present another, Close), or nil for a level never presented.
    public func cardButtonAppearances(level: Int) -> (presentAnother: ButtonAppearance, close: ButtonAppearance)? {
        level >= 1 && level <= cards.count ? (cards[level - 1].presentAnotherAppearance, cards[level - 1].appearance) : nil
    }

    /// The card's buttons, points relative to the presented view's frame (Present another, Close), of
    /// `level` (default 1): side by side when they fit the card's width, else stacked
    /// (`DemoLook.cardButtonFrames(in:)`).
    public func cardButtonFrames(level: Int = 1) -> (presentAnother: Rect, close: Rect) {
        DemoLook.cardButtonFrames(in: (host.presentedViewFrame(level: level) ?? host.presentedViewFrame).size)
    }

    /// The hint under the Present button for this style and container: "Esc or a tap outside
    /// dismisses", or "Esc dismisses" when no tap on the dim dismisses
    /// (``PresentationController/dismissingTapPoint(style:containerSize:)`` finds none).
    public var hint: String { presentingView.hint }

    /// Where `level`'s presented view (default 1) is at `now`, points (`nil` when dismissed); under
    /// reduced motion always its frame.
    public func presentedViewRect(at now: Double, level: Int = 1) -> Rect? {
        host.presentedViewRect(at: peekSceneTime(now).time, level: level)
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
    /// live — exactly the frame of ``renderSnapshot(into:phase:fraction:)`` at `.present`, F. The
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

    /// The scene's time for the caller's `now` (monotonic seconds), without changing anything:
    /// it stands still at the pause, and stops there once the running presentation reaches it.
    private func peekSceneTime(_ now: Double) -> (time: Double, reachesPause: Bool) {
        if let t = frozenTime { return (t, false) }
        let t = now - clockOffset
        if let tp = pauseTime, host.state == .presenting, t >= tp { return (tp, true) }
        return (t, false)
    }

    /// The scene's time for the caller's `now` at a call that changes state: a presentation that
    /// reaches the pause stops there (``SceneEvent/paused``, once).
    private func sceneTime(_ now: Double) -> Double {
        callNow = now
        let (t, reachesPause) = peekSceneTime(now)
        if reachesPause {
            frozenTime = t
            events(.paused, 1)
        }
        callSceneNow = t
        return t
    }

    private func stateChanged(_ state: PresentationState) {
        // A tap on the dim dismissed the alert without a choice: its close response.
        if state == .dismissing, presentsAlert { alert.hostDismissed(now: callSceneNow) }
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
        if scale != fonts.scale, let f = try? fonts.makeSet(scale: scale) {
            fonts.set = f
            presentingView.invalidateAll()  // (a size or scale change is a new cache for the host anyway)
            for c in cards { c.invalidateAll() }
            if presentsList { list.invalidateAll() }
        }
        host.layout(containerSize: size, scale: scale)
        // The card is white unless the style gives the presented view a background colour, which
        // then shows under its text and buttons (UIKit: a view whose `backgroundColor` the
        // presentation sets draws only its content).
        for level in 1...cards.count { updateBackground(level: level) }
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
    public func replaceStyle(_ style: PresentationStyle) -> Bool {
        guard host.replaceStyle(style) else { return false }
        hintSize = nil
        layout(containerSize: containerSize, scale: scale)
        return true
    }

    // MARK: Transitions

    /// Presents the card from the Present button's frame (its ``TransitionContext/sourceRect``;
    /// ignored while presenting or presented; reverses a running dismissal).
    public func present(now: Double) {
        let t = sceneTime(now)
        if host.state == .dismissed { card.resetFocus() }
        renewAlertIfDismissed()
        host.present(firstContent, sourceRect: buttonFrame, now: t)
    }

    /// Presents the next card over the top one, as its Present another does (ignored unless the
    /// top card is presented).
    public func presentAnother(now: Double) {
        let t = sceneTime(now)
        guard host.levelCount >= 1, host.state == .presented else { return }
        presentAnother(from: host.levelCount, now: t)
    }

    /// Dismisses the top card (ignored while dismissing or dismissed; reverses a running presentation).
    public func dismiss(now: Double) {
        host.dismiss(now: sceneTime(now))
    }

    // MARK: Input

    /// Routes one input event at time `now` (``PresentationHost/handle(_:now:)``).
    public func handle(_ input: SceneInput, now: Double) {
        handle(input, from: .primary, now: now)
    }

    /// Routes one input event of `seat` at time `now` (``PresentationHost/handle(_:from:now:)``:
    /// each seat's pointer, press and touch points kept apart).
    public func handle(_ input: SceneInput, from seat: InputSeat, now: Double) {
        switch input {
        // (Requests of assistive technology change focus, not whether its ring shows.)
        case .key(_, pressed: true): focusVisibility.set(true, presenting: presentingView, cards: cards)
        case let .keyboard(k) where k.isDown: focusVisibility.set(true, presenting: presentingView, cards: cards)
        case .pointerButton(pressed: true), .touchDown: focusVisibility.set(false, presenting: presentingView, cards: cards)
        default: break
        }
        host.handle(input, from: seat, now: sceneTime(now))
    }

    // MARK: Frames

    /// Advances the scene to `now` (monotonic seconds): the host's transitions at the scene's
    /// clock (``PresentationHost/update(now:)``), which stands still at ``pauseFraction`` — the
    /// ``SceneEvent/paused`` event comes from here. The frames drawn afterwards show this time.
    public func update(now: Double) {
        host.update(now: sceneTime(now))
    }

    /// Draws the frame at the time of the last ``update(now:)`` into `target` (size =
    /// ``pixelSize``, buffer pixels, premultiplied ARGB8888); see
    /// ``PresentationHost/render(into:bufferAge:)``. Changes no state, reports no event.
    @discardableResult
    public func render(into target: PixelBuffer, bufferAge: Int) -> [PixelRect] {
        host.render(into: target, bufferAge: bufferAge)
    }

    /// One frame step for offline drivers (tests, `render --drag`, the benchmark):
    /// ``update(now:)``, then ``render(into:bufferAge:)``.
    @discardableResult
    public func render(into target: PixelBuffer, now: Double, bufferAge: Int) -> [PixelRect] {
        update(now: now)
        return render(into: target, bufferAge: bufferAge)
    }


    /// The detent offline frames come to rest at (`render --detent N`, `preview --detent N`): its
    /// number N, from 1 for the smallest (the declaration index + 1), as the host's `detent N`
    /// events (`PresentationInteractionEvent.detent`) number it; nil: the smallest, where a
    /// presentation rests.
    public var restingDetent: Int?

    /// Pixels repainted by the last `render`/`renderSnapshot` (for benchmarks).
    public var lastPaintedPixelCount: Int { host.lastPaintedPixelCount }
}
