// One rounding rule for every path, proven live at odd sizes and scales: the presented view's
// top-left is at a whole point (rounded half away from zero, then × scale rounded to a whole pixel;
// docs/design.md, Compositor-side composition), in the window with either backend as in
// `modal-demo render`. A bottom sheet (half the height) in a 499 × 311 pt window on a scale-2 sway
// output (and, in PresentedViewRoundingKWinTests, in a 481 × 401 pt window on KWin at its
// fractional 1.75) is held with `--pause-at F`
// and the screenshot compared with `render --scale S --progress F` (±2 per channel), at fractions
// where the sheet's top lands on a half point (presented: 155.5 and 200.5 pt; and mid-way, where
// the exact pixel and the whole point's pixel differ) — and the sheet's top edge is on the row
// the rule gives, worked out by hand below. The held frame is F's at any duration (the scene
// clock stands at exactly F's time), so the transitions are short (0.3 s): nothing waits on a clock.
import Foundation
import ModalKit
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class PresentedViewRoundingLiveTests: CompositorTestCase {
    // MARK: sway, scale 2

    /// 499 × 311 pt on a scale-2 output (998 × 622 buffer pixels); the sheet 499 × 155.5 pt.
    /// Tops (points → whole point → row): presented 155.5 → 156 → 312 (the exact pixel: 311);
    /// at 0.5 (p = 0.5) 233.25 → 233 → 466 (exact 466.5 → 467); at the fractions placing it at
    /// 200.5 → 201 → 402 (exact 401) and 180.25 → 180 → 360 (exact 360.5 → 361).
    func testBottomSheetAtScaleTwoEqualsRenderWithBothBackends() throws {
        let (width, height, h) = (499, 311, 155.5)
        let cases: [(fraction: Double, row: Int)] = [
            (1, 312), (0.5, 466), (BottomSheetRounding.fraction(sheetTopAt: 200.5, sheetHeight: h), 402),
            (BottomSheetRounding.fraction(sheetTopAt: 180.25, sheetHeight: h), 360),
        ]
        let sway = try startSway(windowWidth: width, windowHeight: height, scale: 2)
        let vnc = try startVNC(sway)
        for (f, row) in cases {
            let rendered = try BottomSheetRounding.render(width: width, height: height, scale: 2, fraction: f)
            XCTAssertEqual(rendered.width, 998)
            XCTAssertEqual(rendered.height, 622)
            XCTAssertEqual(BottomSheetRounding.sheetTop(rendered), row, "render --progress \(f): the sheet's top row")
            for backend in ["pixman", "subsurface"] {
                let what = "\(width)x\(height)@2 \(backend) --pause-at \(f)"
                let (demo, window) = try launchDemo(["--style", "bottom-sheet", "--compositing", backend, "--duration", "0.3",
                                                     "--pause-at", String(f)], in: sway,
                                                    environment: ["MODALKIT_REDUCED_MOTION": nil])
                XCTAssertEqual(window.rect.width, width, what)
                XCTAssertEqual(window.rect.height, height, what)
                try vnc.park()
                let mark = demo.mark()
                try vnc.key("enter")
                guard expectEvent(demo, "presenting", since: mark, what) != nil,
                      expectEvent(demo, f < 1 ? "paused" : "presented", since: mark, what) != nil
                else { return }
                let shot = try sway.stableScreenshot(timeout: 5, interval: 0.3)
                let live = shot.cropped(to: PixelBox(x: window.rect.x * 2, y: window.rect.y * 2, width: width * 2, height: height * 2))
                let frames = demo.events("frame", since: mark)
                XCTAssertFalse(frames.isEmpty, "\(what): frames were committed")
                XCTAssertTrue(frames.allSatisfy { $0.contains("backend=\(backend)") }, "\(what): every frame by \(backend): \(frames.prefix(5))")
                XCTAssertEqual(BottomSheetRounding.sheetTop(live), row, "\(what): the sheet's top row in the window")
                let diff = differences(live, rendered, tolerance: 2)
                XCTAssertEqual(diff, [], "\(what): the window vs render --scale 2 --progress \(f)")
                if !diff.isEmpty { keep(live, "live-\(backend)-\(f)"); keep(rendered, "render-\(f)") }
                demo.stop()
                XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) { (try? sway.windows())?.isEmpty == true },
                              "\(what): the window is gone")
            }
        }
    }
}
