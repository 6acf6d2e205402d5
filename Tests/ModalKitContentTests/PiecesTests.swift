import ModalKit
import ModalKitContent
import XCTest

/// The pieces: a label's lines by alignment, a stack's frames.
final class PiecesTests: XCTestCase {
    func testLabelLinesSitAtTheParagraphsStartOrCentre() {
        let frame = Rect(x: 10, y: 5, width: 200, height: 40)
        let latin = Label("Hello", style: .body).lines(in: frame, scale: 2)
        XCTAssertEqual(latin.count, 1)
        XCTAssertEqual(latin[0].x, 20)
        let hebrew = Label("שלום עולם", style: .body).lines(in: frame, scale: 2)
        XCTAssertEqual(hebrew[0].x + hebrew[0].width, 420)
        let centred = Label("Hi", style: .body, alignment: .center).lines(in: frame, scale: 1)
        XCTAssertEqual(Double(centred[0].x) + Double(centred[0].width) / 2, 110, accuracy: 1)
        let font = TextStyle.body.font(scale: 2)!
        XCTAssertEqual(latin[0].baseline, 10 + font.ascent, "the first line's box at the frame's top")
        // Wrapping: a long text in a narrow frame makes several lines, one line height apart.
        let long = Label("one two three four five six seven", style: .body)
        let lines = long.lines(in: Rect(x: 0, y: 0, width: 60, height: 100), scale: 1)
        XCTAssertGreaterThan(lines.count, 2)
        XCTAssertEqual(long.height(fittingWidth: 60), Double(lines.count * (lines[1].baseline - lines[0].baseline)))
        XCTAssertEqual(Label("", style: .body).height(fittingWidth: 60), 0)
    }

    func testVStackPlacesPiecesWithSpacingSkippingEmptyOnes() {
        let s = VStack(spacing: 8)
        let f = s.frames(heights: [20, 0, 30], in: Rect(x: 5, y: 10, width: 100, height: 0))
        XCTAssertEqual(f[0], Rect(x: 5, y: 10, width: 100, height: 20))
        XCTAssertEqual(f[2], Rect(x: 5, y: 38, width: 100, height: 30))
        XCTAssertEqual(s.height(of: [20, 0, 30]), 58)
    }

    func testButtonNaturalWidthIsTheLabelPlusPadding() {
        let b = Button("Cancel")
        XCTAssertEqual(b.naturalWidth, Label("Cancel", style: Button.labelStyle).naturalWidth + 24)
        let e = b.accessibilityElement(identifier: "b", frame: Rect(x: 0, y: 0, width: 10, height: 10), isFocused: true)
        XCTAssertEqual(e.role, .button)
        XCTAssertTrue(e.states.contains(.focused))
    }
}
