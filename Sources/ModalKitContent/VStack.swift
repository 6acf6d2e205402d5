import ModalKit

/// A vertical stack: pieces top to bottom, full width, a fixed spacing between neighbours
/// (SwiftUI's `VStack`, GTK's vertical `GtkBox`). Pieces of height 0 (an empty label) take no
/// spacing. Points throughout.
public struct VStack: Hashable, Sendable {
    /// The gap between two neighbouring pieces, points.
    public var spacing: Double

    /// - Parameter spacing: the gap between neighbours, points (default 8).
    public init(spacing: Double = 8) { self.spacing = spacing }

    /// The frames of pieces of `heights` (points) stacked from the top of `rect`, each as wide as `rect`.
    public func frames(heights: [Double], in rect: Rect) -> [Rect] {
        var y = rect.minY, placedAny = false
        return heights.map { h in
            guard h > 0 else { return Rect(x: rect.minX, y: y, width: rect.width, height: 0) }
            if placedAny { y += spacing }
            placedAny = true
            defer { y += h }
            return Rect(x: rect.minX, y: y, width: rect.width, height: h)
        }
    }

    /// The height of pieces of `heights` stacked, points.
    public func height(of heights: [Double]) -> Double {
        let placed = heights.filter { $0 > 0 }
        return placed.reduce(0, +) + spacing * Double(max(0, placed.count - 1))
    }
}
