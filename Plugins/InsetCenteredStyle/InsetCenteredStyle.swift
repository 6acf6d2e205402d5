import ModalKit

/// The inset-centered style, after a Japanese UIKit article on a card inset over a dimmed
/// background (docs/design.md, built-in styles): a card inset `margin-x` points left and right and
/// `margin-y` points top and bottom, corner radius `corner-radius`, rising from below the
/// container's bottom edge (UIKit's cover-vertical), over a black dimming view whose alpha goes 0 →
/// `dim-alpha` alongside the transition. A tap on the dim dismisses.
public final class InsetCenteredStyle: LoadablePresentationStyle {
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

    /// Inset from the left and right edges, points.
    public let marginX: Double
    /// Inset from the top and bottom edges, points.
    public let marginY: Double
    public let cornerRadius: Double
    public let dimAlpha: Double
    public let transitionDuration: Double
    public let timingCurve: TimingCurve
    /// The `shadow` option (nil: none).
    public let shadow: Shadow?
    /// The `background` option (nil: none, the content paints every pixel).
    public let background: Color?
    /// The `border` option's colour (nil: none).
    public let borderColor: Color?

    /// - Throws: `StyleOptionError.badValue` for a value that does not parse or is out of range
    ///   (margins and radius 0…10000 points, dim-alpha 0…1, duration 0…10 s, a known curve).
    public init(options: StyleOptions) throws {
        marginX = try options.number(Self.marginXOption)
        marginY = try options.number(Self.marginYOption)
        cornerRadius = try options.number(Self.cornerRadiusOption)
        dimAlpha = try options.number(Self.dimAlphaOption)
        transitionDuration = try options.duration()
        timingCurve = try options.curve()
        interaction = try options.interaction(dragging: .down)
        shadow = try options.shadow()
        background = try options.optionalColor(.background())
        borderColor = try options.optionalColor(Self.borderOption)
    }

    /// Dragged down to dismiss (its axis is vertical: it rises from the bottom edge); `dismissible`.
    public let interaction: InteractionDeclaration

    /// x = margin-x, y = margin-y, width = W − 2·margin-x, height = H − 2·margin-y (never negative).
    public func frameOfPresentedView(in containerBounds: Rect) -> Rect {
        Rect(x: containerBounds.minX + marginX, y: containerBounds.minY + marginY,
             width: max(0, containerBounds.width - 2 * marginX),
             height: max(0, containerBounds.height - 2 * marginY))
    }

    public func cornerStyle(forPresentedViewIn containerBounds: Rect) -> CornerStyle {
        CornerStyle(radius: cornerRadius, corners: .all)
    }

    /// Black at alpha `dim-alpha × progress`.
    public func dimmingAppearance(at progress: Double) -> DimmingAppearance {
        DimmingAppearance(color: .black, alpha: dimAlpha * progress)
    }

    /// The `background` colour under the content, the 1 pt `border` and the `shadow`.
    public func chrome(forPresentedViewIn containerBounds: Rect) -> PresentedViewChrome {
        PresentedViewChrome(backgroundColor: background, border: borderColor.map { Border(width: 1, color: $0) },
                            shadow: shadow)
    }

    // presentedViewTransform: the protocol's default, cover-vertical from below the bottom edge.
    // shouldDismiss: the default, every tap on the dim dismisses.
}
