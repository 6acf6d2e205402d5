import ModalKit

/// A centred card that fades in and grows from 90 % to full size over a black dim.
///
/// Everything a style decides, next to its UIKit name:
/// - `frameOfPresentedView(in:)` — `frameOfPresentedViewInContainerView`: where the card sits
///   when fully presented. Re-asked on every resize.
/// - `dimmingAppearance(at:)` — the dimming view animated alongside the transition.
/// - `presentedViewTransform(at:frame:context:)` — what the animator does to the presented view;
///   progress runs 0 → 1 when presenting and 1 → 0 when dismissing, already eased; the context
///   says which, and where the presentation came from (`sourceRect`).
/// - `cornerStyle(forPresentedViewIn:)` — `layer.cornerRadius` with `masksToBounds`.
/// Hooks not written here keep their defaults: a tap on the dim dismisses, and the transition
/// callbacks (`presentationTransitionWillBegin`, …) do nothing.
public final class FadeScaleStyle: LoadablePresentationStyle {
    public static let name = "fade-scale"
    public static let summary = "centred card that fades in and scales 0.9 → 1 over a black dim"
    // Each option declared once: key, meaning, unit, default, accepted range. `--describe-style`,
    // error messages and the typed readers in `init(options:)` all use these declarations.
    static let width = StyleOption.number("width", "card width (at most the container width − 40)", unit: "points",
                                          default: 280, in: 1...10000)
    static let height = StyleOption.number("height", "card height (at most the container height − 40)", unit: "points",
                                           default: 200, in: 1...10000)
    static let scaleFrom = StyleOption.number("scale-from", "card scale when dismissed", default: 0.9, in: 0.1...1)
    static let dim = StyleOption.number("dim-alpha", "alpha of the black dim when presented", default: 0.4, in: 0...1)
    public static let options = [width, height, scaleFrom, dim, .duration(default: "0.25"), .curve(default: "ease-out")]

    let size: Size
    let scaleFromValue: Double
    let dimAlpha: Double
    public let transitionDuration: Double
    public let timingCurve: TimingCurve

    /// Called by the host with the defaults above overlaid by `--style-option KEY=VALUE`.
    /// - Throws: `StyleOptionError.badValue` for a value out of its declared range; `modal-demo` prints it.
    public init(options: StyleOptions) throws {
        size = Size(width: try options.number(Self.width), height: try options.number(Self.height))
        scaleFromValue = try options.number(Self.scaleFrom)
        dimAlpha = try options.number(Self.dim)
        transitionDuration = try options.duration()
        timingCurve = try options.curve()
    }

    /// Centred; keeps 20 points to every edge when the container is small.
    public func frameOfPresentedView(in bounds: Rect) -> Rect {
        let width = min(size.width, max(0, bounds.width - 40))
        let height = min(size.height, max(0, bounds.height - 40))
        return Rect(x: bounds.midX - width / 2, y: bounds.midY - height / 2, width: width, height: height)
    }

    public func cornerStyle(forPresentedViewIn bounds: Rect) -> CornerStyle { CornerStyle(radius: 16) }

    public func dimmingAppearance(at progress: Double) -> DimmingAppearance {
        DimmingAppearance(color: .black, alpha: dimAlpha * progress)
    }

    /// No movement: opacity follows progress, and the card scales scale-from → 1 about the point
    /// it was presented from — the centre of `context.sourceRect`, the control that started the
    /// presentation (the demo's Present button) — so it seems to come out of that control. The
    /// anchor is in unit coordinates of the card (Core Animation's `anchorPoint`: 0,0 its top-left,
    /// 1,1 its bottom-right; outside 0...1 when the control lies outside the card). Without a
    /// source rectangle (an app that presents without one) it scales about its own centre.
    public func presentedViewTransform(at progress: Double, frame: Rect, context: TransitionContext) -> ViewTransform {
        let scale = scaleFromValue + (1 - scaleFromValue) * progress
        guard let source = context.sourceRect, frame.width > 0, frame.height > 0 else {
            return ViewTransform(scale: scale, alpha: progress)
        }
        let anchor = Point(x: (source.midX - frame.minX) / frame.width, y: (source.midY - frame.minY) / frame.height)
        return ViewTransform(scaleX: scale, scaleY: scale, anchor: anchor, alpha: progress)
    }
}
