import CModalKitWaylandClient
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
    /// content buffer was drawn with damage inside the buffer (or must be committed), else
    /// ``FramePacing/didCompose(layersChanged:)``. One rule for the pixman and the sub-surface paths.
    /// Damage that lies wholly outside the buffer counts as none: a frame in which a layer changed
    /// then still ends with the parent commit that applies the layers' synchronized state, where
    /// `didDraw` would discard it as a frame that changed no pixel.
    func decide(drewContent: Bool, damage: inout [PixelRect], width: Int, height: Int, layersChanged: Bool)
        -> FramePacing.Action {
        if drewContent,
           pacing.mustCommit || damage.contains(where: { FramePacing.clip($0, width: width, height: height) != nil }) {
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

/// When a window draws and what its commit carries, without any live Wayland object (unit-tested).
///
/// Rules (wl_surface.frame, xdg-shell ack; docs/design.md, frame pipeline; hidden windows get no
/// frame callbacks):
/// - Redraw is a flag. A frame is drawn when the flag is set and no frame callback is pending;
///   a frame that must answer a configure ack or a scale change is drawn at once.
/// - Nothing is drawn before the first configure.
/// - A commit that attaches a buffer requests a frame callback unless one is pending; `done`
///   clears it. With the flag clear nothing is requested, so an idle window never wakes up.
/// - A draw that reports no damage is not committed, unless a commit is due (then the whole
///   buffer is damaged); if the delegate asked for another frame meanwhile, a bare commit with a
///   frame callback keeps the pace without a new buffer.
struct FramePacing: Equatable {
    /// What to do with a drawn buffer.
    enum Action: Equatable {
        /// Don't attach, don't commit (the buffer stays free).
        case discard
        /// Don't attach; commit only to request a frame callback.
        case commitFrameRequest
        /// Attach, damage the rectangles `didDraw` left in its `damage` argument (buffer pixels,
        /// clipped), request a frame callback when `requestFrame`, commit.
        case commit(requestFrame: Bool)
        /// Don't attach; commit (the sub-surface layers' cached state), requesting a frame callback
        /// when `requestFrame`.
        case commitLayers(requestFrame: Bool)

        /// Whether the commit attaches the drawn buffer (``commit(requestFrame:)``).
        var attaches: Bool {
            if case .commit = self { return true }
            return false
        }
    }

    private(set) var isConfigured = false
    private(set) var needsRedraw = false
    /// A configure ack or scale change waits for its commit (with a buffer of the new size).
    private(set) var mustCommit = false
    /// The next commit damages the whole buffer (first frame, new size or scale).
    private(set) var needsFullDamage = true
    private(set) var frameCallbackPending = false

    mutating func setNeedsRedraw() { needsRedraw = true }

    /// An `xdg_surface.configure` was acked.
    mutating func configureAcked(sizeChanged: Bool) {
        isConfigured = true
        if sizeChanged { needsFullDamage = true }
        mustCommit = true
        needsRedraw = true
    }

    /// The buffer scale changed (only matters once configured).
    mutating func scaleChanged() {
        guard isConfigured else { return }
        needsFullDamage = true
        mustCommit = true
        needsRedraw = true
    }

    /// `wl_callback.done` of the pending frame callback.
    mutating func frameDone() { frameCallbackPending = false }

    /// Whether a frame must be drawn now.
    var shouldDraw: Bool { isConfigured && (mustCommit || (needsRedraw && !frameCallbackPending)) }

    /// A buffer was acquired and the delegate is about to draw: the flag is consumed first, so
    /// the delegate can set it again for the next frame.
    mutating func willDraw() { needsRedraw = false }

    /// The delegate drew and returned `damage`; on `.commit`, `damage` is rewritten in place to
    /// what the commit damages (the rectangles clipped to the buffer, or the whole buffer). In place,
    /// so that the per-frame path allocates nothing: the caller keeps one with capacity.
    mutating func didDraw(damage: inout [PixelRect], width: Int, height: Int) -> Action {
        var kept = 0
        for i in damage.indices {
            if let r = Self.clip(damage[i], width: width, height: height) {
                damage[kept] = r
                kept += 1
            }
        }
        damage.removeLast(damage.count - kept)
        if damage.isEmpty && !mustCommit {
            guard needsRedraw, !frameCallbackPending else { return .discard }
            frameCallbackPending = true
            return .commitFrameRequest
        }
        if needsFullDamage || damage.isEmpty {
            damage.removeAll(keepingCapacity: true)
            damage.append(PixelRect(x: 0, y: 0, width: width, height: height))
        }
        let requestFrame = !frameCallbackPending
        frameCallbackPending = true
        mustCommit = false
        needsFullDamage = false
        return .commit(requestFrame: requestFrame)
    }

    /// A composed frame (sub-surface layers) that attaches no buffer to the window's surface:
    /// commit when a layer changed (its state applies with this commit), else as an empty draw.
    /// Never while a commit with a buffer is due (``mustCommit``): the caller draws one then.
    mutating func didCompose(layersChanged: Bool) -> Action {
        if layersChanged {
            let requestFrame = !frameCallbackPending
            frameCallbackPending = true
            return .commitLayers(requestFrame: requestFrame)
        }
        guard needsRedraw, !frameCallbackPending else { return .discard }
        frameCallbackPending = true
        return .commitFrameRequest
    }

    static func clip(_ rect: PixelRect, width: Int, height: Int) -> PixelRect? {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(width, rect.x + rect.width), y1 = min(height, rect.y + rect.height)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
}

/// The `wl_callback` of `wl_surface.frame`: "a good time to start drawing a new frame".
///
/// Requested with a commit; `done` fires once, when the compositor shows that commit (it may never
/// fire while the surface is hidden: compositors send hidden windows none, so nothing may wait
/// on it but drawing).
/// Owns its proxy and destroys it in `deinit`.
final class FrameCallback {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    private let onDone: (_ timeMilliseconds: UInt32) -> Void

    /// Requests a frame callback for the next commit of `surface`.
    init(surface: Surface, onDone: @escaping (UInt32) -> Void) {
        proxy = wl_surface_frame(surface.proxy)
        display = surface.display
        self.onDone = onDone
        wl_callback_add_listener(proxy, FrameCallback.listener, userData(self))
    }

    deinit { wl_callback_destroy(proxy) }

    private static let listener = listenerTable(wl_callback_listener(
        done: { data, _, time in
            withOwner(data, as: FrameCallback.self) { $0.onDone(time) }
        }))
}
