/// How a content describes itself to assistive technology: one element of a tree (UIKit's
/// `UIAccessibilityElement` and `accessibilityElements`; GTK's `GtkAccessible`). A content returns
/// its root element from ``PresentationContent/accessibilityElement``; the host shows it to screen
/// readers through a platform bridge (on Linux, AT-SPI through ATK: the `ModalKitATK` module).
///
/// The root element describes the content as a whole: for a presented content its ``label`` and
/// ``description`` name and describe the modal (a dialog "A modal card", described by its body
/// text), and its ``role`` ``AccessibilityRole/alert`` makes the modal an alert; for the presenting
/// content they describe the window's content. The root's ``children`` are what a screen reader
/// walks: labels, buttons, groups of them.
///
/// Units: ``frame`` in points, in the content's own coordinates (origin at its top-left, as
/// ``ContentInput`` positions), whatever the scale.
public struct AccessibilityElement: Hashable, Sendable {
    /// Identifies the element within its content, stable while it exists (UIKit's
    /// `accessibilityIdentifier`): requests name it (``ContentInput/activate(_:)``,
    /// ``ContentInput/focus(_:)``), and a bridge keeps its platform object for the same
    /// identifier. Unique within one content's tree.
    public var identifier: String
    /// What the element is (a button, a label, a group, …): the AT-SPI role screen readers announce.
    public var role: AccessibilityRole
    /// The name a screen reader speaks (UIKit `accessibilityLabel`; GTK `LABEL` property; AT-SPI
    /// name): a button's title, a label's text.
    public var label: String
    /// More about the element, spoken after its name and role (GTK `DESCRIPTION`; AT-SPI
    /// description; UIKit `accessibilityHint`): a modal's body text.
    public var description: String
    /// Where the element is, points in the content's coordinates (UIKit `accessibilityFrame`, here
    /// relative to the content).
    public var frame: Rect
    /// Its states (focused, disabled, …), as AT-SPI reports them.
    public var states: AccessibilityStates
    /// What assistive technology can do with it (``AccessibilityActions``; a button is activatable).
    public var actions: AccessibilityActions
    /// Its child elements, in reading order, frames in the same content's points.
    public var children: [AccessibilityElement]
    /// The identifier of the element of the same content whose text is this element's ``label``
    /// (GTK `LABELLED_BY`; ARIA `aria-labelledby`): a modal's title label. Screen readers then
    /// read that text once, as the name.
    public var labelledBy: String?
    /// The identifier of the element of the same content whose text is this element's
    /// ``description`` (GTK `DESCRIBED_BY`; ARIA `aria-describedby`): a modal's body label. Screen
    /// readers then read the body once, as the description, not again as loose text.
    public var describedBy: String?
    /// The text of a text field (``AccessibilityRole/entry``, ``AccessibilityRole/passwordText``)
    /// with its caret and selection (ATK's `AtkText`; UIKit's `UIAccessibilityTraits.textEntry`
    /// with `accessibilityValue`); nil for elements without editable or selectable text.
    public var text: AccessibilityText?

    /// An element; `label` and `description` default to empty, `frame` to `.zero`, `states`,
    /// `actions` and `children` to none, and the relations to nil.
    public init(identifier: String, role: AccessibilityRole, label: String = "", description: String = "",
                frame: Rect = .zero, states: AccessibilityStates = [], actions: AccessibilityActions = [],
                children: [AccessibilityElement] = [], labelledBy: String? = nil, describedBy: String? = nil) {
        self.identifier = identifier
        self.role = role
        self.label = label
        self.description = description
        self.frame = frame
        self.states = states
        self.actions = actions
        self.children = children
        self.labelledBy = labelledBy
        self.describedBy = describedBy
    }

    /// A button: focusable, activated by ``AccessibilityActions/activate``.
    public static func button(_ identifier: String, label: String, description: String = "", frame: Rect,
                              isFocused: Bool = false, isEnabled: Bool = true) -> AccessibilityElement {
        var states: AccessibilityStates = isEnabled ? [.focusable] : [.disabled]
        if isFocused && isEnabled { states.insert(.focused) }
        return AccessibilityElement(identifier: identifier, role: .button, label: label, description: description,
                                    frame: frame, states: states, actions: .activate)
    }

    /// Text that is read, not operated (``AccessibilityRole/label``), or a title over other
    /// elements (``AccessibilityRole/heading``).
    public static func text(_ identifier: String, _ text: String, frame: Rect,
                            role: AccessibilityRole = .label) -> AccessibilityElement {
        AccessibilityElement(identifier: identifier, role: role, label: text, frame: frame)
    }

    /// This element and its descendants, depth first (the element first), with `visit` returning
    /// false to stop.
    @discardableResult
    public func forEach(_ visit: (AccessibilityElement) -> Bool) -> Bool {
        guard visit(self) else { return false }
        for child in children where !child.forEach(visit) { return false }
        return true
    }

    /// The first element (depth first, this one included) with `identifier`, or nil.
    public func element(withIdentifier identifier: String) -> AccessibilityElement? {
        var found: AccessibilityElement?
        forEach { e in
            if e.identifier == identifier { found = e; return false }
            return true
        }
        return found
    }

    /// The first descendant (depth first, not this element itself) in state ``AccessibilityStates/focused``, or nil.
    public var focusedDescendant: AccessibilityElement? {
        var found: AccessibilityElement?
        for child in children {
            child.forEach { e in
                if e.states.contains(.focused) { found = e; return false }
                return true
            }
            if found != nil { break }
        }
        return found
    }

    /// The element moved by (dx, dy) points, its descendants with it.
    public func offsetBy(dx: Double, dy: Double) -> AccessibilityElement {
        var e = self
        e.frame = frame.offsetBy(dx: dx, dy: dy)
        e.children = children.map { $0.offsetBy(dx: dx, dy: dy) }
        return e
    }
}

/// The text of an accessible text field, its caret and its selection, in **characters** (grapheme
/// clusters, what a user moves by; the ATK bridge turns them into ATK's code-point offsets).
public struct AccessibilityText: Hashable, Sendable {
    /// The text as a screen reader may read it (a password field: one bullet per character).
    public var text: String
    /// The caret, characters from the start (0...text.count).
    public var caret: Int
    /// The selected characters (empty at the caret when nothing is selected).
    public var selection: Range<Int>
    /// Whether assistive technology may change the text (ATK's `AtkEditableText`).
    public var isEditable: Bool

    /// Text, caret and selection (characters), and whether it is editable.
    public init(text: String, caret: Int, selection: Range<Int>, isEditable: Bool = true) {
        self.text = text
        self.caret = caret
        self.selection = selection
        self.isEditable = isEditable
    }
}
