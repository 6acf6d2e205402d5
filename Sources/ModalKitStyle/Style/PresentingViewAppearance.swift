/// How the presenting view (or, in a stack, the level below) is drawn while a presentation covers
/// it: a transform about its centre (or anchor) and a corner radius, points (UIKit's page sheet
/// shrinks the presenting view and rounds its top corners, "recede").
public struct PresentingViewAppearance: Hashable, Sendable {
    /// The transform relative to the container bounds.
    public var transform: ViewTransform
    /// Corner radius, points, applied to all four corners; 0 = square.
    public var cornerRadius: Double
    /// The presenting view under `transform`, with corners of `cornerRadius` points.
    public init(transform: ViewTransform = .identity, cornerRadius: Double = 0) {
        self.transform = transform; self.cornerRadius = cornerRadius
    }
    /// Unchanged: drawn as if nothing covered it.
    public static let identity = PresentingViewAppearance()
}
