import CModalKitATKInterface
import ModalKit
import XCTest
@testable import ModalKitATK

/// The accessible objects of a window and the events they send, against a recording backend:
/// GTK's order when a modal is presented and its reverse when it is dismissed, stacks, what is
/// announced when a screen reader starts listening, relations, and requests mapped back to the
/// element they name.
final class AccessibilityMirrorTests: XCTestCase {
    /// Records every operation as a line naming the node by its (role, name).
    final class Recorder: ATKBackend {
        final class Node {
            var name = "", description = "", role = ""
            var states: ATKStates = []
            var children: [OpaquePointer] = []
            var parent: OpaquePointer?
            var defunct = false
            var relations: [String: OpaquePointer] = [:]
            var key: UInt64 = 0
        }
        var nodes: [OpaquePointer: Node] = [:]
        var kinds: [OpaquePointer: modalkit_atk_kind] = [:]
        var log: [String] = []
        private var next = 16
        let root: OpaquePointer

        init() {
            root = OpaquePointer(bitPattern: 8)!
            let r = Node()
            r.role = "application"
            nodes[root] = r
        }

        func label(_ p: OpaquePointer) -> String {
            guard let n = nodes[p] else { return "?" }
            return "\(n.role):\(n.name)"
        }
        func node(named name: String, role: String) -> OpaquePointer? {
            nodes.first { !$0.value.defunct && $0.value.name == name && $0.value.role == role }?.key
        }
        func makeNode(kind: modalkit_atk_kind, key: UInt64) -> OpaquePointer {
            next += 8
            let p = OpaquePointer(bitPattern: next)!
            let n = Node()
            n.key = key
            n.states = .enabled
            nodes[p] = n
            kinds[p] = kind
            return p
        }
        func release(_ node: OpaquePointer) {
            guard let n = nodes[node] else { return XCTFail("release of an unknown node") }
            XCTAssertFalse(n.defunct, "released twice")
            if let p = n.parent { nodes[p]?.children.removeAll { $0 == node } }
            n.parent = nil
            n.defunct = true
            n.relations = [:]
        }
        func setText(_ node: OpaquePointer, name: String, description: String) {
            nodes[node]?.name = name
            nodes[node]?.description = description
        }
        func setRole(_ node: OpaquePointer, _ role: modalkit_atk_role) {
            let names: [UInt32: String] = [MODALKIT_ATK_ROLE_FRAME.rawValue: "frame", MODALKIT_ATK_ROLE_DIALOG.rawValue: "dialog",
                                           MODALKIT_ATK_ROLE_ALERT.rawValue: "alert", MODALKIT_ATK_ROLE_PANEL.rawValue: "panel",
                                           MODALKIT_ATK_ROLE_LABEL.rawValue: "label", MODALKIT_ATK_ROLE_HEADING.rawValue: "heading",
                                           MODALKIT_ATK_ROLE_PUSH_BUTTON.rawValue: "button"]
            nodes[node]?.role = names[role.rawValue] ?? "other"
        }
        func setExtents(_ node: OpaquePointer, x: Int32, y: Int32, width: Int32, height: Int32) {}
        func setStates(_ node: OpaquePointer, _ states: ATKStates, value: Bool, notify: Bool) {
            guard let n = nodes[node] else { return }
            let old = n.states
            if value { n.states.formUnion(states) } else { n.states.subtract(states) }
            guard notify else { return }
            let names: [(ATKStates, String)] = [(.enabled, "enabled"), (.showing, "showing"), (.focused, "focused"),
                                                (.active, "active"), (.modal, "modal"), (.focusable, "focusable"),
                                                (.visible, "visible"), (.checked, "checked"), (.selected, "selected")]
            for (s, name) in names where old.contains(s) != n.states.contains(s) {
                log.append("\(name)=\(n.states.contains(s) ? 1 : 0) \(label(node))")
            }
        }
        func insertChild(_ child: OpaquePointer, into parent: OpaquePointer, at index: Int, notify: Bool) {
            nodes[parent]?.children.insert(child, at: min(index, nodes[parent]?.children.count ?? 0))
            nodes[child]?.parent = parent
            if notify { log.append("add \(label(child)) to \(label(parent)) at \(index)") }
        }
        func removeChild(_ child: OpaquePointer, notify: Bool) {
            guard let p = nodes[child]?.parent else { return }
            nodes[p]?.children.removeAll { $0 == child }
            nodes[child]?.parent = nil
            if notify { log.append("remove \(label(child)) from \(label(p))") }
        }
        func windowEvent(_ window: OpaquePointer, _ event: modalkit_atk_window_event) {
            let names = ["create", "activate", "deactivate", "destroy"]
            log.append("window:\(names[Int(event.rawValue)]) \(label(window))")
        }
        func setTextValue(_ node: OpaquePointer, _ text: AccessibilityText, notify: Bool) {
            log.append("text \(label(node)) \"\(text.text)\" caret \(text.caret) selection \(text.selection)\(notify ? "" : " silently")")
        }
        func setRelation(_ node: OpaquePointer, _ kind: modalkit_atk_relation, to target: OpaquePointer?) {
            let k = kind == MODALKIT_ATK_RELATION_LABELLED_BY ? "labelled-by" : "described-by"
            nodes[node]?.relations[k] = target
        }
    }

    // MARK: Snapshots as the host makes them

    private func frame(hidden: Bool = false, focused: String? = "present") -> AccessibilitySnapshot.Level {
        AccessibilitySnapshot.Level(index: 0, role: .window, label: "ModalKit", description: "",
                                    frame: Rect(x: 0, y: 0, width: 800, height: 600), isModal: false, isHidden: hidden,
                                    elements: [.text("title", "ModalKit", frame: Rect(x: 20, y: 24, width: 140, height: 40), role: .heading),
                                               .button("present", label: "Present", frame: Rect(x: 312, y: 275, width: 176, height: 50),
                                                       isFocused: focused == "present")])
    }

    private func card(_ index: Int, hidden: Bool = false, focused: String? = nil,
                      presentation: Int? = nil) -> AccessibilitySnapshot.Level {
        AccessibilitySnapshot.Level(index: index, role: .dialog, label: "Card \(index)", description: "Body \(index)",
                                    labelledBy: "card-title", describedBy: "card-body",
                                    frame: Rect(x: 20, y: 110, width: 760, height: 380), isModal: true, isHidden: hidden,
                                    elements: [.text("card-title", "Card \(index)", frame: .zero, role: .heading),
                                               .text("card-body", "Body \(index)", frame: .zero),
                                               .button("present-another", label: "Present another \(index)", frame: .zero,
                                                       isFocused: focused == "present-another"),
                                               .button("close", label: "Close \(index)", frame: .zero, isFocused: focused == "close")],
                                    presentation: presentation)
    }

    private func snapshot(_ levels: [AccessibilitySnapshot.Level], focus element: String?) -> AccessibilitySnapshot {
        AccessibilitySnapshot(levels: levels, focus: .init(level: levels.count - 1, element: element))
    }

    func testPresentingFollowsGTKsOrderAndDismissingReversesIt() {
        let r = Recorder()
        let m = AccessibilityMirror(backend: r)
        m.sync(to: snapshot([frame()], focus: "present"), windowIsActive: true)
        XCTAssertEqual(r.log, ["add frame:ModalKit to application: at 0", "window:create frame:ModalKit", "active=1 frame:ModalKit",
                               "window:activate frame:ModalKit", "focused=1 button:Present"])
        r.log.removeAll()

        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1)], focus: nil), windowIsActive: true)
        XCTAssertEqual(r.log, [
            "focused=0 button:Present",                 // the old focus owner
            "showing=0 heading:ModalKit", "showing=0 button:Present",   // the content beneath
            "active=0 frame:ModalKit", "window:deactivate frame:ModalKit",   // the window beneath
            "add dialog:Card 1 to application: at 1", "window:create dialog:Card 1",
            "active=1 dialog:Card 1", "window:activate dialog:Card 1",
            "focused=1 dialog:Card 1",                  // focus onto the modal itself
        ])
        let dialog = try! XCTUnwrap(r.node(named: "Card 1", role: "dialog"))
        XCTAssertTrue(r.nodes[dialog]!.states.isSuperset(of: [.modal, .focusable, .showing, .visible, .enabled]))
        XCTAssertEqual(r.nodes[dialog]!.description, "Body 1")
        XCTAssertEqual(r.nodes[dialog]!.children.map { r.label($0) },
                       ["heading:Card 1", "label:Body 1", "button:Present another 1", "button:Close 1"])
        XCTAssertTrue(r.nodes[dialog]!.children.allSatisfy { r.nodes[$0]!.states.contains(.showing) })
        r.log.removeAll()

        // Tab twice: focus moves inside the dialog only.
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1, focused: "present-another")], focus: "present-another"),
               windowIsActive: true)
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1, focused: "close")], focus: "close"), windowIsActive: true)
        XCTAssertEqual(r.log, ["focused=0 dialog:Card 1", "focused=1 button:Present another 1",
                               "focused=0 button:Present another 1", "focused=1 button:Close 1"])
        r.log.removeAll()

        m.sync(to: snapshot([frame()], focus: "present"), windowIsActive: true)
        XCTAssertEqual(r.log, [
            "focused=0 button:Close 1",
            "active=0 dialog:Card 1", "window:deactivate dialog:Card 1", "window:destroy dialog:Card 1",
            "remove dialog:Card 1 from application:",
            "active=1 frame:ModalKit", "window:activate frame:ModalKit",
            "showing=1 heading:ModalKit", "showing=1 button:Present",
            "focused=1 button:Present",                 // back to the control that presented it
        ])
        XCTAssertTrue(r.nodes[dialog]!.defunct, "the dialog's object is released")
        XCTAssertEqual(r.nodes.values.filter { !$0.defunct }.count, 4, "root, frame and its two elements remain")
    }

    /// A text field's element (with `text`) is a text node: its text, caret and selection set
    /// silently when it appears, then with events when they change; the caret and selection in
    /// characters as the element gives them (the library turns them into ATK's code points).
    func testATextFieldIsATextNodeWhoseTextFollowsTheElement() throws {
        func level(_ text: AccessibilityText) -> AccessibilitySnapshot.Level {
            var field = AccessibilityElement(identifier: "text-field-0", role: .entry, label: "Name", frame: .zero,
                                             states: [.focusable, .focused], actions: .activate)
            field.text = text
            return AccessibilitySnapshot.Level(index: 0, role: .window, label: "Form", description: "", frame: .zero,
                                               isModal: false, isHidden: false, elements: [field])
        }
        let r = Recorder()
        let m = AccessibilityMirror(backend: r)
        m.sync(to: snapshot([level(AccessibilityText(text: "ab", caret: 2, selection: 2..<2))], focus: "text-field-0"),
               windowIsActive: true)
        let node = try XCTUnwrap(r.nodes.first { $0.value.name == "Name" }?.key)
        XCTAssertEqual(r.kinds[node], MODALKIT_ATK_KIND_TEXT)
        XCTAssertTrue(r.log.contains("text other:Name \"ab\" caret 2 selection 2..<2 silently"), "\(r.log)")
        r.log.removeAll()
        m.sync(to: snapshot([level(AccessibilityText(text: "abc", caret: 3, selection: 0..<3))], focus: "text-field-0"),
               windowIsActive: true)
        XCTAssertEqual(r.log, ["text other:Name \"abc\" caret 3 selection 0..<3"])
        r.log.removeAll()
        m.sync(to: snapshot([level(AccessibilityText(text: "abc", caret: 3, selection: 0..<3))], focus: "text-field-0"),
               windowIsActive: true)
        XCTAssertEqual(r.log, [], "nothing changed, nothing said")
    }

    func testAStackedLevelNestsAndItsDismissalReturnsToTheLevelBelow() {
        let r = Recorder()
        let m = AccessibilityMirror(backend: r)
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1, focused: "present-another")], focus: "present-another"),
               windowIsActive: true)
        r.log.removeAll()
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1, hidden: true), card(2)], focus: nil), windowIsActive: true)
        XCTAssertEqual(r.log, [
            "focused=0 button:Present another 1",
            "showing=0 heading:Card 1", "showing=0 label:Body 1", "showing=0 button:Present another 1", "showing=0 button:Close 1",
            "active=0 dialog:Card 1", "window:deactivate dialog:Card 1",
            "add dialog:Card 2 to application: at 2", "window:create dialog:Card 2",
            "active=1 dialog:Card 2", "window:activate dialog:Card 2", "focused=1 dialog:Card 2",
        ])
        r.log.removeAll()
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1, focused: "present-another")], focus: "present-another"),
               windowIsActive: true)
        XCTAssertEqual(r.log, [
            "focused=0 dialog:Card 2",
            "active=0 dialog:Card 2", "window:deactivate dialog:Card 2", "window:destroy dialog:Card 2",
            "remove dialog:Card 2 from application:",
            "active=1 dialog:Card 1", "window:activate dialog:Card 1",
            "showing=1 heading:Card 1", "showing=1 label:Body 1", "showing=1 button:Present another 1", "showing=1 button:Close 1",
            "focused=1 button:Present another 1",
        ])
        XCTAssertEqual(r.nodes[r.root]!.children.map { r.label($0) }, ["frame:ModalKit", "dialog:Card 1"])
        // Both levels at once (a stack dismissed in one go): the top one goes first.
        r.log.removeAll()
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1, hidden: true), card(2)], focus: nil), windowIsActive: true)
        r.log.removeAll()
        m.sync(to: snapshot([frame()], focus: "present"), windowIsActive: true)
        XCTAssertEqual(r.log.filter { $0.hasPrefix("window:") }, ["window:deactivate dialog:Card 2", "window:destroy dialog:Card 2",
                                                                 "window:destroy dialog:Card 1", "window:activate frame:ModalKit"])
    }

    func testAnInactiveWindowHasNoActiveLevelAndNoFocus() {
        let r = Recorder()
        let m = AccessibilityMirror(backend: r)
        m.sync(to: snapshot([frame()], focus: "present"), windowIsActive: false)
        XCTAssertEqual(r.log, ["add frame:ModalKit to application: at 0", "window:create frame:ModalKit"])
        r.log.removeAll()
        m.sync(to: snapshot([frame()], focus: "present"), windowIsActive: true)
        XCTAssertEqual(r.log, ["active=1 frame:ModalKit", "window:activate frame:ModalKit", "focused=1 button:Present"])
        r.log.removeAll()
        m.sync(to: snapshot([frame()], focus: "present"), windowIsActive: false)
        XCTAssertEqual(r.log, ["focused=0 button:Present", "active=0 frame:ModalKit", "window:deactivate frame:ModalKit"])
    }

    func testAnnounceRepeatsWhatAListenerMissed() {
        let r = Recorder()
        let m = AccessibilityMirror(backend: r)
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1)], focus: nil), windowIsActive: true)
        r.log.removeAll()
        m.announce()
        XCTAssertEqual(r.log, ["window:create frame:ModalKit", "window:create dialog:Card 1",
                               "active=1 dialog:Card 1", "window:activate dialog:Card 1", "focused=1 dialog:Card 1"])
    }

    func testTheDialogIsLabelledAndDescribedByItsTitleAndBody() throws {
        let r = Recorder()
        let m = AccessibilityMirror(backend: r)
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1)], focus: nil), windowIsActive: true)
        let dialog = try XCTUnwrap(r.node(named: "Card 1", role: "dialog"))
        XCTAssertEqual(r.nodes[dialog]!.relations["labelled-by"].map { r.label($0) }, "heading:Card 1")
        XCTAssertEqual(r.nodes[dialog]!.relations["described-by"].map { r.label($0) }, "label:Body 1")
        // The body element goes: so does the relation.
        var level = card(1)
        level.elements.remove(at: 1)
        m.sync(to: snapshot([frame(hidden: true, focused: nil), level], focus: nil), windowIsActive: true)
        XCTAssertNil(r.nodes[dialog]!.relations["described-by"] ?? nil)
    }

    func testElementsComeAndGoInPlaceAndRequestsNameWhatTheyStandFor() throws {
        let r = Recorder()
        let m = AccessibilityMirror(backend: r)
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1)], focus: nil), windowIsActive: true)
        let dialog = try XCTUnwrap(r.node(named: "Card 1", role: "dialog"))
        let close = try XCTUnwrap(r.node(named: "Close 1", role: "button"))
        XCTAssertEqual(m.target(forKey: r.nodes[close]!.key), .init(level: 1, identifier: "close"))
        XCTAssertEqual(m.target(forKey: r.nodes[dialog]!.key), .init(level: 1, identifier: nil))
        r.log.removeAll()
        // Present another disabled and renamed, a new label after the body, Close gone.
        var level = card(1)
        level.elements[2] = .button("present-another", label: "Again", frame: .zero, isEnabled: false)
        level.elements.insert(.text("note", "A note", frame: .zero), at: 2)
        level.elements.removeLast()
        m.sync(to: snapshot([frame(hidden: true, focused: nil), level], focus: nil), windowIsActive: true)
        XCTAssertEqual(r.log, ["remove button:Close 1 from dialog:Card 1", "add label:A note to dialog:Card 1 at 2",
                               "enabled=0 button:Again", "focusable=0 button:Again"])
        XCTAssertEqual(r.nodes[dialog]!.children.map { r.label($0) }, ["heading:Card 1", "label:Body 1", "label:A note", "button:Again"])
        XCTAssertTrue(r.nodes[close]!.defunct)
        XCTAssertNil(m.target(forKey: r.nodes[close]!.key), "a request for a released object names nothing")
    }

    /// Escape and Return read together: the dialog is dismissed and the same content presented
    /// again between two syncs. The host gives the new presentation a new number, so the old
    /// dialog is destroyed and a new object created, activated and focused (a screen reader says
    /// the dialog again) — not the old object updated in place, which says nothing.
    func testALevelReplacedBetweenTwoSyncsIsDestroyedAndANewDialogCreated() throws {
        let r = Recorder()
        let m = AccessibilityMirror(backend: r)
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1, focused: "close", presentation: 1)], focus: "close"),
               windowIsActive: true)
        let old = try XCTUnwrap(r.node(named: "Card 1", role: "dialog"))
        r.log.removeAll()
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1, presentation: 2)], focus: nil), windowIsActive: true)
        XCTAssertEqual(r.log, [
            "focused=0 button:Close 1",
            "active=0 dialog:Card 1", "window:deactivate dialog:Card 1", "window:destroy dialog:Card 1",
            "remove dialog:Card 1 from application:",
            "add dialog:Card 1 to application: at 1", "window:create dialog:Card 1",
            "active=1 dialog:Card 1", "window:activate dialog:Card 1",
            "focused=1 dialog:Card 1",
        ])
        let new = try XCTUnwrap(r.node(named: "Card 1", role: "dialog"))
        XCTAssertNotEqual(new, old, "a new object")
        XCTAssertTrue(r.nodes[old]!.defunct)
        XCTAssertEqual(r.nodes[r.root]!.children, [r.nodes[r.root]!.children[0], new])
        XCTAssertTrue(r.nodes[new]!.children.allSatisfy { r.nodes[$0]!.states.contains(.showing) })
        // The frame beneath stays the same object, hidden throughout (no showing events).
        XCTAssertFalse(r.log.contains { $0.hasPrefix("showing=") })
        // The same presentation again: an update in place, no window events.
        r.log.removeAll()
        m.sync(to: snapshot([frame(hidden: true, focused: nil), card(1, focused: "close", presentation: 2)], focus: "close"),
               windowIsActive: true)
        XCTAssertEqual(r.log, ["focused=0 dialog:Card 1", "focused=1 button:Close 1"])
    }
}
