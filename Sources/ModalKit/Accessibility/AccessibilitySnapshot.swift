/// What a ``PresentationHost`` shows assistive technology at one moment
/// (``PresentationHost/accessibilitySnapshot()``): the window's content and each presented level,
/// with UIKit's `accessibilityViewIsModal` applied — while a level is presented, it is a modal
/// dialog (or alert) and everything beneath it is hidden. A platform bridge (the `ModalKitATK`
/// module on Linux) turns the difference between two snapshots into the platform's events.
///
/// Units: frames in container points (the window's surface-local coordinates).
public struct AccessibilitySnapshot: Hashable, Sendable {
    /// One level: the presenting content (index 0) or a presented level (1, 2, …).
    public struct Level: Hashable, Sendable {
        /// 0: the presenting content (the window's content); n ≥ 1: presented level n.
        public var index: Int
        /// Which presentation this level shows: 0 for level 0, and for a presented level a number
        /// the host gives each presentation (``PresentationHost/present(_:style:sourceRect:now:)``
        /// appending a level), never reused in the host's life. A level dismissed and another
        /// presented in its place between two snapshots has a new number, so assistive technology
        /// is told of a new dialog (a new accessible object, as GTK creates a new one per
        /// `GtkDialog`) rather than of the old one changing its name; a dismissal reversed before it
        /// completed keeps its number (the same dialog stays).
        public var presentation: Int
        /// ``AccessibilityRole/window`` for level 0; for a presented level
        /// ``AccessibilityRole/dialog``, or ``AccessibilityRole/alert`` when its content's root
        /// element says so.
        public var role: AccessibilityRole
        /// The label and description of the content's root element: a presented level is named by
        /// its content's title and described by its body.
        public var label: String
        /// The level's description (a presented content's body: AT-SPI's accessible description).
        public var description: String
        /// The root element's ``AccessibilityElement/labelledBy`` and
        /// ``AccessibilityElement/describedBy``: identifiers of elements of this level.
        public var labelledBy: String?
        /// The identifier of the element whose text describes the level (AT-SPI `DESCRIBED_BY`), if any.
        public var describedBy: String?
        /// The container's bounds for level 0, the presented view's frame (where it rests, not
        /// where a transition has it) for a presented level, container points.
        public var frame: Rect
        /// A presented level: it captures all input, and what is beneath it is hidden
        /// (``isHidden``) — the modal state.
        public var isModal: Bool
        /// A modal level above covers this one: its elements are not shown to assistive technology
        /// and requests for them are ignored (UIKit's `accessibilityViewIsModal` on the level above).
        public var isHidden: Bool
        /// The children of the content's root element, frames moved into container points; only the
        /// element with focus (``AccessibilitySnapshot/focus``) keeps ``AccessibilityStates/focused``.
        public var elements: [AccessibilityElement]

        /// A level as the host describes it; see the properties for each value (`presentation` nil:
        /// the level's index).
        public init(index: Int, role: AccessibilityRole, label: String, description: String,
                    labelledBy: String? = nil, describedBy: String? = nil, frame: Rect,
                    isModal: Bool, isHidden: Bool, elements: [AccessibilityElement], presentation: Int? = nil) {
            self.index = index
            self.presentation = presentation ?? index
            self.role = role
            self.label = label
            self.description = description
            self.labelledBy = labelledBy
            self.describedBy = describedBy
            self.frame = frame
            self.isModal = isModal
            self.isHidden = isHidden
            self.elements = elements
        }
    }

    /// Where keyboard focus is: always in the top level.
    public struct Focus: Hashable, Sendable {
        /// The top level's index.
        public var level: Int
        /// The identifier of the focused element, or nil when the level itself has focus (a modal
        /// just presented: focus moves onto the modal, see ``PresentationHost``).
        public var element: String?
        /// Focus on `element` (nil: the level itself) of level `level`.
        public init(level: Int, element: String?) { self.level = level; self.element = element }
    }

    /// Level 0 first, then presented levels 1, 2, … (a level stays from the start of its
    /// presentation until its dismissal completes, as long as it captures input).
    public var levels: [Level]
    /// Where keyboard focus is.
    public var focus: Focus

    /// A snapshot of `levels` (bottom first) with keyboard focus at `focus`.
    public init(levels: [Level], focus: Focus) {
        self.levels = levels
        self.focus = focus
    }
}
