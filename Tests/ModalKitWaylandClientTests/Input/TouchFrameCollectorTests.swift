import XCTest
@testable import ModalKitWaylandClient

/// Touch events reach the delegate grouped as `wl_touch.frame` groups them (wayland.xml,
/// wl_touch.frame: "the end of a set of events that logically belong together"), one frame per
/// window; `wl_touch.cancel` ("applies to all touch points currently active on this client's
/// surface") drops what was collected and reaches every window with live points at once. Serial and
/// time ride along unchanged.
final class TouchFrameCollectorTests: XCTestCase {
    private final class Target {}

    private let down1 = TouchEvent(.down(id: 1, x: 10, y: 20), serial: 7, time: 1000)
    private let down2 = TouchEvent(.down(id: 2, x: 110, y: 20.5), serial: 8, time: 1000)
    private let move1 = TouchEvent(.motion(id: 1, x: 12.25, y: 21), time: 1016)
    private let move2 = TouchEvent(.motion(id: 2, x: 111, y: 22), time: 1016)
    private let up1 = TouchEvent(.up(id: 1), serial: 9, time: 1032)

    private func take(_ collector: inout TouchFrameCollector<Target>) -> [(Target, TouchFrame)] {
        var out: [(Target, TouchFrame)] = []
        collector.take { out.append(($0, $1)) }
        return out
    }

    func testEventsOfOneFrameAreDeliveredTogetherAtTheFrameEvent() {
        let window = Target()
        var collector = TouchFrameCollector<Target>()
        _ = collector.add(down1, for: window)
        _ = collector.add(down2, for: window)
        XCTAssertEqual(collector.pending, [down1, down2], "nothing is delivered before the frame")
        let frames = take(&collector)
        XCTAssertEqual(frames.count, 1)
        XCTAssertTrue(frames.first?.0 === window)
        XCTAssertEqual(frames.first?.1, TouchFrame(events: [down1, down2]))
        XCTAssertEqual(frames.first?.1.events.map(\.serial), [7, 8])
        XCTAssertEqual(frames.first?.1.events.map(\.time), [1000, 1000])
        XCTAssertTrue(take(&collector).isEmpty, "a frame event with nothing collected delivers nothing")

        // The next frame: two fingers moving, one lifted.
        _ = collector.add(move1, for: window)
        _ = collector.add(move2, for: window)
        _ = collector.add(up1, for: window)
        XCTAssertEqual(take(&collector).map(\.1), [TouchFrame(events: [move1, move2, up1])])
    }

    func testPointsOnTwoWindowsInOneFrameGiveEachWindowItsOwnFrameInOrder() {
        let first = Target(), second = Target()
        var collector = TouchFrameCollector<Target>()
        _ = collector.add(move2, for: second)
        _ = collector.add(move1, for: first)
        _ = collector.add(up1, for: first)
        let frames = take(&collector)
        XCTAssertEqual(frames.count, 2)
        XCTAssertTrue(frames[0].0 === second, "windows in the order of their first event")
        XCTAssertEqual(frames[0].1.events, [move2])
        XCTAssertTrue(frames[1].0 === first)
        XCTAssertEqual(frames[1].1.events, [move1, up1])
    }

    func testCancelDropsTheCollectedEventsAndReachesEveryWindowWithLivePointsOnce() {
        let first = Target(), second = Target(), idle = Target()
        var collector = TouchFrameCollector<Target>()
        _ = collector.add(move1, for: first)      // collected, then cancelled before its frame
        var cancelled: [(Target, TouchFrame)] = []
        collector.cancel(live: [first, second, first]) { cancelled.append(($0, $1)) }
        XCTAssertEqual(cancelled.count, 2)
        XCTAssertTrue(cancelled[0].0 === first)
        XCTAssertTrue(cancelled[1].0 === second)
        XCTAssertFalse(cancelled.contains { $0.0 === idle })
        for (_, frame) in cancelled { XCTAssertEqual(frame.events, [TouchEvent(.cancel)]) }
        XCTAssertEqual(collector.pending, [])
        XCTAssertTrue(take(&collector).isEmpty, "the cancelled events never arrive")
    }

    func testATargetFreedBeforeTheFrameGetsNothing() {
        var collector = TouchFrameCollector<Target>()
        let kept = Target()
        do {
            let window = Target()
            _ = collector.add(down1, for: window)
        }
        _ = collector.add(down2, for: kept)
        let frames = take(&collector)
        XCTAssertEqual(frames.count, 1)
        XCTAssertTrue(frames.first?.0 === kept)
        XCTAssertEqual(frames.first?.1.events, [down2])
    }

    func testTheDeliveredArraysAreReusedWithTheirCapacity() {
        let window = Target()
        var collector = TouchFrameCollector<Target>()
        for _ in 0..<8 { _ = collector.add(move1, for: window) }
        var capacity = 0
        collector.take { _, frame in capacity = frame.events.capacity }
        _ = collector.add(move2, for: window)
        var reused = 0
        collector.take { _, frame in reused = frame.events.capacity }
        XCTAssertGreaterThanOrEqual(reused, capacity, "the next frame fills the same storage")
    }

    /// mutter 43 and weston 10 send no `frame` after the up of the last touch point: that up says
    /// to hand the frame out at once; an up that leaves another point down waits for the frame.
    func testTheUpOfTheLastTouchPointEndsTheFrame() {
        let window = Target()
        var collector = TouchFrameCollector<Target>()
        XCTAssertFalse(collector.add(down1, for: window))
        XCTAssertFalse(collector.add(down2, for: window))
        XCTAssertEqual(take(&collector).map(\.1.events), [[down1, down2]])
        XCTAssertFalse(collector.add(up1, for: window), "point 2 is still down: wait for the frame")
        XCTAssertFalse(collector.add(move2, for: window))
        XCTAssertEqual(take(&collector).map(\.1.events), [[up1, move2]])
        XCTAssertTrue(collector.add(TouchEvent(.up(id: 2), serial: 10, time: 1048), for: window), "the last point lifted")
        XCTAssertEqual(take(&collector).map(\.1.events), [[TouchEvent(.up(id: 2), serial: 10, time: 1048)]])
        XCTAssertTrue(take(&collector).isEmpty, "a frame after it finds nothing")
        // A cancel forgets the points down: the next tap's up is again the last one.
        XCTAssertFalse(collector.add(down1, for: window))
        collector.cancel(live: [window]) { _, _ in }
        XCTAssertFalse(collector.add(down2, for: window))
        XCTAssertTrue(collector.add(TouchEvent(.up(id: 2)), for: window))
    }
}
