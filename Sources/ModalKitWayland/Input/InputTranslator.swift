import ModalKit
import ModalKitWaylandClient

/// Wayland input on the window's content as the host's input (``PresentationInput``), each event
/// with its time on the monotonic clock: pointer motion and the primary button, touch points, and
/// the keys the host routes.
///
/// Pointer and touch share one ``InputClock`` (the one that drag velocities come from); keys have
/// their own, because a keyboard's stamps may be on another base (a virtual keyboard stamps its
/// own): converting them with the pointer's base would move that base and shift pointer times.
struct InputTranslator {
    /// Linux input event code of the primary pointer button (linux/input-event-codes.h `BTN_LEFT`).
    static let primaryButton: UInt32 = 0x110

    private(set) var clock = InputClock()
    private var keyClock = InputClock()

    /// `frame`'s events as host input, in order, each with its time; received at `receivedAt`.
    mutating func translate(_ frame: PointerFrame, receivedAt now: Double, _ deliver: (PresentationInput, Double) -> Void) {
        for event in frame.events {
            let t = clock.now(eventTime: event.time, clock: now)
            switch event.kind {
            case let .enter(x, y), let .motion(x, y): deliver(.pointerMotion(Point(x: x, y: y)), t)
            case .leave: deliver(.pointerLeave, t)
            case let .button(code, pressed):
                guard code == Self.primaryButton else { continue }
                deliver(.pointerButton(pressed: pressed), t)
            }
        }
    }

    /// `frame`'s events as host input, in order, each with its time; received at `receivedAt`.
    mutating func translate(_ frame: TouchFrame, receivedAt now: Double, _ deliver: (PresentationInput, Double) -> Void) {
        for event in frame.events {
            let t = clock.now(eventTime: event.time, clock: now)
            switch event.kind {
            case let .down(id, x, y): deliver(.touchDown(id: id, Point(x: x, y: y)), t)
            case let .motion(id, x, y): deliver(.touchMotion(id: id, Point(x: x, y: y)), t)
            case let .up(id): deliver(.touchUp(id: id), t)
            case .cancel: deliver(.touchCancel, t)
            }
        }
    }

    /// `event` as host input with its time, or nil for a key the host does not route (or a repeat
    /// of one that does not repeat).
    mutating func translate(_ event: KeyEvent, receivedAt now: Double) -> (PresentationInput, Double)? {
        guard let key = PresentationKey(keysym: event.keysym), !event.isRepeat || key.repeats else { return nil }
        return (.key(key, pressed: event.pressed), keyClock.now(eventTime: event.time, clock: now))
    }
}
