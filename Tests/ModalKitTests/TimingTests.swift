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

    /// Parameters are range-checked where they are read (`curve=` and plugins): x1, x2 in 0...1 as
    /// in CSS, y1, y2 in -10...10, spring stiffness and damping above 0 and at most 10⁶.
    func testCurveParametersOutOfRangeAreRefused() {
        XCTAssertEqual(TimingCurve(parsing: "cubic-bezier(0.68,-0.55,0.27,1.55)"), .cubicBezier(0.68, -0.55, 0.27, 1.55))
        XCTAssertEqual(TimingCurve(parsing: "cubic-bezier(0,10,1,-10)"), .cubicBezier(0, 10, 1, -10))
        XCTAssertNil(TimingCurve(parsing: "cubic-bezier(0,10.5,1,1)"))
        XCTAssertNil(TimingCurve(parsing: "cubic-bezier(0,1e20,1,1)"))
        XCTAssertNil(TimingCurve(parsing: "cubic-bezier(1.1,0,1,1)"))
        XCTAssertEqual(TimingCurve(parsing: "spring(1e6,1e6)"), .spring(stiffness: 1e6, damping: 1e6))
        XCTAssertNil(TimingCurve(parsing: "spring(1,1e10)"))
        XCTAssertNil(TimingCurve(parsing: "spring(1e20,1e20)"))
        XCTAssertNil(TimingCurve(parsing: "spring(0,1)"))
        XCTAssertNil(TimingCurve(parsing: "spring(1,nan)"))
        XCTAssertNil(TimingCurve.springIfValid(stiffness: .infinity, damping: 1))
    }

    /// A strongly overdamped spring (damping ratio 5·10⁸: stiffness 10⁻⁶, damping 10⁶) creeps to 1
    /// along its slow root: finite and rising at every time, at rest at the end. Its settling time
    /// comes from that root, written so that it does not cancel to 0 (which made every value NaN).
    func testStronglyOverdampedSpringIsFiniteAndSettles() {
        let curve = TimingCurve.spring(stiffness: 1e-6, damping: 1e6)
        var previous = 0.0
        for i in 1...99 {
            let v = curve.value(at: Double(i) / 100)
            XCTAssertTrue(v.isFinite, "value at \(i)/100 is \(v)")
            XCTAssertGreaterThanOrEqual(v, previous, "rising at \(i)/100")
            previous = v
        }
        XCTAssertEqual(curve.value(at: 0.999), 1, accuracy: 0.002)
    }
}
