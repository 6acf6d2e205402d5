// Buffer pixels: the renderer's unit. A buffer is `points × scale` pixels in each direction, 32-bit
// premultiplied ARGB (`PIXMAN_a8r8g8b8`, which is `WL_SHM_FORMAT_ARGB8888` in memory: one native-endian
// UInt32 per pixel, alpha in the top byte, each colour component already multiplied by alpha).

/// A rectangle in buffer pixels (integers), origin top left, x right, y down: the one rectangle
/// type of that space — the renderer's damage and layer placements, the damage a window delegate
/// reports (sent as `wl_surface.damage_buffer`'s x, y, width, height), the decorations' pixels.
/// A rectangle with a side ≤ 0 is empty. Rectangles in points are ``Rect``.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge, buffer pixels.
    public var x: Int
    /// Top edge, buffer pixels.
    public var y: Int
    /// Width, buffer pixels.
    public var width: Int
    /// Height, buffer pixels.
    public var height: Int

    /// A rectangle at (`x`, `y`) of `width` × `height` buffer pixels.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The empty rectangle at the origin.
    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// The column just right of the rectangle (`x + width`).
    public var maxX: Int { x + width }
    /// The row just below the rectangle (`y + height`).
    public var maxY: Int { y + height }
    /// Whether it covers no pixel (a width or height ≤ 0).
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// Number of pixels covered (0 when empty).
    public var area: Int { isEmpty ? 0 : width * height }

    /// Whether the pixel at (`px`, `py`) lies inside (`x ≤ px < maxX`, `y ≤ py < maxY`).
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// The overlap of two rectangles, `.zero` when they do not overlap.
    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = Swift.max(x, o.x), y0 = Swift.max(y, o.y)
        let x1 = Swift.min(maxX, o.maxX), y1 = Swift.min(maxY, o.maxY)
        if x1 <= x0 || y1 <= y0 { return .zero }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle containing both (an empty operand is ignored).
    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = Swift.min(x, o.x), y0 = Swift.min(y, o.y)
        return PixelRect(x: x0, y: y0, width: Swift.max(maxX, o.maxX) - x0, height: Swift.max(maxY, o.maxY) - y0)
    }

    public var description: String { "\(x),\(y) \(width)x\(height)" }
}
