import CModalKitStyle
import Glibc
import ModalKitStyle

/// What was wrong with values that came from plugin code, as bits, so that checking a frame's
/// values allocates nothing; the host repairs each value and reports each kind of problem once
/// per plugin and function (``PluginDiagnostics``).
struct BoundaryIssues: OptionSet, Hashable {
    let rawValue: UInt32
    /// A NaN or an infinity.
    static let nonFinite = BoundaryIssues(rawValue: 1 << 0)
    /// A finite value outside its range (a colour component or alpha outside 0...1, a coordinate
    /// beyond ±10⁶ points, a scale beyond 0...1000, a negative length).
    static let outOfRange = BoundaryIssues(rawValue: 1 << 1)
    /// Fewer than 2 or more than 8 gradient stops.
    static let stopCount = BoundaryIssues(rawValue: 1 << 2)
    /// Gradient stops whose locations decrease.
    static let stopOrder = BoundaryIssues(rawValue: 1 << 3)
    /// A kind or direction constant the header does not define.
    static let unknownConstant = BoundaryIssues(rawValue: 1 << 4)
    /// More detents than MODALKIT_MAX_DETENTS, or an undimmed-detent index outside them.
    static let detents = BoundaryIssues(rawValue: 1 << 5)

    /// What the host did about each problem, for the one stderr line.
    var explanation: String {
        var parts: [String] = []
        if contains(.nonFinite) { parts.append("NaN or an infinite value (the neutral value is used)") }
        if contains(.outOfRange) { parts.append("a value out of range (clamped)") }
        if contains(.stopCount) { parts.append("not 2 to 8 gradient stops (cut to 8, or the one stop repeated)") }
        if contains(.stopOrder) { parts.append("gradient stops out of order (made non-decreasing)") }
        if contains(.unknownConstant) { parts.append("an unknown kind or direction (the default is used)") }
        if contains(.detents) { parts.append("detents beyond the 8 the ABI holds or a bad undimmed index (ignored)") }
        return parts.joined(separator: "; ")
    }
}

/// Checks and repairs values from plugin code, collecting what was wrong in `issues`.
struct BoundaryCheck {
    var issues: BoundaryIssues = []

    /// `v` within `range`; NaN becomes `fallback`, ±∞ the nearer bound (both `.nonFinite`), a
    /// finite value outside the range is clamped (`.outOfRange`, with a 1e-9 allowance for
    /// arithmetic noise, e.g. 0.4 × 2.5 ≠ 1 exactly).
    mutating func value(_ v: Double, ifNaN fallback: Double, in range: ClosedRange<Double>) -> Double {
        if !v.isFinite { issues.insert(.nonFinite) }
        else if v < range.lowerBound - 1e-9 || v > range.upperBound + 1e-9 { issues.insert(.outOfRange) }
        return boundaryValue(v, ifNaN: fallback, in: range)
    }
    mutating func unit(_ v: Double) -> Double { value(v, ifNaN: 0, in: 0...1) }
    mutating func coordinate(_ v: Double) -> Double { value(v, ifNaN: 0, in: boundaryCoordinates) }
    mutating func length(_ v: Double) -> Double { value(v, ifNaN: 0, in: 0...1e6) }
    mutating func point(_ p: modalkit_point) -> Point { Point(x: coordinate(p.x), y: coordinate(p.y)) }
    mutating func color(_ c: modalkit_color) -> Color {
        Color(premultipliedRed: unit(c.red), green: unit(c.green), blue: unit(c.blue), alpha: unit(c.alpha))
    }
    /// A rectangle; a negative width or height is an empty rectangle (not reported: UIKit's frames
    /// may be empty), NaN parts are 0.
    mutating func rect(_ r: modalkit_rect) -> Rect {
        Rect(x: coordinate(r.x), y: coordinate(r.y), width: max(0, coordinate(r.width)),
             height: max(0, coordinate(r.height)))
    }

    /// A gradient: locations clamped to 0...1 and made non-decreasing, at most 8 stops, NaN 0;
    /// nil when it has no stop (no dim is drawn). One stop is repeated (a flat fill).
    mutating func gradient(_ g: modalkit_linear_gradient) -> LinearGradient? {
        let declared = Int(g.stop_count)
        if declared < 2 || declared > LinearGradient.maxStops { issues.insert(.stopCount) }
        let n = min(declared, LinearGradient.maxStops)
        guard n > 0 else { return nil }
        let start = point(g.start), end = point(g.end)
        var stops = g.stops  // a fixed-size C array: a tuple, no heap storage
        return withUnsafeBytes(of: &stops) { raw in
            let s = raw.bindMemory(to: modalkit_gradient_stop.self)
            var previous = 0.0
            var clean = InlineArray<8, GradientStop>(repeating: GradientStop(location: 0, color: .clear))
            for i in 0..<n {
                var location = unit(s[i].location)
                if location < previous { issues.insert(.stopOrder); location = previous }
                previous = location
                clean[i] = GradientStop(location: location, color: color(s[i].color))
            }
            if n == 1 {
                let only = clean[0]
                return LinearGradient(validatedStart: start, end: end, count: 2) { i in
                    GradientStop(location: Double(i), color: only.color)
                }
            }
            return LinearGradient(validatedStart: start, end: end, count: n) { clean[$0] }
        }
    }

    /// A per-axis transform: translation within ±10⁶ points, scales within 0...1000, the anchor
    /// within ±1000 view lengths, alpha within 0...1; NaN parts are the identity's.
    mutating func transform(_ t: modalkit_anchored_transform) -> ViewTransform {
        ViewTransform(translation: Point(x: coordinate(t.translate_x), y: coordinate(t.translate_y)),
                      scaleX: value(t.scale_x, ifNaN: 1, in: 0...1000),
                      scaleY: value(t.scale_y, ifNaN: 1, in: 0...1000),
                      anchor: Point(x: value(t.anchor_x, ifNaN: 0.5, in: -1000...1000),
                                    y: value(t.anchor_y, ifNaN: 0.5, in: -1000...1000)),
                      alpha: value(t.alpha, ifNaN: 1, in: 0...1))
    }
}
