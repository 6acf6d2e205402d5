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
    /// Scroll by ``ScrollInput/delta`` (points): a wheel or touchpad under the pointer, a touch
    /// pan, or the host's kinetic deceleration after them (``ScrollPhase``). Return whether it
    /// scrolled (false ends a deceleration). A touch pan first cancels the press it grew from
    /// (`.cancel`, as a scroll view cancels its subviews' touches); which of a sheet and its
    /// content a drag moves follows ``PresentationContent/canScroll(toward:)``.
    case scroll(ScrollInput)
    /// A key's meaning while this content has keyboard focus (Escape, activate, Tab, Shift-Tab;
    /// an arrow as Tab / Shift-Tab where ``PresentationContent/arrowKeysMoveFocus``): sent for a
    /// press or repeat the content did not use as ``keyboard(_:)``. Return false for Escape to let
    /// the host dismiss the presented view.
    case key(PresentationKey)
    /// Every key press, repeat and release while this content has keyboard focus, before the host
    /// acts on it (``KeyInput``'s routing rule). Return true when the content used it (typed text,
    /// moved a caret, scrolled); false passes a press or repeat on to ``key(_:)`` and the host.
    case keyboard(KeyInput)
    /// Move keyboard focus to the element of ``PresentationContent/accessibilityElement`` with this
    /// identifier, or with nil onto the content itself (none of its elements focused). Sent by the
    /// host as the content is presented (nil: focus moves onto the modal) and for assistive
    /// technology (AT-SPI `grab_focus`, ``AccessibilityRequest/focus(_:)``). Return whether it was used.
    case focus(String?)
    /// Do what a tap or Return on the element with this identifier does (AT-SPI `do_action`
    /// "click", UIKit `accessibilityActivate()`; ``AccessibilityRequest/activate(_:)``), through the
    /// same code as that tap or key. Return whether it was used (false: no such enabled element).
    case activate(String)
    /// An input method's update (text-input-v3 `done`) for the focused text field: sent only to a
    /// content whose ``PresentationContent/textInputState`` is not nil; apply it as
    /// ``TextInputUpdate`` says. Return whether it was used.
    case textInput(TextInputUpdate)
    /// Edit the text of the element with this identifier (``AccessibilityRequest/editText(_:_:)``:
    /// assistive technology editing at a position, AT-SPI `EditableText`). Apply it with the same
    /// rules as typing and pasting; return whether it was used (false: no such editable element,
    /// or the edit was refused, as a copy from a secure field is).
    case editText(String, AccessibilityTextEdit)
}
