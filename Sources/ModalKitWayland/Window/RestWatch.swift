import ModalKit
import ModalKitSystemSupport
import ModalKitWaylandClient

/// Frees a host's pixel caches once its window rests (``PresentationWindow/onRest``): nothing
/// presented and nothing moving for `delay` seconds (``PresentationWindow/restDelay``) —
/// `PresentationHost/releaseCachesAtRest()`, then `rested` when it freed something. Either way the
/// free memory of the heap then goes back to the system (glibc's `malloc_trim(0)`, every arena):
/// the caches just freed, and what start-up left free (fontconfig's parse of its configuration on
/// the font thread's arena), stop counting as resident — a window at rest holds little more than
/// its live objects and the buffer the compositor shows.
///
/// The window checks after every frame and every frame callback; each check at rest puts the
/// release off by `delay` again, and one while something is presented or moving cancels it. Both
/// are needed: the frame that ends a dismissal asks for no frame callback, so a window that checked
/// at callbacks only kept its caches after it.
final class RestWatch {
    private let host: PresentationHost
    private let connection: WaylandConnection
    private let delay: Double
    private let rested: () -> Void
    /// Made at the first rest (a window that never rests has no timer on its loop).
    private var timer: EventLoopTimer?

    /// A watch of `host` on `connection`'s loop.
    init(host: PresentationHost, connection: WaylandConnection, delay: Double, rested: @escaping () -> Void) {
        self.host = host
        self.connection = connection
        self.delay = delay
        self.rested = rested
    }

    deinit { timer?.invalidate() }

    /// A frame was drawn or a frame callback came: at rest, the release is (re)scheduled `delay`
    /// seconds from now; otherwise a scheduled one is cancelled.
    func check() {
        if host.levelCount == 0 && !host.isAnimating {
            if timer == nil {
                timer = EventLoopTimer(connection: connection) { [weak self] in self?.release() }
            }
            timer?.schedule(after: delay)
        } else if timer?.isScheduled == true {
            timer?.cancel()
        }
    }

    private func release() {
        guard host.levelCount == 0, !host.isAnimating else { return }
        let freed = host.releaseCachesAtRest()
        releaseFreeHeapMemory()
        if freed { rested() }
    }
}
