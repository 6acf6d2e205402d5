/// Drives one `PresentationStyle` through `dismissed → presenting → presented → dismissing →
/// dismissed`, the way UIKit drives a `UIPresentationController`, and owns the container's view
/// geometry: the dimming view (container bounds, while it is installed) and the presented
/// view (the style's frame, re-applied on every layout, plus the style's transform at the current
/// progress).
///
/// Rules (UIKit's `UIPresentationController` behaviour):
/// - `present` while `presenting`/`presented` is ignored (a double activation gives one modal);
///   during `dismissing` it reverses from the current position: `dismissalTransitionDidEnd(completed:
///   false)`, then `presentationTransitionWillBegin()`.
/// - `dismiss` while `dismissing`/`dismissed` is ignored; during `presenting` it reverses:
///   `presentationTransitionDidEnd(completed: false)`, then `dismissalTransitionWillBegin()`.
/// - The dimming view is installed when a presentation begins and removed only when a
///   dismissal *completes* (`dismissalTransitionDidEnd(completed: true)`).
/// - `layout(containerBounds:)` at any time, also mid-transition, calls
///   `containerViewWillLayoutSubviews`, re-applies the container bounds to the dimming view and the
///   style's `frameOfPresentedView` to the presented view, then `containerViewDidLayoutSubviews`.
///
/// - Reduced motion (`reducesMotion`, see `ReducedMotion`): the presented view stays at its final
///   place and cross-fades over `min(0.2 s, duration)` while the dim fades as usual. The flag is
///   read when a transition starts (or reverses); a change meanwhile applies from the next one.
///
/// Time is passed in (`now`, monotonic seconds); nothing here reads a clock.
public final class PresentationController {
    /// The style this controller drives; asked for frames, chrome and timing on every call.
    /// Replaced only between transitions (`replaceStyle(_:)`).
    public private(set) var style: PresentationStyle
    /// Where the presentation is in its life cycle; changes are reported to `onStateChange`.
    public private(set) var state: PresentationState = .dismissed
    /// The transition's clock-independent state (linear time fraction and direction).
    public private(set) var transition: Transition
    /// The container view's bounds, points.
    public private(set) var containerBounds: Rect = .zero
    /// The dimming view's frame (always the container bounds) while it is installed;
    /// `nil` when no dimming view is in the container.
    public private(set) var dimmingViewFrame: Rect?
    /// The presented view's frame, points (valid while not `dismissed`): the style's
    /// `frameOfPresentedView` for the last layout (``styleFrame``), or, for a style with a drag
    /// gesture, that frame resized to the detent the view rests at (``DetentLayout/restingFrame(_:of:)``:
    /// at rest at a detent the sheet is that tall and its content is laid out at that height —
    /// UIKit's sheet). It changes when a drag settles on another detent (then the content is laid
    /// out again), never during the drag.
    public private(set) var presentedViewFrame: Rect = .zero
    /// The style's `frameOfPresentedView` for the last layout, points: the presented view's frame
    /// at its largest detent.
    public private(set) var styleFrame: Rect = .zero
    /// The presented content's preferred size for a width (points → points, nil: no preference),
    /// given to the style's frame hook (`LayoutContext/preferredContentSize(fittingWidth:)`);
    /// the host sets it to its level's content. Nil: no content to ask.
    public var contentSizing: ((Double) -> Size?)?
    /// The presented view's corner clip for the last layout.
    public private(set) var presentedCornerStyle: CornerStyle = .square
    /// Called after each state change, with the new state.
    public var onStateChange: (PresentationState) -> Void = { _ in }
    /// Whether transitions should reduce motion (UIKit: `UIAccessibility.isReduceMotionEnabled`):
    /// the presented view cross-fades at its final place instead of moving and the presenting
    /// view's recede jumps (`ReducedMotion`). Read at the start of each transition (a running
    /// transition finishes as it started) and at each layout (a shape change applies at once).
    public var reducesMotion = false
    /// Whether the current (or last) transition reduces motion: `reducesMotion` as it was when
    /// that transition started or reversed.
    public private(set) var isReducingMotion = false
    /// The presented view's cross-fade under reduced motion: a linear transition of
    /// `ReducedMotion.fadeDuration(forTransitionDuration:)` seconds whose fraction is the alpha.
    /// It runs alongside `transition` in every transition, so that switching `reducesMotion` on
    /// between transitions finds it where the presentation is (0 dismissed, 1 presented).
    public private(set) var fade: Transition
    /// The rectangle of the control that started the presentation, container points, or nil
    /// (part of the `TransitionContext` every style hook receives).
    public var sourceRect: Rect?

    /// The style's interactions as read at the last layout (`InteractionDeclaration`).
    public private(set) var interaction: InteractionDeclaration = .standard
    /// The resting places along the drag axis for the last layout; nil when the style declares
    /// no drag gesture (the presented view then rests at its frame).
    public private(set) var detentLayout: DetentLayout?
    /// The detent the presented view rests at (or last rested at), declaration index; a
    /// presentation comes to rest at the smallest detent (UIKit's sheet).
    public private(set) var currentDetent = 0
    /// Called when a drag's settling spring comes to rest on a detent (declaration index), after
    /// any state change it causes.
    public var onDetentSettled: (Int) -> Void = { _ in }

    /// Who places the presented view: the transition's clock, a drag, or a drag's settling spring.
    private enum Motion {
        case clock
        case tracking(offset: Double)
        case settling(CriticalSpring, DetentLayout.Target)
    }
    private var motion = Motion.clock

    /// The context of the current (or, at rest, the last) transition: dismissing while
    /// `dismissing`, presenting otherwise.
    public var transitionContext: TransitionContext {
        TransitionContext(phase: state == .dismissing ? .dismiss : .present, isInteractive: false,
                          sourceRect: sourceRect, containerBounds: containerBounds)
    }

    /// A controller at rest, `dismissed`, with empty container bounds until `layout(containerBounds:)`.
    public init(style: PresentationStyle) {
        self.style = style
        let context = TransitionContext(phase: .present, containerBounds: .zero)
        let duration = style.transitionDuration(context)
        self.transition = Transition(duration: duration, curve: style.timingCurve(context))
        self.fade = Transition(duration: ReducedMotion.fadeDuration(forTransitionDuration: duration),
                               curve: .linear)
    }

    /// Whether the dimming view is in the container (from the start of a presentation until a
    /// dismissal completes).
    public var isDimmingViewInstalled: Bool { dimmingViewFrame != nil }

    /// Whether the presented view moves on its own: a transition runs (not held by a drag), or a
    /// drag's settling spring runs.
    public var isAnimating: Bool {
        switch motion {
        case .clock: return state == .presenting || state == .dismissing
        case .tracking: return false
        case .settling: return true
        }
    }

    /// Whether a drag holds the presented view (``beginDrag(now:)`` until ``endDrag(rawOffset:velocity:now:)``).
    public var isTracking: Bool { if case .tracking = motion { return true } else { return false } }

    /// Whether the modal layer (dimming view + presented view) is in front and takes all input.
    public var isModalLayerActive: Bool { state != .dismissed }

    /// Whether the presented view rests, presented, at a detent the style leaves undimmed
    /// (UIKit's `largestUndimmedDetentIdentifier`): the view underneath is then not covered, and
    /// UIKit passes touches outside the sheet through to it.
    public var isRestingUndimmed: Bool {
        guard state == .presented, case .clock = motion, let layout = detentLayout,
              currentDetent < layout.offsets.count else { return false }
        return layout.dimProgress(at: layout.offsets[currentDetent]) == 0
    }

    // MARK: Layout

    /// Applies new container bounds (points). Outside a presentation only the bounds are stored;
    /// during one, the style's layout hooks run and the frames are re-applied, as UIKit does on a
    /// container layout.
    public func layout(containerBounds bounds: Rect) {
        containerBounds = bounds
        guard state != .dismissed else { return }
        layoutSubviews()
    }

    private func layoutSubviews() {
        let layout = LayoutContext(containerBounds: containerBounds)
        style.containerViewWillLayoutSubviews(layout)
        dimmingViewFrame = containerBounds
        // Where the view shows now (during a morph, between its two shapes), before the new frame.
        let shown = morph.map { shape(of: $0, at: lastNow) } ?? targetShape
        let oldCorners = presentedCornerStyle
        styleFrame = style.frameOfPresentedView(LayoutContext(containerBounds: containerBounds,
                                                              preferredContentSize: contentSizing))
        presentedViewFrame = styleFrame
        presentedCornerStyle = style.cornerStyle(layout)
        // A layout that changes which corners are rounded changes the presented view's shape (an
        // adaptive style crossing its breakpoint: sheet ↔ card). While presented, the view morphs
        // from where it shows now to the new shape, never dismissing; a layout meanwhile retargets.
        // Under reduced motion the new shape applies at once (a jump: nothing moves or scales).
        if reducesMotion {
            morph = nil
        } else if state != .dismissed, shown.frame != .zero,
                  oldCorners.corners != presentedCornerStyle.corners || morph != nil {
            morph = Morph(from: shown, start: nil)
        }
        interaction = style.interaction(layout)
        let oldLayout = detentLayout
        if case let .drag(direction) = interaction.dismissGesture {
            detentLayout = DetentLayout(interaction, direction: direction, frame: styleFrame,
                                        containerBounds: containerBounds,
                                        contentLength: Self.contentLength(contentSizing, along: direction, frame: styleFrame))
            if currentDetent >= detentLayout!.offsets.count { currentDetent = detentLayout!.initialDetent }
            presentedViewFrame = detentLayout!.restingFrame(currentDetent, of: styleFrame)
        } else {
            detentLayout = nil
            if let oldLayout { handMotionToClock(from: oldLayout, now: lastNow) }
            currentDetent = 0
        }
        style.containerViewDidLayoutSubviews(layout)
    }

    // MARK: Shape morph (adaptive styles)

    /// The morph's duration, seconds, and curve: 0.25 s ease-in-out.
    public static let morphDuration = 0.25
    /// The timing curve of a shape morph (``morphDuration`` seconds long).
    public static let morphCurve = TimingCurve.easeInOut

    /// Where the presented view's frame and corner radii come from during a morph.
    struct MorphShape: Equatable {
        var frame: Rect, topRadius: Double, bottomRadius: Double
    }
    private struct Morph {
        var from: MorphShape
        /// When the morph started (monotonic seconds); nil until the first `update(now:)` after the
        /// layout that started it (layouts carry no time).
        var start: Double?
    }
    private var morph: Morph?
    /// The latest time passed to `update(now:)`, `present` or `dismiss`.
    private var lastNow = 0.0

    /// Whether the presented view is morphing between two shapes (it needs frames meanwhile).
    public var isMorphing: Bool { morph != nil }

    private var targetShape: MorphShape {
        MorphShape(frame: presentedViewFrame, topRadius: presentedCornerStyle.topRadius,
                   bottomRadius: presentedCornerStyle.bottomRadius)
    }

    private func shape(of m: Morph, at now: Double) -> MorphShape {
        let to = targetShape
        guard let start = m.start else { return m.from }
        let t = min(max((now - start) / PresentationController.morphDuration, 0), 1)
        let k = PresentationController.morphCurve.value(at: t)
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * k }
        return MorphShape(frame: Rect(x: mix(m.from.frame.minX, to.frame.minX), y: mix(m.from.frame.minY, to.frame.minY),
                                      width: mix(m.from.frame.width, to.frame.width),
                                      height: mix(m.from.frame.height, to.frame.height)),
                          topRadius: mix(m.from.topRadius, to.topRadius),
                          bottomRadius: mix(m.from.bottomRadius, to.bottomRadius))
    }

    /// The presented view's frame at `now` as shown: ``presentedViewFrame``, or during a morph the
    /// frame between the old and the new shape (points).
    public func displayedFrame(at now: Double) -> Rect {
        guard let m = morph else { return presentedViewFrame }
        return shape(of: m, at: now).frame
    }

    /// The presented view's corner clip at `now` as shown: ``presentedCornerStyle``, or during a
    /// morph the radii between the old and the new shape (top and bottom corners apart).
    public func displayedCorners(at now: Double) -> (style: CornerStyle, bottomRadius: Double?) {
        guard let m = morph else { return (presentedCornerStyle, nil) }
        let s = shape(of: m, at: now)
        var mask: CornerMask = []
        if s.topRadius > 0 { mask.formUnion(.top) }
        if s.bottomRadius > 0 { mask.formUnion([.bottomLeft, .bottomRight]) }
        return (CornerStyle(radius: s.topRadius > 0 ? s.topRadius : s.bottomRadius, corners: mask), s.bottomRadius)
    }

    private func advanceMorph(now: Double) {
        guard var m = morph else { return }
        if m.start == nil { m.start = now; morph = m }
        if now - m.start! >= PresentationController.morphDuration { morph = nil }
    }

    /// Replaces the style while no transition runs (a style reloaded from its plugin file): when
    /// something is presented, the new style's frame and corners apply at once (as after a
    /// container layout, with its layout hooks); its duration and curve apply from the next
    /// transition. A running transition finishes with the style it started with.
    /// - Returns: false (nothing changed) while a transition runs.
    @discardableResult
    public func replaceStyle(_ newStyle: PresentationStyle) -> Bool {
        guard !isAnimating else { return false }
        style = newStyle
        if state != .dismissed { layoutSubviews() }
        return true
    }

    // MARK: Transitions

    /// Starts a presentation at `now`, or reverses a running dismissal.
    /// - Returns: whether anything changed (false when already presenting or presented).
    @discardableResult
    public func present(now: Double) -> Bool {
        lastNow = now
        if case .clock = motion {} else {
            // A drag or its spring holds the view: a present heads it for the smallest detent.
            guard state == .dismissing, let layout = detentLayout else { return false }
            settle(toward: .detent(layout.initialDetent), velocity: currentVelocity(at: now), now: now)
            return true
        }
        switch state {
        case .presenting, .presented:
            return false
        case .dismissed:
            style.presentationTransitionWillBegin()
            layoutSubviews()  // installs the dimming view and applies the frame
            currentDetent = detentLayout?.initialDetent ?? 0
            presentedViewFrame = layout(detentFrameOf: currentDetent)
        case .dismissing:
            style.dismissalTransitionDidEnd(false)  // the dimming view stays
            style.presentationTransitionWillBegin()
        }
        refreshTiming(.present, now: now)
        transition.run(.forward, now: now)
        fade.run(.forward, now: now)
        setState(.presenting)
        update(now: now)
        return true
    }

    /// Starts a dismissal at `now`, or reverses a running presentation from its current position.
    /// - Returns: whether anything changed (false when already dismissing or dismissed).
    @discardableResult
    public func dismiss(now: Double) -> Bool {
        lastNow = now
        if case let .settling(_, target) = motion, target == .dismissed { return false }
        if case .clock = motion {} else {
            // A drag or its spring holds the view: the spring takes it away from where it is.
            settle(toward: .dismissed, velocity: currentVelocity(at: now), now: now)
            return true
        }
        switch state {
        case .dismissed, .dismissing:
            return false
        case .presenting:
            style.presentationTransitionDidEnd(false)
            style.dismissalTransitionWillBegin()
        case .presented:
            style.dismissalTransitionWillBegin()
        }
        refreshTiming(.dismiss, now: now)
        transition.run(.backward, now: now)
        fade.run(.backward, now: now)
        setState(.dismissing)
        update(now: now)
        return true
    }

    /// Removes the presented view at once, without a transition (UIKit removes the view
    /// controllers between the one dismissed and the top of the stack "simply … from the stack"):
    /// a running presentation ends uncompleted, a drag or spring is dropped, the style's dismissal
    /// hooks run as for a completed dismissal, and the state passes through `dismissing` to
    /// `dismissed`. Internal: ``PresentationHost/dismiss(_:now:)`` uses it for the levels above
    /// the one it dismisses.
    /// - Returns: false when already dismissed.
    @discardableResult
    func removeWithoutTransition(now: Double) -> Bool {
        lastNow = now
        guard state != .dismissed else { return false }
        motion = .clock
        switch state {
        case .presenting:
            style.presentationTransitionDidEnd(false)
            style.dismissalTransitionWillBegin()
            setState(.dismissing)
        case .presented:
            style.dismissalTransitionWillBegin()
            setState(.dismissing)
        case .dismissing, .dismissed:
            break
        }
        transition.set(fraction: 0, direction: .backward)
        fade.set(fraction: 0, direction: .backward)
        style.dismissalTransitionDidEnd(true)
        dimmingViewFrame = nil
        morph = nil
        setState(.dismissed)
        return true
    }

    /// Advances to `now`: completes a transition whose end has been reached (calling the
    /// `…DidEnd(completed: true)` hook, removing the dimming view after a dismissal).
    public func update(now: Double) {
        lastNow = now
        advanceMorph(now: now)
        switch motion {
        case .tracking:
            return
        case let .settling(spring, target):
            if spring.isSettled(at: now) { finishSettling(target) }
            return
        case .clock:
            break
        }
        guard isAnimating, transition.isFinished(at: now) else { return }
        transition.stop(now: now)
        // The fade is never longer than the transition (F ≤ D): it has ended too; put it at the end
        // exactly, so that the next transition starts from 0 or 1.
        fade.set(fraction: state == .presenting ? 1 : 0, direction: state == .presenting ? .forward : .backward)
        if state == .presenting {
            style.presentationTransitionDidEnd(true)
            setState(.presented)
        } else {
            style.dismissalTransitionDidEnd(true)
            dimmingViewFrame = nil
            morph = nil
            setState(.dismissed)
        }
    }

    /// The duration, curve and direction of the curve for a transition in `phase`
    /// (`PresentationStyle/transitionDuration`, `PresentationStyle/timingCurve`):
    /// a dismissal whose curve equals the presentation's plays the presentation backwards (1.0);
    /// one with its own curve runs it forward from the presented end
    /// (``Transition/runsFromPresentedEnd``).
    public static func timing(style: PresentationStyle, phase: TransitionPhase, sourceRect: Rect?,
                              containerBounds: Rect) -> (duration: Double, curve: TimingCurve, runsFromPresentedEnd: Bool) {
        let present = TransitionContext(phase: .present, sourceRect: sourceRect, containerBounds: containerBounds)
        let presentCurve = style.timingCurve(present)
        guard phase == .dismiss else { return (max(0, style.transitionDuration(present)), presentCurve, false) }
        let dismiss = TransitionContext(phase: .dismiss, sourceRect: sourceRect, containerBounds: containerBounds)
        let curve = style.timingCurve(dismiss)
        return (max(0, style.transitionDuration(dismiss)), curve, curve != presentCurve)
    }

    /// Takes the timing of `phase` from the style. When a running transition reverses into a
    /// phase with another curve mapping, its linear fraction is moved to where the new mapping
    /// gives the progress it had, so the view does not jump.
    private func refreshTiming(_ phase: TransitionPhase, now: Double) {
        let before = transition.progress(at: now)
        let reversing = isAnimating
        let timing = PresentationController.timing(style: style, phase: phase, sourceRect: sourceRect,
                                                   containerBounds: containerBounds)
        let changed = timing.curve != transition.curve || timing.runsFromPresentedEnd != transition.runsFromPresentedEnd
        transition.duration = timing.duration
        transition.curve = timing.curve
        transition.runsFromPresentedEnd = timing.runsFromPresentedEnd
        if reversing, changed {
            transition.stop(now: now)
            transition.set(fraction: transition.fraction(nearestProgress: before), direction: transition.direction)
        }
        fade.duration = ReducedMotion.fadeDuration(forTransitionDuration: transition.duration)
        isReducingMotion = reducesMotion
    }

    private func setState(_ s: PresentationState) {
        state = s
        onStateChange(s)
    }

    // MARK: Geometry at a moment

    /// Linear time fraction at `now` (0 dismissed … 1 presented).
    public func fraction(at now: Double) -> Double { transition.fraction(at: now) }

    /// Eased progress at `now`; the value the style's appearance methods receive.
    public func progress(at now: Double) -> Double { transition.progress(at: now) }

    /// The dimming view's appearance at eased `progress` (`.none` when the dimming view is not installed).
    /// The style is asked at `progress` clamped to 0...1: a spring curve's overshoot moves the
    /// presented view past its frame, but the dim never gets darker than its presented alpha (nor
    /// lighter than clear).
    public func dimmingAppearance(progress: Double) -> DimmingAppearance {
        isDimmingViewInstalled ? style.dimmingAppearance(min(max(progress, 0), 1), transitionContext) : .none
    }

    /// The presented view's transform at eased `progress`, relative to `presentedViewFrame` (the
    /// frame at the resting detent): the style's.
    public func presentedViewTransform(progress: Double) -> ViewTransform {
        style.presentedViewTransform(progress, presentedViewFrame, transitionContext)
    }

    /// The placement of a view at rest on ``currentDetent`` (the frame for a style without drag):
    /// at its resized frame, the dim × the detent's dim progress.
    var restingPlacement: PresentedPlacement {
        guard let layout = detentLayout, currentDetent < layout.offsets.count else { return .frame }
        return .resting(rest: .zero, dimFactor: layout.dimProgress(at: layout.offsets[currentDetent]))
    }

    /// The frame and placement of `style` resting at `detent` (declaration index; nil: the smallest
    /// detent, where a presentation comes to rest) for the style's `frame` in `bounds` (offline
    /// frames); the frame itself and ``PresentedPlacement/frame`` for a style without a drag gesture.
    /// A `detent` the style does not have is the smallest one.
    /// `contentSizing` answers the content's preferred size (``contentSizing``), for detents that
    /// fit the content.
    static func restingShape(style: PresentationStyle, frame: Rect, bounds: Rect, detent: Int? = nil,
                             contentSizing: ((Double) -> Size?)? = nil) -> (frame: Rect, placement: PresentedPlacement) {
        let interaction = style.interaction(LayoutContext(containerBounds: bounds))
        guard case let .drag(direction) = interaction.dismissGesture else { return (frame, .frame) }
        let layout = DetentLayout(interaction, direction: direction, frame: frame, containerBounds: bounds,
                                  contentLength: contentLength(contentSizing, along: direction, frame: frame))
        let i = detent.flatMap { $0 >= 0 && $0 < layout.offsets.count ? $0 : nil } ?? layout.initialDetent
        return (layout.restingFrame(i, of: frame),
                .resting(rest: .zero, dimFactor: layout.dimProgress(at: layout.offsets[i])))
    }

    /// The content's preferred length along a drag in `direction`, points, for a presented view
    /// whose frame is `frame`: its preferred height at the frame's width for a vertical drag, its
    /// preferred width (asked at the frame's width) for a horizontal one; nil when there is no
    /// content to ask or it does not say (`Detent/fitsContent(atMost:)` resolves from it).
    static func contentLength(_ sizing: ((Double) -> Size?)?, along direction: DragDirection, frame: Rect) -> Double? {
        guard let sizing else { return nil }
        let ask = LayoutContext(containerBounds: frame, preferredContentSize: sizing)
        guard let size = ask.preferredContentSize(fittingWidth: frame.width) else { return nil }
        return direction.isVertical ? size.height : size.width
    }

    /// Where the presented view is on screen at eased `progress`, points: its frame translated by
    /// the transform, then scaled about its centre (`nil` when dismissed).
    public func presentedViewRect(progress: Double) -> Rect? {
        guard state != .dismissed else { return nil }
        return PresentationController.apply(presentedViewTransform(progress: progress), to: presentedViewFrame)
    }

    /// The presented view's transform at `now` as drawn, relative to `presentedViewFrame`: the
    /// style's transform at `progress(at: now)`, or, while reducing motion, its final place with
    /// the cross-fade's alpha (`ReducedMotion`). The one place the window, hit-testing and
    /// benchmarks get the presented view's geometry from.
    public func effectivePresentedViewTransform(at now: Double) -> ViewTransform {
        guard state != .dismissed else { return presentedViewTransform(progress: 0) }
        return snapshot(at: now).presentedTransform
    }

    /// Where the presented view is on screen at `now`, points, as drawn
    /// (`effectivePresentedViewTransform(at:)` applied to its frame; `nil` when dismissed).
    public func effectivePresentedViewRect(at now: Double) -> Rect? {
        guard state != .dismissed else { return nil }
        return PresentationController.apply(effectivePresentedViewTransform(at: now), to: displayedFrame(at: now))
    }

    /// Where `frame` (points) shows under `t`: moved by `t.translation`, then scaled by
    /// `t.scaleX`/`t.scaleY` about the anchor point `t.anchor` (unit coordinates of the moved frame,
    /// Core Animation's `anchorPoint`), points; `t.alpha` does not change the rectangle.
    public static func apply(_ t: ViewTransform, to frame: Rect) -> Rect {
        let moved = frame.offsetBy(dx: t.translation.x, dy: t.translation.y)
        guard !t.isUnscaled else { return moved }
        let ax = moved.minX + t.anchor.x * moved.width, ay = moved.minY + t.anchor.y * moved.height
        return Rect(x: ax + (moved.minX - ax) * t.scaleX, y: ay + (moved.minY - ay) * t.scaleY,
                    width: moved.width * t.scaleX, height: moved.height * t.scaleY)
    }

    // MARK: Dragging (interactive transitions)

    /// The offset the drag or its spring puts the view at, at `now`; nil when the clock places it.
    func draggedOffset(at now: Double) -> Double? {
        switch motion {
        case .clock: return nil
        case let .tracking(offset): return offset
        case let .settling(spring, _): return spring.position(at: now)
        }
    }

    private func currentVelocity(at now: Double) -> Double {
        if case let .settling(spring, _) = motion { return spring.velocity(at: now) }
        return 0
    }

    /// Where the presented view is at `now` along the drag axis, points toward dismissal from its
    /// frame (the drag's or spring's offset, or the clock's transform projected on the axis); nil
    /// when the style declares no drag or nothing is presented.
    public func dragOffset(at now: Double) -> Double? {
        guard state != .dismissed, let layout = detentLayout else { return nil }
        if let o = draggedOffset(at: now) { return o }
        // The clock moves the view from its resting frame, which is offset by the detent's offset.
        return layout.offsets[min(currentDetent, layout.offsets.count - 1)]
            + layout.offset(of: snapshot(at: now).presentedTransform.translation)
    }

    /// Whether the presented view can be dragged (a drag gesture declared, something presented).
    public var isDraggable: Bool { state != .dismissed && detentLayout != nil }

    /// A drag takes hold of the presented view at `now`, where it is (a running transition or
    /// spring stops there: UIKit's interruptible animations). No state changes, no hooks.
    /// - Returns: the offset it holds the view at, points; nil when not draggable.
    @discardableResult
    public func beginDrag(now: Double) -> Double? {
        update(now: now)
        guard let offset = dragOffset(at: now) else { return nil }
        transition.stop(now: now)
        motion = .tracking(offset: offset)
        return offset
    }

    /// The drag's finger puts the view at `raw` points toward dismissal from its frame; the view
    /// shows there, rubber-banded past the largest detent and — when dismissal is refused —
    /// past the smallest detent (``DetentLayout/displayedOffset(raw:dismissible:)``).
    /// - Returns: the displayed offset (nil when no drag holds the view).
    @discardableResult
    public func drag(toRawOffset raw: Double) -> Double? {
        guard isTracking, let layout = detentLayout else { return nil }
        let shown = layout.displayedOffset(raw: raw, dismissible: interaction.isDismissible)
        motion = .tracking(offset: shown)
        return shown
    }

    /// The outcome of a drag's release.
    public struct DragRelease: Hashable, Sendable {
        /// Where the spring takes the view.
        public var target: DetentLayout.Target
        /// The release would have dismissed a presentation that refuses it (report a close attempt).
        public var refusedDismissal: Bool
    }

    /// Releases the drag at `now` with the finger at `raw` (points toward dismissal, unbanded) and
    /// moving at `velocity` (points per second, + toward dismissal): the target is the nearest of
    /// the detents and the dismissed position to the projected position
    /// (``DetentLayout/target(releasedAt:velocity:)``); a refused dismissal goes to the nearest
    /// detent instead. A critically damped spring starting at `velocity` takes the view from where
    /// it shows to the target. Heading for dismissal, the state becomes `dismissing` (hooks as for
    /// `dismiss`); heading for a detent from `dismissing`, `presenting`.
    /// - Returns: nil when no drag holds the view.
    @discardableResult
    public func endDrag(rawOffset raw: Double, velocity: Double, now: Double) -> DragRelease? {
        guard isTracking, let layout = detentLayout else { return nil }
        var target = layout.target(releasedAt: raw, velocity: velocity)
        var refused = false
        if target == .dismissed && !interaction.isDismissible {
            refused = true
            target = .detent(layout.nearestDetent(to: DragPhysics.projectedPosition(raw, velocity: velocity)))
        }
        settle(toward: target, velocity: velocity, now: now)
        return DragRelease(target: target, refusedDismissal: refused)
    }

    /// Moves a view resting at a detent (presented, no drag holding it) to detent `i` (declaration
    /// index) with the settling spring, from rest (UIKit: `animateChanges` setting the sheet's
    /// `selectedDetentIdentifier`; a scroll toward expansion does it, ``ScrollArbitration``).
    /// - Returns: false when it is not resting there (or `i` is out of range or already its detent).
    @discardableResult
    public func animate(toDetent i: Int, now: Double) -> Bool {
        update(now: now)
        guard state == .presented, !isTracking, !isAnimating, let layout = detentLayout,
              i >= 0, i < layout.offsets.count, i != currentDetent else { return false }
        settle(toward: .detent(i), velocity: 0, now: now)
        return true
    }

    /// The detent a view resting at ``currentDetent`` grows to next: the one with the largest
    /// offset smaller than the current one's (the next larger size), or nil at the largest.
    public var nextLargerDetent: Int? {
        guard let layout = detentLayout, currentDetent < layout.offsets.count else { return nil }
        let here = layout.offsets[currentDetent]
        var best: Int?
        for (i, o) in layout.offsets.enumerated() where o < here - 0.5 {
            if best == nil || o > layout.offsets[best!] { best = i }
        }
        return best
    }

    /// A press caught the view and ended without becoming a drag: it resumes toward where it
    /// was heading (the smallest detent while presenting, away while dismissing, its spring's
    /// target while settling), from rest.
    public func resumeAfterCatch(now: Double) {
        guard isTracking, let layout = detentLayout else { return }
        settle(toward: state == .dismissing ? .dismissed
                   : (state == .presenting ? .detent(layout.initialDetent) : .detent(currentDetent)),
               velocity: 0, now: now)
    }

    /// Starts the settling spring from where the view is now toward `target`, with the state
    /// changes and hooks that heading there implies.
    private func settle(toward target: DetentLayout.Target, velocity: Double, now: Double) {
        guard let layout = detentLayout, let from = dragOffset(at: now) else { return }
        switch (target, state) {
        case (.dismissed, .presented):
            style.dismissalTransitionWillBegin()
            setState(.dismissing)
        case (.dismissed, .presenting):
            style.presentationTransitionDidEnd(false)
            style.dismissalTransitionWillBegin()
            setState(.dismissing)
        case (.detent, .dismissing):
            style.dismissalTransitionDidEnd(false)
            style.presentationTransitionWillBegin()
            setState(.presenting)
        default:
            break
        }
        motion = .settling(CriticalSpring(from: from, velocity: velocity, to: layout.offset(of: target), at: now),
                           target)
        update(now: now)
    }

    /// The drag gesture went away with a layout (an adaptive style's sheet became a card) while a
    /// drag or its spring held the view: the transition's clock takes the view over where it is —
    /// the progress of its offset between the detent it rests at (1) and the dismissed position (0)
    /// — and runs on toward where the state heads (presenting, dismissing; presented stays at 1), so
    /// the presentation goes on as a clock transition (a `present` reverses a dismissal again).
    /// No state changes, no hooks.
    private func handMotionToClock(from layout: DetentLayout, now: Double) {
        guard let offset = draggedOffset(at: now) else { return }
        motion = .clock
        let rest = layout.offsets[min(currentDetent, layout.offsets.count - 1)]
        let span = layout.dismissedOffset - rest
        let p = span != 0 ? min(max(1 - (offset - rest) / span, 0), 1) : 1
        switch state {
        case .presenting, .dismissing:
            let direction: Transition.Direction = state == .presenting ? .forward : .backward
            transition.set(fraction: transition.fraction(nearestProgress: p), direction: direction)
            transition.run(direction, now: now)
            fade.set(fraction: p, direction: direction)
            fade.run(direction, now: now)
        case .presented:
            transition.set(fraction: 1, direction: .forward)
            fade.set(fraction: 1, direction: .forward)
        case .dismissed:
            break
        }
    }

    /// The style's frame resized to detent `i` (the frame itself without a drag gesture).
    private func layout(detentFrameOf i: Int) -> Rect {
        detentLayout.map { $0.restingFrame(min(i, $0.offsets.count - 1), of: styleFrame) } ?? styleFrame
    }

    private func finishSettling(_ target: DetentLayout.Target) {
        motion = .clock
        switch target {
        case let .detent(i):
            currentDetent = i
            presentedViewFrame = layout(detentFrameOf: i)
            transition.set(fraction: 1, direction: .forward)
            fade.set(fraction: 1, direction: .forward)
            if state == .presenting {
                style.presentationTransitionDidEnd(true)
                setState(.presented)
            }
            onDetentSettled(i)
        case .dismissed:
            transition.set(fraction: 0, direction: .backward)
            fade.set(fraction: 0, direction: .backward)
            style.dismissalTransitionDidEnd(true)
            dimmingViewFrame = nil
            setState(.dismissed)
        }
    }
}
