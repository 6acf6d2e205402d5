/// What of a content's pixels changed since it last drew (UIKit: `setNeedsDisplay()` /
/// `setNeedsDisplay(_:)`).
public enum ContentInvalidation: Hashable, Sendable {
    /// Nothing: the host keeps its cached pixels.
    case none
    /// Only this area changed, points in the content's own coordinates (the content still redraws
    /// everything when asked; the host damages only this area of the frame).
    case area(Rect)
    /// Everything changed.
    case all
}
