/// How the user may dismiss the presented view by a gesture.
public enum DismissGesture: Hashable, Sendable {
    /// No gesture (taps and Escape only).
    case none
    /// Drag the presented view in `direction` (UIKit's sheet: down).
    case drag(DragDirection)
}
