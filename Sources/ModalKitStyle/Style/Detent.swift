/// A resting size of a sheet (UIKit's `UISheetPresentationController.Detent`): the extent of the
/// presented view along its drag axis, measured from the container edge it is dismissed toward.
public enum Detent: Hashable, Sendable {
    /// A fraction (0...1] of the container's length along the drag axis.
    case fraction(Double)
    /// An absolute length, points.
    case points(Double)

    /// The detent's length in points for a container `length` points long along the drag axis
    /// (at most `length`).
    public func resolved(containerLength length: Double) -> Double {
        switch self {
        case let .fraction(f): return min(max(f, 0), 1) * length
        case let .points(p): return min(max(p, 0), length)
        }
    }
}
