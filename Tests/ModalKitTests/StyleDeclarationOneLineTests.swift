import ModalKit
import XCTest

/// A declaration as a host reads it back (`StyleDeclaration.normalized`): every newline
/// (`Character.isNewline`: LF, VT, FF, CR, CR LF, NEL U+0085, LINE SEPARATOR U+2028, PARAGRAPH
/// SEPARATOR U+2029) and every tab becomes one space, each character of any other text stays as it is.
final class StyleDeclarationOneLineTests: XCTestCase {
    private func normalized(summary: String) -> String {
        StyleDeclaration(name: "n", summary: summary, abiVersion: .current, options: []).normalized.summary
    }

    func testEveryNewlineAndTabBecomesOneSpace() {
        XCTAssertEqual(normalized(summary: "a\nb"), "a b")
        XCTAssertEqual(normalized(summary: "a\r\nb"), "a b", "CR LF is one character, so one space")
        XCTAssertEqual(normalized(summary: "a\rb\u{0B}c\u{0C}d"), "a b c d")
        XCTAssertEqual(normalized(summary: "a\tb"), "a b")
        XCTAssertEqual(normalized(summary: "a\u{85}b\u{2028}c\u{2029}d"), "a b c d")
        XCTAssertEqual(normalized(summary: "\n"), " ")
        XCTAssertEqual(normalized(summary: "é\ne\u{301}\t😀"), "é e\u{301} 😀")
    }

    func testTextWithoutThemIsKeptAsItIs() {
        for text in ["", "a card centred over a dimmed window", "naïve café — “quoted” ‘text’…", "e\u{301}", "\u{2027}\u{202A}",
                     "👩‍👩‍👧", "עברית", "\u{C2}\u{E2}", " "] {
            let out = normalized(summary: text)
            XCTAssertEqual(Array(out.unicodeScalars), Array(text.unicodeScalars), "\(text.debugDescription)")
        }
    }

    func testOptionFieldsAreCleanedToo() {
        let option = StyleOption(key: "k", summary: "first\nsecond", defaultValue: "a", unit: "po\tints",
                                 accepted: .choice(["a", "b\u{2028}c"]))
        let text = StyleOption(key: "t", summary: "s", defaultValue: "", unit: "", accepted: .text("any\r\ntext"))
        let d = StyleDeclaration(name: "n", summary: "s", abiVersion: .current, options: [option, text]).normalized
        XCTAssertEqual(d.options[0].summary, "first second")
        XCTAssertEqual(d.options[0].unit, "po ints")
        XCTAssertEqual(d.options[0].accepted, .choice(["a", "b c"]))
        XCTAssertEqual(d.options[1].accepted, .text("any text"))
    }
}
