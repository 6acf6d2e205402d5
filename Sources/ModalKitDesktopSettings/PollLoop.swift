/// What `poll(2)` reported for a watched file descriptor.
public struct PollReadiness: Hashable, Sendable {
    public var readable, writable, hangup, error: Bool
    public init(readable: Bool = false, writable: Bool = false, hangup: Bool = false, error: Bool = false) {
        self.readable = readable; self.writable = writable; self.hangup = hangup; self.error = error
    }
}

/// An event loop that polls extra file descriptors for a ``BusConnection``: libdbus adds, changes
/// and removes its sockets through it (`dbus_connection_set_watch_functions`). An app's loop is
/// ModalKitWaylandClient's (``WaylandPollLoop``); a test may bring its own.
public protocol PollLoop: AnyObject {
    /// Starts polling `fd`; `onReady` runs on the loop's thread with what poll reported. A watch
    /// whose descriptor reports an error or a hang-up may be removed by the loop before its handler
    /// runs (poll would report it again at once).
    /// - Returns: an id for `updateWatch`/`removeWatch`, ≥ 1.
    func addWatch(fd: Int32, readable: Bool, writable: Bool, onReady: @escaping (PollReadiness) -> Void) -> Int
    /// Changes what watch `id` waits for (both false: not polled for now).
    func updateWatch(_ id: Int, readable: Bool, writable: Bool)
    /// Stops polling watch `id`; removing an unknown or removed id does nothing.
    func removeWatch(_ id: Int)
}
