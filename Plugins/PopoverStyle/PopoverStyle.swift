import ModalKitStyle

/// The popover style: an opaque card that grows out of the control that presented it (UIKit's
/// popover from its `sourceRect`) into a centred `width` × `height` card, and shrinks back into
/// it when dismissed.
///
/// - Frame: `width` × `height` points (at most the container), centred; all corners rounded by
///   `corner-radius`; a white background under the content.
/// - Transform: at eased progress p the card's on-screen rectangle is the source rectangle
///   interpolated linearly towards the frame — each edge moves straight from the source's edge to
///   the frame's — drawn as a translation plus a scale per axis about the card's top-left corner
///   (anchor (0, 0)). Without a source rectangle the card grows from its own centre.
/// - Timing: presenting takes `duration` with `curve` (ease-out: fast out of the button, gentle
///   landing); dismissing is faster, `dismiss-duration` (0.2 s) with ease-in (cubic-bezier(0.42,
///   0, 1, 1): leaves slowly, accelerates into the button).
/// - Dim: black, alpha `dim-alpha × progress`; a tap on it dismisses. No dismiss gesture.
public enum PopoverStyle: LoadablePresentationStyle {
    public static let name = "popover"
    public static let summary = "opaque card grows from the Present button into a centred 320×220 card, ease-out in, faster ease-in out"
    static let widthOption = StyleOption.number("width", "card width (at most the container's)", unit: "points",
                                                default: 320, in: 1...10000)
    static let heightOption = StyleOption.number("height", "card height (at most the container's)", unit: "points",
                                                 default: 220, in: 1...10000)
    static let cornerRadiusOption = StyleOption.number("corner-radius", "corner radius of the card", unit: "points",
                                                       default: 13, in: 0...10000)
    static let dimAlphaOption = StyleOption.number("dim-alpha", "alpha of the black dim when presented",
                                                   default: 0.2, in: 0...1)
    static let dismissDurationOption = StyleOption.number("dismiss-duration", "dismissal duration (ease-in)",
                                                          unit: "seconds", default: 0.2, in: 0...10)
    public static let options: [StyleOption] = [widthOption, heightOption, cornerRadiusOption, dimAlphaOption,
                                                .duration(), .curve(default: "ease-out"), dismissDurationOption, .shadow(),
                                                .dismissible()]

    /// The dismissal's curve: CSS `ease-in`, cubic-bezier(0.42, 0, 1, 1).
    public static let easeIn = TimingCurve.cubicBezier(0.42, 0, 1, 1)

    /// - Throws: `StyleOptionError.badValue` for a value that does not parse or is out of range
    ///   (sizes 1…10000 points, radius 0…10000, dim-alpha 0…1, durations 0…10 s, a known curve).
    public static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let width = try options.number(widthOption), height = try options.number(heightOption)
        let cornerRadius = try options.number(cornerRadiusOption), dimAlpha = try options.number(dimAlphaOption)
        let duration = try options.duration(), curve = try options.curve()
        let dismissDuration = try options.number(dismissDurationOption)
        let chrome = PresentedViewChrome(backgroundColor: .white, shadow: try options.shadow())
        // No dismiss gesture; `dismissible`.
        let interaction = try options.interaction(dragging: nil)
        let style = PresentationStyle()

        // `width` × `height` (at most the container), centred.
        style.frameOfPresentedView = { c in
            let b = c.containerBounds, w = min(width, b.width), h = min(height, b.height)
            return Rect(x: b.midX - w / 2, y: b.midY - h / 2, width: w, height: h)
        }
        style.cornerStyle = { _ in CornerStyle(radius: cornerRadius, corners: .all) }
        // Opaque white under the content, and the `shadow`.
        style.chrome = { _ in chrome }
        style.interaction = { _ in interaction }
        style.transitionDuration = { c in c.phase == .dismiss ? dismissDuration : duration }
        style.timingCurve = { c in c.phase == .dismiss ? easeIn : curve }
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: dimAlpha * progress) }
        // The source rectangle (or the frame's centre) interpolated towards `frame` at `progress`,
        // as a translation and a per-axis scale about the top-left corner.
        style.presentedViewTransform = { progress, frame, c in
            let source = c.sourceRect ?? Rect(x: frame.midX, y: frame.midY, width: 0, height: 0)
            func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * progress }
            let x = mix(source.minX, frame.minX), y = mix(source.minY, frame.minY)
            let w = mix(source.width, frame.width), h = mix(source.height, frame.height)
            return ViewTransform(translation: Point(x: x - frame.minX, y: y - frame.minY),
                                 scaleX: frame.width > 0 ? max(0, w / frame.width) : 1,
                                 scaleY: frame.height > 0 ? max(0, h / frame.height) : 1,
                                 anchor: Point(x: 0, y: 0))
        }
        // shouldDismissOnTap: the default, every tap on the dim dismisses.
        return style
    }
}
