// The popover through `modal-demo render` (the renderer the window uses), at scale 1 and 2: the
// card's white pixels cover exactly the Present button's rectangle at eased progress 0.01, the
// centred 320×220 card when presented, and each edge moves monotonically in between.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKit

final class PopoverRenderTests: XCTestCase {
    typealias Support = PluginTestSupport

    /// The box (points, from buffer pixels ÷ scale) of the white pixels: the card (the demo's
    /// presenting view has no white pixel the card does not cover while it grows from the
    /// button, whose white label it hides).
    private func whiteBox(_ image: Image, scale: Int) -> Rect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = image.pixel(x: x, y: y).argbComponents
                guard c.r >= 253, c.g >= 253, c.b >= 253 else { continue }
                minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        let s = Double(scale)
        return Rect(x: Double(minX) / s, y: Double(minY) / s, width: Double(maxX + 1 - minX) / s,
                    height: Double(maxY + 1 - minY) / s)
    }

    private func render(_ dir: String, fraction: Double, scale: Int) throws -> Image {
        let output = dir + "/popover-\(fraction)-\(scale).png"
        let r = try PluginCLITests.demo(["render", "--style", "popover", "--size", "400x800", "--scale", "\(scale)",
                                         "--progress", "\(fraction)", "--output", output])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        return try Image(pngFile: output)
    }

    private func assertClose(_ a: Rect?, _ b: Rect, within d: Double, _ message: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        guard let a else { return XCTFail("no card drawn: \(message)", file: file, line: line) }
        for (x, y, edge) in [(a.minX, b.minX, "left"), (a.minY, b.minY, "top"), (a.maxX, b.maxX, "right"),
                             (a.maxY, b.maxY, "bottom")] {
            XCTAssertEqual(x, y, accuracy: d, "\(edge) edge of \(a) vs \(b): \(message)", file: file, line: line)
        }
    }

    func testPopoverGrowsFromThePresentButtonToTheCentredCard() throws {
        let dir = try Support.temporaryDirectory(self, "popover")
        // `render --progress` is the linear time fraction; the popover presents with ease-out, so
        // eased progress 0.01 is at the fraction where ease-out reaches 0.01.
        let f01 = Transition(duration: 1, curve: .easeOut).fraction(nearestProgress: 0.01)
        XCTAssertEqual(TimingCurve.easeOut.value(at: f01), 0.01, accuracy: 1e-9)
        let button = Rect(x: 112, y: 375, width: 176, height: 50)   // the demo's Present button at 400×800
        let card = Rect(x: 40, y: 290, width: 320, height: 220)
        for scale in [1, 2] {
            assertClose(whiteBox(try render(dir, fraction: f01, scale: scale), scale: scale), button, within: 1,
                        "eased 0.01 at scale \(scale)")
            assertClose(whiteBox(try render(dir, fraction: 1, scale: scale), scale: scale), card, within: 0,
                        "presented at scale \(scale)")
            var last = button
            for i in 1...9 {
                let fraction = Double(i) / 10
                guard let box = whiteBox(try render(dir, fraction: fraction, scale: scale), scale: scale) else {
                    return XCTFail("no card at \(fraction)")
                }
                XCTAssertLessThanOrEqual(box.minX, last.minX, "left edge at \(fraction), scale \(scale)")
                XCTAssertLessThanOrEqual(box.minY, last.minY, "top edge at \(fraction), scale \(scale)")
                XCTAssertGreaterThanOrEqual(box.maxX, last.maxX, "right edge at \(fraction), scale \(scale)")
                XCTAssertGreaterThanOrEqual(box.maxY, last.maxY, "bottom edge at \(fraction), scale \(scale)")
                // And where the geometry says: the button's rectangle interpolated at the eased progress.
                let p = TimingCurve.easeOut.value(at: fraction)
                let expected = Rect(x: 112 + (40 - 112) * p, y: 375 + (290 - 375) * p,
                                    width: 176 + (320 - 176) * p, height: 50 + (220 - 50) * p)
                assertClose(box, expected, within: 1, "fraction \(fraction), scale \(scale)")
                last = box
            }
        }
    }
}
