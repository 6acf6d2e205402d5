import ModalKitHostFuzzSupport
import ModalKit
import XCTest

/// The release velocity's samples (Flutter's `VelocityTracker` rule: at most 100 ms back, a gap
/// of more than 40 ms ends the motion, at least 3 samples), with sample sequences at exact times,
/// and a live host's sheet held still and lifted after a twitch.
final class VelocityTrackerTests: XCTestCase {
    /// Steady motion: 6 pt every 10 ms from `t0` for `n` samples, starting at `y0`.
    private func steady(_ tracker: inout VelocityTracker, from y0: Double, t0: Double, n: Int) {
        for i in 0..<n { tracker.add(y0 + Double(i) * 6, at: t0 + Double(i) * 0.01) }
    }

    func testSteadyMotionIsItsSlope() {
        var tracker = VelocityTracker()
        steady(&tracker, from: 0, t0: 0, n: 30)
        XCTAssertEqual(tracker.velocity(at: 0.29), 600, accuracy: 1e-6, "6 pt per 10 ms")
    }

    func testATwoSampleTwitchAfterAPauseIsNoFling() {
        var tracker = VelocityTracker()
        steady(&tracker, from: 0, t0: 0, n: 10)        // 0 … 54 pt by 0.09 s
        tracker.add(57, at: 0.6)                        // held still 0.51 s, then a twitch:
        tracker.add(60, at: 0.608)                      // 3 pt in 8 ms (375 pt/s from two samples)
        XCTAssertEqual(tracker.velocity(at: 0.608), 0, "two samples after a pause: at rest")
    }

    func testATwitchAfterAPauseShorterThanTheWindowIsNoFling() {
        var tracker = VelocityTracker()
        steady(&tracker, from: 0, t0: 0, n: 10)        // last sample 54 pt at 0.09 s
        tracker.add(58, at: 0.15)                       // 60 ms without motion: the motion ended
        tracker.add(62, at: 0.158)
        XCTAssertEqual(tracker.velocity(at: 0.158), 0, "the samples before the 60 ms gap do not count")
    }

    func testARestOfMoreThan40msBeforeTheReleaseIsNoFling() {
        var tracker = VelocityTracker()
        steady(&tracker, from: 0, t0: 0, n: 10)        // last sample at 0.09 s
        XCTAssertEqual(tracker.velocity(at: 0.12), 600, accuracy: 1e-6, "30 ms later: still moving")
        XCTAssertEqual(tracker.velocity(at: 0.14), 0, "50 ms without motion: stopped")
    }

    func testThreeSamplesAreEnoughAndTwoAreNot() {
        var tracker = VelocityTracker()
        tracker.add(0, at: 1)
        tracker.add(4, at: 1.008)
        XCTAssertEqual(tracker.velocity(at: 1.008), 0, "two samples")
        tracker.add(8, at: 1.016)
        XCTAssertEqual(tracker.velocity(at: 1.016), 500, accuracy: 1e-6, "8 pt over 16 ms")
    }

    func testGapsUpTo40msKeepTheMotionAndTheWindowStillLimitsIt() {
        var tracker = VelocityTracker()
        // 40 ms apart (a slow 25 Hz device): continuous; the window keeps the last 100 ms.
        for i in 0..<6 { tracker.add(Double(i) * 20, at: 2 + Double(i) * 0.04) }  // 0 … 100 pt, 2.0 … 2.2 s
        XCTAssertEqual(tracker.velocity(at: 2.2), 500, accuracy: 1e-6, "samples at 2.12, 2.16, 2.2: 40 pt / 80 ms")
        tracker.add(110, at: 2.241)                     // 41 ms: the motion ends before this sample
        tracker.add(120, at: 2.25)
        XCTAssertEqual(tracker.velocity(at: 2.25), 0, "two samples after a 41 ms gap")
    }

    // MARK: A live host (bottom sheet, 480 × 800, sheet frame y 400…800)

    private final class Content: PresentationContent {
        var invalidation: ContentInvalidation = .all
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: .white)
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool { true }
    }

    func testASheetHeldStillAndLiftedAfterATwitchDoesNotFlingAway() throws {
        let host = PresentationHost(style: try BuiltinStyle.bottomSheet.make(options: [:]), presenting: Content())
        var log: [String] = []
        host.onStateChange = { log.append($0.rawValue) }
        host.onInteraction = { log.append($0.logLine) }
        host.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        host.present(Content(), now: 0)
        host.update(now: 1)
        // A slow drag of 100 pt (25 % of the sheet) over 1 s, held still 0.5 s, a twitch of 6 pt
        // in 8 ms (750 pt/s from two samples: projected past the middle), lifted.
        host.handle(.pointerMotion(Point(x: 240, y: 450)), now: 2)
        host.handle(.pointerButton(pressed: true), now: 2)
        var t = 2.0
        for i in 1...10 {
            t += 0.1
            host.handle(.pointerMotion(Point(x: 240, y: 450 + Double(i) * 10)), now: t)
        }
        t += 0.5
        host.handle(.pointerMotion(Point(x: 240, y: 553)), now: t)
        t += 0.008
        host.handle(.pointerMotion(Point(x: 240, y: 556)), now: t)
        host.handle(.pointerButton(pressed: false), now: t)
        XCTAssertEqual(log.suffix(2), ["drag-began", "drag-ended 0.0"], "released at rest")
        host.update(now: t + 2)
        XCTAssertEqual(host.snapshot(at: t + 2).presentedRect.minY, 400, accuracy: 0.5, "back at its detent")
        XCTAssertEqual(log.last, "detent 1")
        XCTAssertEqual(host.state, .presented)
    }
}
