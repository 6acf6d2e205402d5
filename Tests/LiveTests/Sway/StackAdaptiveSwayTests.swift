// Stacked presentations and the adaptive style, live under headless sway: real keys through
// wayvnc + vncdo, events from --log-events (a level n > 1 appends " n"), screenshots from grim
// checked against the expected dims and against `modal-demo render` of the same size and stack.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class StackAdaptiveSwayTests: CompositorTestCase {
    // MARK: helpers

    /// Waits (bounded) for a stdout line equal to `line` at index ≥ `since` (first words are not
    /// enough here: `presented` and `presented 2` share one).
    @discardableResult
    private func expectLine(_ demo: DemoProcess, _ line: String, since: Int, _ message: String = "",
                            file: StaticString = #filePath, line l: UInt = #line) -> Bool {
        let found = demo.process.stdout.wait(timeout: eventTimeout) { lines in
            lines.dropFirst(since).contains(line) ? true : nil
        } ?? false
        if !found {
            XCTFail("no `\(line)` line within \(eventTimeout) s \(message)\nstdout so far: \(demo.stdoutLines.suffix(30))",
                    file: file, line: l)
        }
        return found
    }

    /// Event lines (not frames or configures) since `since`.
    private func eventLines(_ demo: DemoProcess, since: Int) -> [String] {
        demo.stdoutLines.dropFirst(since).filter { !["frame", "configure"].contains(DemoProcess.firstWord($0)) }
    }

    /// Makes the demo's window floating at `width`×`height` at the output's top-left margin and
    /// waits until the demo configured to that size and drew a frame after it.
    private func floatWindow(_ demo: DemoProcess, _ sway: HeadlessSway, width: Int, height: Int,
                             file: StaticString = #filePath, line: UInt = #line) throws -> PixelBox {
        try sway.swaymsg(["[pid=\(demo.pid)] floating enable, resize set \(width) \(height), move position 20 20"])
        return try waitForSize(demo, sway, width: width, height: height, file: file, line: line)
    }

    private func waitForSize(_ demo: DemoProcess, _ sway: HeadlessSway, width: Int, height: Int,
                             file: StaticString = #filePath, line: UInt = #line) throws -> PixelBox {
        var rect = PixelBox(x: 0, y: 0, width: 0, height: 0)
        let ok = waitUntil(timeout: eventTimeout, interval: 0.05) {
            guard let w = (try? sway.windows())?.first(where: { $0.pid == Int(demo.pid) && $0.isVisible }) else { return false }
            rect = w.rect
            let lines = demo.stdoutLines
            guard w.rect.width == width, w.rect.height == height,
                  let c = lines.lastIndex(where: { DemoProcess.firstWord($0) == "configure" }),
                  let size = DemoProcess.parseSize(lines[c]), size.width == width, size.height == height
            else { return false }
            return lines[(c + 1)...].contains { DemoProcess.firstWord($0) == "frame" }
        }
        guard ok else {
            throw HarnessError("window not \(width)x\(height) (configure and frame) within \(eventTimeout) s; \(rect); \(demo.diagnostics())")
        }
        return rect
    }

    /// The area around the Present button (its focus ring and shadow), where the live window and
    /// `render` (no focus ring) may differ, window pixels.
    private func buttonArea(width: Int, height: Int) -> PixelBox {
        PixelBox(x: width / 2 - 150, y: height / 2 - 60, width: 300, height: 120)
    }

    /// The live window equals `modal-demo render` of `styles` (a stack when more than one) at its
    /// size, progress 1, within ±2 per channel, outside the button area.
    private func checkMatchesRender(_ styles: [String], shot: RGBImage, window w: PixelBox, _ label: String,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-render")
        defer { removeTree(dir) }
        let png = dir + "/presented.png"
        var args = [try DemoProcess.executablePath, "render"]
        for s in styles { args += ["--style", s] }
        args += ["--size", "\(w.width)x\(w.height)", "--progress", "1", "--output", png]
        let r = try ChildProcess.run(args, environment: harnessEnvironment([:]), timeout: 60)
        guard r.status == .exited(0) else {
            return XCTFail("modal-demo render failed (\(r.status)): \(r.stderr)", file: file, line: line)
        }
        let rendered = try RGBImage.loadPNG(path: png)
        keep(rendered, "render-" + label)
        let area = buttonArea(width: w.width, height: w.height)
        XCTAssertEqual(differences(shot.cropped(to: w), rendered, excluding: area, tolerance: 2), [],
                       "\(label): live window vs `render \(styles) --size \(w.width)x\(w.height) --progress 1` (outside \(area))",
                       file: file, line: line)
    }

    // MARK: the stack

    /// Return presents level 1 (inset-centered); Tab focuses Present another and Return presents
    /// level 2 (bottom-sheet) over it: two dims where both cover the background (background × 0.5
    /// × 0.6), level 1's card under the second dim (white × 0.6), the sheet on top. Escape dismisses
    /// only level 2 (level 1 stays presented and keeps focus on Present another: Return presents
    /// level 2 again), then Escape dismisses level 1.
    func testTwoLevelStackTwoDimsEscapeDismissesOnlyTheTopAndFocusReturns() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(["--style", "inset-centered", "--style", "bottom-sheet"], in: sway)
        let w = window.rect
        let reference = try sway.stableScreenshot()
        keep(reference, "before")

        var mark = demo.mark()
        try vnc.key("enter")
        guard expectLine(demo, "presented", since: mark) else { return }
        mark = demo.mark()
        try vnc.send(["key", "tab", "key", "enter"])
        expectLine(demo, "presenting 2", since: mark)
        guard expectLine(demo, "presented 2", since: mark) else { return }
        XCTAssertEqual(eventLines(demo, since: mark), ["presenting 2", "presented 2"], "level 1's lines unchanged: none")
        let shot = try sway.stableScreenshot()
        keep(shot, "two-levels")

        // Where both dims cover the background: above card 1 (y < 110) — the sheet's top is at H/2.
        var bad: [String] = []
        for y in stride(from: w.y + 2, to: w.y + 106, by: 7) {
            for x in stride(from: w.x + 2, to: w.x + w.width - 2, by: 13) {
                let expected = reference[x, y].dimmed(byBlackAlpha: 0.5).dimmed(byBlackAlpha: 0.4)
                if shot[x, y].distance(to: expected) > 2 { bad.append("(\(x), \(y)) \(shot[x, y]) vs \(expected)") }
            }
        }
        XCTAssertEqual(Array(bad.prefix(5)), [], "background × 0.5 (inset-centered) × 0.6 (bottom-sheet) ±2")
        // Card 1 (white, x 20…W−20, y 110…) under the second dim only: 255 × 0.6 = 153.
        assertPixel(shot, w.x + w.width / 2, w.y + 200, near: RGB(153, 153, 153), tolerance: 2,
                    "card 1's white interior under the bottom sheet's dim")
        assertPixel(shot, w.x + 10, w.y + 200, near: reference[w.x + 10, w.y + 200].dimmed(byBlackAlpha: 0.5).dimmed(byBlackAlpha: 0.4),
                    tolerance: 2, "left of card 1: both dims")
        // The sheet (level 2) on top: white, undimmed, from H/2 down, the window's width up to 640 pt
        // (Material 3's cap), centred; beside it at the bottom, the background under both dims.
        let sheetLeft = w.x + (w.width - min(w.width, 640)) / 2
        assertPixel(shot, sheetLeft + 5, w.y + w.height - 5, near: RGB(255, 255, 255), tolerance: 2, "the sheet, undimmed")
        if sheetLeft - w.x > 10 {
            assertPixel(shot, sheetLeft - 5, w.y + w.height - 5,
                        near: reference[sheetLeft - 5, w.y + w.height - 5].dimmed(byBlackAlpha: 0.5).dimmed(byBlackAlpha: 0.4),
                        tolerance: 2, "left of the capped sheet: both dims")
        }
        assertPixel(shot, w.x + w.width / 2, w.y + w.height / 2 + 3, near: RGB(255, 255, 255), tolerance: 2,
                    "the sheet's top edge at H/2")
        try checkMatchesRender(["inset-centered", "bottom-sheet"], shot: shot, window: w, "two-levels")

        mark = demo.mark()
        try vnc.key("esc")
        expectLine(demo, "dismissing 2", since: mark)
        guard expectLine(demo, "dismissed 2", since: mark) else { return }
        usleep(300_000)
        XCTAssertEqual(eventLines(demo, since: mark), ["dismissing 2", "dismissed 2"], "Escape dismisses only level 2")
        let one = try sway.stableScreenshot()
        keep(one, "level-1-again")
        assertPixel(one, w.x + w.width / 2, w.y + 200, near: RGB(255, 255, 255), tolerance: 2,
                    "card 1 undimmed again")
        assertPixel(one, w.x + w.width / 2, w.y + 60,
                    near: reference[w.x + w.width / 2, w.y + 60].dimmed(byBlackAlpha: 0.5), tolerance: 2,
                    "one dim left above card 1")

        // Focus returned to Present another: Return presents level 2 again.
        mark = demo.mark()
        try vnc.key("enter")
        guard expectLine(demo, "presented 2", since: mark, "Return on the Present another that got focus back") else { return }
        mark = demo.mark()
        try vnc.key("esc")
        guard expectLine(demo, "dismissed 2", since: mark) else { return }
        mark = demo.mark()
        try vnc.key("esc")
        expectLine(demo, "dismissed", since: mark)
        XCTAssertEqual(eventLines(demo, since: mark), ["dismissing", "dismissed"])
    }

    /// With two levels presented in a floating window, a resize reframes both: the window equals
    /// `render` of the stack at the new size.
    func testResizeWithTwoLevelsReframesBoth() throws {
        let sway = try startSway(windowWidth: 1040, windowHeight: 740)
        let vnc = try startVNC(sway)
        // The layout of both levels across the resize, drawn by pixman. With sub-surfaces, headless
        // sway 1.7 shows this floating window's first pixel column undimmed after the resize (a
        // known gap, docs/design.md, "Compositor-side composition"; not yet pinned down to the client or
        // the compositor).
        let (demo, _) = try launchDemo(["--style", "inset-centered", "--style", "bottom-sheet", "--compositing", "pixman"],
                                       in: sway)
        _ = try floatWindow(demo, sway, width: 1000, height: 700)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectLine(demo, "presented", since: mark) else { return }
        mark = demo.mark()
        try vnc.send(["key", "tab", "key", "enter"])
        guard expectLine(demo, "presented 2", since: mark) else { return }
        mark = demo.mark()
        try sway.swaymsg(["[pid=\(demo.pid)] resize set 600 500"])
        let rect = try waitForSize(demo, sway, width: 600, height: 500)
        let shot = try sway.stableScreenshot()
        keep(shot, "resized")
        XCTAssertEqual(eventLines(demo, since: mark), [], "a resize changes no state")
        try checkMatchesRender(["inset-centered", "bottom-sheet"], shot: shot, window: rect, "resized")
    }

    // MARK: the adaptive style across its breakpoint

    /// A floating window presented with `adaptive` at 1000×700 (a centred card 560 wide) resized to
    /// 400×700 morphs into the bottom sheet of the new size — the screenshot equals `render` of it
    /// (±2) and no state line is printed — and back to the card at 1000×700.
    func testAdaptiveMorphsAcrossTheBreakpointWithoutDismissing() throws {
        let sway = try startSway(windowWidth: 1040, windowHeight: 740)
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo(["--style", "adaptive"], in: sway)
        let card = try floatWindow(demo, sway, width: 1000, height: 700)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectLine(demo, "presented", since: mark) else { return }
        let first = try sway.stableScreenshot()
        keep(first, "card")
        try checkMatchesRender(["adaptive"], shot: first, window: card, "card")
        // The card: 560 wide centred (x 220…780), 0.6 × 700 = 420 tall centred (y 140…560).
        assertPixel(first, card.x + 222, card.y + 350, near: RGB(255, 255, 255), tolerance: 2, "card's left edge x = 220")
        XCTAssertGreaterThan(first[card.x + 218, card.y + 350].distance(to: RGB(255, 255, 255)), 50, "left of the card")

        for (w, h, label) in [(400, 700, "sheet"), (1000, 700, "card-again")] {
            mark = demo.mark()
            try sway.swaymsg(["[pid=\(demo.pid)] resize set \(w) \(h)"])
            let rect = try waitForSize(demo, sway, width: w, height: h)
            usleep(400_000)   // the 0.25 s morph
            let shot = try sway.stableScreenshot()
            keep(shot, label)
            try checkMatchesRender(["adaptive"], shot: shot, window: rect, label)
            let white = RGB(255, 255, 255)
            if w == 400 {
                // The sheet: full width from y = 350 (half of 700) down, square bottom corners.
                assertPixel(shot, rect.x + 200, rect.y + 352, near: white, tolerance: 2, "sheet's top at y = 350")
                XCTAssertGreaterThan(shot[rect.x + 200, rect.y + 346].distance(to: white), 50, "dim above the sheet")
                assertPixel(shot, rect.x + 1, rect.y + 698, near: white, tolerance: 2, "sheet's square bottom-left corner")
                assertPixel(shot, rect.x + 398, rect.y + 500, near: white, tolerance: 2, "sheet reaches the right edge")
            } else {
                assertPixel(shot, rect.x + 222, rect.y + 350, near: white, tolerance: 2, "card's left edge x = 220")
                XCTAssertGreaterThan(shot[rect.x + 218, rect.y + 350].distance(to: white), 50, "left of the card")
                XCTAssertGreaterThan(shot[rect.x + 500, rect.y + 600].distance(to: white), 50, "below the card (y > 560)")
            }
            XCTAssertEqual(eventLines(demo, since: mark), [], "\(label): the morph prints no state line")
        }
        mark = demo.mark()
        try vnc.key("esc")
        expectLine(demo, "dismissed", since: mark)
    }
}
