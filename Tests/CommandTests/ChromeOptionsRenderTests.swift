// The built-in styles' 1.1 options drawn by `modal-demo render` (the window's renderer) at scale
// 1 and 2, against numbers fixed in advance: bottom-sheet's gradient dim (background unchanged at
// the top edge, × 0.8 halfway, × 0.6 at the sheet's top edge, darkening monotonically), its
// grabber (a 36×5 pt rounded bar centred 5 pt below the sheet's top edge) and inset-centered's
// soft shadow (darker than the dim alone just outside the card, the dim alone beyond blur radius +
// offset, the card's own pixels unchanged). The defaults draw exactly what they drew before.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKit

final class ChromeOptionsRenderTests: XCTestCase {
    typealias Support = PluginTestSupport

    private var dir = ""
    override func setUpWithError() throws { dir = try Support.temporaryDirectory(self, "chrome11") }

    /// `render` at 400×800 points and `scale`.
    private func render(_ style: String, _ options: [String], progress: String = "1", scale: Int) throws -> Image {
        let output = dir + "/\(style)-\(options.joined(separator: "_"))-\(progress)-\(scale).png"
        let r = try PluginCLITests.demo(["render", "--style", style] + options.flatMap { ["--style-option", $0] }
                                        + ["--size", "400x800", "--scale", "\(scale)", "--progress", progress,
                                           "--output", output])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        return try Image(pngFile: output)
    }

    private func rgb(_ image: Image, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let c = image.pixel(x: x, y: y).argbComponents
        return (c.r, c.g, c.b)
    }

    /// dim=gradient, presented at 400×800: down a column clear of the title and the button
    /// (x = 350 pt), the dim is black × 0.4 × (y / 400) above the sheet's top edge (y = 400).
    func testGradientDimDarkensFromTheTopEdgeToTheSheet() throws {
        for scale in [1, 2] {
            let background = try render("bottom-sheet", [], progress: "0", scale: scale)
            let image = try render("bottom-sheet", ["dim=gradient"], scale: scale)
            let x = 350 * scale
            func check(_ py: Int, _ factor: Double, _ what: String) {
                let b = rgb(background, x, py), g = rgb(image, x, py)
                for (got, base) in [(g.r, b.r), (g.g, b.g), (g.b, b.b)] {
                    XCTAssertEqual(Double(got), Double(base) * factor, accuracy: 2, "\(what), row \(py) at scale \(scale)")
                }
            }
            check(0, 1, "top edge: unchanged")
            check(200 * scale, 0.8, "halfway: × 0.8")
            check(400 * scale - 1, 0.6, "the sheet's top edge: × 0.6")
            // Every row: background × (1 − 0.4 × y / 400), y the row's centre in points.
            var lastAlpha = -1.0
            for py in 0..<(400 * scale) {
                let y = (Double(py) + 0.5) / Double(scale)
                check(py, 1 - 0.4 * y / 400, "row")
                // Monotonic: the dim's alpha, estimated from the brightest channel, grows every 10 pt.
                if py % (10 * scale) == 0 {
                    let b = rgb(background, x, py), g = rgb(image, x, py)
                    let alpha = 1 - Double(g.r + g.g + g.b) / Double(b.r + b.g + b.b)
                    XCTAssertGreaterThan(alpha, lastAlpha, "darker at row \(py) than 10 pt above (scale \(scale))")
                    lastAlpha = alpha
                }
            }
        }
    }

    /// dim=solid (the default) is the 1.0 picture: black 0.4 everywhere outside the sheet.
    func testDefaultBottomSheetIsUnchanged() throws {
        for scale in [1, 2] {
            let a = try render("bottom-sheet", [], scale: scale)
            let b = try render("bottom-sheet", ["dim=solid", "grabber=auto", "shadow=none"], scale: scale)
            var same = a.width == b.width && a.height == b.height
            for y in 0..<a.height where same { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { same = false } }
            XCTAssertTrue(same, "the defaults spelled out draw the same picture (scale \(scale))")
            let background = try render("bottom-sheet", [], progress: "0", scale: scale)
            for py in [0, 200 * scale, 400 * scale - 1] {
                let bg = rgb(background, 350 * scale, py), g = rgb(a, 350 * scale, py)
                XCTAssertEqual(Double(g.r), Double(bg.r) * 0.6, accuracy: 1, "solid 0.4 at row \(py)")
            }
        }
    }

    /// grabber=on: a 36×5 pt bar, x 182…218 and y 405…410 at 400×800, UIKit's grabber colour
    /// (#3C3C43 at 30 %) over the white sheet, with fully rounded ends.
    func testGrabberIsARoundedBarCentredFivePointsBelowTheSheetsTop() throws {
        // #3C3C43 × 0.3 over white: 60 × 0.3 + 255 × 0.7 = 196.5, 67 × 0.3 + 178.5 = 198.6.
        let expected = (196.5, 196.5, 198.6)
        for scale in [1, 2] {
            let image = try render("bottom-sheet", ["grabber=on"], scale: scale)
            let plain = try render("bottom-sheet", [], scale: scale)
            let s = scale
            var bar: [(Int, Int)] = []
            for py in (400 * s)..<(420 * s) {
                for px in (160 * s)..<(240 * s) where image.pixel(x: px, y: py) != plain.pixel(x: px, y: py) {
                    bar.append((px, py))
                }
            }
            let xs = bar.map(\.0), ys = bar.map(\.1)
            XCTAssertEqual(xs.min(), 182 * s, "left end (scale \(s))")
            XCTAssertEqual(xs.max(), 218 * s - 1, "right end")
            XCTAssertEqual(ys.min(), 405 * s, "5 pt below the sheet's top edge")
            XCTAssertEqual(ys.max(), 410 * s - 1, "5 pt tall")
            // The middle of the bar is the grabber colour over white.
            for (px, py) in [(200 * s, 407 * s), (190 * s, 407 * s + s / 2), (210 * s, 408 * s)] {
                let c = rgb(image, px, py)
                XCTAssertEqual(Double(c.r), expected.0, accuracy: 1.5, "(\(px),\(py))")
                XCTAssertEqual(Double(c.g), expected.1, accuracy: 1.5)
                XCTAssertEqual(Double(c.b), expected.2, accuracy: 1.5)
            }
            // Fully rounded ends (radius 2.5 pt): the end's corner pixel is lighter than its middle.
            let corner = rgb(image, 182 * s, 405 * s), endMiddle = rgb(image, 182 * s, 407 * s + s / 2)
            XCTAssertGreaterThan(corner.r, endMiddle.r + 20, "rounded: the bar's corner is mostly white")
        }
    }

    /// shadow=soft on inset-centered (card 20…380 × 110…690 pt at 400×800; the shadow black 25 %,
    /// 4 pt down, 16 pt blur): darker than the dim alone just outside the card, the dim alone from
    /// blur + offset beyond it, and the card's own pixels unchanged.
    func testSoftShadowOnlyDarkensAroundTheCard() throws {
        for scale in [1, 2] {
            let s = scale
            let plain = try render("inset-centered", [], scale: s)
            let shadowed = try render("inset-centered", ["shadow=soft"], scale: s)
            func luminance(_ image: Image, _ x: Int, _ y: Int) -> Int { let c = rgb(image, x, y); return c.r + c.g + c.b }
            // Just outside each edge: darker (the bottom edge most, the shadow being 4 pt down).
            for (x, y, edge) in [(200 * s, 690 * s + 1, "below"), (20 * s - 2, 400 * s, "left"),
                                 (380 * s + 1, 400 * s, "right"), (200 * s, 110 * s - 2, "above")] {
                XCTAssertLessThan(luminance(shadowed, x, y), luminance(plain, x, y) - 3,
                                  "darker just \(edge) the card (scale \(s))")
            }
            // Going away from the card the shadow fades: never darker further out, and the dim alone
            // from blur (16) + offset (4) beyond the edge on.
            var last = -10_000
            for py in (690 * s + 1)..<(800 * s) {
                let d = luminance(shadowed, 200 * s, py) - luminance(plain, 200 * s, py)
                XCTAssertLessThanOrEqual(d, 0, "row \(py)")
                XCTAssertGreaterThanOrEqual(d, last - 1, "fading at row \(py) (scale \(s))")
                last = max(last, d)
                if py >= (690 + 16 + 4) * s {
                    XCTAssertEqual(rgb(shadowed, 200 * s, py).r, rgb(plain, 200 * s, py).r, "dim alone at row \(py)")
                }
            }
            // Sideways the offset is 0: the dim alone from the blur radius (16 pt) left of the card.
            for px in 0..<((20 - 16) * s) {
                XCTAssertEqual(rgb(shadowed, px, 400 * s).r, rgb(plain, px, 400 * s).r, "dim alone at column \(px)")
            }
            // The card's own pixels (inside its rounded rectangle, away from the corners) are unchanged.
            var changed = 0
            for py in stride(from: 110 * s, to: 690 * s, by: 3) {
                for px in stride(from: 20 * s, to: 380 * s, by: 3) {
                    let nearCorner = (py < 120 * s || py >= 680 * s) && (px < 30 * s || px >= 370 * s)
                    if !nearCorner && shadowed.pixel(x: px, y: py) != plain.pixel(x: px, y: py) { changed += 1 }
                }
            }
            XCTAssertEqual(changed, 0, "card pixels changed by the shadow (scale \(s))")
        }
    }

    /// inset-centered background=#E8F0FE and border=#0A6CFF: the card's empty area is the
    /// background colour (the demo card then draws only its foreground), a 1 pt border runs inside
    /// its edge; by default the card is white with no border.
    func testBackgroundAndBorder() throws {
        for s in [1, 2] {
            let plain = try render("inset-centered", [], scale: s)
            let image = try render("inset-centered", ["background=#E8F0FE", "border=#0A6CFF"], scale: s)
            let y = 400 * s
            XCTAssertEqual(plain.pixel(x: 30 * s, y: y), 0xFFFF_FFFF, "white by default (scale \(s))")
            XCTAssertEqual(plain.pixel(x: 20 * s, y: y), 0xFFFF_FFFF, "no border by default")
            XCTAssertEqual(image.pixel(x: 30 * s, y: y), 0xFFE8_F0FE, "the background colour (scale \(s))")
            for px in (20 * s)..<(21 * s) {
                XCTAssertEqual(image.pixel(x: px, y: y), 0xFF0A_6CFF, "the 1 pt border at column \(px) (scale \(s))")
                XCTAssertEqual(image.pixel(x: 400 * s - 1 - px, y: y), 0xFF0A_6CFF, "and on the right")
            }
            XCTAssertEqual(image.pixel(x: 21 * s, y: y), 0xFFE8_F0FE, "inside the border: the background")
            XCTAssertEqual(image.pixel(x: 200 * s, y: 110 * s), 0xFF0A_6CFF, "the top border row")
        }
    }

    /// bottom-sheet recede=on, presented at 400×800: the view underneath is scaled 0.92 about its
    /// centre — 368×736 pt at (16, 32) — with corners rounded 10 pt, over black.
    func testRecedingPresentingView() throws {
        for s in [1, 2] {
            let image = try render("bottom-sheet", ["recede=on"], scale: s)
            let plain = try render("bottom-sheet", [], scale: s)
            for (x, y, what) in [(8, 100, "left of the receded view"), (392, 100, "right of it"), (200, 16, "above it"),
                                 (16, 32, "outside its rounded top-left corner")] {
                XCTAssertEqual(image.pixel(x: x * s, y: y * s), 0xFF00_0000, "\(what) (scale \(s))")
            }
            XCTAssertNotEqual(image.pixel(x: 26 * s, y: 42 * s), 0xFF00_0000, "inside the rounded corner")
            // Outside the receded view but in the plain picture: the presenting view, dimmed, not black.
            XCTAssertNotEqual(plain.pixel(x: 8 * s, y: 100 * s), 0xFF00_0000)
            // The sheet itself is where it was.
            XCTAssertEqual(image.pixel(x: 30 * s, y: 600 * s), plain.pixel(x: 30 * s, y: 600 * s))
        }
    }
}
