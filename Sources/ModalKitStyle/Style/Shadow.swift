/// A drop shadow behind the presented view (CALayer's `shadowColor`/`shadowOffset`/`shadowRadius`):
/// the view's rounded rectangle, offset, blurred by `blurRadius`, in `color`. Drawn from a cached
/// blurred image made once per size and scale, never blurred per frame.
public struct Shadow: Hashable, Sendable {
    /// Premultiplied colour of the shadow's darkest part (its alpha is the shadow's opacity).
    public var color: Color
    /// Offset of the shadow from the view, points.
    public var offset: Point
    /// Blur radius, points, ≥ 0 (the shadow fades out over this distance beyond the offset edge).
    public var blurRadius: Double
    /// A shadow of `color`, moved by `offset` points, blurred over `blurRadius` points.
    public init(color: Color, offset: Point, blurRadius: Double) {
        self.color = color; self.offset = offset; self.blurRadius = blurRadius
    }
}
