import ModalKit
import ModalKitWaylandClient

/// Wayland input on the window's content as the host's input (``PresentationInput``), each event
/// with its time on the monotonic clock: pointer motion, the primary button and scrolls (a frame's
/// axis events as one ``PresentationInput/pointerScroll(_:)``), touch points, and the keys the
/// host routes.
///
/// Each seat (``SeatID``) has its own state here: its devices stamp their own times (a second
/// seat may be a virtual pointer with another base) and its touchpad gesture is its own. Within a
/// seat, pointer and touch share one ``InputClock`` (the one that drag velocities come from); keys
/// have their own, because a keyboard's stamps may be on another base (a virtual keyboard stamps
/// its own): converting them with the pointer's base would move that base and shift pointer times.
struct InputTranslator {
    /// Linux input event code of the primary pointer button (linux/input-event-codes.h `BTN_LEFT`).
    static let primaryButton: UInt32 = 0x110

    /// One seat's state.
    struct SeatState {
        var clock = InputClock()
        /// The source of the touchpad gesture under way (a compositor may name it only in its
        /// first frame): frames without a source until its `axis_stop` are its.
        var scrollSource: ScrollSource?
        var keyClock = InputClock()
    }
    private(set) var seats: [SeatID: SeatState] = [:]

    /// The host's name for `seat`.
    static func inputSeat(_ seat: SeatID) -> InputSeat { InputSeat(rawValue: seat.rawValue) }

    /// `frame`'s events as host input, in order, each with its time; received at `receivedAt`.
    mutating func translate(_ frame: PointerFrame, receivedAt now: Double, _ deliver: (PresentationInput, Double) -> Void) {
        var state = seats[frame.seat] ?? SeatState()
        defer { seats[frame.seat] = state }
        for event in frame.events {
            let t = state.clock.now(eventTime: event.time, clock: now)
            switch event.kind {
            case let .enter(x, y), let .motion(x, y): deliver(.pointerMotion(Point(x: x, y: y)), t)
            case .leave: deliver(.pointerLeave, t)
            case let .button(code, pressed):
                guard code == Self.primaryButton else { continue }
                deliver(.pointerButton(pressed: pressed), t)
            case let .scroll(scroll):
                Self.translate(scroll, at: t, source: &state.scrollSource, deliver)
            }
        }
    }

    /// One frame's scroll as host input: its amounts (phase changed), then — when `axis_stop` came
    /// (fingers lifted) — phase ended. Without a source named: the gesture's under way, a stop's
    /// own (finger: only touchpads send it), else continuous.
    private static func translate(_ scroll: PointerScroll, at t: Double, source scrollSource: inout ScrollSource?,
                                  _ deliver: (PresentationInput, Double) -> Void) {
        let stopped = scroll.stopX || scroll.stopY
        let source: ScrollSource
        switch scroll.source {
        case .wheel?: source = .wheel
        case .wheelTilt?: source = .wheelTilt
        case .finger?: source = .finger
        case .continuous?: source = .continuous
        case nil: source = scrollSource ?? (stopped ? .finger : .continuous)
        }
        scrollSource = source == .finger && !stopped ? .finger : nil
        if scroll.dx != 0 || scroll.dy != 0 || scroll.value120X != 0 || scroll.value120Y != 0 {
            deliver(.pointerScroll(ScrollInput(delta: Point(x: scroll.dx, y: scroll.dy), steps120X: scroll.value120X,
                                               steps120Y: scroll.value120Y, source: source)), t)
        }
        if stopped { deliver(.pointerScroll(ScrollInput(delta: .zero, source: source, phase: .ended)), t) }
    }

    /// `frame`'s events as host input, in order, each with its time; received at `receivedAt`.
    mutating func translate(_ frame: TouchFrame, receivedAt now: Double, _ deliver: (PresentationInput, Double) -> Void) {
        var state = seats[frame.seat] ?? SeatState()
        defer { seats[frame.seat] = state }
        for event in frame.events {
            let t = state.clock.now(eventTime: event.time, clock: now)
            switch event.kind {
            case let .down(id, x, y): deliver(.touchDown(id: id, Point(x: x, y: y)), t)
            case let .motion(id, x, y): deliver(.touchMotion(id: id, Point(x: x, y: y)), t)
            case let .up(id): deliver(.touchUp(id: id), t)
            case .cancel: deliver(.touchCancel, t)
            }
        }
    }

    /// `event` as host input with its time: every press, repeat (ModalKitWaylandClient repeats the keys
    /// whose keymap says they repeat, `xkb_keymap_key_repeats`) and release, as
    /// ``PresentationInput/keyboard(_:)`` for the focused content (``KeyInput``'s routing rule).
    /// nil only for an event without a keysym or a key code (no keymap, nothing to say).
    mutating func translate(_ event: KeyEvent, receivedAt now: Double) -> (PresentationInput, Double)? {
        guard event.keysym != 0 || event.code != 0 else { return nil }
        let phase: KeyInput.Phase = !event.pressed ? .release : event.isRepeat ? .repeat : .press
        let key = KeyInput(keysym: event.keysym, phase: phase, text: event.utf8,
                           modifiers: KeyInput.Modifiers(event.modifiers), code: event.code)
        return (.keyboard(key), seats[event.seat, default: SeatState()].keyClock.now(eventTime: event.time, clock: now))
    }
}

extension KeyInput.Modifiers {
    /// ModalKitWaylandClient's modifiers by name (the same six: Shift, Control, Alt, Super, Caps and Num Lock).
    init(_ m: KeyModifiers) {
        var r: KeyInput.Modifiers = []
        if m.contains(.shift) { r.insert(.shift) }
        if m.contains(.control) { r.insert(.control) }
        if m.contains(.alt) { r.insert(.alt) }
        if m.contains(.logo) { r.insert(.logo) }
        if m.contains(.capsLock) { r.insert(.capsLock) }
        if m.contains(.numLock) { r.insert(.numLock) }
        self = r
    }
}
