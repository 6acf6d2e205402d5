/// The states of an accessible element (GTK's `GtkAccessibleState` and focus properties; AT-SPI
/// states). What is hidden, showing, active or modal is the host's to say (``AccessibilitySnapshot``),
/// not the content's.
public struct AccessibilityStates: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The element can take keyboard focus (Tab reaches it; UIKit: `canBecomeFocused`).
    public static let focusable = AccessibilityStates(rawValue: 1 << 0)
    /// The element has keyboard focus within its content (at most one element of a content). The
    /// host shows assistive technology only the top level's focus (``AccessibilitySnapshot/focus``).
    public static let focused = AccessibilityStates(rawValue: 1 << 1)
    /// The element is there but cannot be used now (UIKit `.notEnabled`; GTK `DISABLED`): actions
    /// on it are refused.
    public static let disabled = AccessibilityStates(rawValue: 1 << 2)
    /// A toggle button or check box is on (GTK `CHECKED` / `PRESSED`).
    public static let checked = AccessibilityStates(rawValue: 1 << 3)
    /// The element is selected (UIKit `.selected`; GTK `SELECTED`).
    public static let selected = AccessibilityStates(rawValue: 1 << 4)
}
