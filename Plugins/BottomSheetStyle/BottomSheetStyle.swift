import ModalKitStyle

/// The bottom-sheet style, after a Chinese UIKit article on a bottom sheet whose dim fades in place
/// instead of sliding up with it (docs/design.md, built-in styles): a full-width sheet anchored to
/// the container's bottom edge, `height` tall, top corners rounded by `corner-radius`, sliding up
/// from the bottom edge while the dim — which belongs to the container and never slides — fades
/// clear → black `dim-alpha` in place. A tap on the dim above the sheet dismisses. On a container
/// wider than `max-width` (640 pt, Material 3's bottom-sheet width cap) the sheet is that wide,
/// centred. `detents=fit:F` sizes it to the content's preferred height, at most F.
public enum BottomSheetStyle: LoadablePresentationStyle {
    public static let name = "bottom-sheet"
    public static let summary = "sheet slides up from the bottom while the dim fades in place, clear → black 0.4"
    static let heightOption = StyleOption.number("height", "sheet height: a fraction of the container if ≤ 1, else points",
                                                 default: 0.5, in: 0.01...100000)
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
    static let maxWidthOption = StyleOption.number("max-width", "the sheet's largest width: on a wider container it is this wide, centred (Material 3's 640 dp); 0 = the container's width",
                                                   unit: "points", default: 640, in: 0...100000)
    public static let options: [StyleOption] = [heightOption, cornerRadiusOption, dimAlphaOption, .duration(), .curve(),
                                                 .detents(), .undimmedDetent(), .dismissible(),
                                                dimOption, grabberOption, .shadow(), recedeOption,
                                                maxWidthOption, .scrollingExpands()]

    /// The sheet's height in a container `containerHeight` points tall, at most the container:
    /// `height` (a fraction of the container when ≤ 1, else points), or with `detents` the largest
    /// detent (the sheet rests lower at the smaller ones); a detent that fits the content resolves
    /// from `contentHeight` (the content's preferred height at the sheet's width, points; nil: it
    /// does not say, so the detent's cap).
    public static func sheetHeight(_ height: Double, detents: [Detent], in containerHeight: Double,
                                   contentHeight: Double? = nil) -> Double {
        if !detents.isEmpty {
            return detents.map { $0.resolved(containerLength: containerHeight, contentLength: contentHeight) }.max() ?? 0
        }
        return min(containerHeight, height <= 1 ? height * containerHeight : height)
    }

    /// The sheet's width in a container `containerWidth` points wide: the container's, at most
    /// `maxWidth` (0: no cap) — Material 3's bottom sheet is at most 640 dp wide, centred.
    public static func sheetWidth(_ containerWidth: Double, maxWidth: Double) -> Double {
        maxWidth > 0 ? min(containerWidth, maxWidth) : containerWidth
    }

    /// - Throws: `StyleOptionError.badValue` for a value that does not parse or is out of range
    ///   (height 0.01…100000, radius 0…10000 points, dim-alpha 0…1, duration 0…10 s, a known curve).
    public static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let height = try options.number(heightOption)
        let cornerRadius = try options.number(cornerRadiusOption), dimAlpha = try options.number(dimAlphaOption)
        let style = PresentationStyle(transitionDuration: try options.duration(), timingCurve: try options.curve())
        // Dragged down to dismiss, between the `detents` (UIKit's sheet); `dismissible`.
        let interaction = try options.interaction(dragging: .down)
        let gradientDim = try options.choice(dimOption) == "gradient"
        let grabber = try options.choice(grabberOption)
        let shadow = try options.shadow()
        let recedes = try options.choice(recedeOption) == "on"
        let maxWidth = try options.number(maxWidthOption)
        let fitsContent = interaction.detents.contains { $0.dependsOnContent }

        // The container's width up to `max-width`, centred, anchored to the bottom edge; as tall
        // as the largest detent (one that fits the content asks it at the sheet's width).
        final class LastLayout { var bounds: Rect?; var frame = Rect.zero }
        let last = LastLayout()
        func frame(in c: LayoutContext) -> Rect {
            let b = c.containerBounds
            let w = sheetWidth(b.width, maxWidth: maxWidth)
            let content = fitsContent ? c.preferredContentSize(fittingWidth: w)?.height : nil
            let h = sheetHeight(height, detents: interaction.detents, in: b.height, contentHeight: content)
            let f = Rect(x: b.minX + (b.width - w) / 2, y: b.maxY - h, width: w, height: h)
            last.bounds = b; last.frame = f
            return f
        }
        // The frame as last laid out in these bounds (the dim's hook is not told the content).
        func laidOutFrame(in b: Rect) -> Rect {
            last.bounds == b ? last.frame : frame(in: LayoutContext(containerBounds: b))
        }
        style.frameOfPresentedView = { c in frame(in: c) }
        style.cornerStyle = { _ in CornerStyle(radius: cornerRadius, corners: .top) }
        style.interaction = { _ in interaction }
        // `dim=solid`: black at alpha `dim-alpha × progress` over the whole container (it fades, it
        // does not slide). `dim=gradient`: a vertical gradient, clear at the container's top edge
        // rising linearly to black at the sheet's top edge (its presented frame, which does not
        // move) and black below it, all × `dim-alpha × progress`.
        style.dimmingAppearance = { progress, c in
            guard gradientDim else { return DimmingAppearance(color: .black, alpha: dimAlpha * progress) }
            let b = c.containerBounds
            let gradient = LinearGradient(start: Point(x: b.minX, y: b.minY), end: Point(x: b.minX, y: laidOutFrame(in: b).minY),
                                          from: .clear, to: .black)
            return DimmingAppearance(gradient: gradient, alpha: dimAlpha * progress)
        }
        // The grabber (`grabber=on`, or `auto` with more than one detent) and the `shadow`.
        let showsGrabber = grabber == "on" || (grabber == "auto" && interaction.detents.count > 1)
        let chrome = PresentedViewChrome(shadow: shadow, grabber: showsGrabber ? PresentedViewChrome.grabberColor : nil)
        style.chrome = { _ in chrome }
        // `recede=on`: the presenting view shrinks about its centre to 0.92 and rounds its corners
        // to 10 pt alongside the transition (UIKit's page sheet); off: unchanged.
        if recedes {
            style.presentingViewAppearance = { progress, _ in
                PresentingViewAppearance(transform: ViewTransform(scale: 1 - 0.08 * progress), cornerRadius: 10 * progress)
            }
        }
        // presentedViewTransform: the default, sliding up from below the bottom edge.
        // shouldDismissOnTap: the default; the engine only asks for taps outside the sheet (the dim above it).
        return style
    }
}
