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
    static let dimOption = StyleOption.choice("dim", "dim fill: solid (black × dim-alpha everywhere) or gradient (clear at the top edge rising to dim-alpha at the sheet's top edge)",
                                              default: "solid", among: ["solid", "gradient"])
    static let grabberOption = StyleOption.choice("grabber", "UIKit's grabber bar at the sheet's top: auto (shown with more than one detent), on or off",
                                                  default: "auto", among: ["auto", "on", "off"])
    static let recedeOption = StyleOption.choice("recede", "the view underneath recedes while covered (UIKit's page sheet): off, or on (scale 0.92, corners 10 pt)",
                                                 default: "off", among: ["off", "on"])
    public static let options: [StyleOption] = [heightOption, cornerRadiusOption, dimAlphaOption, .duration(), .curve(),
                                                 .detents(), .undimmedDetent(), .dismissible(),
                                                dimOption, grabberOption, .shadow(), recedeOption]

    /// The `dim` option.
    public enum DimFill: String, Sendable { case solid, gradient }
    /// The `grabber` option.
    public enum GrabberMode: String, Sendable { case auto, on, off }

    /// The `height` option: a fraction of the container height when ≤ 1, else points.
    public let height: Double
    public let cornerRadius: Double
    public let dimAlpha: Double
    public let transitionDuration: Double
    public let timingCurve: TimingCurve
    public let dim: DimFill
    public let grabber: GrabberMode
    /// The `shadow` option (nil: none).
    public let shadow: Shadow?
    /// The `recede` option.
    public let recedes: Bool

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
        interaction = try options.interaction(dragging: .down)
        dim = DimFill(rawValue: try options.choice(Self.dimOption))!
        grabber = GrabberMode(rawValue: try options.choice(Self.grabberOption))!
        shadow = try options.shadow()
        recedes = try options.choice(Self.recedeOption) == "on"
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

    /// `dim=solid`: ``dimmingAppearance(at:)``. `dim=gradient`: a vertical gradient, clear at the
    /// container's top edge rising linearly to black at the sheet's top edge (its presented frame,
    /// which does not move) and black below it, all × `dim-alpha × progress` — so the dim is
    /// `dim-alpha` where the sheet sits and fades out towards the top.
    public func dimmingAppearance(at progress: Double, context: TransitionContext) -> DimmingAppearance {
        guard dim == .gradient else { return dimmingAppearance(at: progress) }
        let bounds = context.containerBounds
        let top = frameOfPresentedView(in: bounds).minY
        let gradient = LinearGradient(start: Point(x: bounds.minX, y: bounds.minY), end: Point(x: bounds.minX, y: top),
                                      from: .clear, to: .black)
        return DimmingAppearance(gradient: gradient, alpha: dimAlpha * progress)
    }

    /// The grabber (`grabber=on`, or `auto` with more than one detent) and the `shadow`.
    public func chrome(forPresentedViewIn containerBounds: Rect) -> PresentedViewChrome {
        let showsGrabber = grabber == .on || (grabber == .auto && interaction.detents.count > 1)
        return PresentedViewChrome(shadow: shadow, grabber: showsGrabber ? PresentedViewChrome.grabberColor : nil)
    }

    /// `recede=on`: the presenting view shrinks about its centre to 0.92 and rounds its corners to
    /// 10 pt alongside the transition (UIKit's page sheet); off: unchanged.
    public func presentingViewAppearance(at progress: Double, context: TransitionContext) -> PresentingViewAppearance {
        guard recedes else { return .identity }
        return PresentingViewAppearance(transform: ViewTransform(scale: 1 - 0.08 * progress), cornerRadius: 10 * progress)
    }

    // presentedViewTransform: the protocol's default, sliding up from below the bottom edge.
    // shouldDismiss: the default; the engine only asks for taps outside the sheet (the dim above it).
}
