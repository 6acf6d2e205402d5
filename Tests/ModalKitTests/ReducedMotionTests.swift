import ModalKitHostFuzzSupport
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
        let c = PresentationController(style: RecordingStyle(duration: duration).style)
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
