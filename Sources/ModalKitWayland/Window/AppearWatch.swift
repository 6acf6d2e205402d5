import ModalKitWaylandClient

/// When a window is first on screen (``PresentationWindow/onAppear``, UIKit's `viewDidAppear`):
/// its first `wp_presentation` feedback, or, without feedback (none offered, or none sent: headless
/// sway), the compositor's frame callback after its first committed frame (wl_surface: the frame
/// callback says the frame was shown, or that it is a good time to draw) — unless a configure that
/// resizes the window was read with that callback (a tiling compositor sends the tiled size right
/// after the first frame's callback): then the callback after the frame at the new size.
///
/// Whether a configure came with the callback is known once the events read with it have been
/// handled: the watch checks in the loop's next iteration (an `EventLoopTimer` due at once).
/// Reports once.
final class AppearWatch {
    private let connection: WaylandConnection
    private let appeared: () -> Void
    private(set) var hasAppeared = false
    private var hasCommitted = false
    /// Configures that changed the size or scale, counted to tell whether one came with a frame callback.
    private var configures = 0
    /// ``configures`` when the last frame callback came.
    private var configuresAtCallback = 0
    private var check: EventLoopTimer?

    /// A watch on `connection`'s loop; `appeared` runs once, when the window is first on screen.
    init(connection: WaylandConnection, appeared: @escaping () -> Void) {
        self.connection = connection
        self.appeared = appeared
    }

    deinit { check?.invalidate() }

    /// A configure changed the window's size or scale.
    func configured() { configures += 1 }

    /// A frame was committed.
    func committed() { hasCommitted = true }

    /// The compositor's frame callback came: after the first commit, the window is on screen if no
    /// resizing configure was read with it.
    func frameCallback() {
        guard hasCommitted, !hasAppeared else { return }
        configuresAtCallback = configures
        if check == nil {
            check = EventLoopTimer(connection: connection) { [weak self] in
                guard let self, configures == configuresAtCallback else { return }
                appear()
            }
        }
        check?.schedule(after: 0)
    }

    /// The compositor reported a frame shown (`wp_presentation_feedback.presented`).
    func presented() { appear() }

    private func appear() {
        guard !hasAppeared else { return }
        hasAppeared = true
        check?.invalidate()
        check = nil
        appeared()
    }
}
