import CModalKitWaylandClient
import Glibc

/// `wl_keyboard` of a seat: keymap (via ``XkbKeyboard``), focus, keys, modifiers, and key repeat
/// on a timerfd watched by the connection's poll loop.
/// Owns its proxy (`deinit` sends `release` on v3+, else destroys it) and the timer.
final class Keyboard {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    let version: UInt32
    /// Weak: devices are destroyed from the connection's `deinit`, when it can no longer be retained.
    private weak var connection: WaylandConnection?
    let xkb: XkbKeyboard
    private(set) weak var focus: Window?
    private(set) var repeatInfo = RepeatInfo.default
    private var repeatState = KeyRepeatState()
    private let timer: RepeatTimer?
    /// The seat this keyboard belongs to: every key event carries it.
    let seatID: SeatID
    /// The serial of the latest `enter` or `key` (what `set_selection` names for Ctrl+C).
    private(set) var lastSerial: UInt32?

    init?(proxy: OpaquePointer, seatID: SeatID, display: Display, connection: WaylandConnection) {
        guard let xkb = XkbKeyboard() else { return nil }
        self.proxy = proxy
        self.seatID = seatID
        self.display = display
        version = wl_proxy_get_version(proxy)
        self.connection = connection
        self.xkb = xkb
        timer = RepeatTimer()
        wl_keyboard_add_listener(proxy, Keyboard.listener, userData(self))
        if let timer {
            connection.addReadSource(fd: timer.fd) { [weak self] in self?.repeatTimerFired() }
        }
    }

    deinit {
        if let timer { connection?.removeReadSource(fd: timer.fd) }
        if version >= 3 { wl_keyboard_release(proxy) } else { wl_keyboard_destroy(proxy) }
    }

    /// The focused window was closed.
    func windowClosed(_ window: Window) {
        if focus === window {
            focus = nil
            stopRepeat()
        }
    }

    private func stopRepeat() {
        if repeatState.stop() { timer?.disarm() }
    }

    /// The keymap is kept as text and compiled when keys first matter: at the first focus, key or
    /// modifiers event (a compositor focuses a window once it is mapped, after its first frame).
    private func keymap(format: UInt32, fd: Int32, size: UInt32) {
        stopRepeat()
        report(xkb.storeKeymap(format: format, fd: fd, size: size))
    }

    /// Compiles a stored keymap before its first use, with the one warning when it does not compile.
    private func compileKeymap() {
        if let outcome = xkb.compilePendingKeymap() { report(outcome) }
    }

    private func report(_ outcome: XkbKeyboard.KeymapLoad) {
        if case let .failed(reason) = outcome {
            fputs("warning: unusable keymap from the compositor (\(reason)); keys are ignored until a valid one arrives\n", stderr)
        }
    }

    private func key(code: UInt32, pressed: Bool, serial: UInt32, time: UInt32) {
        guard let focus else { return }
        lastSerial = serial
        compileKeymap()
        if pressed {
            if repeatState.keyPressed(code, repeats: xkb.keyRepeats(code: code), info: repeatInfo) {
                timer?.arm(repeatInfo)
            }
        } else if repeatState.keyReleased(code) {
            timer?.disarm()
        }
        var event = xkb.event(code: code, pressed: pressed, isRepeat: false)
        event.serial = serial
        event.time = time
        event.seat = seatID
        focus.deliver(event)
    }

    /// The repeat timer expired (once or more since the last read): one synthesised press at
    /// most (``KeyRepeatState/pressesDue(expirations:)``). The loop dispatches the Wayland events
    /// it read before it runs this, so a release read in the same wake-up has stopped the repeat
    /// already, and disarming the timer (`timerfd_settime`) cleared the expirations.
    private func repeatTimerFired() {
        let expirations = timer?.readExpirations() ?? 0
        guard repeatState.pressesDue(expirations: expirations) > 0, let focus, let code = repeatState.key else { return }
        var event = xkb.event(code: code, pressed: true, isRepeat: true)
        event.seat = seatID
        focus.deliver(event)
    }

    private static let listener = listenerTable(wl_keyboard_listener(
        keymap: { data, _, format, fd, size in
            owner(data, as: Keyboard.self).keymap(format: format, fd: fd, size: size)
        },
        enter: { data, _, serial, surface, _ in
            // Keys already down at enter are not replayed as presses (they were pressed elsewhere).
            let keyboard = owner(data, as: Keyboard.self)
            keyboard.lastSerial = serial
            keyboard.compileKeymap()
            keyboard.focus = keyboard.connection?.window(for: surface)
        },
        leave: { data, _, _, _ in
            let keyboard = owner(data, as: Keyboard.self)
            keyboard.focus = nil
            keyboard.stopRepeat()
        },
        key: { data, _, serial, time, key, state in
            owner(data, as: Keyboard.self).key(code: key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue,
                                               serial: serial, time: time)
        },
        modifiers: { data, _, _, depressed, latched, locked, group in
            owner(data, as: Keyboard.self).compileKeymap()
            owner(data, as: Keyboard.self).xkb.updateModifiers(depressed: depressed, latched: latched,
                                                               locked: locked, group: group)
        },
        repeat_info: { data, _, rate, delay in
            let keyboard = owner(data, as: Keyboard.self)
            keyboard.repeatInfo = RepeatInfo(rate: rate, delay: delay)
            if !keyboard.repeatInfo.isEnabled { keyboard.stopRepeat() }
        }))
}
