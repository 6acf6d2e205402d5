import ModalKitDemo
import ModalKit
import XCTest

/// Styles the built-ins do not exercise: a dim that does not animate (so a moving card damages only its
/// old and new rectangles) and a presented view that fades and scales (ViewTransform alpha and scale).
final class CustomStyleRenderingTests: XCTestCase {
    /// Inset frame (20, 110, W − 40, H − 220), square corners, black dim fixed at 0.3 while shown.
    func FixedDimStyle() -> PresentationStyle {
        let style = PresentationStyle(transitionDuration: 1, timingCurve: .linear)
        style.frameOfPresentedView = { c in
            Rect(x: 20, y: 110, width: c.containerBounds.width - 40, height: c.containerBounds.height - 220)
        }
        style.dimmingAppearance = { _, _ in DimmingAppearance(color: .black, alpha: 0.3) }
        return style
    }

    /// Same frame, no dim; the presented view at half size about its centre with opacity = progress.
    func FadeHalfStyle() -> PresentationStyle {
        let style = PresentationStyle(transitionDuration: 1, timingCurve: .linear)
        style.frameOfPresentedView = { c in
            Rect(x: 20, y: 110, width: c.containerBounds.width - 40, height: c.containerBounds.height - 220)
        }
        style.presentedViewTransform = { progress, _, _ in ViewTransform(scale: 0.5, alpha: progress) }
        return style
    }

    func testMovingCardWithSteadyDimDamagesOldAndNewRectanglesOnly() throws {
        let f = try SceneFixture(FixedDimStyle(), width: 400, height: 800)
        let a = try f.newImage(), b = try f.newImage()
        _ = f.render(now: 0, into: a)
        f.scene.present(now: 0)
        _ = f.render(now: 0.1, age: 0, into: b)   // the dim appeared: whole window
        _ = f.render(now: 0.2, age: 2, into: a)
        // Cover-vertical, linear, 1 s: card top = 110 + (1 − u) × (800 − 110). u 0.2 → 662, u 0.3 → 593.
        let damage = f.render(now: 0.3, age: 2, into: b)
        XCTAssertEqual(damage, [PixelRect(x: 20, y: 593, width: 360, height: 800 - 593)])
        let reference = try SceneFixture(FixedDimStyle(), width: 400, height: 800)
        reference.scene.present(now: 0)
        let full = try reference.newImage()
        _ = reference.render(now: 0.3, into: full)
        XCTAssertTrue(samePixels(b, full), "buffer age 2 repaint equals a full repaint")
    }

    func testFadingScaledPresentedView() throws {
        let f = try SceneFixture(FadeHalfStyle(), width: 400, height: 800)
        let base = try f.unpresented()
        let img = try f.snapshot(.present, 0.5)
        // Frame (20, 110, 360, 580) at half size about its centre: (110, 255, 180, 290); opacity 0.5.
        let inside = img.pixel(x: 130, y: 280)
        let b = base.pixel(x: 130, y: 280).argbComponents
        func mix(_ c: Int) -> UInt32 { UInt32((255.0 * 0.5 + Double(c) * 0.5).rounded()) }
        XCTAssertPixel(inside, 0xFF00_0000 | mix(b.r) << 16 | mix(b.g) << 8 | mix(b.b), tolerance: 2)
        for (x, y) in [(108, 280), (130, 253), (292, 280), (130, 547), (30, 120)] {
            XCTAssertEqual(img.pixel(x: x, y: y), base.pixel(x: x, y: y), "(\(x),\(y)) is outside the scaled card")
        }
        XCTAssertNotEqual(img.pixel(x: 111, y: 280), base.pixel(x: 111, y: 280))
        XCTAssertNotEqual(img.pixel(x: 288, y: 543), base.pixel(x: 288, y: 543))
    }
}
