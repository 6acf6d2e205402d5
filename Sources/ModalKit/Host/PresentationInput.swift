/// Input delivered to a ``PresentationHost``. Positions are container points (the window's
/// surface-local logical coordinates).
///
/// An event carries no time of its own: it comes with the `now` of ``PresentationHost/handle(_:now:)``,
/// which should be when the event happened, on the monotonic clock — a drag's release velocity is
/// measured from those times (the samples of the last 100 ms: article "Interactive transitions"). ModalKitWayland's window passes each event's compositor time (`wl_pointer.motion`,
/// `wl_touch.motion`, `wl_keyboard.key`: milliseconds on the compositor's base) converted to the
/// monotonic clock, not the time the client read it (its `InputClock`).
///
/// Input of several seats (a compositor's `wl_seat`s: each its own pointer, keyboard and touch
/// device) comes through ``PresentationHost/handle(_:from:now:)`` with its ``InputSeat``; each seat
/// has its own pointer position, press and touch points there (article "Interactive transitions",
/// "Several seats").
public enum PresentationInput: Hashable, Sendable {
    /// The pointer is at this point (also when it enters the container).
    case pointerMotion(Point)
    /// The primary pointer button (BTN_LEFT) went down or up at the last motion position.
    case pointerButton(pressed: Bool)
    /// The pointer's wheel or touchpad scrolled at the last motion position (one `wl_pointer.frame`'s
    /// axis events): `scroll.delta` in points with `wl_pointer.axis`'s sign, its wheel steps and
    /// source; phase ``ScrollPhase/changed``, or ``ScrollPhase/ended`` for a touchpad's
    /// `axis_stop` (the host then decelerates). `scroll.location` is not read. It reaches the
    /// content under the pointer, never one beneath a modal layer.
    case pointerScroll(ScrollInput)
    /// The pointer left the window: a pointer press in progress ends without a tap.
    case pointerLeave
    /// A touch point `id` went down here (`id`: the compositor's, unique while the point is down).
    /// Only the first touch point makes a press; others are ignored until it ends.
    case touchDown(id: Int32, Point)
    /// Touch point `id` moved here.
    case touchMotion(id: Int32, Point)
    /// Touch point `id` was lifted where it last was.
    case touchUp(id: Int32)
    /// The compositor took the touch sequence over (e.g. for a gesture): no tap happens.
    case touchCancel
    /// Key presses; releases (`pressed: false`) are ignored. The meaning alone: the content gets
    /// ``ContentInput/key(_:)`` (no ``ContentInput/keyboard(_:)``).
    case key(PresentationKey, pressed: Bool)
    /// A key event of the keyboard (press, repeat, release; ModalKitWayland's window sends every
    /// one): to the focused content as ``ContentInput/keyboard(_:)`` first, then, for a press or
    /// repeat it did not use, as ``key(_:pressed:)`` (``KeyInput``'s routing rule). Like keys, to
    /// the top level only.
    case keyboard(KeyInput)
    /// A request of assistive technology for the content of `level` (0: the presenting content;
    /// n: presented level n), for an element of its ``PresentationContent/accessibilityElement``.
    /// Routed as keys are, to the top level only: a request for a level hidden under a modal level
    /// (or no longer there) is ignored (UIKit's `accessibilityViewIsModal`).
    case accessibility(AccessibilityRequest, level: Int)
}

/// The input seat an event came from: a group of a pointer, a keyboard and a touch device that one
/// user works (Wayland's `wl_seat`; a compositor may offer several, e.g. a second mouse and
/// keyboard on sway's `seat1`, or a remote desktop on its own seat). ``PresentationHost`` keeps
/// each seat's pointer position, press and touch points apart: a press belongs to the seat that
/// began it until that seat ends it (wlroots and smithay keep their input state per seat the same
/// way); touch point ids are unique within their seat only.
public struct InputSeat: Hashable, Sendable {
    /// Identifies the seat among the seats of one window's input (ModalKitWayland uses the
    /// `wl_seat` global's registry name). Any value works as long as one seat keeps one value.
    public var rawValue: UInt32

    /// The seat named `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The seat of ``PresentationHost/handle(_:now:)``: input given without a seat.
    public static let primary = InputSeat(rawValue: 0)
}
