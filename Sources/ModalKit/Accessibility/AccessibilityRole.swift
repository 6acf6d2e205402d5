/// What an accessible element is to assistive technology (UIKit: `UIAccessibilityTraits`; GTK:
/// `GtkAccessibleRole`; AT-SPI: the role a screen reader speaks after the name, "push button",
/// "dialog").
public enum AccessibilityRole: String, Hashable, Sendable, CaseIterable {
    /// Elements that belong together, without a role of their own (GTK's `GROUP`; AT-SPI panel).
    case group
    /// Text that is read, not operated (UIKit `.staticText`; GTK `LABEL`).
    case label
    /// A title over other elements (UIKit `.header`; GTK `HEADING`).
    case heading
    /// A control that does something when activated (UIKit `.button`; GTK `BUTTON`; AT-SPI push button).
    case button
    /// A button that stays pressed or not (GTK `TOGGLE_BUTTON`); its state is ``AccessibilityStates/checked``.
    case toggleButton
    /// A check box (GTK `CHECKBOX`); its state is ``AccessibilityStates/checked``.
    case checkBox
    /// A list of items the user picks from (GTK `LIST`; AT-SPI list): its children are ``listItem``s.
    case list
    /// One item of a ``list`` (GTK `LIST_ITEM`; AT-SPI list item); a picked one has
    /// ``AccessibilityStates/selected``.
    case listItem
    /// A link (UIKit `.link`; GTK `LINK`).
    case link
    /// A picture (UIKit `.image`; GTK `IMG`); its label says what it shows.
    case image
    /// A modal level (GTK `DIALOG`): the role ``PresentationHost`` gives every presented level
    /// unless its content's root element says ``alert``.
    case dialog
    /// A modal level that interrupts with a message to be answered (GTK `ALERT_DIALOG`, libadwaita's
    /// `AdwAlertDialog`): a presented content says so with this role on its root element.
    case alert
    /// The window itself (AT-SPI frame): the role of level 0, the presenting content, in an
    /// ``AccessibilitySnapshot``.
    case window
    /// A one-line text field (GTK `TEXT_BOX` of a `GtkEntry`; AT-SPI entry): its text, caret and
    /// selection are its element's ``AccessibilityElement/text``.
    case entry
    /// A text field whose characters are hidden (GTK's `GtkPasswordEntry`; AT-SPI password text):
    /// its ``AccessibilityElement/text`` holds one bullet per character, never the text.
    case passwordText
}
