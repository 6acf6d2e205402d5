import ModalKitAdaptiveStyle
import ModalKit
import XCTest

/// Reduced motion for what the presented view does to the rest of the window: the presenting
/// view's recede (`StackHostTests.receding()`: the view below scaled 1 − 0.1 × progress about its
/// top centre, a 400 × 200 sheet at the bottom of 400 × 600, 1 s linear, dim 0.4 × progress)
/// jumps at the cross-fade's half instead of scaling; an adaptive style's shape change jumps
/// instead of morphing. Nothing moves or scales; only alphas change.
final class ReducedMotionRecedeTests: XCTestCase {
    private let bounds = Rect(x: 0, y: 0, width: 400, height: 600)
    private let sheet = Rect(x: 0, y: 400, width: 400, height: 200)

    private func receding(reducesMotion: Bool) -> PresentationController {
        let c = PresentationController(style: StackHostTests.receding())
        c.layout(containerBounds: bounds)
        c.reducesMotion = reducesMotion
        return c
    }

    private func assertLook(_ c: PresentationController, at t: Double, scale: Double, alpha: Double, dim: Double,
                            file: StaticString = #filePath, line: UInt = #line) {
        let snap = c.snapshot(at: t)
        let look = snap.presentingAppearance.transform
        XCTAssertEqual(look.scaleX, scale, accuracy: 1e-9, "t = \(t): presenting view scale", file: file, line: line)
        XCTAssertEqual(look.scaleY, scale, accuracy: 1e-9, "t = \(t)", file: file, line: line)
        XCTAssertEqual(look.translation, .zero, "t = \(t): no offset", file: file, line: line)
        XCTAssertEqual(snap.presentedRect, sheet, "t = \(t): the sheet at its frame", file: file, line: line)
        XCTAssertEqual(snap.presentedTransform.alpha, alpha, accuracy: 1e-9, "t = \(t): sheet alpha", file: file, line: line)
        XCTAssertEqual(snap.dim.alpha, dim, accuracy: 1e-9, "t = \(t): dim alpha", file: file, line: line)
    }

    func testTheRecedeJumpsAtTheCrossFadesHalfInsteadOfScaling() {
        let c = receding(reducesMotion: true)
        c.present(now: 10)
        assertLook(c, at: 10, scale: 1, alpha: 0, dim: 0)
        assertLook(c, at: 10.05, scale: 1, alpha: 0.25, dim: 0.02)
        assertLook(c, at: 10.1, scale: 0.9, alpha: 0.5, dim: 0.04)
        assertLook(c, at: 10.5, scale: 0.9, alpha: 1, dim: 0.2)
        c.update(now: 11)
        XCTAssertEqual(c.state, .presented)
        assertLook(c, at: 11, scale: 0.9, alpha: 1, dim: 0.4)
        c.dismiss(now: 20)
        assertLook(c, at: 20.05, scale: 0.9, alpha: 0.75, dim: 0.38)
        assertLook(c, at: 20.15, scale: 1, alpha: 0.25, dim: 0.34)
        assertLook(c, at: 20.5, scale: 1, alpha: 0, dim: 0.2)
    }

    func testWithoutReducedMotionTheRecedeScalesWithTheProgress() {
        let c = receding(reducesMotion: false)
        c.present(now: 10)
        XCTAssertEqual(c.snapshot(at: 10.5).presentingAppearance.transform.scaleX, 0.95, accuracy: 1e-9)
        XCTAssertEqual(c.snapshot(at: 10.05).presentingAppearance.transform.scaleX, 0.995, accuracy: 1e-9)
    }

    func testTheRenderFramesOfAReducedMotionRecedeJumpToo() {
        let c = receding(reducesMotion: true)
        // 1 s: the fade's half is 0.1 s into the phase (fraction 0.1).
        XCTAssertEqual(c.snapshot(phase: .present, fraction: 0.05).presentingAppearance.transform.scaleX, 1)
        XCTAssertEqual(c.snapshot(phase: .present, fraction: 0.1).presentingAppearance.transform.scaleX, 0.9, accuracy: 1e-9)
        XCTAssertEqual(c.snapshot(phase: .dismiss, fraction: 0.05).presentingAppearance.transform.scaleX, 0.9, accuracy: 1e-9)
        XCTAssertEqual(c.snapshot(phase: .dismiss, fraction: 0.5).presentingAppearance.transform.scaleX, 1)
    }

    func testACoveredLevelOfAStackJumpsUnderTheHostsFlag() throws {
        let host = PresentationHost(style: RecordingStyle().style, presenting: StackHostTests.Solid(.black))
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        host.reducesMotion = true
        host.present(StackHostTests.Solid(.white), now: 0)
        host.update(now: 1)
        host.present(StackHostTests.Solid(.white), style: StackHostTests.receding(), now: 1)
        let look = { (t: Double) in try XCTUnwrap(host.snapshot(level: 2, at: t)).presentingAppearance.transform.scaleX }
        XCTAssertEqual(try look(1.05), 1, "level 1 as it was")
        XCTAssertEqual(try look(1.1), 0.9, accuracy: 1e-9, "receded at once")
        XCTAssertEqual(try look(1.6), 0.9, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(host.snapshot(level: 1, at: 1.6)).presentedRect,
                       Rect(x: 20, y: 110, width: 360, height: 380), "level 1 itself stays at its frame")
    }

    // MARK: Adaptive shape change

    private let card1000 = Rect(x: 220, y: 140, width: 560, height: 420)   // 1000 × 700
    private let sheet400 = Rect(x: 0, y: 350, width: 400, height: 350)     // 400 × 700

    func testCrossingTheBreakpointJumpsToTheNewShape() throws {
        let c = PresentationController(style: try AdaptiveStyle.make())
        var states: [PresentationState] = []
        c.onStateChange = { states.append($0) }
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 1000, height: 700))
        c.reducesMotion = true
        c.present(now: 0)
        c.update(now: 1)
        XCTAssertEqual(c.snapshot(at: 1).presentedRect, card1000)
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 400, height: 700))
        XCTAssertFalse(c.isMorphing, "no morph")
        c.update(now: 2)
        for t in [2, 2.0625, 2.125, 2.25] {
            let snap = c.snapshot(at: t)
            XCTAssertEqual(snap.presentedFrame, sheet400, "t = \(t): the sheet at once")
            XCTAssertEqual(snap.presentedRect, sheet400, "t = \(t)")
            XCTAssertEqual(snap.corners, CornerStyle(radius: 12, corners: .top), "t = \(t)")
            XCTAssertNil(snap.bottomCornerRadius, "t = \(t)")
            XCTAssertEqual(snap.presentedTransform.alpha, 1, "t = \(t)")
        }
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 1000, height: 700))
        XCTAssertFalse(c.isMorphing)
        XCTAssertEqual(c.snapshot(at: 3).presentedRect, card1000, "and back at once")
        XCTAssertEqual(states, [.presenting, .presented], "no state change")
    }
}
