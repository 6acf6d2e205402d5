/// Where a backend that hands the presented view to the compositor as its own surface (a
/// sub-surface moved by `wl_subsurface.set_position`) shows it, from a ``LayerFrame`` whose
/// positions are whole points (``PresentationHost/snapsPositionsToPoints``) at a whole scale.
///
/// Units: positions and the visible rectangle in points (the units of `set_position` and
/// `wp_viewport`); the buffer in pixels, each side the presented view's pixel size rounded up to
/// whole points (the padding is transparent, ``PresentationHost/drawPresentedLayer(_:into:)``),
/// so a buffer scale of `bufferScale` divides it.
public struct PresentedLayerPlacement: Equatable, Sendable {
    /// The image's top-left in the container, points.
    public var x: Int, y: Int
    /// The layer buffer's size, pixels (multiples of the buffer scale).
    public var bufferWidth: Int, bufferHeight: Int
    /// The part of the image inside the container, points relative to the image's top-left (a
    /// surface is not clipped to its parent: the layer shows only this part); empty when none is.
    public var visible: Rect
    /// Whether the image is the presented view's cache as it is (opaque, unscaled): drawn once per
    /// ``LayerFrame/cardVersion`` and size. Otherwise it carries this frame's alpha or scale and is
    /// drawn by pixman every frame (the compositor cannot fade a surface without
    /// `wp_alpha_modifier_v1`, nor scale it exactly as pixman's bilinear filter does).
    public var isCacheAsIs: Bool

    /// The placement of `frame`'s presented view in a container of `containerWidth` ×
    /// `containerHeight` points at whole `bufferScale` (≥ 1); nil without a presented view.
    public init?(frame f: LayerFrame, bufferScale s: Int, containerWidth w: Int, containerHeight h: Int) {
        guard f.hasCard, s >= 1 else { return nil }
        let pw = (f.card.width + s - 1) / s, ph = (f.card.height + s - 1) / s
        // Whole points when the host snaps positions; otherwise the point the pixel falls in.
        x = Int((Double(f.card.x) / Double(s)).rounded(.down))
        y = Int((Double(f.card.y) / Double(s)).rounded(.down))
        bufferWidth = pw * s
        bufferHeight = ph * s
        let vx = max(0, -x), vy = max(0, -y)
        let vw = max(0, min(pw, w - x) - vx), vh = max(0, min(ph, h - y) - vy)
        visible = vw > 0 && vh > 0 ? Rect(x: Double(vx), y: Double(vy), width: Double(vw), height: Double(vh)) : .zero
        isCacheAsIs = f.cardIsUnscaled && f.cardAlpha == 255
    }
}
