// The style 1.1 options live under headless sway at scale 1 and 2: Return presents (real key
// through wayvnc + vncdo), grim's screenshot of the presented window equals `modal-demo render
// --progress 1` of the same size, scale and options (outside the Present button, whose focus ring
// the key press shows), and the numbers hold on the live pixels: bottom-sheet's gradient dim
// (unchanged at the top edge, × 0.6 at the sheet's top), its grabber, the popover's centred card.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class StyleChromeLiveTests: CompositorTestCase {
    private let width = 400, height = 600

    /// Presents with Return and returns the window's pixels (buffer pixels) before and after,
    /// and `render` of the same window at progress 1.
    private func presentLive(_ arguments: [String], scale: Int)
        throws -> (before: RGBImage, presented: RGBImage, rendered: RGBImage, window: PixelBox, demo: DemoProcess,
                   vnc: VNCInput, screen: PixelBox)?
    {
        let sway = try startSway(windowWidth: width, windowHeight: height, scale: scale)
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(arguments, in: sway)
        let w = window.rect
        let box = PixelBox(x: w.x * scale, y: w.y * scale, width: w.width * scale, height: w.height * scale)
        try vnc.park()
        let before = try sway.stableScreenshot().cropped(to: box)
        let mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return nil }
        let presented = try sway.stableScreenshot().cropped(to: box)
        keep(presented, "presented-scale-\(scale)")

        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-live11")
        defer { removeTree(dir) }
        let png = dir + "/presented.png"
        let r = try ChildProcess.run([try DemoProcess.executablePath, "render"] + arguments
                                     + ["--size", "\(w.width)x\(w.height)", "--scale", "\(scale)", "--progress", "1",
                                        "--output", png],
                                     environment: harnessEnvironment([:]), timeout: 60)
        guard r.status == .exited(0) else { XCTFail("render failed (\(r.status)): \(r.stderr)"); return nil }
        let rendered = try RGBImage.loadPNG(path: png)
        keep(rendered, "render-scale-\(scale)")
        XCTAssertEqual(rendered.width, box.width)
        return (before, presented, rendered, PixelBox(x: 0, y: 0, width: w.width, height: w.height), demo, vnc, w)
    }

    /// Where sway's software cursor shows: on the scale-2 output grim's screenshots show it at
    /// the output's centre (= the lone window's centre), where sway puts a new seat's cursor, even
    /// after `park()` (on scale 1 the parked pointer is in the gap, off the window). 24 pt around
    /// the window's centre at scale 2, nothing at scale 1.
    private func cursorArea(_ w: PixelBox, scale: Int) -> PixelBox? {
        scale == 1 ? nil : PixelBox(x: (w.width / 2 - 4) * scale, y: (w.height / 2 - 4) * scale, width: 24 * scale,
                                    height: 24 * scale)
    }

    /// The Present button and its focus ring and shadow, buffer pixels (left out of comparisons).
    private func buttonArea(_ w: PixelBox, scale: Int) -> PixelBox {
        PixelBox(x: (w.width / 2 - 110) * scale, y: (w.height / 2 - 40) * scale, width: 220 * scale, height: 80 * scale)
    }

    func testBottomSheetGradientGrabberAndShadowLiveEqualRender() throws {
        for scale in [1, 2] {
            guard let live = try presentLive(["--style", "bottom-sheet", "--style-option", "dim=gradient",
                                              "--style-option", "grabber=on", "--style-option", "shadow=soft"],
                                             scale: scale) else { return }
            XCTAssertEqual(differences(live.presented, live.rendered, excluding: buttonArea(live.window, scale: scale),
                                       tolerance: 2), [], "live vs render at scale \(scale)")
            // The gradient on the live pixels, in a column clear of the title and the button, above
            // the shadow's reach (blur 16 − offset 4 = 12 pt above the sheet): black × 0.4 × y / 300
            // for the 300 pt from the top edge to the sheet's top edge.
            let x = (live.window.width - 40) * scale
            let sheetTop = live.window.height / 2
            for y in [0, sheetTop / 2, sheetTop - 20] {
                let py = y * scale
                let alpha = 0.4 * (Double(py) + 0.5) / Double(scale) / Double(sheetTop)
                assertPixel(live.presented, x, py, near: live.before[x, py].dimmed(byBlackAlpha: alpha), tolerance: 2,
                            "gradient dim \(alpha) at y = \(y) pt, scale \(scale)")
            }
            // The grabber (x 182…218, y 305…310 pt): #3C3C43 at 30 % over the white sheet.
            assertPixel(live.presented, (live.window.width / 2 - 10) * scale, (sheetTop + 7) * scale,
                        near: RGB(197, 197, 199), tolerance: 2, "the grabber, scale \(scale)")
        }
    }

    func testPopoverLiveShowsTheCentredCardAsRendered() throws {
        for scale in [1, 2] {
            guard let live = try presentLive(["--style", "popover"], scale: scale) else { return }
            XCTAssertEqual(differences(live.presented, live.rendered, excluding: cursorArea(live.window, scale: scale),
                                       tolerance: 2), [], "live vs render at scale \(scale)")
            // The card's white pixels: the centred 320×220 card.
            var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
            for y in 0..<live.presented.height {
                for x in 0..<live.presented.width {
                    let p = live.presented[x, y]
                    guard p.r >= 253, p.g >= 253, p.b >= 253 else { continue }
                    minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
                }
            }
            let s = scale, w = live.window
            XCTAssertEqual(PixelBox(x: minX, y: minY, width: maxX + 1 - minX, height: maxY + 1 - minY),
                           PixelBox(x: (w.width - 320) / 2 * s, y: (w.height - 220) / 2 * s, width: 320 * s, height: 220 * s),
                           "the centred 320×220 card at scale \(s)")
            // A tap on the dim (30 pt inside the window's top-left corner) dismisses it, and never
            // reaches the Present button (clicks are given in output pixels: scale 1 only).
            if scale == 1 {
                let mark = live.demo.mark()
                try live.vnc.click(x: live.screen.x + 30, y: live.screen.y + 30)
                expectEvent(live.demo, "dismissing", since: mark, "tap on the popover's dim")
                expectEvent(live.demo, "dismissed", since: mark, "tap on the popover's dim")
                XCTAssertEqual(live.demo.events("activated", since: mark), [])
            }
        }
    }
}
