import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// The built-in styles, pixel by pixel, with the numbers of docs/design.md: frames in points ×
/// scale, dim factors (1 − dim alpha × progress) against an unpresented render of the same scene.
final class PixelAcceptanceTests: XCTestCase {
    static let sizes = [(400, 800), (1000, 600)]
    static let scales = [1, 2]
    /// The default duration (docs/design.md) — the live path is driven with real times.
    static let duration = 0.35

    // MARK: helpers

    private func isCard(_ p: UInt32) -> Bool { channelsClose(p, cardWhite, tolerance: 2) }

    /// First row (scanning down from `from`) in column `x` whose pixel is card white.
    private func firstCardRow(_ img: Image, x: Int, from: Int = 0) -> Int? {
        (from..<img.height).first { isCard(img.pixel(x: x, y: $0)) }
    }
    private func lastCardRow(_ img: Image, x: Int) -> Int? {
        (0..<img.height).reversed().first { isCard(img.pixel(x: x, y: $0)) }
    }
    private func firstCardColumn(_ img: Image, y: Int) -> Int? {
        (0..<img.width).first { isCard(img.pixel(x: $0, y: y)) }
    }
    private func lastCardColumn(_ img: Image, y: Int) -> Int? {
        (0..<img.width).reversed().first { isCard(img.pixel(x: $0, y: y)) }
    }

    /// Every pixel for which `outside(x, y)` holds equals the presenting pixel × `factor` (±2).
    private func assertDimmed(_ img: Image, base: Image, factor: Double, _ what: String,
                              outside: (Int, Int) -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        var bad = 0, checked = 0
        var first = ""
        for y in 0..<img.height {
            for x in 0..<img.width where outside(x, y) {
                checked += 1
                let want = scaledPixel(base.pixel(x: x, y: y), by: factor)
                let got = img.pixel(x: x, y: y)
                if !channelsClose(got, want, tolerance: 2) {
                    if bad == 0 { first = "(\(x),\(y)) \(hex(got)) want \(hex(want))" }
                    bad += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 0, what, file: file, line: line)
        XCTAssertEqual(bad, 0, "\(what): \(bad) of \(checked) pixels not presenting × \(factor); first \(first)",
                       file: file, line: line)
    }

    /// Presents at t = 0 and renders the live frame at `t`.
    private func live(_ f: SceneFixture, at t: Double) throws -> Image {
        let img = try f.newImage()
        f.scene.present(now: 0)
        _ = f.render(now: t, into: img)
        return img
    }

    // MARK: inset-centered

    func testInsetCenteredPresentedFrameCornersAndDim() throws {
        for (w, h) in Self.sizes {
            for s in Self.scales {
                let what = "inset \(w)x\(h)@\(s)"
                let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: w, height: h, scale: s)
                let base = try f.unpresented()
                let img = try live(f, at: Self.duration)
                XCTAssertEqual(f.scene.state, .presented, what)

                // Edges at x = 20, W − 20, y = 110, H − 110 points (±1 px).
                let midY = h / 2 * s + 30 * s  // below the label's line, well inside the card
                let col = 40 * s               // right of the rounded corner
                XCTAssertEqual(Double(firstCardColumn(img, y: midY) ?? -99), Double(20 * s), accuracy: 1, what)
                XCTAssertEqual(Double((lastCardColumn(img, y: midY) ?? -99) + 1), Double((w - 20) * s), accuracy: 1, what)
                XCTAssertEqual(Double(firstCardRow(img, x: col) ?? -99), Double(110 * s), accuracy: 1, what)
                XCTAssertEqual(Double((lastCardRow(img, x: col) ?? -99) + 1), Double((h - 110) * s), accuracy: 1, what)

                // Just inside the rounded corner's cut (radius 10): dimmed background, all four corners.
                for (x, y) in [(20 * s, 110 * s), (20 * s + 1, 110 * s + 1), ((w - 20) * s - 1, 110 * s),
                               (20 * s, (h - 110) * s - 1), ((w - 20) * s - 2, (h - 110) * s - 2)] {
                    XCTAssertPixel(img.pixel(x: x, y: y), scaledPixel(base.pixel(x: x, y: y), by: 0.5),
                                   "\(what) corner (\(x),\(y))")
                }
                // Outside the card: presenting × (1 − 0.5).
                let card = PixelRect(x: 20 * s, y: 110 * s, width: (w - 40) * s, height: (h - 220) * s)
                assertDimmed(img, base: base, factor: 0.5, what) { !card.contains(x: $0, y: $1) }
            }
        }
    }

    func testInsetCenteredHalfwayCoverVerticalAndDim() throws {
        for (w, h) in Self.sizes {
            for s in Self.scales {
                let what = "inset \(w)x\(h)@\(s) at 0.5"
                let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: w, height: h, scale: s)
                let base = try f.unpresented()
                let img = try live(f, at: Self.duration / 2)  // linear time 0.5 → eased 0.5
                XCTAssertEqual(f.scene.state, .presenting, what)
                // Card top at (H + 110) / 2: halfway from below the bottom edge to y = 110.
                let top = Double(h + 110) / 2 * Double(s)
                XCTAssertEqual(Double(firstCardRow(img, x: 40 * s) ?? -99), top, accuracy: 1, what)
                XCTAssertEqual(Double(firstCardColumn(img, y: Int(top) + 20 * s) ?? -99), Double(20 * s), accuracy: 1, what)
                // Dim alpha 0.5 × 0.5 = 0.25: presenting × 0.75 outside the card.
                let card = PixelRect(x: 20 * s, y: Int(top.rounded()), width: (w - 40) * s, height: h * s)
                assertDimmed(img, base: base, factor: 0.75, what) { !card.contains(x: $0, y: $1) }
            }
        }
    }

    // MARK: bottom-sheet

    func testBottomSheetPresentedAndHalfway() throws {
        for (w, h) in Self.sizes {
            for s in Self.scales {
                let what = "sheet \(w)x\(h)@\(s)"
                let f = try SceneFixture(try BuiltinStyle.bottomSheet.make(), width: w, height: h, scale: s)
                let base = try f.unpresented()
                let full = try f.snapshot(.present, 1)
                let half = try f.snapshot(.present, 0.5)

                // Presented: top at H/2, the window's width up to 640 pt (Material 3's cap), centred
                // — x 180…820 pt in 1000 — bottom corners square, top corners rounded.
                let top = h / 2 * s
                let sheetWidth = min(w, 640), left = (w - sheetWidth) / 2 * s, right = left + sheetWidth * s
                XCTAssertEqual(Double(firstCardRow(full, x: left + 40 * s) ?? -99), Double(top), accuracy: 1, what)
                XCTAssertEqual(Double(firstCardColumn(full, y: top + 20 * s) ?? -99), Double(left), accuracy: 1, what)
                XCTAssertEqual(Double(lastCardColumn(full, y: top + 20 * s) ?? -99), Double(right - 1), accuracy: 1, what)
                XCTAssertTrue(isCard(full.pixel(x: left, y: h * s - 1)), "\(what): bottom-left corner is square")
                XCTAssertTrue(isCard(full.pixel(x: right - 1, y: h * s - 1)), "\(what): bottom-right corner is square")
                for (x, y) in [(left, top), (left + 1, top + 1), (right - 1, top), (right - 2, top + 1)] {
                    XCTAssertPixel(full.pixel(x: x, y: y), scaledPixel(base.pixel(x: x, y: y), by: 0.6),
                                   "\(what): top corner (\(x),\(y)) is rounded off")
                }
                assertDimmed(full, base: base, factor: 0.6, what) { x, y in y < top || x < left || x >= right }

                // Halfway: top at 0.75·H; the dim (0.4 × 0.5) covers everything above, including the
                // band H/2 … 0.75·H — the dim does not slide with the sheet.
                let halfTop = Double(h) * 0.75 * Double(s)
                XCTAssertEqual(Double(firstCardRow(half, x: left + 40 * s) ?? -99), halfTop, accuracy: 1, what)
                assertDimmed(half, base: base, factor: 0.8, what + " at 0.5") { x, y in
                    Double(y) < halfTop - 1 || x < left || x >= right
                }
                assertDimmed(half, base: base, factor: 0.8, what + " band H/2…0.75H") { _, y in
                    y >= top && Double(y) < halfTop - 1
                }
            }
        }
    }

    // MARK: resize

    func testResizeWhilePresentedAndMidTransition() throws {
        let s = 1
        // Presented, then resized: the next frame has the style's frame for the new size.
        let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: 400, height: 800, scale: s)
        f.scene.present(now: 0)
        let small = try f.newImage()
        _ = f.render(now: 1, into: small)
        f.scene.layout(containerSize: Size(width: 1000, height: 600), scale: s)
        let big = try Image(width: 1000, height: 600)
        f.scene.render(into: big.pixelBuffer, now: 1.1, bufferAge: 1)
        let baseBig = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: 1000, height: 600).unpresented()
        XCTAssertEqual(firstCardColumn(big, y: 330), 20)
        XCTAssertEqual((lastCardColumn(big, y: 330) ?? 0) + 1, 980)
        XCTAssertEqual(firstCardRow(big, x: 40), 110)
        XCTAssertEqual((lastCardRow(big, x: 40) ?? 0) + 1, 490)
        assertDimmed(big, base: baseBig, factor: 0.5, "dim over the whole new area") { x, y in
            !(x >= 20 && x < 980 && y >= 110 && y < 490)
        }

        // Mid-transition: resize at linear 0.25, render at 0.5.
        for style in BuiltinStyle.allCases {
            let g = try SceneFixture(try style.make(), width: 400, height: 800)
            let img = try g.newImage()
            g.scene.present(now: 0)
            _ = g.render(now: Self.duration / 4, into: img)
            g.scene.layout(containerSize: Size(width: 1000, height: 600), scale: 1)
            let out = try Image(width: 1000, height: 600)
            g.scene.render(into: out.pixelBuffer, now: Self.duration / 2, bufferAge: 0)
            let base = try SceneFixture(try style.make(), width: 1000, height: 600).unpresented()
            switch style {
            case .insetCentered:
                XCTAssertEqual(Double(firstCardRow(out, x: 40) ?? -1), (600 + 110) / 2, accuracy: 1)
                XCTAssertEqual(firstCardColumn(out, y: 400), 20)
                assertDimmed(out, base: base, factor: 0.75, "inset resized mid-transition") { x, y in
                    !(x >= 20 && x < 980 && y >= 355)
                }
            case .bottomSheet:
                // 640 pt wide in 1000 (Material 3's cap), centred: x 180…820.
                XCTAssertEqual(Double(firstCardRow(out, x: 220) ?? -1), 450, accuracy: 1)
                XCTAssertEqual(firstCardColumn(out, y: 500), 180)
                XCTAssertEqual((lastCardColumn(out, y: 500) ?? 0) + 1, 820)
                assertDimmed(out, base: base, factor: 0.8, "sheet resized mid-transition") { x, y in y < 449 || x < 180 || x >= 820 }
            }
        }
    }
}
