// The one rounding rule for the presented view (its top-left at a whole point, rounded half away
// from zero, then × scale rounded to a whole pixel; docs/design.md, Compositor-side composition), live on
// KWin at its fractional 1.75: a bottom sheet (half the height) in a 481 × 401 pt window is held
// with `--pause-at F` and the screenshot compared with `render --scale 1.75 --progress F` (±2 per
// channel), at fractions where the sheet's top lands on a half point, and its top edge is on the
// row the rule gives, worked out by hand below (sway at scale 2: PresentedViewRoundingLiveTests).
// The held frame is F's at any duration (the scene clock stands at exactly F's time), so the
// transitions are short (0.3 s): nothing waits on a clock.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class PresentedViewRoundingKWinTests: CompositorTestCase {
    // MARK: KWin, scale 1.75

    /// 481 × 401 pt at KWin's fractional 1.75 (`preferred_scale(210)`): a buffer of
    /// round(481 × 1.75) × round(401 × 1.75) = 842 × 702 pixels; the sheet 481 × 200.5 pt.
    /// Tops: presented 200.5 → 201 → 351.75 → 352 (exact 350.875 → 351); at 0.5 300.75 → 301 →
    /// 526.75 → 527 (exact 526.3125 → 526); at the fraction placing it at 250.5 → 251 → 439.25 →
    /// 439 (exact 438.375 → 438). With `--compositing subsurface` the window composes a
    /// fractional-scale frame with pixman (`backend=pixman`: the layers are drawn at whole buffer
    /// scales only) — the same picture either way.
    func testBottomSheetAtKWinsOnePointSevenFiveEqualsRenderWithBothModes() throws {
        let (width, height, scale, h) = (481, 401, 1.75, 200.5)
        let cases: [(fraction: Double, row: Int)] = [
            (1, 352), (0.5, 527), (BottomSheetRounding.fraction(sheetTopAt: 250.5, sheetHeight: h), 439),
        ]
        let kwin = try startKWin(scale: scale)
        let dismissed = try BottomSheetRounding.render(width: width, height: height, scale: scale, fraction: 0)
        for (f, row) in cases {
            let rendered = try BottomSheetRounding.render(width: width, height: height, scale: scale, fraction: f)
            XCTAssertEqual(rendered.width, 842)
            XCTAssertEqual(rendered.height, 702)
            XCTAssertEqual(BottomSheetRounding.sheetTop(rendered), row, "render --scale 1.75 --progress \(f): the sheet's top row")
            for mode in ["pixman", "subsurface"] {
                let what = "\(width)x\(height)@1.75 --compositing \(mode) --pause-at \(f)"
                try kwin.driver.move(x: 2, y: 2)   // off the window (it is centred)
                var env = kwin.clientEnvironment
                env["WAYLAND_DEBUG"] = "1"
                env["MODALKIT_REDUCED_MOTION"] = nil
                let demo = try startDemo(["--size", "\(width)x\(height)", "--log-events", "--style", "bottom-sheet",
                                          "--compositing", mode, "--duration", "0.3", "--pause-at", String(f)], environment: env)
                guard demo.waitForLine("configure", timeout: eventTimeout) != nil else {
                    throw HarnessError("modal-demo logged no `configure` within \(eventTimeout) s:\n\(demo.diagnostics())")
                }
                let window = try kwin.waitForWindow(pid: demo.pid, width: width, height: height, timeout: eventTimeout)
                let drawn = waitUntil(timeout: eventTimeout, interval: 0.05) {
                    let lines = demo.stdoutLines
                    guard let c = lines.lastIndex(where: { DemoProcess.firstWord($0) == "configure" }) else { return false }
                    return lines[c] == "configure \(width)x\(height)" && lines[(c + 1)...].contains { DemoProcess.firstWord($0) == "frame" }
                }
                XCTAssertTrue(drawn, "\(what): drawn at \(width)x\(height)")
                XCTAssertTrue(demo.stderrLines.contains { $0.contains("wp_fractional_scale_v1@") && $0.contains(".preferred_scale(210)") },
                              "\(what): KWin announces 1.75 (210/120)")
                // The buffer is shown 1:1 from the window's position × 1.75, which KWin's script API
                // prints rounded: the device-pixel origin is the one within 2 pixels of the rounded
                // one where the screen shows the dismissed frame (`render --progress 0`, which no
                // rounding of the presented view touches).
                let before = try kwin.stableScreenshot()
                let guess = (x: Int((window.buffer.x * scale).rounded()), y: Int((window.buffer.y * scale).rounded()))
                guard let box = (-2...2).flatMap({ dy in (-2...2).map { dx in PixelBox(x: guess.x + dx, y: guess.y + dy, width: 842, height: 702) } })
                    .first(where: { differences(before.cropped(to: $0), dismissed, tolerance: 2).isEmpty }) else {
                    keep(before, "screen-\(mode)-\(f)"); keep(dismissed, "render-0")
                    return XCTFail("\(what): no place within 2 pixels of the window's \(window.buffer) × 1.75 shows render --progress 0")
                }
                let mark = demo.mark()
                try kwin.driver.key(.enter)
                guard expectEvent(demo, "presenting", since: mark, what) != nil,
                      expectEvent(demo, f < 1 ? "paused" : "presented", since: mark, what) != nil
                else { return }
                let live = try kwin.stableScreenshot().cropped(to: box)
                let frames = demo.events("frame", since: mark)
                XCTAssertFalse(frames.isEmpty, "\(what): frames were committed")
                XCTAssertTrue(frames.allSatisfy { $0.contains("backend=pixman") }, "\(what): a fractional frame by pixman: \(frames.prefix(5))")
                XCTAssertEqual(BottomSheetRounding.sheetTop(live), row, "\(what): the sheet's top row in the window")
                let diff = differences(live, rendered, tolerance: 2)
                XCTAssertEqual(diff, [], "\(what): the window vs render --scale 1.75 --progress \(f)")
                if !diff.isEmpty { keep(live, "live-\(mode)-\(f)"); keep(rendered, "render-\(f)") }
                let log = demo.stderrLines
                XCTAssertEqual(log.filter { $0.contains("wl_display@1.error(") || $0.contains("wl_display#1.error(") }, [],
                               "\(what): protocol errors")
                demo.stop()
                XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.1) { (try? kwin.windows())?.isEmpty == true },
                              "\(what): the window is gone")
            }
        }
    }
}
