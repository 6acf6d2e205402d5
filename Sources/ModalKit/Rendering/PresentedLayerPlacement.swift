/// Where a backend that hands the presented view to the compositor as its own surface (a
/// sub-surface moved by `wl_subsurface.set_position`) shows it, from a ``LayerFrame`` at a whole or
/// fractional scale, whose presented view starts at a whole point (the rule of
/// ``PresentationSnapshot/presentedPixelRect(_:scale:)``, for every path).
///
/// Units: positions and the visible rectangle in points (the units of `set_position` and
/// `wp_viewport`); the buffer in pixels, each side the presented view's pixel size rounded up to
/// whole points (the padding is transparent, ``PresentationHost/drawPresentedLayer(_:into:presentedOffset:)``),
/// so a buffer scale of `bufferScale` divides it (at a fractional scale, to whole multiples of
/// ``PresentedLayerPlacement/alignment(scale:)`` points, so that it is a whole number of pixels).
public struct PresentedLayerPlacement: Equatable, Sendable {
    /// The image's top-left in the container, points (the presented view's, moved up and left by
    /// the room its drop shadow takes there).
    public var x: Int, y: Int
    /// Where the presented view's top-left lies in the image, pixels (multiples of the buffer
    /// scale at a whole scale): the room its drop shadow takes above and to its left, rounded up to whole points,
    /// within the container; 0 without a shadow. The image extends right and below by the
    /// shadow's extent there too.
    public var presentedOffsetX = 0, presentedOffsetY = 0
    /// The layer buffer's size, pixels (multiples of the buffer scale; at a fractional scale whole
    /// multiples of ``PresentedLayerPlacement/alignment(scale:)`` points × the scale).
    public var bufferWidth: Int, bufferHeight: Int
    /// The part of the image inside the container, points relative to the image's top-left (a
    /// surface is not clipped to its parent: the layer shows only this part); empty when none is.
    public var visible: Rect
    /// Whether the image is the presented view's cache as it is (opaque, unscaled): drawn once per
    /// ``LayerFrame/presentedVersion`` and size. Otherwise it carries this frame's alpha or scale and is
    /// drawn by pixman every frame (the compositor cannot fade a surface without
    /// `wp_alpha_modifier_v1`, nor scale it exactly as pixman's bilinear filter does).
    public var isCacheAsIs: Bool

    /// The placement of `frame`'s presented view in a container of `containerWidth` ×
    /// `containerHeight` points at whole `bufferScale` (≥ 1); nil without a presented view.
    public init?(frame f: LayerFrame, bufferScale s: Int, containerWidth w: Int, containerHeight h: Int) {
        guard s >= 1 else { return nil }
        self.init(frame: f, scale: Double(s), containerWidth: w, containerHeight: h)
    }

    /// The placement of `frame`'s presented view in a container of `containerWidth` ×
    /// `containerHeight` points at `scale` buffer pixels per point (≥ 1; whole, or fractional as
    /// fractional-scale-v1's n/120); nil without a presented view.
    ///
    /// At a fractional scale the layer's buffer is shown at buffer scale 1 through `wp_viewport`
    /// (source in buffer pixels, destination in points: fractional-scale-v1's rule), so that its
    /// pixels land 1:1 on the output's: its origin and size are whole multiples of
    /// ``PresentedLayerPlacement/alignment(scale:)`` points (e.g. 2 at 1.5: an even point is a whole pixel), the buffer `points × scale` pixels
    /// exactly, and the presented view drawn at its own pixel offset inside it: the pixel the
    /// full renderer draws it at.
    public init?(frame f: LayerFrame, scale s: Double, containerWidth w: Int, containerHeight h: Int) {
        guard f.hasPresentedView, s >= 1, s.isFinite else { return nil }
        let q = Self.alignment(scale: s)
        // The drop shadow, drawn into the same image: room on each side for its extent, but none
        // above or left of the container's edges (the shadow is clipped there, as the full renderer
        // clips it), so an image whose view is inside the container is never cropped at its left
        // or top (a viewport source offset). Right and below the room is whole and the image
        // cropped by the source's size: a view sliding in from below keeps one buffer size.
        let e = f.presentedExtent
        // The view's whole point (the snapshot's rule), never right of its first pixel (for any
        // other presented view, the point its pixel falls in).
        func point(_ px: Int) -> Int {
            var p = Int((Double(px) / s).rounded())
            if Double(p) * s > Double(px) + 1e-9 { p -= 1 }
            return p
        }
        func pixels(_ points: Int) -> Int { Int((Double(points) * s).rounded()) }
        func down(_ v: Int) -> Int { Int((Double(v) / Double(q)).rounded(.down)) * q }
        func up(_ v: Int) -> Int { Int((Double(v) / Double(q)).rounded(.up)) * q }
        let cx = point(f.presentedRect.x), cy = point(f.presentedRect.y)
        let left = min(Int((Double(f.presentedRect.x - e.x) / s - 1e-9).rounded(.up)), max(0, cx))
        let top = min(Int((Double(f.presentedRect.y - e.y) / s - 1e-9).rounded(.up)), max(0, cy))
        x = down(cx - left)
        y = down(cy - top)
        let endX = up(Int((Double(max(f.presentedRect.maxX, e.maxX)) / s - 1e-9).rounded(.up)))
        let endY = up(Int((Double(max(f.presentedRect.maxY, e.maxY)) / s - 1e-9).rounded(.up)))
        let pw = endX - x, ph = endY - y
        presentedOffsetX = f.presentedRect.x - pixels(x)
        presentedOffsetY = f.presentedRect.y - pixels(y)
        bufferWidth = pixels(pw)
        bufferHeight = pixels(ph)
        let vx = max(0, -x), vy = max(0, -y)
        let vw = max(0, min(pw, w - x) - vx), vh = max(0, min(ph, h - y) - vy)
        visible = vw > 0 && vh > 0 ? Rect(x: Double(vx), y: Double(vy), width: Double(vw), height: Double(vh)) : .zero
        isCacheAsIs = f.presentedIsUnscaled && f.presentedAlpha == 255
    }

    /// The smallest whole number of points that is a whole number of pixels at `scale` (1 at a
    /// whole scale, 2 at 1.5, 4 at 1.25; at most 120, fractional-scale-v1's denominator).
    public static func alignment(scale s: Double) -> Int {
        for q in 1...120 {
            let v = Double(q) * s
            if abs(v - v.rounded()) < 1e-6 { return q }
        }
        return 120
    }
}
