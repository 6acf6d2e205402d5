import Foundation

/// A critically damped spring along one axis (unit mass, SwiftUI's `spring(response: 0.35,
/// dampingFraction: 1)`: stiffness (2π/response)², damping 4π/response), from `position` moving at
/// `velocity` at `startTime` toward `target`: x(t) = target + (A + B·t)·e^(−ω·t), A = x₀ − target,
/// B = v₀ + ω·A, ω = 2π/response. Its velocity at the start is exactly `velocity` (no jump).
public struct CriticalSpring: Hashable, Sendable {
    /// Where the spring comes to rest (same unit as the position, e.g. points).
    public var target: Double
    /// When it started, monotonic seconds.
    public var startTime: Double
    /// Where it started.
    public var startPosition: Double
    /// Its velocity at the start, position units per second.
    public var startVelocity: Double
    /// ω = 2π / response, radians per second.
    public var omega: Double

    /// A spring from `position` moving at `velocity` (units per second) at `time` (monotonic seconds)
    /// toward `target`; `response` is the spring's period in seconds (ω = 2π / response).
    public init(from position: Double, velocity: Double, to target: Double, at time: Double,
                response: Double = DragPhysics.springResponse) {
        self.target = target; self.startTime = time; self.startPosition = position
        self.startVelocity = velocity
        self.omega = 2 * Double.pi / max(response, 1e-6)
    }

    /// Position at `now`, points (`now` before the start counts as the start).
    public func position(at now: Double) -> Double {
        let t = max(0, now - startTime)
        let a = startPosition - target, b = startVelocity + omega * a
        return target + (a + b * t) * exp(-omega * t)
    }

    /// Velocity at `now`, points per second.
    public func velocity(at now: Double) -> Double {
        let t = max(0, now - startTime)
        let a = startPosition - target, b = startVelocity + omega * a
        return (b - omega * (a + b * t)) * exp(-omega * t)
    }

    /// Whether the spring is at rest at `now`: within ``DragPhysics/settleDistance`` of the target
    /// and slower than ``DragPhysics/settleSpeed``.
    public func isSettled(at now: Double) -> Bool {
        abs(position(at: now) - target) < DragPhysics.settleDistance && abs(velocity(at: now)) < DragPhysics.settleSpeed
    }
}
