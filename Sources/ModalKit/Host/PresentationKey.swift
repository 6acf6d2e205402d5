/// A key the host routes (the window maps keysyms to these).
public enum PresentationKey: Hashable, Sendable {
    /// Escape: dismisses the presented view unless the presented content uses it (UIKit:
    /// `accessibilityPerformEscape`, ⌘. on iPad keyboards).
    case escape
    /// Return, KP_Enter or space: activates the focused control.
    case activate
    /// Tab / Shift-Tab: moves focus within the content that has it.
    case tab, backTab
}
