// What an app imports to draw its content (ModalKitWayland, and ModalKitText for text) is enough to
// draw text in a colour: every type the calls below take is one those two modules export, so this
// file imports no C module (a `pixman_color_t` parameter would fail to compile here).
import ModalKitText
import ModalKitWayland
import XCTest

final class AppTextColourTests: XCTestCase {
    /// A vertical bar drawn in opaque red over white: its inner pixels are the colour asked for,
    /// premultiplied ARGB 0xFFFF0000 (a fully covered glyph pixel is the solid colour, pixman OVER).
    func testTextDrawsInAColourWithTheAppModulesAlone() throws {
        let image = try Image(width: 60, height: 60)
        Draw.fill(image.pixmanImage, width: image.width, height: image.height, color: .white)
        let font = try PixmanFont(pattern: "DejaVu Sans", pixelSize: 48)
        let red = Color(red: 1, green: 0, blue: 0)
        font.draw("l", into: image.pixmanImage, x: 20, baseline: 50, color: red)
        var colours = Set<UInt32>()
        for y in 0..<image.height { for x in 0..<image.width { colours.insert(image.pixel(x: x, y: y)) } }
        XCTAssertTrue(colours.contains(0xFFFF_0000), "a covered pixel is the text's colour")
        XCTAssertTrue(colours.contains(0xFFFF_FFFF), "the background stays white")
        XCTAssertTrue(colours.allSatisfy { $0 >> 24 == 0xFF && $0 & 0xFF == ($0 >> 8) & 0xFF },
                      "every pixel is white, red or a blend of the two (green = blue)")
    }
}
