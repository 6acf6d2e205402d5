import ModalKit
@testable import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// Input as the window hands it to the host: the compositor's event times on the monotonic clock
/// (`InputClock`), the primary button only, the routed keys and which of them repeat.
final class InputTests: XCTestCase {
    func testEventTimesKeepTheirSpacingWhenTheyAreReadTogether() {
        var clock = InputClock()
        // A motion read 1 ms after its stamp sets the base (receive − stamp = 95.001).
        XCTAssertEqual(clock.now(eventTime: 5000, clock: 100.001), 100.001, accuracy: 1e-9)
        // Three motions stamped 8 ms apart, read together at 100.040 (a frame held the loop): they
        // keep their spacing on the base.
        XCTAssertEqual(clock.now(eventTime: 5010, clock: 100.040), 100.011, accuracy: 1e-9)
        XCTAssertEqual(clock.now(eventTime: 5018, clock: 100.040), 100.019, accuracy: 1e-9)
        XCTAssertEqual(clock.now(eventTime: 5026, clock: 100.040), 100.027, accuracy: 1e-9)
        // One that waited less (0.5 ms) lowers the base: it and later ones follow it.
        XCTAssertEqual(clock.now(eventTime: 5100, clock: 100.1005), 100.1005, accuracy: 1e-9)
        XCTAssertEqual(clock.now(eventTime: 5110, clock: 100.130), 100.1105, accuracy: 1e-9)
        XCTAssertEqual(clock.now(eventTime: nil, clock: 100.140), 100.140, "no stamp: the receive time")
        // A stamp a second or more off the base (a new base, wrap-around) starts again.
        XCTAssertEqual(clock.now(eventTime: 5200, clock: 102), 102, accuracy: 1e-9)
        XCTAssertEqual(clock.now(eventTime: 5210, clock: 102.050), 102.010, accuracy: 1e-9)
    }

    /// A device that does not stamp its events: a wayvnc or wtype virtual keyboard sends time 0
    /// with every key, another may repeat one fixed time. Each such event is at its receive time —
    /// not at the time of a key up to a second earlier (an Escape 0.4 s after Return took
    /// Return's time, and the dismissal it started was over before its first frame).
    func testEventsOfADeviceThatDoesNotStampTakeTheirReceiveTimes() {
        var zero = InputClock()
        XCTAssertEqual(zero.now(eventTime: 0, clock: 50.000), 50.000)
        XCTAssertEqual(zero.now(eventTime: 0, clock: 50.003), 50.003)
        XCTAssertEqual(zero.now(eventTime: 0, clock: 50.400), 50.400, accuracy: 1e-9, "Escape 0.4 s after Return")
        var fixed = InputClock()
        XCTAssertEqual(fixed.now(eventTime: 777, clock: 60.000), 60.000)
        XCTAssertEqual(fixed.now(eventTime: 777, clock: 60.010), 60.000, accuracy: 1e-9,
                       "stamped alike and read together: made together (a press and its release in one read)")
        XCTAssertEqual(fixed.now(eventTime: 777, clock: 60.500), 60.500, accuracy: 1e-9, "the same stamp half a second later: no stamp")
        // A stamping device is unchanged.
        var real = InputClock()
        XCTAssertEqual(real.now(eventTime: 5000, clock: 100.001), 100.001, accuracy: 1e-9)
        XCTAssertEqual(real.now(eventTime: 5400, clock: 100.900), 100.401, accuracy: 1e-9, "read 0.5 s late: its stamp's time")
    }

    func testKeysymsTheHostRoutes() {
        XCTAssertEqual(PresentationKey(keysym: 0xff1b), .escape)
        XCTAssertEqual(PresentationKey(keysym: 0xff0d), .activate)
        XCTAssertEqual(PresentationKey(keysym: 0xff8d), .activate, "keypad Enter")
        XCTAssertEqual(PresentationKey(keysym: 0x20), .activate, "space")
        XCTAssertEqual(PresentationKey(keysym: 0xff09), .tab)
        XCTAssertEqual(PresentationKey(keysym: 0xfe20), .backTab, "Shift+Tab is ISO_Left_Tab")
        XCTAssertNil(PresentationKey(keysym: 0x61), "a")
        XCTAssertTrue(PresentationKey.tab.repeats)
        XCTAssertFalse(PresentationKey.activate.repeats)
        XCTAssertFalse(PresentationKey.escape.repeats)
    }

    func testPointerAndTouchCarryTheirEventTimesAndOnlyThePrimaryButtonCounts() {
        var input = InputTranslator()
        var seen: [(PresentationInput, Double)] = []
        // A motion read at once sets the base; the next frame is read 12 ms late.
        input.translate(PointerFrame(events: [PointerEvent(.motion(x: 9, y: 19), time: 990)]), receivedAt: 49.99) { _, _ in }
        let frame = PointerFrame(events: [
            PointerEvent(.enter(x: 10, y: 20), serial: 1),
            PointerEvent(.motion(x: 11, y: 21), time: 1000),
            PointerEvent(.button(code: 0x111, pressed: true), serial: 2, time: 1004),   // BTN_RIGHT
            PointerEvent(.button(code: 0x110, pressed: true), serial: 3, time: 1008),   // BTN_LEFT
        ])
        input.translate(frame, receivedAt: 50.02) { seen.append(($0, $1)) }
        XCTAssertEqual(seen.map(\.0), [.pointerMotion(Point(x: 10, y: 20)), .pointerMotion(Point(x: 11, y: 21)),
                                       .pointerButton(pressed: true)])
        XCTAssertEqual(seen[1].1, 50.0, accuracy: 1e-9, "when the compositor stamped it, not when it was read")
        XCTAssertEqual(seen[2].1 - seen[1].1, 0.008, accuracy: 1e-9, "8 ms apart as stamped")
        seen = []
        input.translate(TouchFrame(events: [TouchEvent(.down(id: 4, x: 1, y: 2), time: 1016),
                                            TouchEvent(.up(id: 4), time: 1032)]), receivedAt: 50.05) { seen.append(($0, $1)) }
        XCTAssertEqual(seen.map(\.0), [.touchDown(id: 4, Point(x: 1, y: 2)), .touchUp(id: 4)])
        XCTAssertEqual(seen[1].1 - seen[0].1, 0.016, accuracy: 1e-9, "touch on the pointer's clock")
    }

    func testEachSeatHasItsOwnClockAndTouchpadGesture() {
        var input = InputTranslator()
        let seat0 = SeatID(rawValue: 5), seat1 = SeatID(rawValue: 12)
        func pointer(_ seat: SeatID, _ event: PointerEvent, at now: Double) -> [(PresentationInput, Double)] {
            var seen: [(PresentationInput, Double)] = []
            input.translate(PointerFrame(events: [event], seat: seat), receivedAt: now) { seen.append(($0, $1)) }
            return seen
        }
        // seat0 stamps near 1 000 ms, seat1 (another device, another base) near 900 000 ms.
        _ = pointer(seat0, PointerEvent(.motion(x: 1, y: 1), time: 1000), at: 50.000)
        _ = pointer(seat1, PointerEvent(.motion(x: 2, y: 2), time: 900_000), at: 50.001)
        // Each keeps its spacing on its own base: read 20 ms late, stamped 8 ms after its last.
        XCTAssertEqual(pointer(seat0, PointerEvent(.motion(x: 1, y: 2), time: 1008), at: 50.030)[0].1, 50.008, accuracy: 1e-9)
        XCTAssertEqual(pointer(seat1, PointerEvent(.motion(x: 2, y: 3), time: 900_008), at: 50.031)[0].1, 50.009, accuracy: 1e-9)
        // seat0's touchpad gesture names its source in its first frame only; seat1's wheel
        // meanwhile is a wheel, and seat1's source-less frame is not seat0's gesture's.
        XCTAssertEqual(pointer(seat0, PointerEvent(.scroll(PointerScroll(dy: 4, source: .finger)), time: 1016), at: 50.04).map(\.0),
                       [.pointerScroll(ScrollInput(delta: Point(x: 0, y: 4), source: .finger))])
        XCTAssertEqual(pointer(seat1, PointerEvent(.scroll(PointerScroll(dy: 15, value120Y: 120, source: .wheel)), time: 900_016),
                               at: 50.04).map(\.0),
                       [.pointerScroll(ScrollInput(delta: Point(x: 0, y: 15), steps120Y: 120, source: .wheel))])
        XCTAssertEqual(pointer(seat1, PointerEvent(.scroll(PointerScroll(dy: 3)), time: 900_024), at: 50.05).map(\.0),
                       [.pointerScroll(ScrollInput(delta: Point(x: 0, y: 3), source: .continuous))])
        XCTAssertEqual(pointer(seat0, PointerEvent(.scroll(PointerScroll(dy: 2)), time: 1024), at: 50.05).map(\.0),
                       [.pointerScroll(ScrollInput(delta: Point(x: 0, y: 2), source: .finger))], "still seat0's gesture")
        XCTAssertEqual(InputTranslator.inputSeat(seat1), InputSeat(rawValue: 12))
    }

    func testEveryKeyEventReachesTheHostWithKeysymTextModifiersAndPhase() {
        var input = InputTranslator()
        func key(_ sym: UInt32, pressed: Bool = true, repeat r: Bool = false, utf8: String = "",
                 modifiers: KeyModifiers = [], code: UInt32 = 0) -> PresentationInput? {
            input.translate(KeyEvent(keysym: sym, pressed: pressed, isRepeat: r, utf8: utf8, modifiers: modifiers,
                                     code: code, time: 1000), receivedAt: 1)?.0
        }
        XCTAssertEqual(key(0x41, utf8: "A", modifiers: [.shift, .numLock], code: 30),
                       .keyboard(KeyInput(keysym: 0x41, phase: .press, text: "A", modifiers: [.shift, .numLock], code: 30)))
        XCTAssertEqual(key(0x61, repeat: true, utf8: "a", code: 30),
                       .keyboard(KeyInput(keysym: 0x61, phase: .repeat, text: "a", code: 30)), "every repeat, not Tab's only")
        XCTAssertEqual(key(0x61, pressed: false, code: 30), .keyboard(KeyInput(keysym: 0x61, phase: .release, code: 30)))
        XCTAssertEqual(key(0xff0d, repeat: true, utf8: "\r", modifiers: [.control, .alt, .logo, .capsLock], code: 28),
                       .keyboard(KeyInput(keysym: 0xff0d, phase: .repeat, text: "\r",
                                          modifiers: [.control, .alt, .logo, .capsLock], code: 28)),
                       "a held Return repeats to the content (the host acts on its first press only)")
        XCTAssertNil(key(0, code: 0), "no keymap and no code: nothing to say")
    }
}
