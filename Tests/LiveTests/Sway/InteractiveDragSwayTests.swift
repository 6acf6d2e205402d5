// Dragging the presented view live under headless sway with real pointer input (wayvnc's virtual
// pointer driven by vncdo: `mousedown 1`, `move`s with pauses, `mouseup 1`): modal-demo with the
// bottom sheet in a 480×800 window. One sway for the class; each scenario runs its own demo.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class InteractiveDragSwayTests: CompositorTestCase {
    private let width = 480, height = 800
    /// The sheet's presented top (height 0.5 of 800) and its height, window points.
    private let sheetTop = 400, sheetHeight = 400

    /// vncdo commands for a press at (`x`, `y0`) moved through `ys` with `pause` seconds between
    /// moves, held still `hold` seconds, then released.
    private func drag(x: Int, from y0: Int, through ys: [Int], pause: Double, hold: Double) -> [String] {
        var c = ["move", String(x), String(y0), "mousedown", "1"]
        for y in ys { c += ["pause", String(pause), "move", String(x), String(y)] }
        if hold > 0 { c += ["pause", String(hold)] }
        return c + ["mouseup", "1"]
    }

    /// The first row (screen pixels) in column `x` from `y0` down whose pixel is the card's white.
    private func sheetEdge(_ shot: RGBImage, x: Int, from y0: Int, to y1: Int) -> Int? {
        (y0..<y1).first { shot[x, $0].distance(to: RGB(255, 255, 255)) <= 2 }
    }

    /// Starts a demo with `options`, presents with Return and waits for `presented`.
    private func presentedDemo(_ options: [String], sway: HeadlessSway, vnc: VNCInput)
        throws -> (DemoProcess, SwayWindow)? {
        let (demo, window) = try launchDemo(["--style", "bottom-sheet"] + options.flatMap { ["--style-option", $0] },
                                            in: sway)
        let mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return nil }
        return (demo, window)
    }

    func testDragsFlicksDetentsRefusalAndACatchWithARealPointer() throws {
        let sway = try startSway(windowWidth: width, windowHeight: height)
        let vnc = try startVNC(sway)

        // 1. A slow drag down by 40 % of the sheet (160 pt), held still, released: back to the
        //    detent, never dismissing.
        do {
            guard let (demo, w) = try presentedDemo([], sway: sway, vnc: vnc) else { return }
            let x = w.rect.x + width / 2, y0 = w.rect.y + sheetTop + 100
            let mark = demo.mark()
            try vnc.send(drag(x: x, from: y0, through: (1...16).map { y0 + $0 * 10 }, pause: 0.03, hold: 0.25))
            expectEvent(demo, "drag-began", since: mark, "40 % drag")
            expectEvent(demo, "drag-ended", since: mark, "40 % drag")
            expectEvent(demo, "detent", since: mark, "40 % drag springs back")
            XCTAssertEqual(demo.events("detent", since: mark), ["detent 1"])
            XCTAssertEqual(demo.events("dismissing", since: mark), [], "40 %: no dismissal")
            demo.stop()
        }
        // 2. The same drag to 70 % (280 pt): dismissed.
        do {
            guard let (demo, w) = try presentedDemo([], sway: sway, vnc: vnc) else { return }
            let x = w.rect.x + width / 2, y0 = w.rect.y + sheetTop + 50
            let mark = demo.mark()
            try vnc.send(drag(x: x, from: y0, through: (1...28).map { y0 + $0 * 10 }, pause: 0.03, hold: 0.25))
            expectEvent(demo, "drag-ended", since: mark, "70 % drag")
            expectEvent(demo, "dismissed", since: mark, "70 % drag dismisses")
            XCTAssertEqual(demo.events("detent", since: mark), [])
            demo.stop()
        }
        // 3. A flick: 60 pt in 50 ms, released at once: dismissed (projected 60 + v·0.499 ≫ 200).
        do {
            guard let (demo, w) = try presentedDemo([], sway: sway, vnc: vnc) else { return }
            let x = w.rect.x + width / 2, y0 = w.rect.y + sheetTop + 50
            let mark = demo.mark()
            try vnc.send(drag(x: x, from: y0, through: (1...10).map { y0 + $0 * 6 }, pause: 0.005, hold: 0), delay: 0)
            guard let ended = expectEvent(demo, "drag-ended", since: mark, "flick") else { return }
            let v = Double(ended.split(separator: " ").last ?? "") ?? 0
            XCTAssertGreaterThan(v, 400, "a flick's velocity (\(ended)): projected past the middle")
            expectEvent(demo, "dismissed", since: mark, "flick dismisses")
            demo.stop()
        }
        // 4. detents=0.5,0.9: a drag up from 0.5 past the middle settles at 0.9: `detent 2`, the
        //    sheet's top at 0.1 × 800 = 80 pt.
        do {
            guard let (demo, w) = try presentedDemo(["detents=0.5,0.9"], sway: sway, vnc: vnc) else { return }
            let x = w.rect.x + width / 2, y0 = w.rect.y + sheetTop + 100
            let mark = demo.mark()
            try vnc.send(drag(x: x, from: y0, through: (1...20).map { y0 - $0 * 10 }, pause: 0.03, hold: 0.25))
            guard expectEvent(demo, "detent", since: mark, "drag up to the large detent") != nil else { return }
            XCTAssertEqual(demo.events("detent", since: mark), ["detent 2"])
            try vnc.park()
            let shot = try sway.stableScreenshot()
            keep(shot, "detent-2")
            let edge = sheetEdge(shot, x: w.rect.x + 100, from: w.rect.y, to: w.rect.y + height)
            XCTAssertNotNil(edge)
            if let edge = edge { XCTAssertEqual(Double(edge - w.rect.y), 80, accuracy: 1, "the sheet's top at 0.9") }
            // With two detents the grabber shows (grabber=auto): 36 × 5 pt, centred, 5 pt below the top.
            XCTAssertGreaterThan(shot[w.rect.x + width / 2, w.rect.y + 80 + 7].distance(to: RGB(255, 255, 255)), 40,
                                 "the grabber at the sheet's top centre")
            demo.stop()
        }
        // 5. dismissible=false: a 70 % drag rubber-bands and springs back with `close-attempt`;
        //    Escape and a dim tap report `close-attempt` too; never `dismissing`.
        do {
            guard let (demo, w) = try presentedDemo(["dismissible=false"], sway: sway, vnc: vnc) else { return }
            let x = w.rect.x + width / 2, y0 = w.rect.y + sheetTop + 50
            let mark = demo.mark()
            try vnc.send(drag(x: x, from: y0, through: (1...28).map { y0 + $0 * 10 }, pause: 0.03, hold: 0.25))
            expectEvent(demo, "close-attempt", since: mark, "refused drag")
            expectEvent(demo, "detent", since: mark, "springs back")
            try vnc.key("esc")
            XCTAssertTrue(demo.waitForLines("close-attempt", count: 2, since: mark, timeout: eventTimeout), "Escape")
            try vnc.click(x: x, y: w.rect.y + 100)
            XCTAssertTrue(demo.waitForLines("close-attempt", count: 3, since: mark, timeout: eventTimeout), "dim tap")
            XCTAssertEqual(demo.events("dismissing", since: mark), [], "never dismissing: \(demo.stdoutLines.suffix(20))")
            demo.stop()
        }
        // 6. A press on the sheet during a (8 s) presentation stops it under the pointer; it then
        //    follows the pointer. One vncdo holds the button throughout (a new VNC client starts
        //    with its buttons up); the screenshots are taken while it holds still.
        do {
            let (demo, w) = try launchDemo(["--style", "bottom-sheet", "--style-option", "duration=8"], in: sway)
            var mark = demo.mark()
            try vnc.key("enter")
            guard expectEvent(demo, "presenting", since: mark) != nil else { return }
            // 1.2 s in (plus vncdo's start), the rising sheet covers the press point 20 pt above the
            // bottom edge and is still far (> 80 pt) from its place.
            usleep(1_200_000)
            let x = w.rect.x + width / 2, y = w.rect.y + height - 20
            mark = demo.mark()
            // Press, hold 4 s, 60 pt up, hold 3 s, then 300 pt up (nearer the sheet's place than
            // the dismissed one) and release.
            let hold = try vnc.start(["move", String(x), String(y), "mousedown", "1", "pause", "4",
                                      "move", String(x), String(y - 30), "pause", "0.05",
                                      "move", String(x), String(y - 60), "pause", "3",
                                      "move", String(x), String(y - 150), "pause", "0.05",
                                      "move", String(x), String(y - 300), "pause", "0.3", "mouseup", "1"], delay: 0)
            defer { hold.stop() }
            usleep(800_000)
            // Still while held (the presentation would move it until 8 s after `presenting`).
            let held = try sway.stableScreenshot(timeout: 2.5, interval: 0.3)
            keep(held, "caught")
            let column = w.rect.x + 100
            guard let caught = sheetEdge(held, x: column, from: w.rect.y, to: w.rect.y + height) else {
                return XCTFail("no sheet in the window after the catch")
            }
            // Far enough from the presented place that 60 pt up stays clear of the rubber band.
            XCTAssertGreaterThan(caught - w.rect.y, sheetTop + 80, "caught early in the presentation")
            XCTAssertEqual(demo.events("drag-began", since: mark), [], "held still so far")
            guard expectEvent(demo, "drag-began", since: mark, "the held pointer moves") != nil else { return }
            usleep(300_000)
            let moved = try sway.stableScreenshot(timeout: 2, interval: 0.3)
            keep(moved, "followed")
            XCTAssertEqual(Double(sheetEdge(moved, x: column, from: w.rect.y, to: w.rect.y + height) ?? 0),
                           Double(caught - 60), accuracy: 2, "follows the pointer 1:1")
            XCTAssertEqual(demo.events("presented", since: mark), [], "no state event while held")
            XCTAssertNotNil(hold.waitForExit(timeout: 10), "vncdo ended")
            expectEvent(demo, "presented", since: mark, "released: settles")
            demo.stop()
        }
    }
}
