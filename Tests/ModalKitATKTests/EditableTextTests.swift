import CModalKitATKInterface
import ModalKit
import XCTest
@testable import ModalKitATK

/// `AtkEditableText` on a text field: the node is editable while its element's text is, the edit
/// requests of the library (offsets in code points, ATK's unit) become edits in characters
/// (grapheme clusters, the element's unit), whole characters edited.
final class EditableTextTests: XCTestCase {
    private func edit(_ request: modalkit_atk_request, _ text: String? = nil, _ start: Int, _ end: Int,
                      in current: String) -> AccessibilityTextEdit? {
        AccessibilityBridge.textEdit(request: request.rawValue, text: text, start: start, end: end,
                                     in: AccessibilityText(text: current, caret: 0, selection: 0..<0))
    }

    func testEachRequestIsItsEdit() {
        XCTAssertEqual(edit(MODALKIT_ATK_REQUEST_SET_TEXT, "new", 0, 3, in: "old"), .setContents("new"))
        XCTAssertEqual(edit(MODALKIT_ATK_REQUEST_INSERT_TEXT, "X", 1, 1, in: "abc"), .insert("X", at: 1))
        XCTAssertEqual(edit(MODALKIT_ATK_REQUEST_DELETE_TEXT, nil, 1, 3, in: "abcd"), .delete(1..<3))
        XCTAssertEqual(edit(MODALKIT_ATK_REQUEST_COPY_TEXT, nil, 0, 2, in: "abcd"), .copy(0..<2))
        XCTAssertEqual(edit(MODALKIT_ATK_REQUEST_CUT_TEXT, nil, 2, 4, in: "abcd"), .cut(2..<4))
        XCTAssertEqual(edit(MODALKIT_ATK_REQUEST_PASTE_TEXT, nil, 4, 4, in: "abcd"), .paste(at: 4))
        XCTAssertNil(edit(MODALKIT_ATK_REQUEST_INSERT_TEXT, nil, 0, 0, in: "a"), "an insertion without its text")
        XCTAssertNil(edit(MODALKIT_ATK_REQUEST_FOCUS, nil, 0, 0, in: "a"), "not an edit")
    }

    /// "e\u{301}" is one character of two code points; "👩‍💻" one of three.
    func testCodePointsBecomeCharactersAndACharacterIsEditedWhole() {
        let text = "xe\u{301}y👩\u{200D}💻z"   // characters x é y 👩‍💻 z; code points 0 1 2 3 4 5 6 7
        XCTAssertEqual(edit(MODALKIT_ATK_REQUEST_DELETE_TEXT, nil, 3, 7, in: text), .delete(2..<4), "y and the emoji")
        XCTAssertEqual(edit(MODALKIT_ATK_REQUEST_DELETE_TEXT, nil, 2, 5, in: text), .delete(1..<4),
                       "from inside é (its start) to inside the emoji (its end)")
        XCTAssertEqual(edit(MODALKIT_ATK_REQUEST_INSERT_TEXT, "!", 8, 8, in: text), .insert("!", at: 5), "at the end")
        XCTAssertEqual(edit(MODALKIT_ATK_REQUEST_INSERT_TEXT, "!", 99, 99, in: text), .insert("!", at: 5), "clamped")
    }

    func testAnEditableTextElementIsAnEditableNode() throws {
        let r = AccessibilityMirrorTests.Recorder()
        let m = AccessibilityMirror(backend: r)
        func sync(editable: Bool) {
            var field = AccessibilityElement(identifier: "text-field-0", role: .entry, label: "Name", frame: .zero,
                                             states: [.focusable], actions: .activate)
            field.text = AccessibilityText(text: "ab", caret: 2, selection: 2..<2, isEditable: editable)
            let level = AccessibilitySnapshot.Level(index: 0, role: .window, label: "Form", description: "", frame: .zero,
                                                    isModal: false, isHidden: false, elements: [field])
            m.sync(to: AccessibilitySnapshot(levels: [level], focus: .init(level: 0, element: nil)), windowIsActive: true)
        }
        sync(editable: true)
        let node = try XCTUnwrap(r.node(named: "Name", role: "other"))
        XCTAssertTrue(r.nodes[node]!.states.contains(.editable))
        let key = r.nodes[node]!.key
        XCTAssertEqual(m.text(forKey: key)?.text, "ab", "the text edits are measured against")
        XCTAssertEqual(m.target(forKey: key), AccessibilityMirror.Target(level: 0, identifier: "text-field-0"))
        sync(editable: false)
        XCTAssertFalse(r.nodes[node]!.states.contains(.editable))
    }
}
