// What a style can express beyond a plain card over a flat dim (style ABI 1.1): gradient dims,
// the presented view's chrome, the presenting view while covered, the transition context, and the
// interactions a style allows (LinearGradient here; Shadow, Border, PresentedViewChrome,
// PresentingViewAppearance, TransitionContext and InteractionDeclaration beside it). Each has a
// default that draws exactly what a style without it draws (docs/design.md, "What a style can express").

/// A linear gradient between two points in container coordinates (points), with 2...8 stops in
/// non-decreasing location order. Before the first stop the first colour holds, after the last the
/// last colour (pad extension, as `CAGradientLayer` and pixman's `PIXMAN_REPEAT_PAD`).
///
/// The stops are stored inline (no heap storage), so a style can return a new gradient on every
/// frame without allocating.
public struct LinearGradient: Hashable, Sendable {
    /// The most stops a gradient holds.
    public static let maxStops = 8
    /// Where location 0 and location 1 lie, container points.
    public var start: Point
    /// Where the gradient reaches its last stop, container points.
    public var end: Point
    private var storage: InlineArray<8, GradientStop>
    /// How many of the stored stops are used, 2...8.
    public private(set) var count: Int

    /// Why a gradient cannot be made.
    public enum Invalid: Error, Equatable, CustomStringConvertible {
        /// Fewer than 2 or more than 8 stops.
        case stopCount(Int)
        /// A location outside 0...1 or not finite, or a colour component not finite.
        case badStop(index: Int)
        /// A stop's location is smaller than the one before it.
        case outOfOrder(index: Int)
        /// The start or end point is not finite.
        case badPoint

        public var description: String {
            switch self {
            case let .stopCount(n): return "a gradient has 2 to 8 stops, not \(n)"
            case let .badStop(i): return "gradient stop \(i) has a location outside 0...1 or a non-finite colour"
            case let .outOfOrder(i): return "gradient stop \(i) comes before the stop ahead of it"
            case .badPoint: return "a gradient's start and end points must be finite"
            }
        }
    }

    /// A gradient from `start` to `end` (container points) through `stops`.
    /// - Throws: ``Invalid`` when the stops are fewer than 2 or more than 8, out of order,
    ///   located outside 0...1, or anything is not finite.
    public init(start: Point, end: Point, stops: [GradientStop]) throws {
        guard (2...LinearGradient.maxStops).contains(stops.count) else { throw Invalid.stopCount(stops.count) }
        guard start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite else { throw Invalid.badPoint }
        for (i, s) in stops.enumerated() {
            let c = s.color
            guard s.location.isFinite, (0...1).contains(s.location),
                  c.red.isFinite, c.green.isFinite, c.blue.isFinite, c.alpha.isFinite else { throw Invalid.badStop(index: i) }
            if i > 0, s.location < stops[i - 1].location { throw Invalid.outOfOrder(index: i) }
        }
        self.init(unchecked: start, end, stops)
    }

    /// A two-stop gradient (allocation-free; the arguments must be valid: locations 0 and 1).
    public init(start: Point, end: Point, from first: Color, to last: Color) {
        self.start = start; self.end = end
        storage = InlineArray(repeating: GradientStop(location: 1, color: last))
        storage[0] = GradientStop(location: 0, color: first)
        count = 2
    }

    private init(unchecked start: Point, _ end: Point, _ stops: [GradientStop]) {
        self.start = start; self.end = end
        storage = InlineArray(repeating: stops[stops.count - 1])
        for i in 0..<stops.count { storage[i] = stops[i] }
        count = stops.count
    }

    /// A gradient of `count` (2...8) stops given by `stop(i)`, taken as they are: for the plugin
    /// boundary, which checks and repairs the values first (allocation-free).
    package init(validatedStart start: Point, end: Point, count: Int, stop: (Int) -> GradientStop) {
        precondition((2...LinearGradient.maxStops).contains(count), "gradient stop count out of range")
        self.start = start; self.end = end
        storage = InlineArray(repeating: stop(count - 1))
        for i in 0..<count { storage[i] = stop(i) }
        self.count = count
    }

    /// Stop `i`, 0..<count.
    public subscript(i: Int) -> GradientStop {
        precondition(i >= 0 && i < count, "gradient stop index out of range")
        return storage[i]
    }

    /// Whether the gradient line is vertical (start.x == end.x): such a gradient can be drawn as
    /// a 1×N strip stretched over the container.
    public var isVertical: Bool { start.x == end.x }

    public static func == (a: LinearGradient, b: LinearGradient) -> Bool {
        guard a.start == b.start, a.end == b.end, a.count == b.count else { return false }
        for i in 0..<a.count where a.storage[i] != b.storage[i] { return false }
        return true
    }

    public func hash(into h: inout Hasher) {
        h.combine(start); h.combine(end); h.combine(count)
        for i in 0..<count { h.combine(storage[i]) }
    }

    /// This gradient with its points multiplied by `scale` (points → buffer pixels) and every
    /// stop's colour multiplied by `alpha` (the dimming view's alpha); allocation-free.
    package func resolved(scale s: Double, alpha: Double) -> LinearGradient {
        var g = self
        g.start = Point(x: start.x * s, y: start.y * s)
        g.end = Point(x: end.x * s, y: end.y * s)
        for i in 0..<count { g.storage[i].color = storage[i].color.multipliedAlpha(by: alpha) }
        return g
    }

    /// The premultiplied colour at `t` along the gradient line (0 = start, 1 = end): the first
    /// stop's colour up to its location, the last stop's from its location on (pad), linear
    /// interpolation of the premultiplied components between neighbouring stops (two stops at one
    /// location make a hard edge: the later one applies from there on).
    public func color(at t: Double) -> Color {
        let first = storage[0], last = storage[count - 1]
        if !(t > first.location) { return first.color }
        if t >= last.location { return last.color }
        var i = 0
        while i + 1 < count - 1 && storage[i + 1].location <= t { i += 1 }
        let a = storage[i], b = storage[i + 1]
        let span = b.location - a.location
        guard span > 0 else { return b.color }
        let f = (t - a.location) / span
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        return Color(premultipliedRed: mix(a.color.red, b.color.red), green: mix(a.color.green, b.color.green),
                     blue: mix(a.color.blue, b.color.blue), alpha: mix(a.color.alpha, b.color.alpha))
    }
}

/// One colour stop of a gradient: where it sits on the gradient line (0 = start point,
/// 1 = end point) and its colour, premultiplied (CSS `linear-gradient`, `CAGradientLayer`).
public struct GradientStop: Hashable, Sendable {
    /// Position on the gradient line, 0...1.
    public var location: Double
    /// Premultiplied colour at `location`.
    public var color: Color
    /// A stop of `color` at `location` (0 = ``LinearGradient/start``, 1 = ``LinearGradient/end``).
    public init(location: Double, color: Color) { self.location = location; self.color = color }
}
