/// Input a content receives, positions in the content's own points (origin at its top-left,
/// unscaled by the presented view's transform). One press (pointer button or first touch) at a time.
public enum ContentInput: Hashable, Sendable {
    /// The pointer hovers at this point (nil: it left, or a modal layer covers this content).
    case hover(Point?)
    /// A press began here (the content was hit at press time; it gets the rest of the press).
    case press(Point)
    /// The press moved here (may be outside the content).
    case drag(Point)
    /// The press ended here: a tap if the content decides the point still hits what was pressed.
    case release(Point)
    /// The press ended without a tap (pointer left the window, touch cancelled).
    case cancel
    /// A key press while this content has keyboard focus.
    case key(PresentationKey)
}
