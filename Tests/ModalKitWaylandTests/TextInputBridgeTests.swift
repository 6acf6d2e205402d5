import ModalKit
@testable import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// The text-input bridge as plain values: the host's state as text-input-v3's client state (UTF-8
/// byte offsets as they are, content type as the protocol's numbers, the cursor rectangle rounded
/// outwards to whole surface points), an input method's `done` as one host update (a preedit
/// cursor outside its text or inside a character is shown at the preedit's end; −1, −1 hides it),
/// and cursor names from libwayland-cursor themes.
final class TextInputBridgeTests: XCTestCase {
    func testStateBecomesTheProtocolsClientState() throws {
        let state = TextInputState(surroundingText: "añb", cursor: 3, anchor: 1, purpose: .password,
                                   hints: [.hiddenText, .sensitiveData], cursorRectangle: Rect(x: 10.4, y: 20.6, width: 1.2, height: 17.9))
        let request = try XCTUnwrap(TextInputBridge.request(for: state))
        XCTAssertEqual(request.surroundingText, "añb")
        XCTAssertEqual(request.cursor, 3)
        XCTAssertEqual(request.anchor, 1)
        XCTAssertEqual(request.contentPurpose, 8, "text-input-v3 content_purpose password")
        XCTAssertEqual(request.contentHint, 0x40 | 0x80, "hidden_text | sensitive_data")
        // x 10.4…11.6 → 10…12; y 20.6…38.5 → 20…39.
        XCTAssertEqual([request.cursorX, request.cursorY, request.cursorWidth, request.cursorHeight], [10, 20, 2, 19])
        XCTAssertNil(TextInputBridge.request(for: nil), "no focused field: the text input is disabled")
    }

    func testANonFiniteRectangleIsSentAsZero() throws {
        let state = TextInputState(surroundingText: "", cursor: 0, anchor: 0,
                                   cursorRectangle: Rect(x: .nan, y: .infinity, width: 1, height: 1))
        let request = try XCTUnwrap(TextInputBridge.request(for: state))
        XCTAssertEqual([request.cursorX, request.cursorY], [0, 0])
    }

    private func event(preedit: String?, _ begin: Int, _ end: Int, commit: String? = nil, before: Int = 0,
                       after: Int = 0) -> TextInputEvent {
        var e = TextInputEvent()
        e.preedit = preedit
        e.preeditCursorBegin = begin
        e.preeditCursorEnd = end
        e.commit = commit
        e.deleteBefore = before
        e.deleteAfter = after
        return e
    }

    func testDoneBecomesOneUpdateInTheProtocolsTerms() {
        // にほんご: 12 bytes; the cursor after ほ (bytes 6..6).
        let u = TextInputBridge.update(for: event(preedit: "にほんご", 6, 6, commit: "日本", before: 3, after: 1))
        XCTAssertEqual(u.preedit, TextInputUpdate.Preedit(text: "にほんご", cursor: 6..<6))
        XCTAssertEqual(u.commit, "日本")
        XCTAssertEqual(u.deleteBefore, 3)
        XCTAssertEqual(u.deleteAfter, 1)
        XCTAssertEqual(TextInputBridge.update(for: event(preedit: "ab", 0, 2)).preedit?.cursor, 0..<2, "a selection in the preedit")
    }

    func testPreeditCursorOutsideOrInsideACharacterIsAtTheEnd() {
        XCTAssertEqual(TextInputBridge.update(for: event(preedit: "にほ", 0, 7)).preedit?.cursor, 6..<6, "past the text")
        XCTAssertEqual(TextInputBridge.update(for: event(preedit: "にほ", 1, 1)).preedit?.cursor, 6..<6, "inside に")
        XCTAssertEqual(TextInputBridge.update(for: event(preedit: "にほ", 3, 0)).preedit?.cursor, 6..<6, "begin after end")
        XCTAssertEqual(TextInputBridge.update(for: event(preedit: "にほ", -5, 3)).preedit?.cursor, 6..<6, "negative")
        XCTAssertEqual(TextInputBridge.update(for: event(preedit: "にほ", -1, -1)).preedit?.cursor, nil, "hidden")
    }

    func testEmptyPreeditAndCommitAreNone() {
        let u = TextInputBridge.update(for: event(preedit: "", 0, 0, commit: ""))
        XCTAssertNil(u.preedit)
        XCTAssertNil(u.commit)
    }

    func testCursorNamesFromTheTheme() {
        XCTAssertEqual(TextInputBridge.cursorNames(.text), ["text", "xterm"])
        XCTAssertEqual(TextInputBridge.cursorNames(.pointer), ["pointer", "hand2", "hand1"])
        XCTAssertEqual(TextInputBridge.cursorNames(.default), [], "the window's arrow")
    }
}
