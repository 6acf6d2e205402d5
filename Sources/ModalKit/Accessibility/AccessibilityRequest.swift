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
    /// Edit the text of the element with this identifier (AT-SPI `EditableText`, ATK's
    /// `AtkEditableText`): the content receives ``ContentInput/editText(_:_:)``.
    case editText(String, AccessibilityTextEdit)
}

/// An edit of a text element by assistive technology (ATK's `AtkEditableText`, AT-SPI's
/// `EditableText`). Offsets and ranges are characters from the start of the element's
/// ``AccessibilityText/text`` (the unit of ``AccessibilityText/caret``), as the content last
/// described it; a content clamps them to its text. The content applies each with its own editing
/// rules (a one-line field's line breaks, its maximum length, undo; a secure field copies and cuts
/// nothing), as if the user had made it.
public enum AccessibilityTextEdit: Hashable, Sendable {
    /// Replace the whole text (`set_text_contents`).
    case setContents(String)
    /// Insert the text before the character at the offset (`insert_text`).
    case insert(String, at: Int)
    /// Delete the characters in the range (`delete_text`).
    case delete(Range<Int>)
    /// Put the characters in the range on the clipboard (`copy_text`).
    case copy(Range<Int>)
    /// Put the characters in the range on the clipboard and delete them (`cut_text`).
    case cut(Range<Int>)
    /// Insert the clipboard's text before the character at the offset (`paste_text`), when it arrives.
    case paste(at: Int)
}
