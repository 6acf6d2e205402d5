import ModalKitHostFuzzSupport
import XCTest
@testable import ModalKitDemo
import ModalKit

/// The render path at a fractional scale (a compositor's fractional scale, e.g. 1.5 = 180/120):
/// buffer pixels = points × scale, the container rounded halfway away from zero, each view's
/// position and size rounded the same way, fonts at round(points × scale) pixels. The inset-centered
/// numbers are the style's (frame x = 20, y = 110, W − 40 × H − 220 points, radius 10, black dim
/// 0 → 0.5), the bottom-sheet's (top at H/2, black dim 0 → 0.4).
final class FractionalScaleRenderingTests: XCTestCase {
    private let duration = 0.35

    private func scene(_ style: BuiltinStyle, _ w: Int, _ h: Int, scale: Double) throws -> DemoScene {
        let scene = try DemoScene(style: try style.make())
        scene.layout(containerSize: Size(width: Double(w), height: Double(h)), scale: scale)
        return scene
    }

    private func newImage(_ scene: DemoScene) throws -> Image {
        try Image(width: scene.pixelSize.width, height: scene.pixelSize.height)
    }

    /// The presenting view alone at that size and scale (a fresh scene, nothing presented).
    private func unpresented(_ style: BuiltinStyle, _ w: Int, _ h: Int, scale: Double) throws -> Image {
        let s = try scene(style, w, h, scale: scale)
        let img = try newImage(s)
        s.render(into: img.pixelBuffer, now: 0, bufferAge: 0)
        return img
    }

    /// Presents at 0 and renders the live frame at `t`.
    private func live(_ scene: DemoScene, at t: Double) throws -> Image {
        let img = try newImage(scene)
        scene.render(into: img.pixelBuffer, now: 0, bufferAge: 0)
        scene.present(now: 0)
        scene.render(into: img.pixelBuffer, now: t, bufferAge: 1)
        return img
    }

    private func isCard(_ p: UInt32) -> Bool { channelsClose(p, cardWhite, tolerance: 2) }
    private func firstCardColumn(_ img: Image, y: Int) -> Int? { (0..<img.width).first { isCard(img.pixel(x: $0, y: y)) } }
    private func lastCardColumn(_ img: Image, y: Int) -> Int? {
        (0..<img.width).reversed().first { isCard(img.pixel(x: $0, y: y)) }
    }
    private func firstCardRow(_ img: Image, x: Int) -> Int? { (0..<img.height).first { isCard(img.pixel(x: x, y: $0)) } }
    private func lastCardRow(_ img: Image, x: Int) -> Int? {
        (0..<img.height).reversed().first { isCard(img.pixel(x: x, y: $0)) }
    }

    /// Every pixel where `outside` holds is the presenting pixel × `factor` (±2: rounding of the
    /// OVER of black at 1 − factor).
    private func assertDimmed(_ img: Image, base: Image, factor: Double, _ what: String,
                              outside: (Int, Int) -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        var bad = 0, checked = 0, first = ""
        for y in 0..<img.height {
            for x in 0..<img.width where outside(x, y) {
                checked += 1
                let want = scaledPixel(base.pixel(x: x, y: y), by: factor), got = img.pixel(x: x, y: y)
                if !channelsClose(got, want, tolerance: 2) {
                    if bad == 0 { first = "(\(x),\(y)) \(hex(got)) want \(hex(want))" }
                    bad += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 0, what, file: file, line: line)
        XCTAssertEqual(bad, 0, "\(what): \(bad) of \(checked) not presenting × \(factor); first \(first)", file: file, line: line)
    }

    // MARK: sizes

    func testPixelLengthRoundsHalvesAwayFromZero() {
        XCTAssertEqual(pixelLength(100, scale: 1.5), 150)
        XCTAssertEqual(pixelLength(101, scale: 1.5), 152)    // 151.5
        XCTAssertEqual(pixelLength(401, scale: 1.25), 501)   // 501.25
        XCTAssertEqual(pixelLength(402, scale: 1.25), 503)   // 502.5
        XCTAssertEqual(pixelLength(5, scale: 132.0 / 120), 6) // 5.5, with 1.1 inexact in binary
        XCTAssertEqual(pixelLength(3, scale: 0.5), 2)        // 1.5
        XCTAssertEqual(pixelLength(1, scale: 0.5), 1)        // 0.5
        for s in 1...8 { XCTAssertEqual(pixelLength(777, scale: Double(s)), 777 * s) }
    }

    func testTheSceneDrawsRoundedContainerSizes() throws {
        XCTAssertTrue(try scene(.insetCentered, 400, 800, scale: 1.5).pixelSize == (600, 1200))
        XCTAssertTrue(try scene(.insetCentered, 401, 301, scale: 1.5).pixelSize == (602, 452))
        XCTAssertTrue(try scene(.insetCentered, 401, 301, scale: 1.25).pixelSize == (501, 376))   // 376.25
        XCTAssertTrue(try scene(.insetCentered, 401, 301, scale: 2).pixelSize == (802, 602))
        // Not a scale: 1.
        XCTAssertEqual(try scene(.insetCentered, 10, 10, scale: 0).scale, 1)
        XCTAssertEqual(try scene(.insetCentered, 10, 10, scale: .nan).scale, 1)
    }

    // MARK: inset-centered at 1.5

    func testInsetCenteredPresentedAtOneAndAHalf() throws {
        // (W, H) points → card edges in pixels: x = 20 × 1.5 = 30, y = 110 × 1.5 = 165; right and
        // bottom = 30 + round((W − 40) × 1.5), 165 + round((H − 220) × 1.5), halves away from zero.
        for (w, h, right, bottom) in [(400, 800, 570, 1035), (401, 601, 572, 737)] {
            let what = "inset \(w)x\(h)@1.5"
            let s = try scene(.insetCentered, w, h, scale: 1.5)
            let base = try unpresented(.insetCentered, w, h, scale: 1.5)
            let img = try live(s, at: duration)
            XCTAssertEqual(s.state, .presented, what)
            let midY = (165 + bottom) / 2 + 40   // below the label, inside the card
            let col = 60                         // right of the rounded corner (15 px)
            XCTAssertEqual(firstCardColumn(img, y: midY), 30, what)
            XCTAssertEqual(lastCardColumn(img, y: midY).map { $0 + 1 }, right, what)
            XCTAssertEqual(firstCardRow(img, x: col), 165, what)
            XCTAssertEqual(lastCardRow(img, x: col).map { $0 + 1 }, bottom, what)

            // Radius 10 pt = 15 px: the corner pixel is cut (dim over the presenting view), the
            // top edge 15 px in from the corner is card.
            for (x, y) in [(30, 165), (31, 166), (right - 1, 165), (30, bottom - 1), (right - 2, bottom - 2)] {
                XCTAssertPixel(img.pixel(x: x, y: y), scaledPixel(base.pixel(x: x, y: y), by: 0.5), "\(what) corner (\(x),\(y))")
            }
            XCTAssertTrue(isCard(img.pixel(x: 45, y: 165)), "\(what): the top edge past the corner")
            XCTAssertTrue(isCard(img.pixel(x: 30, y: 180)), "\(what): the left edge past the corner")

            // The dim: black at 0.5 over the presenting view, everywhere outside the card.
            let card = PixelRect(x: 30, y: 165, width: right - 30, height: bottom - 165)
            assertDimmed(img, base: base, factor: 0.5, what) { !card.contains(x: $0, y: $1) }
        }
    }

    func testInsetCenteredHalfwayAtOneAndAHalf() throws {
        let s = try scene(.insetCentered, 400, 800, scale: 1.5)
        let base = try unpresented(.insetCentered, 400, 800, scale: 1.5)
        let img = try live(s, at: duration / 2)   // linear 0.5 → eased 0.5
        XCTAssertEqual(s.state, .presenting)
        // Card top at (H + 110) / 2 = 455 pt → 682.5 px → 683 (half away from zero).
        XCTAssertEqual(firstCardRow(img, x: 60), 683)
        XCTAssertEqual(firstCardColumn(img, y: 683 + 30), 30)
        // Dim alpha 0.5 × 0.5 = 0.25: presenting × 0.75 outside the card.
        let card = PixelRect(x: 30, y: 683, width: 540, height: 1200 - 683)
        assertDimmed(img, base: base, factor: 0.75, "inset@1.5 at 0.5") { !card.contains(x: $0, y: $1) }
    }

    // MARK: bottom-sheet at 1.5

    func testBottomSheetPresentedAtOneAndAHalf() throws {
        let s = try scene(.bottomSheet, 400, 800, scale: 1.5)
        let base = try unpresented(.bottomSheet, 400, 800, scale: 1.5)
        let img = try newImage(s)
        s.renderSnapshot(into: img.pixelBuffer, phase: .present, fraction: 1)
        // Top at H/2 = 400 pt = 600 px, full width 600 px, bottom corners square.
        XCTAssertEqual(firstCardRow(img, x: 60), 600)
        XCTAssertEqual(firstCardColumn(img, y: 630), 0)
        XCTAssertEqual(lastCardColumn(img, y: 630), 599)
        XCTAssertTrue(isCard(img.pixel(x: 0, y: 1199)))
        XCTAssertTrue(isCard(img.pixel(x: 599, y: 1199)))
        XCTAssertPixel(img.pixel(x: 0, y: 600), scaledPixel(base.pixel(x: 0, y: 600), by: 0.6), "top-left corner cut")
        // Dim black 0.4 above the sheet: presenting × 0.6.
        assertDimmed(img, base: base, factor: 0.6, "sheet@1.5") { _, y in y < 600 }
    }

    // MARK: the presenting view and text at 1.5

    func testButtonEdgesAreWholePixels() throws {
        // 401 × 601 points: the button (176 × 50) is centred and its origin rounded in points:
        // x = round(200.5 − 88) = 113, y = round(300.5 − 25) = 276; at 1.5 its edges are
        // 169.5 → 170, 433.5 → 434 (x) and 414, 489 (y): whole pixels, fully accent-coloured.
        let base = try unpresented(.insetCentered, 401, 601, scale: 1.5)
        let accent: UInt32 = 0xFF0A_6CFF
        let midRow = 451   // (414 + 489) / 2, away from the rounded corners (12 pt = 18 px)
        XCTAssertPixel(base.pixel(x: 170, y: midRow), accent, tolerance: 0, "left edge column")
        XCTAssertPixel(base.pixel(x: 433, y: midRow), accent, tolerance: 0, "right edge column")
        XCTAssertFalse(channelsClose(base.pixel(x: 169, y: midRow), accent, tolerance: 40), "left of the button")
        XCTAssertFalse(channelsClose(base.pixel(x: 434, y: midRow), accent, tolerance: 40), "right of the button")
        XCTAssertPixel(base.pixel(x: 200, y: 414), accent, tolerance: 0, "top edge row")
        XCTAssertPixel(base.pixel(x: 200, y: 488), accent, tolerance: 0, "bottom edge row")
    }

    /// The Present button pressed and then dragged off (its shadow back): the area the presenting
    /// view declares changed covers its shadow at every scale — the shadow reaches 9 pt below the
    /// button (6 pt grown, 3 pt down) and the button's edges snap to whole pixels — so the frame
    /// drawn with that damage into the previous buffer equals the frame painted whole.
    func testThePresentButtonsLookChangeIsDamagedWholeAtEveryScale() throws {
        for (w, h, scale) in [(400, 600, 1.5), (400, 600, 1.25), (400, 600, 1.75), (49, 139, 0.5), (400, 600, 2.0)] {
            let s = try scene(.insetCentered, w, h, scale: scale)
            let reused = try newImage(s), whole = try newImage(s)
            let button = s.buttonFrame
            s.handle(.pointerMotion(Point(x: button.midX, y: button.midY)), now: 0)
            s.handle(.pointerButton(pressed: true), now: 0)
            s.render(into: reused.pixelBuffer, now: 0, bufferAge: 0)
            s.handle(.pointerMotion(Point(x: button.midX, y: button.maxY + 40)), now: 0.1)  // off: not pressed
            s.render(into: reused.pixelBuffer, now: 0.1, bufferAge: 1)
            s.render(into: whole.pixelBuffer, now: 0.1, bufferAge: 0)
            var differ = 0
            var first: (Int, Int)?
            for y in 0..<reused.height {
                for x in 0..<reused.width where reused.pixel(x: x, y: y) != whole.pixel(x: x, y: y) {
                    differ += 1
                    if first == nil { first = (x, y) }
                }
            }
            XCTAssertEqual(differ, 0, "\(w)x\(h) at \(scale): first at \(String(describing: first))")
        }
    }

    func testFontPixelSizesAreRoundedPointsTimesScale() throws {
        // Title 34, body 15, button 17, caption 13, label 20 pt.
        let fonts = try FontSet(scale: 1.5)
        XCTAssertEqual([34, 15, 17, 13, 20].map { fonts.pixelSize(points: $0) }, [51, 23, 26, 20, 30])
        let whole = try FontSet(scale: 2)
        XCTAssertEqual([34, 15, 17, 13, 20].map { whole.pixelSize(points: $0) }, [68, 30, 34, 26, 40])
    }

    /// The card's title ("A modal card", the 20 pt label font) is drawn at 30 px at 1.5: its ink is
    /// 1.5 times as tall as at scale 1 (20 px) and three quarters of scale 2 (40 px), within a pixel
    /// of glyph rounding. The title sits 16 pt inside the card's top-left corner (inset-centered in
    /// 400 × 800: the card's top is y = 110 pt), the body line starts 22 pt below its baseline, so
    /// the rows from the card's top to the title's baseline hold the title's ink only.
    func testTheLabelIsDrawnAtTheScaledSize() throws {
        func inkHeight(scale: Double) throws -> Int {
            let s = try scene(.insetCentered, 400, 800, scale: scale)
            let img = try newImage(s)
            s.renderSnapshot(into: img.pixelBuffer, phase: .present, fraction: 1)
            let baseline = Int((110 * scale).rounded()) + Int((16 * scale).rounded()) + (try FontSet(scale: scale)).label.ascent
            // Dark text on the white card: rows between the card's top and the title's baseline holding a dark pixel.
            let x0 = Int(40 * scale), x1 = Int(360 * scale), y0 = Int(112 * scale), y1 = baseline + 1
            let rows = (y0..<y1).filter { y in
                (x0..<x1).contains { x in (img.pixel(x: x, y: y) >> 8) & 0xff < 0x80 }
            }
            return rows.count
        }
        let h1 = try inkHeight(scale: 1), h15 = try inkHeight(scale: 1.5), h2 = try inkHeight(scale: 2)
        XCTAssertGreaterThan(h1, 5, "the title is drawn")
        XCTAssertEqual(Double(h15), Double(h1) * 1.5, accuracy: 1.5, "ink \(h1) → \(h15)")
        XCTAssertEqual(Double(h15), Double(h2) * 0.75, accuracy: 1.5, "ink \(h2) → \(h15)")
    }

    // MARK: the window and render agree

    /// What `render` draws (a snapshot) is what the window shows once the transition has ended,
    /// pixel for pixel, at 1.5 as at whole scales.
    func testSnapshotEqualsTheLiveFrameAtOneAndAHalf() throws {
        for style in BuiltinStyle.allCases {
            let live = try self.live(try scene(style, 401, 601, scale: 1.5), at: duration)
            let s = try scene(style, 401, 601, scale: 1.5)
            let snap = try newImage(s)
            s.renderSnapshot(into: snap.pixelBuffer, phase: .present, fraction: 1)
            var differ = 0
            for y in 0..<snap.height { for x in 0..<snap.width where snap.pixel(x: x, y: y) != live.pixel(x: x, y: y) { differ += 1 } }
            XCTAssertEqual(differ, 0, "\(style.rawValue): snapshot vs live at 1.5")
        }
    }
}
