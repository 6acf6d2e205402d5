import Foundation
import XCTest
@testable import ModalKitWaylandClient

/// Predicting a frame's presentation time from `wp_presentation` feedback: the first refresh
/// after the commit on the grid of the last presented frame.
final class PresentationClockTests: XCTestCase {
    private let refresh = 1.0 / 60

    func testWithoutFeedbackTheFrameTimeIsNow() {
        XCTAssertEqual(PresentationClock().predictedPresentationTime(committedAt: 5), 5)
    }

    func testTheNextRefreshAfterTheCommitOnTheGridOfTheLastPresentedFrame() {
        var clock = PresentationClock()
        clock.presented(at: 10, refresh: refresh)
        // Committed 5 ms after a presented frame: shown at the next refresh, 10 + 1/60.
        XCTAssertEqual(clock.predictedPresentationTime(committedAt: 10.005), 10 + refresh, accuracy: 1e-9)
        // 2.5 refreshes later: the third refresh.
        XCTAssertEqual(clock.predictedPresentationTime(committedAt: 10 + 2.5 * refresh), 10 + 3 * refresh, accuracy: 1e-9)
        // Exactly on a refresh: the next one (that one is being scanned out).
        XCTAssertEqual(clock.predictedPresentationTime(committedAt: 10 + refresh), 10 + 2 * refresh, accuracy: 1e-9)
    }

    func testStaleUnknownOrOutOfOrderFeedbackDoesNotPredict() {
        var clock = PresentationClock()
        clock.presented(at: 10, refresh: 0)   // no constant refresh (e.g. VRR): no grid
        XCTAssertEqual(clock.predictedPresentationTime(committedAt: 10.005), 10.005)
        clock.presented(at: 10, refresh: refresh)
        XCTAssertEqual(clock.predictedPresentationTime(committedAt: 11.5), 11.5, "older than a second")
        XCTAssertEqual(clock.predictedPresentationTime(committedAt: 9.99), 9.99, "before the last presented frame")
        clock.presented(at: 9, refresh: refresh)   // out of order: ignored
        XCTAssertEqual(clock.lastPresented, 10)
        clock.presented(at: .nan, refresh: refresh)
        clock.presented(at: 12, refresh: -1)
        XCTAssertEqual(clock.lastPresented, 10)
        XCTAssertEqual(clock.refresh, refresh)
    }
}

/// Presentation times on weston's `CLOCK_MONOTONIC_RAW` become `CLOCK_MONOTONIC` seconds.
final class PresentationClockIDTests: XCTestCase {
    func testRawMonotonicTimesAreMovedOntoTheMonotonicClock() {
        var raw = timespec()
        clock_gettime(CLOCK_MONOTONIC_RAW, &raw)
        let rawNow = Double(raw.tv_sec) + Double(raw.tv_nsec) / 1e9
        let (converted, monotonic) = PresentationFeedback.monotonicTime(rawNow, clockID: UInt32(CLOCK_MONOTONIC_RAW))
        XCTAssertTrue(monotonic)
        XCTAssertEqual(converted, monotonicSeconds(), accuracy: 0.005)
        XCTAssertEqual(PresentationFeedback.monotonicTime(12.5, clockID: UInt32(CLOCK_MONOTONIC)).0, 12.5)
        XCTAssertFalse(PresentationFeedback.monotonicTime(12.5, clockID: UInt32(CLOCK_REALTIME)).1)
    }
}
