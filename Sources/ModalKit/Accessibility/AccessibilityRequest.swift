/// A request of assistive technology for an element of a content (``PresentationInput/accessibility(_:level:)``),
/// delivered as input: queued by the platform bridge and handled by the host like a key press,
/// never from inside the call that asked (a screen reader's D-Bus call).
public enum AccessibilityRequest: Hashable, Sendable {
    /// Do what a tap or Return on the element with this identifier does (AT-SPI `do_action` of
    /// "click"; UIKit `accessibilityActivate()`): the content receives ``ContentInput/activate(_:)``.
    case activate(String)
    /// Move keyboard focus to the element with this identifier, or with nil onto the content
    /// itself (AT-SPI `grab_focus`): the content receives ``ContentInput/focus(_:)``.
    case focus(String?)
}
