import CModalKitPixman
import Glibc

/// The layer tree at one moment, resolved to buffer pixels: what one frame shows. Comparing two of
/// these gives a frame's damage. (The same values could be handed to a compositor as subsurfaces: the
/// presenting cache at 0,0, a dim of one colour over everything, the presented cache at `presentedRect`.)
///
/// Units: buffer pixels (points × scale, already rounded by the caller); colours premultiplied ARGB
/// (`0xAARRGGBB`). The default value is an empty frame with no dim and no presented view.
public struct LayerFrame: Equatable, Sendable {
    /// Container size in buffer pixels (the presenting cache and the target have this size).
    public var width = 0, height = 0
    /// Bumped by the caller whenever the presenting view's cached pixels change as a whole (a
    /// change of version damages the whole frame).
    public var presentingVersion = 0
    /// The dimming view's colour × alpha, premultiplied ARGB; 0 when there is no dim (no dimming view installed, or alpha 0).
    public var dim: UInt32 = 0
    /// Where the presented view's cache lands, buffer pixels, before clipping to the window;
    /// `.zero` when there is no presented view.
    public var presentedRect: PixelRect = .zero
    /// Bumped by the caller whenever the presented view's cached pixels change.
    public var presentedVersion = 0
    /// The presented view's opacity, 0...255.
    public var presentedAlpha: UInt32 = 255
    /// Rows at the top and bottom of the presented view that have rounded (partly transparent) corners, buffer
    /// pixels (``cornerBand(radius:)`` of the corner radius, 0 for square edges); drawn with OVER,
    /// the rows between them with SRC.
    public var presentedTopBand = 0, presentedBottomBand = 0
    /// Size of the presented view's cache, buffer pixels; differs from `presentedRect`'s size when the style
    /// scales the view (the cache is then drawn scaled, bilinear).
    public var presentedSourceWidth = 0, presentedSourceHeight = 0

    // Style ABI 1.1 (each default draws exactly what a frame without it draws).

    /// A gradient dim instead of `dim` (which is then 0): start and end points in buffer pixels of
    /// the container, stop colours premultiplied and already multiplied by the dimming view's alpha;
    /// nil for a solid dim. Drawn with OVER over the whole container (pad beyond the end points).
    public var dimGradient: LinearGradient?
    /// Whether the presented cache is opaque between its rounded-corner bands (drawn there with SRC,
    /// nothing under it): true unless the style's chrome declares a translucent background (a
    /// content must then leave translucent pixels only where that background shows).
    public var presentedIsOpaque = true
    /// The presented view's corner radius, buffer pixels (already clamped to half the shorter side
    /// of the cache), and the corners it applies to: the shape of the drop shadow.
    public var presentedCornerRadius = 0.0
    /// The corners ``presentedCornerRadius`` rounds.
    public var presentedCorners: CornerMask = []
    /// The drop shadow's colour (premultiplied ARGB, the colour of its darkest part), 0 = no shadow.
    public var shadowColor: UInt32 = 0
    /// The shadow's offset from `presentedRect`, buffer pixels.
    public var shadowOffsetX = 0, shadowOffsetY = 0
    /// The shadow's blur radius, buffer pixels, 0...``LayerFrame/maxShadowBlur``: the shadow fades
    /// out over this distance on both sides of the offset edge, so it extends `shadowBlur` beyond it.
    public var shadowBlur = 0
    /// The largest shadow blur radius drawn, buffer pixels (a larger one is drawn at this radius:
    /// the blurred image, made once, stays within a few megabytes).
    public static let maxShadowBlur = 256
    /// Where the presenting cache lands while covered (buffer pixels; drawn scaled to this
    /// rectangle, bilinear, when its size differs from the container's), or nil: at the origin,
    /// 1:1 — the 1.0 frame. Outside it the container shows ``Renderer/uncoveredColor`` (black).
    public var presentingRect: PixelRect?
    /// The presenting view's corner radius (all four corners) while covered, buffer pixels (clamped
    /// to half the shorter side of `presentingRect`); 0 = square. Used only with `presentingRect`.
    public var presentingCornerRadius = 0.0
    /// The presenting view's opacity 0...255 while covered (over black). Used only with `presentingRect`.
    public var presentingAlpha: UInt32 = 255

    /// Where the presented view's background extends beyond its edge, buffer pixels (a sheet
    /// pulled past its resting detent: ``PresentationSnapshot/presentedExtension``), overlapping
    /// the card by its corner band on that side; `.zero` for none. Drawn under the card in
    /// `presentedExtensionColor`.
    public var presentedExtensionRect: PixelRect = .zero
    /// The edge of the card the extension lies beyond.
    public var presentedExtensionEdge = DragDirection.down
    /// The extension's colour, premultiplied ARGB: the presented cache's pixel in the middle of its
    /// last line on that side inside the corner band (the sheet's own background there, set by
    /// the host once the cache is drawn); 0 draws nothing.
    public var presentedExtensionColor: UInt32 = 0

    /// An empty frame: set the fields that apply.
    public init() {}

    /// Whether the presented view casts a shadow in this frame.
    public var hasShadow: Bool { hasPresentedView && shadowColor != 0 }
    /// The drop shadow's extent, buffer pixels: `presentedRect` moved by the offset and grown by the blur
    /// radius on every side (`.zero` without a shadow).
    public var shadowRect: PixelRect {
        guard hasShadow else { return .zero }
        return PixelRect(x: presentedRect.x + shadowOffsetX - shadowBlur, y: presentedRect.y + shadowOffsetY - shadowBlur,
                         width: presentedRect.width + 2 * shadowBlur, height: presentedRect.height + 2 * shadowBlur)
    }
    /// Everything the presented view paints: its rectangle and its shadow's.
    public var presentedExtent: PixelRect {
        let e = hasPresentedView ? presentedExtensionRect : .zero
        return presentedRect.union(shadowRect).union(e)
    }

    /// Whether the presented view is drawn 1:1 (no scale transform).
    public var presentedIsUnscaled: Bool { presentedRect.width == presentedSourceWidth && presentedRect.height == presentedSourceHeight }

    /// The container, buffer pixels, at the origin.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    /// Whether a presented view is shown.
    public var hasPresentedView: Bool { !presentedRect.isEmpty }
    /// Whether the frame is the presenting view alone, unscaled: no dim, no presented view (so no
    /// shadow), not receding. Such a frame may be drawn by its content straight into the window's
    /// buffer (``Renderer/PresentingSource/direct(_:size:scale:force:)``).
    var showsPresentingViewAlone: Bool {
        presentingRect == nil && dim == 0 && dimGradient == nil && !hasPresentedView
    }
}
