/// The direction a drag moves the presented view to dismiss it.
public enum DragDirection: String, Hashable, Sendable, CaseIterable {
    /// Toward the container's bottom edge (a bottom sheet's dismissal).
    case down
    /// Toward the top edge.
    case up
    /// Toward the left edge.
    case left
    /// Toward the right edge.
    case right
    /// Whether the drag runs along the y axis.
    public var isVertical: Bool { self == .down || self == .up }
}
