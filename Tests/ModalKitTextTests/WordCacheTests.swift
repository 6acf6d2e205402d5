import CModalKitPixman
@testable import ModalKitText
import XCTest

/// In the text-run mode a line is put together from words shaped one at a time and cached: a key
/// typed into a line reshapes only the word it changed, a pasted page of repeated words shapes each
/// word once, and a line laid out from cached words looks exactly like its words drawn one after
/// the other (nothing is kerned across a space in the default font).
final class WordCacheTests: XCTestCase {
    private func textRunFont() throws -> PixmanFont {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 17)
        try XCTSkipUnless(font.shaping == .textRun, "fcft without text-run shaping: no words to cache")
        return font
    }

    private func render(_ font: PixmanFont, _ text: String, width: Int32 = 400) -> [UInt32] {
        let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, width, 40, nil, 0)!
        defer { pixman_image_unref(image) }
        font.draw(text, into: image, x: 4, baseline: 30, color: Color(argb32: 0xFF20_2020))
        let data = pixman_image_get_data(image)!
        return Array(UnsafeBufferPointer(start: data, count: Int(width) * 40))
    }

    func testATypedKeyReshapesOnlyTheWordItChanged() throws {
        let font = try textRunFont()
        _ = font.width(of: "Quarterly report, the final")
        XCTAssertEqual(font.wordShapeCount, 5, "four words and the space, shaped once each")
        _ = font.width(of: "Quarterly report, the finals")
        XCTAssertEqual(font.wordShapeCount, 6, "only 'finals' is new")
        _ = font.width(of: "report, the Quarterly")
        XCTAssertEqual(font.wordShapeCount, 6, "the same words in another order: none shaped")
    }

    func testAPageOfRepeatedWordsShapesEachWordOnce() throws {
        let font = try textRunFont()
        let page = String(repeating: "lorem ipsum dolor sit amet ", count: 400)
        let width = font.width(of: page)
        XCTAssertEqual(font.wordShapeCount, 6, "five words and the space")
        let one = font.width(of: "lorem ipsum dolor sit amet ")
        XCTAssertEqual(width, 400 * one)
    }

    func testALineIsItsWordsDrawnOneAfterTheOther() throws {
        let font = try textRunFont()
        let words = ["Quarterly", " ", "report,", " ", "AVAVA", " ", "Ty", " ", "2026"]
        let line = words.joined()
        XCTAssertEqual(font.width(of: line), words.map { font.width(of: $0) }.reduce(0, +))
        let glyphs = font.glyphs(of: line)
        var pen = 0, offset = 0, k = 0
        for word in words {
            for g in font.glyphs(of: word) {
                XCTAssertEqual(glyphs[k].penX, pen + g.penX, "glyph \(k) of \(line)")
                XCTAssertEqual(glyphs[k].cluster, offset + g.cluster, "glyph \(k)'s cluster")
                k += 1
            }
            pen += font.width(of: word)
            offset += word.unicodeScalars.count
        }
        XCTAssertEqual(k, glyphs.count)
        // The same pixels from a font that never saw the words alone.
        let fresh = try textRunFont()
        XCTAssertEqual(render(fresh, line), render(font, line))
    }

    func testAFullWordCacheIsEmptiedAndTheLinesThatUseItsWordsStillDraw() throws {
        let font = try textRunFont()
        let kept = "kept words"
        let before = render(font, kept)
        for i in 0..<(PixmanFont.shapedWordCacheLimit + 10) { _ = font.width(of: "w\(i)") }
        XCTAssertLessThanOrEqual(font.words.count, PixmanFont.shapedWordCacheLimit)
        XCTAssertEqual(render(font, kept), before, "the cached line keeps its words' glyphs alive")
    }

    func testRightToLeftWordsAreCachedByDirection() throws {
        let font = try textRunFont()
        let arabic = "مرحبا بالعالم"
        let width = font.width(of: arabic)
        let shaped = font.wordShapeCount
        XCTAssertEqual(font.width(of: "بالعالم مرحبا"), width, "the same words, swapped")
        XCTAssertEqual(font.wordShapeCount, shaped, "no word shaped again")
    }
}

/// A text field's line laid out again in the same storage for each new text has exactly the caret
/// layout of the text laid out afresh.
final class EditableLineTests: XCTestCase {
    func testALineLaidOutAgainIsTheLineLaidOutAfresh() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 17)
        let line = EditableLine(font: font)
        let texts = ["Quarterly report", "", "Q", "مرحبا بالعالم", "abc مرحبا 123 def", "e\u{301}👍🏽x", "Quarterly", "",
                     "日本語のテキスト", "a"]
        for text in texts {
            line.update(text)
            let fresh = try PixmanFont(pattern: "sans-serif", pixelSize: 17)
            XCTAssertEqual(line.caret, fresh.caretLayout(of: text), "\(text)")
            XCTAssertEqual(line.caret.positions.count, text.count + 1, "\(text)")
        }
    }
}
