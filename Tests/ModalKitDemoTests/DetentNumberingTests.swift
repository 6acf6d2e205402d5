import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// One detent numbering: the `detent N` event a settled drag reports names the detent that
/// `modal-demo render --detent N` draws (``DemoScene/restingDetent``, the path `render` and
/// `preview` take), N from 1 for the smallest — a bottom sheet with detents 0.5 and 0.9 in a
/// 390 × 844 container, driven through the window's input path.
final class DetentNumberingTests: XCTestCase {
    private let size = Size(width: 390, height: 844)

    private func scene() throws -> DemoScene {
        let s = try DemoScene(style: try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5,0.9"]))
        s.layout(containerSize: size, scale: 1)
        return s
    }

    /// `render --detent number` (presented, at rest there).
    private func rendered(detent number: Int) throws -> Image {
        let s = try scene()
        s.restingDetent = number
        let image = try Image(width: 390, height: 844)
        s.renderSnapshot(into: image.pixelBuffer, phase: .present, fraction: 1)
        return image
    }

    /// The first pixels (up to 3) whose channels differ by more than 2.
    private func mismatches(_ a: Image, _ b: Image) -> [String] {
        var found: [String] = []
        for y in 0..<a.height {
            for x in 0..<a.width where found.count < 3 {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                for shift in stride(from: 0, through: 24, by: 8)
                where abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)) > 2 {
                    found.append("(\(x), \(y)): \(String(p, radix: 16)) vs \(String(q, radix: 16))")
                    break
                }
            }
        }
        return found
    }

    /// A slow drag by `distance` points (+ down) from `y0`, held still 0.3 s before the release (no
    /// release velocity: the sheet settles on the nearest detent), the pointer then leaving the
    /// window (no hover in the picture); the spring then runs out. Returns the time after it.
    private func drag(_ s: DemoScene, from y0: Double, by distance: Double, at t0: Double, into image: Image) -> Double {
        var t = t0
        s.handle(.pointerMotion(Point(x: 195, y: y0)), now: t)
        s.handle(.pointerButton(pressed: true), now: t)
        for i in 1...30 {
            t += 0.02
            s.handle(.pointerMotion(Point(x: 195, y: y0 + distance * Double(i) / 30)), now: t)
        }
        t += 0.3
        s.handle(.pointerButton(pressed: false), now: t)
        s.handle(.pointerLeave, now: t)
        t += 5
        s.render(into: image.pixelBuffer, now: t, bufferAge: 0)
        return t
    }

    func testTheDetentAnEventNamesIsTheOneRenderDetentNDraws() throws {
        let live = try scene()
        var detents: [Int] = []
        live.onInteraction = { event in if case let .detent(n) = event { detents.append(n) } }
        let shown = try Image(width: 390, height: 844)
        live.present(now: 0)
        live.render(into: shown.pixelBuffer, now: 1, bufferAge: 0)
        XCTAssertEqual(live.state, .presented)
        XCTAssertEqual(mismatches(shown, try rendered(detent: 1)), [],
                       "a presentation rests at the smallest detent: render --detent 1")

        // Up from the 0.5 detent (top at 422) by 300 pt: it settles on the larger one, 0.9.
        var t = drag(live, from: 600, by: -300, at: 2, into: shown)
        XCTAssertEqual(detents, [2], "the larger of two detents is detent 2")
        let n = try XCTUnwrap(detents.last)
        XCTAssertEqual(mismatches(shown, try rendered(detent: n)), [], "the frame of `detent \(n)` is render --detent \(n)")
        XCTAssertNotEqual(mismatches(shown, try rendered(detent: 1)), [], "and not the smaller detent's")

        // Down again by 300 pt from near its top (84): back on the smaller one, detent 1.
        t = drag(live, from: 200, by: 300, at: t, into: shown)
        XCTAssertEqual(detents, [2, 1])
        XCTAssertEqual(mismatches(shown, try rendered(detent: 1)), [], "the frame of `detent 1` is render --detent 1")
        XCTAssertEqual(PresentationInteractionEvent.detent(2).logLine, "detent 2")
    }
}
