import ModalKit

/// The bottom-sheet style, after a Chinese UIKit article on a bottom sheet whose dim fades in place
/// instead of sliding up with it (docs/design.md, built-in styles): a full-width sheet anchored to
/// the container's bottom edge, `height` tall, top corners rounded by `corner-radius`, sliding up
/// from the bottom edge while the dim — which belongs to the container and never slides — fades
/// clear → black `dim-alpha` in place. A tap on the dim above the sheet dismisses.
public final class BottomSheetStyle: LoadablePresentationStyle {
    public static let name = "bottom-sheet"
    public static let summary = "sheet slides up from the bottom while the dim fades in place, clear → black 0.4"
    static let heightOption = StyleOption.number("height", "sheet height: a fraction of the container if ≤ 1, else points",
                                                 default: 0.5, in: 0...100000)
    static let cornerRadiusOption = StyleOption.number("corner-radius", "radius of the sheet's top corners",
                                                       unit: "points", default: 10, in: 0...10000)
    static let dimAlphaOption = StyleOption.number("dim-alpha", "alpha of the black dim when presented",
                                                   default: 0.4, in: 0...1)
    public static let options: [StyleOption] = [heightOption, cornerRadiusOption, dimAlphaOption, .duration(), .curve()]

    /// The `height` option: a fraction of the container height when ≤ 1, else points.
    public let height: Double
    public let cornerRadius: Double
    public let dimAlpha: Double
    public let transitionDuration: Double
    public let timingCurve: TimingCurve

    /// - Throws: `StyleOptionError.badValue` for a value that does not parse or is out of range
    ///   (height > 0 up to 100000, radius 0…10000 points, dim-alpha 0…1, duration 0…10 s, a known curve).
    public init(options: StyleOptions) throws {
        let h = try options.number(Self.heightOption)
        guard h > 0 else {
            throw StyleOptionError.badValue(key: "height", value: options.string("height"),
                                            expected: "a fraction in (0, 1] or a height in points > 1")
        }
        height = h
        cornerRadius = try options.number(Self.cornerRadiusOption)
        dimAlpha = try options.number(Self.dimAlphaOption)
        transitionDuration = try options.duration()
        timingCurve = try options.curve()
    }

    /// The sheet's height in a container `containerHeight` points tall (at most the container).
    public func sheetHeight(in containerHeight: Double) -> Double {
        min(containerHeight, height <= 1 ? height * containerHeight : height)
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
