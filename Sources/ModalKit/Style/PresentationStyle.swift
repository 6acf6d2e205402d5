import Glibc

/// A custom presentation: the analogue of a `UIPresentationController` subclass together with
/// its animator. It decides where the presented view sits in the container view, what chrome
/// (the dimming view) is animated alongside the transition, how the presented view moves, and
/// whether a tap dismisses.
///
/// All geometry is in points in the container's coordinate space (origin top-left). `progress`
/// is the eased transition progress, 0 = fully dismissed, 1 = fully presented; the engine
/// computes it from the monotonic clock with `timingCurve` over `transitionDuration`. During a
/// dismissal progress runs from 1 back to 0, so a style describes one path for both directions.
///
/// This protocol is what the engine drives. A style that users select with `--style` also
/// conforms to `LoadablePresentationStyle` (name, options, initialiser) and is built as its own
/// shared library; the host sees it through the C ABI as another `PresentationStyle`.
public protocol PresentationStyle: AnyObject {
    /// Transition duration in seconds (UIKit's `transitionDuration(using:)`).
    var transitionDuration: Double { get }
    /// The curve from linear time fraction to progress.
    var timingCurve: TimingCurve { get }

    /// The presented view's frame when fully presented, for a container of the given bounds
    /// (UIKit's `frameOfPresentedViewInContainerView`). Re-asked on every container layout.
    func frameOfPresentedView(in containerBounds: Rect) -> Rect
    /// The presented view's corner radius and rounded corners; content is clipped to it.
    func cornerStyle(forPresentedViewIn containerBounds: Rect) -> CornerStyle
    /// The dimming view at `progress` (animated alongside the transition). It always covers the
    /// whole container bounds and never moves. `progress` is clamped to 0...1 here, even when a
    /// spring curve overshoots (the overshoot reaches `presentedViewTransform` only).
    func dimmingAppearance(at progress: Double) -> DimmingAppearance
    /// The presented view's transform at `progress`, relative to `frame` (its final frame).
    /// With a spring curve `progress` can exceed 1 briefly (overshoot).
    func presentedViewTransform(at progress: Double, frame: Rect, in containerBounds: Rect) -> ViewTransform
    /// Whether a tap at `point` outside the presented view (on the dimming view) dismisses.
    func shouldDismiss(onTapAt point: Point, in containerBounds: Rect) -> Bool

    /// UIKit: `presentationTransitionWillBegin()`.
    func presentationTransitionWillBegin()
    /// UIKit: `presentationTransitionDidEnd(_ completed:)`; `completed == false` when the
    /// presentation was reversed into a dismissal before it finished.
    func presentationTransitionDidEnd(completed: Bool)
    /// UIKit: `dismissalTransitionWillBegin()`.
    func dismissalTransitionWillBegin()
    /// UIKit: `dismissalTransitionDidEnd(_ completed:)`; `completed == false` when the dismissal
    /// was reversed into a presentation (the chrome then stays).
    func dismissalTransitionDidEnd(completed: Bool)
    /// UIKit: `containerViewWillLayoutSubviews()`, with the new container bounds.
    func containerViewWillLayoutSubviews(containerBounds: Rect)
    /// UIKit: `containerViewDidLayoutSubviews()`, with the new container bounds.
    func containerViewDidLayoutSubviews(containerBounds: Rect)

    // MARK: Style ABI 1.1 — each has a default that gives exactly the 1.0 behaviour.

    /// The duration of the transition described by `context`, seconds (a dismissal may differ from
    /// the presentation; UIKit's `transitionDuration(using:)` gets the context too).
    /// Default: `transitionDuration`.
    func transitionDuration(for context: TransitionContext) -> Double
    /// The timing curve of the transition described by `context`. Default: `timingCurve`.
    func timingCurve(for context: TransitionContext) -> TimingCurve
    /// The dimming view at `progress` (clamped to 0...1) in `context`.
    /// Default: `dimmingAppearance(at:)`.
    func dimmingAppearance(at progress: Double, context: TransitionContext) -> DimmingAppearance
    /// The presented view's transform at `progress` in `context`, relative to `frame`.
    /// Default: `presentedViewTransform(at:frame:in:)` with the context's container bounds.
    func presentedViewTransform(at progress: Double, frame: Rect, context: TransitionContext) -> ViewTransform
    /// The presented view's chrome (background, border, shadow, grabber) in a container of these
    /// bounds. Default: ``PresentedViewChrome/none`` (the content paints every pixel of the view).
    func chrome(forPresentedViewIn containerBounds: Rect) -> PresentedViewChrome
    /// How the presenting view (or the level below, in a stack) looks while this presentation
    /// covers it, at `progress` (clamped to 0...1) — UIKit's page sheet makes it recede.
    /// Default: ``PresentingViewAppearance/identity``.
    func presentingViewAppearance(at progress: Double, context: TransitionContext) -> PresentingViewAppearance
    /// The interactions the style allows (dismiss gesture, detents, whether it may be dismissed).
    /// Default: ``InteractionDeclaration/standard`` (no drag, one detent, dismissible).
    var interaction: InteractionDeclaration { get }
}

extension PresentationStyle {
    /// Default: ease-in-out `cubic-bezier(0.42, 0, 0.58, 1)` (docs/design.md, built-in styles).
    public var timingCurve: TimingCurve { .easeInOut }
    /// Default: 0.35 seconds (docs/design.md, built-in styles).
    public var transitionDuration: Double { 0.35 }
    /// Default: square corners, no clip (a plain `UIView`).
    public func cornerStyle(forPresentedViewIn containerBounds: Rect) -> CornerStyle { .square }
    /// Default: UIKit's cover-vertical — the presented view rises from below the container's
    /// bottom edge to its frame.
    public func presentedViewTransform(at progress: Double, frame: Rect, in containerBounds: Rect) -> ViewTransform {
        ViewTransform(translation: Point(x: 0, y: (1 - progress) * (containerBounds.maxY - frame.minY)))
    }
    /// Default: every tap on the dimming view dismisses (as in both references of docs/design.md).
    public func shouldDismiss(onTapAt point: Point, in containerBounds: Rect) -> Bool { true }
    // The transition and layout hooks do nothing by default, like `UIPresentationController`'s.
    public func presentationTransitionWillBegin() {}
    public func presentationTransitionDidEnd(completed: Bool) {}
    public func dismissalTransitionWillBegin() {}
    public func dismissalTransitionDidEnd(completed: Bool) {}
    public func containerViewWillLayoutSubviews(containerBounds: Rect) {}
    public func containerViewDidLayoutSubviews(containerBounds: Rect) {}

    public func transitionDuration(for context: TransitionContext) -> Double { transitionDuration }
    public func timingCurve(for context: TransitionContext) -> TimingCurve { timingCurve }
    public func dimmingAppearance(at progress: Double, context: TransitionContext) -> DimmingAppearance {
        dimmingAppearance(at: progress)
    }
    public func presentedViewTransform(at progress: Double, frame: Rect, context: TransitionContext) -> ViewTransform {
        presentedViewTransform(at: progress, frame: frame, in: context.containerBounds)
    }
    public func chrome(forPresentedViewIn containerBounds: Rect) -> PresentedViewChrome { .none }
    public func presentingViewAppearance(at progress: Double, context: TransitionContext) -> PresentingViewAppearance {
        .identity
    }
    public var interaction: InteractionDeclaration { .standard }
}
