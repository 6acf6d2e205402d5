import Foundation

// The numbers of interactive transitions (dragging the presented view), each after the UIKit
// behaviour it reproduces. Everything here is a pure function of its inputs: time is passed in.

/// Constants and formulas of dragging a presented view.
public enum DragPhysics {
    /// Movement along the drag axis, points, before a press becomes a drag; less is a tap
    /// (the hysteresis of a pan gesture: a press that moves less stays a tap on the content).
    public static let dragThreshold = 8.0
    /// The window of samples the release velocity is measured over, seconds.
    public static let velocityWindow = 0.1
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

/// A critically damped spring along one axis (unit mass, SwiftUI's `spring(response: 0.35,
/// dampingFraction: 1)`: stiffness (2π/response)², damping 4π/response), from `position` moving at
/// `velocity` at `startTime` toward `target`: x(t) = target + (A + B·t)·e^(−ω·t), A = x₀ − target,
/// B = v₀ + ω·A, ω = 2π/response. Its velocity at the start is exactly `velocity` (no jump).
public struct CriticalSpring: Hashable, Sendable {
    public var target: Double
    public var startTime: Double
    public var startPosition: Double
    public var startVelocity: Double
    /// ω = 2π / response, radians per second.
    public var omega: Double

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

/// The resting places of a draggable presented view along its drag axis, as offsets: points the
/// view is moved from its frame toward dismissal (0 = at its frame; + = toward the edge it is
/// dismissed through). Built from an ``InteractionDeclaration`` for one container layout.
public struct DetentLayout: Hashable, Sendable {
    /// The drag direction (dismissal moves the view this way).
    public var direction: DragDirection
    /// Offset of each declared detent, in declaration order (ascending sizes → descending
    /// offsets); one offset 0 (the frame) when the declaration lists none.
    public var offsets: [Double]
    /// Offset at which the view has left the container entirely (the dismissed position).
    public var dismissedOffset: Double
    /// The container's extent along the axis, points (the rubber band's `d`).
    public var dimension: Double
    /// Index of the largest undimmed detent, or nil.
    public var largestUndimmed: Int?

    /// The layout of `declaration` for a view whose frame is `frame` in `containerBounds` (points).
    /// A detent's offset is the distance from the frame's near edge to the container edge the view
    /// is dismissed through, less the detent's length (so a detent as long as that distance is 0).
    public init(_ declaration: InteractionDeclaration, direction: DragDirection, frame: Rect, containerBounds c: Rect) {
        self.direction = direction
        let travel: Double
        switch direction {
        case .down: travel = c.maxY - frame.minY
        case .up: travel = frame.maxY - c.minY
        case .right: travel = c.maxX - frame.minX
        case .left: travel = frame.maxX - c.minX
        }
        dimension = direction.isVertical ? c.height : c.width
        dismissedOffset = max(0, travel)
        let length = dimension
        let resolved = declaration.detents.isEmpty
            ? [0] : declaration.detents.map { max(0, travel - $0.resolved(containerLength: length)) }
        offsets = resolved
        largestUndimmed = declaration.largestUndimmedDetent.flatMap { $0 >= 0 && $0 < resolved.count ? $0 : nil }
    }

    /// Unit vector of the axis toward dismissal, container coordinates.
    public var axis: Point {
        switch direction {
        case .down: return Point(x: 0, y: 1)
        case .up: return Point(x: 0, y: -1)
        case .right: return Point(x: 1, y: 0)
        case .left: return Point(x: -1, y: 0)
        }
    }

    /// A translation's component along the axis toward dismissal, points.
    public func offset(of translation: Point) -> Double { translation.x * axis.x + translation.y * axis.y }
    /// The translation of an offset along the axis, points.
    public func translation(of offset: Double) -> Point { Point(x: axis.x * offset, y: axis.y * offset) }

    /// The smallest offset any detent has (the largest detent: the presented position's limit).
    public var minOffset: Double { offsets.min() ?? 0 }
    /// The largest offset any detent has (the smallest detent).
    public var maxOffset: Double { offsets.max() ?? 0 }

    /// Where the view shows for a drag whose finger puts it at `raw` (points): `raw` within the
    /// allowed range; beyond it, rubber-banded (``DragPhysics/rubberBand(_:dimension:)``). The
    /// range runs from the largest detent to the dismissed position, or, when dismissal is
    /// refused, to the smallest detent.
    public func displayedOffset(raw: Double, dismissible: Bool) -> Double {
        let lo = minOffset, hi = dismissible ? dismissedOffset : maxOffset
        if raw < lo { return lo + DragPhysics.rubberBand(raw - lo, dimension: dimension) }
        if raw > hi { return hi + DragPhysics.rubberBand(raw - hi, dimension: dimension) }
        return raw
    }

    /// A settling target: a detent (its index in declaration order) or the dismissed position.
    public enum Target: Hashable, Sendable {
        case detent(Int)
        case dismissed
    }

    /// The offset of `target`, points.
    public func offset(of target: Target) -> Double {
        switch target {
        case let .detent(i): return offsets[i]
        case .dismissed: return dismissedOffset
        }
    }

    /// The target nearest the projected position of a release at `offset` with `velocity`
    /// (points per second, + toward dismissal): ``DragPhysics/projectedPosition(_:velocity:)``,
    /// then the nearest of the detents and the dismissed position (ties: the detent).
    public func target(releasedAt offset: Double, velocity: Double) -> Target {
        let projected = DragPhysics.projectedPosition(offset, velocity: velocity)
        let detent = nearestDetent(to: projected)
        return abs(projected - dismissedOffset) < abs(projected - offsets[detent]) ? .dismissed : .detent(detent)
    }

    /// The detent nearest `offset` (declaration index).
    public func nearestDetent(to offset: Double) -> Int {
        var best = 0
        for (i, o) in offsets.enumerated() where abs(offset - o) < abs(offset - offsets[best]) { best = i }
        return best
    }

    /// The index of the smallest detent (the largest offset): where a presentation comes to rest
    /// (UIKit's sheet starts at its smallest detent).
    public var initialDetent: Int {
        var best = 0
        for (i, o) in offsets.enumerated() where o > offsets[best] { best = i }
        return best
    }

    /// The dim's progress (0...1) with the view at `offset` (UIKit's `largestUndimmedDetentIdentifier`):
    /// - no undimmed detent: 1 from the presented position down to the smallest detent, then
    ///   falling linearly to 0 at the dismissed position;
    /// - an undimmed detent: 0 at it and beyond (toward dismissal), 1 at the next larger detent and
    ///   above, linear between; 0 everywhere when it is the largest detent.
    public func dimProgress(at offset: Double) -> Double {
        guard let u = largestUndimmed else {
            let o = maxOffset
            guard dismissedOffset > o else { return offset <= o ? 1 : 0 }
            return min(max((dismissedOffset - offset) / (dismissedOffset - o), 0), 1)
        }
        let ou = offsets[u]
        // The next larger detent: the largest offset below ou.
        var next: Double?
        for o in offsets where o < ou && (next == nil || o > next!) { next = o }
        guard let on = next else { return 0 }
        return min(max((ou - offset) / (ou - on), 0), 1)
    }
}

/// What a ``PresentationHost`` reports about gestures (`modal-demo --log-events` prints
/// ``logLine``).
public enum PresentationInteractionEvent: Hashable, Sendable {
    /// A press on the presented view moved 8 pt along the drag axis: it is a drag now.
    case dragBegan
    /// The drag ended with this velocity along the axis, points per second, + toward dismissal.
    case dragEnded(velocity: Double)
    /// A drag or its settling spring came to rest on this detent (declaration index).
    case detent(Int)
    /// The user tried to dismiss a presentation that refuses it (dim tap, Escape, a drag that
    /// would have dismissed): UIKit's `presentationControllerDidAttemptToDismiss`, AdwDialog's
    /// `close-attempt`.
    case closeAttempt

    /// `drag-began`, `drag-ended VELOCITY` (pt/s, one decimal), `detent INDEX`, `close-attempt`.
    public var logLine: String {
        switch self {
        case .dragBegan: return "drag-began"
        case let .dragEnded(v): return "drag-ended " + String(format: "%.1f", v)
        case let .detent(i): return "detent \(i)"
        case .closeAttempt: return "close-attempt"
        }
    }
}
