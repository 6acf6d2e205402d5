// Input of several seats and key repeat across a stall, live under headless sway with real input
// (wayvnc's virtual pointer and keyboard driven by vncdo):
// - two seats (a second wayvnc on `seat1`, made with `seat seat1 fallback false`): seat1's
//   pointer moving, pressing and releasing on the bottom sheet while seat0 drags it neither ends
//   nor steers seat0's drag;
// - a key held until its repeat runs, the demo stopped (SIGSTOP), the key released, the demo
//   continued 2 s later: the release ends the repeat, at most one more `typed` line (not one per
//   repeat interval of the stall).
// Each scenario runs several times while a CPU burner competes with the demo.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class SeatInputSwayTests: CompositorTestCase {
    private let width = 480, height = 800
    /// The sheet's presented top (height 0.5 of 800), window points.
    private let sheetTop = 400

    /// One busy shell loop competing for the CPU until stopped (by its PID, at tear-down at the latest).
    private func startCPULoad() throws -> ChildProcess {
        let burner = try ChildProcess(["sh", "-c", "while :; do :; done"], environment: ["PATH": "/usr/bin:/bin"],
                                      name: "cpu-load")
        addTeardownBlock { burner.stop() }
        return burner
    }

    /// The first row (screen pixels) in column `x` from `y0` down whose pixel is the card's white.
    private func sheetEdge(_ shot: RGBImage, x: Int, from y0: Int, to y1: Int) -> Int? {
        (y0..<y1).first { shot[x, $0].distance(to: RGB(255, 255, 255)) <= 2 }
    }

    func testAnotherSeatsPressAndReleaseNeitherEndNorSteerADrag() throws {
        let sway = try startSway(windowWidth: width, windowHeight: height)
        let vnc = try startVNC(sway)
        let second = try startVNC(sway, seat: "seat1")
        try second.park()
        let load = try startCPULoad()
        defer { load.stop() }

        for round in 1...3 {
            // sway gives a new window the keyboard focus of the seat that had input last: seat0's.
            try vnc.park()
            let (demo, w) = try launchDemo(["--style", "bottom-sheet"], in: sway)
            var mark = demo.mark()
            try vnc.key("enter")
            guard expectEvent(demo, "presented", since: mark, "round \(round)") != nil else { return }
            let x = w.rect.x + width / 2, y0 = w.rect.y + sheetTop + 100
            mark = demo.mark()
            // seat0: press on the sheet, 60 pt down, held 6 s, released (vncdo holds the button
            // for its whole run).
            let hold = try vnc.start(["move", String(x), String(y0), "mousedown", "1", "pause", "0.3",
                                      "move", String(x), String(y0 + 30), "pause", "0.05",
                                      "move", String(x), String(y0 + 60), "pause", "6", "mouseup", "1"], delay: 0)
            defer { hold.stop() }
            guard expectEvent(demo, "drag-began", since: mark, "round \(round): seat0's drag") != nil else { return }
            XCTAssertTrue(waitUntil(timeout: 3, interval: 0.05) { sheetTopNow(sway, w) == sheetTop + 60 },
                          "round \(round): the sheet follows seat0 60 pt down")
            // seat1: moves over the sheet (elsewhere, 150 pt further down), presses and releases there.
            try second.send(["move", String(w.rect.x + 100), String(y0 + 150), "pause", "0.1",
                             "move", String(w.rect.x + 120), String(y0 + 200), "mousedown", "1", "pause", "0.2",
                             "move", String(w.rect.x + 120), String(y0 + 250), "pause", "0.1", "mouseup", "1"])
            usleep(500_000)
            XCTAssertEqual(demo.events("drag-ended", since: mark), [], "round \(round): seat1 did not end seat0's drag")
            XCTAssertEqual(demo.events("dismissing", since: mark), [], "round \(round)")
            XCTAssertEqual(sheetTopNow(sway, w), sheetTop + 60, "round \(round): seat1's pointer did not steer the sheet")
            XCTAssertEqual(demo.events("activated", since: mark), [], "round \(round): seat1's click reached nothing")
            // seat0 releases: its drag ends there, back to the detent (60 pt is far from dismissing).
            XCTAssertNotNil(hold.waitForExit(timeout: 15), "round \(round): vncdo ended")
            expectEvent(demo, "drag-ended", since: mark, "round \(round): seat0's release")
            expectEvent(demo, "detent", since: mark, "round \(round): back to the detent")
            XCTAssertEqual(demo.events("drag-ended", since: mark).count, 1, "round \(round)")
            XCTAssertEqual(demo.events("drag-began", since: mark).count, 1, "round \(round)")
            try second.park()
            demo.stop()
        }
    }

    /// The sheet's top in window points, from a settled screenshot (nil: no sheet).
    private func sheetTopNow(_ sway: HeadlessSway, _ w: SwayWindow) -> Int? {
        guard let shot = try? sway.stableScreenshot(timeout: 2, interval: 0.15),
              let edge = sheetEdge(shot, x: w.rect.x + 100, from: w.rect.y, to: w.rect.y + height) else { return nil }
        return edge - w.rect.y
    }

    func testAKeyReleasedDuringAStallEndsItsRepeatBeforeTheRepeatTimer() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let load = try startCPULoad()
        defer { load.stop() }

        for round in 1...3 {
            let (demo, _) = try launchDemo(["--style", "inset-centered"], in: sway)
            var mark = demo.mark()
            try vnc.key("enter")
            guard expectEvent(demo, "presented", since: mark, "round \(round)") != nil else { return }
            mark = demo.mark()
            // Held 0.8 s: past sway's repeat delay (600 ms, then 25 a second), repeats running.
            try vnc.send(["keydown", "a"])
            usleep(800_000)
            XCTAssertEqual(kill(demo.pid, SIGSTOP), 0)
            var continued = false
            defer { if !continued { kill(demo.pid, SIGCONT) } }
            try vnc.send(["keyup", "a"])
            usleep(2_000_000)   // 50 repeat intervals of 40 ms
            // Everything the demo printed before the stop has been read by now.
            let stopped = demo.mark()
            let typedWhileHeld = demo.events("typed", since: mark).count
            XCTAssertEqual(kill(demo.pid, SIGCONT), 0)
            continued = true
            XCTAssertGreaterThanOrEqual(typedWhileHeld, 2, "round \(round): the press and a repeat came before the stop")
            // Another key after the stall: its `typed` line comes after everything the demo did
            // with what it read on waking (the release, the timer's pile of expirations).
            try vnc.key("b")
            let sawB = waitUntil(timeout: eventTimeout, interval: 0.05) {
                demo.events("typed", since: stopped).contains("typed \"b\" 1")
            }
            XCTAssertTrue(sawB, "round \(round): the keyboard works after the stall")
            let after = demo.events("typed", since: stopped).prefix { $0 != "typed \"b\" 1" }
            XCTAssertLessThanOrEqual(after.count, 1, "round \(round): the release ended the repeat (\(after.count) presses after SIGCONT)")
            XCTAssertTrue(after.allSatisfy { $0 == "typed \"a\" 1" }, "round \(round): \(after)")
            usleep(300_000)
            XCTAssertEqual(demo.events("typed", since: stopped).drop { $0 != "typed \"b\" 1" }, ["typed \"b\" 1"],
                           "round \(round): nothing after b")
            demo.stop()
        }
    }
}
