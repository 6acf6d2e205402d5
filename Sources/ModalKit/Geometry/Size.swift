/// A size in points. Never negative once it has passed through `Rect`'s initialisers.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)x\(height)" }

    /// The buffer size in pixels at `scale`: each side ``pixelLength(_:scale:)``.
    public func pixelSize(scale: Double) -> (width: Int, height: Int) {
        (pixelLength(width, scale: scale), pixelLength(height, scale: scale))
    }
}
