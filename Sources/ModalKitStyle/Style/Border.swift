/// A border along the presented view's (rounded) edge, inside its frame (CALayer's `borderWidth`
/// and `borderColor`).
public struct Border: Hashable, Sendable {
    /// Width, points, ≥ 0.
    public var width: Double
    /// Premultiplied colour.
    public var color: Color
    /// A border `width` points wide of `color`.
    public init(width: Double, color: Color) { self.width = width; self.color = color }
}
