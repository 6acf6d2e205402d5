import ModalKit
import ModalKitContent
import XCTest

/// The editing model at the edges the text-entry fuzz target reached (Fuzz/Regressions/text-entry):
/// what an input method may send (text-input-v3 leaves strings and lengths unchecked) and deletions
/// that join the characters on either side into one grapheme cluster (UAX #29).
final class TextEditingModelInputMethodEdgeTests: XCTestCase {
    /// A preedit that the one-line rule empties (control characters alone) is no preedit: the field
    /// shows none, as for an empty `preedit_string`.
    func testPreeditOfControlCharactersIsNone() {
        var m = TextEditingModel(text: "ab")
        m.apply(TextInputUpdate(preedit: .init(text: "\u{1}\u{7F}", cursor: 0..<0)))
        XCTAssertNil(m.preedit)
        m.apply(TextInputUpdate(preedit: .init(text: "\u{1}x\u{7F}", cursor: nil)))
        XCTAssertEqual(m.preedit, TextInputUpdate.Preedit(text: "x", cursor: nil))
        XCTAssertEqual(m.text, "ab")
    }

    /// Delete lengths at `Int`'s extremes are refused as any length outside the text is (the
    /// protocol's lengths are `uint`; `TextInputUpdate` takes any `Int`), the commit still applied.
    func testDeleteLengthsAtTheExtremesAreRefused() {
        for (before, after) in [(Int.min, 0), (0, Int.max), (Int.max, 0), (0, Int.min), (Int.min, Int.max), (Int.max, Int.max)] {
            var m = TextEditingModel(text: "abc")
            m.setCaret(1)
            XCTAssertEqual(m.apply(TextInputUpdate(deleteBefore: before, deleteAfter: after, commit: "x")), .deletion, "\(before), \(after)")
            XCTAssertEqual(m.text, "axbc")
            XCTAssertEqual(m.caret, 2)
        }
    }

    /// Deleting the character between two that join (Hangul jamo L and V: one syllable; regional
    /// indicators: one flag; a ZWJ and an emoji: one sequence, UAX #29 GB6, GB12, GB11) leaves the
    /// caret at the start of the cluster they make, never inside it: Backspace, Delete, a deleted
    /// selection and `delete_surrounding_text` alike.
    func testDeletionThatJoinsTheNeighboursLeavesTheCaretOnABoundary() {
        let joining = ["\u{1100}", "\u{1F1FA}", "\u{1F469}\u{200D}"]
        let following = ["\u{1161}", "\u{1F1F8}", "\u{1F467}"]
        for (a, b) in zip(joining, following) {
            let start = a.utf8.count
            var m = TextEditingModel(text: a + "X" + b)
            m.setCaret(start + 1)
            XCTAssertTrue(m.deleteBackward())
            XCTAssertEqual(m.text.count, 1, "\(a.debugDescription) and \(b.debugDescription) are one character")
            XCTAssertEqual(m.caret, 0, "Backspace")
            XCTAssertEqual(m.anchor, 0)

            m = TextEditingModel(text: a + "X" + b)
            m.setCaret(start)
            XCTAssertTrue(m.deleteForward())
            XCTAssertEqual(m.caret, 0, "Delete")

            m = TextEditingModel(text: a + "X" + b)
            m.select(start..<(start + 1))
            XCTAssertTrue(m.deleteSelection())
            XCTAssertEqual(m.caret, 0, "a deleted selection")

            m = TextEditingModel(text: a + "X" + b)
            m.setCaret(start + 1)
            XCTAssertEqual(m.apply(TextInputUpdate(deleteBefore: 1)), [])
            XCTAssertEqual(m.caret, 0, "delete_surrounding_text")
            m.insert("!")
            XCTAssertEqual(m.text, "!" + a + b, "an insertion after it goes before the cluster")
        }
        // A selection whose end the deletion puts inside a cluster grows to the cluster's edge.
        var m = TextEditingModel(text: "\u{1100}X\u{1161}b")
        m.select(4..<8)
        XCTAssertEqual(m.apply(TextInputUpdate(deleteBefore: 1)), [])
        XCTAssertEqual(m.text, "\u{1100}\u{1161}b")
        XCTAssertEqual(m.selection, 0..<7)
    }
}
