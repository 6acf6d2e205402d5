import ModalKit
import XCTest

/// The one rounding rule of the presented view's position (`PresentationSnapshot.presentedPixelRect`):
/// its top-left at a whole point — each coordinate rounded to a whole point, halves away from zero,
/// then × scale rounded to a whole pixel, halves away from zero (a value within 1e-6 of a half
/// counting as a half) — and its size points × scale rounded. Every expected value below is worked
/// out by hand from that rule; then every path of the host (live frame, offline frame, the layer
/// frame a sub-surface backend places, a covered level's receding view) lands on those pixels.
final class PresentedViewRoundingTests: XCTestCase {
    private func rect(_ r: Rect, _ scale: Double) -> PixelRect { PresentationSnapshot.presentedPixelRect(r, scale: scale) }

    // MARK: the rule

    func testABottomSheetAtAHalfPointStartsAtTheNextWholePoint() {
        // 499 × 311 pt, the sheet half the height: top at 155.5 pt → 156 pt → 312 px at scale 2
        // (not 311, the exact pixel); 499 × 155.5 pt → 998 × 311 px.
        XCTAssertEqual(rect(Rect(x: 0, y: 155.5, width: 499, height: 155.5), 2), PixelRect(x: 0, y: 312, width: 998, height: 311))
        // 481 × 401 pt at KWin's 1.75: top at 200.5 pt → 201 pt → 351.75 px → 352 (exact: 350.875 →
        // 351); 481 × 1.75 = 841.75 → 842, 200.5 × 1.75 = 350.875 → 351.
        XCTAssertEqual(rect(Rect(x: 0, y: 200.5, width: 481, height: 200.5), 1.75), PixelRect(x: 0, y: 352, width: 842, height: 351))
        // At scale 1 a whole point is a whole pixel: 155.5 → 156.
        XCTAssertEqual(rect(Rect(x: 0, y: 155.5, width: 499, height: 155.5), 1), PixelRect(x: 0, y: 156, width: 499, height: 156))
    }

    func testQuarterPointsAndFractionalScales() {
        // 20.25 → 20 → 40 (exact 40.5 → 41); 233.25 → 233 → 466 (exact 466.5 → 467).
        XCTAssertEqual(rect(Rect(x: 20.25, y: 233.25, width: 100, height: 50), 2), PixelRect(x: 40, y: 466, width: 200, height: 100))
        // 20.75 → 21 → 42; 233.75 → 234 → 468.
        XCTAssertEqual(rect(Rect(x: 20.75, y: 233.75, width: 100, height: 50), 2), PixelRect(x: 42, y: 468, width: 200, height: 100))
        // 1.5: 7 → 10.5 → 11 (a half in the pixel step); 7.4 → 7 → 11; 8 → 12; 3.3 × 1.5 = 4.95 → 5.
        XCTAssertEqual(rect(Rect(x: 7, y: 7.4, width: 3.3, height: 3.3), 1.5), PixelRect(x: 11, y: 11, width: 5, height: 5))
        XCTAssertEqual(rect(Rect(x: 8, y: 8.5, width: 10, height: 10), 1.5), PixelRect(x: 12, y: 14, width: 15, height: 15))  // 9 × 1.5 = 13.5 → 14
        // 1.25: 1.7 → 2 → 2.5 → 3; 2 → 2.5 → 3; 10 × 1.25 = 12.5 → 13.
        XCTAssertEqual(rect(Rect(x: 1.7, y: 2, width: 10, height: 10), 1.25), PixelRect(x: 3, y: 3, width: 13, height: 13))
    }

    func testNegativePositionsRoundAwayFromZero() {
        // −10.5 → −11 → −16.5 → −17; −0.4 → −0 → 0; −1.5 → −2 → −3 at 1.5.
        XCTAssertEqual(rect(Rect(x: -10.5, y: -0.4, width: 4, height: 4), 1.5), PixelRect(x: -17, y: 0, width: 6, height: 6))
        XCTAssertEqual(rect(Rect(x: -1.5, y: -300.5, width: 4, height: 4), 2), PixelRect(x: -4, y: -602, width: 8, height: 8))
    }

    func testAValueWithinAMillionthOfAHalfCountsAsAHalf() {
        // A live frame (from times since boot) and an offline one (from a fraction) may differ in
        // their last bits: at 30,000 s of uptime one bit of the clock is 3.6e-12 s, which over a
        // 0.3 s transition of a 200 pt travel moves the view by up to 5e-9 pt.
        for y in [155.5 - 5e-7, 155.5 - 5e-9, 155.5 - 1e-12, 155.5, 155.5 + 1e-12, 155.5 + 5e-9] {
            XCTAssertEqual(rect(Rect(x: 0, y: y, width: 499, height: 155.5), 2).y, 312, "\(y)")
        }
        XCTAssertEqual(rect(Rect(x: 0, y: 155.5 - 1e-5, width: 499, height: 155.5), 2).y, 310, "1e-5 below the half: 155")
        XCTAssertEqual(rect(Rect(x: 0, y: 155.49, width: 499, height: 155.5), 2).y, 310, "a hundredth below the half: 155")
        // 50 pt at 138/120 = 57.5 px, which a Double computes as 57.49999999999999: still 58.
        XCTAssertEqual(rect(Rect(x: 50, y: 0, width: 10, height: 10), 138.0 / 120).x, 58)
    }

    // MARK: every path lands there

    /// A 499 × 311 pt container at scale 2 with the sheet (top corners square) at 155.5 pt:
    /// presented, the live frame, the offline frame (`render`) and the layer frame (`layerFrame(at:)`,
    /// what the sub-surface backend places) put its top at row 312; row 311 is the dim over the
    /// presenting view, in the live frame and the offline one alike.
    func testLiveOfflineAndLayerFramesPutTheSheetOnTheSameRow() throws {
        let sheet = Rect(x: 0, y: 155.5, width: 499, height: 155.5)
        let style = ChromeStyle(frame: sheet)
        style.transform = { ViewTransform(translation: Point(x: 0, y: 155.5 * (1 - $0))) }
        let background = Color(rgb: 0x4080C0)
        let host = PresentationHost(style: style.style, presenting: Painted(background))
        host.layout(containerSize: Size(width: 499, height: 311), scale: 2)
        XCTAssertTrue(host.pixelSize == (998, 622))
        let content = Painted(Color(rgb: 0xE0A020))
        let offline = try Image(width: 998, height: 622), live = try Image(width: 998, height: 622)
        host.renderOffline(host.snapshot(phase: .present, fraction: 1), presented: content, into: offline.pixelBuffer)
        XCTAssertEqual(host.snapshot(phase: .present, fraction: 1).layerFrame(scale: 2).presentedRect,
                       PixelRect(x: 0, y: 312, width: 998, height: 311))
        host.present(content, now: 0)
        XCTAssertEqual(host.layerFrame(at: 2).presentedRect, PixelRect(x: 0, y: 312, width: 998, height: 311))
        host.render(into: live.pixelBuffer, now: 2, bufferAge: 0)
        XCTAssertTrue(samePixels(live, offline), "live == render")
        // Row 311: black 0.4 over the presenting view (0x40, 0x80, 0xC0 × 0.6); row 312: the sheet.
        XCTAssertPixel(live.pixel(x: 500, y: 311), 0xFF26_4D73, "row 311 is the dim", tolerance: 1)
        XCTAssertEqual(live.pixel(x: 500, y: 312), 0xFFE0_A020, "row 312 is the sheet")
        XCTAssertEqual(live.pixel(x: 500, y: 621), 0xFFE0_A020, "the bottom row is the sheet (its last row cropped)")
        let p = try XCTUnwrap(PresentedLayerPlacement(frame: host.layerFrame(at: 2), bufferScale: 2,
                                                     containerWidth: 499, containerHeight: 311))
        XCTAssertEqual(p.y, 156, "set_position's y: 156 pt = row 312")
        XCTAssertEqual(p.presentedOffsetY, 0, "no pad inside the layer's buffer")
    }

    /// Mid-transition at a fraction where the top is at a quarter point (the live frame at a time,
    /// the offline one at the fraction): 100.25 + 200 × (1 − 0.5) = 200.25 pt → 200 pt → row 400.
    func testMidTransitionLiveAndOfflineAgree() throws {
        let style = ChromeStyle(frame: Rect(x: 30.5, y: 100.25, width: 300, height: 200))
        style.transform = { ViewTransform(translation: Point(x: 0, y: 200 * (1 - $0))) }
        let host = PresentationHost(style: style.style, presenting: Painted(Color(rgb: 0x4080C0)))
        host.layout(containerSize: Size(width: 400, height: 600), scale: 2)
        let content = Painted(.white)
        let offline = try Image(width: 800, height: 1200), live = try Image(width: 800, height: 1200)
        host.renderOffline(host.snapshot(phase: .present, fraction: 0.5), presented: content, into: offline.pixelBuffer)
        host.present(content, now: 0)
        // 30.5 → 31 → 62 (exact 61); 200.25 → 200 → 400 (exact 400.5 → 401).
        XCTAssertEqual(host.layerFrame(at: 0.5).presentedRect, PixelRect(x: 62, y: 400, width: 600, height: 400))
        host.render(into: live.pixelBuffer, now: 0.5, bufferAge: 0)
        XCTAssertTrue(samePixels(live, offline), "live == render at 0.5")
        XCTAssertEqual(live.pixel(x: 62, y: 400), 0xFFFF_FFFF)
        XCTAssertNotEqual(live.pixel(x: 61, y: 400), 0xFFFF_FFFF)
        XCTAssertNotEqual(live.pixel(x: 62, y: 399), 0xFFFF_FFFF)
    }

    /// A style that scales the presented view: its top-left still at a whole point, its size the
    /// shown size × scale rounded. Frame 41 × 41 pt at (10.25, 20.5), scaled 0.5 about its centre
    /// (30.75, 41): shown at (20.5, 30.75), 20.5 × 20.5 pt → (21, 31) pt → (42, 62) px, 41 × 41 px.
    func testAScaledViewKeepsTheRule() {
        let style = ChromeStyle(frame: Rect(x: 10.25, y: 20.5, width: 41, height: 41))
        style.transform = { _ in ViewTransform(scaleX: 0.5, scaleY: 0.5, anchor: Point(x: 0.5, y: 0.5)) }
        let host = PresentationHost(style: style.style, presenting: Painted(.black))
        host.layout(containerSize: Size(width: 100, height: 100), scale: 2)
        let f = host.snapshot(phase: .present, fraction: 1).layerFrame(scale: 2)
        XCTAssertEqual(f.presentedRect, PixelRect(x: 42, y: 62, width: 41, height: 41))
        XCTAssertEqual(f.presentedSourceWidth, 82, "the cache: 41 pt × 2")
    }

    /// A covered level's presented view recedes (the level above's "presenting view while covered"
    /// look) by the same rule, so it does not jump when the level above appears. Level 1's view at
    /// x = 20.5 pt → 21 pt → column 42 at scale 2; the level above scales it about (0.5, 0): at
    /// progress 0 it is still at column 42, at 0.5 (scale 0.95 about x = 20.5 + 180 = 200.5) its left
    /// edge is at 200.5 − 180 × 0.95 = 29.5 pt → 30 pt → column 60.
    func testARecedingLevelKeepsTheRule() throws {
        let receding = PresentationStyle(transitionDuration: 1, timingCurve: .linear)
        receding.frameOfPresentedView = { c in
            Rect(x: 0, y: c.containerBounds.maxY - 100, width: c.containerBounds.width, height: 100)
        }
        receding.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.4 * progress) }
        receding.presentingViewAppearance = { progress, _ in
            let k = 1 - 0.1 * progress
            return PresentingViewAppearance(transform: ViewTransform(scaleX: k, scaleY: k, anchor: Point(x: 0.5, y: 0)))
        }
        let host = PresentationHost(style: ChromeStyle(frame: Rect(x: 20.5, y: 110, width: 360, height: 380)).style,
                                    presenting: Painted(Color(rgb: 0x4080C0)))
        host.layout(containerSize: Size(width: 400, height: 600), scale: 2)
        let image = try Image(width: 800, height: 1200)
        host.present(Painted(.white), now: 0)
        func firstWhiteColumn(at now: Double, white: UInt32) -> Int? {
            host.render(into: image.pixelBuffer, now: now, bufferAge: 0)
            return (0..<800).first { image.pixel(x: $0, y: 300) == white }
        }
        XCTAssertEqual(firstWhiteColumn(at: 2, white: 0xFFFF_FFFF), 42, "level 1 alone")
        XCTAssertTrue(host.present(Painted(Color(rgb: 0x2050A0)), style: receding, now: 2))
        XCTAssertEqual(firstWhiteColumn(at: 2, white: 0xFFFF_FFFF), 42, "covered at progress 0: no jump")
        // At 0.5 the level above's dim (black 0.2) is over it: white × 0.8 = 0xCC.
        XCTAssertEqual(firstWhiteColumn(at: 2.5, white: 0xFFCC_CCCC), 60, "receded at 0.5")
    }
}
