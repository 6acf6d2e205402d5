/// A resting size of a sheet (UIKit's `UISheetPresentationController.Detent`): the extent of the
/// presented view along its drag axis, measured from the container edge it is dismissed toward.
public indirect enum Detent: Hashable, Sendable {
    /// A fraction (0...1] of the container's length along the drag axis.
    case fraction(Double)
    /// An absolute length, points.
    case points(Double)
    /// As long as the presented content says it wants to be along the drag axis, at most
    /// `atMost` (a ``fraction(_:)`` or ``points(_:)``; UIKit's `Detent.custom(resolver:)` answering
    /// the content's preferred height, capped). The content's length is its
    /// `PresentationContent.preferredContentSize(fittingWidth:)` at the presented view's width
    /// (its height for a vertical drag, its width for a horizontal one); a content that does not
    /// say takes the cap. The host resolves it again on each container layout and when told the
    /// content changed (`PresentationHost.invalidateDetents()`, UIKit's `invalidateDetents()`).
    case fitsContent(atMost: Detent)

    /// The detent's length in points for a container `length` points long along the drag axis
    /// (at most `length`), the content's length unknown (``fitsContent(atMost:)`` is its cap).
    public func resolved(containerLength length: Double) -> Double {
        resolved(containerLength: length, contentLength: nil)
    }

    /// The detent's length in points for a container `length` points long along the drag axis
    /// and a content that prefers `contentLength` points along it (nil: it does not say), at most
    /// `length`: only ``fitsContent(atMost:)`` reads `contentLength` — the smaller of it and the
    /// cap (the cap when nil, negative or not finite).
    public func resolved(containerLength length: Double, contentLength: Double?) -> Double {
        switch self {
        case let .fraction(f): return min(max(f, 0), 1) * length
        case let .points(p): return min(max(p, 0), length)
        case let .fitsContent(cap):
            let limit = cap.resolved(containerLength: length, contentLength: nil)
            guard let c = contentLength, c.isFinite, c >= 0 else { return limit }
            return min(c, limit)
        }
    }

    /// Whether the detent depends on the content (``fitsContent(atMost:)``).
    public var dependsOnContent: Bool {
        if case .fitsContent = self { return true }
        return false
    }
}
