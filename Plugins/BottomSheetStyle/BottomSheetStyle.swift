import ModalKit

/// The bottom-sheet style, after a Chinese UIKit article on a bottom sheet whose dim fades in place
/// instead of sliding up with it (docs/design.md, built-in styles): a full-width sheet anchored to
/// the container's bottom edge, `height` tall, top corners rounded by `corner-radius`, sliding up
/// from the bottom edge while the dim — which belongs to the container and never slides — fades
/// clear → black `dim-alpha` in place. A tap on the dim above the sheet dismisses.
public final class BottomSheetStyle: LoadablePresentationStyle {
    public static let name = "bottom-sheet"
    public static let summary = "sheet slides up from the bottom while the dim fades in place, clear → black 0.4"
    public static let options: [StyleOption] = [
        StyleOption(key: "height", summary: "sheet height: a fraction of the container if ≤ 1, else points",
                    defaultValue: "0.5"),
        StyleOption(key: "corner-radius", summary: "radius of the sheet's top corners, points", defaultValue: "10"),
        StyleOption(key: "dim-alpha", summary: "alpha of the black dim when presented, 0 to 1", defaultValue: "0.4"),
        .duration(),
        .curve(),
        .detents(),
        .undimmedDetent(),
        .dismissible(),
    ]

    /// The `height` option: a fraction of the container height when ≤ 1, else points.
    public let height: Double
    public let cornerRadius: Double
    public let dimAlpha: Double
    public let transitionDuration: Double
    public let timingCurve: TimingCurve

    /// - Throws: `StyleOptionError.badValue` for a value that does not parse or is out of range
    ///   (height > 0 up to 100000, radius 0…10000 points, dim-alpha 0…1, duration 0…10 s, a known curve).
    public init(options: StyleOptions) throws {
        let h = try options.double("height", in: 0...100000)
        guard h > 0 else {
            throw StyleOptionError.badValue(key: "height", value: options.string("height"),
                                            expected: "a fraction in (0, 1] or a height in points > 1")
        }
        height = h
        cornerRadius = try options.double("corner-radius", in: 0...10000)
        dimAlpha = try options.double("dim-alpha", in: 0...1)
        transitionDuration = try options.duration()
        timingCurve = try options.curve()
        interaction = try options.interaction(dragging: .down)
    }

    /// Dragged down to dismiss, between the `detents` (UIKit's sheet); `dismissible`.
    public let interaction: InteractionDeclaration

    /// The sheet's height in a container `containerHeight` points tall (at most the container).
    /// With `detents`, the largest detent (the sheet rests lower at the smaller ones).
    public func sheetHeight(in containerHeight: Double) -> Double {
        if !interaction.detents.isEmpty {
            return interaction.detents.map { $0.resolved(containerLength: containerHeight) }.max() ?? 0
        }
        return min(containerHeight, height <= 1 ? height * containerHeight : height)
    }

    /// Full width, anchored to the bottom edge.
    public func frameOfPresentedView(in containerBounds: Rect) -> Rect {
        let h = sheetHeight(in: containerBounds.height)
        return Rect(x: containerBounds.minX, y: containerBounds.maxY - h, width: containerBounds.width, height: h)
    }

    public func cornerStyle(forPresentedViewIn containerBounds: Rect) -> CornerStyle {
        CornerStyle(radius: cornerRadius, corners: .top)
    }

    /// Black at alpha `dim-alpha × progress`, over the whole container (it fades, it does not slide).
    public func dimmingAppearance(at progress: Double) -> DimmingAppearance {
        DimmingAppearance(color: .black, alpha: dimAlpha * progress)
    }

    // presentedViewTransform: the protocol's default, sliding up from below the bottom edge.
    // shouldDismiss: the default; the engine only asks for taps outside the sheet (the dim above it).
}
