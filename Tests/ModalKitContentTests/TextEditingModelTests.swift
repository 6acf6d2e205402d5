import ModalKit
import ModalKitContent
import XCTest

/// The text field's editing model: grapheme clusters (UAX #29), byte offsets (text-input-v3's
/// unit), selection, word moves, undo groups, the maximum length, the one-line rule, and the
/// text-input-v3 `done` sequence with refused offsets.
final class TextEditingModelTests: XCTestCase {
    /// 👩‍👩‍👧 is one grapheme of 18 UTF-8 bytes (three 4-byte emoji and two 3-byte ZWJs); é as e +
    /// U+0301 is one grapheme of 3 bytes. Backspace and the arrows move over each as one.
    func testEmojiZWJAndCombiningMarksAreOneCharacter() {
        var m = TextEditingModel(text: "a👩‍👩‍👧e\u{301}")
        XCTAssertEqual(m.characterCount, 3)
        XCTAssertEqual(m.caret, 1 + 18 + 3)
        m.setCaret(m.offset(before: m.caret))
        XCTAssertEqual(m.caret, 19, "before é: 1 + 18 bytes")
        m.setCaret(m.offset(before: m.caret))
        XCTAssertEqual(m.caret, 1, "before the family")
        m.setCaret(m.offset(after: m.caret))
        XCTAssertTrue(m.deleteBackward())
        XCTAssertEqual(m.text, "ae\u{301}")
        m.setCaret(m.text.utf8.count)
        XCTAssertTrue(m.deleteBackward())
        XCTAssertEqual(m.text, "a", "the e and its combining mark go together")
        // A combining mark typed after a letter joins it: the caret stays on a boundary.
        m.insert("e", typing: true)
        m.insert("\u{308}", typing: true)
        XCTAssertEqual(m.characterCount, 2)
        XCTAssertEqual(m.caret, m.text.utf8.count)
        // Offsets inside a cluster are snapped back to its start.
        var f = TextEditingModel(text: "👩‍👩‍👧")
        f.setCaret(5)
        XCTAssertEqual(f.caret, 0)
        XCTAssertFalse(f.isBoundary(4))
        XCTAssertTrue(f.isBoundary(18))
    }

    func testSelectionExtendsAndTypingReplacesIt() {
        var m = TextEditingModel(text: "hello world")
        m.setCaret(0)
        m.setCaret(m.offset(after: m.caret), extending: true)
        m.setCaret(m.offset(after: m.caret), extending: true)
        XCTAssertEqual(m.selection, 0..<2)
        XCTAssertEqual(m.selectedText, "he")
        m.insert("J", typing: true)
        XCTAssertEqual(m.text, "Jllo world")
        XCTAssertEqual(m.caret, 1)
        XCTAssertFalse(m.hasSelection)
        m.selectAll()
        XCTAssertEqual(m.selection, 0..<10)
        XCTAssertEqual(m.caret, 10)
        XCTAssertTrue(m.deleteBackward())
        XCTAssertEqual(m.text, "")
    }

    /// Ctrl+Right goes to the end of the next word, Ctrl+Left to the start of the previous one;
    /// Ctrl+Backspace and Ctrl+Delete delete to there (GTK's entry).
    func testWordMovesAndDeletes() {
        var m = TextEditingModel(text: "one, two_3  four")
        XCTAssertEqual(m.wordStart(before: m.caret), 12)
        XCTAssertEqual(m.wordStart(before: 12), 5, "two_3 is one word (connector punctuation)")
        XCTAssertEqual(m.wordEnd(after: 0), 3)
        XCTAssertEqual(m.wordEnd(after: 3), 10)
        m.setCaret(10)
        XCTAssertTrue(m.deleteBackward(word: true))
        XCTAssertEqual(m.text, "one,   four")
        m.setCaret(4)
        XCTAssertTrue(m.deleteForward(word: true))
        XCTAssertEqual(m.text, "one,")
        XCTAssertEqual(TextEditingModel(text: "ab cd").word(at: 4), 3..<5)
        XCTAssertEqual(TextEditingModel(text: "ab  cd").word(at: 2), 2..<3, "a space alone")
        XCTAssertEqual(TextEditingModel(text: "日本語 テスト").word(at: 0), 0..<9)
    }

    /// A typed run undoes as one group; a move starts a new group; redo brings it back; a new edit
    /// clears the redo stack.
    func testUndoGroupsTypedRuns() {
        var m = TextEditingModel()
        for c in "abc" { m.insert(String(c), typing: true) }
        m.setCaret(1)
        for c in "XY" { m.insert(String(c), typing: true) }
        XCTAssertEqual(m.text, "aXYbc")
        XCTAssertTrue(m.undo())
        XCTAssertEqual(m.text, "abc")
        XCTAssertEqual(m.caret, 1)
        XCTAssertTrue(m.undo())
        XCTAssertEqual(m.text, "")
        XCTAssertFalse(m.undo())
        XCTAssertTrue(m.redo())
        XCTAssertEqual(m.text, "abc")
        XCTAssertTrue(m.redo())
        XCTAssertEqual(m.text, "aXYbc")
        XCTAssertFalse(m.redo())
        m.undo()
        m.insert("!")
        XCTAssertFalse(m.canRedo)
        // Backspaces in a row are one group too.
        var d = TextEditingModel(text: "abcd")
        d.deleteBackward(); d.deleteBackward()
        XCTAssertEqual(d.text, "ab")
        d.undo()
        XCTAssertEqual(d.text, "abcd")
    }

    /// The maximum length counts characters; insertions are cut at whole characters, also paste and
    /// input-method commits; replacing a selection frees its room.
    func testMaximumLengthInCharacters() {
        var m = TextEditingModel(maximumLength: 3)
        m.insert("👩‍👩‍👧ab")
        XCTAssertEqual(m.text, "👩‍👩‍👧ab")
        XCTAssertFalse(m.insert("c", typing: true))
        XCTAssertEqual(m.characterCount, 3)
        m.setCaret(0)
        m.setCaret(m.offset(after: 0), extending: true)
        m.insert("xyz")
        XCTAssertEqual(m.text, "xab")
        m.apply(TextInputUpdate(commit: "日本"))
        XCTAssertEqual(m.text, "xab")
        XCTAssertEqual(TextEditingModel(text: "abcdef", maximumLength: 4).text, "abcd")
    }

    /// Newlines (CR LF, CR, LF, U+2028) become spaces; tabs and other controls are dropped — for
    /// typing, paste and commits alike.
    func testOneLineRule() {
        XCTAssertEqual(TextEditingModel.oneLine("a\r\nb\nc\rd\u{2028}e\tf\u{7}g\u{85}h"), "a b c d efg h")
        var m = TextEditingModel()
        m.insert("line one\nline two")
        XCTAssertEqual(m.text, "line one line two")
        m.apply(TextInputUpdate(commit: "\u{1B}[x\r\n"))
        XCTAssertEqual(m.text, "line one line two[x ")
    }

    /// text-input-v3 `done`: the preedit is never part of the text; deletion, then commit, then
    /// the new preedit; a deletion outside the text or inside a cluster is refused while the commit
    /// and preedit still apply.
    func testInputMethodDoneInTheProtocolsOrder() {
        var m = TextEditingModel(text: "ni")
        m.apply(TextInputUpdate(preedit: .init(text: "你", cursor: 3..<3)))
        XCTAssertEqual(m.text, "ni")
        XCTAssertEqual(m.preedit?.text, "你")
        // delete "ni" (2 bytes before), commit 你好, no preedit.
        XCTAssertEqual(m.apply(TextInputUpdate(deleteBefore: 2, commit: "你好")), [])
        XCTAssertEqual(m.text, "你好")
        XCTAssertNil(m.preedit)
        XCTAssertEqual(m.caret, 6)
        // 4 bytes before the caret falls inside 你 (3 bytes each): refused, the commit applied.
        XCTAssertEqual(m.apply(TextInputUpdate(deleteBefore: 4, commit: "!")), .deletion)
        XCTAssertEqual(m.text, "你好!")
        // Past the start, and after the end: refused.
        XCTAssertEqual(m.apply(TextInputUpdate(deleteBefore: 100)), .deletion)
        XCTAssertEqual(m.apply(TextInputUpdate(deleteAfter: 1)), .deletion)
        XCTAssertEqual(m.apply(TextInputUpdate(deleteBefore: -1)), .deletion)
        XCTAssertEqual(m.text, "你好!")
        // Delete around the caret in the middle: "a|b" delete 1 before and 1 after.
        var n = TextEditingModel(text: "xaby")
        n.setCaret(2)
        XCTAssertEqual(n.apply(TextInputUpdate(deleteBefore: 1, deleteAfter: 1, commit: "Z")), [])
        XCTAssertEqual(n.text, "xZy")
        XCTAssertEqual(n.caret, 2)
        // A preedit cursor inside a code point is refused (hidden), the preedit still shown.
        XCTAssertEqual(n.apply(TextInputUpdate(preedit: .init(text: "日本", cursor: 1..<1))), .preeditCursor)
        XCTAssertEqual(n.preedit, .init(text: "日本", cursor: nil))
        XCTAssertEqual(n.apply(TextInputUpdate(preedit: .init(text: "日本", cursor: 3..<6))), [])
        XCTAssertEqual(n.preedit?.cursor, 3..<6)
        XCTAssertEqual(n.apply(TextInputUpdate(preedit: .init(text: "日本", cursor: 0..<7))), .preeditCursor)
        // An empty update drops the preedit.
        n.apply(TextInputUpdate())
        XCTAssertNil(n.preedit)
        XCTAssertEqual(n.text, "xZy")
    }

    func testByteAndCharacterOffsets() {
        let m = TextEditingModel(text: "aé日👍🏽")
        XCTAssertEqual(m.byteOffset(ofCharacter: 0), 0)
        XCTAssertEqual(m.byteOffset(ofCharacter: 2), 3)
        XCTAssertEqual(m.byteOffset(ofCharacter: 3), 6)
        XCTAssertEqual(m.byteOffset(ofCharacter: 4), 14)
        XCTAssertEqual(m.byteOffset(ofCharacter: 9), 14)
        XCTAssertEqual(m.characterIndex(ofByte: 6), 3)
        XCTAssertEqual(m.characterIndex(ofByte: 14), 4)
    }

    /// Up to 4000 bytes the surrounding text is the whole text; beyond, a window of at most 4000
    /// bytes of whole clusters around the caret, offsets relative to it.
    func testSurroundingTextWindow() {
        let short = TextEditingModel(text: "abc")
        let w0 = short.surroundingWindow()
        XCTAssertEqual(w0.text, "abc"); XCTAssertEqual(w0.start, 0); XCTAssertEqual(w0.cursor, 3)
        // 3000 × "日" = 9000 bytes, caret after the 1500th (byte 4500).
        var m = TextEditingModel(text: String(repeating: "日", count: 3000))
        m.setCaret(4500)
        let w = m.surroundingWindow()
        XCTAssertLessThanOrEqual(w.text.utf8.count, 4000)
        XCTAssertGreaterThan(w.text.utf8.count, 3990)
        XCTAssertEqual(w.start % 3, 0, "starts on a character boundary")
        XCTAssertEqual(w.text.utf8.count % 3, 0)
        XCTAssertEqual(w.start + w.cursor, 4500)
        XCTAssertEqual(w.cursor, w.anchor)
        XCTAssertTrue(w.cursor > 1000 && w.cursor < 3000, "the caret near the middle")
        // At the very end: the window ends at the text's end.
        m.setCaret(9000)
        let e = m.surroundingWindow()
        XCTAssertEqual(e.start + e.text.utf8.count, 9000)
        XCTAssertEqual(e.cursor, e.text.utf8.count)
    }
}
