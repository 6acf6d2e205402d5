import CModalKitPixman
@testable import ModalKitText
import XCTest

/// A text fitted to a width and then drawn as it is (a label that fits: the demo's title, button
/// and hint at every first frame) is shaped once, and draws the same pixels as a text never measured.
final class ShapeOnceTests: XCTestCase {
    private func render(_ font: PixmanFont, _ text: String) -> [UInt32] {
        let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, 300, 40, nil, 0)!
        defer { pixman_image_unref(image) }
        font.draw(text, into: image, x: 4, baseline: 30, color: Color(argb32: 0xFF20_2020))
        let data = pixman_image_get_data(image)!
        return Array(UnsafeBufferPointer(start: data, count: 300 * 40))
    }

    func testATextThatFitsIsShapedOnceToMeasureAndDraw() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 17)
        let text = "Present a modal"
        XCTAssertEqual(font.truncated(text, toWidth: 1000), text)
        XCTAssertEqual(font.shapeCount, 1)
        let drawn = render(font, text)
        XCTAssertEqual(font.shapeCount, 1, "the draw used the line truncated(_:toWidth:) shaped")
        XCTAssertEqual(font.truncated(text, toWidth: 1000), text)
        XCTAssertEqual(render(font, text), drawn)
        XCTAssertEqual(font.shapeCount, 1, "then the cache")

        let fresh = try PixmanFont(pattern: "sans-serif", pixelSize: 17)
        XCTAssertEqual(render(fresh, text), drawn, "the same pixels as a text drawn without measuring")
        XCTAssertTrue(drawn.contains { $0 != 0 }, "something was drawn")
    }

    func testOnlyTheLastMeasuredLineIsKept() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 17)
        XCTAssertEqual(font.width(of: "Close"), font.width(of: "Close"))
        XCTAssertEqual(font.shapeCount, 1)
        _ = font.truncated("first", toWidth: 1000)
        _ = font.truncated("second", toWidth: 1000)
        XCTAssertEqual(font.shapeCount, 3)
        _ = render(font, "first")
        XCTAssertEqual(font.shapeCount, 4, "measured before another: shaped again to draw")
        _ = render(font, "second")
        XCTAssertEqual(font.shapeCount, 4, "still the line measured last")
        _ = render(font, "second")
        XCTAssertEqual(font.shapeCount, 4, "then the cache")
        let cut = font.truncated("a sentence far wider than the width", toWidth: 60)
        XCTAssertTrue(cut.hasSuffix("…"), cut)
        let before = font.shapeCount
        _ = render(font, cut)
        XCTAssertEqual(font.shapeCount, before, "the fitted candidate measured last is the one drawn")
    }
}
