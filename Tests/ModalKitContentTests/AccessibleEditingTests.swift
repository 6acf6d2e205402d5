import ModalKit
@testable import ModalKitContent
import XCTest

/// Edits at a position (`TextEditingModel.replace(_:with:)`) and assistive technology's edits of a
/// text field (`ContentInput.editText`, ATK's `AtkEditableText`): the field's own rules hold — one
/// line, the maximum length, undo, a secure field copies and cuts nothing — and the caret keeps its
/// place in the text as GTK's entry keeps its cursor.
final class AccessibleEditingTests: XCTestCase {
    func testReplaceAtAPositionKeepsTheCaretsPlace() {
        var m = TextEditingModel(text: "hello world")
        m.setCaret(5)   // after "hello"
        XCTAssertTrue(m.replace(11..<11, with: "!"))
        XCTAssertEqual(m.text, "hello world!")
        XCTAssertEqual(m.caret, 5, "an insertion after the caret leaves it")
        XCTAssertTrue(m.replace(0..<0, with: ">> "))
        XCTAssertEqual(m.caret, 8, "an insertion before it moves it with the text")
        m.setCaret(5)
        XCTAssertTrue(m.replace(5..<5, with: "X"))
        XCTAssertEqual(m.caret, 5, "at the caret: the caret stays before it (GTK)")
        m.setCaret(10)
        XCTAssertTrue(m.replace(8..<12, with: ""))
        XCTAssertEqual(m.text, ">> heXllrld!")
        XCTAssertEqual(m.caret, 8, "inside the deleted range: at its start")
        XCTAssertFalse(m.replace(3..<3, with: ""), "nothing to do")
    }

    func testReplaceFollowsTheFieldsRulesAndIsOneUndoGroup() {
        var m = TextEditingModel(text: "abc", maximumLength: 5)
        XCTAssertTrue(m.replace(1..<1, with: "1\n2345"))
        XCTAssertEqual(m.text, "a1 bc", "one line, cut to the maximum length")
        XCTAssertTrue(m.replace(0..<1, with: "é"))   // room: 5 - (5 - 1) = 1
        XCTAssertEqual(m.text, "é1 bc")
        XCTAssertTrue(m.replace(1..<2, with: "xyz"), "snapped outward: inside é means all of é")
        XCTAssertEqual(m.text, "x1 bc")
        m.undo()
        XCTAssertEqual(m.text, "é1 bc")
        m.undo()
        XCTAssertEqual(m.text, "a1 bc")
        m.undo()
        XCTAssertEqual(m.text, "abc")
    }

    private func field(_ text: String, secure: Bool = false, maximumLength: Int? = nil) -> (TextField, Pasteboard) {
        let f = TextField(text: text, isSecure: secure, maximumLength: maximumLength)
        let p = Pasteboard()
        f.pasteboard = p
        f.clock = { 100 }
        return (f, p)
    }

    func testAssistiveTechnologyEditsTheField() {
        let (f, p) = field("new doc")
        var changes: [String] = []
        f.onChange = { changes.append($0) }
        XCTAssertTrue(f.handle(.editText("text-field", .insert("ument", at: 7)), now: 1))
        XCTAssertEqual(f.text, "new document")
        XCTAssertTrue(f.handle(.editText("text-field", .delete(0..<4)), now: 1))
        XCTAssertEqual(f.text, "document")
        XCTAssertTrue(f.handle(.editText("text-field", .copy(0..<3)), now: 1))
        XCTAssertTrue(f.handle(.editText("text-field", .paste(at: 8)), now: 1))
        XCTAssertEqual(f.text, "documentdoc")
        XCTAssertTrue(f.handle(.editText("text-field", .cut(0..<8)), now: 1))
        XCTAssertEqual(f.text, "doc")
        var clipboard: String?
        p.requestText(from: .clipboard) { clipboard = $0 }
        XCTAssertEqual(clipboard, "document")
        XCTAssertTrue(f.handle(.editText("text-field", .setContents("a\nb")), now: 1))
        XCTAssertEqual(f.text, "a b")
        XCTAssertEqual(changes, ["new document", "document", "documentdoc", "doc", "a b"])
        XCTAssertEqual(f.accessibilityElement?.text?.text, "a b")
        XCTAssertFalse(f.isFocused, "editing does not move focus")
        XCTAssertFalse(f.handle(.editText("other", .setContents("x")), now: 1), "another element's edit")
        // Ctrl+Z (focused) undoes the edits one by one.
        XCTAssertTrue(f.handle(.focus(nil), now: 1))
        XCTAssertTrue(f.handle(.keyboard(KeyInput(keysym: 0x7a, phase: .press, text: "z", modifiers: .control)), now: 2))
        XCTAssertEqual(f.text, "doc")
    }

    func testTheRulesHoldForAssistiveTechnologyToo() {
        let (f, p) = field("abc", maximumLength: 4)
        XCTAssertTrue(f.handle(.editText("text-field", .insert("xyz", at: 1)), now: 1))
        XCTAssertEqual(f.text, "axbc", "the maximum length")
        XCTAssertTrue(f.handle(.editText("text-field", .delete(3..<99)), now: 1), "a range past the end is clamped")
        XCTAssertEqual(f.text, "axb")
        let (s, sp) = field("hunter2", secure: true)
        XCTAssertFalse(s.handle(.editText("text-field", .copy(0..<7)), now: 1), "a secure field copies nothing")
        XCTAssertFalse(s.handle(.editText("text-field", .cut(0..<7)), now: 1), "nor cuts")
        XCTAssertEqual(s.text, "hunter2")
        var clipboard: String? = "unset"
        sp.requestText(from: .clipboard) { clipboard = $0 }
        XCTAssertNil(clipboard)
        XCTAssertTrue(s.handle(.editText("text-field", .delete(6..<7)), now: 1), "it can still be edited")
        XCTAssertEqual(s.text, "hunter")
        _ = p
    }

    func testAnAlertRoutesAnEditToItsField() {
        let alert = Alert(title: "Rename", responses: [Response("ok", label: "OK")], defaultResponse: "ok")
        let f = alert.addTextField(TextField(text: "a"))
        f.pasteboard = Pasteboard()
        XCTAssertTrue(alert.handle(.editText("text-field-0", .insert("b", at: 1)), now: 1))
        XCTAssertEqual(f.text, "ab")
        XCTAssertFalse(alert.handle(.editText("text-field-1", .insert("b", at: 1)), now: 1), "no such field")
    }
}
