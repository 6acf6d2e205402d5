import CModalKitATKInterface
import ModalKit

/// The accessible objects of one window, kept equal to the host's latest ``AccessibilitySnapshot``:
/// each level a window object (level 0 the frame, presented levels dialogs or alerts) under the
/// application root, each element an object under its level or its parent element. ``sync(to:windowIsActive:)``
/// changes the objects and emits the events in GTK's order (what GTK 3 does for a modal dialog, and
/// what screen readers expect):
///
/// 1. the old focus owner loses `focused`;
/// 2. the content a new modal level covers stops `showing` (each element);
/// 3. windows that stop being active lose `active` and send `window:deactivate`;
/// 4. levels that went away — the top one first — are deactivated, send `window:destroy`, leave
///    the root (`children-changed:remove`) and are released (`defunct`); levels are told apart by
///    their ``AccessibilitySnapshot/Level/presentation``, so a level dismissed and another
///    presented in its place between two syncs goes here and the new one comes in step 6;
/// 5. levels that stay take their new names, elements and states;
/// 6. new levels join the root (`children-changed:add`, bottom one first) and send `window:create`;
/// 7. the window that is now active gains `active` and sends `window:activate`;
/// 8. the content uncovered by a dismissal is `showing` again;
/// 9. the new focus owner gains `focused`.
///
/// Presenting runs 1, 2, 3, 6, 7, 9; dismissing 1, 4, 7, 8, 9: the reverse. Active is the top
/// level, while the Wayland window is activated (`xdg_toplevel` state `activated`); focus is the
/// snapshot's, in the active window only (GTK: `has-focus` needs a focused toplevel).
final class AccessibilityMirror {
    /// The element (or level, when `identifier` is nil) a key names, for requests.
    struct Target: Equatable {
        var level: Int
        var identifier: String?
    }

    private final class Node {
        let handle: OpaquePointer
        let key: UInt64
        let identifier: String
        var element: AccessibilityElement
        var children: [Node] = []
        init(handle: OpaquePointer, key: UInt64, element: AccessibilityElement) {
            self.handle = handle
            self.key = key
            self.identifier = element.identifier
            self.element = element
        }
    }

    private final class LevelMirror {
        let window: OpaquePointer
        let windowKey: UInt64
        var level: AccessibilitySnapshot.Level
        var children: [Node] = []
        var byIdentifier: [String: Node] = [:]
        init(window: OpaquePointer, key: UInt64, level: AccessibilitySnapshot.Level) {
            self.window = window
            self.windowKey = key
            self.level = level
        }
    }

    private let backend: ATKBackend
    private var levels: [LevelMirror] = []
    private var targets: [UInt64: Target] = [:]
    private var nextKey: UInt64 = 1
    /// The object with `focused`, and whether the window was active, as of the last sync.
    private var focusedHandle: OpaquePointer?
    private var activeLevel: Int?

    init(backend: ATKBackend) {
        self.backend = backend
    }

    /// What the object with `key` stands for, while it exists.
    func target(forKey key: UInt64) -> Target? { targets[key] }

    /// The text the element a key names was last given (``AccessibilityElement/text``), for the
    /// offsets of an edit; nil for a level or an element without text.
    func text(forKey key: UInt64) -> AccessibilityText? {
        guard let t = targets[key], let id = t.identifier else { return nil }
        return levels.first { $0.level.index == t.level }?.byIdentifier[id]?.element.text
    }

    /// Brings the objects to `snapshot`, emitting the events in the order above.
    /// - Parameter windowIsActive: whether the Wayland window has keyboard focus (activated).
    func sync(to snapshot: AccessibilitySnapshot, windowIsActive: Bool) {
        let old = levels.map(\.level)
        let new = snapshot.levels
        let newActive: Int? = windowIsActive ? new.indices.last : nil
        // Levels are matched by their presentation, bottom up: a level stays from its presentation
        // until its dismissal, and one presented in place of a dismissed one (between two syncs)
        // is a new window, so everything above the first difference goes and comes anew.
        var kept = 0
        while kept < min(old.count, new.count), old[kept].presentation == new[kept].presentation { kept += 1 }

        // 1. The old focus owner (focus on a level that goes counts as none).
        let newFocus = focusHandle(in: snapshot, active: newActive, within: kept)
        if let f = focusedHandle, f != newFocus?.handle {
            backend.setStates(f, .focused, value: false, notify: true)
            focusedHandle = nil
        }
        // 2. Content newly covered by a modal level.
        for i in 0..<kept where new[i].isHidden && !old[i].isHidden {
            for node in levels[i].children { setShowing(node, false) }
        }
        // 3. Windows that stay but stop being active.
        if let a = activeLevel, a < kept, a != newActive {
            backend.setStates(levels[a].window, .active, value: false, notify: true)
            backend.windowEvent(levels[a].window, MODALKIT_ATK_WINDOW_DEACTIVATE)
            activeLevel = nil
        }
        // 4. Levels that went away, the top one first.
        while levels.count > kept {
            let gone = levels.removeLast()
            if activeLevel == levels.count {
                backend.setStates(gone.window, .active, value: false, notify: true)
                backend.windowEvent(gone.window, MODALKIT_ATK_WINDOW_DEACTIVATE)
                activeLevel = nil
            }
            if focusedHandle == gone.window { focusedHandle = nil }
            backend.windowEvent(gone.window, MODALKIT_ATK_WINDOW_DESTROY)
            backend.removeChild(gone.window, notify: true)
            for node in gone.children { release(node) }
            targets[gone.windowKey] = nil
            backend.release(gone.window)
        }
        // 5. Levels that stay: names, elements, states.
        for i in 0..<kept {
            update(levels[i], to: new[i])
            applyRelations(levels[i])
        }
        // 6. New levels, the bottom one first.
        for i in kept..<new.count {
            let mirror = makeLevel(new[i])
            applyRelations(mirror)
            levels.append(mirror)
            backend.insertChild(mirror.window, into: backend.root, at: i, notify: true)
            backend.windowEvent(mirror.window, MODALKIT_ATK_WINDOW_CREATE)
        }
        // 7. The window now active.
        if let a = newActive, a != activeLevel {
            backend.setStates(levels[a].window, .active, value: true, notify: true)
            backend.windowEvent(levels[a].window, MODALKIT_ATK_WINDOW_ACTIVATE)
        }
        activeLevel = newActive
        // 8. Content uncovered again.
        for i in 0..<kept where !new[i].isHidden && old[i].isHidden {
            for node in levels[i].children { setShowing(node, true) }
        }
        // 9. The new focus owner (looked up again: step 5 or 6 may have made it).
        if let f = focusHandle(in: snapshot, active: newActive)?.handle, f != focusedHandle {
            backend.setStates(f, .focused, value: true, notify: true)
            focusedHandle = f
        }
    }

    /// Announces what exists as if it had just appeared: `window:create` for each window, then
    /// `active` and `window:activate` for the active one and `focused` for the focus owner. For
    /// when assistive technology starts listening (the bridge drops events while nobody listens,
    /// so the ones of the objects' creation were lost).
    func announce() {
        for mirror in levels { backend.windowEvent(mirror.window, MODALKIT_ATK_WINDOW_CREATE) }
        if let a = activeLevel, a < levels.count {
            backend.setStates(levels[a].window, .active, value: false, notify: false)
            backend.setStates(levels[a].window, .active, value: true, notify: true)
            backend.windowEvent(levels[a].window, MODALKIT_ATK_WINDOW_ACTIVATE)
        }
        if let f = focusedHandle {
            backend.setStates(f, .focused, value: false, notify: false)
            backend.setStates(f, .focused, value: true, notify: true)
        }
    }

    /// Releases every object (the window closes or the bridge stops), without events.
    func removeAll() {
        while let gone = levels.popLast() {
            backend.removeChild(gone.window, notify: false)
            for node in gone.children { release(node) }
            backend.release(gone.window)
        }
        targets.removeAll()
        focusedHandle = nil
        activeLevel = nil
    }

    // MARK: Levels

    private func focusHandle(in snapshot: AccessibilitySnapshot, active: Int?,
                             within count: Int = .max) -> (handle: OpaquePointer, key: UInt64)? {
        guard let a = active, a == snapshot.focus.level, a < min(levels.count, count) else { return nil }
        let mirror = levels[a]
        guard let id = snapshot.focus.element else { return (mirror.window, mirror.windowKey) }
        return mirror.byIdentifier[id].map { ($0.handle, $0.key) }
    }

    private func makeLevel(_ level: AccessibilitySnapshot.Level) -> LevelMirror {
        let key = allocateKey()
        let window = backend.makeNode(kind: MODALKIT_ATK_KIND_WINDOW, key: key)
        targets[key] = Target(level: level.index, identifier: nil)
        let mirror = LevelMirror(window: window, key: key, level: level)
        applyWindow(mirror, level, initial: true)
        for element in level.elements where mirror.byIdentifier[element.identifier] == nil {
            let node = makeNode(element, in: mirror, hidden: level.isHidden)
            backend.insertChild(node.handle, into: window, at: mirror.children.count, notify: false)
            mirror.children.append(node)
        }
        return mirror
    }

    private func applyWindow(_ mirror: LevelMirror, _ level: AccessibilitySnapshot.Level, initial: Bool) {
        let w = mirror.window
        if initial || level.role != mirror.level.role { backend.setRole(w, Self.role(level.role)) }
        backend.setText(w, name: level.label, description: level.description)
        backend.setExtents(w, x: Self.int(level.frame.minX), y: Self.int(level.frame.minY),
                           width: Self.int(level.frame.width), height: Self.int(level.frame.height))
        var states: ATKStates = [.enabled, .visible, .showing]
        // A presented level can take focus itself (focus moves onto the modal) and is modal.
        if level.isModal { states.formUnion([.modal, .focusable]) }
        let all: ATKStates = [.enabled, .visible, .showing, .modal, .focusable]
        backend.setStates(w, all.subtracting(states), value: false, notify: !initial)
        backend.setStates(w, states, value: true, notify: !initial)
        mirror.level = level
    }

    private func update(_ mirror: LevelMirror, to level: AccessibilitySnapshot.Level) {
        applyWindow(mirror, level, initial: false)
        // Where each identifier now is (its parent's identifier; nil: the level), first use only.
        var parents: [String: String?] = [:]
        func collect(_ elements: [AccessibilityElement], under parent: String?) {
            for e in elements where parents[e.identifier] == nil {
                parents[e.identifier] = .some(parent)
                collect(e.children, under: e.identifier)
            }
        }
        collect(level.elements, under: nil)
        var kinds: [String: modalkit_atk_kind] = [:]
        level.elements.forEach { $0.forEach { e in
            if kinds[e.identifier] == nil { kinds[e.identifier] = Self.kind(e) }
            return true
        } }
        mirror.children = prune(mirror.children, under: nil, parents: parents, kinds: kinds, in: mirror)
        mirror.children = reconcile(mirror.children, with: level.elements, parent: mirror.window, in: mirror,
                                    hidden: level.isHidden)
    }

    // MARK: Elements

    /// `nodes` (children of the element `parent`, nil: of the level) without those whose identifier
    /// is gone, now has another parent, or is of another kind (an action added or removed): they
    /// leave (`children-changed:remove`) and are released, before anything is added.
    private func prune(_ nodes: [Node], under parent: String?, parents: [String: String?],
                       kinds: [String: modalkit_atk_kind], in mirror: LevelMirror) -> [Node] {
        var kept: [Node] = []
        for node in nodes {
            if let p = parents[node.identifier], p == parent, kinds[node.identifier] == Self.kind(node.element) {
                node.children = prune(node.children, under: node.identifier, parents: parents, kinds: kinds, in: mirror)
                kept.append(node)
            } else {
                backend.removeChild(node.handle, notify: true)
                release(node, from: mirror)
            }
        }
        return kept
    }

    /// `nodes` (children of `parent`, already pruned) made equal to `elements`, in order: new ones
    /// join at their index (`children-changed:add`), the others take their new text, role,
    /// extents and states. An identifier used twice in one content shows its first element only.
    private func reconcile(_ nodes: [Node], with elements: [AccessibilityElement], parent: OpaquePointer,
                           in mirror: LevelMirror, hidden: Bool) -> [Node] {
        var nodes = nodes
        // Reordered (rare): the nodes leave and come back in the new order.
        let present = Set(nodes.map(\.identifier))
        if nodes.map(\.identifier) != elements.map(\.identifier).filter({ present.contains($0) }) {
            for node in nodes {
                backend.removeChild(node.handle, notify: true)
                release(node, from: mirror)
            }
            nodes = []
        }
        var result: [Node] = []
        for element in elements {
            if let node = nodes.first(where: { $0.identifier == element.identifier }) {
                apply(element, to: node, hidden: hidden, initial: false)
                node.children = reconcile(node.children, with: element.children, parent: node.handle, in: mirror,
                                          hidden: hidden)
                result.append(node)
            } else if mirror.byIdentifier[element.identifier] == nil {
                let node = makeNode(element, in: mirror, hidden: hidden)
                backend.insertChild(node.handle, into: parent, at: result.count, notify: true)
                result.append(node)
            }
        }
        return result
    }

    private func makeNode(_ element: AccessibilityElement, in mirror: LevelMirror, hidden: Bool) -> Node {
        let key = allocateKey()
        let node = Node(handle: backend.makeNode(kind: Self.kind(element), key: key), key: key, element: element)
        targets[key] = Target(level: mirror.level.index, identifier: element.identifier)
        mirror.byIdentifier[element.identifier] = node
        apply(element, to: node, hidden: hidden, initial: true)
        for child in element.children where mirror.byIdentifier[child.identifier] == nil {
            let c = makeNode(child, in: mirror, hidden: hidden)
            backend.insertChild(c.handle, into: node.handle, at: node.children.count, notify: false)
            node.children.append(c)
        }
        return node
    }

    private func apply(_ element: AccessibilityElement, to node: Node, hidden: Bool, initial: Bool) {
        let h = node.handle
        if initial || element.role != node.element.role { backend.setRole(h, Self.role(element.role)) }
        backend.setText(h, name: element.label, description: element.description)
        backend.setExtents(h, x: Self.int(element.frame.minX), y: Self.int(element.frame.minY),
                           width: Self.int(element.frame.width), height: Self.int(element.frame.height))
        // `showing` and `focused` change only in the ordered steps of sync; here they are set
        // silently on a new node (a hidden level's elements are not showing).
        var on: ATKStates = [.visible]
        if !element.states.contains(.disabled) { on.insert(.enabled) }
        if element.states.contains(.focusable) { on.insert(.focusable) }
        if element.states.contains(.checked) { on.insert(.checked) }
        if element.states.contains(.selected) { on.insert(.selected) }
        if element.text?.isEditable == true { on.insert(.editable) }
        let managed: ATKStates = [.visible, .enabled, .focusable, .checked, .selected, .editable]
        backend.setStates(h, managed.subtracting(on), value: false, notify: !initial)
        backend.setStates(h, on, value: true, notify: !initial)
        if initial && !hidden { backend.setStates(h, .showing, value: true, notify: false) }
        if let text = element.text, initial || text != node.element.text { backend.setTextValue(h, text, notify: !initial) }
        node.element = element
    }

    /// Sets the level's and its elements' relations (labelled by, described by) to the elements
    /// their identifiers name now (none when the identifier names no element of the level). The
    /// library keeps a relation that did not change as it is.
    private func applyRelations(_ mirror: LevelMirror) {
        func target(_ id: String?) -> OpaquePointer? { id.flatMap { mirror.byIdentifier[$0]?.handle } }
        backend.setRelation(mirror.window, MODALKIT_ATK_RELATION_LABELLED_BY, to: target(mirror.level.labelledBy))
        backend.setRelation(mirror.window, MODALKIT_ATK_RELATION_DESCRIBED_BY, to: target(mirror.level.describedBy))
        for node in mirror.byIdentifier.values {
            backend.setRelation(node.handle, MODALKIT_ATK_RELATION_LABELLED_BY, to: target(node.element.labelledBy))
            backend.setRelation(node.handle, MODALKIT_ATK_RELATION_DESCRIBED_BY, to: target(node.element.describedBy))
        }
    }

    private func setShowing(_ node: Node, _ showing: Bool) {
        backend.setStates(node.handle, .showing, value: showing, notify: true)
        for child in node.children { setShowing(child, showing) }
    }

    private func release(_ node: Node, from mirror: LevelMirror? = nil) {
        for child in node.children { release(child, from: mirror) }
        if focusedHandle == node.handle { focusedHandle = nil }
        targets[node.key] = nil
        if let mirror, mirror.byIdentifier[node.identifier] === node { mirror.byIdentifier[node.identifier] = nil }
        backend.release(node.handle)
    }

    private func allocateKey() -> UInt64 {
        defer { nextKey &+= 1 }
        return nextKey
    }

    // MARK: Mapping

    private static func kind(_ element: AccessibilityElement) -> modalkit_atk_kind {
        if element.text != nil { return MODALKIT_ATK_KIND_TEXT }
        return element.actions.contains(.activate) ? MODALKIT_ATK_KIND_ACTIONABLE : MODALKIT_ATK_KIND_ELEMENT
    }

    static func role(_ role: AccessibilityRole) -> modalkit_atk_role {
        switch role {
        case .group: return MODALKIT_ATK_ROLE_PANEL
        case .label: return MODALKIT_ATK_ROLE_LABEL
        case .heading: return MODALKIT_ATK_ROLE_HEADING
        case .button: return MODALKIT_ATK_ROLE_PUSH_BUTTON
        case .toggleButton: return MODALKIT_ATK_ROLE_TOGGLE_BUTTON
        case .checkBox: return MODALKIT_ATK_ROLE_CHECK_BOX
        case .list: return MODALKIT_ATK_ROLE_LIST
        case .listItem: return MODALKIT_ATK_ROLE_LIST_ITEM
        case .link: return MODALKIT_ATK_ROLE_LINK
        case .image: return MODALKIT_ATK_ROLE_IMAGE
        case .dialog: return MODALKIT_ATK_ROLE_DIALOG
        case .alert: return MODALKIT_ATK_ROLE_ALERT
        case .window: return MODALKIT_ATK_ROLE_FRAME
        case .entry: return MODALKIT_ATK_ROLE_ENTRY
        case .passwordText: return MODALKIT_ATK_ROLE_PASSWORD_TEXT
        }
    }

    /// Points to whole points for AT-SPI extents (rounded to nearest; huge values clamped).
    static func int(_ value: Double) -> Int32 {
        guard value.isFinite else { return 0 }
        return Int32(max(Double(Int32.min), min(Double(Int32.max), value.rounded())))
    }
}
