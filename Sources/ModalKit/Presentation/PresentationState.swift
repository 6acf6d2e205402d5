/// Where a presentation is in its life cycle (UIKit: a presented view controller's
/// `isBeingPresented` / `isBeingDismissed`, and whether it is on screen at all).
public enum PresentationState: String, Hashable, Sendable {
    /// Nothing presented; no dimming view in the container.
    case dismissed
    /// The presentation transition is running (u heading to 1).
    case presenting
    /// Fully presented, at rest.
    case presented
    /// The dismissal transition is running (u heading to 0).
    case dismissing
}
