// The shape morph of adaptive styles: when a layout changes which corners are rounded, the
// presented view moves from the shape it shows to the new one over `morphDuration`, never dismissing.

extension PresentationController {
    // MARK: Shape morph (adaptive styles)


    /// The morph's duration, seconds, and curve: 0.25 s ease-in-out.
    public static let morphDuration = 0.25
    /// The timing curve of a shape morph (``morphDuration`` seconds long).
    public static let morphCurve = TimingCurve.easeInOut

    /// Whether the presented view is morphing between two shapes (it needs frames meanwhile).
    public var isMorphing: Bool { morph != nil }

    var targetShape: MorphShape {
        MorphShape(frame: presentedViewFrame, topRadius: presentedCornerStyle.topRadius,
                   bottomRadius: presentedCornerStyle.bottomRadius)
    }

    func shape(of m: Morph, at now: Double) -> MorphShape {
        let to = targetShape
        guard let start = m.start else { return m.from }
        let t = min(max((now - start) / PresentationController.morphDuration, 0), 1)
        let k = PresentationController.morphCurve.value(at: t)
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * k }
        return MorphShape(frame: Rect(x: mix(m.from.frame.minX, to.frame.minX), y: mix(m.from.frame.minY, to.frame.minY),
                                      width: mix(m.from.frame.width, to.frame.width),
                                      height: mix(m.from.frame.height, to.frame.height)),
                          topRadius: mix(m.from.topRadius, to.topRadius),
                          bottomRadius: mix(m.from.bottomRadius, to.bottomRadius))
    }

    /// The presented view's frame at `now` as shown: ``presentedViewFrame``, or during a morph the
    /// frame between the old and the new shape (points).
    public func displayedFrame(at now: Double) -> Rect {
        guard let m = morph else { return presentedViewFrame }
        return shape(of: m, at: now).frame
    }

    /// The presented view's corner clip at `now` as shown: ``presentedCornerStyle``, or during a
    /// morph the radii between the old and the new shape (top and bottom corners apart).
    public func displayedCorners(at now: Double) -> (style: CornerStyle, bottomRadius: Double?) {
        guard let m = morph else { return (presentedCornerStyle, nil) }
        let s = shape(of: m, at: now)
        var mask: CornerMask = []
        if s.topRadius > 0 { mask.formUnion(.top) }
        if s.bottomRadius > 0 { mask.formUnion([.bottomLeft, .bottomRight]) }
        return (CornerStyle(radius: s.topRadius > 0 ? s.topRadius : s.bottomRadius, corners: mask), s.bottomRadius)
    }

    func advanceMorph(now: Double) {
        guard var m = morph else { return }
        if m.start == nil { m.start = now; morph = m }
        if now - m.start! >= PresentationController.morphDuration { morph = nil }
    }
}
