/// A one-shot timer on a ``WaylandConnection``'s loop: an ``EventLoopSource`` without descriptors
/// whose deadline bounds the loop's sleep, its handler run from the loop's dispatch once the
/// deadline has passed. For debouncing (a file rewritten in bursts), retries and timeouts, with no
/// timerfd and no thread. Times are `monotonicSeconds()`; the loop's `poll` waits whole
/// milliseconds rounded up, so a timer never fires early.
///
/// Ownership: the connection keeps the timer from creation until ``invalidate()`` (capture its
/// owner weakly in `handler`). Use it on the loop's thread.
public final class EventLoopTimer: EventLoopSource {
    private weak var connection: WaylandConnection?
    private let handler: () -> Void
    /// When the timer fires (monotonic seconds), nil when not scheduled.
    public private(set) var deadline: Double?
    private var isValid = true

    /// A timer on `connection`'s loop, not scheduled.
    /// - Parameters:
    ///   - connection: the connection whose loop runs the timer (held weakly).
    ///   - handler: runs on the loop's thread each time a scheduled deadline passes.
    public init(connection: WaylandConnection, handler: @escaping () -> Void) {
        self.connection = connection
        self.handler = handler
        connection.addSource(self)
    }

    /// Fires once, `seconds` from now (≤ 0: at the next loop iteration), replacing any schedule.
    public func schedule(after seconds: Double) {
        guard isValid else { return }
        deadline = monotonicSeconds() + max(0, seconds.isFinite ? seconds : 0)
    }

    /// Unschedules it (the handler is not called for the last schedule).
    public func cancel() { deadline = nil }

    /// Whether a deadline is pending.
    public var isScheduled: Bool { deadline != nil }

    /// Cancels it and takes it off the loop for good. Idempotent.
    public func invalidate() {
        guard isValid else { return }
        isValid = false
        deadline = nil
        connection?.removeSource(self)
    }

    public func prepare(_ descriptors: inout [PollDescriptor]) -> Double? {
        deadline.map { $0 - monotonicSeconds() }
    }

    public func dispatch(_ descriptors: [PollDescriptor]) {
        guard let d = deadline, monotonicSeconds() >= d else { return }
        deadline = nil
        handler()
    }
}
