import ModalKitStyle

/// The inset-centered style, after a Japanese UIKit article on a card inset over a dimmed
/// background (docs/design.md, built-in styles): a card inset `margin-x` points left and right and
/// `margin-y` points top and bottom, corner radius `corner-radius`, rising from below the
/// container's bottom edge (UIKit's cover-vertical), over a black dimming view whose alpha goes 0 →
/// `dim-alpha` alongside the transition. A tap on the dim dismisses.
public enum InsetCenteredStyle: LoadablePresentationStyle {
    public static let name = "inset-centered"
    public static let summary = "card inset 20 pt left/right and 110 pt top/bottom, corner radius 10, black dim 0 → 0.5"
    static let marginXOption = StyleOption.number("margin-x", "left and right inset of the card", unit: "points",
                                                  default: 20, in: 0...10000)
    static let marginYOption = StyleOption.number("margin-y", "top and bottom inset of the card", unit: "points",
                                                  default: 110, in: 0...10000)
    static let cornerRadiusOption = StyleOption.number("corner-radius", "corner radius of the card", unit: "points",
                                                       default: 10, in: 0...10000)
    static let dimAlphaOption = StyleOption.number("dim-alpha", "alpha of the black dim when presented",
                                                   default: 0.5, in: 0...1)
    static let borderOption = StyleOption.optionalColor("border", "a 1 pt border inside the card's edge")
    public static let options: [StyleOption] = [
        marginXOption, marginYOption, cornerRadiusOption, dimAlphaOption, .duration(), .curve(), .dismissible(),
        .shadow(), .background(), borderOption,
    ]

    /// - Throws: `StyleOptionError.badValue` for a value that does not parse or is out of range
    ///   (margins and radius 0…10000 points, dim-alpha 0…1, duration 0…10 s, a known curve).
    public static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let marginX = try options.number(marginXOption), marginY = try options.number(marginYOption)
        let cornerRadius = try options.number(cornerRadiusOption), dimAlpha = try options.number(dimAlphaOption)
        let style = PresentationStyle(transitionDuration: try options.duration(), timingCurve: try options.curve())
        // Dragged down to dismiss (its axis is vertical: it rises from the bottom edge); `dismissible`.
        let interaction = try options.interaction(dragging: .down)
        let shadow = try options.shadow()
        let chrome = PresentedViewChrome(backgroundColor: try options.optionalColor(.background()),
                                         border: try options.optionalColor(borderOption).map { Border(width: 1, color: $0) },
                                         shadow: shadow)

        // x = margin-x, y = margin-y, width = W − 2·margin-x, height = H − 2·margin-y (never negative).
        style.frameOfPresentedView = { c in
            let b = c.containerBounds
            return Rect(x: b.minX + marginX, y: b.minY + marginY,
                        width: max(0, b.width - 2 * marginX), height: max(0, b.height - 2 * marginY))
        }
        style.cornerStyle = { _ in CornerStyle(radius: cornerRadius, corners: .all) }
        // Black at alpha `dim-alpha × progress`.
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: dimAlpha * progress) }
        // The `background` colour under the content, the 1 pt `border` and the `shadow`.
        style.chrome = { _ in chrome }
        style.interaction = { _ in interaction }
        // presentedViewTransform: the default, cover-vertical from below the bottom edge.
        // shouldDismissOnTap: the default, every tap on the dim dismisses.
        return style
    }
}
