/// An axis-aligned rectangle in points (UIKit's `CGRect`), origin at its top-left corner.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner, points.
    public var origin: Point
    /// The width and height, points.
    public var size: Size

    /// A rectangle at `origin` of `size`, points.
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    /// A rectangle at (`x`, `y`) of `width` × `height`, points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.origin = Point(x: x, y: y)
        self.size = Size(width: width, height: height)
    }
    /// The rectangle at the origin with the given size: a container's bounds.
    public init(size: Size) { self.init(origin: .zero, size: size) }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge, points.
    public var minX: Double { origin.x }
    /// The top edge, points.
    public var minY: Double { origin.y }
    /// The right edge (`minX + width`), points.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge (`minY + height`), points.
    public var maxY: Double { origin.y + size.height }
    /// The horizontal centre, points.
    public var midX: Double { origin.x + size.width / 2 }
    /// The vertical centre, points.
    public var midY: Double { origin.y + size.height / 2 }
    /// The width, points.
    public var width: Double { size.width }
    /// The height, points.
    public var height: Double { size.height }
    /// Whether it has no area (a width or height ≤ 0).
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// Whether `p` lies inside, counting the top and left edges but not the bottom and right
    /// ones (so adjacent rectangles never both contain a point).
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// This rectangle moved by (dx, dy) points.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// This rectangle with each edge moved inwards by the given amounts (negative grows it).
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }

    /// The rectangle in buffer pixels for an integer output scale.
    public func scaled(by scale: Int) -> Rect {
        scaled(by: Double(scale))
    }

    /// The rectangle in buffer pixels (not rounded) for a scale that may be fractional.
    public func scaled(by scale: Double) -> Rect {
        Rect(x: minX * scale, y: minY * scale, width: width * scale, height: height * scale)
    }

    /// Each edge moved to the nearest whole number (halves away from zero): a pixel rectangle
    /// whose edges are sharp. Unchanged when the edges already are whole.
    public var snappedToPixels: Rect {
        let x0 = minX.rounded(), y0 = minY.rounded()
        return Rect(x: x0, y: y0, width: maxX.rounded() - x0, height: maxY.rounded() - y0)
    }

    /// The overlap of two rectangles, `.zero` when they do not overlap (touching edges do not).
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        if x1 <= x0 || y1 <= y0 { return .zero }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle containing both (an empty operand is ignored).
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    public var description: String { "(\(minX), \(minY), \(width), \(height))" }
}
