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
    private var cards: [CardView] = []
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
    /// `--content alert`: level 1 presents ``alert`` instead of the card (``presentsAlert``).
    private lazy var alert: Alert = {
        let a = makeAlertContent()
        a.onResponse = { [unowned self] response, _ in self.onAlertResponse(response) }
        a.dismiss = { [unowned self] now in self.host.dismiss(self.alert, now: now) }
        return a
    }()
    /// What level 1 presents: the card, or with ``presentsList`` the list, with ``presentsAlert`` the alert.
    private var firstContent: any PresentationContent {
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
            self.host.present(self.firstContent, sourceRect: self.buttonFrame, now: sceneNow)
        }
        _ = cardForLevel(1)
    }

    /// The card of `level` (≥ 1), made on first use. Its callbacks get the host's (scene) time.
    private func cardForLevel(_ level: Int) -> CardView {
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
    private func updateBackground(level: Int) {
        let bounds = Rect(size: host.containerSize)
        cards[level - 1].fillsBackground = style(level: level).chrome(LayoutContext(containerBounds: bounds)).backgroundColor == nil
    }

    /// Styles of the levels above 1, made on first use (level n at index n − 2).
    private var upperStyles: [PresentationStyle] = []
    private func style(level: Int) -> PresentationStyle {
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

    /// Renders, offscreen, the frame at linear time fraction `fraction` (0...1) of a presentation
    /// (`.present`) or of a dismissal (`.dismiss`), for the current container size and scale, into
    /// `target` (``pixelSize``): ``PresentationHost/snapshot(phase:fraction:)`` — the same
    /// geometry function as the live frame — drawn by the same caches and compositor; the source
    /// rectangle is the Present button's frame, as for a click. Does not change the live state,
    /// call style hooks or emit events.
    public func renderSnapshot(into target: PixelBuffer, phase: TransitionPhase, fraction: Double) {
        // Presented from the Present button, as a click on it does (a live presentation already is).
        if host.state == .dismissed { host.sourceRect = buttonFrame }
        host.renderOffline(host.snapshot(phase: phase, fraction: fraction, detent: restingDetent.map { $0 - 1 },
                                         content: firstContent),
                           presented: firstContent, into: target)
    }

    /// The detent offline frames come to rest at (`render --detent N`, `preview --detent N`): its
    /// number N, from 1 for the smallest (the declaration index + 1), as the host's `detent N`
    /// events (`PresentationInteractionEvent.detent`) number it; nil: the smallest, where a
    /// presentation rests.
    public var restingDetent: Int?

    /// The style's detents as `--detent` numbers them, e.g. "1 (0.5 of the height), 2 (600 pt)"
    /// (their resting lengths along the drag axis), or nil for a style without a drag gesture or
    /// without declared detents. Asked in the current container.
    public var detentList: String? {
        let interaction = style.interaction(LayoutContext(containerBounds: Rect(size: containerSize)))
        guard case let .drag(direction) = interaction.dismissGesture, !interaction.detents.isEmpty else { return nil }
        let axis = direction.isVertical ? "height" : "width"
        return interaction.detents.enumerated().map { i, d in
            switch d {
            case let .fraction(f): return "\(i + 1) (\(DemoScene.number(f)) of the \(axis))"
            case let .points(p): return "\(i + 1) (\(DemoScene.number(p)) pt)"
            case let .fitsContent(cap):
                let limit: String
                switch cap {
                case let .points(p): limit = "\(DemoScene.number(p)) pt"
                default: limit = "\(DemoScene.number(cap.resolved(containerLength: 1))) of the \(axis)"
                }
                return "\(i + 1) (the content, at most \(limit))"
            }
        }.joined(separator: ", ")
    }

    /// The one-line mistake of `--detent n` (1-based) for this scene's style, or nil when the
    /// style has that detent: "style 'NAME' has detents 1 (…), 2 (…)" or "… has no detents".
    public func detentMistake(_ n: Int, styleName: String) -> String? {
        let count = style.interaction(LayoutContext(containerBounds: Rect(size: containerSize))).detents.count
        guard let list = detentList else {
            return "--detent \(n): style '\(styleName)' has no detents (a style with a 'detents' option takes them, "
                + "e.g. --style-option detents=0.5,1)"
        }
        return n >= 1 && n <= count ? nil : "--detent \(n): style '\(styleName)' has detents \(list)"
    }

    private static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// Renders, offscreen, a stack of `levels` cards (≥ 1): levels 1…n − 1 presented, level n at
    /// linear time fraction `fraction` of a presentation or dismissal, each with its level's style
    /// (the same geometry function as the live frames, drawn by the same caches and compositor).
    /// Does not change the live state or emit events.
    public func renderStackSnapshot(into target: PixelBuffer, levels: Int, phase: TransitionPhase, fraction: Double) {
        let n = max(1, levels)
        var snapshots: [PresentationSnapshot] = []
        var contents: [any PresentationContent] = []
        let bounds = Rect(size: containerSize)
        for level in 1...n {
            let phase = level == n ? phase : .present, fraction = level == n ? fraction : 1
            if level == 1 {
                // Presented from the Present button (a live presentation already is).
                if host.state == .dismissed { host.sourceRect = buttonFrame }
                snapshots.append(host.snapshot(phase: phase, fraction: fraction, detent: nil, content: cardForLevel(1)))
            } else {
                // An offline controller of this level's style, presented from the card below's
                // Present another.
                let c = PresentationController(style: style(level: level))
                let levelCard = cardForLevel(level)
                c.contentSizing = { levelCard.preferredContentSize(fittingWidth: $0) }
                c.reducesMotion = host.reducesMotion
                c.layout(containerBounds: bounds)
                let f = style(level: level - 1).frameOfPresentedView(LayoutContext(containerBounds: bounds))
                c.sourceRect = DemoLook.cardButtonFrames(in: f.size).presentAnother.offsetBy(dx: f.minX, dy: f.minY)
                snapshots.append(c.snapshot(phase: phase, fraction: fraction))
            }
            _ = cardForLevel(level)
            updateBackground(level: level)
            contents.append(cards[level - 1])
        }
        host.renderOffline(snapshots, presented: contents, into: target)
    }

    /// Renders the frame of a scripted pointer drag into `target` (``pixelSize``), through the
    /// window's own path (``PresentationHost`` input and render) at synthetic times: presents and
    /// lets the presentation end (t = 10 s), presses at the centre of the presented view, moves the
    /// pointer `distance` points down (negative: up) in 10 steps 20 ms apart, and draws the frame
    /// of the last step (the button still held). Changes the live state (meant for `render`).
    public func renderDrag(into target: PixelBuffer, distance: Double) {
        present(now: 0)
        host.update(now: 10)
        guard let rect = host.presentedViewRect(at: 10) else { return }
        let p = Point(x: rect.midX, y: min(rect.midY, (rect.minY + containerSize.height) / 2))
        handle(.pointerMotion(p), now: 10)
        handle(.pointerButton(pressed: true), now: 10)
        var t = 10.0
        for i in 1...10 {
            t += 0.02
            handle(.pointerMotion(Point(x: p.x, y: p.y + distance * Double(i) / 10)), now: t)
        }
        render(into: target, now: t, bufferAge: 0)
    }

    /// Renders the frame of a scripted wheel scroll into `target` (``pixelSize``), through the
    /// window's own path at synthetic times: presents and lets the presentation end (t = 10 s),
    /// puts the pointer at the centre of the presented view and turns the wheel down by 15 pt
    /// steps (one detent each), 2 s apart, until the list (``presentsList``) has scrolled
    /// `distance` points or can go no further — a sheet resting below its largest detent grows
    /// to the next one first (UIKit's rule) — then draws the frame. Changes the live state (meant
    /// for `render --scroll`).
    public func renderScroll(into target: PixelBuffer, distance: Double) {
        present(now: 0)
        host.update(now: 10)
        var t = 10.0
        for _ in 0..<1000 where listScrollOffset < distance - 1e-9 {
            guard let rect = host.presentedViewRect(at: t) else { break }
            let p = Point(x: rect.midX, y: (rect.minY + rect.maxY) / 2)
            let before = (listScrollOffset, rect)
            handle(.pointerMotion(p), now: t)
            handle(.pointerScroll(ScrollInput(delta: Point(x: 0, y: min(15, distance - listScrollOffset)), steps120Y: 120,
                                              source: .wheel)), now: t)
            t += 2
            host.update(now: t)
            if listScrollOffset == before.0 && host.presentedViewRect(at: t) == before.1 { break }   // at the end
        }
        render(into: target, now: t, bufferAge: 0)
    }

    /// Pixels repainted by the last `render`/`renderSnapshot` (for benchmarks).
    public var lastPaintedPixelCount: Int { host.lastPaintedPixelCount }
}

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
        case .scroll, .textInput:
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

/// A presented card: title, body line, "Present another", "Close".
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
        case .scroll, .textInput:
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
