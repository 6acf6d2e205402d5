import XCTest
@testable import ModalKitWaylandClient
import ModalKitWaylandDecorations

/// fractional-scale-v1: buffer size = logical size × n/120, rounded halfway away from zero for
/// toplevels; the preferred scale arrives in 120ths; where the protocol is not used, integer
/// `wl_output.scale` with `set_buffer_scale`, as before.
final class SurfaceScaleTests: XCTestCase {
    // MARK: rounding

    func testTheProtocolsExample() {
        // "a surface-local size of 100 px by 50 px … with a scale of 1.5, a buffer of 150px by 75 px".
        var scale = SurfaceScale(isFractional: true)
        XCTAssertTrue(scale.preferredScaleChanged(to: 180))
        XCTAssertEqual(scale.scale, 1.5)
        XCTAssertTrue(scale.bufferSize(width: 100, height: 50) == (150, 75))
    }

    func testHalvesRoundAwayFromZero() {
        XCTAssertEqual(scaledLength(101, scale: 1.5), 152)     // 151.5
        XCTAssertEqual(scaledLength(301, scale: 1.5), 452)     // 451.5
        XCTAssertEqual(scaledLength(402, scale: 1.25), 503)    // 502.5
        XCTAssertEqual(scaledLength(401, scale: 1.25), 501)    // 501.25
        XCTAssertEqual(scaledLength(403, scale: 1.25), 504)    // 503.75
        XCTAssertEqual(scaledLength(1, scale: 0.5), 1)         // 0.5
        XCTAssertEqual(scaledLength(3, scale: 0.5), 2)         // 1.5
        // 1.1 = 132/120 is not exact in binary; the halves still round up.
        XCTAssertEqual(scaledLength(5, scale: 132.0 / 120), 6)     // 5.5
        XCTAssertEqual(scaledLength(15, scale: 132.0 / 120), 17)   // 16.5
        XCTAssertEqual(scaledLength(4, scale: 132.0 / 120), 4)     // 4.4
    }

    /// For every n/120 up to 4 and every length up to 1000 points: exactly the integer rule
    /// ⌊(w·n + 60) / 120⌋ (halfway away from zero for positive values).
    func testEveryScaleInOneHundredTwentiethsMatchesTheExactFraction() {
        var mismatches = 0, first = ""
        for n in 1...480 {
            let scale = Double(n) / 120
            for w in 1...1000 {
                let want = max(1, (w * n + 60) / 120)
                let got = scaledLength(w, scale: scale)
                if got != want {
                    if mismatches == 0 { first = "w \(w) n \(n): \(got), want \(want)" }
                    mismatches += 1
                }
            }
        }
        XCTAssertEqual(mismatches, 0, first)
    }

    func testWholeScalesAreExact() {
        for s in 1...8 {
            for w in [1, 7, 400, 1921] { XCTAssertEqual(scaledLength(w, scale: Double(s)), w * s) }
        }
    }

    // MARK: the fractional path

    func testPreferredScaleIsInOneHundredTwentieths() {
        var scale = SurfaceScale(isFractional: true)
        XCTAssertTrue(scale.preferredScaleChanged(to: 150))
        XCTAssertEqual(scale.scale, 1.25)
        XCTAssertTrue(scale.bufferSize(width: 400, height: 300) == (500, 375))
        XCTAssertTrue(scale.preferredScaleChanged(to: 240))
        XCTAssertEqual(scale.scale, 2)
        XCTAssertTrue(scale.bufferSize(width: 401, height: 301) == (802, 602))
    }

    func testTheBufferScaleStaysOneOnTheFractionalPath() {
        var scale = SurfaceScale(isFractional: true)
        _ = scale.preferredScaleChanged(to: 180)
        // KWin at 1.5 also sends wl_output.scale 2: the fractional scale wins, the buffer scale is 1.
        XCTAssertFalse(scale.outputScaleChanged(to: 2), "the output's integer scale does not change what is drawn")
        XCTAssertEqual(scale.scale, 1.5)
        XCTAssertEqual(scale.bufferScale, 1)
        XCTAssertEqual(scale.outputScale, 2)
        XCTAssertTrue(scale.bufferSize(width: 400, height: 300) == (600, 450))
    }

    func testOnlyANewPreferredScaleAsksForARedraw() {
        var scale = SurfaceScale(isFractional: true)
        XCTAssertFalse(scale.preferredScaleChanged(to: 120), "120/120 = 1, the scale it already had")
        XCTAssertEqual(scale.preferredScale, 120)
        XCTAssertTrue(scale.preferredScaleChanged(to: 180))
        XCTAssertFalse(scale.preferredScaleChanged(to: 180), "the same scale again")
        XCTAssertFalse(scale.preferredScaleChanged(to: 0), "0 is no scale: ignored")
        XCTAssertEqual(scale.scale, 1.5)
    }

    func testBeforeTheFirstPreferredScaleTheOutputScaleStandsIn() {
        var scale = SurfaceScale(isFractional: true)
        XCTAssertEqual(scale.scale, 1)
        XCTAssertTrue(scale.outputScaleChanged(to: 2))
        XCTAssertEqual(scale.scale, 2)
        XCTAssertEqual(scale.bufferScale, 1, "still through the viewport")
        XCTAssertTrue(scale.bufferSize(width: 400, height: 300) == (800, 600))
        XCTAssertTrue(scale.preferredScaleChanged(to: 180))
        XCTAssertEqual(scale.scale, 1.5)
    }

    // MARK: the integer path

    func testWithoutTheProtocolTheIntegerOutputScaleIsUsed() {
        var scale = SurfaceScale(isFractional: false)
        XCTAssertFalse(scale.preferredScaleChanged(to: 180), "no fractional scale on the integer path")
        XCTAssertNil(scale.preferredScale)
        XCTAssertEqual(scale.scale, 1)
        XCTAssertTrue(scale.outputScaleChanged(to: 2))
        XCTAssertEqual(scale.scale, 2)
        XCTAssertEqual(scale.bufferScale, 2)
        XCTAssertTrue(scale.bufferSize(width: 401, height: 301) == (802, 602))
        XCTAssertFalse(scale.outputScaleChanged(to: 2))
        XCTAssertTrue(scale.outputScaleChanged(to: 0), "a bogus 0 is 1")
        XCTAssertEqual(scale.bufferScale, 1)
    }

    // MARK: the buffer cap

    /// 8192×8192 points at scale 3 needs 24576² pixels; 2 gives 16384² (256 Mi pixels, over the
    /// 64 Mi cap); 1 gives 8192² = 64 Mi: scale 1, and the buffer scale follows.
    func testTheLargestIntegerScaleWithinTheCap() {
        var scale = SurfaceScale(isFractional: false)
        XCTAssertTrue(scale.outputScaleChanged(to: 3))
        XCTAssertTrue(scale.fit(width: 8192, height: 8192))
        XCTAssertEqual(scale.scale, 1)
        XCTAssertEqual(scale.wantedScale, 3)
        XCTAssertEqual(scale.bufferScale, 1)
        XCTAssertTrue(scale.isLimited)
        XCTAssertFalse(scale.isTooLarge)
        XCTAssertTrue(scale.bufferSize(width: 8192, height: 8192) == (8192, 8192))
        // 4000² at 3 = 144 M pixels; at 2, 8000² = 64 M ≤ 64 Mi: scale 2.
        XCTAssertTrue(scale.fit(width: 4000, height: 4000))
        XCTAssertEqual(scale.scale, 2)
        // Small enough for the wanted scale: no limit.
        XCTAssertTrue(scale.fit(width: 800, height: 600))
        XCTAssertEqual(scale.scale, 3)
        XCTAssertFalse(scale.isLimited)
        // A side of 6000 points at 3 = 18000 > 16384, though only 18000 × 300 pixels: the side cap.
        XCTAssertTrue(scale.fit(width: 6000, height: 100))
        XCTAssertEqual(scale.scale, 2)
        // The output scale changes later: the fitted size is kept and the scale chosen again.
        XCTAssertTrue(scale.outputScaleChanged(to: 1))
        XCTAssertEqual(scale.scale, 1)
        XCTAssertFalse(scale.isLimited)
        XCTAssertTrue(scale.outputScaleChanged(to: 4))
        XCTAssertEqual(scale.scale, 2, "6000 × 2 = 12000 fits; × 3 does not")
    }

    /// On the fractional path the scale goes down in 120ths: 8192 points at 1.5 (180/120) is
    /// 12288² = 151 M pixels; the largest n with round(8192 × n/120)² ≤ 64 Mi is 120 (8192²).
    func testTheLargestFractionalScaleWithinTheCap() {
        var scale = SurfaceScale(isFractional: true)
        XCTAssertTrue(scale.preferredScaleChanged(to: 180))
        XCTAssertTrue(scale.fit(width: 8192, height: 8192))
        XCTAssertEqual(scale.scale, 1)
        XCTAssertEqual(scale.bufferScale, 1)
        // 7000 × 5000 at 1.5 = 10500 × 7500 = 78.75 M; at 1.375 (165) 9625 × 6875 = 66.2 M ≤ 67.1 M;
        // at 166/120: 9683 × 6917 = 67.0 M — the largest.
        XCTAssertTrue(scale.fit(width: 7000, height: 5000))
        XCTAssertEqual(scale.scale, 166.0 / 120)
        let (w, h) = scale.bufferSize(width: 7000, height: 5000)
        XCTAssertTrue(BufferCap.fits(width: w, height: h))
        XCTAssertFalse(BufferCap.fits(width: scaledLength(7000, scale: 167.0 / 120), height: scaledLength(5000, scale: 167.0 / 120)))
    }

    /// Over the cap even at one pixel per point: too large (the window's run ends with one line).
    func testTooLargeEvenAtScaleOne() {
        var scale = SurfaceScale(isFractional: false)
        XCTAssertTrue(scale.outputScaleChanged(to: 2))
        scale.fit(width: 17000, height: 200)
        XCTAssertTrue(scale.isTooLarge)
        XCTAssertEqual(scale.scale, 1, "the smallest tried")
        scale.fit(width: 16384, height: 200)
        XCTAssertFalse(scale.isTooLarge)
        var fractional = SurfaceScale(isFractional: true)
        XCTAssertTrue(fractional.preferredScaleChanged(to: 90))   // 0.75: nothing below the wanted scale is tried
        fractional.fit(width: 30000, height: 10)
        XCTAssertTrue(fractional.isTooLarge)
        fractional.fit(width: 20000, height: 10)                   // 15000 pixels at 0.75: fits
        XCTAssertFalse(fractional.isTooLarge)
        XCTAssertEqual(fractional.scale, 0.75)
    }

    // MARK: the client-side title bar

    func testTitleBarAtOneAndAHalf() {
        let layout = TitleBarLayout(width: 401, scale: 1.5)
        XCTAssertEqual(layout.bufferWidth, 602, "401 × 1.5 = 601.5, halfway away from zero, like the content")
        XCTAssertEqual(layout.bufferHeight, 42, "28 × 1.5")
        // The close button: points (373, 0, 28, 28); edges at 559.5 → 560 and 601.5 → 602.
        XCTAssertEqual(layout.closeButton, Rect(x: 373, y: 0, width: 28, height: 28))
        XCTAssertEqual(layout.closeButtonPixels, PixelRect(x: 560, y: 0, width: 42, height: 42))
        // Input stays in points: the same regions as at any scale.
        XCTAssertEqual(layout.region(atX: 380, y: 10), .close)
        XCTAssertEqual(layout.region(atX: 372, y: 10), .bar)
    }

    func testTitleBarAtAWholeScaleIsUnchanged() {
        let layout = TitleBarLayout(width: 400, scale: 2)
        XCTAssertEqual(layout.bufferWidth, 800)
        XCTAssertEqual(layout.bufferHeight, 56)
        XCTAssertEqual(layout.closeButtonPixels, PixelRect(x: 744, y: 0, width: 56, height: 56), "every edge × 2")
    }
}
