import ModalKit
import XCTest

/// A backend that hands the layers to the compositor (`layerFrame(at:)`, `renderPresentingLayer`,
/// `drawPresentedLayer`, `PresentedLayerPlacement`) shows what the pixman renderer draws: the
/// layers blended here as a compositor blends premultiplied surfaces (OVER, bottom to top) equal
/// `render` within 2 per channel, at scale 1 and 2, mid-slide (the presented view cropped to the
/// container), presented, and under reduced motion (the presented view's alpha drawn into its layer).
final class LayerBackendTests: XCTestCase {
    final class Fill: PresentationContent {
        var invalidation: ContentInvalidation = .all
        let colour: Color
        init(_ colour: Color) { self.colour = colour }
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.verticalGradient(image, width: px.width, height: px.height, top: colour, bottom: .white)
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool { true }
    }

    /// `src` OVER `dst`, premultiplied ARGB, per channel rounded.
    private func over(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let sa = Double(src >> 24)
        var out: UInt32 = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            let s = Double((src >> UInt32(shift)) & 0xff), d = Double((dst >> UInt32(shift)) & 0xff)
            out |= UInt32(min(255, (s + d * (255 - sa) / 255).rounded())) << UInt32(shift)
        }
        return out
    }

    private func check(scale: Int, times: [Double], reducedMotion: Bool = false) throws {
        let host = PresentationHost(style: RecordingStyle(duration: 1).style, presenting: Fill(Color(rgb: 0x2040A0)))
        host.reducesMotion = reducedMotion
        host.layout(containerSize: Size(width: 400, height: 600), scale: Double(scale))
        let (w, h) = host.pixelSize
        let full = try Image(width: w, height: h), base = try Image(width: w, height: h)
        XCTAssertTrue(host.present(Fill(Color(rgb: 0xE0A020)), now: 0))
        var sawCrop = false
        for t in times {
            let f = host.layerFrame(at: t)
            host.renderPresentingLayer(into: base.pixelBuffer, bufferAge: 0)
            let placement = PresentedLayerPlacement(frame: f, bufferScale: scale, containerWidth: 400, containerHeight: 600)
            XCTAssertNotNil(placement, "a presented view at \(t)")
            guard let p = placement else { continue }
            XCTAssertEqual(f.presentedRect.x, p.x * scale, "whole points")
            XCTAssertEqual(f.presentedRect.y, p.y * scale, "whole points")
            XCTAssertEqual(p.isCacheAsIs, !reducedMotion || t >= 0.2)
            if p.visible.height < Double(p.bufferHeight / scale) { sawCrop = true }
            let layer = try Image(width: p.bufferWidth, height: p.bufferHeight)
            host.drawPresentedLayer(f, into: layer.pixelBuffer)
            host.render(into: full.pixelBuffer, now: t, bufferAge: 0)
            var bad: [String] = []
            for y in 0..<h {
                for x in 0..<w {
                    var c = over(f.dim, base.pixel(x: x, y: y))
                    let lx = x - p.x * scale, ly = y - p.y * scale
                    let v = p.visible
                    let vx0: Int = Int(v.minX) * scale, vy0: Int = Int(v.minY) * scale
                    let vx1: Int = Int(v.maxX) * scale, vy1: Int = Int(v.maxY) * scale
                    if lx >= vx0, ly >= vy0, lx < vx1, ly < vy1 {
                        c = over(layer.pixel(x: lx, y: ly), c)
                    }
                    let e = full.pixel(x: x, y: y)
                    var d = 0
                    for shift in [UInt32(0), 8, 16, 24] {
                        let a = Int((c >> shift) & 0xff), b = Int((e >> shift) & 0xff)
                        d = max(d, abs(a - b))
                    }
                    if d > 2, bad.count < 5 { bad.append("(\(x), \(y)): layers \(String(c, radix: 16)), pixman \(String(e, radix: 16))") }
                }
            }
            XCTAssertEqual(bad, [], "scale \(scale), t \(t)\(reducedMotion ? ", reduced motion" : "")")
        }
        if !reducedMotion { XCTAssertTrue(sawCrop, "a frame with the presented view partly below the container") }
    }

    func testLayersEqualThePixmanFrameAtScaleOne() throws {
        try check(scale: 1, times: [0.1, 0.37, 0.5, 2])
    }

    func testLayersEqualThePixmanFrameAtScaleTwo() throws {
        try check(scale: 2, times: [0.1, 0.37, 0.5, 2])
    }

    func testReducedMotionAlphaIsDrawnIntoTheLayer() throws {
        try check(scale: 2, times: [0.05, 0.1, 0.5], reducedMotion: true)
    }

    func testPresentingLayerIsRedrawnOnlyWhenItChanged() throws {
        let root = Fill(Color(rgb: 0x2040A0))
        let host = PresentationHost(style: RecordingStyle(duration: 1).style, presenting: root)
        host.layout(containerSize: Size(width: 40, height: 60), scale: 1)
        let base = try Image(width: 40, height: 60)
        _ = host.layerFrame(at: 0)
        XCTAssertTrue(host.presentingLayerNeedsRender, "never drawn")
        XCTAssertFalse(host.renderPresentingLayer(into: base.pixelBuffer, bufferAge: 0).isEmpty)
        XCTAssertTrue(host.present(Fill(.white), now: 0))
        _ = host.layerFrame(at: 0.5)
        XCTAssertFalse(host.presentingLayerNeedsRender, "a transition frame leaves the presenting view alone")
        root.invalidation = .all
        _ = host.layerFrame(at: 0.6)
        XCTAssertTrue(host.presentingLayerNeedsRender, "its content changed")
        let full = try Image(width: 40, height: 60)
        host.render(into: full.pixelBuffer, now: 0.7, bufferAge: 1)
        _ = host.layerFrame(at: 0.8)
        XCTAssertTrue(host.presentingLayerNeedsRender, "the window's buffer was last drawn whole by pixman")
    }

    // MARK: Gradient dim as a strip

    /// A vertical gradient dim shown as ``DimStrip``'s column of row colours stretched over the
    /// container (what the sub-surface backend hands the compositor), under the presented layer,
    /// equals the pixman frame within 2 per channel, mid-transition (the gradient × an alpha below
    /// 1) and presented, at scale 1 and 2.
    private func checkStrip(scale: Int, times: [Double]) throws {
        let gradient = LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 0, y: 400),
                                      from: .clear, to: Color.black.multipliedAlpha(by: 0.4))
        let style = ChromeStyle(frame: Rect(x: 0, y: 400, width: 400, height: 200), gradient: gradient)
        let host = PresentationHost(style: style.style, presenting: Fill(Color(rgb: 0x2040A0)))
        host.layout(containerSize: Size(width: 400, height: 600), scale: Double(scale))
        let (w, h) = host.pixelSize
        let full = try Image(width: w, height: h), base = try Image(width: w, height: h)
        let strip = try Image(width: 4, height: h)
        XCTAssertTrue(host.present(Painted(.white), now: 0))
        var previous: UInt32?
        for t in times {
            let f = host.layerFrame(at: t)
            guard let g = f.dimGradient else { return XCTFail("a gradient dim at \(t)") }
            XCTAssertTrue(DimStrip.canShow(g))
            XCTAssertEqual(f.dim, 0)
            host.renderPresentingLayer(into: base.pixelBuffer, bufferAge: 0)
            DimStrip.draw(g, into: strip.pixelBuffer)
            let p = try XCTUnwrap(PresentedLayerPlacement(frame: f, bufferScale: scale, containerWidth: 400,
                                                          containerHeight: 600))
            let layer = try Image(width: p.bufferWidth, height: p.bufferHeight)
            host.drawPresentedLayer(f, into: layer.pixelBuffer)
            host.render(into: full.pixelBuffer, now: t, bufferAge: 0)
            // The strip's columns agree (any two of them may be shown), and its alpha follows the transition.
            for y in stride(from: 0, to: h, by: 7) {
                XCTAssertEqual(Set((0..<4).map { strip.pixel(x: $0, y: y) }).count, 1, "row \(y)")
            }
            let bottom = strip.pixel(x: 1, y: h - 1) >> 24
            XCTAssertEqual(Double(bottom), 0.4 * 255 * min(t, 1), accuracy: 1.5, "the dim's alpha at \(t)")
            if let prev = previous { XCTAssertNotEqual(prev, bottom, "the strip changes with the dim's alpha") }
            previous = bottom
            XCTAssertEqual(strip.pixel(x: 1, y: 0) >> 24, 0, "clear at the top")
            var bad: [String] = []
            for y in 0..<h {
                let row = strip.pixel(x: 2, y: y)
                for x in 0..<w {
                    var c = over(row, base.pixel(x: x, y: y))
                    let lx = x - p.x * scale, ly = y - p.y * scale
                    let v = p.visible
                    if lx >= Int(v.minX) * scale, ly >= Int(v.minY) * scale, lx < Int(v.maxX) * scale,
                       ly < Int(v.maxY) * scale {
                        c = over(layer.pixel(x: lx, y: ly), c)
                    }
                    let e = full.pixel(x: x, y: y)
                    var d = 0
                    for shift in [UInt32(0), 8, 16, 24] {
                        d = max(d, abs(Int((c >> shift) & 0xff) - Int((e >> shift) & 0xff)))
                    }
                    if d > 2, bad.count < 5 { bad.append("(\(x), \(y)): layers \(String(c, radix: 16)), pixman \(String(e, radix: 16))") }
                }
            }
            XCTAssertEqual(bad, [], "gradient strip, scale \(scale), t \(t)")
        }
    }

    func testGradientStripEqualsThePixmanFrameAtScaleOne() throws {
        try checkStrip(scale: 1, times: [0.3, 0.65, 2])
    }

    func testGradientStripEqualsThePixmanFrameAtScaleTwo() throws {
        try checkStrip(scale: 2, times: [0.3, 0.65, 2])
    }

    /// Only a gradient along y is a strip; a horizontal or diagonal one is left to pixman; end
    /// points that coincide give the last stop's colour everywhere.
    func testOnlyVerticalGradientsAreStrips() throws {
        let v = LinearGradient(start: Point(x: 5, y: 0), end: Point(x: 5, y: 10), from: .clear, to: .black)
        XCTAssertTrue(DimStrip.canShow(v))
        XCTAssertFalse(DimStrip.canShow(LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 10, y: 0),
                                                       from: .clear, to: .black)))
        XCTAssertFalse(DimStrip.canShow(LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 1, y: 10),
                                                       from: .clear, to: .black)))
        let strip = try Image(width: 1, height: 12)
        DimStrip.draw(v, into: strip.pixelBuffer)
        XCTAssertEqual(strip.pixel(x: 0, y: 0) >> 24, 13, "row 0: t = 0.05 of black (12.75 rounded)")
        XCTAssertEqual(strip.pixel(x: 0, y: 11), 0xFF00_0000, "padded past the end")
        let point = LinearGradient(start: Point(x: 0, y: 3), end: Point(x: 0, y: 3), from: .clear, to: .black)
        DimStrip.draw(point, into: strip.pixelBuffer)
        XCTAssertEqual(strip.pixel(x: 0, y: 0), 0xFF00_0000, "coinciding end points: the last stop")
    }

    // MARK: Shadow in the presented layer

    /// The presented view's drop shadow drawn into its layer (the buffer grown by the shadow's
    /// extent, the view at the placement's card offset) over the solid dim equals the pixman frame
    /// within 2 per channel: rounded top corners over the shadow, the layer cropped where the view
    /// and shadow pass the container's bottom edge, at scale 1 and 2.
    private func checkShadow(scale: Int, frame: Rect, slides: Bool) throws {
        let style = ChromeStyle(frame: frame, corners: CornerStyle(radius: 12, corners: .top))
        style.chromeValue = PresentedViewChrome(shadow: Shadow(color: Color.black.multipliedAlpha(by: 0.25),
                                                               offset: Point(x: 0, y: 4), blurRadius: 16))
        if slides { style.transform = { ViewTransform(translation: Point(x: 0, y: 300 * (1 - $0))) } }
        let host = PresentationHost(style: style.style, presenting: Fill(Color(rgb: 0x2040A0)))
        host.layout(containerSize: Size(width: 400, height: 600), scale: Double(scale))
        let (w, h) = host.pixelSize
        let full = try Image(width: w, height: h), base = try Image(width: w, height: h)
        XCTAssertTrue(host.present(Painted(Color(rgb: 0xE0E4EC)), now: 0))
        for t in [0.3, 0.6, 2] {
            let f = host.layerFrame(at: t)
            XCTAssertTrue(f.hasShadow)
            host.renderPresentingLayer(into: base.pixelBuffer, bufferAge: 0)
            let p = try XCTUnwrap(PresentedLayerPlacement(frame: f, bufferScale: scale, containerWidth: 400,
                                                          containerHeight: 600))
            // Room for the shadow: 16 pt blur − 4 pt offset above, 16 pt each side, 20 pt below,
            // whole points, none beyond the container's left and top edges.
            let left = min(16 * scale, f.presentedRect.x), right = 16 * scale, below = 20 * scale
            XCTAssertEqual(p.presentedOffsetX, left)
            XCTAssertEqual(p.presentedOffsetY, 12 * scale)
            XCTAssertEqual(p.x * scale + p.presentedOffsetX, f.presentedRect.x)
            XCTAssertEqual(p.y * scale + p.presentedOffsetY, f.presentedRect.y)
            XCTAssertEqual(p.bufferWidth, f.presentedRect.width + left + right)
            XCTAssertEqual(p.bufferHeight, f.presentedRect.height + 12 * scale + below)
            XCTAssertEqual(p.visible.minX, 0, "never cropped at the left")
            let layer = try Image(width: p.bufferWidth, height: p.bufferHeight)
            host.drawPresentedLayer(f, into: layer.pixelBuffer, presentedOffset: (p.presentedOffsetX, p.presentedOffsetY))
            host.render(into: full.pixelBuffer, now: t, bufferAge: 0)
            var bad: [String] = []
            let v = p.visible
            for y in 0..<h {
                for x in 0..<w {
                    var c = over(f.dim, base.pixel(x: x, y: y))
                    let lx = x - p.x * scale, ly = y - p.y * scale
                    if lx >= Int(v.minX) * scale, ly >= Int(v.minY) * scale, lx < Int(v.maxX) * scale,
                       ly < Int(v.maxY) * scale {
                        c = over(layer.pixel(x: lx, y: ly), c)
                    }
                    let e = full.pixel(x: x, y: y)
                    var d = 0
                    for shift in [UInt32(0), 8, 16, 24] {
                        d = max(d, abs(Int((c >> shift) & 0xff) - Int((e >> shift) & 0xff)))
                    }
                    if d > 2, bad.count < 5 { bad.append("(\(x), \(y)): layers \(String(c, radix: 16)), pixman \(String(e, radix: 16))") }
                }
            }
            XCTAssertEqual(bad, [], "shadow layer, scale \(scale), t \(t)")
            // The shadow shows above the view: darker than the dim alone 4 pt above its top edge.
            let above = (f.presentedRect.y - 4 * scale) - p.y * scale
            XCTAssertGreaterThan(layer.pixel(x: p.presentedOffsetX + f.presentedRect.width / 2, y: above) >> 24, 0, "shadow above, t \(t)")
        }
    }

    func testShadowIsDrawnIntoThePresentedLayerAtScaleOne() throws {
        try checkShadow(scale: 1, frame: Rect(x: 0, y: 450, width: 400, height: 200), slides: false)
        try checkShadow(scale: 1, frame: Rect(x: 50, y: 150, width: 300, height: 300), slides: true)
    }

    func testShadowIsDrawnIntoThePresentedLayerAtScaleTwo() throws {
        try checkShadow(scale: 2, frame: Rect(x: 0, y: 450, width: 400, height: 200), slides: false)
        try checkShadow(scale: 2, frame: Rect(x: 50, y: 150, width: 300, height: 300), slides: true)
    }

    func testPlacementIsNilWithoutAPresentedView() {
        XCTAssertNil(PresentedLayerPlacement(frame: LayerFrame(), bufferScale: 1, containerWidth: 10, containerHeight: 10))
    }
}
