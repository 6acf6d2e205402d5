import ModalKitClock

/// When a ``Window`` draws, and what it hears back about its frames: the pacing rules
/// (``FramePacing``), the pending `wl_surface.frame` callback, the `wp_presentation` feedback of
/// each committed frame and the refresh grid it gives (``PresentationClock``), and rest.
///
/// Rules (wl_surface.frame, presentation-time; docs/design.md, frame pipeline): redraw is a flag
/// (``setNeedsRedraw()``); a frame is due when it is set and no frame callback is pending, or at once
/// after a configure ack or a scale change (``shouldDraw``). A commit that changed what the window
/// shows gets the next ``CommittedFrame/sequence`` and, when asked for, a feedback object. At rest —
/// no frame due, none asked for, no callback pending (``isAtRest``) — the window lets go of the
/// buffers it does not show. Owns the callback and the feedback objects (``cancel()`` destroys them).
final class FrameScheduler {
    /// What the scheduler reports to its window.
    weak var window: Window?
    private(set) var pacing = FramePacing()
    private var frameCallback: FrameCallback?
    /// Presentation feedback objects waiting for their event.
    private var feedbacks: [(sequence: Int, feedback: PresentationFeedback)] = []
    /// The refresh grid from presentation feedback, for ``WindowOptions/predictsPresentationTime``.
    private var presentationClock = PresentationClock()
    /// Committed frames that changed what the window shows (``CommittedFrame/sequence``).
    private var commitSequence = 0
    private let predictsPresentationTime: Bool

    init(predictsPresentationTime: Bool) {
        self.predictsPresentationTime = predictsPresentationTime
    }

    /// Destroys the pending frame callback and every feedback object.
    func cancel() {
        frameCallback = nil
        feedbacks.removeAll()
    }

    // MARK: Pacing

    func setNeedsRedraw() { pacing.setNeedsRedraw() }
    var shouldDraw: Bool { pacing.shouldDraw }
    var mustCommit: Bool { pacing.mustCommit }
    func configureAcked(sizeChanged: Bool) { pacing.configureAcked(sizeChanged: sizeChanged) }
    func scaleChanged() { pacing.scaleChanged() }
    /// The delegate is about to draw: the flag is consumed first, so it can set it again.
    func willDraw() { pacing.willDraw() }

    /// What a drawn frame's commit carries: ``FramePacing/didDraw(damage:width:height:)`` when the
    /// content buffer was drawn with damage (or must be committed), else
    /// ``FramePacing/didCompose(layersChanged:)``. One rule for the pixman and the sub-surface paths.
    func decide(drewContent: Bool, damage: inout [BufferRect], width: Int, height: Int, layersChanged: Bool)
        -> FramePacing.Action {
        if drewContent, !damage.isEmpty || pacing.mustCommit {
            return pacing.didDraw(damage: &damage, width: width, height: height)
        }
        return pacing.didCompose(layersChanged: layersChanged)
    }

    /// No frame due, none asked for, no frame callback pending.
    var isAtRest: Bool { !pacing.frameCallbackPending && !pacing.shouldDraw && !pacing.needsRedraw }

    // MARK: Requests riding on a commit

    /// `wl_surface.frame` for the next commit of `surface`; its `done` lets the next frame be drawn.
    func requestFrameCallback(_ surface: Surface) {
        frameCallback = FrameCallback(surface: surface) { [weak self] _ in
            guard let self else { return }
            frameCallback = nil
            pacing.frameDone()
            window?.frameCallbackArrived()
        }
    }

    /// The next committed frame's sequence number, with its presentation feedback requested for
    /// the next commit of `surface` when `presentation` is given.
    func nextSequence(feedbackOn surface: Surface, from presentation: PresentationTime?) -> Int {
        commitSequence += 1
        let sequence = commitSequence
        if let presentation {
            let feedback = presentation.feedback(for: surface) { [weak self] outcome in
                self?.feedbackArrived(sequence: sequence, outcome)
            }
            feedbacks.append((sequence, feedback))
        }
        return sequence
    }

    /// The time a frame drawn now is drawn for: with ``WindowOptions/predictsPresentationTime`` and
    /// presentation feedback, the predicted presentation time (``PresentationClock``); otherwise
    /// the monotonic clock now.
    func frameTime() -> Double {
        let now = monotonicSeconds()
        return predictsPresentationTime ? presentationClock.predictedPresentationTime(committedAt: now) : now
    }

    private func feedbackArrived(sequence: Int, _ outcome: PresentationFeedback.Outcome) {
        feedbacks.removeAll { $0.sequence == sequence }   // destroys the proxy (after this event)
        guard case let .presented(time, refresh, monotonic) = outcome else { return }
        if monotonic { presentationClock.presented(at: time, refresh: refresh) }
        window?.framePresented(sequence: sequence, at: time, refresh: refresh)
    }
}
