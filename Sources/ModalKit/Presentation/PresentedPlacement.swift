/// Where the presented view is placed in a snapshot, beyond its frame.
public enum PresentedPlacement: Hashable, Sendable {
    /// Moved by the style's transform at the progress, plus `rest` × progress (points): the
    /// translation of the detent it rests at (zero at the frame), so a transition ends on the
    /// detent. The dim is the style's at the clamped progress × `dimFactor` (0...1; below 1 at a
    /// detent at or below the largest undimmed one).
    case resting(rest: Point, dimFactor: Double)
    /// Moved by exactly this translation from its frame, points (a drag or its settling spring:
    /// the view follows the finger 1:1); the progress given is the dim's.
    case dragged(Point)
    /// The style's transform alone (the 1.0 behaviour).
    public static let frame = PresentedPlacement.resting(rest: .zero, dimFactor: 1)
}
