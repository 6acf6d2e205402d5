/// What one frame of a presentation shows, in points, before any pixels are drawn: the value a
/// backend consumes (the pixman ``Renderer`` through ``layerFrame(scale:)``, or a backend that hands
/// the layers to the compositor as subsurfaces). UIKit analogue: the presentation layer tree of the
/// container view at one moment (`presentingView`, `dimmingView`, `presentedView` with their
/// `frame`, `cornerRadius`/`maskedCorners`, `backgroundColor`, `transform` and `alpha`).
///
/// Both the live frame (``PresentationController/snapshot(at:)``) and the offline frame at a phase
/// and linear fraction (``PresentationController/snapshot(phase:fraction:)``) are made by the one
/// function ``make(style:context:presentedFrame:corners:progress:reducedMotionAlpha:placement:)``,
/// so the window and `modal-demo render` cannot disagree.
public struct PresentationSnapshot: Hashable, Sendable {
    /// The container's bounds, points (the presenting view and the dimming view fill it).
    public var containerBounds: Rect
    /// Whether the modal layer (dimming view + presented view) is shown at all (false: only the
    /// presenting view).
    public var isModalLayerShown: Bool
    /// The presented view's frame, points (the style's `frameOfPresentedView`).
    public var presentedFrame: Rect
    /// The presented view's corner clip (radius in points, unclamped).
    public var corners: CornerStyle
    /// The dimming view's colour and alpha, the style's appearance at the eased progress clamped
    /// to 0...1: never darker than its presented alpha, whatever the curve overshoots.
    public var dim: DimmingAppearance
    /// The presented view's transform relative to `presentedFrame` (under reduced motion: its
    /// final place with the cross-fade's alpha).
    public var presentedTransform: ViewTransform
    /// The presented view's chrome (background, border, shadow, grabber) for these bounds.
    public var chrome: PresentedViewChrome = .none
    /// How the presenting view is drawn while covered (its transform relative to the container
    /// bounds, and corner radius) at this progress.
    public var presentingAppearance: PresentingViewAppearance = .identity
    /// The bottom corners' radius when it differs from `corners.radius` (points; a shape morph
    /// between a sheet and a card rounds the bottom corners gradually), else nil.
    public var bottomCornerRadius: Double?
    /// How far the presented view's background extends beyond its edge on the side of
    /// ``extensionEdge``, points (≥ 0; 0: not at all): a sheet pulled past the detent it rests at,
    /// away from dismissal, keeps its far edge where it was and fills the gap with its background
    /// instead of uncovering the dim or the view underneath (UIKit's sheet rubber-banding past its
    /// largest detent). The content is not laid out again during the drag: it stays at the
    /// resting detent's size, and the extension shows the sheet's background.
    public var presentedExtension = 0.0
    /// The edge of the presented view the extension lies beyond: the direction the view is
    /// dismissed toward (a bottom sheet's bottom edge for `.down`).
    public var extensionEdge = DragDirection.down

    /// Sets ``presentedExtension`` (points; not finite or negative: 0) beyond the edge toward `edge`.
    mutating func setExtension(_ points: Double, toward edge: DragDirection) {
        presentedExtension = points.isFinite ? max(0, points) : 0
        extensionEdge = edge
    }

    /// Nothing presented in a container of `bounds`.
    public static func unpresented(containerBounds bounds: Rect) -> PresentationSnapshot {
        PresentationSnapshot(containerBounds: bounds, isModalLayerShown: false, presentedFrame: .zero,
                             corners: .square, dim: .none, presentedTransform: .identity,
                             chrome: .none, presentingAppearance: .identity)
    }

    /// Where the presented view shows, points: `presentedFrame` under `presentedTransform`.
    public var presentedRect: Rect { PresentationController.apply(presentedTransform, to: presentedFrame) }

    /// THE geometry function: the snapshot of `style`'s modal layer in `context.containerBounds`
    /// (points) at eased `progress` (the timing curve's value; may leave 0...1 for a spring).
    /// - Parameters:
    ///   - style: the style whose hooks give the dim, the presented view's transform and alpha, and the chrome.
    ///   - presentedFrame: the style's frame of the presented view for these bounds, points.
    ///   - corners: the style's corner clip for these bounds.
    ///   - progress: the eased progress (the timing curve's value at the transition's linear time).
    ///   - context: the transition the frame belongs to (phase, interactive, source rectangle, bounds).
    ///   - reducedMotionAlpha: nil normally; under reduced motion the cross-fade's alpha (0...1),
    ///     and the presented view stays at its final place while the presenting view's recede
    ///     jumps at the cross-fade's half (``ReducedMotion``).
    ///   - placement: where the presented view rests or is dragged (``PresentedPlacement``);
    ///     default ``PresentedPlacement/frame``, the style's transform alone.
    public static func make(style: PresentationStyle, context: TransitionContext, presentedFrame: Rect,
                            corners: CornerStyle, progress: Double,
                            reducedMotionAlpha: Double?,
                            placement: PresentedPlacement = .frame) -> PresentationSnapshot {
        let containerBounds = context.containerBounds
        var transform: ViewTransform
        var dimFactor = 1.0
        switch placement {
        case let .dragged(translation):
            transform = ViewTransform(translation: translation)
        case let .resting(rest, factor):
            dimFactor = min(max(factor.isFinite ? factor : 1, 0), 1)
            if let alpha = reducedMotionAlpha {
                transform = ReducedMotion.presentedViewTransform(style: style, alpha: alpha, frame: presentedFrame,
                                                                 context: context)
                transform.translation.x += rest.x
                transform.translation.y += rest.y
            } else {
                transform = style.presentedViewTransform(progress, presentedFrame, context)
                transform.translation.x += rest.x * progress
                transform.translation.y += rest.y * progress
            }
        }
        let clamped = min(max(progress.isFinite ? progress : 0, 0), 1) * dimFactor
        var dim = style.dimmingAppearance(clamped, context)
        dim.alpha = min(max(dim.alpha, 0), 1)
        return PresentationSnapshot(containerBounds: containerBounds, isModalLayerShown: true,
                                    presentedFrame: presentedFrame, corners: corners, dim: dim,
                                    presentedTransform: transform,
                                    chrome: style.chrome(LayoutContext(containerBounds: containerBounds)),
                                    presentingAppearance: presentingAppearance(style: style, context: context,
                                                                               progress: clamped,
                                                                               reducedMotionAlpha: reducedMotionAlpha))
    }

    /// The presenting view's look at `progress` (0...1). Under reduced motion (`reducedMotionAlpha`
    /// not nil) it never moves or scales: its geometry — the transform's translation, scale and
    /// anchor, and the corner radius — jumps between the style's look at progress 0 and at 1 when
    /// the presented view's cross-fade passes half (alpha ≥ 0.5: receded), so the change happens
    /// under the fading view; its alpha still follows `progress` like the dim (a fade is no motion).
    static func presentingAppearance(style: PresentationStyle, context: TransitionContext, progress: Double,
                                     reducedMotionAlpha: Double?) -> PresentingViewAppearance {
        let look = style.presentingViewAppearance(progress, context)
        guard let alpha = reducedMotionAlpha else { return look }
        var jumped = style.presentingViewAppearance(alpha >= 0.5 - 1e-9 ? 1 : 0, context)
        jumped.transform.alpha = look.transform.alpha
        return jumped
    }

    /// The snapshot resolved to buffer pixels at `scale` (buffer pixels per point, > 0): the
    /// container is `pixelLength(_:scale:)` of each side; the presented view's rectangle is
    /// ``presentedPixelRect(_:scale:)`` of ``presentedRect`` (its top-left at a whole point, its size
    /// points × scale rounded half away from zero); the corner radius is points × scale clamped to
    /// half the shorter side. Cache versions are left 0 for the caller to set.
    ///
    /// Style 1.1 fields: a gradient dim's points × scale with every stop × the dim's alpha
    /// (`dimGradient`, `dim` then 0); the shadow's offset and blur radius × scale, rounded, its
    /// colour as premultiplied ARGB; the covered presenting view's rectangle (the container under
    /// `presentingAppearance.transform`, edges × scale rounded), corner radius × scale (clamped)
    /// and alpha byte — nil rectangle when it is drawn as in a 1.0 frame.
    public func layerFrame(scale s: Double) -> LayerFrame {
        var f = LayerFrame()
        (f.width, f.height) = containerBounds.size.pixelSize(scale: s)
        guard isModalLayerShown else { return f }
        if let g = dim.gradient {
            if dim.alpha > 0 { f.dimGradient = g.resolved(scale: s, alpha: dim.alpha) }
        } else {
            f.dim = dim.color.multipliedAlpha(by: dim.alpha).argb32
        }
        if presentingAppearance != .identity { resolvePresenting(into: &f, scale: s) }
        let cw = Int((presentedFrame.width * s).rounded()), ch = Int((presentedFrame.height * s).rounded())
        let t = presentedTransform
        // Alpha to 0...255 rounded half up, a product within 1e-9 of a half counting as a half (the
        // rule of `pixelLength`): the live alpha, computed from times, and the offline alpha, given as
        // a fraction, may differ in their last bits and must still give the same byte.
        let alpha = UInt32(roundedHalfAwayFromZero(min(max(t.alpha, 0), 1) * 255))
        guard cw > 0, ch > 0, alpha > 0, t.scaleX > 0, t.scaleY > 0 else { return f }
        // Unscaled, the shown size is the frame's (a translation keeps it), so the presented view is cw × ch.
        f.presentedRect = Self.presentedPixelRect(presentedRect, scale: s)
        f.presentedAlpha = alpha
        f.presentedSourceWidth = cw
        f.presentedSourceHeight = ch
        let radius = presentedCornerRadius(scale: s)
        let band = cornerBand(radius: radius)
        f.presentedTopBand = corners.corners.isDisjoint(with: .top) ? 0 : band
        f.presentedBottomBand = corners.corners.isDisjoint(with: [.bottomLeft, .bottomRight]) ? 0
            : cornerBand(radius: presentedBottomCornerRadius(scale: s))
        f.presentedCornerRadius = radius
        f.presentedIsOpaque = chrome.backgroundColor.map { $0.alpha >= 1 } ?? true
        f.presentedCorners = radius > 0 ? corners.corners : []
        if presentedExtension > 0, t.isUnscaled {
            // Overlapping the card by its corner band on that side, so rounded corners there are
            // drawn over the extension, not over the dim.
            let e = Int((presentedExtension * s).rounded()), c = f.presentedRect
            let overlap = max(f.presentedTopBand, f.presentedBottomBand)
            switch extensionEdge {
            case .down: f.presentedExtensionRect = PixelRect(x: c.x, y: c.maxY - overlap, width: c.width, height: e + overlap)
            case .up: f.presentedExtensionRect = PixelRect(x: c.x, y: c.y - e, width: c.width, height: e + overlap)
            case .right: f.presentedExtensionRect = PixelRect(x: c.maxX - overlap, y: c.y, width: e + overlap, height: c.height)
            case .left: f.presentedExtensionRect = PixelRect(x: c.x - e, y: c.y, width: e + overlap, height: c.height)
            }
            if e == 0 { f.presentedExtensionRect = .zero }
            f.presentedExtensionEdge = extensionEdge
        }
        if let shadow = chrome.shadow, shadow.color.alpha > 0 {
            f.shadowColor = shadow.color.argb32
            f.shadowOffsetX = Int((shadow.offset.x * s).rounded())
            f.shadowOffsetY = Int((shadow.offset.y * s).rounded())
            f.shadowBlur = shadow.blurRadius.isFinite
                ? Int(min(max(shadow.blurRadius, 0) * s, Double(LayerFrame.maxShadowBlur)).rounded()) : 0
        }
        return f
    }

    /// Where a presented view shown at `shown` (points in the container: ``presentedRect``, or a
    /// covered level's view under the covering style's look) lands in buffer pixels at `scale`
    /// (buffer pixels per point, > 0). The one rounding rule of a presented view's position, for
    /// every path that draws or places it — the pixman frame live and offline (`modal-demo render`,
    /// `preview`, `modal-bench`) and a backend that hands the view to the compositor as a sub-surface:
    /// - its top-left corner is at a whole point: each coordinate rounded to a whole point, then
    ///   × scale rounded to a whole pixel;
    /// - its size is points × scale rounded (unscaled: the size of its cache).
    ///
    /// Every rounding is half away from zero (Swift's `rounded()`, as `pixelLength(_:scale:)`);
    /// in the origin a value within 1e-6 of a half counts as a half, so a live frame (computed from
    /// times since boot) and an offline one (from a fraction) that differ in their last bits land on
    /// the same pixel. Whole points because `wl_subsurface.set_position` takes whole surface-local
    /// coordinates (Wayland core protocol), at any scale (at a fractional one the layer's buffer is
    /// mapped onto points by `wp_viewport`): a view the compositor places can only start at a whole
    /// point, and the pixman path draws it at the same pixel, so switching backends never moves
    /// it. (Exact pixel positions would need a sub-point pad inside the layer's buffer, redrawn
    /// whenever the view's offset within a point changes — every frame of a transition.)
    /// Example: a bottom sheet whose top is at 155.5 pt starts at pixel row 312 at scale 2
    /// (156 pt), and at round(201 × 1.75) = 352 at scale 1.75; a view at −10.5 pt starts at
    /// round(−11 × 1.5) = −17 at 1.5.
    public static func presentedPixelRect(_ shown: Rect, scale s: Double) -> PixelRect {
        let x = Int(roundedHalfAwayFromZero(roundedHalfAwayFromZero(shown.minX) * s))
        let y = Int(roundedHalfAwayFromZero(roundedHalfAwayFromZero(shown.minY) * s))
        return PixelRect(x: x, y: y, width: Int((shown.width * s).rounded()), height: Int((shown.height * s).rounded()))
    }

    /// The presenting view while covered, in buffer pixels: the container's bounds under
    /// `presentingAppearance.transform` (edges rounded half away from zero), its corner radius
    /// × scale clamped to half the shorter side, its alpha as a byte; left nil when that is the
    /// container itself, square and opaque (drawn as in a 1.0 frame).
    private func resolvePresenting(into f: inout LayerFrame, scale s: Double) {
        let t = presentingAppearance.transform
        let a255 = (t.alpha.isFinite ? min(max(t.alpha, 0), 1) : 1) * 255
        let alpha = UInt32(a255.rounded())
        guard t.scaleX > 0, t.scaleY > 0, alpha > 0 else {
            f.presentingRect = .zero  // hidden: the container shows black
            return
        }
        let shown = PresentationController.apply(t, to: containerBounds)
        let x0 = Int((shown.minX * s).rounded()), y0 = Int((shown.minY * s).rounded())
        let rect = PixelRect(x: x0, y: y0, width: Int((shown.maxX * s).rounded()) - x0,
                             height: Int((shown.maxY * s).rounded()) - y0)
        let r = presentingAppearance.cornerRadius.isFinite ? presentingAppearance.cornerRadius : 0
        let radius = clampedRadius(r * s, width: Double(rect.width), height: Double(rect.height))
        guard rect != f.bounds || radius > 0 || alpha < 255 else { return }
        f.presentingRect = rect
        f.presentingCornerRadius = radius
        f.presentingAlpha = alpha
    }

    /// The bottom corners' radius in buffer pixels at `scale` (``presentedCornerRadius(scale:)``
    /// unless ``bottomCornerRadius`` is set), clamped the same way.
    public func presentedBottomCornerRadius(scale s: Double) -> Double {
        guard let b = bottomCornerRadius else { return presentedCornerRadius(scale: s) }
        let cw = (presentedFrame.width * s).rounded(), ch = (presentedFrame.height * s).rounded()
        return clampedRadius(b * s, width: cw, height: ch)
    }

    /// The presented view's corner radius in buffer pixels at `scale`: points × scale, clamped to
    /// half the shorter side of its pixel size (Core Animation's rule).
    public func presentedCornerRadius(scale s: Double) -> Double {
        let cw = (presentedFrame.width * s).rounded(), ch = (presentedFrame.height * s).rounded()
        return clampedRadius(corners.radius * s, width: cw, height: ch)
    }
}
