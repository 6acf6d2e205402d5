/// Predicts when a frame committed now will be shown, from `wp_presentation` feedback: the
/// compositor reports each presented frame's time and the output's refresh interval, and frames
/// are shown on that refresh grid. A frame committed at `now` shows at the first grid point after
/// `now` (Core Animation's `targetTimestamp`, Android's Choreographer frame time): animating to that
/// time instead of `now` puts each frame's content where it belongs when it becomes light.
///
/// Units: seconds of `CLOCK_MONOTONIC` (the presentation clock must be `CLOCK_MONOTONIC`; the
/// connection binds `wp_presentation` for prediction only then). Without recent feedback — none
/// yet, an output without a constant refresh (refresh 0), or feedback older than ``maximumAge`` —
/// the prediction is `now` itself.
public struct PresentationClock: Equatable, Sendable {
    /// The last presented frame's time and its output's refresh interval, seconds.
    public private(set) var lastPresented: Double?
    /// The refresh interval of the output that showed it, seconds (0: unknown or not constant).
    public private(set) var refresh: Double = 0
    /// Feedback older than this no longer predicts (the output may have changed, or been idle).
    public static let maximumAge = 1.0

    /// A clock without feedback yet: it predicts `now` itself.
    public init() {}

    /// Records a presented frame (`wp_presentation_feedback.presented`): `time` and `refresh`
    /// seconds (refresh 0 = unknown, no prediction). Non-finite or negative values are ignored.
    public mutating func presented(at time: Double, refresh: Double) {
        guard time.isFinite, time >= 0, refresh.isFinite, refresh >= 0 else { return }
        if let last = lastPresented, time < last { return }   // out of order: keep the newer
        lastPresented = time
        self.refresh = refresh
    }

    /// When a frame committed at `now` will be shown: the first refresh after `now` on the grid of
    /// the last presented frame, or `now` without usable feedback.
    public func predictedPresentationTime(committedAt now: Double) -> Double {
        guard let last = lastPresented, refresh > 0, now >= last, now - last <= PresentationClock.maximumAge else {
            return now
        }
        let intervals = ((now - last) / refresh).rounded(.down) + 1
        return last + intervals * refresh
    }
}
