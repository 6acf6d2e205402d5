import ModalKitStyle

/// The alert style, after UIKit's `UIAlertController` alert (docs/design.md, "Content size,
/// resizing detents and the rubber band"): a card ``width`` (270) points wide and as tall as its
/// content says it needs at that width
/// (``LayoutContext/preferredContentSize(fittingWidth:)``; ``fallbackHeight`` when the content does
/// not say), never taller than the container less ``verticalMargin`` (40) points — a taller content
/// is laid out at that height and clipped to it (no scrolling) — centred in the container, corner
/// radius 14. It presents by scaling 1.2 → 1.0 about its centre while fading in, 0.25 s ease-out,
/// and dismisses by fading out at its place, 0.2 s linear, while a black dim goes 0 → `dim-alpha`
/// and back. A tap on the dim does not dismiss (an alert asks for an answer); Escape does and is
/// reported like any close (unless `dismissible=false`).
public enum AlertStyle: LoadablePresentationStyle {
    public static let name = "alert"
    public static let summary = "UIKit's alert: 270 pt card as tall as its content, centred, scales 1.2 → 1 fading in; the dim does not dismiss"
    static let dimAlphaOption = StyleOption.number("dim-alpha", "alpha of the black dim when presented",
                                                   default: 0.2, in: 0...1)
    public static let options: [StyleOption] = [dimAlphaOption, .dismissible()]

    /// The card's width, points (UIKit's alert).
    public static let width = 270.0
    /// The least room left above and below the card together, points: the card is at most the
    /// container's height less this.
    public static let verticalMargin = 40.0
    /// The card's height when its content reports no preferred size, points.
    public static let fallbackHeight = 150.0
    /// The corner radius, points.
    public static let cornerRadius = 14.0
    /// The presentation: 0.25 s ease-out, scaling from `initialScale`; the dismissal: 0.2 s linear.
    public static let presentDuration = 0.25, dismissDuration = 0.2, initialScale = 1.2

    /// The card's frame in a container of `bounds` for a content preferring `contentHeight` points
    /// at ``width`` (nil: ``fallbackHeight``): ``width`` wide (at most the container's width),
    /// min(content height, container height − 40) tall, centred.
    public static func frame(in bounds: Rect, contentHeight: Double?) -> Rect {
        let w = min(width, bounds.width)
        let h = max(0, min(contentHeight ?? fallbackHeight, bounds.height - verticalMargin))
        return Rect(x: bounds.midX - w / 2, y: bounds.midY - h / 2, width: w, height: h)
    }

    /// - Throws: `StyleOptionError.badValue` for a `dim-alpha` outside 0…1 or a `dismissible`
    ///   other than true or false.
    public static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let dimAlpha = try options.number(dimAlphaOption)
        // `dismissible=false`: Escape does not dismiss either (reported as a close attempt).
        let interaction = InteractionDeclaration(isDismissible: try options.dismissible())
        let style = PresentationStyle()
        style.interaction = { _ in interaction }
        style.transitionDuration = { c in c.phase == .present ? presentDuration : dismissDuration }
        style.timingCurve = { c in c.phase == .present ? .easeOut : .linear }
        style.frameOfPresentedView = { c in
            frame(in: c.containerBounds, contentHeight: c.preferredContentSize(fittingWidth: width)?.height)
        }
        style.cornerStyle = { _ in CornerStyle(radius: cornerRadius, corners: .all) }
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: dimAlpha * progress) }
        // Presenting: scale 1.2 − 0.2·progress about the centre, alpha = progress. Dismissing: at
        // its place, alpha = progress (a fade).
        style.presentedViewTransform = { progress, _, c in
            let scale = c.phase == .present ? initialScale - (initialScale - 1) * progress : 1
            return ViewTransform(scale: scale, alpha: min(max(progress, 0), 1))
        }
        // UIAlertController: a tap outside the alert does nothing; Escape still dismisses.
        style.shouldDismissOnTap = { _, _ in false }
        return style
    }
}
