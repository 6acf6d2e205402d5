// The benchmark's variants: a loaded style with its dim and shadow replaced, so that a gradient dim
// and a soft shadow are measured against the solid dim of the same style, size and run.
import ModalBenchSupport
import ModalKit

/// `base` with the dim and shadow of `variant` (everything else forwarded unchanged):
/// - solid: the base's dim as one colour (a base gradient's last stop) × its alpha, no shadow;
/// - gradient: that colour as a vertical gradient, transparent at the container's top edge to the
///   full colour half-way down (then constant), × the same alpha;
/// - shadow: the solid dim plus a drop shadow, black 0.35, offset (0, 4), blur 16 points;
/// - recede: the solid dim, and the presenting view scaled by 1 − 0.08 × progress about its centre,
///   10 × progress points down, with corners of 10 × progress points over black.
/// All values are computed without allocating (the gradient's stops are stored inline).
final class VariantStyle: PresentationStyle {
    let base: any PresentationStyle
    let variant: BenchVariant
    static let shadow = Shadow(color: Color.black.multipliedAlpha(by: 0.35), offset: Point(x: 0, y: 4), blurRadius: 16)

    init(_ base: any PresentationStyle, variant: BenchVariant) {
        self.base = base
        self.variant = variant
    }

    var transitionDuration: Double { base.transitionDuration }
    var timingCurve: TimingCurve { base.timingCurve }
    func frameOfPresentedView(in b: Rect) -> Rect { base.frameOfPresentedView(in: b) }
    func cornerStyle(forPresentedViewIn b: Rect) -> CornerStyle { base.cornerStyle(forPresentedViewIn: b) }
    func dimmingAppearance(at progress: Double) -> DimmingAppearance {
        dimmingAppearance(at: progress, context: TransitionContext(phase: .present, containerBounds: .zero))
    }
    func presentedViewTransform(at progress: Double, frame: Rect, in b: Rect) -> ViewTransform {
        base.presentedViewTransform(at: progress, frame: frame, in: b)
    }
    func shouldDismiss(onTapAt point: Point, in b: Rect) -> Bool { base.shouldDismiss(onTapAt: point, in: b) }
    func presentationTransitionWillBegin() { base.presentationTransitionWillBegin() }
    func presentationTransitionDidEnd(completed: Bool) { base.presentationTransitionDidEnd(completed: completed) }
    func dismissalTransitionWillBegin() { base.dismissalTransitionWillBegin() }
    func dismissalTransitionDidEnd(completed: Bool) { base.dismissalTransitionDidEnd(completed: completed) }
    func containerViewWillLayoutSubviews(containerBounds b: Rect) { base.containerViewWillLayoutSubviews(containerBounds: b) }
    func containerViewDidLayoutSubviews(containerBounds b: Rect) { base.containerViewDidLayoutSubviews(containerBounds: b) }

    func transitionDuration(for context: TransitionContext) -> Double { base.transitionDuration(for: context) }
    func timingCurve(for context: TransitionContext) -> TimingCurve { base.timingCurve(for: context) }
    func presentedViewTransform(at progress: Double, frame: Rect, context: TransitionContext) -> ViewTransform {
        base.presentedViewTransform(at: progress, frame: frame, context: context)
    }
    func presentingViewAppearance(at progress: Double, context: TransitionContext) -> PresentingViewAppearance {
        guard variant == .recede else { return base.presentingViewAppearance(at: progress, context: context) }
        return PresentingViewAppearance(transform: ViewTransform(translation: Point(x: 0, y: 10 * progress),
                                                                 scale: 1 - 0.08 * progress),
                                        cornerRadius: 10 * progress)
    }
    var interaction: InteractionDeclaration { base.interaction }

    func dimmingAppearance(at progress: Double, context: TransitionContext) -> DimmingAppearance {
        let d = base.dimmingAppearance(at: progress, context: context)
        let color = d.gradient.map { $0[$0.count - 1].color } ?? d.color
        switch variant {
        case .solid, .shadow, .recede:
            return DimmingAppearance(color: color, alpha: d.alpha)
        case .gradient:
            let h = context.containerBounds.height
            return DimmingAppearance(gradient: LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 0, y: h / 2),
                                                              from: .clear, to: color), alpha: d.alpha)
        }
    }

    func chrome(forPresentedViewIn b: Rect) -> PresentedViewChrome {
        var c = base.chrome(forPresentedViewIn: b)
        c.shadow = variant == .shadow ? VariantStyle.shadow : nil
        return c
    }
}
