import CModalKitPixman
import ModalKit
import XCTest

/// A style whose style-ABI-1.1 appearance the tests set directly, also while presented: 1 s
/// linear; the presented view at `frame` with `corners`; a dim that is `gradient` (or `dimColor`) ×
/// progress; `chromeValue`; the presented view's transform `transform(progress)`; the presenting
/// view's `presenting(progress)`. `style` reads them at every call.
final class ChromeStyle {
    private final class Settings {
        var frame: Rect, corners: CornerStyle, gradient: LinearGradient?
        var dimColor = Color.black.multipliedAlpha(by: 0.4)
        var chromeValue = PresentedViewChrome.none
        var transform: (Double) -> ViewTransform = { _ in .identity }
        var presenting: (Double) -> PresentingViewAppearance = { _ in .identity }
        init(frame: Rect, corners: CornerStyle, gradient: LinearGradient?) {
            self.frame = frame; self.corners = corners; self.gradient = gradient
        }
    }
    private let settings: Settings
    let style = PresentationStyle(transitionDuration: 1, timingCurve: .linear)

    var frame: Rect { get { settings.frame } set { settings.frame = newValue } }
    var corners: CornerStyle { get { settings.corners } set { settings.corners = newValue } }
    var gradient: LinearGradient? { get { settings.gradient } set { settings.gradient = newValue } }
    var dimColor: Color { get { settings.dimColor } set { settings.dimColor = newValue } }
    var chromeValue: PresentedViewChrome { get { settings.chromeValue } set { settings.chromeValue = newValue } }
    var transform: (Double) -> ViewTransform { get { settings.transform } set { settings.transform = newValue } }
    var presenting: (Double) -> PresentingViewAppearance { get { settings.presenting } set { settings.presenting = newValue } }

    init(frame: Rect, corners: CornerStyle = .square, gradient: LinearGradient? = nil) {
        let settings = Settings(frame: frame, corners: corners, gradient: gradient)
        self.settings = settings
        style.frameOfPresentedView = { _ in settings.frame }
        style.cornerStyle = { _ in settings.corners }
        style.dimmingAppearance = { progress, _ in
            if let g = settings.gradient { return DimmingAppearance(gradient: g, alpha: progress) }
            return DimmingAppearance(color: settings.dimColor, alpha: progress)
        }
        style.presentedViewTransform = { progress, _, _ in settings.transform(progress) }
        style.chrome = { _ in settings.chromeValue }
        style.presentingViewAppearance = { progress, _ in settings.presenting(progress) }
    }
}

/// A content drawn by a function of (image, pixel width, pixel height).
final class Painted: PresentationContent {
    var invalidation: ContentInvalidation = .all
    let paint: (OpaquePointer, Int, Int) -> Void
    init(_ paint: @escaping (OpaquePointer, Int, Int) -> Void) { self.paint = paint }
    convenience init(_ color: Color) {
        self.init { Draw.fill($0, width: $1, height: $2, color: color) }
    }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        paint(image, px.width, px.height)
        invalidation = .none
    }
    func handle(_ input: ContentInput, now: Double) -> Bool { false }
}

/// The renderer draws everything a 1.1 style can express — gradient dim, shadow, border, grabber,
/// per-axis scale about an anchor, the covered presenting view — at scale 1 and 2, with damage and
/// buffer age as for the 1.0 layers. Container 400 × 800 points throughout.
final class ChromeRenderingTests: XCTestCase {
    static let background = Color(rgb: 0xF0C080)
    static let backgroundPixel: UInt32 = 0xFFF0_C080
    static let sheet = Rect(x: 0, y: 400, width: 400, height: 400)
    static let card = Rect(x: 50, y: 300, width: 300, height: 200)
    /// (0,0) transparent → (0,400) black 0.4, then constant.
    static let sheetGradient = LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 0, y: 400),
                                              from: .clear, to: Color.black.multipliedAlpha(by: 0.4))

    /// A host over `presenting`, laid out at `scale`, with `presented` fully presented (t = 2 s).
    func presentedHost(_ style: ChromeStyle, scale: Double, presenting: PresentationContent = Painted(background),
                       presented: PresentationContent = Painted(.white)) -> PresentationHost {
        let host = PresentationHost(style: style.style, presenting: presenting)
        host.layout(containerSize: Size(width: 400, height: 800), scale: scale)
        host.present(presented, now: 0)
        host.update(now: 2)
        XCTAssertEqual(host.state, .presented)
        return host
    }

    func render(_ host: PresentationHost, now: Double = 3) throws -> Image {
        let px = host.pixelSize
        let image = try Image(width: px.width, height: px.height)
        host.render(into: image.pixelBuffer, now: now, bufferAge: 0)
        return image
    }

    // MARK: Gradient dim

    func testGradientDimDarkensFromNothingAtTheTopToPointFourAtItsEnd() throws {
        for s in [1, 2] {
            let host = presentedHost(ChromeStyle(frame: Self.sheet, gradient: Self.sheetGradient), scale: Double(s))
            let img = try render(host)
            let x = 100 * s
            XCTAssertPixel(img.pixel(x: x, y: 0), Self.backgroundPixel, "y = 0, scale \(s)")
            XCTAssertPixel(img.pixel(x: x, y: 200 * s), scaledPixel(Self.backgroundPixel, by: 0.8), "y = 200, scale \(s)")
            XCTAssertPixel(img.pixel(x: x, y: 400 * s - 1), scaledPixel(Self.backgroundPixel, by: 0.6), "y = 400, scale \(s)")
            // Monotonic: each row at most as bright as the one above it, and the top row brighter
            // than the last dimmed one.
            var previous = Int.max
            for y in 0..<(400 * s) {
                let r = img.pixel(x: x, y: y).argbComponents.r
                XCTAssertLessThanOrEqual(r, previous, "row \(y), scale \(s)")
                previous = r
            }
            XCTAssertEqual(img.pixel(x: 0, y: 123 * s), img.pixel(x: 399 * s, y: 123 * s), "a row is one colour")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 600 * s), 0xFFFF_FFFF, "the sheet's own pixels")
        }
    }

    func testGradientDimIsConstantPastItsEndAndFollowsTheDimAlpha() throws {
        for s in [1, 2] {
            let style = ChromeStyle(frame: Rect(x: 0, y: 700, width: 400, height: 100), gradient: Self.sheetGradient)
            let host = presentedHost(style, scale: Double(s))
            let img = try render(host)
            for y in [400, 450, 550, 699] {
                XCTAssertPixel(img.pixel(x: 10 * s, y: y * s), scaledPixel(Self.backgroundPixel, by: 0.6), "y = \(y)")
            }
            // Half way through a presentation the dim alpha is 0.5: every stop × 0.5.
            let half = try Image(width: 400 * s, height: 800 * s)
            host.renderOffline(host.snapshot(phase: .present, fraction: 0.5), presented: nil,
                               into: half.pixelBuffer)
            XCTAssertPixel(half.pixel(x: 10 * s, y: 200 * s), scaledPixel(Self.backgroundPixel, by: 0.9))
            XCTAssertPixel(half.pixel(x: 10 * s, y: 500 * s), scaledPixel(Self.backgroundPixel, by: 0.8))
        }
    }

    func testHorizontalAndDiagonalGradients() throws {
        let clear = Color.clear, dark = Color.black.multipliedAlpha(by: 0.4)
        let horizontal = LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 400, y: 0), from: clear, to: dark)
        let diagonal = LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 400, y: 800), from: clear, to: dark)
        let small = Rect(x: 380, y: 700, width: 10, height: 10)
        for s in [1, 2] {
            let h = try render(presentedHost(ChromeStyle(frame: small, gradient: horizontal), scale: Double(s)))
            XCTAssertPixel(h.pixel(x: 0, y: 100 * s), Self.backgroundPixel)
            XCTAssertPixel(h.pixel(x: 200 * s, y: 100 * s), scaledPixel(Self.backgroundPixel, by: 0.8))
            XCTAssertPixel(h.pixel(x: 200 * s, y: 700 * s), scaledPixel(Self.backgroundPixel, by: 0.8), "a column is one colour")
            XCTAssertPixel(h.pixel(x: 399 * s, y: 100 * s), scaledPixel(Self.backgroundPixel, by: 0.6))
            let d = try render(presentedHost(ChromeStyle(frame: small, gradient: diagonal), scale: Double(s)))
            XCTAssertPixel(d.pixel(x: 0, y: 0), Self.backgroundPixel)
            // t = ((x, y) · (400, 800)) / |(400, 800)|²: (200, 400) → 0.5; (400, 0) → 0.2; (0, 800) → 0.8.
            XCTAssertPixel(d.pixel(x: 200 * s, y: 400 * s), scaledPixel(Self.backgroundPixel, by: 0.8))
            XCTAssertPixel(d.pixel(x: 399 * s, y: 0), scaledPixel(Self.backgroundPixel, by: 0.92))
            XCTAssertPixel(d.pixel(x: 0, y: 799 * s), scaledPixel(Self.backgroundPixel, by: 0.68))
            XCTAssertPixel(d.pixel(x: 100 * s, y: 700 * s), scaledPixel(Self.backgroundPixel, by: 0.7),
                           "t = (100·400 + 700·800)/800000 = 0.75")
            // Within a degree of vertical (each row shifted 200 pixels: the sampled-strip path).
            let steep = LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 4, y: 800), from: clear, to: dark)
            let v = try render(presentedHost(ChromeStyle(frame: small, gradient: steep), scale: Double(s)))
            XCTAssertPixel(v.pixel(x: 0, y: 0), Self.backgroundPixel)
            XCTAssertPixel(v.pixel(x: 200 * s, y: 400 * s), scaledPixel(Self.backgroundPixel, by: 0.8))
            XCTAssertPixel(v.pixel(x: 10 * s, y: 600 * s), scaledPixel(Self.backgroundPixel, by: 0.7))
            XCTAssertPixel(v.pixel(x: 10 * s, y: 799 * s), scaledPixel(Self.backgroundPixel, by: 0.6))
        }
    }

    func testAGradientChangeDamagesTheWholeContainer() throws {
        let style = ChromeStyle(frame: Self.card, gradient: Self.sheetGradient)
        let host = presentedHost(style, scale: 1)
        let img = try render(host)
        XCTAssertEqual(host.render(into: img.pixelBuffer, now: 3.1, bufferAge: 1), [], "idle")
        style.gradient = LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 0, y: 300),
                                        from: .clear, to: Color.black.multipliedAlpha(by: 0.4))
        XCTAssertEqual(host.render(into: img.pixelBuffer, now: 3.2, bufferAge: 1),
                       [PixelRect(x: 0, y: 0, width: 400, height: 800)])
    }

    // MARK: Shadow

    func shadowStyle() -> ChromeStyle {
        let style = ChromeStyle(frame: Self.card, corners: CornerStyle(radius: 10, corners: .all))
        style.chromeValue = PresentedViewChrome(shadow: Shadow(color: Color.black.multipliedAlpha(by: 0.5),
                                                               offset: Point(x: 0, y: 4), blurRadius: 10))
        return style
    }

    func testShadowDarkensJustOutsideTheCardAndFadesToTheDimWithinBlurPlusOffset() throws {
        let dimOnly = scaledPixel(Self.backgroundPixel, by: 0.6)
        for s in [1, 2] {
            let img = try render(presentedHost(shadowStyle(), scale: Double(s)))
            // The card's own pixels.
            XCTAssertEqual(img.pixel(x: 200 * s, y: 400 * s), 0xFFFF_FFFF)
            XCTAssertEqual(img.pixel(x: 50 * s, y: 400 * s), 0xFFFF_FFFF, "left edge column")
            XCTAssertEqual(img.pixel(x: 350 * s - 1, y: 400 * s), 0xFFFF_FFFF, "right edge column")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 500 * s - 1), 0xFFFF_FFFF, "bottom edge row")
            // Just outside each edge: darker than the dim alone (about half the shadow's alpha
            // there; above, where the offset moved the shadow 4 points away, less).
            XCTAssertLessThan(img.pixel(x: 200 * s, y: 300 * s - 1).argbComponents.r, dimOnly.argbComponents.r, "top")
            for (x, y, edge) in [(50 * s - 1, 400 * s, "left"), (350 * s, 400 * s, "right"),
                                 (200 * s, 500 * s, "bottom")] {
                let p = img.pixel(x: x, y: y).argbComponents, d = dimOnly.argbComponents
                XCTAssertLessThan(p.r, d.r - 20, "\(edge), scale \(s)")
                XCTAssertLessThan(p.b, d.b - 10, "\(edge), scale \(s)")
                XCTAssertEqual(p.a, 255)
            }
            // Fading out: brighter with each pixel away from the left edge, the dim alone from
            // blur beyond it; below, from offset + blur (4 + 10 points); above, from blur − offset.
            var last = -1
            for x in stride(from: 50 * s - 1, through: 40 * s, by: -1) {
                let r = img.pixel(x: x, y: 400 * s).argbComponents.r
                XCTAssertGreaterThanOrEqual(r, last, "column \(x), scale \(s)")
                last = r
            }
            XCTAssertEqual(img.pixel(x: 40 * s - 1, y: 400 * s), dimOnly, "left, blur away, scale \(s)")
            last = -1
            for y in (500 * s)..<(514 * s) {
                let r = img.pixel(x: 200 * s, y: y).argbComponents.r
                XCTAssertGreaterThanOrEqual(r, last, "row \(y), scale \(s)")
                last = r
            }
            XCTAssertLessThan(img.pixel(x: 200 * s, y: 507 * s).argbComponents.r, dimOnly.argbComponents.r,
                              "below, within offset + blur")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 514 * s), dimOnly, "below, offset + blur away, scale \(s)")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 294 * s - 1), dimOnly, "above, blur − offset away, scale \(s)")
            XCTAssertEqual(img.pixel(x: 10 * s, y: 100 * s), dimOnly)
        }
    }

    func testAHugeBlurIsDrawnAtTheLargestBlur() throws {
        let style = ChromeStyle(frame: Rect(x: 300, y: 300, width: 200, height: 200))
        style.chromeValue = PresentedViewChrome(shadow: Shadow(color: Color.black.multipliedAlpha(by: 0.8),
                                                               offset: .zero, blurRadius: 1e6))
        let host = PresentationHost(style: style.style, presenting: Painted(Self.background))
        host.layout(containerSize: Size(width: 800, height: 800), scale: 1)
        host.present(Painted(.white), now: 0)
        host.update(now: 2)
        XCTAssertEqual(host.snapshot(at: 2).layerFrame(scale: 1).shadowBlur, LayerFrame.maxShadowBlur)
        let img = try render(host)
        let dimOnly = scaledPixel(Self.backgroundPixel, by: 0.6)
        XCTAssertEqual(img.pixel(x: 300 - 257, y: 400), dimOnly, "beyond 256 pixels: the dim alone")
        XCTAssertLessThan(img.pixel(x: 300 - 60, y: 400).argbComponents.r, dimOnly.argbComponents.r)
        XCTAssertEqual(img.pixel(x: 400, y: 400), 0xFFFF_FFFF)
    }

    func testAMovingCardWithAShadowDamagesItsOldAndNewShadowExtents() throws {
        let style = shadowStyle()
        let host = presentedHost(style, scale: 1)
        let img = try render(host)
        style.transform = { _ in ViewTransform(translation: Point(x: 20, y: 0)) }
        // Old: card (50, 300, 300, 200) ∪ shadow (40, 294, 320, 220); new: the same 20 to the right.
        XCTAssertEqual(host.render(into: img.pixelBuffer, now: 3.1, bufferAge: 1),
                       [PixelRect(x: 40, y: 294, width: 340, height: 220)])
        style.transform = { _ in ViewTransform(translation: Point(x: 20, y: 300)) }
        // Apart: (60, 294, 320, 220) and (60, 594, 320, 220), clipped to the container.
        XCTAssertEqual(host.render(into: img.pixelBuffer, now: 3.2, bufferAge: 1),
                       [PixelRect(x: 60, y: 294, width: 320, height: 220), PixelRect(x: 60, y: 594, width: 320, height: 206)])
        // Incremental = full repaint.
        let full = try render(host, now: 3.3)
        XCTAssertTrue(samePixels(img, full))
    }

    // MARK: Grabber, border, background

    func testGrabberIsA36By5PointRoundedBarCentredFivePointsBelowTheTopEdge() throws {
        let red: UInt32 = 0xFFFF_0000
        for s in [1, 2] {
            let style = ChromeStyle(frame: Self.sheet, corners: CornerStyle(radius: 10, corners: .top))
            style.chromeValue = PresentedViewChrome(grabber: Color(rgb: 0xFF0000))
            let img = try render(presentedHost(style, scale: Double(s)))
            // Bar: x 182...218, y 405...410 points.
            XCTAssertEqual(img.pixel(x: 200 * s, y: 407 * s), red, "centre, scale \(s)")
            XCTAssertEqual(img.pixel(x: 185 * s, y: 407 * s), red, "near the left end")
            XCTAssertEqual(img.pixel(x: 215 * s, y: 407 * s), red, "near the right end")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 405 * s), red, "top row")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 410 * s - 1), red, "bottom row")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 405 * s - 1), 0xFFFF_FFFF, "just above")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 410 * s), 0xFFFF_FFFF, "just below")
            XCTAssertEqual(img.pixel(x: 182 * s - 1, y: 407 * s), 0xFFFF_FFFF, "just left")
            XCTAssertEqual(img.pixel(x: 218 * s, y: 407 * s), 0xFFFF_FFFF, "just right")
            // Rounded ends: the bar's corner pixel is mostly white (a square end would make it red).
            XCTAssertGreaterThan(img.pixel(x: 182 * s, y: 405 * s).argbComponents.g, 200, "rounded end, scale \(s)")
        }
    }

    func testBorderLiesInsideTheEdgeAndTheBackgroundShowsUnderAContentThatDrawsOnlyItsForeground() throws {
        let blue: UInt32 = 0xFF00_00FF, green: UInt32 = 0xFF00_FF00
        for s in [1, 2] {
            let style = ChromeStyle(frame: Self.card, corners: CornerStyle(radius: 10, corners: .all))
            style.chromeValue = PresentedViewChrome(backgroundColor: Color(rgb: 0x00FF00),
                                                    border: Border(width: 2, color: Color(rgb: 0x0000FF)))
            // Draws only a white square at its centre (OVER), leaving the rest to the background.
            let content = Painted { img, w, h in
                Draw.fillRoundedRect(img, x: Double(w) / 2 - 10, y: Double(h) / 2 - 10, width: 20, height: 20,
                                     radius: 0, color: .white)
            }
            let img = try render(presentedHost(style, scale: Double(s), presented: content))
            XCTAssertEqual(img.pixel(x: 50 * s, y: 400 * s), blue, "outer column, scale \(s)")
            XCTAssertEqual(img.pixel(x: 52 * s - 1, y: 400 * s), blue, "last border column")
            XCTAssertEqual(img.pixel(x: 52 * s, y: 400 * s), green, "first background column")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 300 * s), blue, "top edge")
            XCTAssertEqual(img.pixel(x: 350 * s - 1, y: 400 * s), blue, "right edge")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 500 * s - 1), blue, "bottom edge")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 400 * s), 0xFFFF_FFFF, "the content's own pixels")
            XCTAssertEqual(img.pixel(x: 100 * s, y: 400 * s), green, "background where the content drew nothing")
            XCTAssertEqual(img.pixel(x: 51 * s, y: 301 * s), scaledPixel(Self.backgroundPixel, by: 0.6),
                           "the rounded corner is clipped, border included")
        }
    }

    func testATranslucentBackgroundShowsTheDimmedPresentingViewThrough() throws {
        for s in [1, 2] {
            let style = ChromeStyle(frame: Self.card, corners: CornerStyle(radius: 10, corners: .all))
            style.chromeValue = PresentedViewChrome(backgroundColor: Color(red: 1, green: 1, blue: 1, alpha: 0.5))
            let nothing = Painted { _, _, _ in }
            let img = try render(presentedHost(style, scale: Double(s), presented: nothing))
            // White at 0.5 OVER the background under the 0.4 dim: 0.5 + 0.5 × (background × 0.6).
            let under = scaledPixel(Self.backgroundPixel, by: 0.6).argbComponents
            func over(_ v: Int) -> UInt32 { UInt32((127.5 + 0.5 * Double(v)).rounded()) }
            let expected = 0xFF00_0000 | over(under.r) << 16 | over(under.g) << 8 | over(under.b)
            XCTAssertPixel(img.pixel(x: 200 * s, y: 400 * s), expected, "interior, scale \(s)")
            XCTAssertPixel(img.pixel(x: 60 * s, y: 305 * s), expected, "corner band, scale \(s)")
        }
    }

    // MARK: Scale about an anchor

    func testScalingXOnlyAboutTheLeftEdgeKeepsTheLeftEdgeFixed() throws {
        let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF
        for s in [1, 2] {
            let style = ChromeStyle(frame: Self.card)
            style.transform = { _ in ViewTransform(scaleX: 0.5, scaleY: 1, anchor: Point(x: 0, y: 0.5)) }
            let halves = Painted { img, w, h in
                Draw.fill(img, width: w, height: h, color: Color(rgb: 0x0000FF))
                Draw.fillRoundedRect(img, x: 0, y: 0, width: Double(w / 2), height: Double(h), radius: 0,
                                     color: Color(rgb: 0xFF0000))
            }
            let img = try render(presentedHost(style, scale: Double(s), presented: halves))
            let dimOnly = scaledPixel(Self.backgroundPixel, by: 0.6)
            // Shown: x 50...200 points, y 300...500 (the left edge stays at 50).
            XCTAssertPixel(img.pixel(x: 50 * s - 1, y: 400 * s), dimOnly, "left of the left edge, scale \(s)")
            XCTAssertEqual(img.pixel(x: 50 * s, y: 400 * s), red, "left edge column, scale \(s)")
            XCTAssertEqual(img.pixel(x: 120 * s, y: 400 * s), red, "left half, squeezed")
            XCTAssertEqual(img.pixel(x: 130 * s, y: 400 * s), blue, "right half, squeezed")
            XCTAssertEqual(img.pixel(x: 200 * s - 1, y: 400 * s), blue, "right edge column")
            XCTAssertPixel(img.pixel(x: 200 * s, y: 400 * s), dimOnly, "right of the scaled right edge")
            XCTAssertEqual(img.pixel(x: 60 * s, y: 300 * s), red, "top row unchanged (scaleY 1)")
            XCTAssertPixel(img.pixel(x: 60 * s, y: 300 * s - 1), dimOnly)
        }
    }

    // MARK: Presenting view while covered

    func testTheCoveredPresentingViewRecedesWithRoundedCornersOverBlack() throws {
        let top = Color(rgb: 0x000000), bottom = Color(rgb: 0xFFFFFF)
        for s in [1, 2] {
            let style = ChromeStyle(frame: Rect(x: 150, y: 700, width: 100, height: 50))
            style.dimColor = .clear
            style.presenting = { p in
                PresentingViewAppearance(transform: ViewTransform(scale: 1 - 0.1 * p), cornerRadius: 10 * p)
            }
            let ramp = Painted { img, w, h in Draw.verticalGradient(img, width: w, height: h, top: top, bottom: bottom) }
            let img = try render(presentedHost(style, scale: Double(s), presenting: ramp))
            let black: UInt32 = 0xFF00_0000
            // Scaled 0.9 about the centre: (20, 40, 360, 720) points; black around it.
            XCTAssertEqual(img.pixel(x: 0, y: 0), black, "corner of the container, scale \(s)")
            XCTAssertEqual(img.pixel(x: 20 * s - 1, y: 400 * s), black, "left of the receded view")
            XCTAssertEqual(img.pixel(x: 200 * s, y: 40 * s - 1), black, "above it")
            XCTAssertEqual(img.pixel(x: 399 * s, y: 799 * s), black, "bottom-right corner of the container")
            XCTAssertEqual(img.pixel(x: 21 * s, y: 41 * s), black, "outside the rounded corner's arc")
            XCTAssertEqual(img.pixel(x: 378 * s, y: 758 * s), black, "outside the bottom-right arc")
            // Inside: the content at 400 + (y − 400) / 0.9, its ramp value (y' / 800 of white).
            func expected(_ y: Double) -> UInt32 {
                let yy = 400 + (y - 400) / 0.9
                let v = UInt32((yy / 800 * 255).rounded())
                return 0xFF00_0000 | v << 16 | v << 8 | v
            }
            XCTAssertPixel(img.pixel(x: 200 * s, y: 400 * s), expected(400), "centre unchanged, scale \(s)", tolerance: 2)
            XCTAssertPixel(img.pixel(x: 200 * s, y: 100 * s), expected(100), tolerance: 2)
            XCTAssertPixel(img.pixel(x: 30 * s, y: 700 * s), expected(700), tolerance: 2)
            XCTAssertPixel(img.pixel(x: 25 * s, y: 45 * s), expected(45), "inside the arc", tolerance: 3)
        }
    }

    // MARK: Buffer age

    /// A transition with every 1.1 layer animating — gradient dim, shadow, border, grabber, a scale
    /// about an anchor, the presenting view receding — rendered into a ring of three buffers with
    /// their ages gives exactly the pixels of full repaints, frame after frame.
    func testBufferAgeRendersEqualFullRendersWithEveryChromeLayer() throws {
        let diagonal = LinearGradient(start: Point(x: 0, y: 100), end: Point(x: 300, y: 500),
                                      from: .clear, to: Color.black.multipliedAlpha(by: 0.5))
        try bufferAgeRun(Self.sheetGradient, scale: 1)
        try bufferAgeRun(diagonal, scale: 1)
        try bufferAgeRun(Self.sheetGradient, scale: 1.5)  // fractional: 600 × 1200 pixels
    }

    private func bufferAgeRun(_ gradient: LinearGradient, scale: Double) throws {
        func make() -> (PresentationHost, ChromeStyle) {
            let style = ChromeStyle(frame: Self.card, corners: CornerStyle(radius: 12, corners: .all),
                                    gradient: gradient)
            style.chromeValue = PresentedViewChrome(backgroundColor: .white,
                                                    border: Border(width: 1, color: Color(rgb: 0x808080)),
                                                    shadow: Shadow(color: Color.black.multipliedAlpha(by: 0.3),
                                                                   offset: Point(x: 3, y: 6), blurRadius: 16),
                                                    grabber: Color(rgb: 0x606060))
            style.transform = { p in
                ViewTransform(translation: Point(x: 0, y: (1 - p) * 500), scaleX: 0.6 + 0.4 * p, scaleY: 0.8 + 0.2 * p,
                              anchor: Point(x: 0.5, y: 1))
            }
            style.presenting = { p in
                PresentingViewAppearance(transform: ViewTransform(translation: Point(x: 0, y: 10 * p), scale: 1 - 0.06 * p),
                                         cornerRadius: 10 * p)
            }
            let host = PresentationHost(style: style.style, presenting: Painted { img, w, h in
                Draw.verticalGradient(img, width: w, height: h, top: Color(rgb: 0x3060C0), bottom: Color(rgb: 0xE0A040))
            })
            host.layout(containerSize: Size(width: 400, height: 800), scale: scale)
            return (host, style)
        }
        let (live, liveStyle) = make()
        let (reference, refStyle) = make()
        let (w, h) = live.pixelSize
        let buffers = try (0..<3).map { _ in try Image(width: w, height: h) }
        var lastUse = [-1, -1, -1]
        var frame = 0
        func step(_ t: Double) throws {
            let i = frame % 3
            let age = lastUse[i] < 0 ? 0 : frame - lastUse[i]
            live.render(into: buffers[i].pixelBuffer, now: t, bufferAge: age)
            lastUse[i] = frame
            frame += 1
            let full = try Image(width: w, height: h)
            reference.render(into: full.pixelBuffer, now: t, bufferAge: 0)
            XCTAssertTrue(samePixels(buffers[i], full), "frame \(frame - 1) at \(t), age \(age), scale \(scale)")
        }
        try step(0)
        let cardA = Painted(.white), cardB = Painted(.white)
        live.present(cardA, now: 0.1)
        reference.present(cardB, now: 0.1)
        for k in 1...12 { try step(0.1 + Double(k) * 0.1) }  // transition, then presented
        for style in [liveStyle, refStyle] {
            style.transform = { _ in ViewTransform(translation: Point(x: -30, y: 20)) }  // a move while presented
        }
        try step(1.5)
        try step(1.6)
        for h in [live, reference] { h.dismiss(now: 1.7) }
        for k in 1...12 { try step(1.7 + Double(k) * 0.1) }
    }
}

/// Whether two images hold the same pixels.
func samePixels(_ a: Image, _ b: Image) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height {
        for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false }
    }
    return true
}

/// Asserts every channel of `actual` is within `tolerance` of `expected` (premultiplied ARGB).
func XCTAssertPixel(_ actual: UInt32, _ expected: UInt32, _ message: @autoclosure () -> String = "",
                    tolerance: Int = 2, file: StaticString = #filePath, line: UInt = #line) {
    let x = actual.argbComponents, y = expected.argbComponents
    let close = abs(x.a - y.a) <= tolerance && abs(x.r - y.r) <= tolerance && abs(x.g - y.g) <= tolerance
        && abs(x.b - y.b) <= tolerance
    XCTAssert(close, "pixel \(String(actual, radix: 16)) != expected \(String(expected, radix: 16)) ±\(tolerance) \(message())",
              file: file, line: line)
}

/// `p` with its colour components multiplied by `f` (an OVER of black at alpha 1 − f on an opaque pixel).
func scaledPixel(_ p: UInt32, by f: Double) -> UInt32 {
    let c = p.argbComponents
    func s(_ v: Int) -> UInt32 { UInt32((Double(v) * f).rounded()) }
    return UInt32(c.a) << 24 | s(c.r) << 16 | s(c.g) << 8 | s(c.b)
}
