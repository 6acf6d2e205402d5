/// What made a scroll (``ScrollInput/source``).
public enum ScrollSource: Hashable, Sendable {
    /// A mouse wheel turned by detents (`wl_pointer.axis_source` `wheel`): ``ScrollInput/steps120``
    /// says how many.
    case wheel
    /// A wheel tilted sideways (`wheel_tilt`).
    case wheelTilt
    /// Fingers on a touchpad (`finger`): a continuous motion that ends with phase
    /// ``ScrollPhase/ended`` when they lift, after which the host decelerates (``ScrollPhase/momentum``).
    case finger
    /// Another continuous device (`continuous`), or a compositor that named no source.
    case continuous
    /// A touch pan on a touchscreen: the content follows the finger, then decelerates.
    case touch
    /// A press of the pointer's primary button dragging the content of a draggable sheet (which
    /// follows it as a touch pan, then decelerates).
    case pointerDrag
}

/// Where a scroll is in its gesture (``ScrollInput/phase``; AppKit's `NSEvent.phase` and
/// `momentumPhase`, GTK's `GdkScrollEvent` is-stop and kinetic deceleration).
public enum ScrollPhase: Hashable, Sendable {
    /// The user moved it: scroll by ``ScrollInput/delta``. A wheel's every step is one.
    case changed
    /// The fingers lifted (touchpad `axis_stop`, touch release): ``ScrollInput/delta`` is zero;
    /// when the release moved fast enough, ``momentum`` follows.
    case ended
    /// Kinetic deceleration after ``ended``, driven by the host's clock (``KineticScroll``): scroll
    /// by ``ScrollInput/delta``. Not used (returning false) or the edge reached ends it.
    case momentum
    /// The deceleration is over (came to rest, reached the content's edge, or a press or a new
    /// scroll interrupted it): ``ScrollInput/delta`` is zero.
    case momentumEnded
}

/// An edge of a content's scrollable area (``PresentationContent/canScroll(toward:)``).
public enum ScrollEdge: Hashable, Sendable, CaseIterable {
    /// Its start along y: scrolling toward it shows what is above (a wheel turned away from the
    /// user, a finger moving down).
    case top
    /// Its end along y.
    case bottom
    /// Its start along x.
    case left
    /// Its end along x.
    case right

    /// The edge a scroll by `delta` (points, ``ScrollInput/delta``'s sign) heads for along one axis:
    /// nil for a zero delta.
    public static func toward(dx: Double) -> ScrollEdge? { dx > 0 ? .right : dx < 0 ? .left : nil }
    /// See ``toward(dx:)``.
    public static func toward(dy: Double) -> ScrollEdge? { dy > 0 ? .bottom : dy < 0 ? .top : nil }
}

/// One scroll a content receives (``ContentInput/scroll(_:)``).
///
/// `delta` is how far to move what the content shows through its document, points: +y shows
/// more of what is below (the visible region moves down: a wheel turned toward the user, a
/// touchpad's fingers moving up with natural scrolling, a finger moving up a touchscreen), +x
/// more of what is to the right. That is `wl_pointer.axis`'s sign; a touch pan's delta is the
/// finger's motion negated, so the document follows the finger.
public struct ScrollInput: Hashable, Sendable {
    /// The distance to scroll, points (zero for ``ScrollPhase/ended`` and ``ScrollPhase/momentumEnded``).
    public var delta: Point
    /// Wheel steps along each axis in 1/120ths of a detent (`axis_value120`, or `axis_discrete` × 120):
    /// a content that scrolls by rows may use these instead of ``delta``; zero when not a wheel.
    public var steps120: (x: Int32, y: Int32) { (steps120X, steps120Y) }
    /// See ``steps120``.
    public var steps120X: Int32
    /// See ``steps120``.
    public var steps120Y: Int32
    /// What made it.
    public var source: ScrollSource
    /// Where in its gesture it is.
    public var phase: ScrollPhase
    /// Where the pointer or the touch is, in the content's own points (for a content that scrolls
    /// several areas: the area under it). A momentum scroll keeps the point the gesture ended at.
    public var location: Point

    /// A scroll; see the properties for each value.
    public init(delta: Point, steps120X: Int32 = 0, steps120Y: Int32 = 0, source: ScrollSource,
                phase: ScrollPhase = .changed, location: Point = .zero) {
        self.delta = delta
        self.steps120X = steps120X
        self.steps120Y = steps120Y
        self.source = source
        self.phase = phase
        self.location = location
    }
}
