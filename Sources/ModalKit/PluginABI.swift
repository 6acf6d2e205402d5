// Swift views of the C style ABI (Sources/CModalKitStyle/include/modalkit_style.h): the ABI
// version and the conversions between ModalKit's value types and the C structs. Nothing here
// is public except the version, which errors and listings name.
import CModalKitStyle

/// A version of the style-plugin C ABI (`modalkit_style.h`). Compatibility follows GStreamer
/// and weston practice: the major must be equal, the plugin's minor not newer than the host's,
/// and structs only grow at the end within one major.
public struct StyleABIVersion: Hashable, Sendable, CustomStringConvertible {
    public var major: UInt32
    public var minor: UInt32
    public init(major: UInt32, minor: UInt32) { self.major = major; self.minor = minor }

    /// The ABI this build of ModalKit speaks, as host and as plugin
    /// (`MODALKIT_STYLE_ABI_MAJOR`.`MODALKIT_STYLE_ABI_MINOR`).
    public static let current = StyleABIVersion(major: UInt32(MODALKIT_STYLE_ABI_MAJOR),
                                                minor: UInt32(MODALKIT_STYLE_ABI_MINOR))

    /// "1.1".
    public var description: String { "\(major).\(minor)" }
}

enum StyleABI {
    /// `dlsym` names, from the header.
    static let entrySymbol = MODALKIT_STYLE_ENTRY_SYMBOL
    static let versionSymbol = MODALKIT_STYLE_ABI_VERSION_SYMBOL

    /// The smallest `struct_size` a descriptor of ABI `current.major`.`minor` may have, bytes;
    /// nil for a minor this host does not know (then it is newer and rejected anyway).
    static func minimumDescriptorSize(minor: UInt32) -> Int? {
        let size = modalkit_style_descriptor_min_size(minor)
        return size == 0 ? nil : Int(size)
    }

    /// The option record as of ABI 1.0 (three pointers): the smallest `option_size` accepted.
    static let minimumOptionSize = Int(modalkit_style_option_min_size(0))

    /// The option record as of ABI 1.`minor`, bytes; nil for a minor this host does not know.
    static func optionSize(minor: UInt32) -> Int? {
        let size = modalkit_style_option_min_size(minor)
        return size == 0 ? nil : Int(size)
    }
}

// MARK: - Value conversions (points, premultiplied colours, seconds: units are unchanged)

extension modalkit_rect {
    init(_ r: Rect) { self.init(x: r.minX, y: r.minY, width: r.width, height: r.height) }
}

/// What crosses the boundary from plugin code is checked before the engine uses it: a plugin is
/// someone else's code, and a NaN, an infinity or an absurd magnitude must not reach pixel
/// arithmetic (where converting it to an integer traps). A coordinate or length outside ±10⁶ points
/// (far beyond any container: windows are at most 8192 points a side) is clamped to it; a NaN
/// becomes the neutral value named at each use (0 for positions, sizes and radii, no dim, the
/// identity transform's part).
func boundaryValue(_ v: Double, ifNaN fallback: Double, in range: ClosedRange<Double>) -> Double {
    v.isNaN ? fallback : min(max(v, range.lowerBound), range.upperBound)
}

/// ±10⁶ points: the range of a coordinate or length taken from a plugin.
let boundaryCoordinates = -1e6...1e6

extension Rect {
    init(_ r: modalkit_rect) {
        func c(_ v: Double) -> Double { boundaryValue(v, ifNaN: 0, in: boundaryCoordinates) }
        self.init(x: c(r.x), y: c(r.y), width: max(0, c(r.width)), height: max(0, c(r.height)))
    }
}

extension modalkit_point {
    init(_ p: Point) { self.init(x: p.x, y: p.y) }
}

extension Point {
    init(_ p: modalkit_point) {
        self.init(x: boundaryValue(p.x, ifNaN: 0, in: boundaryCoordinates),
                  y: boundaryValue(p.y, ifNaN: 0, in: boundaryCoordinates))
    }
}

extension modalkit_dimming {
    init(_ d: DimmingAppearance) {
        self.init(color: modalkit_color(red: d.color.red, green: d.color.green, blue: d.color.blue,
                                        alpha: d.color.alpha),
                  alpha: d.alpha)
    }
}

extension DimmingAppearance {
    /// Colour components and alpha clamped to 0...1 (NaN: 0, no dim).
    init(_ d: modalkit_dimming) {
        func u(_ v: Double) -> Double { boundaryValue(v, ifNaN: 0, in: 0...1) }
        self.init(color: Color(premultipliedRed: u(d.color.red), green: u(d.color.green), blue: u(d.color.blue),
                               alpha: u(d.color.alpha)),
                  alpha: u(d.alpha))
    }
}

extension modalkit_corner_style {
    init(_ c: CornerStyle) { self.init(radius: c.radius, corners: c.corners.rawValue) }
}

extension CornerStyle {
    init(_ c: modalkit_corner_style) {
        self.init(radius: boundaryValue(c.radius, ifNaN: 0, in: 0...1e6),
                  corners: CornerMask(rawValue: c.corners).intersection(.all))
    }
}

extension modalkit_view_transform {
    init(_ t: ViewTransform) {
        self.init(translate_x: t.translation.x, translate_y: t.translation.y, scale: t.scale, alpha: t.alpha)
    }
}

extension ViewTransform {
    /// Translation within ±10⁶ points, scale within 0...1000, alpha within 0...1; a NaN part is the
    /// identity's (0, 1, 1), so a broken transform shows the view at its frame.
    init(_ t: modalkit_view_transform) {
        self.init(translation: Point(x: boundaryValue(t.translate_x, ifNaN: 0, in: boundaryCoordinates),
                                     y: boundaryValue(t.translate_y, ifNaN: 0, in: boundaryCoordinates)),
                  scale: boundaryValue(t.scale, ifNaN: 1, in: 0...1000),
                  alpha: boundaryValue(t.alpha, ifNaN: 1, in: 0...1))
    }
}

extension modalkit_timing_curve {
    init(_ curve: TimingCurve) {
        switch curve {
        case .linear: self.init(kind: MODALKIT_CURVE_LINEAR, p1: 0, p2: 0, p3: 0, p4: 0)
        case .easeInOut: self.init(kind: MODALKIT_CURVE_EASE_IN_OUT, p1: 0, p2: 0, p3: 0, p4: 0)
        case .easeOut: self.init(kind: MODALKIT_CURVE_EASE_OUT, p1: 0, p2: 0, p3: 0, p4: 0)
        case let .cubicBezier(x1, y1, x2, y2):
            self.init(kind: MODALKIT_CURVE_CUBIC_BEZIER, p1: x1, p2: y1, p3: x2, p4: y2)
        case let .spring(k, c): self.init(kind: MODALKIT_CURVE_SPRING, p1: k, p2: c, p3: 0, p4: 0)
        }
    }
}

extension TimingCurve {
    /// The curve a plugin described; nil for an unknown kind or parameters `TimingCurve` does
    /// not accept (the same rules as `init?(parsing:)`).
    init?(_ c: modalkit_timing_curve) {
        switch c.kind {
        case MODALKIT_CURVE_LINEAR: self = .linear
        case MODALKIT_CURVE_EASE_IN_OUT: self = .easeInOut
        case MODALKIT_CURVE_EASE_OUT: self = .easeOut
        case MODALKIT_CURVE_CUBIC_BEZIER:
            guard let curve = TimingCurve.cubicBezierIfValid(c.p1, c.p2, c.p3, c.p4) else { return nil }
            self = curve
        case MODALKIT_CURVE_SPRING:
            guard let curve = TimingCurve.springIfValid(stiffness: c.p1, damping: c.p2) else { return nil }
            self = curve
        default: return nil
        }
    }
}
