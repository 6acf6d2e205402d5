/// Groups a pointer's content events into ``PointerFrame``s, one per `wl_pointer.frame`, without
/// any live Wayland object (unit-tested).
///
/// Rules (wayland.xml, `wl_pointer.frame`, since 5: "Indicates the end of a set of events that
/// logically belong together"):
/// - With frames (``groupsByFrame``, a `wl_pointer` of version ≥ 5), events are collected until
///   ``take()`` at the `frame` event. A frame holds one target's events: an event for another
///   target (the pointer left one window and entered another within the frame) first hands out
///   what the previous target collected.
/// - Without frames (version < 5), every event is a frame of its own.
/// - A target that goes away (a closed window) loses what was collected for it (``drop(_:)``).
///
/// No allocation per event or frame once warmed up: the events array is handed out with the frame
/// and taken back, emptied with its capacity, by ``reuse(_:)``.
struct PointerFrameCollector<Target: AnyObject> {
    /// The compositor sends `wl_pointer.frame` (version ≥ 5).
    let groupsByFrame: Bool
    private var events: [PointerEvent] = []
    private weak var target: Target?

    init(groupsByFrame: Bool) { self.groupsByFrame = groupsByFrame }

    /// The events collected for the current frame, in order.
    var pending: [PointerEvent] { events }

    /// Adds `event` for `target`. Returns a frame to deliver now, if any: the previous target's
    /// (another target's event came before the frame ended), or without frames this very event.
    mutating func add(_ event: PointerEvent, for target: Target) -> (target: Target, frame: PointerFrame)? {
        var out: (target: Target, frame: PointerFrame)?
        if self.target !== target { out = take() }
        self.target = target
        events.append(event)
        // Without frame events nothing else can be pending (each event was handed out at once).
        if !groupsByFrame { out = take() }
        return out
    }

    /// `wl_pointer.frame`: the collected frame and its target; nil when nothing was collected or
    /// the target is gone.
    mutating func take() -> (target: Target, frame: PointerFrame)? {
        guard !events.isEmpty else { return nil }
        let taken = events
        events = []   // the empty array singleton: no allocation
        defer { target = nil }
        guard let target else { return nil }
        return (target, PointerFrame(events: taken))
    }

    /// `target` went away: what was collected for it is dropped.
    mutating func drop(_ target: Target) {
        guard self.target === target else { return }
        self.target = nil
        events.removeAll(keepingCapacity: true)
    }

    /// Takes back the array of a delivered frame (emptied, capacity kept) for the next frame.
    mutating func reuse(_ delivered: inout [PointerEvent]) {
        delivered.removeAll(keepingCapacity: true)
        if events.isEmpty && events.capacity < delivered.capacity { swap(&events, &delivered) }
    }
}
