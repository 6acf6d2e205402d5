import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// Reduced motion in pixels, built-in styles, default options (D = 0.35 s, ease-in-out): the
/// presented view at its frame, its pixels = card × alpha + (presenting × (1 − dim)) × (1 − alpha),
/// the dim as without reduced motion; the live path equals `renderSnapshot`.
final class ReducedMotionPixelTests: XCTestCase {
    private static let duration = 0.35

    /// presenting × (1 − dim) under the opaque card pixel `card` at `alpha` (premultiplied OVER).
    private func blend(card: UInt32, base: UInt32, dim: Double, alpha: Double) -> UInt32 {
        let under = scaledPixel(base, by: 1 - dim).argbComponents, top = card.argbComponents
        func ch(_ c: Int, _ v: Int) -> UInt32 { UInt32((Double(c) * alpha + Double(v) * (1 - alpha)).rounded()) }
        return 0xFF00_0000 | ch(top.r, under.r) << 16 | ch(top.g, under.g) << 8 | ch(top.b, under.b)
    }

    private func eased(_ u: Double) -> Double { TimingCurve.easeInOut.value(at: u) }

    func testInsetCenteredCardFadesAtItsFrame() throws {
        for s in [1, 2] {
            let (w, h) = (400, 800)
            let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: w, height: h, scale: s)
            f.scene.reducesMotion = true
            let base = try f.unpresented()
            let card = try f.snapshot(.present, 1)   // the card's own (opaque) pixels at its frame
            for (phase, p, alpha) in [(TransitionPhase.present, 0.25, 0.4375), (.present, 0.5, 0.875), (.present, 0.6, 1.0), (.dismiss, 0.25, 0.5625),
                                      (.dismiss, 0.1, 0.825)] {
                let what = "inset @\(s) \(phase) P = \(p)"
                let img = try f.snapshot(phase, p)
                let dim = 0.5 * eased(phase == .present ? p : 1 - p)
                // Inside the card's frame (x 20…W−20, y 110…H−110), away from the label and corners.
                for (x, y) in [(40, 130), (w - 40, 130), (40, h - 130), (w - 40, h - 130), (w / 2, 200)] {
                    XCTAssertPixel(img.pixel(x: x * s, y: y * s), blend(card: card.pixel(x: x * s, y: y * s),
                                                                                      base: base.pixel(x: x * s, y: y * s), dim: dim, alpha: alpha),
                                   "\(what) (\(x),\(y)) inside the frame")
                }
                // Just outside the frame: dim only.
                for (x, y) in [(18, 300), (w - 18, 300), (200, 108), (200, h - 108)] {
                    XCTAssertPixel(img.pixel(x: x * s, y: y * s), scaledPixel(base.pixel(x: x * s, y: y * s), by: 1 - dim),
                                   "\(what) (\(x),\(y)) outside the frame")
                }
            }
        }
    }

    func testBottomSheetFadesAtItsFrameUnderTheDim() throws {
        let (w, h) = (400, 800)
        let f = try SceneFixture(try BuiltinStyle.bottomSheet.make(), width: w, height: h)
        f.scene.reducesMotion = true
        let base = try f.unpresented()
        let card = try f.snapshot(.present, 1)
        let img = try f.snapshot(.present, 0.25)
        let dim = 0.4 * eased(0.25)
        for (x, y) in [(40, h / 2 + 20), (w / 2, h - 20), (0, h - 1), (w - 1, h / 2 + 40)] {
            XCTAssertPixel(img.pixel(x: x, y: y), blend(card: card.pixel(x: x, y: y), base: base.pixel(x: x, y: y), dim: dim, alpha: 0.4375),
                           "(\(x),\(y)) inside the sheet's frame")
        }
        for (x, y) in [(40, h / 2 - 2), (w / 2, 60)] {
            XCTAssertPixel(img.pixel(x: x, y: y), scaledPixel(base.pixel(x: x, y: y), by: 1 - dim),
                           "(\(x),\(y)) above the sheet's frame: dim only")
        }
    }

    func testLiveFramesEqualTheSnapshotAndHitTestingUsesTheFrame() throws {
        for style in BuiltinStyle.allCases {
            let live = try SceneFixture(try style.make(), width: 400, height: 800)
            let offline = try SceneFixture(try style.make(), width: 400, height: 800)
            live.scene.reducesMotion = true
            offline.scene.reducesMotion = true
            let img = try live.newImage()
            live.scene.present(now: 100)
            for (t, p) in [(100.0875, 0.25), (100.175, 0.5)] {
                _ = live.render(now: t, age: 0, into: img)
                let snap = try offline.snapshot(.present, p)
                XCTAssertEqual(img.pixelBuffer.firstDifference(from: snap.pixelBuffer), nil, "\(style) at \(t)")
                XCTAssertEqual(live.scene.presentedViewRect(at: t),
                               try style.make().frameOfPresentedView(LayoutContext(containerBounds: Rect(x: 0, y: 0, width: 400, height: 800))),
                               "\(style): taps hit the view where it is drawn, its frame")
            }
            _ = live.render(now: 100.35, age: 0, into: img)
            XCTAssertEqual(live.scene.state, .presented)
            live.scene.dismiss(now: 101)
            _ = live.render(now: 101.0875, age: 0, into: img)
            let snap = try offline.snapshot(.dismiss, 0.25)
            XCTAssertEqual(img.pixelBuffer.firstDifference(from: snap.pixelBuffer), nil, "\(style) dismissing")
        }
    }
}

extension PixelBuffer {
    /// The first pixel (x, y, self, other) where two same-sized buffers differ.
    func firstDifference(from other: PixelBuffer) -> String? {
        guard width == other.width, height == other.height else { return "sizes differ" }
        for y in 0..<height {
            for x in 0..<width where !channelsClose(pixel(x: x, y: y), other.pixel(x: x, y: y), tolerance: 0) {
                return "(\(x),\(y)) \(hex(pixel(x: x, y: y))) vs \(hex(other.pixel(x: x, y: y)))"
            }
        }
        return nil
    }
}
