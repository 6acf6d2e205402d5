// Swift views of the C style ABI (Sources/CModalKitStyle/include/modalkit_style.h): the ABI
// version and the conversions between ModalKit's value types and the C structs. Nothing here
// is public except the version, which errors and listings name.
import CModalKitStyle
import Glibc

package enum StyleABI {
    /// `dlsym` names, from the header.
    package static let entrySymbol = MODALKIT_STYLE_ENTRY_SYMBOL
    package static let versionSymbol = MODALKIT_STYLE_ABI_VERSION_SYMBOL

    /// The smallest `struct_size` a descriptor of ABI `current.major`.`minor` may have, bytes;
    /// nil for a minor this host does not know (then it is newer and rejected anyway).
    package static func minimumDescriptorSize(minor: UInt32) -> Int? {
        let size = modalkit_style_descriptor_min_size(minor)
        return size == 0 ? nil : Int(size)
    }

    /// The option record as of ABI 1.0 (three pointers): the smallest `option_size` accepted.
    package static let minimumOptionSize = Int(modalkit_style_option_min_size(0))

    /// The option record as of ABI 1.`minor`, bytes; nil for a minor this host does not know.
    package static func optionSize(minor: UInt32) -> Int? {
        let size = modalkit_style_option_min_size(minor)
        return size == 0 ? nil : Int(size)
    }
}

// MARK: - Value conversions (points, premultiplied colours, seconds: units are unchanged)

extension modalkit_rect {
    package init(_ r: Rect) { self.init(x: r.minX, y: r.minY, width: r.width, height: r.height) }
}

/// What crosses the boundary from plugin code is checked before the engine uses it: a plugin is
/// someone else's code, and a NaN, an infinity or an absurd magnitude must not reach pixel
/// arithmetic (where converting it to an integer traps). A coordinate or length outside ±10⁶ points
/// (far beyond any container: windows are at most 8192 points a side) is clamped to it; a NaN
/// becomes the neutral value named at each use (0 for positions, sizes and radii, no dim, the
/// identity transform's part).
package func boundaryValue(_ v: Double, ifNaN fallback: Double, in range: ClosedRange<Double>) -> Double {
    v.isNaN ? fallback : min(max(v, range.lowerBound), range.upperBound)
}

/// ±10⁶ points: the range of a coordinate or length taken from a plugin.
package let boundaryCoordinates = -1e6...1e6

extension Rect {
    package init(_ r: modalkit_rect) {
        func c(_ v: Double) -> Double { boundaryValue(v, ifNaN: 0, in: boundaryCoordinates) }
        self.init(x: c(r.x), y: c(r.y), width: max(0, c(r.width)), height: max(0, c(r.height)))
    }
}

extension modalkit_point {
    package init(_ p: Point) { self.init(x: p.x, y: p.y) }
}

extension Point {
    package init(_ p: modalkit_point) {
        self.init(x: boundaryValue(p.x, ifNaN: 0, in: boundaryCoordinates),
                  y: boundaryValue(p.y, ifNaN: 0, in: boundaryCoordinates))
    }
}

extension modalkit_dimming {
    package init(_ d: DimmingAppearance) {
        self.init(color: modalkit_color(red: d.color.red, green: d.color.green, blue: d.color.blue,
                                        alpha: d.color.alpha),
                  alpha: d.alpha)
    }
}

extension DimmingAppearance {
    /// Colour components and alpha clamped to 0...1 (NaN: 0, no dim).
    package init(_ d: modalkit_dimming) {
        func u(_ v: Double) -> Double { boundaryValue(v, ifNaN: 0, in: 0...1) }
        self.init(color: Color(premultipliedRed: u(d.color.red), green: u(d.color.green), blue: u(d.color.blue),
                               alpha: u(d.color.alpha)),
                  alpha: u(d.alpha))
    }
}

extension modalkit_corner_style {
    package init(_ c: CornerStyle) { self.init(radius: c.radius, corners: c.corners.rawValue) }
}

extension CornerStyle {
    package init(_ c: modalkit_corner_style) {
        self.init(radius: boundaryValue(c.radius, ifNaN: 0, in: 0...1e6),
                  corners: CornerMask(rawValue: c.corners).intersection(.all))
    }
}

extension modalkit_view_transform {
    package init(_ t: ViewTransform) {
        self.init(translate_x: t.translation.x, translate_y: t.translation.y, scale: t.scale, alpha: t.alpha)
    }
}

extension ViewTransform {
    /// Translation within ±10⁶ points, scale within 0...1000, alpha within 0...1; a NaN part is the
    /// identity's (0, 1, 1), so a broken transform shows the view at its frame.
    package init(_ t: modalkit_view_transform) {
        self.init(translation: Point(x: boundaryValue(t.translate_x, ifNaN: 0, in: boundaryCoordinates),
                                     y: boundaryValue(t.translate_y, ifNaN: 0, in: boundaryCoordinates)),
                  scale: boundaryValue(t.scale, ifNaN: 1, in: 0...1000),
                  alpha: boundaryValue(t.alpha, ifNaN: 1, in: 0...1))
    }
}

extension modalkit_timing_curve {
    package init(_ curve: TimingCurve) {
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
    package init?(_ c: modalkit_timing_curve) {
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

// MARK: - ABI 1.1: checking what plugin code returns, and reporting it once

extension modalkit_transition_context {
    package init(_ c: TransitionContext) {
        self.init(phase: c.phase == .dismiss ? MODALKIT_PHASE_DISMISS : MODALKIT_PHASE_PRESENT,
                  is_interactive: c.isInteractive, has_source_rect: c.sourceRect != nil,
                  source_rect: modalkit_rect(c.sourceRect ?? .zero), container_bounds: modalkit_rect(c.containerBounds))
    }
}

extension TransitionContext {
    /// The context the host passed (a plugin reads it; it comes from the host, so only the
    /// phase is interpreted: anything but dismiss is present).
    package init(_ c: modalkit_transition_context) {
        self.init(phase: c.phase == MODALKIT_PHASE_DISMISS ? .dismiss : .present, isInteractive: c.is_interactive,
                  sourceRect: c.has_source_rect ? Rect(c.source_rect) : nil, containerBounds: Rect(c.container_bounds))
    }
}

extension modalkit_color {
    package init(_ c: Color) { self.init(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha) }
}

extension modalkit_linear_gradient {
    /// The gradient's stops copied inline; stops beyond MODALKIT_GRADIENT_MAX_STOPS cannot exist
    /// (``LinearGradient`` holds at most 8).
    package init(_ g: LinearGradient) {
        self.init()
        start = modalkit_point(g.start); end = modalkit_point(g.end)
        stop_count = UInt32(g.count)
        withUnsafeMutableBytes(of: &stops) { raw in
            let s = raw.bindMemory(to: modalkit_gradient_stop.self)
            for i in 0..<min(g.count, s.count) {
                s[i] = modalkit_gradient_stop(location: g[i].location, color: modalkit_color(g[i].color))
            }
        }
    }
}

extension modalkit_dimming_fill {
    package init(_ d: DimmingAppearance) {
        self.init()
        alpha = d.alpha
        color = modalkit_color(d.color)
        if let g = d.gradient {
            kind = MODALKIT_DIM_GRADIENT
            gradient = modalkit_linear_gradient(g)
        } else {
            kind = MODALKIT_DIM_SOLID
        }
    }
}


extension modalkit_anchored_transform {
    package init(_ t: ViewTransform) {
        self.init(translate_x: t.translation.x, translate_y: t.translation.y, scale_x: t.scaleX, scale_y: t.scaleY,
                  anchor_x: t.anchor.x, anchor_y: t.anchor.y, alpha: t.alpha)
    }
}

extension modalkit_chrome {
    package init(_ c: PresentedViewChrome) {
        self.init()
        if let b = c.backgroundColor { parts |= MODALKIT_CHROME_BACKGROUND; background_color = modalkit_color(b) }
        if let b = c.border {
            parts |= MODALKIT_CHROME_BORDER
            border = modalkit_border(width: b.width, color: modalkit_color(b.color))
        }
        if let s = c.shadow {
            parts |= MODALKIT_CHROME_SHADOW
            shadow = modalkit_shadow(color: modalkit_color(s.color), offset: modalkit_point(s.offset),
                                     blur_radius: s.blurRadius)
        }
        if let g = c.grabber { parts |= MODALKIT_CHROME_GRABBER; grabber_color = modalkit_color(g) }
    }
}


extension modalkit_presenting_appearance {
    package init(_ a: PresentingViewAppearance) {
        self.init(transform: modalkit_anchored_transform(a.transform), corner_radius: a.cornerRadius)
    }
}


extension DragDirection {
    package var abiValue: UInt32 {
        switch self {
        case .down: return MODALKIT_DRAG_DOWN
        case .up: return MODALKIT_DRAG_UP
        case .left: return MODALKIT_DRAG_LEFT
        case .right: return MODALKIT_DRAG_RIGHT
        }
    }
    package init?(abiValue v: UInt32) {
        switch v {
        case MODALKIT_DRAG_DOWN: self = .down
        case MODALKIT_DRAG_UP: self = .up
        case MODALKIT_DRAG_LEFT: self = .left
        case MODALKIT_DRAG_RIGHT: self = .right
        default: return nil
        }
    }
}

extension modalkit_interaction {
    /// The declaration in C; detents beyond MODALKIT_MAX_DETENTS are dropped (the host reports it
    /// as a bad value when it sees `detent_count` above 8, which cannot happen from here, so the
    /// export sets it to 8 and the later detents are lost: a style needs at most a few).
    package init(_ i: InteractionDeclaration) {
        self.init()
        switch i.dismissGesture {
        case .none: dismiss_gesture = MODALKIT_DISMISS_GESTURE_NONE
        case let .drag(d): dismiss_gesture = MODALKIT_DISMISS_GESTURE_DRAG; drag_direction = d.abiValue
        }
        let n = min(i.detents.count, Int(MODALKIT_MAX_DETENTS))
        detent_count = UInt32(n)
        withUnsafeMutableBytes(of: &detents) { raw in
            let d = raw.bindMemory(to: modalkit_detent.self)
            for k in 0..<n {
                switch i.detents[k] {
                case let .fraction(f): d[k] = modalkit_detent(kind: MODALKIT_DETENT_FRACTION, value: f)
                case let .points(p): d[k] = modalkit_detent(kind: MODALKIT_DETENT_POINTS, value: p)
                case let .fitsContent(cap):
                    switch cap {
                    case let .points(p): d[k] = modalkit_detent(kind: MODALKIT_DETENT_FIT_CONTENT_POINTS, value: p)
                    default: d[k] = modalkit_detent(kind: MODALKIT_DETENT_FIT_CONTENT_FRACTION,
                                                    value: cap.resolved(containerLength: 1))
                    }
                }
            }
        }
        largest_undimmed_detent = i.largestUndimmedDetent.map { $0 < n ? Int32($0) : -1 } ?? -1
        is_dismissible = i.isDismissible
    }
}

