/// Input event times on the monotonic clock: the window passes each pointer, touch and key event
/// to the host with the time the compositor stamped on it (`wl_pointer.motion`, `wl_touch.motion`,
/// `wl_keyboard.key`…: milliseconds on an undefined base), converted to `monotonicSeconds()`,
/// not the time the client got round to reading it (events queued while a frame renders arrive
/// together, and a drag's release velocity over the last 100 ms would see them bunched: article
/// "Interactive transitions").
///
/// The base is the smallest `receive time − event time` seen (the event that waited least); a
/// jump of a second or more (a new base, wrap-around at 2³² ms) resets it. An event without a time
/// (an enter, a leave, a key repeat the client made up) takes the receive time, and so does one
/// from a device that does not stamp: time 0 (wayvnc's and wtype's virtual keyboards send 0 with
/// every key), or the same time as the event before it though received more than
/// ``unstampedAfter`` later. Mapped with a base, such keys took the time of an earlier key up to
/// a second before, and a dismissal an Escape started that long in the past ended before its first
/// frame.
public struct InputClock: Sendable {
    private var base: Double?
    private var last: (stamp: UInt32, clock: Double)?

    /// How much later (seconds) an event stamped as the one before it must arrive for its stamp to
    /// count as no stamp: events stamped alike were made together and arrive together.
    public static let unstampedAfter = 0.05

    /// A clock that has not seen an event yet.
    public init() {}

    /// The monotonic time (seconds) of an event stamped `time` (ms, nil: none), received at `clock`
    /// (monotonic seconds).
    public mutating func now(eventTime time: UInt32?, clock: Double) -> Double {
        guard let time = time, time != 0 else { return clock }
        defer { last = (time, clock) }
        if let last, last.stamp == time, clock - last.clock > Self.unstampedAfter { return clock }
        let stamp = Double(time) / 1000
        let candidate = clock - stamp
        if let b = base, candidate >= b, candidate - b < 1 {
            return b + stamp
        }
        base = candidate
        return clock
    }
}
