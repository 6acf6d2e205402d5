import CModalKitATKInterface
import ModalKit

/// The operations on accessible objects that ``AccessibilityMirror`` needs: the table of
/// libModalKitATKBridge.so (``ATKLibrary``) in a program, a recorder in tests. Nodes are opaque
/// pointers owned by the backend; every call happens on the event loop's thread.
protocol ATKBackend: AnyObject {
    /// The application root, parent of every window.
    var root: OpaquePointer { get }
    func makeNode(kind: modalkit_atk_kind, key: UInt64) -> OpaquePointer
    /// Detaches `node`, marks it defunct and drops it.
    func release(_ node: OpaquePointer)
    func setText(_ node: OpaquePointer, name: String, description: String)
    func setRole(_ node: OpaquePointer, _ role: modalkit_atk_role)
    func setExtents(_ node: OpaquePointer, x: Int32, y: Int32, width: Int32, height: Int32)
    /// Sets (`value` true) or clears the `states` bits (``ATKStates``); with `notify`, one
    /// state-changed event per bit that changed.
    func setStates(_ node: OpaquePointer, _ states: ATKStates, value: Bool, notify: Bool)
    func insertChild(_ child: OpaquePointer, into parent: OpaquePointer, at index: Int, notify: Bool)
    func removeChild(_ child: OpaquePointer, notify: Bool)
    func windowEvent(_ window: OpaquePointer, _ event: modalkit_atk_window_event)
    /// Makes `target` (nil: none) the node's one relation of `kind`, with the reciprocal on the target.
    func setRelation(_ node: OpaquePointer, _ kind: modalkit_atk_relation, to target: OpaquePointer?)
    /// The text, caret and selection of a text node (`MODALKIT_ATK_KIND_TEXT`); with `notify`, the
    /// text, caret and selection events for what changed.
    func setTextValue(_ node: OpaquePointer, _ text: AccessibilityText, notify: Bool)
}

/// AT-SPI states of a node (`modalkit_atk_state` bits).
struct ATKStates: OptionSet, Hashable {
    let rawValue: UInt32
    static let enabled = ATKStates(rawValue: MODALKIT_ATK_STATE_ENABLED.rawValue)
    static let visible = ATKStates(rawValue: MODALKIT_ATK_STATE_VISIBLE.rawValue)
    static let showing = ATKStates(rawValue: MODALKIT_ATK_STATE_SHOWING.rawValue)
    static let focusable = ATKStates(rawValue: MODALKIT_ATK_STATE_FOCUSABLE.rawValue)
    static let focused = ATKStates(rawValue: MODALKIT_ATK_STATE_FOCUSED.rawValue)
    static let active = ATKStates(rawValue: MODALKIT_ATK_STATE_ACTIVE.rawValue)
    static let modal = ATKStates(rawValue: MODALKIT_ATK_STATE_MODAL.rawValue)
    static let checked = ATKStates(rawValue: MODALKIT_ATK_STATE_CHECKED.rawValue)
    static let selected = ATKStates(rawValue: MODALKIT_ATK_STATE_SELECTED.rawValue)
    static let editable = ATKStates(rawValue: MODALKIT_ATK_STATE_EDITABLE.rawValue)
}
