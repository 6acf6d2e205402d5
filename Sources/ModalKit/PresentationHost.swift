import CPixman

/// What of a content's pixels changed since it last drew (UIKit: `setNeedsDisplay()` /
/// `setNeedsDisplay(_:)`).
public enum ContentInvalidation: Hashable, Sendable {
    /// Nothing: the host keeps its cached pixels.
    case none
    /// Only this area changed, points in the content's own coordinates (the content still redraws
    /// everything when asked; the host damages only this area of the frame).
    case area(Rect)
    /// Everything changed.
    case all
}

/// A key the host routes (the window maps keysyms to these).
public enum PresentationKey: Hashable, Sendable {
    /// Escape: dismisses the presented view unless the presented content uses it (UIKit:
    /// `accessibilityPerformEscape`, ⌘. on iPad keyboards).
    case escape
    /// Return, KP_Enter or space: activates the focused control.
    case activate
    /// Tab / Shift-Tab: moves focus within the content that has it.
    case tab, backTab
}

/// Input delivered to a ``PresentationHost``. Positions are container points (the window's
/// surface-local logical coordinates).
public enum PresentationInput: Hashable, Sendable {
    /// The pointer is at this point (also when it enters the container).
    case pointerMotion(Point)
    /// The primary pointer button (BTN_LEFT) went down or up at the last motion position.
    case pointerButton(pressed: Bool)
    /// The pointer left the window: a pointer press in progress ends without a tap.
    case pointerLeave
    /// A touch point `id` went down here (`id`: the compositor's, unique while the point is down).
    /// Only the first touch point makes a press; others are ignored until it ends.
    case touchDown(id: Int32, Point)
    /// Touch point `id` moved here.
    case touchMotion(id: Int32, Point)
    /// Touch point `id` was lifted where it last was.
    case touchUp(id: Int32)
    /// The compositor took the touch sequence over (e.g. for a gesture): no tap happens.
    case touchCancel
    /// Key presses; releases (`pressed: false`) are ignored.
    case key(PresentationKey, pressed: Bool)
}

/// Input a content receives, positions in the content's own points (origin at its top-left,
/// unscaled by the presented view's transform). One press (pointer button or first touch) at a time.
public enum ContentInput: Hashable, Sendable {
    /// The pointer hovers at this point (nil: it left, or a modal layer covers this content).
    case hover(Point?)
    /// A press began here (the content was hit at press time; it gets the rest of the press).
    case press(Point)
    /// The press moved here (may be outside the content).
    case drag(Point)
    /// The press ended here: a tap if the content decides the point still hits what was pressed.
    case release(Point)
    /// The press ended without a tap (pointer left the window, touch cancelled).
    case cancel
    /// A key press while this content has keyboard focus.
    case key(PresentationKey)
}

/// App content shown by a ``PresentationHost``: the presenting view (UIKit: the root view
/// controller's view) or a presented view (`presentedViewController.view`). Main-thread only.
public protocol PresentationContent: AnyObject {
    /// What changed since the last ``draw(into:size:scale:)`` (UIKit's `setNeedsDisplay`). The
    /// host reads it before each frame and redraws the content's cache only when it is not `.none`.
    var invalidation: ContentInvalidation { get }
    /// Draws everything (replacing every pixel) into `image`: a pixman `PIXMAN_a8r8g8b8` image,
    /// premultiplied ARGB, of `size` points × `scale` buffer pixels per point (each side points ×
    /// scale rounded; `scale` > 0, whole or fractional; the exact pixel size is
    /// `Draw.pixelSize(of: image)` — draw nothing outside it). Afterwards `invalidation` must be `.none`.
    /// The host clips a presented view's corners itself. UIKit: `draw(_:)`.
    ///
    /// A presented content under a style whose chrome has a background colour finds `image`
    /// already filled with that colour (UIKit: the view's `backgroundColor` is painted before
    /// `draw(_:)`): a content that draws only its foreground (OVER) lets it show; one that fills
    /// every pixel hides it. Without a background colour the image holds the previous pixels and the
    /// content must paint every pixel (1.0). The border and the grabber are drawn over the content.
    func draw(into image: OpaquePointer, size: Size, scale: Double)
    /// Input that lands on this content at `now` (monotonic seconds). Returns whether it was used
    /// (a key not used by a presented content falls back to the host: Escape dismisses).
    func handle(_ input: ContentInput, now: Double) -> Bool
    /// The content's size changed, points (UIKit: `layoutSubviews` after a `bounds` change): the
    /// presenting content gets the container's size, a presented content its frame's size — before
    /// input reaches it and before it draws. Default: nothing.
    func didLayout(size: Size)
}

extension PresentationContent {
    public func didLayout(size: Size) {}
}

/// One presented view controller's worth of state: its controller, its content and the cache of
/// its pixels, and — while a level above covers it — the image of everything up to it.
private final class PresentedLevel {
    var content: any PresentationContent
    var controller: PresentationController
    var cache: Image?
    var key: PresentedKey?
    var version = 0
    /// Everything up to this level (presenting view, dims and cards below, this level's dim and
    /// card), composed by its own renderer into an image of the container's pixel size; drawn only
    /// while a level above covers this one, repainting only what changed.
    var covered: Image?
    var coveredRenderer = Renderer()
    var coveredFresh = true
    /// The press on this level's view that may become (or is) a drag.
    var drag = LevelDrag()
    init(content: any PresentationContent, controller: PresentationController) {
        self.content = content
        self.controller = controller
    }
}

/// A press on a presented view, on its way to being a drag (per level, so each presentation of a
/// stack keeps its own). Fixed storage: a drag frame allocates nothing.
private struct LevelDrag {
    /// A press on the draggable view is in progress.
    var isActive = false
    /// It moved ``DragPhysics/dragThreshold`` along the axis: the view follows it.
    var isDragging = false
    /// The press caught a moving view (the controller holds it since the press).
    var caught = false
    /// Where the press began, container points, and the view's offset then, points.
    var start = Point.zero
    var startOffset = 0.0
    /// The finger's offset now (unbanded), points toward dismissal.
    var raw = 0.0
    var tracker = VelocityTracker()
}

private struct PresentedKey: Equatable {
    var width: Int, height: Int, scale: Double, radius: Double, corners: CornerMask, bottomRadius: Double
    /// The chrome baked into the cache (background, border, grabber; the shadow is drawn apart).
    var chrome: PresentedViewChrome
}

/// The presentation host over one container (UIKit: the window's root view plus the
/// `UIPresentationController` machinery): owns the presenting content, the stack of presented
/// levels (each a content with its own ``PresentationController`` and style), the layer tree
/// (presenting view, then per level a dimming view and a presented view), their pixel caches,
/// input routing and rendering with damage.
///
/// - Layout: ``layout(containerSize:scale:)`` — points and buffer pixels per point; applies to every
///   level at once.
/// - Time: every entry point takes `now`, seconds of `CLOCK_MONOTONIC`; the host never reads a clock.
/// - Stacks (UIKit: a presented view controller presenting another): ``present(_:style:now:)``
///   while the top level is presented pushes a level; each level has its own dim over everything
///   below it; ``dismiss(now:)`` dismisses only the top level.
/// - Frames: ``snapshot(at:)`` is level 1's frame (``PresentationSnapshot``), ``snapshot(level:at:)``
///   any level's; ``render(into:now:bufferAge:)`` draws them all with the pixman ``Renderer``.
/// - Input routing (UIKit's modal presentation): while a modal layer is up (presenting,
///   presented or dismissing) all pointer and touch input goes to the top level — a press on its
///   presented view goes to its content, a tap (press and release) on its dimming view dismisses
///   it if the style's `shouldDismiss(onTapAt:in:)` agrees, and nothing reaches the levels below or
///   the presenting content; keys go to the top presented content (focus is trapped in it) and an
///   Escape it does not use dismisses the top level. Otherwise all input goes to the presenting
///   content. The target of a press is chosen at press time, so one click gives at most one action.
/// - Events: ``onStateChange`` gets level 1's state changes, ``onLevelStateChange`` every level's
///   (levels numbered from 1), synchronously, in order.
public final class PresentationHost {
    /// The controller of level 1 (the first presentation): state, transition, container geometry.
    /// Not public: its `present`, `dismiss` and `layout` would bypass the host's presented contents
    /// and caches; apps use the host's own members (``style``, ``state``, ``reducesMotion``,
    /// ``presentedViewFrame``, ``snapshot(phase:fraction:)`` …, and their per-level forms).
    let controller: PresentationController
    /// The presenting content (drawn at the container's size).
    public let presentingContent: any PresentationContent
    /// Called after each state change of level 1, with the new state: synchronously, in order, from
    /// within the call that caused it (`present`, `dismiss`, `handle`, `update`, `snapshot(at:)`,
    /// `render`).
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
    /// The buffer size `render` draws: ``containerSize`` at ``scale``, each side ``pixelLength(_:scale:)``.
    public var pixelSize: (width: Int, height: Int) { containerSize.pixelSize(scale: scale) }

    private var levels: [PresentedLevel] = []
    /// Dismissed levels, kept so that presenting again (the same content, or another of the same
    /// size, with the same style) reuses their caches and controllers instead of allocating.
    private var spareLevels: [PresentedLevel] = []
    private let renderer = Renderer()
    private var presentingCache: Image?
    private var presentingKey: (width: Int, height: Int, scale: Double)?
    private var presentingVersion = 0
    private var pendingPresentingDamage = PixelRect.zero
    /// Bumped when what lies under the top level changes as a whole (the stack's depth, a covered
    /// image made anew): the next frame repaints everything.
    private var compositionVersion = 0
    private var composedDepth = 0
    private var dirty = true
    /// The presenting-view-only renderer of a layer backend (``renderPresentingLayer(into:bufferAge:)``).
    private let presentingRenderer = Renderer()
    private let layerPainter = LayerPainter()
    /// Which renderer drew the window's buffers last (true: the presenting-view-only one): on a
    /// switch the other one's damage history is stale, so its next frame repaints everything.
    private var lastRenderWasLayer = false
    /// The `now` of the latest call (for content callbacks made from state changes).
    private var lastNow = 0.0

    private enum PressTarget { case presenting, dim, presented, nothing }
    private enum PressSource: Equatable { case pointer, touch(Int32) }
    private var pointer: Point?
    private var touchPoint: Point?
    private var press: (target: PressTarget, source: PressSource)?

    /// A host for `style` over `presenting`, nothing presented; call `layout` before rendering.
    public init(style: any PresentationStyle, presenting: any PresentationContent) {
        self.controller = PresentationController(style: style)
        self.presentingContent = presenting
        levels.reserveCapacity(8)
        spareLevels.reserveCapacity(8)
        observe(controller)
    }

    /// Routes `c`'s state changes: input hand-over between the levels, retiring a dismissed level,
    /// the events. The level is `c`'s position in the stack when the change happens.
    private func observe(_ c: PresentationController) {
        c.onStateChange = { [unowned self, unowned c] state in
            let index = self.levels.firstIndex { $0.controller === c } ?? 0
            self.dirty = true
            // The content below the level that changed: the presenting content or the level below.
            let below: (any PresentationContent)? = index == 0 ? self.presentingContent
                : (index - 1 < self.levels.count ? self.levels[index - 1].content : nil)
            if state == .presenting, let below {
                if let pr = self.press, pr.target == .presenting || (index > 0 && pr.target == .presented) {
                    // A new modal layer came up during a press on what it covers: the press ends, no tap.
                    self.press = (.nothing, pr.source)
                    self.use(below.handle(.cancel, now: self.lastNow))
                }
                self.use(below.handle(.hover(nil), now: self.lastNow))
            }
            if state == .dismissed {
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
        c.onDetentSettled = { [unowned self] index in
            self.dirty = true
            self.onInteraction(.detent(index))
        }
    }

    // MARK: State

    /// The presentation style (UIKit: the presented view controller's `presentationController`,
    /// asked for frames, chrome and timing).
    public var style: any PresentationStyle { controller.style }
    /// The rectangle of the control the current (or last) presentation came from, container
    /// points (``TransitionContext/sourceRect``): set by ``present(_:sourceRect:now:)``; set it
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
    public func style(level: Int) -> (any PresentationStyle)? { controller(level: level)?.style }
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
    /// True while a transition or a shape morph runs on any level.
    public var isAnimating: Bool {
        if controller.isAnimating || controller.isMorphing { return true }
        for l in levels where l.controller.isAnimating || l.controller.isMorphing { return true }
        return false
    }
    public var isModalLayerActive: Bool { controller.isModalLayerActive }
    /// The presented content of the top level (nil when dismissed).
    public var presentedContent: (any PresentationContent)? { levels.last?.content }
    /// The presented view's frame in the container, points: the style's `frameOfPresentedView(in:)`
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

    /// Sets the container size (points, each side ≥ 1) and the scale (buffer pixels per point;
    /// not a positive finite number means 1), for every level. Any time, also mid-transition.
    public func layout(containerSize size: Size, scale: Double) {
        containerSize = Size(width: max(1, size.width), height: max(1, size.height))
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        let bounds = Rect(size: containerSize)
        controller.layout(containerBounds: bounds)
        presentingContent.didLayout(size: containerSize)
        for l in levels {
            if l.controller !== controller { l.controller.layout(containerBounds: bounds) }
            l.content.didLayout(size: l.controller.presentedViewFrame.size)
        }
        dirty = true
    }

    /// Replaces the style while no transition runs (``PresentationController/replaceStyle(_:)``);
    /// a presented view takes the new style's frame and corners at once.
    /// - Returns: false (nothing changed) while a transition runs.
    @discardableResult
    public func replaceStyle(_ style: any PresentationStyle) -> Bool {
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
    @discardableResult
    public func present(_ content: any PresentationContent, style: (any PresentationStyle)? = nil,
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
        setSource(sourceRect, of: top.controller)
        let changed = top.controller.present(now: now)
        top.content.didLayout(size: top.controller.presentedViewFrame.size)
        return changed
    }

    /// `sourceRect` for the level `c` is about to present: the rectangle of the control that started
    /// the presentation, container points (UIKit's `sourceRect` of a popover), which every style hook
    /// receives in its ``TransitionContext`` so that a style can grow from it; nil when there is no
    /// such control. A reversed dismissal keeps the rectangle it had unless one is given.
    private func setSource(_ sourceRect: Rect?, of c: PresentationController) {
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

    /// Advances the transitions of every level to `now` (completions, events).
    public func update(now: Double) {
        lastNow = now
        controller.update(now: now)
        var i = levels.count - 1
        while i >= 0 {
            if i < levels.count, levels[i].controller !== controller { levels[i].controller.update(now: now) }
            i -= 1
        }
    }

    // MARK: Input

    /// Routes one input event at `now` (see the type's routing rules).
    public func handle(_ input: PresentationInput, now: Double) {
        update(now: now)
        switch input {
        case let .pointerMotion(p):
            pointer = p
            if let pr = press, pr.source == .pointer {
                deliverDrag(p, to: pr.target, now: now)
            } else if let top = levels.last {
                if passesInputThrough, !(top.controller.effectivePresentedViewRect(at: now)?.contains(p) ?? false) {
                    use(top.content.handle(.hover(nil), now: now))
                    use(presentingContent.handle(.hover(p), now: now))
                } else {
                    use(top.content.handle(.hover(toPresented(p, level: top, now: now)), now: now))
                }
            } else {
                use(presentingContent.handle(.hover(p), now: now))
            }
        case let .pointerButton(pressed):
            if pressed {
                if let p = pointer { beginPress(at: p, source: .pointer, now: now) }
            } else if let pr = press, pr.source == .pointer {
                endPress(at: pointer, now: now)
            }
        case .pointerLeave:
            // A leave ends the pointer's press without a tap: the release may never come to this
            // surface (sway sends none when the window is hidden while the button is held).
            pointer = nil
            if let pr = press, pr.source == .pointer {
                press = nil
                if !endDrag(cancelled: true, now: now) { deliver(.cancel, to: pr.target, now: now) }
            }
            use(presentingContent.handle(.hover(nil), now: now))
            if let top = levels.last { use(top.content.handle(.hover(nil), now: now)) }
        case let .touchDown(id, p):
            if press == nil {
                touchPoint = p
                beginPress(at: p, source: .touch(id), now: now)
            }
        case let .touchMotion(id, p):
            if let pr = press, pr.source == .touch(id) {
                touchPoint = p
                deliverDrag(p, to: pr.target, now: now)
            }
        case let .touchUp(id):
            if let pr = press, pr.source == .touch(id) {
                endPress(at: touchPoint, now: now)
                touchPoint = nil
            }
        case .touchCancel:
            if let pr = press, case .touch = pr.source {
                press = nil
                if !endDrag(cancelled: true, now: now) { deliver(.cancel, to: pr.target, now: now) }
            }
            touchPoint = nil
        case let .key(key, pressed):
            guard pressed else { return }
            if let top = levels.last {
                let used = top.content.handle(.key(key), now: now)
                use(used)
                if !used && key == .escape && (top.controller.state == .presenting || top.controller.state == .presented) {
                    userDismiss(now: now)
                }
            } else {
                use(presentingContent.handle(.key(key), now: now))
            }
        }
    }

    private func use(_ used: Bool) { if used { dirty = true } }

    /// A container point in `level`'s presented content's own points, under its current transform.
    private func toPresented(_ p: Point, level: PresentedLevel, now: Double) -> Point {
        let c = level.controller
        let r = c.effectivePresentedViewRect(at: now) ?? .zero
        let t = c.effectivePresentedViewTransform(at: now)
        let kx = t.scaleX > 0 ? t.scaleX : 1, ky = t.scaleY > 0 ? t.scaleY : 1
        return Point(x: (p.x - r.minX) / kx, y: (p.y - r.minY) / ky)
    }

    private func deliver(_ input: ContentInput, to target: PressTarget, now: Double) {
        switch target {
        case .presenting: use(presentingContent.handle(input, now: now))
        case .presented: if let top = levels.last { use(top.content.handle(input, now: now)) }
        case .dim, .nothing: break
        }
    }

    private func deliverDrag(_ p: Point, to target: PressTarget, now: Double) {
        if target == .presented, let level = levels.last, level.drag.isActive, let layout = level.controller.detentLayout {
            let controller = level.controller
            let d = (p.x - level.drag.start.x) * layout.axis.x + (p.y - level.drag.start.y) * layout.axis.y
            if !level.drag.isDragging {
                if abs(d) >= DragPhysics.dragThreshold {
                    // A drag now: the content's press ends without a tap (UIKit cancels the
                    // content's touches when the pan gesture recognizes).
                    level.drag.isDragging = true
                    if !level.drag.caught {
                        level.drag.startOffset = controller.beginDrag(now: now) ?? level.drag.startOffset
                    }
                    use(level.content.handle(.cancel, now: now))
                    onInteraction(.dragBegan)
                } else {
                    deliver(.drag(toPresented(p, level: level, now: now)), to: target, now: now)
                    return
                }
            }
            guard controller.isTracking else { return }  // the app dismissed it meanwhile
            level.drag.raw = level.drag.startOffset + d
            controller.drag(toRawOffset: level.drag.raw)
            level.drag.tracker.add(level.drag.raw, at: now)
            dirty = true
            return
        }
        guard target == .presented, let top = levels.last else {
            deliver(.drag(p), to: target, now: now)
            return
        }
        deliver(.drag(toPresented(p, level: top, now: now)), to: target, now: now)
    }

    /// Whether pointer and touch input outside the presented view reaches the presenting content:
    /// one level, resting at a detent its style leaves undimmed (UIKit passes touches through to
    /// the presenting view there). Keys stay with the presented content.
    private var passesInputThrough: Bool { levels.count == 1 && levels[0].controller.isRestingUndimmed }

    private func beginPress(at p: Point, source: PressSource, now: Double) {
        guard press == nil else { return }  // one press at a time (pointer or first touch)
        let target: PressTarget
        if let top = levels.last {
            let rect = top.controller.effectivePresentedViewRect(at: now) ?? .zero
            target = rect.contains(p) ? .presented : passesInputThrough ? .presenting : .dim
        } else {
            target = .presenting
        }
        press = (target, source)
        if target == .presented, let level = levels.last, level.controller.isDraggable {
            // A press on a draggable view: it becomes a drag after 8 pt along the axis. On a moving
            // view it catches it where it is (UIKit's interruptible transitions).
            let controller = level.controller
            let moving = controller.isAnimating
            let offset = moving ? controller.beginDrag(now: now) : controller.dragOffset(at: now)
            if let offset = offset {
                level.drag.isActive = true
                level.drag.isDragging = false
                level.drag.caught = moving
                level.drag.start = p
                level.drag.startOffset = offset
                level.drag.raw = offset
                level.drag.tracker.reset()
                level.drag.tracker.add(offset, at: now)
                dirty = true
            }
        }
        switch target {
        case .presenting: use(presentingContent.handle(.press(p), now: now))
        case .presented:
            if let top = levels.last { use(top.content.handle(.press(toPresented(p, level: top, now: now)), now: now)) }
        case .dim, .nothing: break
        }
    }

    private func endPress(at p: Point?, now: Double) {
        guard let pr = press else { return }
        press = nil
        if pr.target == .presented, endDrag(cancelled: p == nil, now: now) { return }
        guard let p = p else { deliver(.cancel, to: pr.target, now: now); return }
        switch pr.target {
        case .presenting:
            // The modal may have come up meanwhile (a key): then the press is cancelled.
            deliver(levels.isEmpty || passesInputThrough ? .release(p) : .cancel, to: .presenting, now: now)
        case .presented:
            if let top = levels.last { deliver(.release(toPresented(p, level: top, now: now)), to: .presented, now: now) }
        case .dim:
            // A tap on the top dimming view: press and release both outside its presented view.
            guard let top = levels.last?.controller, top.state == .presenting || top.state == .presented else { return }
            if top.tapOnDimDismisses(at: p, now: now) { userDismiss(now: now) }
        case .nothing:
            break
        }
    }

    /// A dismissal the user asked for (dim tap, Escape): refused with a close attempt when the
    /// style declares the presentation not dismissible (UIKit's `isModalInPresentation`).
    private func userDismiss(now: Double) {
        if (levels.last?.controller ?? controller).interaction.isDismissible {
            dismiss(now: now)
        } else {
            onInteraction(.closeAttempt)
        }
    }

    /// Ends the top level's drag, if its press is a drag: the release velocity over the last
    /// 100 ms, the spring to the projected target, the events. A press that caught a moving view
    /// without becoming a drag lets it resume. `cancelled`: the press ended without a release
    /// (pointer left, touch cancelled): released with velocity 0.
    /// - Returns: true when the press was a drag (the content's press was cancelled already).
    private func endDrag(cancelled: Bool, now: Double) -> Bool {
        guard let level = levels.last, level.drag.isActive else { return false }
        let controller = level.controller
        level.drag.isActive = false
        guard level.drag.isDragging else {
            if level.drag.caught { controller.resumeAfterCatch(now: now) }
            dirty = true
            return false
        }
        level.drag.isDragging = false
        guard controller.isTracking else { return true }
        // The motion samples of the 100 ms before the release (a finger that rested longer
        // before lifting releases at rest).
        let v = cancelled ? 0 : level.drag.tracker.velocity(at: now)
        onInteraction(.dragEnded(velocity: v))
        let release = controller.endDrag(rawOffset: level.drag.raw, velocity: v, now: now)
        if release?.refusedDismissal == true { onInteraction(.closeAttempt) }
        dirty = true
        return true
    }

    // MARK: Rendering

    /// Level 1's frame at `now` (after advancing the transitions to it): see ``PresentationSnapshot``.
    public func snapshot(at now: Double) -> PresentationSnapshot {
        update(now: now)
        return controller.snapshot(at: now)
    }

    /// `level`'s frame at `now` (1...``levelCount``; level 1 also when nothing is presented), after
    /// advancing the transitions to it; nil for a level not in the stack.
    public func snapshot(level: Int, at now: Double) -> PresentationSnapshot? {
        update(now: now)
        return self.controller(level: level)?.snapshot(at: now)
    }

    /// The frame at linear time fraction `fraction` (0...1, clamped) of a presentation (`.present`) or
    /// a dismissal (`.dismiss`, = a presentation at 1 − fraction) in the current container, offline:
    /// by the same geometry function as ``snapshot(at:)``, without changing any state (for
    /// ``renderOffline(_:presented:into:)``, e.g. `modal-demo render`). Under ``reducesMotion`` the
    /// cross-fade `fraction × duration` seconds into the phase.
    public func snapshot(phase: TransitionPhase, fraction: Double) -> PresentationSnapshot {
        controller.snapshot(phase: phase, fraction: fraction)
    }

    /// Renders the frame for `now` (monotonic seconds, after advancing the transitions to it) into
    /// `target` (``pixelSize`` buffer pixels, premultiplied ARGB8888): the presenting view, then per
    /// level its dim and its presented view. A content cache that cannot be allocated (no memory)
    /// leaves that layer out of the frame; nothing throws.
    /// - Parameter bufferAge: 0 = the target's contents are undefined (everything is painted);
    ///   n ≥ 1 = it holds the frame rendered n `render` calls ago (only what changed is painted).
    /// - Returns: the damage relative to the previous frame, buffer pixels (for
    ///   `wl_surface.damage_buffer`); reused by the next call, do not keep it.
    /// Cost: caches are redrawn only when their content said it changed or their size/scale
    /// changed; a level below the top is composed into its covered image only where it changed;
    /// after warm-up a frame allocates nothing.
    @discardableResult
    public func render(into target: PixelBuffer, now: Double, bufferAge: Int) -> [PixelRect] {
        if lastRenderWasLayer { renderer.reset() }
        lastRenderWasLayer = false
        update(now: now)
        let damage = compose(into: target, bufferAge: bufferAge, record: true) { i in
            i < levels.count ? levels[i].controller.snapshot(at: now) : controller.snapshot(at: now)
        }
        dirty = false
        return damage
    }

    /// Renders `snapshot` (e.g. ``snapshot(phase:fraction:)``) offscreen into
    /// `target` (``pixelSize``) from the same caches and compositor as `render`, without touching
    /// the live frame history. With nothing presented, `presented` is drawn into the presented cache
    /// for the picture (not presented: no state change, no event).
    public func renderOffline(_ snapshot: PresentationSnapshot, presented content: (any PresentationContent)?,
                              into target: PixelBuffer) {
        renderOffline([snapshot], presented: content.map { [$0] } ?? [], into: target)
    }

    /// Renders a stack offscreen: `snapshots[i]` is level i + 1's frame (e.g. the lower levels
    /// presented and the top one at some fraction), `contents[i]` its presented content; the same
    /// compositor as `render`, without touching the live frame history. With nothing presented,
    /// the contents are drawn into level caches for the picture (no state change, no event).
    public func renderOffline(_ snapshots: [PresentationSnapshot], presented contents: [any PresentationContent],
                              into target: PixelBuffer) {
        guard !snapshots.isEmpty else { return }
        let temporary = levels.isEmpty
        if temporary {
            for (i, c) in contents.enumerated() where i < snapshots.count {
                levels.append(makeLevel(c, style: controller.style))
                c.didLayout(size: snapshots[i].presentedFrame.size)
            }
        }
        compose(into: target, bufferAge: 0, record: false, depth: min(snapshots.count, max(levels.count, 1))) { i in
            snapshots[min(i, snapshots.count - 1)]
        }
        if temporary && controller.state == .dismissed { retireLevels(from: 0) }
    }

    /// Draws the stack into `target`: levels below the top composed into their covered images
    /// (each from the one below, repainting only its damage), the top level drawn into `target`
    /// over the covered image of the level below (or the presenting cache).
    @discardableResult
    private func compose(into target: PixelBuffer, bufferAge: Int, record: Bool, depth: Int? = nil,
                         _ snapshotOf: (Int) -> PresentationSnapshot) -> [PixelRect] {
        let n = depth ?? max(levels.count, 1)
        if record && n != composedDepth {
            composedDepth = n
            compositionVersion += 1
        }
        let (pw, ph) = pixelSize
        updatePresentingCache(width: pw, height: ph)  // before its damage is read
        var below = presentingCache?.pixmanImage
        var belowDamage = record ? pendingPresentingDamage : .zero
        var i = 0
        while i < n - 1 {
            let level = levels[i]
            let snap = snapshotOf(i)
            var frame = layerFrame(for: snap, level: level)
            // Covered by the level above: its style's "presenting view while covered" look applies
            // to this level's presented view (UIKit's page sheet over a sheet: the lower one recedes),
            // animated with the level above's progress; the dims stay over the whole container.
            let covering = snapshotOf(i + 1).presentingAppearance
            if covering != .identity, frame.hasCard { recede(&frame, snap, covering) }
            // Over a level (not the presenting view), this level's own look for what it covers went
            // to that level's presented view (above), not to the whole composed image.
            if i > 0 { frame.presentingRect = nil }
            if level.covered?.width != pw || level.covered?.height != ph {
                level.covered = try? Image(width: pw, height: ph)
                level.coveredFresh = true
            }
            if level.coveredFresh && record { compositionVersion += 1 }
            frame.presentingVersion = presentingVersion &+ (compositionVersion << 24)
            guard let covered = level.covered else { break }
            let fresh = level.coveredFresh || !record
            let d = level.coveredRenderer.render(frame, presenting: below, presented: level.cache?.pixmanImage,
                                                 presentingDamage: belowDamage, into: covered.pixelBuffer,
                                                 bufferAge: fresh ? 0 : 1, record: record)
            // An unrecorded (offline) composition leaves the image out of step with the renderer's
            // history: the next live frame paints it whole.
            level.coveredFresh = !record
            var union = PixelRect.zero
            for r in d { union = union.union(r) }
            belowDamage = union
            below = covered.pixmanImage
            i += 1
        }
        let topIndex = n - 1
        var frame: LayerFrame
        var top: OpaquePointer?
        if topIndex < levels.count {
            frame = layerFrame(for: snapshotOf(topIndex), level: levels[topIndex])
            top = levels[topIndex].cache?.pixmanImage
        } else {
            frame = layerFrame(for: snapshotOf(topIndex), level: nil)
        }
        frame.presentingVersion = presentingVersion &+ (compositionVersion << 24)
        if topIndex > 0 { frame.presentingRect = nil }
        let damage = renderer.render(frame, presenting: below, presented: top, presentingDamage: belowDamage,
                                     into: target, bufferAge: bufferAge, record: record)
        if record { pendingPresentingDamage = .zero }
        return damage
    }

    /// `frame`'s presented view (of `snap`) under `look`: its transform relative to the view's
    /// shown rectangle (translation, then scale about the anchor) and its alpha; the view is then
    /// drawn scaled from its cache (the corner radius of `look` is not applied to a presented view,
    /// which keeps its own corners).
    private func recede(_ frame: inout LayerFrame, _ snap: PresentationSnapshot, _ look: PresentingViewAppearance) {
        let t = look.transform
        guard t.scaleX > 0, t.scaleY > 0 else { frame.card = .zero; return }
        let r = PresentationController.apply(t, to: snap.presentedRect)
        let s = scale
        let x = Int((r.minX * s).rounded()), y = Int((r.minY * s).rounded())
        frame.card = PixelRect(x: x, y: y, width: Int((r.maxX * s).rounded()) - x, height: Int((r.maxY * s).rounded()) - y)
        let a = Double(frame.cardAlpha) * min(max(t.alpha, 0), 1)
        frame.cardAlpha = UInt32(a.rounded())
        if frame.card.isEmpty || frame.cardAlpha == 0 { frame.card = .zero }
    }

    private func makeLevel(_ content: any PresentationContent, style: any PresentationStyle) -> PresentedLevel {
        let isFirst = levels.isEmpty
        // A spare level with the same content and controller style, else one with the same style
        // (its controller and caches are reused), else any spare's caches.
        let matches: (PresentedLevel) -> Bool = { l in
            isFirst ? l.controller === self.controller : (l.controller !== self.controller && l.controller.style === style)
        }
        if let i = spareLevels.firstIndex(where: { $0.content === content && matches($0) })
            ?? spareLevels.firstIndex(where: matches) {
            let spare = spareLevels.remove(at: i)
            if spare.content !== content {
                spare.content = content
                spare.key = nil  // same pixel size → no allocation; the key forces a redraw
                spare.version += 1
            }
            spare.coveredFresh = true
            return spare
        }
        let c = isFirst ? controller : PresentationController(style: style)
        if !isFirst { observe(c) }
        let level = PresentedLevel(content: content, controller: c)
        if let spare = spareLevels.popLast() {
            level.cache = spare.cache
            level.covered = spare.covered
            level.version = spare.version + 1
        }
        return level
    }

    /// Removes the levels from `index` on (their dismissal completed) and keeps them as spares.
    private func retireLevels(from index: Int) {
        guard index < levels.count else { return }
        while levels.count > index {
            let l = levels.removeLast()
            if spareLevels.count >= 8 { spareLevels.removeFirst() }
            spareLevels.append(l)
        }
    }

    /// Buffer pixels repainted by the last `render` or `renderOffline` (for benchmarks).
    public var lastPaintedPixelCount: Int { renderer.lastPaintedPixels }

    // MARK: Layer backends

    /// Snap the presented view's position to whole points (then × scale, rounded) in every frame
    /// this host renders or resolves, live or offline: the unit of `wl_subsurface.set_position`, so a
    /// backend that moves the presented view as a sub-surface and the pixman renderer draw it at the
    /// same pixel. Default false (position = points × scale rounded). No effect at scale 1.
    public var snapsPositionsToPoints = false

    /// The frame at `now` resolved to buffer pixels (``PresentationSnapshot/layerFrame(scale:)``,
    /// positions snapped per ``snapsPositionsToPoints``), with both caches brought up to date and their
    /// versions set: what a backend that composes the layers itself shows (the presenting view
    /// through ``renderPresentingLayer(into:bufferAge:)``, the dim as one colour, the presented view
    /// through ``drawPresentedLayer(_:into:)`` at `card`). Advances the transitions to `now`.
    /// With more than one level presented (a stack) this is the top level's frame alone: a layer
    /// backend composes one level (``levelCount`` ≤ 1) and leaves stacks to ``render(into:now:bufferAge:)``.
    public func layerFrame(at now: Double) -> LayerFrame {
        update(now: now)
        let level = levels.last
        let f = layerFrame(for: (level?.controller ?? controller).snapshot(at: now), level: level)
        dirty = false
        return f
    }

    /// Renders only the presenting view (no dim, no presented view) into `target` (``pixelSize``),
    /// with damage and buffer age as ``render(into:now:bufferAge:)``: the window's own buffer under
    /// layers the compositor composes. Call after ``layerFrame(at:)`` of the same frame. Returns an
    /// empty list when nothing changed since the last call (then nothing needs attaching).
    @discardableResult
    public func renderPresentingLayer(into target: PixelBuffer, bufferAge: Int) -> [PixelRect] {
        if !lastRenderWasLayer { presentingRenderer.reset() }
        lastRenderWasLayer = true
        var f = LayerFrame()
        (f.width, f.height) = pixelSize
        f.presentingVersion = presentingVersion
        let damage = presentingRenderer.render(f, presenting: presentingCache?.pixmanImage, presented: nil,
                                               presentingDamage: pendingPresentingDamage, into: target,
                                               bufferAge: bufferAge, record: true)
        pendingPresentingDamage = .zero
        return damage
    }

    /// Whether the presenting view changed since the last ``renderPresentingLayer(into:bufferAge:)``
    /// (or a frame was rendered by ``render(into:now:bufferAge:)`` since, whose buffer holds more than
    /// the presenting view). Call after ``layerFrame(at:)`` of the same frame.
    public var presentingLayerNeedsRender: Bool {
        !lastRenderWasLayer || !pendingPresentingDamage.isEmpty
            || presentingRenderer.lastFrame.map { $0.presentingVersion != presentingVersion
                || ($0.width, $0.height) != pixelSize } ?? true
    }

    /// Draws the presented view of `frame` (from ``layerFrame(at:)``) into `target`, the buffer of a
    /// layer showing it at `frame.card`'s origin: `frame.card`'s size in its top-left corner, every
    /// other pixel transparent (so `target` may be padded, e.g. to whole points). Opaque and unscaled,
    /// that is the cache as it is (draw it once per ``LayerFrame/cardVersion`` and size); with an
    /// alpha below 255 or a scale it is the cache at that alpha and scale, drawn by pixman as
    /// ``render(into:now:bufferAge:)`` would (a compositor without `wp_alpha_modifier_v1` cannot
    /// fade a surface). Nothing is drawn without a presented view.
    ///
    /// With a drop shadow (``LayerFrame/hasShadow``) the view is drawn at `cardOffset` (pixels;
    /// ``PresentedLayerPlacement/cardOffsetX`` and `cardOffsetY`) over its shadow, which fills the
    /// rest of `target` as the full renderer draws it (× the view's alpha): `target` is then the
    /// placement's buffer, drawn once per content, size and shadow while the view is opaque and unscaled.
    public func drawPresentedLayer(_ frame: LayerFrame, into target: PixelBuffer, cardOffset: (x: Int, y: Int) = (0, 0)) {
        guard frame.hasCard, let cache = levels.last?.cache else { return }
        layerPainter.draw(frame, cache: cache.pixmanImage, into: target, cardX: cardOffset.x, cardY: cardOffset.y)
    }

    /// The snapshot resolved to pixels, with the caches brought up to date.
    private func layerFrame(for snap: PresentationSnapshot, level: PresentedLevel?) -> LayerFrame {
        var f = snap.layerFrame(scale: scale)
        if snapsPositionsToPoints, f.hasCard {
            let shown = snap.presentedRect
            f.card.x = Int((shown.minX.rounded() * scale).rounded())
            f.card.y = Int((shown.minY.rounded() * scale).rounded())
        }
        updatePresentingCache(width: f.width, height: f.height)
        f.presentingVersion = presentingVersion
        guard f.hasCard, let level else {
            f.card = .zero
            return f
        }
        let radius = snap.presentedCornerRadius(scale: scale)
        let bottom = snap.presentedBottomCornerRadius(scale: scale)
        var chrome = snap.chrome
        chrome.shadow = nil
        updatePresentedCache(level, PresentedKey(width: f.cardSourceWidth, height: f.cardSourceHeight, scale: scale,
                                                 radius: radius, corners: radius > 0 ? snap.corners.corners : [],
                                                 bottomRadius: bottom, chrome: chrome),
                             size: snap.presentedFrame.size)
        f.cardVersion = level.version
        return f
    }

    private func updatePresentingCache(width: Int, height: Int) {
        let sameSize = presentingKey.map { $0.width == width && $0.height == height && $0.scale == scale } ?? false
        let inval = presentingContent.invalidation
        if sameSize && inval == .none { return }
        if presentingCache?.width != width || presentingCache?.height != height {
            presentingCache = try? Image(width: width, height: height)
        }
        presentingKey = (width, height, scale)
        guard let cache = presentingCache else { return }
        presentingContent.draw(into: cache.pixmanImage, size: containerSize, scale: scale)
        if sameSize, case let .area(r) = inval {
            let s = r.scaled(by: scale)
            let px = PixelRect(x: Int(s.minX.rounded(.down)), y: Int(s.minY.rounded(.down)),
                               width: Int(s.maxX.rounded(.up)) - Int(s.minX.rounded(.down)),
                               height: Int(s.maxY.rounded(.up)) - Int(s.minY.rounded(.down)))
            pendingPresentingDamage = pendingPresentingDamage.union(px)
        } else {
            presentingVersion += 1
        }
    }

    private func updatePresentedCache(_ level: PresentedLevel, _ key: PresentedKey, size: Size) {
        guard key != level.key || level.content.invalidation != .none else { return }
        if level.cache?.width != key.width || level.cache?.height != key.height {
            level.cache = try? Image(width: key.width, height: key.height)
        }
        level.key = key
        guard let cache = level.cache else { return }
        let image = cache.pixmanImage
        if let background = key.chrome.backgroundColor {
            Draw.fill(image, width: key.width, height: key.height, color: background)
        }
        level.content.draw(into: image, size: size, scale: key.scale)
        Self.drawChrome(key.chrome, into: image, width: key.width, height: key.height, scale: key.scale,
                        radius: key.radius, corners: key.corners)
        if key.bottomRadius == key.radius {
            Draw.clipCorners(image, width: key.width, height: key.height, radius: key.radius, corners: key.corners)
        } else {  // a shape morph: top and bottom corners each with their own radius
            Draw.clipCorners(image, width: key.width, height: key.height, radius: key.radius,
                             corners: key.corners.intersection(.top))
            Draw.clipCorners(image, width: key.width, height: key.height, radius: key.bottomRadius,
                             corners: key.corners.subtracting(.top))
        }
        level.version += 1
    }

    /// The chrome the host draws over a presented content (buffer pixels, `width × height`, corner
    /// `radius` in pixels): the border inside the rounded edge (CALayer's `borderWidth`, drawn over
    /// the content), then the grabber — ``PresentedViewChrome/grabberSize`` with fully rounded ends,
    /// centred, ``PresentedViewChrome/grabberTopInset`` below the top edge (UIKit's sheet grabber).
    /// The background is filled before the content draws (see ``PresentationContent``).
    static func drawChrome(_ chrome: PresentedViewChrome, into image: OpaquePointer, width: Int, height: Int,
                           scale: Double, radius: Double, corners: CornerMask) {
        let w = Double(width), h = Double(height)
        if let border = chrome.border, border.width > 0, border.color.alpha > 0 {
            let bw = min(border.width * scale, w / 2, h / 2)
            Draw.fillRoundedRect(image, x: 0, y: 0, width: w, height: h, radius: radius, corners: corners,
                                 color: border.color, ring: (inset: bw, radius: max(0, radius - bw)))
        }
        if let grabber = chrome.grabber, grabber.alpha > 0 {
            let gw = PresentedViewChrome.grabberSize.width * scale, gh = PresentedViewChrome.grabberSize.height * scale
            Draw.fillRoundedRect(image, x: (w - gw) / 2, y: PresentedViewChrome.grabberTopInset * scale,
                                 width: gw, height: gh, radius: gh / 2, color: grabber)
        }
    }
}
