// What the window shows when a dismissal ends, on the sub-surface backend under headless sway with
// two busy loops competing for the cores (`CPULoad`): UIKit's `dismissalTransitionDidEnd(true)` —
// once `dismissed` is logged, nothing of the presented view or its dim remains, and the window is
// `modal-demo render --progress 0` of its size (±2 per channel), whatever the path to the end: a
// plain dismissal (30 cycles each of bottom-sheet and inset-centered), a presentation reversed
// into a dismissal, a dismissal caught and reversed by a drag then dismissed, and a flick.
// The pointer drives it (a click on Present, a tap on the dim), so no focus ring shows after it
// and the picture is exactly the presenting view at rest.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class DismissalEndStateSwayTests: CompositorTestCase {
    private let width = 800, height = 600
    private var directory = ""

    override func setUpWithError() throws {
        directory = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-end-state")
    }

    override func tearDown() {
        removeTree(directory)
        super.tearDown()
    }

    /// `modal-demo render --style STYLE --size 800x600 --progress 0` (the presenting view alone).
    private func renderedAtRest(_ style: String) throws -> RGBImage {
        let png = directory + "/\(style)-0.png"
        let r = try ChildProcess.run([try DemoProcess.executablePath, "render", "--style", style,
                                      "--size", "\(width)x\(height)", "--progress", "0", "--output", png],
                                     environment: harnessEnvironment(["MODALKIT_REDUCED_MOTION": nil]), timeout: 60)
        guard r.status == .exited(0) else { throw HarnessError("render failed (\(r.status)): \(r.stderr)") }
        defer { unlink(png) }
        return try RGBImage.loadPNG(path: png)
    }

    /// The window once `dismissed` was logged and the screen settled, against `expected`; a
    /// mismatch is kept and returned as one line.
    private func endState(_ sway: HeadlessSway, _ window: PixelBox, _ expected: RGBImage, _ label: String) throws -> String? {
        let shot = try sway.stableScreenshot(timeout: 5, interval: 0.1).cropped(to: window)
        let diff = differences(shot, expected, tolerance: 2, limit: 3)
        guard !diff.isEmpty else { return nil }
        keep(shot, label)
        let box = differenceBox(shot, expected, in: PixelBox(x: 0, y: 0, width: shot.width, height: shot.height))
        return "\(label): \(diff) (differing box \(box.map { "\($0)" } ?? "?"))"
    }

    /// Waits (bounded) for the stdout line `line` itself (a stack level's `presented 2`) at index ≥ `since`.
    private func expectLine(_ demo: DemoProcess, _ line: String, since: Int, _ label: String,
                            file: StaticString = #filePath, lineNumber: UInt = #line) -> Bool {
        let found = demo.process.stdout.wait(timeout: eventTimeout) { $0.dropFirst(since).contains(line) ? true : nil } != nil
        if !found {
            XCTFail("\(label): no `\(line)` within \(eventTimeout) s: \(demo.stdoutLines.suffix(20))", file: file, line: lineNumber)
        }
        return found
    }

    private func launch(_ style: String, _ extra: [String] = [], compositing: String = "subsurface",
                        in sway: HeadlessSway) throws -> (DemoProcess, PixelBox) {
        let (demo, window) = try launchDemo(["--style", style, "--compositing", compositing] + extra, in: sway)
        XCTAssertEqual(window.rect.width, width)
        XCTAssertEqual(window.rect.height, height)
        return (demo, window.rect)
    }

    /// The dismissal's last stretch, where the dim is already 0 (8-bit) while the view still shows
    /// its last rows, and then none of it is inside the window before the dismissal ends, lasts a
    /// few milliseconds at 0.35 s (ease-in-out); at 0.5 s a frame lands in it in about one cycle of
    /// four, so a stale row shows before the fix in every run of 30 cycles.
    private let duration = "0.5"

    func testThirtyDismissalsOfEachStyleEndOnTheRenderOfProgressZeroUnderLoad() throws {
        try dismissals(30, compositing: "subsurface")
    }

    /// The same rule on the pixman backend (the whole frame in the window's buffer): the frame that
    /// ends the dismissal is the presenting view alone.
    func testDismissalsOnThePixmanBackendEndOnTheRenderOfProgressZeroUnderLoad() throws {
        try dismissals(10, compositing: "pixman")
    }

    private func dismissals(_ count: Int, compositing: String) throws {
        let sway = try startSway(windowWidth: width, windowHeight: height)
        let vnc = try startVNC(sway)
        _ = try startCPULoad()
        let started = monotonicNow()
        for style in ["bottom-sheet", "inset-centered"] {
            let expected = try renderedAtRest(style)
            let (demo, w) = try launch(style, ["--duration", duration], compositing: compositing, in: sway)
            var failures: [String] = []
            for cycle in 1...count {
                let mark = demo.mark()
                try vnc.send(presentClick(w))
                guard expectEvent(demo, "presented", since: mark, "\(style) cycle \(cycle)") != nil else { return }
                try vnc.send(dimTap(w, sway))
                guard expectEvent(demo, "dismissed", since: mark, "\(style) cycle \(cycle)") != nil else { return }
                if let f = try endState(sway, w, expected, "\(style)-\(cycle)") {
                    failures.append(f + "; frames: \(demo.stdoutLines.dropFirst(mark).suffix(6))")
                }
            }
            XCTAssertEqual(failures, [], "\(style) (\(compositing)): \(failures.count) of \(count) dismissals left something on screen")
            demo.stop()
        }
        print("DismissalEndStateSwayTests: \(2 * count) cycles (\(compositing)) in \(String(format: "%.1f", monotonicNow() - started)) s")
    }

    /// The other paths to `dismissed`, 5 times each on the bottom sheet under load: a tap on the
    /// dim while the sheet still rises (the presentation reverses into a dismissal from where it
    /// is), and a flick down on the presented sheet (its spring carries it out of the window).
    func testAReversedPresentationAndAFlickEndOnTheRenderOfProgressZeroUnderLoad() throws {
        let sway = try startSway(windowWidth: width, windowHeight: height)
        let vnc = try startVNC(sway)
        _ = try startCPULoad()
        let started = monotonicNow()
        let expected = try renderedAtRest("bottom-sheet")
        let (demo, w) = try launch("bottom-sheet", ["--duration", "1"], in: sway)
        var failures: [String] = []
        for cycle in 1...5 {
            // Reversed: the tap comes 0.3 s into the 1 s presentation (the sheet far below its place).
            var mark = demo.mark()
            try vnc.send(presentClick(w) + ["pause", "0.3"] + dimTap(w, sway))
            guard expectEvent(demo, "dismissed", since: mark, "reversed, cycle \(cycle)") != nil else { return }
            XCTAssertEqual(demo.events("presented", since: mark), [], "cycle \(cycle): the tap came before `presented`")
            if let f = try endState(sway, w, expected, "reversed-\(cycle)") { failures.append(f) }
            // A flick: pressed 150 pt into the presented sheet, 200 pt down in 60 ms, released.
            mark = demo.mark()
            try vnc.send(presentClick(w))
            guard expectEvent(demo, "presented", since: mark, "flick, cycle \(cycle)") != nil else { return }
            let x = String(w.x + w.width / 2), y0 = w.y + 450
            var flick = ["move", x, String(y0), "mousedown", "1"]
            for i in 1...6 { flick += ["pause", "0.01", "move", x, String(y0 + i * 33)] }
            try vnc.send(flick + ["mouseup", "1", "move", String(sway.parkingSpot.x), String(sway.parkingSpot.y)], delay: 0)
            guard expectEvent(demo, "dismissed", since: mark, "flick, cycle \(cycle)") != nil else { return }
            XCTAssertEqual(demo.events("drag-began", since: mark).count, 1, "cycle \(cycle): a drag")
            if let f = try endState(sway, w, expected, "flick-\(cycle)") { failures.append(f) }
        }
        XCTAssertEqual(failures, [], "\(failures.count) of 10 dismissals left something on screen")
        print("DismissalEndStateSwayTests: reversed and flicked, 10 cycles in \(String(format: "%.1f", monotonicNow() - started)) s")
    }

    /// A click on the Present button (the window's centre).
    private func presentClick(_ w: PixelBox) -> [String] {
        ["move", String(w.x + w.width / 2), String(w.y + w.height / 2), "click", "1"]
    }

    /// A tap on the dim for both styles — above the card (y 110) and the sheet (y 300) —, then the
    /// pointer parked off the window (no cursor in the screenshot, no hover).
    private func dimTap(_ w: PixelBox, _ sway: HeadlessSway) -> [String] {
        ["move", String(w.x + w.width / 2), String(w.y + 60), "click", "1",
         "move", String(sway.parkingSpot.x), String(sway.parkingSpot.y)]
    }

    /// A covered level's change reaches the screen once the level above leaves: two bottom sheets,
    /// Return presents level 1, Tab focuses its Present another; then, six times, Return presents
    /// level 2 and Escape dismisses it — focus is back on Present another and its focus ring
    /// shows. Under load on the sub-surface backend, each time equal (±2 per channel) to the
    /// pixman backend's window in the same state, and a frame follows every `dismissed 2` (level 1
    /// drawn again). Level 2 takes 1.5 s (`duration=1.5`): a key's compositor time can lie up to a
    /// second before it is read (``InputClock``'s base), and the dismissal must still have frames,
    /// its last ones with the sheet wholly below the window.
    func testTheLevelBelowIsRedrawnWhenTheLevelAboveLeavesUnderLoad() throws {
        let sway = try startSway(windowWidth: width, windowHeight: height)
        let vnc = try startVNC(sway)
        _ = try startCPULoad()
        let started = monotonicNow()
        let arguments = ["--style", "bottom-sheet", "--style", "bottom-sheet", "--style-option", "duration=1.5"]
        /// Presents level 1 and focuses its Present another.
        func start(_ demo: DemoProcess) throws -> Bool {
            let mark = demo.mark()
            try vnc.key("enter")
            guard expectEvent(demo, "presented", since: mark) != nil else { return false }
            try vnc.key("tab")
            return true
        }
        /// Presents level 2 from the focused Present another, dismisses it and returns the settled window.
        func round(_ demo: DemoProcess, _ w: PixelBox, _ label: String) throws -> RGBImage? {
            let mark = demo.mark()
            try vnc.key("enter")
            guard expectLine(demo, "presented 2", since: mark, label) else { return nil }
            let gone = demo.mark()
            try vnc.key("esc")
            guard expectLine(demo, "dismissed 2", since: gone, label) else { return nil }
            let shot = try sway.stableScreenshot(timeout: 5, interval: 0.1).cropped(to: w)
            let after = Array(demo.stdoutLines.dropFirst(gone))
            if let d = after.firstIndex(of: "dismissed 2") {
                XCTAssertTrue(after[(d + 1)...].contains { DemoProcess.firstWord($0) == "frame" },
                              "\(label): a frame follows `dismissed 2` (level 1 drawn with its focus ring): \(after.suffix(8))")
            }
            return shot
        }
        let (pixman, pw) = try launchDemo(arguments + ["--compositing", "pixman"], in: sway)
        guard try start(pixman), let reference = try round(pixman, pw.rect, "pixman") else { return }
        keep(reference, "pixman")
        pixman.stop()
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) { (try? sway.windows())?.isEmpty == true })
        let (demo, w) = try launchDemo(arguments + ["--compositing", "subsurface"], in: sway)
        guard try start(demo) else { return }
        var failures: [String] = []
        for n in 1...6 {
            guard let shot = try round(demo, w.rect, "subsurface round \(n)") else { return }
            let diff = differences(shot, reference, tolerance: 2, limit: 3)
            if !diff.isEmpty {
                keep(shot, "subsurface-\(n)")
                failures.append("round \(n): \(diff)")
            }
        }
        XCTAssertEqual(failures, [], "the sub-surface window after `dismissed 2` vs the pixman window")
        print("DismissalEndStateSwayTests: stack, 7 rounds in \(String(format: "%.1f", monotonicNow() - started)) s")
    }
}
