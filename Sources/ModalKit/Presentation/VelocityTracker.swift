import Glibc

/// Release velocity of a drag: points along one axis sampled at times (seconds). The velocity is
/// the displacement over the samples of one continuous motion before the release, divided by
/// their time span, where the motion (Flutter's `VelocityTracker` rule,
/// packages/flutter/lib/src/gestures/velocity_tracker.dart):
/// - reaches back at most ``DragPhysics/velocityWindow`` (100 ms) before the release,
/// - ends at a gap of more than ``DragPhysics/assumeStoppedInterval`` (40 ms) between two samples,
///   or between the newest sample and the release (a pointer that sends no motion for 40 ms has
///   stopped: Wayland sends no motion while a finger rests),
/// - needs at least ``DragPhysics/minimumVelocitySamples`` (3) samples, else the velocity is 0.
///
/// So a view held still and lifted after a two-sample twitch (one motion event following a
/// pause) is released at rest, not flung. Fixed storage: adding a sample never allocates.
public struct VelocityTracker: Sendable {
    /// The ring's capacity: motion events older than the window are dropped, and the compositors'
    /// event rates (≤ 1 kHz) put at most ~100 samples in 100 ms; 128 keeps the oldest one in it.
    public static let capacity = 128
    private var times = [Double](repeating: 0, count: VelocityTracker.capacity)
    private var values = [Double](repeating: 0, count: VelocityTracker.capacity)
    private var start = 0
    private var count = 0

    /// A tracker with no samples.
    public init() {}

    /// Forgets every sample.
    public mutating func reset() { start = 0; count = 0 }

    /// Adds the position `value` (points) at `time` (seconds, non-decreasing).
    public mutating func add(_ value: Double, at time: Double) {
        let cap = VelocityTracker.capacity
        if count == cap { start = (start + 1) % cap; count -= 1 }
        let i = (start + count) % cap
        times[i] = time
        values[i] = value
        count += 1
    }

    /// The velocity at `now` (the release), points per second: (newest − oldest sample of the
    /// continuous motion ending at `now`) / their time span; 0 when that motion has fewer than
    /// three samples (a rest of 40 ms before the release, a twitch after a pause) or a zero span.
    public func velocity(at now: Double) -> Double {
        guard count >= DragPhysics.minimumVelocitySamples else { return 0 }
        let cap = VelocityTracker.capacity
        let eps = 1e-9
        let newest = (start + count - 1) % cap
        let horizon = now - DragPhysics.velocityWindow - eps
        guard times[newest] >= horizon, now - times[newest] <= DragPhysics.assumeStoppedInterval + eps else { return 0 }
        var oldest = newest
        var samples = 1
        var k = count - 2
        while k >= 0 {
            let i = (start + k) % cap
            if times[i] < horizon || times[oldest] - times[i] > DragPhysics.assumeStoppedInterval + eps { break }
            oldest = i
            samples += 1
            k -= 1
        }
        let span = times[newest] - times[oldest]
        guard samples >= DragPhysics.minimumVelocitySamples, span > 0 else { return 0 }
        return (values[newest] - values[oldest]) / span
    }
}
