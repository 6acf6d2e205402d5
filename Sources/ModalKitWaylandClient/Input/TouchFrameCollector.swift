/// Groups a touch device's content events into ``TouchFrame``s, one per `wl_touch.frame`, without
/// any live Wayland object (unit-tested).
///
/// Rules (wayland.xml, `wl_touch`):
/// - `frame`: "Indicates the end of a set of events that logically belong together. A client is
///   expected to accumulate the data in all events within the frame before proceeding." Events are
///   collected until ``take(_:)`` at the `frame` event; each window gets its own events of the
///   frame as one ``TouchFrame`` (touch points of one frame may be on different windows), windows
///   in the order their first event came.
/// - `cancel`: "the touch stream is a global gesture. No further events are sent to the clients
///   from that particular gesture. Touch cancellation applies to all touch points currently active
///   on this client's surface." ``cancel(live:_:)`` drops what was collected (it belongs to the
///   cancelled sequence) and hands every window that had live points or collected events a frame
///   of its own holding only ``TouchEvent/Kind/cancel``, at once (no `frame` follows a cancel).
/// - The up of the last touch point ends the frame too: mutter (43) and weston (10) send no
///   `frame` after it (weston issue 44, gitlab.freedesktop.org/wayland/weston/-/issues/44; mutter
///   sends `frame` only after down and motion), so waiting for one would hold a tap's release
///   until the next touch. ``add(_:for:)`` says when to hand the frame out at once; a `frame` that
///   follows (sway, KWin) then finds nothing collected.
/// - A window freed before the frame gets nothing.
///
/// No allocation per event or frame once warmed up: each window's events array is handed out with
/// its frame and taken back, emptied with its capacity, after delivery.
struct TouchFrameCollector<Target: AnyObject> {
    private struct Bucket {
        weak var target: Target?
        var events: [TouchEvent] = []
    }
    /// The first `used` buckets hold the frame being collected; the rest keep their storage.
    private var buckets: [Bucket] = []
    private var used = 0
    /// The ids of the touch points down (between their `down` and `up`), on any window.
    private var live: [Int32] = []
    /// The seat whose touch device this collects for: every frame handed out carries it.
    var seat = SeatID(rawValue: 0)

    init() {}

    /// The events collected for the current frame, window by window in order of first appearance.
    var pending: [TouchEvent] { buckets.prefix(used).flatMap(\.events) }

    /// Adds `event` for `target` (collected until the frame).
    /// - Returns: true when it lifted the last touch point down: hand the frame out now (``take(_:)``),
    ///   as some compositors send no `frame` after it.
    mutating func add(_ event: TouchEvent, for target: Target) -> Bool {
        var lastLifted = false
        switch event.kind {
        case let .down(id, _, _): if !live.contains(id) { live.append(id) }
        case let .up(id):
            live.removeAll { $0 == id }
            lastLifted = live.isEmpty
        case .motion, .cancel: break
        }
        if let i = buckets.prefix(used).firstIndex(where: { $0.target === target }) {
            buckets[i].events.append(event)
            return lastLifted
        }
        if used == buckets.count { buckets.append(Bucket()) }
        buckets[used].target = target
        buckets[used].events.append(event)
        used += 1
        return lastLifted
    }

    /// `wl_touch.frame`: hands each window its collected events as one frame, in order.
    mutating func take(_ deliver: (Target, TouchFrame) -> Void) {
        let count = used
        used = 0
        for i in 0..<count {
            var frame = TouchFrame(events: [], seat: seat)
            swap(&frame.events, &buckets[i].events)
            let target = buckets[i].target
            buckets[i].target = nil
            if let target, !frame.events.isEmpty { deliver(target, frame) }
            frame.events.removeAll(keepingCapacity: true)   // unique again unless the delegate kept the frame
            swap(&frame.events, &buckets[i].events)
        }
    }

    /// `wl_touch.cancel`: drops what was collected and hands each window with live touch points
    /// (`live`) or collected events one frame of just `.cancel`, each window once.
    mutating func cancel(live: [Target], _ deliver: (Target, TouchFrame) -> Void) {
        var targets: [Target] = []
        for i in 0..<used {
            if let t = buckets[i].target, !targets.contains(where: { $0 === t }) { targets.append(t) }
            buckets[i].target = nil
            buckets[i].events.removeAll(keepingCapacity: true)
        }
        used = 0
        self.live.removeAll(keepingCapacity: true)
        for t in live where !targets.contains(where: { $0 === t }) { targets.append(t) }
        for t in targets { deliver(t, TouchFrame(events: [TouchEvent(.cancel)], seat: seat)) }
    }
}
