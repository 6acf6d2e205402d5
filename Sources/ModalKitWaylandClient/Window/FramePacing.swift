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
    mutating func didDraw(damage: inout [BufferRect], width: Int, height: Int) -> Action {
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
            damage.append(BufferRect(x: 0, y: 0, width: width, height: height))
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

    static func clip(_ rect: BufferRect, width: Int, height: Int) -> BufferRect? {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(width, rect.x + rect.width), y1 = min(height, rect.y + rect.height)
        return x1 > x0 && y1 > y0 ? BufferRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
}
