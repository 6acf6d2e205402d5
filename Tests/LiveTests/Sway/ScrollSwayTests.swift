// Scrolling a sheet's list live under headless sway with real pointer input (wayvnc's virtual
// pointer driven through one VNC client: buttons 4/5 are wheel steps, `mousedown 1` + `move`s a
// drag, `key` the list's keys): `modal-demo --content list` on the bottom sheet with detents 0.5 and 0.9 in a 480×800
// window, measured through its `scroll OFFSET TOP` lines (the list's offset and the sheet's top
// edge, points), then dismissed. One sway and one demo for the class.
import Foundation
import ModalKitTestHarness
import XCTest

final class ScrollSwayTests: CompositorTestCase {
    private let width = 480, height = 800

    private func parse(_ line: String?) -> (offset: Double, top: Double)? { DemoProcess.parseScroll(line) }

    private func lastScroll(_ demo: DemoProcess, since mark: Int, quiet: Double = 0.6) -> (offset: Double, top: Double)? {
        demo.lastScroll(since: mark, quiet: quiet, timeout: eventTimeout)
    }

    /// A press at (`x`, `y0`) moved by `dy` points `steps` times, `pause` seconds apart, held
    /// `hold` seconds, released.
    private func drag(x: Int, from y0: Int, dy: Int, steps: Int, pause: Double, hold: Double) -> [String] {
        var c = ["move", String(x), String(y0), "mousedown", "1"]
        for i in 1...steps { c += ["pause", String(pause), "move", String(x), String(y0 + i * dy)] }
        if hold > 0 { c += ["pause", String(hold)] }
        return c + ["mouseup", "1"]
    }

    func testTheWheelAndDragsOnAListInASheet() throws {
        let sway = try startSway(windowWidth: width, windowHeight: height)
        let vnc = try startVNC(sway)
        let (demo, w) = try launchDemo(["--style", "bottom-sheet", "--style-option", "detents=0.5,0.9", "--content", "list"],
                                       in: sway)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        let x = w.rect.x + width / 2

        // 1. A wheel step down over the sheet at its 0.5 detent grows it to 0.9 (`detent 2`); the
        //    list does not scroll.
        mark = demo.mark()
        try vnc.send(["move", String(x), String(w.rect.y + 600), "click", "5"])
        guard expectEvent(demo, "detent", since: mark, "a wheel step grows the sheet") != nil else { return }
        XCTAssertEqual(demo.events("detent", since: mark), ["detent 2"])
        XCTAssertEqual(demo.events("scroll", since: mark), [], "the list stays while the sheet grows")

        // 2. Four steps down: the list scrolls by 15 pt a step (wayvnc's axis value), the sheet's
        //    top at 0.1 × 800 = 80.
        mark = demo.mark()
        try vnc.send(["click", "5", "pause", "0.05", "click", "5", "pause", "0.05", "click", "5", "pause", "0.05", "click", "5"])
        XCTAssertTrue(demo.waitForLines("scroll", count: 4, since: mark, timeout: eventTimeout), "\(demo.stdoutLines.suffix(10))")
        let steps = demo.events("scroll", since: mark).compactMap { parse($0) }
        XCTAssertEqual(steps.map(\.offset), [15, 30, 45, 60])
        for s in steps { XCTAssertEqual(s.top, 80, accuracy: 0.01) }

        // 3. A step over the dim above the sheet reaches nothing; one up over the sheet scrolls back.
        mark = demo.mark()
        try vnc.send(["move", String(x), String(w.rect.y + 40), "click", "5", "pause", "0.2",
                      "move", String(x), String(w.rect.y + 400), "click", "4"])
        XCTAssertTrue(demo.waitForLines("scroll", count: 1, since: mark, timeout: eventTimeout))
        XCTAssertEqual(demo.events("scroll", since: mark).compactMap { parse($0)?.offset }, [45], "only the step on the sheet")

        // 4. A slow drag down by 50 pt on the scrolled list (held still before the release: no
        //    deceleration): recognised after 10 pt, the list follows the next 40 back to 5; the
        //    sheet does not move (no drag-began).
        mark = demo.mark()
        try vnc.send(drag(x: x, from: w.rect.y + 300, dy: 10, steps: 5, pause: 0.04, hold: 0.3))
        XCTAssertEqual(lastScroll(demo, since: mark)?.offset ?? .nan, 5, accuracy: 0.01)
        XCTAssertEqual(demo.events("drag-began", since: mark), [], "the list's drag, not the sheet's")

        // 5. Down by 100 more: the list reaches its top after 5 (the first motion past the 8 pt
        //    threshold, 10 pt), then the sheet follows the finger (drag-began) and, released held
        //    still about 80 pt down, springs back to the 0.9 detent.
        mark = demo.mark()
        try vnc.send(drag(x: x, from: w.rect.y + 300, dy: 10, steps: 10, pause: 0.04, hold: 0.3))
        expectEvent(demo, "drag-began", since: mark, "the sheet takes over at the list's top")
        expectEvent(demo, "detent", since: mark, "springs back")
        XCTAssertEqual(demo.events("detent", since: mark), ["detent 2"])
        XCTAssertEqual(demo.events("scroll", since: mark).compactMap { parse($0)?.offset }, [0])

        // 6. With the list at its top a drag down moves the sheet at once: no scroll.
        mark = demo.mark()
        try vnc.send(drag(x: x, from: w.rect.y + 300, dy: 10, steps: 6, pause: 0.04, hold: 0.3))
        expectEvent(demo, "drag-began", since: mark, "the sheet's drag")
        expectEvent(demo, "detent", since: mark, "springs back")
        XCTAssertEqual(demo.events("scroll", since: mark), [])

        // 7. A fast drag up by 100 pt (10 pt per 10 ms), released at once: the list follows the
        //    90 pt after the threshold, then decelerates on its own (more lines after the release,
        //    far beyond 90: v ≈ 1000 pt/s glides ≈ 500 pt).
        mark = demo.mark()
        try vnc.send(drag(x: x, from: w.rect.y + 600, dy: -10, steps: 10, pause: 0.01, hold: 0), delay: 0)
        guard let glide = lastScroll(demo, since: mark, quiet: 1) else { return XCTFail("no scroll lines") }
        XCTAssertGreaterThan(glide.offset, 90 + 100, "decelerated past the drag's 90 pt: \(demo.events("scroll", since: mark).suffix(3))")
        XCTAssertLessThanOrEqual(glide.offset, 40 * 44 - 720, "within the list")
        XCTAssertEqual(demo.events("drag-began", since: mark), [])

        // 8. Keys (the list has keyboard focus since it was presented): Home to the top, End to
        //    the last row (40 × 44 − 720 = 1040), Page Up by a viewport less a row (720 − 44 = 676)
        //    to 364, Down by a row to 408.
        for (key, offset) in [("home", 0.0), ("end", 1040), ("pgup", 364), ("down", 408)] {
            mark = demo.mark()
            try vnc.key(key)
            XCTAssertTrue(demo.waitForLines("scroll", count: 1, since: mark, timeout: eventTimeout), "\(key) scrolled nothing")
            XCTAssertEqual(parse(demo.events("scroll", since: mark).last)?.offset ?? .nan, offset, accuracy: 0.01, key)
        }

        // 9. Escape dismisses the sheet, scrolled list and all (the whole present/scroll/dismiss
        //    cycle `scripts/test --sanitize` runs).
        mark = demo.mark()
        try vnc.key("esc")
        expectEvent(demo, "dismissed", since: mark, "Escape dismisses the sheet")
        demo.stop()
    }
}
