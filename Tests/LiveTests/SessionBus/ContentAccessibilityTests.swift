// ModalKitContent as a screen reader sees it (AT-SPI through a private accessibility bus, as
// AccessibilitySwayTests): `modal-demo --content alert` is an alert named by its title with a
// heading, its message and two push buttons, and a "click" on Delete answers it; `--content list`
// is a dialog holding a list of list items, and a "click" on one makes it selected.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class ContentAccessibilityTests: CompositorTestCase {
    private func launch(_ arguments: [String]) throws -> (DemoProcess, ATSPIProbe, VNCInput) {
        try requireProgram("dbus-daemon")
        for file in ["/usr/share/dbus-1/services/org.a11y.Bus.service", "/usr/bin/python3"] where access(file, F_OK) != 0 {
            throw XCTSkip("\(file) is missing (scripts/test installs at-spi2-core and python3-gi)")
        }
        let bus = try AccessibilityBus()
        addTeardownBlock { bus.stop() }
        let probe = try ATSPIProbe(on: bus)
        addTeardownBlock { probe.stop() }
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo(arguments, in: sway, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.bus.address])
        guard expectEvent(demo, "accessibility") != nil else { throw HarnessError("no bridge") }
        try probe.find(pid: demo.pid)
        return (demo, probe, vnc)
    }

    func testTheAlertIsAnAlertWithPushButtonsAndAClickAnswersIt() throws {
        let (demo, probe, vnc) = try launch(["--content", "alert"])
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        let tree = try probe.tree()
        XCTAssertEqual(tree.children.map { "\($0.role):\($0.name)" }, ["frame:ModalKit", "alert:Delete file?"])
        let alert = try XCTUnwrap(tree.children.last)
        XCTAssertEqual(alert.children.map { "\($0.role):\($0.name)" },
                       ["heading:Delete file?", "label:“Report.pdf” will be deleted permanently.", "push button:Cancel",
                        "push button:Delete"])
        XCTAssertEqual(alert.children[3].actions, ["click"])
        mark = demo.mark()
        XCTAssertEqual(try probe.act(role: "push button", name: "Delete"), .done(true))
        guard expectEvent(demo, "dismissed", since: mark) != nil else { return }
        XCTAssertEqual(demo.events("response", since: mark), ["response delete"])
    }

    /// `--content form`: the field is an entry with the Text interface: what was typed, the caret
    /// (after Left: before the last character), the selection after Ctrl+A, a word by offset;
    /// `--secure`: a password text whose text is bullets.
    func testTheFormsFieldIsAnEntryWhoseTextAScreenReaderReads() throws {
        let (demo, probe, vnc) = try launch(["--content", "form"])
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        mark = demo.mark()
        try vnc.send(["key", "n", "key", "e", "key", "w", "key", "space", "key", "d", "key", "o", "key", "c", "key", "left"])
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) { demo.events("text", since: mark).count >= 7 }
        func entry(until done: @escaping (AccessibleNode) -> Bool) -> AccessibleNode? {
            var found: AccessibleNode?
            _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
                found = (try? probe.tree().find("entry", "Name")) ?? nil
                return found.map(done) ?? false
            }
            return found
        }
        let e = try XCTUnwrap(entry { $0.text?.caret == 6 }, "no entry named Name")
        XCTAssertTrue(e.states.contains("focused"), "\(e.states)")
        XCTAssertEqual(e.text?.text, "new doc")
        XCTAssertEqual(e.text?.caret, 6)
        XCTAssertEqual(e.text?.selection, [])
        XCTAssertEqual(e.text?.wordAtStart, "new")
        try vnc.key("ctrl-a")
        let all = try XCTUnwrap(entry { $0.text?.selection == [0, 7] })
        XCTAssertEqual(all.text?.selection, [0, 7])
        XCTAssertEqual(all.text?.caret, 7)
    }

    /// A screen reader edits the form's field through AT-SPI `EditableText` (at-spi2-atk → the
    /// field's `AtkEditableText`): the entry is editable, and an insertion at an offset, a
    /// deletion, a new text (its line break a space, the field's one-line rule), a cut and a paste
    /// at the end each reach the field as its own edit — the demo's `text "…"` lines show them.
    func testAScreenReaderEditsTheFormsField() throws {
        let (demo, probe, vnc) = try launch(["--content", "form"])
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        mark = demo.mark()
        try vnc.send(["key", "a", "key", "b", "key", "c"])
        guard waitUntil(timeout: eventTimeout, interval: 0.05, { demo.events("text", since: mark).count >= 3 }) else {
            return XCTFail("typing reached no field: \(demo.events("text", since: mark))")
        }
        var field: AccessibleNode?
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            field = (try? probe.tree().find("entry", "Name")) ?? nil
            return field?.text?.text == "abc"
        }
        XCTAssertTrue(field?.states.contains("editable") ?? false, "\(field?.states.sorted() ?? [])")
        let steps: [(method: String, text: String, start: Int, end: Int, expect: String)] = [
            ("insert_text", "XY", 1, 1, "aXYbc"),
            ("delete_text", "", 0, 1, "XYbc"),
            ("set_text_contents", "new\nname", 0, 0, "new name"),
            ("cut_text", "", 0, 4, "name"),
            ("paste_text", "", 4, 4, "namenew "),
        ]
        for step in steps {
            mark = demo.mark()
            XCTAssertEqual(try probe.edit(role: "entry", name: "Name", step.method, text: step.text, start: step.start, end: step.end),
                           .done(true), step.method)
            let line = "text \"\(step.expect)\""
            guard waitUntil(timeout: eventTimeout, interval: 0.05, { demo.events("text", since: mark).contains(line) }) else {
                return XCTFail("\(step.method): no \(line) in \(demo.events("text", since: mark))")
            }
        }
    }

    func testTheSecureFieldIsPasswordTextOfBullets() throws {
        let (demo, probe, vnc) = try launch(["--content", "form", "--secure"])
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        mark = demo.mark()
        try vnc.send(["key", "s", "key", "3", "key", "c"])
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) { demo.events("text", since: mark).count >= 3 }
        var field: AccessibleNode?
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            field = (try? probe.tree().find("password text", "Password")) ?? nil
            return field?.text?.text.count == 3
        }
        XCTAssertEqual(field?.text?.text, "•••")
        XCTAssertEqual(field?.text?.caret, 3)
    }

    func testTheListIsAListOfListItemsAndAClickSelectsOne() throws {
        let (demo, probe, vnc) = try launch(["--style", "bottom-sheet", "--content", "list"])
        let mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        var list = try XCTUnwrap(try probe.tree().find("list", "List"))
        XCTAssertEqual(list.children.first.map { "\($0.role):\($0.name)" }, "list item:Row 1")
        XCTAssertFalse(list.children[1].states.contains("selected"))
        XCTAssertEqual(try probe.act(role: "list item", name: "Row 2"), .done(true))
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) {
            (try? probe.tree().find("list item", "Row 2"))??.states.contains("selected") == true
        }
        list = try XCTUnwrap(try probe.tree().find("list", "List"))
        XCTAssertTrue(list.children[1].states.contains("selected"), "\(list.children[1].states)")
    }
}
