/// A size in points. Never negative once it has passed through `Rect`'s initialisers.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Width, points.
    public var width: Double
    /// Height, points.
    public var height: Double
    /// A size of `width` × `height` points.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// No size: 0 × 0.
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)x\(height)" }

    /// The buffer size in pixels at `scale`: each side ``pixelLength(_:scale:)``.
    public func pixelSize(scale: Double) -> (width: Int, height: Int) {
        (pixelLength(width, scale: scale), pixelLength(height, scale: scale))
    }
}
