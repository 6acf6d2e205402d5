import ModalKitStyle

/// The adaptive style, libadwaita's `AdwDialog` rule: a bottom sheet when the container is narrow
/// or short — at most 450 pt wide or at most 360 pt tall, the conditions `adw-dialog.c` uses — and
/// a floating card centred in the container otherwise.
///
/// - Sheet: full width, anchored to the bottom edge, `sheet-height` tall, top corners rounded by
///   `corner-radius`, dismissed by a drag down or a tap above it.
/// - Card: centred, `min(max-width, W − 2·24)` wide and `min(height, H − 2·24)` tall (points; the
///   24 pt margin keeps it floating), all corners rounded by `corner-radius`; no drag.
/// - Both: rising from below the bottom edge over a black dim that fades 0 → `dim-alpha`.
///
/// Which shape applies is decided on every layout, from the container's bounds in the layout
/// hooks' context; when a resize crosses the breakpoint while presented, the host morphs the frame
/// and the corners from one shape to the other (a change of the rounded corners is a change of
/// shape: ``PresentationController``), never dismissing.
public enum AdaptiveStyle: LoadablePresentationStyle {
    public static let name = "adaptive"
    public static let summary = "bottom sheet at most 450 pt wide or 360 pt tall, else a centred card ≤ 560 pt wide; corner radius 12, black dim 0 → 0.4"
    static let heightOption = StyleOption.number("height", "card height: a fraction of the container if ≤ 1, else points (at most H − 48)",
                                                 default: 0.6, in: 0.01...100000)
    static let maxWidthOption = StyleOption.number("max-width", "largest card width (at most W − 48)", unit: "points",
                                                   default: 560, in: 1...100000)
    static let sheetHeightOption = StyleOption.number("sheet-height", "sheet height: a fraction of the container if ≤ 1, else points",
                                                      default: 0.5, in: 0.01...100000)
    static let cornerRadiusOption = StyleOption.number("corner-radius", "corner radius of the card and the sheet's top corners",
                                                       unit: "points", default: 12, in: 0...10000)
    static let dimAlphaOption = StyleOption.number("dim-alpha", "alpha of the black dim when presented",
                                                   default: 0.4, in: 0...1)
    public static let options: [StyleOption] = [heightOption, maxWidthOption, sheetHeightOption, cornerRadiusOption,
                                                dimAlphaOption, .duration(), .curve(), .dismissible()]

    /// libadwaita's breakpoint (`adw-dialog.c`): a bottom sheet when the container is at most this
    /// wide or at most this tall, points.
    public static let sheetMaxWidth = 450.0, sheetMaxHeight = 360.0
    /// The card's distance from the container's edges at least, points.
    public static let cardMargin = 24.0

    /// Whether a container of `bounds` gets the bottom sheet (libadwaita's conditions).
    public static func isSheet(in bounds: Rect) -> Bool {
        bounds.width <= sheetMaxWidth || bounds.height <= sheetMaxHeight
    }

    /// A length given as a fraction of `total` (≤ 1) or in points (> 1).
    private static func length(_ v: Double, of total: Double) -> Double { v <= 1 ? v * total : v }

    /// - Throws: `StyleOptionError.badValue` for a value that does not parse or is outside its
    ///   declared range (heights 0.01…100000, max-width 1…100000, radius 0…10000 points,
    ///   dim-alpha 0…1, duration 0…10 s, a known curve, dismissible true or false).
    public static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let cardHeight = try options.number(heightOption), maxWidth = try options.number(maxWidthOption)
        let sheetHeight = try options.number(sheetHeightOption), cornerRadius = try options.number(cornerRadiusOption)
        let dimAlpha = try options.number(dimAlphaOption)
        let style = PresentationStyle(transitionDuration: try options.duration(), timingCurve: try options.curve())
        // `dismissible`: false refuses dim taps, Escape and drags (each attempt is reported).
        let isDismissible = try options.interaction(dragging: nil).isDismissible

        style.frameOfPresentedView = { c in
            let b = c.containerBounds
            if isSheet(in: b) {
                let h = min(b.height, length(sheetHeight, of: b.height))
                return Rect(x: b.minX, y: b.maxY - h, width: b.width, height: h)
            }
            let w = max(0, min(maxWidth, b.width - 2 * cardMargin))
            let h = max(0, min(length(cardHeight, of: b.height), b.height - 2 * cardMargin))
            return Rect(x: b.minX + (b.width - w) / 2, y: b.minY + (b.height - h) / 2, width: w, height: h)
        }
        style.cornerStyle = { c in CornerStyle(radius: cornerRadius, corners: isSheet(in: c.containerBounds) ? .top : .all) }
        // Black at alpha `dim-alpha × progress`.
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: dimAlpha * progress) }
        // The sheet is dragged down to dismiss; the card has no drag (AdwDialog's floating dialog).
        style.interaction = { c in
            InteractionDeclaration(dismissGesture: isSheet(in: c.containerBounds) ? .drag(.down) : .none,
                                   isDismissible: isDismissible)
        }
        // presentedViewTransform: the default, rising from below the bottom edge.
        // shouldDismissOnTap: the default; the engine only asks for taps outside the presented view.
        return style
    }
}
