import ModalKitStyle

/// A centred card that fades in and grows from 90 % to full size over a black dim.
///
/// `makeStyle(options:)` reads the options and sets the hooks it changes on a `PresentationStyle`;
/// each hook is named after what UIKit calls it:
/// - `frameOfPresentedView` — `frameOfPresentedViewInContainerView`: where the card sits when
///   fully presented. Re-asked on every resize.
/// - `cornerStyle` — `layer.cornerRadius` with `masksToBounds`.
/// - `dimmingAppearance` — the dimming view animated alongside the transition.
/// - `presentedViewTransform` — what the animator does to the presented view; progress runs
///   0 → 1 when presenting and 1 → 0 when dismissing, already eased; the context says which, and
///   where the presentation came from (`sourceRect`).
/// Hooks not set keep their defaults: a tap on the dim dismisses, and the transition callbacks
/// (`presentationTransitionWillBegin`, …) do nothing. A misspelled hook does not compile.
public enum FadeScaleStyle: LoadablePresentationStyle {
    public static let name = "fade-scale"
    public static let summary = "centred card that fades in and scales 0.9 → 1 over a black dim"
    // Each option declared once: key, meaning, unit, default, accepted range. `--describe-style`,
    // error messages and the typed readers in `makeStyle(options:)` all use these declarations.
    static let width = StyleOption.number("width", "card width (at most the container width − 40)", unit: "points",
                                          default: 280, in: 1...10000)
    static let height = StyleOption.number("height", "card height (at most the container height − 40)", unit: "points",
                                           default: 200, in: 1...10000)
    static let scaleFrom = StyleOption.number("scale-from", "card scale when dismissed", default: 0.9, in: 0.1...1)
    static let dim = StyleOption.number("dim-alpha", "alpha of the black dim when presented", default: 0.4, in: 0...1)
    public static let options = [width, height, scaleFrom, dim, .duration(default: "0.25"), .curve(default: "ease-out")]

    /// Called by the host with the defaults above overlaid by `--style-option KEY=VALUE`.
    /// - Throws: `StyleOptionError.badValue` for a value out of its declared range; `modal-demo` prints it.
    public static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let size = Size(width: try options.number(width), height: try options.number(height))
        let smallest = try options.number(scaleFrom), dimAlpha = try options.number(dim)
        let style = PresentationStyle(transitionDuration: try options.duration(), timingCurve: try options.curve())

        // Centred; keeps 20 points to every edge when the container is small.
        style.frameOfPresentedView = { c in
            let b = c.containerBounds
            let width = min(size.width, max(0, b.width - 40)), height = min(size.height, max(0, b.height - 40))
            return Rect(x: b.midX - width / 2, y: b.midY - height / 2, width: width, height: height)
        }
        style.cornerStyle = { _ in CornerStyle(radius: 16) }
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: dimAlpha * progress) }
        // No movement: opacity follows progress, and the card scales scale-from → 1 about the point
        // it was presented from — the centre of `context.sourceRect`, the control that started the
        // presentation (the demo's Present button) — so it seems to come out of that control. The
        // anchor is in unit coordinates of the card (Core Animation's `anchorPoint`: 0,0 its
        // top-left, 1,1 its bottom-right; outside 0...1 when the control lies outside the card).
        // Without a source rectangle (an app that presents without one) it scales about its centre.
        style.presentedViewTransform = { progress, frame, context in
            let scale = smallest + (1 - smallest) * progress
            guard let source = context.sourceRect, frame.width > 0, frame.height > 0 else {
                return ViewTransform(scale: scale, alpha: progress)
            }
            let anchor = Point(x: (source.midX - frame.minX) / frame.width, y: (source.midY - frame.minY) / frame.height)
            return ViewTransform(scaleX: scale, scaleY: scale, anchor: anchor, alpha: progress)
        }
        return style
    }
}

/// The one symbol the host looks for (after checking the ABI version this library carries). The
/// library's note is written next to it at build time by ModalKit's ModalKitStyleNote step.
@_cdecl("modalkit_style_entry")
public func modalkitStyleEntry() -> UnsafeRawPointer {
    exportStyle(FadeScaleStyle.self)
}
