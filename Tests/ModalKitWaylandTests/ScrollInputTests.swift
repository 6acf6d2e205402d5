import ModalKit
@testable import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// A frame's scroll as the host's input: amounts and steps with the source, then an `axis_stop`
/// as phase ended; frames of a touchpad gesture that name no source stay the gesture's.
final class ScrollInputTests: XCTestCase {
    private func translate(_ input: inout InputTranslator, _ scroll: PointerScroll, time: UInt32) -> [PresentationInput] {
        var seen: [PresentationInput] = []
        input.translate(PointerFrame(events: [PointerEvent(.scroll(scroll), time: time)]), receivedAt: 10) { e, _ in seen.append(e) }
        return seen
    }

    func testWheelAndTouchpadFrames() {
        var input = InputTranslator()
        XCTAssertEqual(translate(&input, PointerScroll(dy: 15, value120Y: 120, source: .wheel), time: 1000),
                       [.pointerScroll(ScrollInput(delta: Point(x: 0, y: 15), steps120Y: 120, source: .wheel))])
        XCTAssertEqual(translate(&input, PointerScroll(dx: 1, dy: 4, source: .finger), time: 1010),
                       [.pointerScroll(ScrollInput(delta: Point(x: 1, y: 4), source: .finger))])
        // A frame of the same gesture without a source is the touchpad's still.
        XCTAssertEqual(translate(&input, PointerScroll(dy: 2), time: 1020),
                       [.pointerScroll(ScrollInput(delta: Point(x: 0, y: 2), source: .finger))])
        // The stop, with a last amount in the same frame: the amount, then phase ended.
        XCTAssertEqual(translate(&input, PointerScroll(dy: 1, stopY: true), time: 1030),
                       [.pointerScroll(ScrollInput(delta: Point(x: 0, y: 1), source: .finger)),
                        .pointerScroll(ScrollInput(delta: .zero, source: .finger, phase: .ended))])
        // After the gesture, a frame without a source is a continuous device's.
        XCTAssertEqual(translate(&input, PointerScroll(dy: 3), time: 1040),
                       [.pointerScroll(ScrollInput(delta: Point(x: 0, y: 3), source: .continuous))])
    }
}
