import Glibc
import ModalKitSystemSupport

/// What a ``PresentationHost`` reports about gestures (`modal-demo --log-events` prints
/// ``logLine``).
public enum PresentationInteractionEvent: Hashable, Sendable {
    /// A press on the presented view moved 8 pt along the drag axis: it is a drag now.
    case dragBegan
    /// The drag ended with this velocity along the axis, points per second, + toward dismissal
    /// (0 when the press ended without a release, or the level was covered or left the stack).
    /// Every ``dragBegan`` has one, also when the app dismissed the view meanwhile.
    case dragEnded(velocity: Double)
    /// A drag, its settling spring or a scroll that grows the sheet came to rest on the detent with
    /// this number: 1 for the first declared (the smallest: `InteractionDeclaration/detents` are in
    /// ascending order), as `modal-demo render --detent N` and a style's detent list number them —
    /// the declaration index + 1.
    case detent(Int)
    /// The user tried to dismiss a presentation that refuses it (dim tap, Escape, a drag that
    /// would have dismissed): UIKit's `presentationControllerDidAttemptToDismiss`, AdwDialog's
    /// `close-attempt`.
    case closeAttempt

    /// `drag-began`, `drag-ended VELOCITY` (pt/s, one decimal), `detent N` (from 1, the smallest),
    /// `close-attempt`.
    public var logLine: String {
        switch self {
        case .dragBegan: return "drag-began"
        case let .dragEnded(v): return "drag-ended " + cFormat("%.1f", v)
        case let .detent(i): return "detent \(i)"
        case .closeAttempt: return "close-attempt"
        }
    }
}
