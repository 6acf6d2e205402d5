import CModalKitWaylandClient
import Glibc
import XCTest
@testable import ModalKitWaylandClient

/// wl_keyboard.repeat_info: rate per second, delay in ms, rate 0 = no repeat.
final class KeyRepeatTests: XCTestCase {
    func testTimerSpecFromRepeatInfo() throws {
        let spec = try XCTUnwrap(RepeatInfo(rate: 25, delay: 600).timerSpec)
        XCTAssertEqual(spec.it_value.tv_sec, 0)
        XCTAssertEqual(spec.it_value.tv_nsec, 600_000_000)
        XCTAssertEqual(spec.it_interval.tv_sec, 0)
        XCTAssertEqual(spec.it_interval.tv_nsec, 40_000_000)
        let slow = try XCTUnwrap(RepeatInfo(rate: 1, delay: 1500).timerSpec)
        XCTAssertEqual(slow.it_value.tv_sec, 1)
        XCTAssertEqual(slow.it_value.tv_nsec, 500_000_000)
        XCTAssertEqual(slow.it_interval.tv_sec, 1)
        XCTAssertEqual(slow.it_interval.tv_nsec, 0)
    }

    func testRateZeroDisablesRepeat() {
        XCTAssertNil(RepeatInfo(rate: 0, delay: 600).timerSpec)
        XCTAssertFalse(RepeatInfo(rate: 0, delay: 600).isEnabled)
        XCTAssertNil(RepeatInfo(rate: -3, delay: 600).timerSpec)
    }

    func testZeroDelayStillArmsTheTimer() throws {
        let spec = try XCTUnwrap(RepeatInfo(rate: 10, delay: 0).timerSpec)
        XCTAssertEqual(spec.it_value.tv_sec, 0)
        XCTAssertEqual(spec.it_value.tv_nsec, 1, "an all-zero it_value would disarm")
    }

    func testAPileOfExpirationsTypesOnceAndARereleasedKeyNone() throws {
        // A stall: the timer (1000/s, no delay) expires ~50 times while nobody reads it.
        let timer = try XCTUnwrap(RepeatTimer())
        timer.arm(RepeatInfo(rate: 1000, delay: 0))
        usleep(50_000)
        let pile = timer.readExpirations()
        XCTAssertGreaterThanOrEqual(pile, 40)
        var state = KeyRepeatState()
        XCTAssertTrue(state.keyPressed(30, repeats: true, info: .default))
        XCTAssertEqual(state.pressesDue(expirations: pile), 1, "one press for the whole pile")
        XCTAssertEqual(state.pressesDue(expirations: 1), 1)
        XCTAssertEqual(state.pressesDue(expirations: 0), 0)
        // The key's release (dispatched before the timer's handler runs) disarms the timer, which
        // drops the expirations counted so far (timerfd_settime): the handler then reads none.
        usleep(10_000)
        XCTAssertTrue(state.keyReleased(30))
        timer.disarm()
        XCTAssertEqual(timer.readExpirations(), 0, "disarming clears the pile")
        XCTAssertEqual(state.pressesDue(expirations: 5), 0, "no key repeats")
    }

    func testOnlyTheLastRepeatingKeyRepeats() {
        let info = RepeatInfo.default
        var state = KeyRepeatState()
        XCTAssertTrue(state.keyPressed(30, repeats: true, info: info))
        XCTAssertEqual(state.key, 30)
        XCTAssertFalse(state.keyPressed(42, repeats: false, info: info), "Shift does not repeat")
        XCTAssertEqual(state.key, 30)
        XCTAssertFalse(state.keyReleased(42))
        XCTAssertTrue(state.keyPressed(31, repeats: true, info: info))
        XCTAssertEqual(state.key, 31)
        XCTAssertFalse(state.keyReleased(30), "releasing an older key does not stop the new repeat")
        XCTAssertTrue(state.keyReleased(31))
        XCTAssertNil(state.key)
        XCTAssertFalse(state.stop())
    }

    func testDisabledRepeatNeverStarts() {
        var state = KeyRepeatState()
        XCTAssertFalse(state.keyPressed(30, repeats: true, info: RepeatInfo(rate: 0, delay: 200)))
        XCTAssertNil(state.key)
    }

    func testStopEndsARepeat() {
        var state = KeyRepeatState()
        _ = state.keyPressed(30, repeats: true, info: .default)
        XCTAssertTrue(state.stop())
        XCTAssertNil(state.key)
    }

    func testTimerFiresAfterTheDelayAndStopsWhenDisarmed() throws {
        let timer = try XCTUnwrap(RepeatTimer())
        var fds = [pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0)]
        XCTAssertEqual(poll(&fds, 1, 0), 0, "not armed")
        timer.arm(RepeatInfo(rate: 100, delay: 20))
        XCTAssertEqual(poll(&fds, 1, 1000), 1)
        XCTAssertGreaterThanOrEqual(timer.readExpirations(), 1)
        timer.disarm()
        _ = timer.readExpirations()
        fds[0].revents = 0
        XCTAssertEqual(poll(&fds, 1, 50), 0, "disarmed")
        XCTAssertEqual(timer.readExpirations(), 0, "non-blocking read with nothing pending")
        timer.arm(RepeatInfo(rate: 0, delay: 0))   // disabled = disarm
        XCTAssertEqual(poll(&fds, 1, 50), 0)
    }
}
