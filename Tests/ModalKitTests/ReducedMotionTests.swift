import ModalKit
import XCTest

/// Reduced motion (`ReducedMotion`): the presented view stays at its frame and fades 0 → 1 over
/// min(0.2 s, D) from the start of a presentation (1 → 0 from the start of a dismissal); the dim
/// fades over D with the style's curve as usual; the transition still ends after D.
final class ReducedMotionTests: XCTestCase {
    private let bounds = Rect(x: 0, y: 0, width: 400, height: 800)
    /// RecordingStyle's frame for `bounds`: inset 20 / 110.
    private let frame = Rect(x: 20, y: 110, width: 360, height: 580)

    private func make(duration: Double = 1) -> PresentationController {
        let c = PresentationController(style: RecordingStyle(duration: duration))
        c.layout(containerBounds: bounds)
        c.reducesMotion = true
        return c
    }

    private func assertAtFrame(_ c: PresentationController, at t: Double, alpha: Double, dim: Double,
                               file: StaticString = #filePath, line: UInt = #line) {
        let transform = c.effectivePresentedViewTransform(at: t)
        XCTAssertEqual(transform.translation, .zero, "t = \(t): no movement", file: file, line: line)
        XCTAssertEqual(transform.scale, 1, "t = \(t)", file: file, line: line)
        XCTAssertEqual(transform.alpha, alpha, accuracy: 1e-9, "t = \(t): presented view alpha", file: file, line: line)
        XCTAssertEqual(c.effectivePresentedViewRect(at: t), frame, "t = \(t): at its frame", file: file, line: line)
        // RecordingStyle: linear curve, dim alpha 0.5 × progress.
        XCTAssertEqual(c.dimmingAppearance(progress: c.progress(at: t)).alpha, dim, accuracy: 1e-9,
                       "t = \(t): dim alpha", file: file, line: line)
    }

    func testPresentationFadesInOverPointTwoSecondsAtTheFrameWhileTheDimTakesTheFullDuration() {
        let c = make(duration: 1)
        c.present(now: 10)
        assertAtFrame(c, at: 10, alpha: 0, dim: 0)
        assertAtFrame(c, at: 10.05, alpha: 0.25, dim: 0.025)
        assertAtFrame(c, at: 10.1, alpha: 0.5, dim: 0.05)
        assertAtFrame(c, at: 10.2, alpha: 1, dim: 0.1)
        assertAtFrame(c, at: 10.6, alpha: 1, dim: 0.3)
        c.update(now: 10.99)
        XCTAssertEqual(c.state, .presenting, "the transition lasts the style's 1 s (the dim's fade)")
        c.update(now: 11)
        XCTAssertEqual(c.state, .presented)
        assertAtFrame(c, at: 11.5, alpha: 1, dim: 0.5)
    }

    func testDismissalFadesOutFromItsStart() {
        let c = make(duration: 1)
        c.present(now: 0)
        c.update(now: 1)
        XCTAssertTrue(c.dismiss(now: 5))
        assertAtFrame(c, at: 5.05, alpha: 0.75, dim: 0.475)
        assertAtFrame(c, at: 5.15, alpha: 0.25, dim: 0.425)
        assertAtFrame(c, at: 5.2, alpha: 0, dim: 0.4)
        assertAtFrame(c, at: 5.7, alpha: 0, dim: 0.15)
        c.update(now: 5.99)
        XCTAssertEqual(c.state, .dismissing, "the dim still fades out")
        c.update(now: 6)
        XCTAssertEqual(c.state, .dismissed)
        XCTAssertNil(c.effectivePresentedViewRect(at: 6))
    }

    func testReversalContinuesTheFadeFromWhereItIs() {
        let c = make(duration: 1)
        c.present(now: 0)
        c.dismiss(now: 0.1)   // alpha 0.5, dim 0.05
        assertAtFrame(c, at: 0.15, alpha: 0.25, dim: 0.025)
        assertAtFrame(c, at: 0.2, alpha: 0, dim: 0)
        c.update(now: 0.2)
        XCTAssertEqual(c.state, .dismissed, "the dim's reversal takes the 0.1 s it had run")

        // Present, dismiss late, present again: the fade never lags behind the dim.
        c.present(now: 1)
        c.dismiss(now: 1.5)      // alpha 1 (faded in at 1.2), dim 0.25
        assertAtFrame(c, at: 1.6, alpha: 0.5, dim: 0.2)
        c.present(now: 1.6)
        assertAtFrame(c, at: 1.65, alpha: 0.75, dim: 0.225)
        assertAtFrame(c, at: 1.7, alpha: 1, dim: 0.25)
        c.update(now: 2.19)
        XCTAssertEqual(c.state, .presenting, "the dim runs on from 0.4: 0.6 s")
        c.update(now: 2.2)
        XCTAssertEqual(c.state, .presented)
    }

    func testShortAndZeroDurationsNeverGetLongerThanTheStyles() {
        let c = make(duration: 0.1)
        c.present(now: 0)
        assertAtFrame(c, at: 0.05, alpha: 0.5, dim: 0.25)
        c.update(now: 0.1)
        XCTAssertEqual(c.state, .presented, "F = min(0.2, D) = 0.1 s: both end with the style's duration")
        assertAtFrame(c, at: 0.1, alpha: 1, dim: 0.5)

        let z = make(duration: 0)
        z.present(now: 0)
        XCTAssertEqual(z.state, .presented, "duration 0 stays instantaneous")
        assertAtFrame(z, at: 0, alpha: 1, dim: 0.5)
    }

    func testTheFlagIsReadWhenATransitionStarts() {
        let c = make(duration: 1)
        c.reducesMotion = false
        c.present(now: 0)
        c.reducesMotion = true
        let moving = c.effectivePresentedViewTransform(at: 0.5)
        XCTAssertEqual(moving, c.presentedViewTransform(progress: 0.5), "the running presentation still slides")
        XCTAssertEqual(moving.translation.y, 0.5 * (800 - 110), accuracy: 1e-9)
        c.update(now: 1)
        c.dismiss(now: 2)
        assertAtFrame(c, at: 2.1, alpha: 0.5, dim: 0.45)   // the next transition fades

        c.update(now: 3)
        c.reducesMotion = false
        c.present(now: 4)
        XCTAssertEqual(c.effectivePresentedViewTransform(at: 4.25).translation.y, 0.75 * (800 - 110), accuracy: 1e-9,
                       "switched off: the next presentation slides again")
        XCTAssertEqual(c.effectivePresentedViewTransform(at: 4.25).alpha, 1)
    }

    /// A spring that overshoots moves the view past its frame without reduced motion; with it the
    /// view stays at its frame and the dim still never exceeds its presented alpha (0.5).
    func testSpringOvershootNeitherMovesTheViewNorDarkensTheDim() throws {
        let style = try BuiltinStyle.insetCentered.make(options: ["curve": "spring(300,5)"])
        let bounds = Rect(x: 0, y: 0, width: 400, height: 800)
        let times = stride(from: 0.0, through: 0.35, by: 0.005)
        let plain = PresentationController(style: style)
        plain.layout(containerBounds: bounds)
        plain.present(now: 0)
        XCTAssertLessThan(times.map { plain.effectivePresentedViewTransform(at: $0).translation.y }.min() ?? 0, -1,
                          "the spring overshoots: the view goes above its frame")
        plain.update(now: 1)

        let reduced = PresentationController(style: style)
        reduced.layout(containerBounds: bounds)
        reduced.reducesMotion = true
        reduced.present(now: 0)
        for t in times {
            let transform = reduced.effectivePresentedViewTransform(at: t)
            XCTAssertEqual(transform.translation, .zero, "t = \(t)")
            XCTAssertEqual(transform.scale, 1, "t = \(t)")
            XCTAssertEqual(transform.alpha, min(1, t / 0.2), accuracy: 1e-9, "t = \(t)")
            XCTAssertLessThanOrEqual(reduced.dimmingAppearance(progress: reduced.progress(at: t)).alpha, 0.5 + 1e-12, "t = \(t)")
        }
    }

    func testRenderFractionMapsToSecondsIntoThePhase() {
        // D = 0.35 s, F = 0.2 s: P = 0.25 is 0.0875 s in.
        XCTAssertEqual(ReducedMotion.presentedAlpha(phase: .present, fraction: 0.25, duration: 0.35), 0.4375, accuracy: 1e-12)
        XCTAssertEqual(ReducedMotion.presentedAlpha(phase: .dismiss, fraction: 0.25, duration: 0.35), 0.5625, accuracy: 1e-12)
        XCTAssertEqual(ReducedMotion.presentedAlpha(phase: .present, fraction: 4.0 / 7, duration: 0.35), 1, accuracy: 1e-12)
        XCTAssertEqual(ReducedMotion.presentedAlpha(phase: .present, fraction: 0.9, duration: 0.35), 1)
        XCTAssertEqual(ReducedMotion.presentedAlpha(phase: .dismiss, fraction: 0.9, duration: 0.35), 0)
        XCTAssertEqual(ReducedMotion.presentedAlpha(phase: .present, fraction: 0, duration: 0.35), 0)
        XCTAssertEqual(ReducedMotion.presentedAlpha(phase: .dismiss, fraction: 0, duration: 0.35), 1)
        XCTAssertEqual(ReducedMotion.presentedAlpha(phase: .present, fraction: 0.5, duration: 0.1), 0.5, accuracy: 1e-12)
        XCTAssertEqual(ReducedMotion.fadeDuration(forTransitionDuration: 0.35), 0.2)
        XCTAssertEqual(ReducedMotion.fadeDuration(forTransitionDuration: 0.15), 0.15)
        XCTAssertEqual(ReducedMotion.fadeDuration(forTransitionDuration: 0), 0)
    }
}

/// Reduced motion in pixels, built-in styles, default options (D = 0.35 s, ease-in-out): the
/// presented view at its frame, its pixels = card × alpha + (presenting × (1 − dim)) × (1 − alpha),
/// the dim as without reduced motion; the live path equals `renderSnapshot`.
final class ReducedMotionPixelTests: XCTestCase {
    private static let duration = 0.35

    /// presenting × (1 − dim) under the opaque card pixel `card` at `alpha` (premultiplied OVER).
    private func blend(card: UInt32, base: UInt32, dim: Double, alpha: Double) -> UInt32 {
        let under = scaledPixel(base, by: 1 - dim).argbComponents, top = card.argbComponents
        func ch(_ c: Int, _ v: Int) -> UInt32 { UInt32((Double(c) * alpha + Double(v) * (1 - alpha)).rounded()) }
        return 0xFF00_0000 | ch(top.r, under.r) << 16 | ch(top.g, under.g) << 8 | ch(top.b, under.b)
    }

    private func eased(_ u: Double) -> Double { TimingCurve.easeInOut.value(at: u) }

    func testInsetCenteredCardFadesAtItsFrame() throws {
        for s in [1, 2] {
            let (w, h) = (400, 800)
            let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: w, height: h, scale: s)
            f.scene.reducesMotion = true
            let base = try f.unpresented()
            let card = try f.snapshot(.present, 1)   // the card's own (opaque) pixels at its frame
            for (phase, p, alpha) in [(TransitionPhase.present, 0.25, 0.4375), (.present, 0.5, 0.875), (.present, 0.6, 1.0), (.dismiss, 0.25, 0.5625),
                                      (.dismiss, 0.1, 0.825)] {
                let what = "inset @\(s) \(phase) P = \(p)"
                let img = try f.snapshot(phase, p)
                let dim = 0.5 * eased(phase == .present ? p : 1 - p)
                // Inside the card's frame (x 20…W−20, y 110…H−110), away from the label and corners.
                for (x, y) in [(40, 130), (w - 40, 130), (40, h - 130), (w - 40, h - 130), (w / 2, 200)] {
                    XCTAssertPixel(img.pixel(x: x * s, y: y * s), blend(card: card.pixel(x: x * s, y: y * s),
                                                                                      base: base.pixel(x: x * s, y: y * s), dim: dim, alpha: alpha),
                                   "\(what) (\(x),\(y)) inside the frame")
                }
                // Just outside the frame: dim only.
                for (x, y) in [(18, 300), (w - 18, 300), (200, 108), (200, h - 108)] {
                    XCTAssertPixel(img.pixel(x: x * s, y: y * s), scaledPixel(base.pixel(x: x * s, y: y * s), by: 1 - dim),
                                   "\(what) (\(x),\(y)) outside the frame")
                }
            }
        }
    }

    func testBottomSheetFadesAtItsFrameUnderTheDim() throws {
        let (w, h) = (400, 800)
        let f = try SceneFixture(try BuiltinStyle.bottomSheet.make(), width: w, height: h)
        f.scene.reducesMotion = true
        let base = try f.unpresented()
        let card = try f.snapshot(.present, 1)
        let img = try f.snapshot(.present, 0.25)
        let dim = 0.4 * eased(0.25)
        for (x, y) in [(40, h / 2 + 20), (w / 2, h - 20), (0, h - 1), (w - 1, h / 2 + 40)] {
            XCTAssertPixel(img.pixel(x: x, y: y), blend(card: card.pixel(x: x, y: y), base: base.pixel(x: x, y: y), dim: dim, alpha: 0.4375),
                           "(\(x),\(y)) inside the sheet's frame")
        }
        for (x, y) in [(40, h / 2 - 2), (w / 2, 60)] {
            XCTAssertPixel(img.pixel(x: x, y: y), scaledPixel(base.pixel(x: x, y: y), by: 1 - dim),
                           "(\(x),\(y)) above the sheet's frame: dim only")
        }
    }

    func testLiveFramesEqualTheSnapshotAndHitTestingUsesTheFrame() throws {
        for style in BuiltinStyle.allCases {
            let live = try SceneFixture(try style.make(), width: 400, height: 800)
            let offline = try SceneFixture(try style.make(), width: 400, height: 800)
            live.scene.reducesMotion = true
            offline.scene.reducesMotion = true
            let img = try live.newImage()
            live.scene.present(now: 100)
            for (t, p) in [(100.0875, 0.25), (100.175, 0.5)] {
                _ = live.render(now: t, age: 0, into: img)
                let snap = try offline.snapshot(.present, p)
                XCTAssertEqual(img.pixelBuffer.firstDifference(from: snap.pixelBuffer), nil, "\(style) at \(t)")
                XCTAssertEqual(live.scene.presentedViewRect(at: t),
                               try style.make().frameOfPresentedView(in: Rect(x: 0, y: 0, width: 400, height: 800)),
                               "\(style): taps hit the view where it is drawn, its frame")
            }
            _ = live.render(now: 100.35, age: 0, into: img)
            XCTAssertEqual(live.scene.state, .presented)
            live.scene.dismiss(now: 101)
            _ = live.render(now: 101.0875, age: 0, into: img)
            let snap = try offline.snapshot(.dismiss, 0.25)
            XCTAssertEqual(img.pixelBuffer.firstDifference(from: snap.pixelBuffer), nil, "\(style) dismissing")
        }
    }
}

extension PixelBuffer {
    /// The first pixel (x, y, self, other) where two same-sized buffers differ.
    func firstDifference(from other: PixelBuffer) -> String? {
        guard width == other.width, height == other.height else { return "sizes differ" }
        for y in 0..<height {
            for x in 0..<width where !channelsClose(pixel(x: x, y: y), other.pixel(x: x, y: y), tolerance: 0) {
                return "(\(x),\(y)) \(hex(pixel(x: x, y: y))) vs \(hex(other.pixel(x: x, y: y)))"
            }
        }
        return nil
    }
}
