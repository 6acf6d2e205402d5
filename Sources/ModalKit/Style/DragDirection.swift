/// The direction a drag moves the presented view to dismiss it.
public enum DragDirection: String, Hashable, Sendable, CaseIterable {
    case down, up, left, right
    /// Whether the drag runs along the y axis.
    public var isVertical: Bool { self == .down || self == .up }
}
