import Glibc

/// A source of events that ``WaylandConnection/run()``'s loop drives alongside the display and the
/// fd watches, in the loop's one `poll(2)` and on its thread: before each sleep the source says
/// which file descriptors to poll and how long the loop may sleep at most; after the sleep it
/// handles what `poll` reported. The cycle of GLib's `GMainContext` (prepare and query, then check
/// and dispatch), of libdbus's watches and timeouts, or of a plain timer.
///
/// Each loop iteration calls ``prepare(_:)`` on every source, sleeps in one `poll` over the display,
/// the watches and every source's descriptors for the shortest time any source asked for, then
/// calls ``dispatch(_:)`` on every source it prepared — exactly once per `prepare`, also when the
/// sleep was interrupted (`EINTR`: nothing is ready then) — unless the loop ends with an error.
/// Sources are called in the order they were added, after the Wayland events read in the same
/// wake-up and after the watches' handlers.
public protocol EventLoopSource: AnyObject {
    /// Called once per loop iteration just before the loop sleeps (the windows have drawn; the loop
    /// holds libwayland's read intent, so this must not dispatch Wayland events or do a roundtrip).
    /// Append to `descriptors` — empty on entry, its capacity kept from the last iteration, so
    /// appending allocates nothing once warmed up — each file descriptor to poll, with the events
    /// to wait for.
    /// - Returns: the longest the loop may sleep for this source, in seconds (`nil`: no limit;
    ///   0 or less: do not sleep). Waits are rounded up to whole milliseconds.
    func prepare(_ descriptors: inout [PollDescriptor]) -> Double?

    /// Called after the sleep (a descriptor was ready, a timeout passed, or another part of the loop
    /// woke it) with the descriptors ``prepare(_:)`` appended, each with ``PollDescriptor/ready``
    /// set to what `poll(2)` reported for it (empty: nothing). Do the source's work here; anything
    /// may be called, including Wayland requests and ``WaylandConnection/addSource(_:)`` /
    /// ``WaylandConnection/removeSource(_:)``.
    func dispatch(_ descriptors: [PollDescriptor])
}

/// One file descriptor an ``EventLoopSource`` asks the loop to poll (a `struct pollfd`).
public struct PollDescriptor: Hashable, Sendable {
    /// The descriptor (not owned: the loop never closes it).
    public var fd: Int32
    /// What to wait for: ``FDEvents/readable`` and/or ``FDEvents/writable`` (empty: only errors
    /// and hang-ups, which `poll(2)` always reports).
    public var events: FDEvents
    /// What `poll(2)` reported, set before ``EventLoopSource/dispatch(_:)``: any of the events
    /// waited for, and ``FDEvents/error``, ``FDEvents/hangup``, ``FDEvents/invalid``.
    public var ready: FDEvents

    /// Waits for `events` on `fd`; `ready` is what the loop fills in.
    public init(fd: Int32, events: FDEvents, ready: FDEvents = []) {
        self.fd = fd
        self.events = events
        self.ready = ready
    }
}

/// The ``EventLoopSource``s of one loop: their descriptors merged into the loop's `pollfd` array
/// and the shortest wait, then what `poll` reported handed back to each. Allocation-free once each
/// source's descriptor array has reached its size. A class: a source may add or remove sources
/// from its own `prepare` or `dispatch`, while the set is iterating.
final class EventSourceSet {
    private final class Entry {
        let source: EventLoopSource
        var descriptors: [PollDescriptor] = []
        /// Where this source's descriptors start in the loop's array, while prepared.
        var offset = 0
        var isPrepared = false
        var isActive = true
        init(_ source: EventLoopSource) { self.source = source }
    }

    private var entries: [Entry] = []
    /// The entries prepared in the current iteration (those added meanwhile wait for the next).
    private var prepared: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// Adds `source` (from the next iteration on); adding one already there does nothing.
    func add(_ source: EventLoopSource) {
        guard !entries.contains(where: { $0.source === source }) else { return }
        entries.append(Entry(source))
    }

    /// Removes `source`: it is not prepared again, and not dispatched if it was prepared in the
    /// current iteration (a removed source is done with). Removing one not there does nothing.
    func remove(_ source: EventLoopSource) {
        guard let i = entries.firstIndex(where: { $0.source === source }) else { return }
        entries[i].isActive = false
        entries.remove(at: i)
    }

    /// Prepares every source: appends their descriptors to `pollFDs` and returns the `poll(2)`
    /// timeout in milliseconds: the shortest wait asked for, rounded up (−1: no limit).
    func prepare(appendingTo pollFDs: inout [pollfd]) -> Int32 {
        prepared.removeAll(keepingCapacity: true)
        var timeout: Int32 = -1
        for entry in entries {
            entry.descriptors.removeAll(keepingCapacity: true)
            let wait = entry.source.prepare(&entry.descriptors)
            entry.offset = pollFDs.count
            entry.isPrepared = true
            prepared.append(entry)
            for d in entry.descriptors {
                pollFDs.append(pollfd(fd: d.fd, events: d.events.pollEvents, revents: 0))
            }
            if let wait { timeout = Self.merge(timeout, Self.milliseconds(wait)) }
        }
        return timeout
    }

    /// Hands each prepared source what `poll(2)` reported in `pollFDs` (nil: nothing is ready, the
    /// sleep was interrupted) and dispatches it.
    func dispatch(_ pollFDs: [pollfd]?) {
        for entry in prepared where entry.isPrepared {
            entry.isPrepared = false
            guard entry.isActive else { continue }
            for i in entry.descriptors.indices {
                let j = entry.offset + i
                entry.descriptors[i].ready = pollFDs.map { j < $0.count ? FDEvents(pollEvents: $0[j].revents) : [] } ?? []
            }
            entry.source.dispatch(entry.descriptors)
        }
        prepared.removeAll(keepingCapacity: true)
    }

    /// `seconds` as a `poll(2)` timeout: whole milliseconds rounded up (a wait of 0.3 ms must not
    /// become a busy loop of 0 ms polls), at most `Int32.max`; 0 for 0 or less. A whole number of
    /// milliseconds stays itself despite binary rounding (0.007 s × 1000 = 7.000000000000001).
    static func milliseconds(_ seconds: Double) -> Int32 {
        guard seconds > 0 else { return 0 }
        guard seconds.isFinite else { return Int32.max }
        let ms = max(1, (seconds * 1000 - 1e-6).rounded(.up))
        return ms >= Double(Int32.max) ? Int32.max : Int32(ms)
    }

    /// The shorter of two `poll(2)` timeouts (−1: none).
    static func merge(_ a: Int32, _ b: Int32) -> Int32 {
        if a < 0 { return b }
        if b < 0 { return a }
        return min(a, b)
    }
}
