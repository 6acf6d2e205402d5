import CModalKitWaylandClient
import XCTest
@testable import ModalKitWaylandClient

/// The axis events of one `wl_pointer.frame` become one scroll (wayland.xml, wl_pointer: `axis`,
/// `axis_source` and `axis_stop` since 5, `axis_discrete` 5–7, `axis_value120` since 8).
final class PointerScrollCollectorTests: XCTestCase {
    private let vertical = WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue
    private let horizontal = WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue

    func testAWheelStepOfVersion8() {
        var c = PointerScrollCollector()
        c.source(WL_POINTER_AXIS_SOURCE_WHEEL.rawValue)
        c.value120(vertical, 120)
        c.axis(vertical, value: 15, time: 2000)
        XCTAssertEqual(c.take(), PointerEvent(.scroll(PointerScroll(dy: 15, value120Y: 120, source: .wheel)), time: 2000))
        XCTAssertNil(c.take(), "the next frame starts afresh")
    }

    func testDiscreteStepsOfVersions5To7CountAs120Each() {
        var c = PointerScrollCollector()
        c.source(WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue)
        c.discrete(horizontal, steps: -2)
        c.axis(horizontal, value: -30, time: 7)
        XCTAssertEqual(c.take(), PointerEvent(.scroll(PointerScroll(dx: -30, value120X: -240, source: .wheelTilt)), time: 7))
    }

    func testATouchpadFrameAddsUpAndItsStopEndsTheAxis() {
        var c = PointerScrollCollector()
        c.source(WL_POINTER_AXIS_SOURCE_FINGER.rawValue)
        c.axis(vertical, value: 3.5, time: 100)
        c.axis(horizontal, value: -1.25, time: 100)
        c.axis(vertical, value: 0.5, time: 100)
        XCTAssertEqual(c.take(), PointerEvent(.scroll(PointerScroll(dx: -1.25, dy: 4, source: .finger)), time: 100))
        // The fingers lift: a frame with the source and the stop of each axis, no amounts.
        c.source(WL_POINTER_AXIS_SOURCE_FINGER.rawValue)
        c.stop(vertical, time: 116)
        c.stop(horizontal, time: 116)
        XCTAssertEqual(c.take(), PointerEvent(.scroll(PointerScroll(source: .finger, stopX: true, stopY: true)), time: 116))
    }

    func testAContinuousSourceAndAnUnknownOne() {
        var c = PointerScrollCollector()
        c.source(WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue)
        c.axis(vertical, value: 2, time: 1)
        XCTAssertEqual(c.take()?.kind, .scroll(PointerScroll(dy: 2, source: .continuous)))
        c.source(99)   // a source a later version may add: the amount still counts
        c.axis(vertical, value: 2, time: 1)
        XCTAssertEqual(c.take()?.kind, .scroll(PointerScroll(dy: 2)))
    }
}
