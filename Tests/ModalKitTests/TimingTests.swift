import ModalKit
import XCTest

/// Timing curves and the interruptible transition (docs/design.md, built-in styles).
final class TimingTests: XCTestCase {
    func testEaseInOutIsSymmetricWithHalfAtHalf() {
        // docs/design.md: ease-in-out cubic-bezier(0.42, 0, 0.58, 1) is symmetric, so eased(0.5) = 0.5.
        XCTAssertEqual(TimingCurve.easeInOut.value(at: 0.5), 0.5, accuracy: 1e-6)
        for t in stride(from: 0.05, to: 1, by: 0.1) {
            XCTAssertEqual(TimingCurve.easeInOut.value(at: 1 - t), 1 - TimingCurve.easeInOut.value(at: t), accuracy: 1e-6)
        }
    }

    func testCubicBezierKnownValue() {
        // CSS ease-in-out at x = 0.25 is y ≈ 0.1291 (solve x(s) = 0.25 for the Bézier parameter).
        XCTAssertEqual(TimingCurve.cubicBezier(0.42, 0, 0.58, 1).value(at: 0.25), 0.1291, accuracy: 5e-4)
        XCTAssertEqual(TimingCurve(parsing: "cubic-bezier(0.42, 0, 0.58, 1)"), .cubicBezier(0.42, 0, 0.58, 1))
    }

    func testEndpointsAndLinear() {
        for c in [TimingCurve.linear, .easeInOut, .easeOut, .spring(stiffness: 200, damping: 20)] {
            XCTAssertEqual(c.value(at: 0), 0)
            XCTAssertEqual(c.value(at: 1), 1)
        }
        XCTAssertEqual(TimingCurve.linear.value(at: 0.37), 0.37, accuracy: 1e-12)
    }

    func testSpringHasSettledWhenTimeRunsOut() {
        // TimingCurve.spring: "time fraction 1 always means at rest at 1" (settled within 0.1 %), so the
        // last frame before the end is already there — under-, critically and overdamped alike.
        for c in [TimingCurve.spring(stiffness: 200, damping: 10), .spring(stiffness: 100, damping: 20),
                  .spring(stiffness: 100, damping: 40), .spring(stiffness: 100, damping: 200)] {
            XCTAssertEqual(c.value(at: 0.999), 1, accuracy: 0.01, "\(c)")
        }
    }

    func testTransitionProgressComesFromElapsedTime() {
        var t = Transition(duration: 0.35, curve: .easeInOut)
        t.run(.forward, now: 100)
        XCTAssertEqual(t.fraction(at: 100.175), 0.5, accuracy: 1e-9)
        XCTAssertEqual(t.progress(at: 100.175), 0.5, accuracy: 1e-6)
        XCTAssertFalse(t.isFinished(at: 100.34))
        XCTAssertTrue(t.isFinished(at: 100.35))
        XCTAssertEqual(t.fraction(at: 200), 1)  // a late frame lands at the end, not beyond
    }

    func testReversalKeepsTheCurrentFraction() {
        // A dismissal during the presentation reverses it from where it is (docs/design.md, rules
        // from the field, 4): a dismiss at 0.3 runs back from 0.3 (taking 0.3 × duration).
        var t = Transition(duration: 1, curve: .linear)
        t.run(.forward, now: 0)
        t.run(.backward, now: 0.3)
        XCTAssertEqual(t.fraction(at: 0.3), 0.3, accuracy: 1e-9)
        XCTAssertEqual(t.fraction(at: 0.4), 0.2, accuracy: 1e-9)
        XCTAssertFalse(t.isFinished(at: 0.59))
        XCTAssertTrue(t.isFinished(at: 0.6))
        XCTAssertEqual(t.direction, .backward)
    }

    func testZeroDurationJumpsToTheEnd() {
        var t = Transition(duration: 0, curve: .easeInOut)
        t.run(.forward, now: 5)
        XCTAssertEqual(t.fraction(at: 5), 1)
        XCTAssertTrue(t.isFinished(at: 5))
    }
}
