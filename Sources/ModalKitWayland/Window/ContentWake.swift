import ModalKit
import ModalKitClock
import ModalKitWaylandClient

/// Wakes an idle window when a content's pixels change with time alone — a text field's blinking
/// caret (`PresentationContent/nextInvalidationTime`): after every drawn frame and every input the
/// driver schedules a loop timer for the host's earliest such time
/// (`PresentationHost/nextContentInvalidationTime`), and when it fires asks for a frame if a
/// content is invalidated by then. Nothing is scheduled while no content asks (no timer, no wake-ups).
final class ContentWake {
    private let connection: WaylandConnection
    private let fired: () -> Void
    /// Made when a content first asks.
    private var timer: EventLoopTimer?

    /// A wake on `connection`'s loop; `fired` runs on the loop's thread at the scheduled time.
    init(connection: WaylandConnection, fired: @escaping () -> Void) {
        self.connection = connection
        self.fired = fired
    }

    deinit { timer?.invalidate() }

    /// Schedules the wake at `time` (monotonic seconds), or cancels it for nil.
    func schedule(at time: Double?) {
        guard let time else {
            if timer?.isScheduled == true { timer?.cancel() }
            return
        }
        if timer == nil { timer = EventLoopTimer(connection: connection) { [weak self] in self?.fired() } }
        timer?.schedule(after: time - monotonicSeconds())
    }
}
