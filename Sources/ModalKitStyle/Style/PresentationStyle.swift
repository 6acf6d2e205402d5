import Glibc

/// A custom presentation: what UIKit splits between a `UIPresentationController` subclass and its
/// animator. It decides where the presented view sits in the container view, how the dimming
/// view is animated alongside the transition, the presented view's chrome (its background, border,
/// shadow and grabber: ``PresentedViewChrome``), how the presented view
/// moves, how the view underneath looks while covered, and which interactions dismiss.
///
/// A style is a set of hooks, each a stored closure with a default (UIKit's behaviour for a custom
/// presentation); a style sets the ones it changes:
///
/// ```swift
/// let style = PresentationStyle(transitionDuration: 0.3)
/// style.frameOfPresentedView = { c in c.containerBounds.insetBy(dx: 20, dy: 110) }
/// style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.5 * progress) }
/// ```
///
/// The hooks are properties rather than protocol methods so that a misspelled hook cannot compile:
/// `style.shouldDismissOnTapp = …` is "value of type 'PresentationStyle' has no member", where a
/// misspelled method would silently sit next to the protocol's default (docs/design.md, "One set
/// of hooks"). A hook that needs another's answer (the tap hook asking for the frame) calls a
/// function both share, not the style: a hook that captures its own style keeps it alive forever.
///
/// Units: geometry in points in the container's coordinate space (origin top-left, y down);
/// colours premultiplied; durations in seconds. `progress` is the eased transition progress, 0 =
/// fully dismissed, 1 = fully presented; the engine computes it from the monotonic clock with
/// ``timingCurve`` over ``transitionDuration``. During a dismissal progress runs from 1 back to 0,
/// so a style describes one path for both directions (``TransitionContext/phase`` says which).
///
/// Every hook takes one context value (``LayoutContext`` for the layout hooks, asked on every
/// container layout; ``TransitionContext`` for the transition hooks) besides the progress, frame or
/// point it is about. What later versions tell a style arrives as new members of those contexts,
/// never as new hooks or parameters, so a style written today keeps compiling.
///
/// A style that users select with `--style` is made by a ``LoadablePresentationStyle`` (name,
/// options, ``LoadablePresentationStyle/makeStyle(options:)``) and built as its own shared library;
/// the host sees it through the C ABI as another `PresentationStyle` (``exportStyle(_:)``).
public final class PresentationStyle {
    // MARK: Layout: asked on every container layout, also mid-transition

    /// The presented view's frame when fully presented (UIKit's `frameOfPresentedViewInContainerView`).
    /// Default: the container's bounds (UIKit's default).
    public var frameOfPresentedView: (_ context: LayoutContext) -> Rect = { $0.containerBounds }
    /// The presented view's corner radius and which corners it rounds; the content is clipped to
    /// it (`layer.cornerRadius`, `maskedCorners`, `masksToBounds`). Default: ``CornerStyle/square``.
    public var cornerStyle: (_ context: LayoutContext) -> CornerStyle = { _ in .square }
    /// The presented view's chrome: background, border, shadow, grabber (``PresentedViewChrome``).
    /// Default: ``PresentedViewChrome/none`` (the content paints every pixel of the view).
    public var chrome: (_ context: LayoutContext) -> PresentedViewChrome = { _ in .none }
    /// The interactions the style allows: dismiss gesture, detents, the largest undimmed detent,
    /// whether the user may dismiss (``InteractionDeclaration``). Asked when a presentation begins
    /// and on every container layout. Default: ``InteractionDeclaration/standard`` (no drag, one
    /// detent, dismissible).
    public var interaction: (_ context: LayoutContext) -> InteractionDeclaration = { _ in .standard }
    /// Whether a tap at `point` (container points) on the dimming view dismisses; asked only for
    /// taps outside the presented view. Default: every tap dismisses (both references of
    /// docs/design.md).
    public var shouldDismissOnTap: (_ point: Point, _ context: LayoutContext) -> Bool = { _, _ in true }

    // MARK: Transition: asked for each transition and at each progress

    /// The duration of the transition described by `context`, seconds (UIKit's
    /// `transitionDuration(using:)`; a dismissal may be shorter). Default: 0.35 s (docs/design.md).
    public var transitionDuration: (_ context: TransitionContext) -> Double
    /// The curve from linear time fraction to progress for the transition in `context`. A
    /// dismissal with the presentation's curve plays the presentation backwards; one with its own
    /// curve runs it forward from the presented end (progress = 1 − curve(t)), as a UIKit animator
    /// does. Default: ease-in-out, `cubic-bezier(0.42, 0, 0.58, 1)` (docs/design.md).
    public var timingCurve: (_ context: TransitionContext) -> TimingCurve
    /// The dimming view at `progress`, clamped to 0...1 even when a spring overshoots (the
    /// overshoot reaches ``presentedViewTransform`` only): a colour × alpha, or a linear gradient ×
    /// alpha. It always covers the whole container and never moves. Default:
    /// ``DimmingAppearance/none`` (no dimming view, UIKit's default).
    public var dimmingAppearance: (_ progress: Double, _ context: TransitionContext) -> DimmingAppearance = { _, _ in .none }
    /// The presented view's transform at `progress`, relative to `frame` (its frame when presented,
    /// the detent's offset aside); with a spring curve `progress` can exceed 1 briefly. Default:
    /// ``coverVertical(progress:frame:context:)``.
    public var presentedViewTransform: (_ progress: Double, _ frame: Rect, _ context: TransitionContext) -> ViewTransform
        = PresentationStyle.coverVertical
    /// How the presenting view (or, in a stack, the level below) looks while this presentation
    /// covers it, at `progress` (clamped to 0...1) — UIKit's page sheet makes it recede. Default:
    /// ``PresentingViewAppearance/identity``.
    public var presentingViewAppearance: (_ progress: Double, _ context: TransitionContext) -> PresentingViewAppearance
        = { _, _ in .identity }

    // MARK: UIKit's transition and layout callbacks (default: nothing)

    /// UIKit: `presentationTransitionWillBegin()`.
    public var presentationTransitionWillBegin: () -> Void = {}
    /// UIKit: `presentationTransitionDidEnd(_ completed:)`; false when the presentation was
    /// reversed into a dismissal before it finished.
    public var presentationTransitionDidEnd: (_ completed: Bool) -> Void = { _ in }
    /// UIKit: `dismissalTransitionWillBegin()`.
    public var dismissalTransitionWillBegin: () -> Void = {}
    /// UIKit: `dismissalTransitionDidEnd(_ completed:)`; false when the dismissal was reversed into
    /// a presentation (the dimming view then stays).
    public var dismissalTransitionDidEnd: (_ completed: Bool) -> Void = { _ in }
    /// UIKit: `containerViewWillLayoutSubviews()`, with the new container bounds; before the
    /// layout hooks are asked.
    public var containerViewWillLayoutSubviews: (_ context: LayoutContext) -> Void = { _ in }
    /// UIKit: `containerViewDidLayoutSubviews()`, with the new container bounds; after them.
    public var containerViewDidLayoutSubviews: (_ context: LayoutContext) -> Void = { _ in }

    /// What keeps the plugin instance behind the hooks of a style a plugin made alive (the style
    /// loader's instance, ModalKitPlugins' `pluginInstance`), destroyed when the style is released;
    /// nil for a style made in this process.
    package var pluginOwner: AnyObject?

    /// A style with every hook at its default (a full-container view rising from below, no dim),
    /// and a fixed duration and curve for both phases.
    /// - Parameters:
    ///   - transitionDuration: seconds (default 0.35).
    ///   - timingCurve: default ease-in-out.
    public init(transitionDuration: Double = 0.35, timingCurve: TimingCurve = .easeInOut) {
        self.transitionDuration = { _ in transitionDuration }
        self.timingCurve = { _ in timingCurve }
    }

    /// UIKit's cover-vertical, the default transform of a custom presentation: the presented view
    /// rises from below the container's bottom edge to `frame` and leaves the same way
    /// (translation y = (1 − progress) × (bottom edge − frame.minY)).
    public static func coverVertical(progress: Double, frame: Rect, context: TransitionContext) -> ViewTransform {
        ViewTransform(translation: Point(x: 0, y: (1 - progress) * (context.containerBounds.maxY - frame.minY)))
    }
}
