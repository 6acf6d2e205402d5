/// The dim of a frame whose ``LayerFrame/dimGradient`` is vertical, as one column of colours a
/// backend that hands the layers to the compositor stretches horizontally over the container (a
/// `wp_viewport` destination): row y of the container has the colour pixman's renderer gives
/// every pixel of that row, the gradient's `LinearGradient/color(at:)` at the pixel centre's
/// t = (y + 0.5 − start.y) / (end.y − start.y), padded beyond 0 and 1 (a gradient whose end points
/// coincide is its last stop's colour).
///
/// Units: buffer pixels of the container (those of ``LayerFrame``); colours premultiplied ARGB
/// (`0xAARRGGBB`), already multiplied by the dimming view's alpha. Allocates nothing.
public enum DimStrip {
    /// Whether `gradient` varies along y only (start.x == end.x): the dims a strip can show. Any
    /// other direction needs a colour per pixel (pixman's renderer draws it).
    public static func canShow(_ gradient: LinearGradient) -> Bool {
        gradient.start.x == gradient.end.x
    }

    /// Fills every row of `target` (`target.height` = the container's height in buffer pixels; any
    /// width ≥ 1) with its row's colour of `gradient` (``canShow(_:)``; the x of its end points is
    /// ignored).
    public static func draw(_ gradient: LinearGradient, into target: PixelBuffer) {
        let dy = gradient.end.y - gradient.start.y
        let last = gradient.color(at: 1).argb32
        for y in 0..<target.height {
            let c = dy == 0 ? last : gradient.color(at: (Double(y) + 0.5 - gradient.start.y) / dy).argb32
            let row = (target.data + y * target.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<target.width { row[x] = c }
        }
    }
}
