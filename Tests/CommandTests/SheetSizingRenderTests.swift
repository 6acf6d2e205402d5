// The bottom sheet sized by its content and capped in width, as `modal-demo` draws and describes
// it: `detents=fit:F` is the content's preferred height at most F of the container; on a window
// wider than 640 pt the sheet is 640 pt wide, centred (Material 3's width cap); `--describe-style`
// lists `max-width` and `scrolling-expands`; a bad `detents` value is one line and exit 2.
// Pixels from the installed release build, values from the spec.
import Foundation
import ModalKitTestHarness
import XCTest
@testable import ModalKitDemo
import ModalKit

final class SheetSizingRenderTests: XCTestCase {
    private var dir = ""
    override func setUpWithError() throws { dir = try PluginTestSupport.temporaryDirectory(self, "sheet-sizing") }

    private func render(_ arguments: [String], _ name: String) throws -> Image {
        let output = dir + "/" + name + ".png"
        let r = try PluginCLITests.demo(["render", "--style", "bottom-sheet"] + arguments + ["--output", output])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        return try Image(pngFile: output)
    }

    private func same(_ a: Image, _ b: Image) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false } }
        return true
    }

    /// 1000 × 600 at scale 1 and 2: the sheet (white, the demo card's background) spans x 180…819 pt
    /// — (1000 − 640) / 2 = 180 — and y 300…599 pt (half the height); the columns either side are
    /// the presenting view under black 0.4. `max-width=0` is the full width again.
    func testOnAWideWindowTheSheetIs640PointsWideCentred() throws {
        for s in [1, 2] {
            let size = ["--size", "1000x600", "--scale", String(s)]
            let shown = try render(size + ["--progress", "1"], "capped-\(s)")
            let bare = try render(size + ["--progress", "0"], "bare-\(s)")
            XCTAssertEqual(shown.width, 1000 * s)
            let y = 450 * s
            XCTAssertEqual(shown.pixel(x: 180 * s, y: y), 0xFFFF_FFFF, "left edge at 180 pt")
            XCTAssertEqual(shown.pixel(x: 820 * s - 1, y: y), 0xFFFF_FFFF, "right edge at 820 pt")
            for x in [180 * s - 1, 820 * s, 0, 1000 * s - 1] {
                let got = shown.pixel(x: x, y: y).argbComponents, base = bare.pixel(x: x, y: y).argbComponents
                XCTAssertEqual(Double(got.g), Double(base.g) * 0.6, accuracy: 1, "outside the sheet: black 0.4 at x \(x)")
            }
            // Its top edge: 12 pt in from its left edge (clear of the 10 pt corner, inside the
            // card's 16 pt padding) white from y 300 pt to the bottom, dim above.
            let column = 192 * s
            XCTAssertEqual(shown.pixel(x: column, y: 300 * s), 0xFFFF_FFFF)
            XCTAssertEqual(shown.pixel(x: column, y: 600 * s - 1), 0xFFFF_FFFF)
            XCTAssertNotEqual(shown.pixel(x: column, y: 300 * s - 1), 0xFFFF_FFFF)
        }
        let full = try render(["--size", "1000x600", "--progress", "1", "--style-option", "max-width=0"], "uncapped")
        XCTAssertEqual(full.pixel(x: 5, y: 450), 0xFFFF_FFFF, "no cap: from the window's left edge")
        XCTAssertEqual(full.pixel(x: 994, y: 450), 0xFFFF_FFFF)
    }

    /// The list prefers 40 × 44 = 1760 pt: `fit:0.9` in 400 × 800 is capped at 720 pt — the same
    /// picture as `detents=0.9` — and `fit` in 400 × 2000 is the whole 1760 pt, as `detents=1760`.
    func testTheListSheetIsItsPreferredHeightCapped() throws {
        let list = ["--content", "list", "--progress", "1"]
        let fit = try render(list + ["--size", "400x800", "--style-option", "detents=fit:0.9"], "list-fit")
        let fixed = try render(list + ["--size", "400x800", "--style-option", "detents=0.9"], "list-fixed")
        XCTAssertTrue(same(fit, fixed), "fit:0.9 of a 1760 pt list in 800 pt is 720 pt")
        let tall = try render(list + ["--size", "400x2000", "--style-option", "detents=fit"], "list-tall")
        let tallFixed = try render(list + ["--size", "400x2000", "--style-option", "detents=1760"], "list-tall-fixed")
        XCTAssertTrue(same(tall, tallFixed), "fit of a 1760 pt list in 2000 pt is 1760 pt")
        XCTAssertFalse(same(tall, try render(list + ["--size", "400x2000", "--style-option", "detents=1"], "list-whole")),
                       "not the whole container")
    }

    /// The demo card prefers its title, wrapped body and buttons at the sheet's width: with `fit`
    /// the sheet is that tall (the same picture as `detents=H`), its top edge at 800 − H.
    func testTheCardSheetIsItsPreferredHeight() throws {
        let h = DemoLook.cardPreferredSize(width: 400, fonts: try FontSet(scale: 1)).height
        XCTAssertLessThan(h, 720)
        let fit = try render(["--size", "400x800", "--progress", "1", "--style-option", "detents=fit:0.9"], "card-fit")
        let fixed = try render(["--size", "400x800", "--progress", "1", "--style-option", "detents=\(Int(h))"], "card-fixed")
        XCTAssertTrue(same(fit, fixed), "the card's preferred height \(h) pt")
        XCTAssertEqual(fit.pixel(x: 12, y: 800 - Int(h)), 0xFFFF_FFFF, "top edge at 800 − \(h)")
        XCTAssertNotEqual(fit.pixel(x: 12, y: 800 - Int(h) - 1), 0xFFFF_FFFF)
    }

    func testDescribeStyleListsTheWidthCapAndTheScrollOption() throws {
        let r = try PluginCLITests.demo(["--describe-style", "bottom-sheet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let maxWidth = try XCTUnwrap(lines.first { $0.contains("max-width") }, r.stdout)
        XCTAssertTrue(maxWidth.contains("640"), maxWidth)
        let scrolling = try XCTUnwrap(lines.first { $0.contains("scrolling-expands") }, r.stdout)
        XCTAssertTrue(scrolling.contains("true"), scrolling)
        XCTAssertTrue(r.stdout.contains("fit:SIZE"), "detents= documents its fit value: \(r.stdout)")
    }

    /// A `detents` value that is neither a size nor `fit[:SIZE]`: exit 2, one stderr line naming it.
    func testABadDetentsValueIsOneLine() throws {
        for value in ["fit:abc", "fit:0", "fits", "fit:,0.9"] {
            let r = try PluginCLITests.demo(["render", "--style", "bottom-sheet", "--style-option", "detents=\(value)",
                                             "--size", "100x100", "--progress", "1", "--output", dir + "/bad.png"])
            XCTAssertEqual(r.status, 2, "\(value): \(r.stderr)")
            XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("'detents'") && r.stderr.contains("fit:SIZE"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/bad.png"))
        }
    }
}
