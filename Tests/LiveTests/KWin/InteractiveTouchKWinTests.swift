// Dragging the presented view with real touch (wl_touch down/motion/up from KWin's
// org_kde_kwin_fake_input, through Fixtures/kwin_driver.c) under a headless KWin: modal-demo with
// the bottom sheet at 480×800. One KWin for the class; each scenario runs its own demo.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class InteractiveTouchKWinTests: CompositorTestCase {
    private let width = 480, height = 800
    /// The sheet's presented top (height 0.5 of 800), content points.
    private let sheetTop = 400.0

    /// Starts modal-demo (`--size 480x800`, bottom sheet) in `kwin`, waits until it drew at that
    /// size, presents with Return and waits for `presented`.
    private func presentedDemo(in kwin: HeadlessKWin) throws -> (DemoProcess, KWinRect)? {
        try kwin.driver.move(x: 2, y: 2)   // the pointer off the window
        let demo = try startDemo(["--size", "\(width)x\(height)", "--style", "bottom-sheet", "--log-events"],
                                 environment: kwin.clientEnvironment)
        let window = try kwin.waitForWindow(pid: demo.pid, width: width, height: height, timeout: eventTimeout)
        guard demo.waitUntilDrawn(width: width, height: height, timeout: eventTimeout) else { throw HarnessError("modal-demo did not draw at \(width)x\(height):\n\(demo.diagnostics())") }
        let mark = demo.mark()
        try kwin.driver.key(.enter)
        guard expectEvent(demo, "presented", since: mark) != nil else { return nil }
        return (demo, window.buffer)
    }

    func testTouchDragsSpringBackDismissAndFlick() throws {
        let kwin = try startKWin(width: 640, height: 960)

        // A slow drag by 40 % (160 pt), held, lifted: back to the detent, no dismissal.
        do {
            guard let (demo, w) = try presentedDemo(in: kwin) else { return }
            let x = w.x + Double(width) / 2, y0 = w.y + sheetTop + 100
            let mark = demo.mark()
            try kwin.driver.touchDrag(x: x, from: y0, dy: 10, steps: 16, ms: 40, hold: 0.25)
            expectEvent(demo, "drag-began", since: mark, "40 % touch drag")
            expectEvent(demo, "detent", since: mark, "40 % touch drag springs back")
            XCTAssertEqual(demo.events("dismissing", since: mark), [], "40 %: no dismissal")
            demo.stop()
        }
        // 70 % (280 pt): dismissed.
        do {
            guard let (demo, w) = try presentedDemo(in: kwin) else { return }
            let x = w.x + Double(width) / 2, y0 = w.y + sheetTop + 50
            let mark = demo.mark()
            try kwin.driver.touchDrag(x: x, from: y0, dy: 10, steps: 28, ms: 40, hold: 0.25)
            expectEvent(demo, "drag-ended", since: mark, "70 % touch drag")
            expectEvent(demo, "dismissed", since: mark, "70 % touch drag dismisses")
            XCTAssertEqual(demo.events("detent", since: mark), [])
            demo.stop()
        }
        // A flick: 60 pt in 50 ms, lifted at once: dismissed.
        do {
            guard let (demo, w) = try presentedDemo(in: kwin) else { return }
            let x = w.x + Double(width) / 2, y0 = w.y + sheetTop + 50
            let mark = demo.mark()
            try kwin.driver.touchDrag(x: x, from: y0, dy: 6, steps: 10, ms: 5, hold: 0)
            guard let ended = expectEvent(demo, "drag-ended", since: mark, "touch flick") else { return }
            let v = Double(ended.split(separator: " ").last ?? "") ?? 0
            // KWin stamps the events when it processes them (a busy compositor spreads them), so
            // the measured speed is below the finger's 1200 pt/s; a flick is one whose projection
            // (60 + v · 0.499) passes half the sheet (200 pt): v > 281 pt/s. The unit tests check
            // the exact 1200 from exact times.
            XCTAssertGreaterThan(v, 281, "60 pt in 50 ms (\(ended))")
            expectEvent(demo, "dismissed", since: mark, "touch flick dismisses")
            demo.stop()
        }
    }
}
