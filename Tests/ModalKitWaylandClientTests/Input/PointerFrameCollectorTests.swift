import XCTest
@testable import ModalKitWaylandClient

/// Pointer events reach the delegate grouped as `wl_pointer.frame` groups them (wayland.xml,
/// wl_pointer.frame since 5: "a set of events that logically belong together"); before version 5
/// each event is a frame of its own. Serial and time ride along unchanged.
final class PointerFrameCollectorTests: XCTestCase {
    private final class Target {}

    private let enter = PointerEvent(.enter(x: 10, y: 20), serial: 7)
    private let motion = PointerEvent(.motion(x: 11.5, y: 20.25), time: 1000)
    private let press = PointerEvent(.button(code: 0x110, pressed: true), serial: 8, time: 1016)
    private let leave = PointerEvent(.leave, serial: 9)

    func testEventsOfOneFrameAreDeliveredTogetherAtTheFrameEvent() {
        let window = Target()
        var collector = PointerFrameCollector<Target>(groupsByFrame: true)
        XCTAssertNil(collector.add(enter, for: window))
        XCTAssertNil(collector.add(motion, for: window))
        XCTAssertNil(collector.add(press, for: window))
        let frame = collector.take()
        XCTAssertTrue(frame?.target === window)
        XCTAssertEqual(frame?.frame, PointerFrame(events: [enter, motion, press]))
        XCTAssertEqual(frame?.frame.events.map(\.serial), [7, nil, 8])
        XCTAssertEqual(frame?.frame.events.map(\.time), [nil, 1000, 1016])
        XCTAssertNil(collector.take(), "a frame event with nothing collected delivers nothing")
    }

    func testALeaveAndAnEnterOnAnotherWindowInOneFrameGoToEachWindow() {
        let first = Target(), second = Target()
        var collector = PointerFrameCollector<Target>(groupsByFrame: true)
        XCTAssertNil(collector.add(motion, for: first))
        XCTAssertNil(collector.add(leave, for: first))
        let firstFrame = collector.add(enter, for: second)
        XCTAssertTrue(firstFrame?.target === first)
        XCTAssertEqual(firstFrame?.frame.events, [motion, leave])
        let secondFrame = collector.take()
        XCTAssertTrue(secondFrame?.target === second)
        XCTAssertEqual(secondFrame?.frame.events, [enter])
    }

    func testWithoutFrameEventsEveryEventIsItsOwnFrame() {
        let window = Target()
        var collector = PointerFrameCollector<Target>(groupsByFrame: false)
        for event in [enter, motion, press, leave] {
            let frame = collector.add(event, for: window)
            XCTAssertTrue(frame?.target === window)
            XCTAssertEqual(frame?.frame.events, [event])
            XCTAssertEqual(collector.pending, [])
        }
        XCTAssertNil(collector.take())
    }

    func testAClosedWindowLosesItsCollectedEvents() {
        let closed = Target(), other = Target()
        var collector = PointerFrameCollector<Target>(groupsByFrame: true)
        XCTAssertNil(collector.add(motion, for: closed))
        collector.drop(other)
        XCTAssertEqual(collector.pending, [motion], "dropping another window changes nothing")
        collector.drop(closed)
        XCTAssertEqual(collector.pending, [])
        XCTAssertNil(collector.take())
    }

    func testATargetFreedBeforeTheFrameGetsNothing() {
        var collector = PointerFrameCollector<Target>(groupsByFrame: true)
        do {
            let window = Target()
            XCTAssertNil(collector.add(motion, for: window))
        }
        XCTAssertNil(collector.take())
        XCTAssertEqual(collector.pending, [])
    }

    func testTheDeliveredArrayIsReusedWithItsCapacity() {
        let window = Target()
        var collector = PointerFrameCollector<Target>(groupsByFrame: true)
        for _ in 0..<8 { _ = collector.add(motion, for: window) }
        guard var ready = collector.take() else { return XCTFail("no frame") }
        let capacity = ready.frame.events.capacity
        collector.reuse(&ready.frame.events)
        XCTAssertEqual(ready.frame.events, [])
        _ = collector.add(press, for: window)
        XCTAssertGreaterThanOrEqual(collector.pending.capacity, capacity, "the next frame fills the same storage")
        XCTAssertEqual(collector.pending, [press])
    }
}
