/// A point in the container's coordinate space, in points. Origin top-left, y grows downwards.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal position, points (right is positive).
    public var x: Double
    /// Vertical position, points (down is positive: Wayland's and UIKit's convention).
    public var y: Double
    /// The point (`x`, `y`), points.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin, (0, 0).
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }
}
