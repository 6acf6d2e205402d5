// The host's side of the style ABI's value conversions: what a plugin returns, checked before the
// engine uses it (``BoundaryCheck``). The unchecked conversions both sides share live in
// ModalKitStyle (its StyleABI.swift).
import CModalKitStyle
import ModalKitStyle

extension DimmingAppearance {
    /// A checked dim: colours and alpha clamped to 0...1, the gradient repaired
    /// (``BoundaryCheck/gradient(_:)``), an unknown kind drawn as the solid colour.
    init(_ d: modalkit_dimming_fill, check: inout BoundaryCheck) {
        let alpha = check.unit(d.alpha)
        switch d.kind {
        case MODALKIT_DIM_GRADIENT:
            if let g = check.gradient(d.gradient) { self.init(gradient: g, alpha: alpha) } else { self = .none }
        default:
            if d.kind != MODALKIT_DIM_SOLID { check.issues.insert(.unknownConstant) }
            self.init(color: check.color(d.color), alpha: alpha)
        }
    }
}

extension PresentedViewChrome {
    /// Checked chrome: colours clamped to 0...1, a border width and a blur radius to 0...10⁶ points
    /// (a negative blur is 0), a shadow offset to ±10⁶ points; unknown bits of `parts` ignored.
    init(_ c: modalkit_chrome, check: inout BoundaryCheck) {
        self.init()
        let known = MODALKIT_CHROME_BACKGROUND | MODALKIT_CHROME_BORDER | MODALKIT_CHROME_SHADOW | MODALKIT_CHROME_GRABBER
        if c.parts & ~known != 0 { check.issues.insert(.unknownConstant) }
        if c.parts & MODALKIT_CHROME_BACKGROUND != 0 { backgroundColor = check.color(c.background_color) }
        if c.parts & MODALKIT_CHROME_BORDER != 0 {
            border = Border(width: check.length(c.border.width), color: check.color(c.border.color))
        }
        if c.parts & MODALKIT_CHROME_SHADOW != 0 {
            shadow = Shadow(color: check.color(c.shadow.color), offset: check.point(c.shadow.offset),
                            blurRadius: check.length(c.shadow.blur_radius))
        }
        if c.parts & MODALKIT_CHROME_GRABBER != 0 { grabber = check.color(c.grabber_color) }
    }
}

extension PresentingViewAppearance {
    init(_ a: modalkit_presenting_appearance, check: inout BoundaryCheck) {
        self.init(transform: check.transform(a.transform), cornerRadius: check.length(a.corner_radius))
    }
}

extension InteractionDeclaration {
    /// A checked declaration: an unknown gesture or direction is no gesture, at most 8 detents,
    /// fractions within (0, 1] and points within 0...10⁶ (NaN detents dropped), an undimmed index
    /// outside the detents ignored. The detent kinds that fit the content are read only from a
    /// plugin of `minor` 3 or later (an unknown constant before); `scrollingExpands` is the 1.3
    /// answer (true for older plugins).
    init(_ c: modalkit_interaction, minor: UInt32, scrollingExpands: Bool = true, check: inout BoundaryCheck) {
        var gesture = DismissGesture.none
        switch c.dismiss_gesture {
        case MODALKIT_DISMISS_GESTURE_NONE: break
        case MODALKIT_DISMISS_GESTURE_DRAG:
            if let d = DragDirection(abiValue: c.drag_direction) { gesture = .drag(d) }
            else { check.issues.insert(.unknownConstant) }
        default: check.issues.insert(.unknownConstant)
        }
        if c.detent_count > MODALKIT_MAX_DETENTS { check.issues.insert(.detents) }
        let n = min(Int(c.detent_count), Int(MODALKIT_MAX_DETENTS))
        var list: [Detent] = []
        var raw = c.detents
        withUnsafeBytes(of: &raw) { bytes in
            let d = bytes.bindMemory(to: modalkit_detent.self)
            for k in 0..<n {
                guard !d[k].value.isNaN else { check.issues.insert(.nonFinite); continue }
                switch d[k].kind {
                case MODALKIT_DETENT_FRACTION: list.append(.fraction(check.value(d[k].value, ifNaN: 1, in: 0...1)))
                case MODALKIT_DETENT_POINTS: list.append(.points(check.length(d[k].value)))
                case MODALKIT_DETENT_FIT_CONTENT_FRACTION where minor >= 3:
                    list.append(.fitsContent(atMost: .fraction(check.value(d[k].value, ifNaN: 1, in: 0...1))))
                case MODALKIT_DETENT_FIT_CONTENT_POINTS where minor >= 3:
                    list.append(.fitsContent(atMost: .points(check.length(d[k].value))))
                default: check.issues.insert(.unknownConstant)
                }
            }
        }
        var undimmed: Int?
        if c.largest_undimmed_detent >= 0 {
            if Int(c.largest_undimmed_detent) < list.count { undimmed = Int(c.largest_undimmed_detent) }
            else { check.issues.insert(.detents) }
        }
        self.init(dismissGesture: gesture, detents: list, largestUndimmedDetent: undimmed,
                  isDismissible: c.is_dismissible, prefersScrollingExpandsWhenScrolledToEdge: scrollingExpands)
    }
}
