// Scrolling a sheet's list live under a headless KWin with real touch and axis input (KWin's
// org_kde_kwin_fake_input through Fixtures/kwin_driver.c: wl_touch down/motion/up, and
// wl_pointer.axis — fake-input v4's axis request names no source, so the touchpad's finger
// source and axis_stop are covered by the unit tests and the fake compositor):
// `modal-demo --content list` on the bottom sheet with detents 0.5 and 0.9 at 480×800, measured
// through its `scroll OFFSET TOP` lines (the list's offset, the sheet's top edge, points). One
// KWin and one demo for the class.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class ScrollKWinTests: CompositorTestCase {
    private let width = 480, height = 800

    private func parse(_ line: String?) -> (offset: Double, top: Double)? { DemoProcess.parseScroll(line) }

    private func lastScroll(_ demo: DemoProcess, since mark: Int, quiet: Double = 0.6) -> (offset: Double, top: Double)? {
        demo.lastScroll(since: mark, quiet: quiet, timeout: eventTimeout)
    }

    func testTouchAndAxisOnAListInASheet() throws {
        let kwin = try startKWin(width: 640, height: 960)
        try kwin.driver.move(x: 2, y: 2)   // the pointer off the window
        let demo = try startDemo(["--size", "\(width)x\(height)", "--style", "bottom-sheet", "--style-option", "detents=0.5,0.9",
                                  "--content", "list", "--log-events"], environment: kwin.clientEnvironment)
        let window = try kwin.waitForWindow(pid: demo.pid, width: width, height: height, timeout: eventTimeout)
        guard demo.waitUntilDrawn(width: width, height: height, timeout: eventTimeout) else { throw HarnessError("modal-demo did not draw at \(width)x\(height):\n\(demo.diagnostics())") }
        var mark = demo.mark()
        try kwin.driver.key(.enter)
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        let w = window.buffer
        let x = w.x + Double(width) / 2

        // 1. A touch pan up at the 0.5 detent moves the sheet (it expands), not the list: up
        //    200 pt, held, lifted: it settles at 0.9 (`detent 2`).
        mark = demo.mark()
        try kwin.driver.touchDrag(x: x, from: w.y + 600, dy: -10, steps: 20, ms: 30, hold: 0.25)
        expectEvent(demo, "drag-began", since: mark, "the sheet's drag")
        expectEvent(demo, "detent", since: mark, "settles at the larger detent")
        XCTAssertEqual(demo.events("detent", since: mark), ["detent 2"])
        XCTAssertEqual(demo.events("scroll", since: mark), [], "the list stays while the sheet expands")

        // 2. At 0.9 a fast pan up (100 pt, 10 pt per 10 ms) lifted at once: the list follows the
        //    finger, then decelerates on its own past the 90 pt it was moved (≈ 1000 pt/s glides
        //    ≈ 500 pt); the sheet stays at 80.
        mark = demo.mark()
        try kwin.driver.touchDrag(x: x, from: w.y + 600, dy: -10, steps: 10, ms: 10, hold: 0)
        guard let glide = lastScroll(demo, since: mark, quiet: 1) else { return XCTFail("no scroll lines") }
        XCTAssertGreaterThan(glide.offset, 90 + 100, "\(demo.events("scroll", since: mark).suffix(3))")
        XCTAssertEqual(glide.top, 80, accuracy: 0.01)
        XCTAssertEqual(demo.events("drag-began", since: mark), [])

        // 3. A slow pan down by 60 pt on the scrolled list, held still, lifted: recognised after
        //    10 pt, the list follows the other 50 back (no deceleration after a rest), the sheet stays.
        mark = demo.mark()
        try kwin.driver.touchDrag(x: x, from: w.y + 300, dy: 10, steps: 6, ms: 40, hold: 0.3)
        XCTAssertEqual(lastScroll(demo, since: mark)?.offset ?? .nan, glide.offset - 50, accuracy: 0.01)
        XCTAssertEqual(demo.events("drag-began", since: mark), [])

        // 4. The pointer's axis over the sheet scrolls the list: one large step up brings it to its
        //    top (and no further: the sheet does not move toward dismissal).
        mark = demo.mark()
        try kwin.driver.move(x: x, y: w.y + 700)
        try kwin.driver.command("axis vertical -5000")
        XCTAssertEqual(lastScroll(demo, since: mark)?.offset ?? .nan, 0)
        XCTAssertEqual(demo.events("dismissing", since: mark), [])

        // 5. With the list at its top a pan down moves the sheet at once (no scroll); held and
        //    lifted 90 pt down, it springs back to 0.9.
        mark = demo.mark()
        try kwin.driver.touchDrag(x: x, from: w.y + 300, dy: 10, steps: 10, ms: 30, hold: 0.3)
        expectEvent(demo, "drag-began", since: mark, "the sheet's drag at the list's top")
        expectEvent(demo, "detent", since: mark, "springs back")
        XCTAssertEqual(demo.events("detent", since: mark), ["detent 2"])
        XCTAssertEqual(demo.events("scroll", since: mark), [])

        // 6. Axis steps of 15 pt scroll the list 15 pt each.
        mark = demo.mark()
        try kwin.driver.move(x: x, y: w.y + 700)
        try kwin.driver.command("axis vertical 15")
        try kwin.driver.command("axis vertical 15")
        XCTAssertTrue(demo.waitForLines("scroll", count: 2, since: mark, timeout: eventTimeout), "\(demo.stdoutLines.suffix(8))")
        XCTAssertEqual(demo.events("scroll", since: mark).compactMap { parse($0)?.offset }, [15, 30])
        demo.stop()
    }
}
