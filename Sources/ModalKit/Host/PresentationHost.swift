import CModalKitPixman

/// The presentation host over one container (UIKit: the window's root view plus the
/// `UIPresentationController` machinery): owns the presenting content, the stack of presented
/// levels (each a content with its own ``PresentationController`` and style), the layer tree
/// (presenting view, then per level a dimming view and a presented view), their pixel caches,
/// input routing and rendering with damage.
///
/// - Layout: ``layout(containerSize:scale:)`` — points and buffer pixels per point; applies to every
///   level at once.
/// - Time: every call that changes state takes `now`, seconds of `CLOCK_MONOTONIC`; the host never
///   reads a clock. ``update(now:)`` advances the transitions and reports what happened; queries
///   (``render(into:bufferAge:)``, ``layerFrame()``, snapshots) read the state and change none of it
///   (a frame is `update(now:)`, then `render`).
/// - Stacks (UIKit: a presented view controller presenting another): ``present(_:style:sourceRect:now:)``
///   while the top level is presented pushes a level; each level has its own dim over everything
///   below it; ``dismiss(now:)`` dismisses only the top level.
/// - Frames: ``snapshot(at:)`` is level 1's frame (``PresentationSnapshot``), ``snapshot(level:at:)``
///   any level's; ``render(into:bufferAge:)`` draws them all with the pixman ``Renderer``.
/// - Input routing (UIKit's modal presentation): while a modal layer is up (presenting,
///   presented or dismissing) all pointer and touch input goes to the top level — a press on its
///   presented view goes to its content, a tap (press and release) on its dimming view dismisses
///   it if the style's `shouldDismissOnTap` agrees, and nothing reaches the levels below or
///   the presenting content; keys go to the top presented content (focus is trapped in it) and an
///   Escape it does not use dismisses the top level. Otherwise all input goes to the presenting
///   content. The target of a press is chosen at press time, so one click gives at most one action.
/// - Events: ``onStateChange`` gets level 1's state changes, ``onLevelStateChange`` every level's
///   (levels numbered from 1), synchronously, in order.
/// - Accessibility (UIKit's `accessibilityViewIsModal`): ``accessibilitySnapshot()`` shows each
///   presented level as a modal dialog named by its content and hides what is beneath; focus moves
///   onto a level as it is presented and back to the control that presented it after its dismissal;
///   requests of assistive technology arrive as ``PresentationInput/accessibility(_:level:)``.
public final class PresentationHost {
    /// Level 1 (the first presentation): its controller (state, transition, container geometry),
    /// its content and caches. Always there — level 1's style, state and geometry are the host's
    /// also when nothing is presented — and, while presented, `levels[0]` (the same object: level 1
    /// is held once). Not public: its controller's `present`, `dismiss` and `layout` would bypass
    /// the host's presented contents and caches; apps use the host's own members (``style``,
    /// ``state``, ``reducesMotion``, ``presentedViewFrame``, ``snapshot(phase:fraction:)`` …, and
    /// their per-level forms).
    let firstLevel: PresentedLevel
    /// Level 1's controller (``firstLevel``'s).
    var controller: PresentationController { firstLevel.controller }
    /// The presenting content (drawn at the container's size).
    public let presentingContent: any PresentationContent
    /// Called after each state change of level 1, with the new state: synchronously, in order, from
    /// within the call that caused it (`present`, `dismiss`, `handle`, `update`; never from a query
    /// such as `render` or a snapshot).
    public var onStateChange: (PresentationState) -> Void = { _ in }
    /// Called after each state change of any level, with the new state and the level (1 = the
    /// first presentation, 2 = the one it presented, ...); for level 1 after ``onStateChange``.
    public var onLevelStateChange: (PresentationState, Int) -> Void = { _, _ in }
    /// Called for each gesture event (drag began/ended, detent settled, close attempt),
    /// synchronously, in order with the state changes.
    public var onInteraction: (PresentationInteractionEvent) -> Void = { _ in }

    /// The container's size of the last `layout`, points (1 × 1 before the first).
    public private(set) var containerSize = Size(width: 1, height: 1)
    /// The scale of the last `layout`: buffer pixels per point (> 0, whole or fractional).
    public private(set) var scale = 1.0
    /// The buffer size `render` draws: ``containerSize`` at ``scale``, each side `pixelLength(_:scale:)`.
    public var pixelSize: (width: Int, height: Int) { containerSize.pixelSize(scale: scale) }

    /// The stack, level 1 first (``firstLevel``); empty when nothing is presented.
    var levels: [PresentedLevel] = []
    /// Dismissed levels above level 1, kept so that presenting again (the same content, or another
    /// of the same size, with the same style) reuses their caches and controllers instead of
    /// allocating.
    var spareLevels: [PresentedLevel] = []
    let renderer = Renderer()
    /// The presenting view's pixels, for frames that compose something over or from them (a dim, a
    /// presented view, a recede, a covered level). Made and drawn only when such a frame needs
    /// them (``presentingImage()``): a frame of the presenting view alone is drawn by the content
    /// straight into the window's buffer while this does not hold the current pixels — the first
    /// frame allocates and fills no window-sized image and copies nothing (docs/design.md,
    /// start-up and footprint).
    var presentingCache: Image?
    /// Whether ``presentingCache`` holds the presenting view as it is now (at ``presentingKey``).
    var presentingCacheIsCurrent = false
    /// The size and scale of the presenting view's pixels as the frames know them; a change of it,
    /// or the content's invalidation, is counted (``presentingVersion``, ``pendingPresentingDamage``)
    /// by ``updatePresenting(width:height:)``.
    var presentingKey: (width: Int, height: Int, scale: Double)?
    var presentingVersion = 0
    var pendingPresentingDamage = PixelRect.zero
    /// Bumped when what lies under the top level changes as a whole (the stack's depth, a covered
    /// image made anew): the next frame repaints everything.
    var compositionVersion = 0
    var composedDepth = 0
    var dirty = true
    /// The presenting-view-only renderer of a layer backend (``renderPresentingLayer(into:bufferAge:)``).
    let presentingRenderer = Renderer()
    let layerPainter = LayerPainter()
    /// Which renderer drew the window's buffers last (true: the presenting-view-only one): on a
    /// switch the other one's damage history is stale, so its next frame repaints everything.
    var lastRenderWasLayer = false
    /// How level 1's frame last resolved for a layer backend (``layerFrame(level:)``) draws the
    /// presenting view while covered (``LayerFrame/presentingRect``, its corner radius and alpha):
    /// what ``renderPresentingLayer(into:bufferAge:)`` draws into the window's buffer.
    var layerPresenting: (rect: PixelRect?, radius: Double, alpha: UInt32) = (nil, 0, 255)
    /// The `now` of the latest call (for content callbacks made from state changes).
    var lastNow = 0.0
    /// ``accessibilityVersion``: bumped by everything that may change ``accessibilitySnapshot()``.
    var accessibilityGeneration = 0
    /// ``textInputVersion``: bumped by everything that may change the text-input state or the
    /// content cursor (``textInputState(at:)``, ``cursorShape(at:now:)``) apart from moving views.
    var textInputGeneration = 0
    /// The last presentation number given (``AccessibilitySnapshot/Level/presentation``).
    var lastPresentation = 0

    enum PressTarget { case presenting, dim, presented, nothing }
    /// What made a press: a seat's pointer, or one touch point of a seat.
    enum PressSource: Equatable {
        case pointer(InputSeat), touch(InputSeat, Int32)
        var isPointer: Bool { if case .pointer = self { return true } else { return false } }
        var seat: InputSeat {
            switch self {
            case let .pointer(seat), let .touch(seat, _): return seat
            }
        }
    }
    /// Each seat's pointer position, while its pointer is in the container.
    var pointers: [InputSeat: Point] = [:]
    /// The position of the pointer that moved last (the one that hovers), nil once it left.
    var pointer: Point?
    /// The seat whose pointer moved last.
    var hoverSeat = InputSeat.primary
    var touchPoint: Point?
    /// The seat whose touchpad scroll gesture (``HostScrolling/fingerTarget``) is under way.
    var fingerScrollSeat = InputSeat.primary
    /// The press in progress: what it pressed, by what, and the level it belongs to (the number of
    /// levels when it began; 0 for the presenting content). It ends without a tap when that level
    /// is covered by a new one or leaves the stack (``abandonPress(now:)``).
    var press: (target: PressTarget, source: PressSource, level: Int)?
    /// Scrolls, pans and the deceleration (PresentationHost+Scroll.swift).
    var scrolling = HostScrolling()

    /// A host for `style` over `presenting`, nothing presented; call `layout` before rendering.
    public init(style: PresentationStyle, presenting: any PresentationContent) {
        firstLevel = PresentedLevel(content: NoContent(), controller: PresentationController(style: style))
        self.presentingContent = presenting
        levels.reserveCapacity(8)
        spareLevels.reserveCapacity(8)
        observe(firstLevel.controller)
    }

    /// Routes `c`'s state changes: input hand-over between the levels, retiring a dismissed level,
    /// the events. The level is `c`'s position in the stack when the change happens.
    func observe(_ c: PresentationController) {
        c.onStateChange = { [unowned self, unowned c] state in
            let index = self.levels.firstIndex { $0.controller === c } ?? 0
            self.dirty = true
            self.accessibilityGeneration &+= 1
            self.textInputGeneration &+= 1
            // The content below the level that changed: the presenting content or the level below.
            let below: (any PresentationContent)? = index == 0 ? self.presentingContent
                : (index - 1 < self.levels.count ? self.levels[index - 1].content : nil)
            if state == .presenting, let below {
                // A new modal layer came up during a press on what it covers (the presenting content,
                // or a lower level's presented or dimming view): the press ends, no tap. A level
                // that reverses its own dismissal covers nothing new.
                if let pr = self.press, pr.level <= index { self.abandonPress(now: self.lastNow) }
                self.use(below.handle(.hover(nil), now: self.lastNow))
            }
            if state == .dismissed {
                // A press on the level that left (or above it) ends there, without reaching what is
                // in front now.
                if let pr = self.press, pr.level > index { self.abandonPress(now: self.lastNow) }
                for l in self.levels[index...] { l.drag = LevelDrag(tracker: l.drag.tracker) }
                self.retireLevels(from: index)
                // What was below is in front again: it sees the pointer where it is.
                if self.press == nil, let p = self.pointer {
                    if index == 0 {
                        self.use(self.presentingContent.handle(.hover(p), now: self.lastNow))
                    } else if let top = self.levels.last {
                        self.use(top.content.handle(.hover(self.toPresented(p, level: top, now: self.lastNow)),
                                                    now: self.lastNow))
                    }
                }
            }
            if index == 0 { self.onStateChange(state) }
            self.onLevelStateChange(state, index + 1)
        }
        c.onDetentSettled = { [unowned self, unowned c] index in
            self.dirty = true
            // At rest at a detent the view is that tall: its content is laid out at the new size.
            if let level = self.levels.first(where: { $0.controller === c }) {
                level.content.didLayout(size: c.presentedViewFrame.size)
            }
            // Events number detents from 1, as `render --detent N` does (the declaration index + 1).
            self.onInteraction(.detent(index + 1))
        }
    }

    // MARK: State

    /// The presentation style (UIKit: the presented view controller's `presentationController`,
    /// asked for frames, chrome and timing).
    public var style: PresentationStyle { controller.style }
    /// The rectangle of the control the current (or last) presentation came from, container
    /// points (`TransitionContext/sourceRect`): set by ``present(_:style:sourceRect:now:)``; set it
    /// for an offline frame (``snapshot(phase:fraction:)``) of a presentation from that control.
    public var sourceRect: Rect? {
        get { controller.sourceRect }
        set { controller.sourceRect = newValue }
    }
    /// Whether transitions reduce motion (UIKit: `UIAccessibility.isReduceMotionEnabled`): the
    /// presented view cross-fades at its frame over `ReducedMotion`'s fade instead of moving, while
    /// the dim fades as usual. Read when a transition starts or reverses; a running one finishes as
    /// it started. ``snapshot(phase:fraction:)`` uses it at once.
    public var reducesMotion: Bool {
        get { controller.reducesMotion }
        set { controller.reducesMotion = newValue }
    }
    /// Whether the modal layer is up (input is captured by it).
    /// The presentation state of the top level (level 1's when nothing is presented).
    public var state: PresentationState { levels.last?.controller.state ?? controller.state }
    /// How many levels are in the stack (0 when nothing is presented; a level stays until its
    /// dismissal completes).
    public var levelCount: Int { levels.count }
    /// The controller of `level` (1...``levelCount``; level 1's is ``controller`` also when nothing
    /// is presented). Not public, like ``controller``.
    func controller(level: Int) -> PresentationController? {
        level >= 1 && level <= levels.count ? levels[level - 1].controller : (level == 1 ? controller : nil)
    }
    /// The presentation state of `level` (1...``levelCount``), `.dismissed` for a level not in the stack.
    public func state(level: Int) -> PresentationState { controller(level: level)?.state ?? .dismissed }
    /// The style of `level` (1...``levelCount``; level 1 also when nothing is presented), or nil.
    public func style(level: Int) -> PresentationStyle? { controller(level: level)?.style }
    /// The presented content of `level` (1...``levelCount``), or nil.
    public func presentedContent(level: Int) -> (any PresentationContent)? {
        level >= 1 && level <= levels.count ? levels[level - 1].content : nil
    }
    /// `level`'s presented view frame, points (``presentedViewFrame`` for that level), or nil for a
    /// level not in the stack.
    public func presentedViewFrame(level: Int) -> Rect? { controller(level: level)?.presentedViewFrame }
    /// Where `level`'s presented view is at `now`, points, as drawn (during a shape morph, between
    /// its two shapes); nil when that level is not presented.
    public func presentedViewRect(at now: Double, level: Int) -> Rect? {
        controller(level: level)?.effectivePresentedViewRect(at: now)
    }
    /// True while a transition or a shape morph runs on any level, or a content's scroll decelerates
    /// (``KineticScroll``).
    public var isAnimating: Bool {
        if isDecelerating { return true }
        if controller.isAnimating || controller.isMorphing { return true }
        for l in levels where l.controller.isAnimating || l.controller.isMorphing { return true }
        return false
    }
    /// Whether level 1's modal layer (its dimming view and presented view) is in front and takes all
    /// input: from a presentation's start until its dismissal completes.
    public var isModalLayerActive: Bool { controller.isModalLayerActive }
    /// The presented content of the top level (nil when dismissed).
    public var presentedContent: (any PresentationContent)? { levels.last?.content }
    /// The presented view's frame in the container, points: the style's `frameOfPresentedView`
    /// for the last layout (UIKit: `frameOfPresentedViewInContainerView`); meaningful while not
    /// ``PresentationState/dismissed`` (then the last presentation's).
    public var presentedViewFrame: Rect { controller.presentedViewFrame }
    /// Where the presented view is on screen at `now` (monotonic seconds), points: its frame under
    /// the style's transform at that moment (under reduced motion, its frame); nil when dismissed.
    /// What input hit-tests against.
    public func presentedViewRect(at now: Double) -> Rect? { controller.effectivePresentedViewRect(at: now) }
    /// The transition's linear time fraction at `now` (monotonic seconds): 0 dismissed … 1
    /// presented, moving at 1 / ``transitionDuration`` per second while a transition runs (the
    /// eased progress is the style's curve at this fraction).
    public func fraction(at now: Double) -> Double { controller.fraction(at: now) }
    /// The duration of the current (or last) transition from 0 to 1, seconds (the style's
    /// `transitionDuration` when it started; UIKit: `transitionDuration(using:)`).
    public var transitionDuration: Double { controller.transition.duration }
    /// True while animating, after a change not rendered yet, or when a content is invalidated.
    public var needsRedraw: Bool {
        if dirty || isAnimating || presentingContent.invalidation != .none { return true }
        for l in levels where l.content.invalidation != .none { return true }
        return false
    }

    // MARK: Layout

    /// The largest container side, points: the largest size `xdg_toplevel.configure` carries (a
    /// signed 32-bit integer).
    public static let maxContainerSide = Double(Int32.max)

    /// Sets the container size (points, each side clamped to 1…``maxContainerSide``; a side that is
    /// not a number counts as 1) and the scale (buffer pixels per point; not a positive finite number
    /// means 1), for every level. Any time, also mid-transition.
    public func layout(containerSize size: Size, scale: Double) {
        func side(_ v: Double) -> Double { v.isNaN ? 1 : min(max(1, v), PresentationHost.maxContainerSide) }
        containerSize = Size(width: side(size.width), height: side(size.height))
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        let bounds = Rect(size: containerSize)
        controller.layout(containerBounds: bounds)
        presentingContent.didLayout(size: containerSize)
        for l in levels {
            if l !== firstLevel { l.controller.layout(containerBounds: bounds) }
            l.content.didLayout(size: l.controller.presentedViewFrame.size)
        }
        dirty = true
        accessibilityGeneration &+= 1
        textInputGeneration &+= 1
    }

    /// A presented content's preferred size changed (UIKit's `invalidateDetents()` on a sheet,
    /// and `preferredContentSizeDidChange`): lays every level out again in the current container,
    /// so a style frame sized to the content (`LayoutContext/preferredContentSize(fittingWidth:)`)
    /// and the detents that fit it (`Detent/fitsContent(atMost:)`) are resolved again. A view at
    /// rest takes its new frame at once and its content gets ``PresentationContent/didLayout(size:)``
    /// with it; a view mid-transition or mid-drag moves toward the new frame. The host does not
    /// watch the content's preferred size itself (it is asked on a layout, never per frame): call
    /// this after changing what the content would answer.
    public func invalidateDetents() {
        layout(containerSize: containerSize, scale: scale)
    }

    /// Replaces the style while no transition runs (``PresentationController/replaceStyle(_:)``);
    /// a presented view takes the new style's frame and corners at once.
    /// - Returns: false (nothing changed) while a transition runs.
    @discardableResult
    public func replaceStyle(_ style: PresentationStyle) -> Bool {
        guard controller.replaceStyle(style) else { return false }
        layout(containerSize: containerSize, scale: scale)
        return true
    }

    // MARK: Transitions

    /// Presents `content` (UIKit: `present(_:animated:)`): as level 1 with the host's style when
    /// nothing is presented; over the top level, as a new level with `style` (nil: the host's
    /// style object), when the top level is presented (UIKit: the presented view controller
    /// presenting). Presenting the content being dismissed reverses its dismissal. Ignored (false)
    /// otherwise (a transition in progress, or a content already in the stack).
    ///
    /// Focus moves onto the new level itself: its content receives ``ContentInput/focus(_:)`` with
    /// nil before the presentation starts, so no control of it is focused (a Return that presented
    /// it activates nothing in it; Tab reaches its first control), and assistive technology
    /// announces the modal (``accessibilitySnapshot()``). A reversed dismissal keeps its focus.
    @discardableResult
    public func present(_ content: any PresentationContent, style: PresentationStyle? = nil,
                        sourceRect: Rect? = nil, now: Double) -> Bool {
        update(now: now)
        if let top = levels.last {
            if top.content === content {
                guard top.controller.state == .dismissing else { return false }
                dirty = true
                setSource(sourceRect, of: top.controller)
                return top.controller.present(now: now)
            }
            guard top.controller.state == .presented, !levels.contains(where: { $0.content === content })
            else { return false }
            let level = makeLevel(content, style: style ?? controller.style)
            level.controller.reducesMotion = controller.reducesMotion
            level.controller.layout(containerBounds: Rect(size: containerSize))
            levels.append(level)
        } else {
            levels.append(makeLevel(content, style: controller.style))
        }
        dirty = true
        let top = levels[levels.count - 1]
        lastPresentation += 1
        top.presentation = lastPresentation
        use(content.handle(.focus(nil), now: now))
        setSource(sourceRect, of: top.controller)
        let changed = top.controller.present(now: now)
        top.content.didLayout(size: top.controller.presentedViewFrame.size)
        return changed
    }

    /// `sourceRect` for the level `c` is about to present: the rectangle of the control that started
    /// the presentation, container points (UIKit's `sourceRect` of a popover), which every style hook
    /// receives in its `TransitionContext` so that a style can grow from it; nil when there is no
    /// such control. A reversed dismissal keeps the rectangle it had unless one is given.
    func setSource(_ sourceRect: Rect?, of c: PresentationController) {
        if let r = sourceRect {
            c.sourceRect = r
        } else if c.state == .dismissed {
            c.sourceRect = nil
        }
    }

    /// Dismisses the top level (UIKit: `dismiss(animated:)` on the topmost presented view
    /// controller); ignored (false) while it is dismissing or nothing is presented; reverses a
    /// running presentation.
    @discardableResult
    public func dismiss(now: Double) -> Bool {
        update(now: now)
        dirty = true
        return (levels.last?.controller ?? controller).dismiss(now: now)
    }

    /// Dismisses the level presenting `content` and every level it presented above it (UIKit:
    /// `dismiss(animated:)` on a view controller lower in the stack dismisses its child and all
    /// above it), not whatever is on top. The levels above it are removed at once, from the top
    /// down (each reports `dismissing` then `dismissed` through ``onLevelStateChange``, with no
    /// transition: UIKit removes the intermediate view controllers without animating them); the
    /// level itself then plays its dismissal from where it is (a running presentation reverses, a
    /// drag's spring takes it away), so the view the app asked to dismiss is the one that leaves
    /// and what it covered relaxes with it. For the top level this is ``dismiss(now:)``.
    /// - Returns: false (nothing changes) when `content` is in no level of the stack, or its level
    ///   is dismissing already with nothing above it.
    @discardableResult
    public func dismiss(_ content: any PresentationContent, now: Double) -> Bool {
        update(now: now)
        guard let index = levels.firstIndex(where: { $0.content === content }) else { return false }
        dirty = true
        var removed = false
        // From the top down: each removal retires its level (the observer's `dismissed`).
        while levels.count > index + 1, let top = levels.last {
            if !top.controller.removeWithoutTransition(now: now) { retireLevels(from: levels.count - 1) }
            removed = true
        }
        let dismissed = levels[index].controller.dismiss(now: now)
        return dismissed || removed
    }

    /// Advances the transitions of every level to `now` (monotonic seconds): completes those whose
    /// end has passed and settles springs, reporting each change (``onStateChange``,
    /// ``onLevelStateChange``, ``onInteraction``) in order. The one call that moves time forward:
    /// the frames drawn afterwards (``render(into:bufferAge:)``, ``layerFrame()``) show this `now`.
    /// An animation that ends here leaves the frame to draw (``needsRedraw``): the last one drawn
    /// showed it under way.
    public func update(now: Double) {
        lastNow = now
        let wasAnimating = isAnimating
        controller.update(now: now)
        // The levels above level 1, from the top (a completion may retire levels meanwhile).
        var i = levels.count - 1
        while i >= 0 {
            if i < levels.count, levels[i] !== firstLevel { levels[i].controller.update(now: now) }
            i -= 1
        }
        advanceKinetic(now: now)
        if wasAnimating && !isAnimating { dirty = true }
    }

    // MARK: Level stack

    /// The level to present `content` in: level 1 (``firstLevel``) when the stack is empty, else a
    /// spare level with the same content and style, else one with the same style (its controller
    /// and caches are reused), else a new one with any spare's caches.
    func makeLevel(_ content: any PresentationContent, style: PresentationStyle) -> PresentedLevel {
        if levels.isEmpty {
            take(content, into: firstLevel)
            return firstLevel
        }
        let matches: (PresentedLevel) -> Bool = { $0.controller.style === style }
        if let i = spareLevels.firstIndex(where: { $0.content === content && matches($0) })
            ?? spareLevels.firstIndex(where: matches) {
            let spare = spareLevels.remove(at: i)
            take(content, into: spare)
            return spare
        }
        let c = PresentationController(style: style)
        observe(c)
        let level = PresentedLevel(content: content, controller: c)
        if let spare = spareLevels.popLast() {
            level.cache = spare.cache
            level.covered = spare.covered
            level.version = spare.version + 1
        }
        return level
    }

    /// `level` shows `content` from now on: another content than it had is drawn anew (the same
    /// pixel size reuses the cache: no allocation).
    private func take(_ content: any PresentationContent, into level: PresentedLevel) {
        if level.content !== content {
            level.content = content
            level.key = nil
            level.version += 1
        }
        level.coveredFresh = true
    }

    /// Removes the levels from `index` on (their dismissal completed); those above level 1 are
    /// kept as spares.
    func retireLevels(from index: Int) {
        guard index < levels.count else { return }
        while levels.count > index {
            let l = levels.removeLast()
            if l === firstLevel { continue }
            if spareLevels.count >= 8 { spareLevels.removeFirst() }
            spareLevels.append(l)
        }
    }

    /// Frees the pixel caches (the presenting view's image, each level's presented-view and covered
    /// images: width × height × 4 bytes each, the presenting view's as large as the window) when
    /// nothing is presented and nothing animates — a window at rest shows its last frame from its
    /// own buffer. The next `render` draws the presenting view anew (straight into the window's
    /// buffer) and repaints the whole window; the next presentation draws the presenting view's
    /// cache and its card anew (docs/design.md, start-up and
    /// footprint). A window calls this after a while at rest (ModalKitWayland: 0.5 s).
    /// - Returns: true when caches were freed; false while something is presented or animating.
    @discardableResult
    public func releaseCachesAtRest() -> Bool {
        guard levels.isEmpty, !isAnimating else { return false }
        presentingCache = nil
        presentingCacheIsCurrent = false
        presentingKey = nil
        for level in [firstLevel] + spareLevels {
            level.cache = nil
            level.key = nil
            level.covered = nil
            level.coveredFresh = true
            level.version += 1
        }
        return true
    }

    /// Buffer pixels repainted by the last `render`, `renderOffline` or `renderPresentingLayer` (for
    /// benchmarks).
    public var lastPaintedPixelCount: Int {
        lastRenderWasLayer ? presentingRenderer.lastPaintedPixels : renderer.lastPaintedPixels
    }
}
