// Stacks drawn by `modal-demo render` with several --style (the window's renderer and the built
// plugins): two dims where both cover the background, and a covered card receding under a level
// whose style declares the "presenting view while covered" look (bottom-sheet recede=on: 0.92
// about the centre at progress 1), while the presenting view under level 1 stays as it is.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKit

final class StackRenderTests: XCTestCase {
    typealias Support = PluginTestSupport

    private var dir = ""
    override func setUpWithError() throws { dir = try Support.temporaryDirectory(self, "stackrender") }

    /// `render` of `levels` (each a style and its options) at 400×800 points, scale 1.
    private func render(_ levels: [(String, [String])], progress: String = "1") throws -> Image {
        let output = dir + "/\(levels.count)-\(progress)-\(levels.map { $0.0 + $0.1.joined() }.joined(separator: "_")).png"
        var args = ["render"]
        for (style, options) in levels { args += ["--style", style] + options.flatMap { ["--style-option", $0] } }
        let r = try PluginCLITests.demo(args + ["--size", "400x800", "--progress", progress, "--output", output])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        return try Image(pngFile: output)
    }

    private func check(_ image: Image, _ x: Int, _ y: Int, _ expected: (Int, Int, Int), _ what: String,
                       file: StaticString = #filePath, line: UInt = #line) {
        let c = image.pixel(x: x, y: y).argbComponents
        XCTAssert(abs(c.r - expected.0) <= 2 && abs(c.g - expected.1) <= 2 && abs(c.b - expected.2) <= 2,
                  "\(what): (\(x), \(y)) is \(c.r),\(c.g),\(c.b), expected \(expected) ±2", file: file, line: line)
    }

    private func times(_ image: Image, _ x: Int, _ y: Int, _ f: Double) -> (Int, Int, Int) {
        let c = image.pixel(x: x, y: y).argbComponents
        return (Int((Double(c.r) * f).rounded()), Int((Double(c.g) * f).rounded()), Int((Double(c.b) * f).rounded()))
    }

    /// inset-centered (card 20…380 × 110…690, dim 0.5), then bottom-sheet (400 × 400 at y 400,
    /// dim 0.4) over it: background × 0.5 × 0.6 outside both, the card × 0.6 above the sheet.
    func testTwoLevelsTwoDims() throws {
        let background = try render([("inset-centered", [])], progress: "0")
        let image = try render([("inset-centered", []), ("bottom-sheet", [])])
        for (x, y) in [(5, 5), (200, 60), (10, 300), (395, 380)] {
            check(image, x, y, times(background, x, y, 0.5 * 0.6), "both dims over the background")
        }
        check(image, 200, 300, (153, 153, 153), "card 1's white under the second dim")
        check(image, 200, 600, (255, 255, 255), "the sheet")
        check(image, 25, 300, (153, 153, 153), "card 1's left edge at x = 20")
    }

    /// The adaptive plugin at progress 1: at 400×800 the sheet (full width, the bottom half, top
    /// corners radius 12, square bottom corners); at 1000×700 the card centred, 560 wide
    /// (220…780) and 0.6 × 700 = 420 tall (140…560), all corners radius 12; black dim 0.4.
    func testAdaptiveOnBothSidesOfTheBreakpoint() throws {
        func adaptive(_ size: String, progress: String = "1") throws -> Image {
            let output = dir + "/adaptive-\(size)-\(progress).png"
            let r = try PluginCLITests.demo(["render", "--style", "adaptive", "--size", size, "--progress", progress,
                                             "--output", output])
            XCTAssertEqual(r.status, 0, r.stderr)
            return try Image(pngFile: output)
        }
        let white = (255, 255, 255)
        let sheetBackground = try adaptive("400x800", progress: "0"), sheet = try adaptive("400x800")
        check(sheet, 200, 402, white, "the sheet's top edge at y = 400")
        check(sheet, 200, 397, times(sheetBackground, 200, 397, 0.6), "the dim above it")
        check(sheet, 0, 799, white, "square bottom-left corner")
        check(sheet, 399, 500, white, "full width")
        check(sheet, 1, 401, times(sheetBackground, 1, 401, 0.6), "top-left corner cut (radius 12)")
        let cardBackground = try adaptive("1000x700", progress: "0"), card = try adaptive("1000x700")
        check(card, 222, 350, white, "the card's left edge at x = 220")
        check(card, 217, 350, times(cardBackground, 217, 350, 0.6), "left of it")
        check(card, 777, 350, white, "the card's right edge at x = 780")
        check(card, 783, 350, times(cardBackground, 783, 350, 0.6), "right of it")
        check(card, 500, 142, white, "top edge y = 140")
        check(card, 500, 137, times(cardBackground, 500, 137, 0.6), "above it")
        check(card, 500, 557, white, "bottom edge y = 560")
        check(card, 500, 563, times(cardBackground, 500, 563, 0.6), "below it")
        check(card, 221, 558, times(cardBackground, 221, 558, 0.6), "bottom-left corner cut (radius 12)")
    }

    /// With recede=on on level 2, card 1 (centre 200, 400) shrinks to 0.92: 34.4…365.6 ×
    /// 133.2…666.8 at progress 1, and to 0.96 (27.2…372.8) half-way; the presenting view under
    /// level 1 is not shrunk (its corner pixel is the dimmed background, not black).
    func testACoveredCardRecedesUnderARecedingLevel() throws {
        let background = try render([("inset-centered", [])], progress: "0")
        let image = try render([("inset-centered", []), ("bottom-sheet", ["recede=on"])])
        check(image, 30, 300, times(background, 30, 300, 0.5 * 0.6), "x = 30: outside the receded card")
        check(image, 38, 300, (153, 153, 153), "x = 38: inside the receded card")
        check(image, 370, 300, times(background, 370, 300, 0.5 * 0.6), "x = 370: outside on the right")
        check(image, 200, 128, times(background, 200, 128, 0.5 * 0.6), "y = 128: above the receded card")
        check(image, 200, 140, (153, 153, 153), "y = 140: inside its top edge")
        check(image, 1, 1, times(background, 1, 1, 0.5 * 0.6), "the presenting view is not receded (no black corner)")
        let half = try render([("inset-centered", []), ("bottom-sheet", ["recede=on"])], progress: "0.5")
        // progress 0.5 of the ease-in-out curve is 0.5: scale 0.96, dim 2 at 0.2.
        check(half, 24, 300, times(background, 24, 300, 0.5 * 0.8), "x = 24: outside the card at 0.96")
        check(half, 31, 300, (204, 204, 204), "x = 31: inside the card at 0.96, white × 0.8")
    }
}
