import Glibc

/// The resting places of a draggable presented view along its drag axis, as offsets: points the
/// view is moved from its frame toward dismissal (0 = at its frame; + = toward the edge it is
/// dismissed through). Built from an `InteractionDeclaration` for one container layout.
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
    /// `contentLength` is the presented content's preferred length along the axis, points (nil:
    /// it does not say), which resolves `Detent/fitsContent(atMost:)` detents.
    public init(_ declaration: InteractionDeclaration, direction: DragDirection, frame: Rect, containerBounds c: Rect,
                contentLength: Double? = nil) {
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
            ? [0] : declaration.detents.map { max(0, travel - $0.resolved(containerLength: length, contentLength: contentLength)) }
        offsets = resolved
        largestUndimmed = declaration.largestUndimmedDetent.flatMap { $0 >= 0 && $0 < resolved.count ? $0 : nil }
    }

    /// The presented view's frame at rest at detent `i` (declaration index), points: `frame` (the
    /// style's frame, the largest detent's extent) with the edge away from dismissal moved toward
    /// it by the detent's offset, so the view is exactly as long as the detent along the axis and
    /// its far edge stays where the frame's is (UIKit's sheet at a detent is that tall; its content
    /// is laid out at that height). An index out of range gives `frame`.
    public func restingFrame(_ i: Int, of frame: Rect) -> Rect {
        guard i >= 0, i < offsets.count else { return frame }
        let o = min(max(offsets[i], 0), direction.isVertical ? frame.height : frame.width)
        switch direction {
        case .down: return Rect(x: frame.minX, y: frame.minY + o, width: frame.width, height: frame.height - o)
        case .up: return Rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height - o)
        case .right: return Rect(x: frame.minX + o, y: frame.minY, width: frame.width - o, height: frame.height)
        case .left: return Rect(x: frame.minX, y: frame.minY, width: frame.width - o, height: frame.height)
        }
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
        /// The detent with this index in declaration order.
        case detent(Int)
        /// The dismissed position (the presented view off its container's edge).
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
