import Glibc

/// Kinetic deceleration of a scroll released while moving (after a touchpad's `axis_stop` or a
/// touch pan's release): the velocity decays exponentially at UIScrollView's normal deceleration
/// rate, `r` = ``DragPhysics/decelerationRate`` = 0.998 per millisecond
/// (`UIScrollView.DecelerationRate.normal`; GTK's kinetic scrolling decays exponentially too):
///
///     v(t) = v₀ · r^(1000·t)
///     x(t) = v₀ · (r^(1000·t) − 1) / (1000 · ln r)        (the integral of v from 0 to t)
///
/// t in seconds since the release, v in points per second, x in points. It glides
/// x(∞) = −v₀ / (1000 · ln r) ≈ 0.4995 s × v₀ in all, and is over once what remains of that is
/// less than ``DragPhysics/settleDistance`` (0.5 pt): |v(t)| < 0.5 · 1000 · |ln r| ≈ 1.0 pt/s.
/// A pure function of its inputs: time is passed in.
public struct KineticScroll: Hashable, Sendable {
    /// The velocity at the release, points per second (along x and y).
    public var velocity: Point
    /// When it was released, monotonic seconds.
    public var startTime: Double
    /// The factor the velocity decays by per millisecond (0 < rate < 1).
    public var rate: Double

    /// A deceleration from `velocity` (points per second) starting at `time` (monotonic seconds).
    public init(velocity: Point, at time: Double, rate: Double = DragPhysics.decelerationRate) {
        self.velocity = velocity
        self.startTime = time
        self.rate = min(max(rate, 1e-6), 1 - 1e-9)
    }

    /// The speed below which a deceleration is over, points per second: when what is left of its
    /// glide, |v| / (1000 · |ln r|), is less than ``DragPhysics/settleDistance``.
    public var restSpeed: Double { DragPhysics.settleDistance * 1000 * -log(rate) }

    /// Whether a release at `velocity` glides at all (faster than ``restSpeed``).
    public var moves: Bool { speed(velocity) > restSpeed }

    private func speed(_ v: Point) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }

    /// The velocity at `now`, points per second (`now` before the start counts as the start).
    public func velocity(at now: Double) -> Point {
        let k = pow(rate, 1000 * max(0, now - startTime))
        return Point(x: velocity.x * k, y: velocity.y * k)
    }

    /// How far it has scrolled at `now` since the release, points.
    public func offset(at now: Double) -> Point {
        let k = (pow(rate, 1000 * max(0, now - startTime)) - 1) / (1000 * log(rate))
        return Point(x: velocity.x * k, y: velocity.y * k)
    }

    /// The whole glide, points: x(∞) = −v₀ / (1000 · ln r).
    public var totalOffset: Point {
        let k = -1 / (1000 * log(rate))
        return Point(x: velocity.x * k, y: velocity.y * k)
    }

    /// How long it runs, seconds: until |v(t)| = ``restSpeed`` (0 when it does not move).
    public var duration: Double {
        guard moves else { return 0 }
        return log(restSpeed / speed(velocity)) / (1000 * log(rate))
    }

    /// Whether it is over at `now`.
    public func isFinished(at now: Double) -> Bool { now - startTime >= duration }
}

/// Who a drag on a scrollable content inside a draggable sheet moves: UIKit's rule for a sheet
/// holding a scroll view (`UISheetPresentationController`, `prefersScrollingExpandsWhenScrolledToEdge`).
public enum ScrollArbitration {
    /// What the drag moves.
    public enum Owner: Hashable, Sendable {
        /// The sheet (its interactive transition between detents and toward dismissal).
        case sheet
        /// The content scrolls.
        case content
    }

    /// The owner of a drag once it moved `towardDismissal` points along the sheet's axis (+ toward
    /// dismissal; past ``DragPhysics/dragThreshold``):
    /// - toward dismissal: the content while it can still scroll that way (its edge there is not
    ///   reached: `canScrollBack`, e.g. a bottom sheet's list not at its top), else the sheet;
    /// - toward expansion: the sheet while it rests below its largest detent and
    ///   `expandsWhenScrolledToEdge` (UIKit's default: the sheet grows first), else the content
    ///   while it can scroll that way (`canScrollForward`), else the sheet (which rubber-bands at
    ///   its largest detent);
    /// - a sheet `caught` moving (a press on a view under way) stays the sheet's.
    public static func owner(towardDismissal: Double, canScrollBack: Bool, canScrollForward: Bool,
                             belowLargestDetent: Bool, expandsWhenScrolledToEdge: Bool, caught: Bool) -> Owner {
        if caught { return .sheet }
        if towardDismissal > 0 { return canScrollBack ? .content : .sheet }
        if belowLargestDetent && expandsWhenScrolledToEdge { return .sheet }
        return canScrollForward ? .content : .sheet
    }

    /// The edge of the content that a finger moving toward dismissal along `direction` scrolls
    /// toward (the document follows the finger): a bottom sheet's (`.down`) top edge.
    public static func edge(towardDismissal direction: DragDirection) -> ScrollEdge {
        switch direction {
        case .down: return .top
        case .up: return .bottom
        case .right: return .left
        case .left: return .right
        }
    }

    /// The opposite edge: what a finger moving toward expansion scrolls toward.
    public static func edge(towardExpansion direction: DragDirection) -> ScrollEdge {
        switch direction {
        case .down: return .bottom
        case .up: return .top
        case .right: return .right
        case .left: return .left
        }
    }
}
