import Foundation

/// Release velocity of a drag: points along one axis sampled at times (seconds); the velocity is
/// the displacement over the samples of the last ``DragPhysics/velocityWindow`` (100 ms) before
/// the release, divided by their time span. Fixed storage: adding a sample never allocates.
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

    /// The velocity at `now` (the release), points per second: (newest − oldest of the samples
    /// taken within `now − 0.1 s … now`) / their time span; 0 with fewer than two samples in the
    /// window (a finger that rested 100 ms before lifting) or a zero span.
    public func velocity(at now: Double) -> Double {
        guard count >= 2 else { return 0 }
        let cap = VelocityTracker.capacity
        let newest = (start + count - 1) % cap
        guard times[newest] >= now - DragPhysics.velocityWindow - 1e-9 else { return 0 }
        var oldest = newest
        var k = count - 2
        while k >= 0 {
            let i = (start + k) % cap
            if times[i] < now - DragPhysics.velocityWindow - 1e-9 { break }
            oldest = i
            k -= 1
        }
        let span = times[newest] - times[oldest]
        guard oldest != newest, span > 0 else { return 0 }
        return (values[newest] - values[oldest]) / span
    }
}
