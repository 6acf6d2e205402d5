/// Where a backend that hands the presented view to the compositor as its own surface (a
/// sub-surface moved by `wl_subsurface.set_position`) shows it, from a ``LayerFrame`` at a whole
/// scale, whose presented view starts at a whole point (the rule of
/// ``PresentationSnapshot/presentedPixelRect(_:scale:)``, for every path).
///
/// Units: positions and the visible rectangle in points (the units of `set_position` and
/// `wp_viewport`); the buffer in pixels, each side the presented view's pixel size rounded up to
/// whole points (the padding is transparent, ``PresentationHost/drawPresentedLayer(_:into:presentedOffset:)``),
/// so a buffer scale of `bufferScale` divides it.
public struct PresentedLayerPlacement: Equatable, Sendable {
    /// The image's top-left in the container, points (the presented view's, moved up and left by
    /// the room its drop shadow takes there).
    public var x: Int, y: Int
    /// Where the presented view's top-left lies in the image, pixels (multiples of the buffer
    /// scale): the room its drop shadow takes above and to its left, rounded up to whole points,
    /// within the container; 0 without a shadow. The image extends right and below by the
    /// shadow's extent there too.
    public var presentedOffsetX = 0, presentedOffsetY = 0
    /// The layer buffer's size, pixels (multiples of the buffer scale).
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
        guard f.hasPresentedView, s >= 1 else { return nil }
        // The drop shadow, drawn into the same image: room on each side for its extent, but none
        // above or left of the container's edges (the shadow is clipped there, as the full renderer
        // clips it), so an image whose view is inside the container is never cropped at its left
        // or top (a viewport source offset). Right and below the room is whole and the image
        // cropped by the source's size: a view sliding in from below keeps one buffer size.
        let e = f.presentedExtent
        let cx = Int((Double(f.presentedRect.x) / Double(s)).rounded(.down)), cy = Int((Double(f.presentedRect.y) / Double(s)).rounded(.down))
        let left = min((f.presentedRect.x - e.x + s - 1) / s, max(0, cx)), top = min((f.presentedRect.y - e.y + s - 1) / s, max(0, cy))
        let right = e.maxX - f.presentedRect.maxX, bottom = e.maxY - f.presentedRect.maxY
        let pw = left + (f.presentedRect.width + right + s - 1) / s, ph = top + (f.presentedRect.height + bottom + s - 1) / s
        presentedOffsetX = left * s
        presentedOffsetY = top * s
        // The view's whole point (the snapshot's rule; for any other presented view, the point its pixel falls in).
        x = cx - left
        y = cy - top
        bufferWidth = pw * s
        bufferHeight = ph * s
        let vx = max(0, -x), vy = max(0, -y)
        let vw = max(0, min(pw, w - x) - vx), vh = max(0, min(ph, h - y) - vy)
        visible = vw > 0 && vh > 0 ? Rect(x: Double(vx), y: Double(vy), width: Double(vw), height: Double(vh)) : .zero
        isCacheAsIs = f.presentedIsUnscaled && f.presentedAlpha == 255
    }
}
