import Glibc
import ModalKitSystemSupport

/// How a transition's linear time fraction (0...1) maps to its progress (0 = dismissed
/// position, 1 = presented position). Source: CSS / Core Animation timing functions; the
/// default is ease-in-out `cubic-bezier(0.42, 0, 0.58, 1)` (docs/design.md, built-in styles),
/// symmetric so that `value(at: 0.5) == 0.5` and `value(at: 1 - t) == 1 - value(at: t)`.
public enum TimingCurve: Hashable, Sendable {
    /// Progress equals the linear time fraction.
    case linear
    /// `cubic-bezier(0.42, 0, 0.58, 1)`.
    case easeInOut
    /// `cubic-bezier(0, 0, 0.58, 1)`.
    case easeOut
    /// A CSS cubic Bézier with control points (x1, y1) and (x2, y2); x1 and x2 in 0...1 (CSS),
    /// y1 and y2 in ``bezierYRange`` (CSS allows any y; beyond ±10 the view would leave any window
    /// hundreds of times over).
    case cubicBezier(Double, Double, Double, Double)
    /// A damped spring from 0 to 1 with unit mass: `stiffness` (N/m) and `damping` (N·s/m), each
    /// in ``springParameterRange``. `damping == 2·sqrt(stiffness)` is critically damped; less
    /// overshoots.
    /// The spring's own settling time is stretched to the transition's duration, so time
    /// fraction 1 always means "at rest at 1".
    case spring(stiffness: Double, damping: Double)

    /// The accepted y of a cubic Bézier's control points.
    public static let bezierYRange = -10.0...10.0
    /// The accepted stiffness and damping of a spring: above 0, at most 10⁶ (a spring's time is
    /// stretched to the duration, so only the ratio of the two shapes the motion; typical UI
    /// springs use stiffness 100–1000).
    public static let springParameterRange = Double.leastNormalMagnitude...1e6

    /// A cubic Bézier if its parameters are in range (x1, x2 in 0...1, y1, y2 in ``bezierYRange``).
    public static func cubicBezierIfValid(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> TimingCurve? {
        guard (0...1).contains(x1), (0...1).contains(x2), bezierYRange.contains(y1), bezierYRange.contains(y2) else {
            return nil
        }
        return .cubicBezier(x1, y1, x2, y2)
    }

    /// A spring if both parameters are in ``springParameterRange``.
    public static func springIfValid(stiffness: Double, damping: Double) -> TimingCurve? {
        guard springParameterRange.contains(stiffness), springParameterRange.contains(damping) else { return nil }
        return .spring(stiffness: stiffness, damping: damping)
    }

    /// Parses the `curve` style option: `linear`, `ease-in-out`, `ease-out`,
    /// `cubic-bezier(x1,y1,x2,y2)` or `spring(stiffness,damping)`.
    /// - Returns: nil when the text is none of these, or its parameters are out of range
    ///   (``cubicBezierIfValid(_:_:_:_:)``, ``springIfValid(stiffness:damping:)``).
    public init?(parsing text: String) {
        let t = text.replacingAll(" ", with: "").lowercased()
        switch t {
        case "linear": self = .linear
        case "ease-in-out", "easeinout": self = .easeInOut
        case "ease-out", "easeout": self = .easeOut
        default:
            func args(_ prefix: String) -> [Double]? {
                guard t.hasPrefix(prefix + "("), t.hasSuffix(")") else { return nil }
                let inner = t.dropFirst(prefix.count + 1).dropLast()
                let values = inner.split(separator: ",").compactMap { Double($0) }
                return values.allSatisfy({ $0.isFinite }) ? values : nil
            }
            if let v = args("cubic-bezier"), v.count == 4, let curve = TimingCurve.cubicBezierIfValid(v[0], v[1], v[2], v[3]) {
                self = curve
            } else if let v = args("spring"), v.count == 2, let curve = TimingCurve.springIfValid(stiffness: v[0], damping: v[1]) {
                self = curve
            } else {
                return nil
            }
        }
    }

    /// The progress at linear time fraction `t` (clamped to 0...1). `value(at: 0) == 0` and
    /// `value(at: 1) == 1` for every curve.
    public func value(at t: Double) -> Double {
        let t = min(max(t, 0), 1)
        if t == 0 || t == 1 { return t }
        let v: Double
        switch self {
        case .linear: return t
        case .easeInOut: v = TimingCurve.bezier(t, 0.42, 0, 0.58, 1)
        case .easeOut: v = TimingCurve.bezier(t, 0, 0, 0.58, 1)
        case let .cubicBezier(x1, y1, x2, y2): v = TimingCurve.bezier(t, x1, y1, x2, y2)
        case let .spring(k, c): v = TimingCurve.spring(t, stiffness: k, damping: c)
        }
        // A curve built around the range checks (the enum's cases are public) still yields a
        // number a frame can be drawn from.
        return v.isFinite ? v : t
    }

    /// Solves x(s) = t for the Bézier parameter s (Newton, then bisection), returns y(s).
    package static func bezier(_ t: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func coord(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        var s = t
        for _ in 0..<8 {
            let err = coord(s, x1, x2) - t
            if abs(err) < 1e-9 { return coord(s, y1, y2) }
            let d = slope(s, x1, x2)
            if abs(d) < 1e-6 { break }
            s -= err / d
        }
        var lo = 0.0, hi = 1.0
        s = t
        for _ in 0..<60 {
            let x = coord(s, x1, x2)
            if abs(x - t) < 1e-9 { break }
            if x < t { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return coord(s, y1, y2)
    }

    /// Position of a unit-mass spring released at 0 towards 1, with time scaled so that the
    /// motion has settled (within 0.1 %) at t = 1.
    package static func spring(_ t: Double, stiffness k: Double, damping c: Double) -> Double {
        let w0 = sqrt(k)
        let zeta = c / (2 * w0)
        // Settling time to 0.1 %: ln(1000) over the decay rate of the slowest term — the envelope
        // zeta·w0 when underdamped, w0 when critically damped, the slow root w0·(zeta − sqrt(zeta² − 1))
        // when overdamped (using w0 there left an overdamped spring at ~0.8 when time ran out).
        // (zeta − sqrt(zeta² − 1) is written 1 / (zeta + sqrt(zeta² − 1)): the same value without
        // the cancellation that made it 0 for a strongly overdamped spring.)
        let slow = zeta <= 1 ? 0 : 1 / (zeta + sqrt(zeta * zeta - 1))
        let rate = zeta <= 1 ? zeta * w0 : w0 * slow
        let settle = log(1000) / rate
        let time = t * settle
        if zeta < 1 {
            let wd = w0 * sqrt(1 - zeta * zeta)
            let env = exp(-zeta * w0 * time)
            return 1 - env * (cos(wd * time) + (zeta * w0 / wd) * sin(wd * time))
        } else if zeta == 1 {
            return 1 - exp(-w0 * time) * (1 + w0 * time)
        } else {
            let r1 = -w0 * slow
            let r2 = -w0 * (zeta + sqrt(zeta * zeta - 1))
            let a = r2 / (r2 - r1), b = -r1 / (r2 - r1)
            return 1 - (a * exp(r1 * time) + b * exp(r2 * time))
        }
    }
}
