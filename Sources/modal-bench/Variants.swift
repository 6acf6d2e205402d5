// The benchmark's variants: a loaded style with its dim and shadow replaced, so that a gradient dim
// and a soft shadow are measured against the solid dim of the same style, size and run.
import ModalKitBenchSupport
import ModalKit

extension BenchVariant {
    static let shadow = Shadow(color: Color.black.multipliedAlpha(by: 0.35), offset: Point(x: 0, y: 4), blurRadius: 16)

    /// `base` with its dim and shadow replaced by this variant's (its other hooks unchanged):
    /// - solid: the base's dim as one colour (a base gradient's last stop) × its alpha, no shadow;
    /// - gradient: that colour as a vertical gradient, transparent at the container's top edge to
    ///   the full colour half-way down (then constant), × the same alpha;
    /// - shadow: the solid dim plus a drop shadow, black 0.35, offset (0, 4), blur 16 points;
    /// - recede: the solid dim, and the presenting view scaled by 1 − 0.08 × progress about its
    ///   centre, 10 × progress points down, with corners of 10 × progress points over black.
    /// All values are computed without allocating (the gradient's stops are stored inline).
    /// - Returns: `base`, changed (a style made for this run).
    func applied(to base: PresentationStyle) -> PresentationStyle {
        let variant = self
        let baseDim = base.dimmingAppearance, baseChrome = base.chrome
        base.dimmingAppearance = { progress, context in
            let d = baseDim(progress, context)
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
        base.chrome = { context in
            var c = baseChrome(context)
            c.shadow = variant == .shadow ? BenchVariant.shadow : nil
            return c
        }
        if variant == .recede {
            base.presentingViewAppearance = { progress, _ in
                PresentingViewAppearance(transform: ViewTransform(translation: Point(x: 0, y: 10 * progress),
                                                                  scale: 1 - 0.08 * progress),
                                         cornerRadius: 10 * progress)
            }
        }
        return base
    }
}
