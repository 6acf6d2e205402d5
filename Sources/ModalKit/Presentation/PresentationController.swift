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
///
/// Its parts, one file each: this one holds the state and the container layout;
/// `+Transitions` drives present, dismiss and the clock; `+Geometry` answers where things are at a
/// moment; `+Dragging` is the interaction (drag, release, settling spring, detents); `+Morph` the
/// shape morph of adaptive styles; `+Snapshot` the frame's picture; `+DismissTap` the tap rule.
/// The state's setters are internal for those files only: nothing else in the module writes them.
public final class PresentationController {
    /// The style this controller drives; asked for frames, chrome and timing on every call.
    /// Replaced only between transitions (`replaceStyle(_:)`).
    public private(set) var style: PresentationStyle
    /// Where the presentation is in its life cycle; changes are reported to `onStateChange`.
    public internal(set) var state: PresentationState = .dismissed
    /// The transition's clock-independent state (linear time fraction and direction).
    public internal(set) var transition: Transition
    /// The container view's bounds, points.
    public private(set) var containerBounds: Rect = .zero
    /// The dimming view's frame (always the container bounds) while it is installed;
    /// `nil` when no dimming view is in the container.
    public internal(set) var dimmingViewFrame: Rect?
    /// The presented view's frame, points (valid while not `dismissed`): the style's
    /// `frameOfPresentedView` for the last layout (``styleFrame``), or, for a style with a drag
    /// gesture, that frame resized to the detent the view rests at (``DetentLayout/restingFrame(_:of:)``:
    /// at rest at a detent the sheet is that tall and its content is laid out at that height —
    /// UIKit's sheet). It changes when a drag settles on another detent (then the content is laid
    /// out again), never during the drag.
    public internal(set) var presentedViewFrame: Rect = .zero
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
    public internal(set) var isReducingMotion = false
    /// The presented view's cross-fade under reduced motion: a linear transition of
    /// `ReducedMotion.fadeDuration(forTransitionDuration:)` seconds whose fraction is the alpha.
    /// It runs alongside `transition` in every transition, so that switching `reducesMotion` on
    /// between transitions finds it where the presentation is (0 dismissed, 1 presented).
    public internal(set) var fade: Transition
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
    public internal(set) var currentDetent = 0
    /// Called when a drag's settling spring comes to rest on a detent (declaration index), after
    /// any state change it causes.
    public var onDetentSettled: (Int) -> Void = { _ in }

    /// Who places the presented view: the transition's clock, a drag, or a drag's settling spring.
    enum Motion {
        case clock
        case tracking(offset: Double)
        case settling(CriticalSpring, DetentLayout.Target)
    }
    var motion = Motion.clock

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

    func layoutSubviews() {
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

    // MARK: Shape morph state (the morph itself: PresentationController+Morph.swift)

    /// Where the presented view's frame and corner radii come from during a morph.
    struct MorphShape: Equatable {
        var frame: Rect, topRadius: Double, bottomRadius: Double
    }
    struct Morph {
        var from: MorphShape
        /// When the morph started (monotonic seconds); nil until the first `update(now:)` after the
        /// layout that started it (layouts carry no time).
        var start: Double?
    }
    var morph: Morph?
    /// The latest time passed to `update(now:)`, `present` or `dismiss`.
    var lastNow = 0.0

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

    func setState(_ s: PresentationState) {
        state = s
        onStateChange(s)
    }
}
