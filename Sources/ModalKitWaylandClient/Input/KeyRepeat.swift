import CModalKitWaylandClient
import Glibc

/// `wl_keyboard.repeat_info`: `rate` repeats per second after `delay` milliseconds.
/// wl_keyboard: a rate of 0 disables repeat. Before v4 the compositor sends none; this client then
/// uses 25/s after 600 ms (the common desktop default).
struct RepeatInfo: Equatable {
    var rate: Int32
    var delay: Int32

    static let `default` = RepeatInfo(rate: 25, delay: 600)

    var isEnabled: Bool { rate > 0 }

    /// The timer: first expiry after `delay`, then every `1/rate` s; nil when disabled.
    /// A zero delay becomes 1 ns (an all-zero `it_value` would disarm the timer).
    var timerSpec: itimerspec? {
        guard rate > 0 else { return nil }
        let interval = 1_000_000_000 / Int(rate)
        let delayNanoseconds = max(1, Int(max(0, delay)) * 1_000_000)
        return itimerspec(it_interval: timespec(tv_sec: interval / 1_000_000_000, tv_nsec: interval % 1_000_000_000),
                          it_value: timespec(tv_sec: delayNanoseconds / 1_000_000_000,
                                             tv_nsec: delayNanoseconds % 1_000_000_000))
    }
}

/// Which key repeats (at most one: the last repeating key pressed), without any timer.
struct KeyRepeatState: Equatable {
    /// The evdev code of the repeating key.
    private(set) var key: UInt32?

    /// A key went down. - Returns: true when the repeat timer must be (re)armed for it.
    mutating func keyPressed(_ code: UInt32, repeats: Bool, info: RepeatInfo) -> Bool {
        guard repeats, info.isEnabled else { return false }
        key = code
        return true
    }

    /// A key went up. - Returns: true when the repeat timer must be disarmed (it was the repeating key).
    mutating func keyReleased(_ code: UInt32) -> Bool {
        guard key == code else { return false }
        key = nil
        return true
    }

    /// How many repeat presses `expirations` timer expirations (read from the timerfd) deliver:
    /// one when a key repeats and the timer expired at all, else none. Expirations pile up while
    /// the process cannot run (stopped by SIGSTOP, a debugger, a stalled machine); delivering one
    /// press each would type a burst after the stall that the user never saw while holding the key.
    func pressesDue(expirations: UInt64) -> Int { key != nil && expirations > 0 ? 1 : 0 }

    /// Focus left, the keymap changed or repeat was disabled. - Returns: true when a key was repeating.
    mutating func stop() -> Bool {
        defer { key = nil }
        return key != nil
    }
}

/// A non-blocking `CLOCK_MONOTONIC` timerfd that drives key repeat inside the connection's poll
/// loop (no thread, no busy wait). Owns the fd (closed in `deinit`).
final class RepeatTimer {
    let fd: Int32

    init?() {
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        if fd < 0 { return nil }
    }

    deinit { close(fd) }

    func arm(_ info: RepeatInfo) {
        guard var spec = info.timerSpec else { return disarm() }
        timerfd_settime(fd, 0, &spec, nil)
    }

    func disarm() {
        var spec = itimerspec()
        timerfd_settime(fd, 0, &spec, nil)
    }

    /// Reads the number of expirations since the last read (0 when none: EAGAIN).
    func readExpirations() -> UInt64 {
        var count: UInt64 = 0
        let result = read(fd, &count, MemoryLayout<UInt64>.size)
        return result == MemoryLayout<UInt64>.size ? count : 0
    }
}
