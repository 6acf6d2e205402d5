/// An interruptible transition between the dismissed (0) and presented (1) positions.
///
/// It tracks the **linear time fraction** `u` in 0...1 (0 = dismissed, 1 = presented) and the
/// direction it is heading. Time is always passed in (`now`, seconds on the monotonic clock); the
/// transition never reads a clock itself, so tests are deterministic and a dropped frame never slows
/// the animation (progress depends on elapsed time, not on how many frames were drawn).
///
/// Reversing keeps the current `u` and flips the direction, so a dismissal requested at u = 0.3
/// runs back from 0.3 and takes 0.3 × duration (UIKit's behaviour for an interrupted
/// `UIViewPropertyAnimator`). The eased progress is `curve.value(at: u)` in both directions, which
/// makes a dismissal at time fraction P draw exactly the frame of a presentation at 1 − P.
public struct Transition: Hashable, Sendable {
    /// Which end the transition is heading to.
    public enum Direction: Hashable, Sendable {
        /// Towards u = 1 (presented).
        case forward
        /// Towards u = 0 (dismissed).
        case backward
    }

    /// Full-length duration in seconds (u from 0 to 1); 0 jumps straight to the end.
    public var duration: Double
    /// The curve from `u` to progress.
    public var curve: TimingCurve
    /// How progress follows from `u`: false, `curve.value(at: u)` (a presentation, and a dismissal
    /// that plays the presentation backwards, as in 1.0); true, `1 − curve.value(at: 1 − u)` (a
    /// dismissal with its own curve, which then runs forward in the dismissal's own time, as a
    /// UIKit animator does: an ease-in dismissal starts slowly at the presented end).
    public var runsFromPresentedEnd = false
    /// Which way the transition runs, or last ran: toward u = 1 (presented) or u = 0 (dismissed).
    public private(set) var direction: Direction = .backward
    /// Whether the transition is moving (started and its end not reached yet).
    public private(set) var isRunning = false

    /// `u` at `anchorTime`; `u(now)` is extrapolated from here in `direction`.
    private var anchorFraction = 0.0
    private var anchorTime = 0.0

    static let snap = 1e-9

    /// A transition at rest at u = `fraction` (default 0, dismissed).
    public init(duration: Double, curve: TimingCurve, fraction: Double = 0) {
        self.duration = max(0, duration)
        self.curve = curve
        self.anchorFraction = min(max(fraction, 0), 1)
    }

    /// The linear time fraction at `now` (clamped to 0...1; a `now` before the last start counts as
    /// that start).
    public func fraction(at now: Double) -> Double {
        guard isRunning else { return anchorFraction }
        if duration <= 0 { return direction == .forward ? 1 : 0 }
        let delta = max(0, now - anchorTime) / duration
        let u = direction == .forward ? anchorFraction + delta : anchorFraction - delta
        // Snap within 1e-9 of an end: `now` values are sums of seconds, and 10.6 − 10.3 is not 0.3.
        if u >= 1 - Transition.snap { return 1 }
        if u <= Transition.snap { return 0 }
        return u
    }

    /// The eased progress (0 dismissed … 1 presented) at `now`: `curve.value(at: fraction(at: now))`
    /// (mirrored when `runsFromPresentedEnd`).
    public func progress(at now: Double) -> Double { progress(atFraction: fraction(at: now)) }

    /// The eased progress at linear time fraction `u`.
    public func progress(atFraction u: Double) -> Double {
        runsFromPresentedEnd ? 1 - curve.value(at: 1 - u) : curve.value(at: u)
    }

    /// The linear time fraction whose progress is nearest to `progress` (the first such, for a
    /// curve that passes a value more than once): where a reversed transition whose curve changed
    /// resumes so that the view does not jump. 65 samples, then a ternary search between the
    /// nearest sample's neighbours (exact for a monotonic curve to ~1e-12).
    public func fraction(nearestProgress target: Double) -> Double {
        var best = 0.0, bestError = Double.infinity
        for i in 0...64 {
            let u = Double(i) / 64
            let e = abs(progress(atFraction: u) - target)
            if e < bestError { best = u; bestError = e }
        }
        var lo = max(0, best - 1.0 / 64), hi = min(1, best + 1.0 / 64)
        for _ in 0..<60 {
            let a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3
            if abs(progress(atFraction: a) - target) <= abs(progress(atFraction: b) - target) { hi = b } else { lo = a }
        }
        let refined = (lo + hi) / 2
        return abs(progress(atFraction: refined) - target) <= bestError ? refined : best
    }

    /// Whether the transition has reached the end it is heading to at `now`.
    public func isFinished(at now: Double) -> Bool {
        let u = fraction(at: now)
        return direction == .forward ? u >= 1 : u <= 0
    }

    /// Starts (or reverses) towards `direction` at time `now`, keeping the current `u`.
    public mutating func run(_ direction: Direction, now: Double) {
        anchorFraction = fraction(at: now)
        anchorTime = now
        self.direction = direction
        isRunning = true
    }

    /// Stops at the current position (`fraction(at: now)`).
    public mutating func stop(now: Double) {
        anchorFraction = fraction(at: now)
        anchorTime = now
        isRunning = false
    }

    /// Puts the transition at rest at `fraction` heading `direction` (clamped to 0...1). Internal:
    /// the controller uses it to land the reduced-motion fade exactly on its end.
    mutating func set(fraction: Double, direction: Direction) {
        anchorFraction = min(max(fraction, 0), 1)
        self.direction = direction
        isRunning = false
    }
}
