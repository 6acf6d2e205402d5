import ModalKitWaylandClient

/// ``PollLoop`` over a ``WaylandConnection``'s event loop (``WaylandConnection/watch(fd:events:onReady:)``):
/// a ``BusConnection`` on it is read, written and dispatched in the connection's one `poll`, on its
/// thread, between frames, so the desktop's settings never need a thread or a loop of their own.
public final class WaylandPollLoop: PollLoop {
    private let connection: WaylandConnection
    private var watches: [Int: FDWatch] = [:]
    private var nextID = 1

    /// A loop over `connection` (kept alive by the loop). Removing the loop removes its watches.
    public init(_ connection: WaylandConnection) { self.connection = connection }

    deinit {
        for w in watches.values { connection.removeWatch(w) }
    }

    private static func events(_ readable: Bool, _ writable: Bool) -> FDEvents {
        var e: FDEvents = []
        if readable { e.insert(.readable) }
        if writable { e.insert(.writable) }
        return e
    }

    public func addWatch(fd: Int32, readable: Bool, writable: Bool, onReady: @escaping (PollReadiness) -> Void) -> Int {
        let id = nextID
        nextID += 1
        watches[id] = connection.watch(fd: fd, events: Self.events(readable, writable)) { ready in
            onReady(PollReadiness(readable: ready.contains(.readable), writable: ready.contains(.writable),
                                  hangup: ready.contains(.hangup), error: !ready.isDisjoint(with: [.error, .invalid])))
        }
        return id
    }

    public func updateWatch(_ id: Int, readable: Bool, writable: Bool) {
        watches[id]?.events = Self.events(readable, writable)
    }

    public func removeWatch(_ id: Int) {
        guard let w = watches.removeValue(forKey: id) else { return }
        connection.removeWatch(w)
    }
}
