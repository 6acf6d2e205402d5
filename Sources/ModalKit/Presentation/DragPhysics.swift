import Glibc

// The numbers of interactive transitions (dragging the presented view), each after the UIKit
// behaviour it reproduces. Everything here is a pure function of its inputs: time is passed in.

/// Constants and formulas of dragging a presented view.
public enum DragPhysics {
    /// Movement along the drag axis, points, before a press becomes a drag; less is a tap
    /// (the hysteresis of a pan gesture: a press that moves less stays a tap on the content).
    public static let dragThreshold = 8.0
    /// The window of samples the release velocity is measured over, seconds.
    public static let velocityWindow = 0.1
    /// A pointer that sent no motion for this long, seconds, has stopped: the release velocity's
    /// samples end at such a gap (Flutter's `VelocityTracker`: 40 ms, "assume pointer move stopped").
    public static let assumeStoppedInterval = 0.04
    /// The fewest samples of one continuous motion a release velocity is made from; fewer give 0
    /// (Flutter's `VelocityTracker`: minimum sample size 3).
    public static let minimumVelocitySamples = 3
    /// UIScrollView's normal deceleration rate (`UIScrollView.DecelerationRate.normal`), the
    /// factor the velocity decays by per millisecond.
    public static let decelerationRate = 0.998
    /// UIScrollView's rubber-band constant.
    public static let rubberBandConstant = 0.55
    /// The settling spring's response, seconds (SwiftUI's `spring(response:dampingFraction:)`
    /// with dampingFraction 1: critically damped).
    public static let springResponse = 0.35
    /// The spring is at rest (snapped onto its target) within this distance, points …
    public static let settleDistance = 0.5
    /// … and this speed, points per second.
    public static let settleSpeed = 1.0

    /// UIScrollView's rubber band: a drag `x` points past a limit shows `(1 − 1/(x·0.55/d + 1))·d`
    /// points past it, `d` = the container's extent along the axis, points (> 0). Odd in `x`
    /// (a pull past either limit bands the same way); tends to `d` for large `x`.
    public static func rubberBand(_ x: Double, dimension d: Double) -> Double {
        guard d > 0 else { return 0 }
        let m = abs(x)
        let v = (1 - 1 / (m * rubberBandConstant / d + 1)) * d
        return x < 0 ? -v : v
    }

    /// Where a view released at `position` (points) with `velocity` (points per second) would come
    /// to rest decelerating at UIScrollView's normal rate: `position + v·r/(1−r)/1000`, r = 0.998
    /// (the projection of "Designing Fluid Interfaces", WWDC 2018).
    public static func projectedPosition(_ position: Double, velocity: Double) -> Double {
        position + velocity * decelerationRate / (1 - decelerationRate) / 1000
    }
}
