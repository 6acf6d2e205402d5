// The window under a private headless sway (pixman renderer, a lone tiled window of 800x600
// inside a 20 px outer gap, no borders), with real input through wayvnc + vncdo and screenshots
// through grim. Also three rules from the field (docs/design.md): the compositor holds every
// buffer (2), each keymap replaces the last (6), hidden windows get no frame callbacks (7).
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class WindowSwayTests: CompositorTestCase {
    func testWindowMapsWithTitleAppIDAndLogsTheTiledConfigure() throws {
        let sway = try startSway()
        let (demo, window) = try launchDemo([], in: sway)
        // sway's first configure (before the window maps) may be 0×0, which the demo answers with
        // its --size (480x800 by default); the last one is the tile.
        XCTAssertEqual(demo.events("configure").last, "configure 800x600", "sway tiles the lone window to the output")
        for line in demo.events("configure") {
            XCTAssertTrue(["configure 800x600", "configure 480x800"].contains(line), "unexpected \(line)")
        }
        XCTAssertEqual(window.rect, sway.windowArea, "800x600, no borders")
        XCTAssertEqual(window.appID, "modalkit.demo")
        XCTAssertEqual(window.title, "ModalKit")
        XCTAssertNotNil(demo.waitForLine("frame", timeout: eventTimeout), "a frame is committed after the configure")
    }

    /// sway offers xdg-decoration and answers server_side: no client-side title bar (xdg-decoration),
    /// the content is the whole tile and its top rows are the demo's background, not the bar's
    /// #303030/#242424 (README: decorations are server-side where offered).
    func testNoClientSideTitleBarWhereSwayDecorates() throws {
        let sway = try startSway()
        let (demo, window) = try launchDemo([], in: sway)
        XCTAssertEqual(demo.events("configure").last, "configure 800x600", "content = the whole 800x600 tile")
        let shot = try sway.stableScreenshot()
        keep(shot, "window")
        for y in window.rect.y..<(window.rect.y + 28) {
            for x in [window.rect.x + 4, window.rect.x + window.rect.width / 2, window.rect.x + window.rect.width - 14] {
                XCTAssertGreaterThan(shot[x, y].distance(to: RGB(0x30, 0x30, 0x30)), 100, "(\(x), \(y)) is \(shot[x, y])")
            }
        }
    }

    func testScreenshotShowsTheButtonCentredInTheWindow() throws {
        let sway = try startSway()
        let (_, window) = try launchDemo([], in: sway)
        let shot = try sway.stableScreenshot()
        keep(shot, "window")
        guard let button = findButton(in: shot, window: window.rect) else {
            return XCTFail("no strongly coloured button near the centre of \(window.rect); centre pixel \(shot[400, 300]), corner \(shot[2, 598])")
        }
        XCTAssertEqual(button.midX, window.rect.midX, accuracy: 1.5, "button \(button) centred horizontally in \(window.rect)")
        XCTAssertEqual(button.midY, window.rect.midY, accuracy: 1.5, "button \(button) centred vertically in \(window.rect)")
        XCTAssertGreaterThanOrEqual(button.width, 44, "a button, not a speck: \(button)")
        XCTAssertGreaterThanOrEqual(button.height, 20, "\(button)")
        XCTAssertLessThan(button.width, window.rect.width / 2, "a button, not the window: \(button)")
    }

    func testClickOnTheButtonReachesTheApp() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo([], in: sway)
        let mark = demo.mark()
        try vnc.click(x: Int(window.rect.midX), y: Int(window.rect.midY))
        expectEvent(demo, "activated", since: mark)
        expectEvent(demo, "presenting", since: mark)
    }

    func testReturnReachesTheApp() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo([], in: sway)
        let mark = demo.mark()
        try vnc.key("enter")
        expectEvent(demo, "activated", since: mark, "(the Present button has keyboard focus at launch)")
        expectEvent(demo, "presenting", since: mark)
    }

    /// wayvnc's virtual keyboard stamps every key 0: Return presents, and an Escape right after
    /// the presentation (well within a second of Return) dismisses with frames drawn along the
    /// way — at least a third of the transition's 60 Hz frames between `dismissing` and
    /// `dismissed`. Before, the input clock gave the Escape Return's time, and the dismissal,
    /// started that far in the past, ended before its first frame (none drawn).
    func testADismissalByAKeyRightAfterAnotherDrawsItsFrames() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo(["--duration", "0.5"], in: sway)
        let mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        let dismissal = demo.mark()
        try vnc.key("esc")
        guard expectEvent(demo, "dismissed", since: dismissal) != nil else { return }
        let lines = Array(demo.stdoutLines.dropFirst(dismissal))
        guard let start = lines.firstIndex(of: "dismissing"), let end = lines.firstIndex(of: "dismissed") else {
            return XCTFail("no dismissing/dismissed in \(lines)")
        }
        let frames = lines[start..<end].filter { $0.hasPrefix("frame ") }.count
        XCTAssertGreaterThanOrEqual(frames, 10, "frames of a 0.5 s dismissal: \(lines[start...end])")
    }

    func testSwaymsgKillEndsItWithExitZeroWithinOneSecond() throws {
        let sway = try startSway()
        let (demo, _) = try launchDemo([], in: sway)
        _ = demo.waitForLine("frame", timeout: eventTimeout)
        try sway.swaymsg(["[pid=\(demo.pid)] kill"])
        let status = demo.waitForExit(timeout: 1.0)
        XCTAssertEqual(status, .exited(0), "xdg_toplevel.close ends modal-demo with status 0 within 1 s\n\(demo.diagnostics())")
    }

    /// `xdg_toplevel.close` (`swaymsg kill`) after a present/dismiss cycle driven by real input —
    /// a click on Present (the pointer's enter loads a cursor theme), Escape — ends the installed
    /// release modal-demo with status 0, on the default sub-surface backend (layers and their
    /// buffer pools exist) and on `--compositing pixman`: the whole teardown, whatever order the
    /// optimized build releases the window, its connection and their objects in.
    func testCloseAfterAPresentDismissCycleExitsZeroOnBothBackends() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        for (arguments, backend) in [([String](), "subsurface"), (["--compositing", "pixman"], "pixman")] {
            let (demo, window) = try launchDemo(arguments, in: sway)
            guard try presentDismissThenClose(demo, label: backend, frameBackend: backend,
                                              click: { try vnc.click(x: Int(window.rect.midX), y: Int(window.rect.midY)) },
                                              escape: { try vnc.key("esc") },
                                              close: { try sway.swaymsg(["[pid=\(demo.pid)] kill"]) },
                                              closedBy: "xdg_toplevel.close") else { return }
        }
    }

    /// After a present/dismiss cycle (`--autoplay`, no input: the frame that ends the dismissal
    /// asks for no frame callback) the window rests: half a second with nothing presented and no
    /// frame, then it frees its pixel caches (`rest`), on both backends — and draws nothing more.
    func testAfterAPresentDismissCycleTheWindowRestsAndFreesItsCaches() throws {
        let sway = try startSway()
        for (arguments, backend) in [([String](), "subsurface"), (["--compositing", "pixman"], "pixman")] {
            let (demo, _) = try launchDemo(arguments + ["--autoplay"], in: sway)
            guard let dismissed = demo.process.stdout.wait(timeout: 10, { $0.lastIndex(of: "dismissed") }) else {
                return XCTFail("\(backend): no `dismissed`:\n\(demo.diagnostics())")
            }
            // 0.5 s after the last frame; bounded well above that.
            let rest = demo.process.stdout.wait(timeout: 5) { lines in
                lines.dropFirst(dismissed + 1).firstIndex(of: "rest")
            }
            XCTAssertNotNil(rest, "\(backend): the window rests after the dismissal:\n\(demo.diagnostics())")
            if let rest {
                usleep(300_000)
                XCTAssertEqual(demo.events("frame", since: rest), [], "\(backend): nothing drawn at rest")
            }
            demo.stop()
        }
    }

    func testCompositorGoingAwayExitsOneWithOneLine() throws {
        let sway = try startSway()
        let (demo, _) = try launchDemo([], in: sway)
        _ = demo.waitForLine("frame", timeout: eventTimeout)
        sway.stop()
        let status = demo.waitForExit(timeout: 5)
        XCTAssertEqual(status, .exited(1), "lost connection → exit 1\n\(demo.diagnostics())")
        demo.drainOutput()
        XCTAssertEqual(demo.stderrLines.count, 1, "exactly one stderr line: \(demo.stderrLines)")
    }

    /// No font (a fontconfig configuration whose only font directory is empty): the window waits
    /// for its fonts at its first text, in its first frame, and exits 1 with one line there —
    /// no frame committed, the same line as when the fonts were waited for before the window.
    func testWithoutAnyFontTheWindowExitsOneWithOneLineAndNoFrame() throws {
        let dir = try PluginTestSupport.temporaryDirectory(self, "no-fonts")
        try FileManager.default.createDirectory(atPath: dir + "/fonts", withIntermediateDirectories: true)
        try """
        <?xml version="1.0"?>
        <fontconfig><dir>\(dir)/fonts</dir><cachedir>\(dir)/cache</cachedir></fontconfig>
        """.write(toFile: dir + "/fonts.conf", atomically: true, encoding: .utf8)
        let sway = try startSway()
        var env = sway.clientEnvironment
        env["FONTCONFIG_FILE"] = dir + "/fonts.conf"
        let demo = try startDemo(["--log-events"], environment: env)
        XCTAssertEqual(demo.waitForExit(timeout: eventTimeout), .exited(1), demo.diagnostics())
        demo.drainOutput()
        XCTAssertEqual(demo.stderrLines, ["modal-demo: cannot load font 'sans-serif:weight=bold' through fontconfig "
                                          + "(is a font such as fonts-dejavu-core installed?)"])
        XCTAssertEqual(demo.events("frame"), [], "no frame was committed")
    }

    func testIdleWindowUsesNoCPU() throws {
        let sway = try startSway()
        _ = try startVNC(sway)   // a seat with pointer and keyboard, as in a real session
        let (demo, _) = try launchDemo([], in: sway)
        _ = demo.waitForLine("frame", timeout: eventTimeout)
        _ = try sway.stableScreenshot()
        usleep(300_000)
        let ticks = try cpuTicksUsed(by: demo.pid, over: 3)
        XCTAssertLessThanOrEqual(ticks, 1, "an idle window sleeps in poll: \(ticks) ticks of CPU in 3 s")
    }

    func testIdleAfterAPresentDismissCycleWithPointerOnTheButtonUsesNoCPU() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo([], in: sway)
        let mark = demo.mark()
        try vnc.click(x: Int(window.rect.midX), y: Int(window.rect.midY))
        expectEvent(demo, "presented", since: mark)
        try vnc.key("esc")
        expectEvent(demo, "dismissed", since: mark)
        try vnc.move(x: Int(window.rect.midX), y: Int(window.rect.midY))   // hovering the button again
        _ = try sway.stableScreenshot()
        usleep(300_000)
        let ticks = try cpuTicksUsed(by: demo.pid, over: 3)
        XCTAssertLessThanOrEqual(ticks, 1, "nothing animates: \(ticks) ticks of CPU in 3 s")
    }

    /// The compositor may hold every buffer (docs/design.md, rules from the field, 2): headless
    /// sway with the pixman renderer holds both buffers of a double-buffered client. Three full
    /// present/dismiss cycles: no abort, and the same state always looks the same (nothing drawn
    /// into a buffer the compositor still showed).
    func testBusyBuffersFullPresentDismissCyclesWithoutAbortOrGarbage() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo([], in: sway)
        var presentedShots: [RGBImage] = []
        var dismissedShots: [RGBImage] = []
        for cycle in 1...3 {
            let mark = demo.mark()
            try vnc.key("enter")
            guard expectEvent(demo, "presented", since: mark, "cycle \(cycle)") != nil else { return }
            presentedShots.append(try sway.stableScreenshot())
            keep(presentedShots.last!, "presented-\(cycle)")
            try vnc.key("esc")
            guard expectEvent(demo, "dismissed", since: mark, "cycle \(cycle)") != nil else { return }
            dismissedShots.append(try sway.stableScreenshot())
            keep(dismissedShots.last!, "dismissed-\(cycle)")
            XCTAssertTrue(demo.isRunning, "cycle \(cycle): \(demo.diagnostics())")
        }
        XCTAssertEqual(differences(presentedShots[0], presentedShots[1]), [], "presented, cycle 1 vs 2")
        XCTAssertEqual(differences(presentedShots[0], presentedShots[2]), [], "presented, cycle 1 vs 3")
        XCTAssertEqual(differences(dismissedShots[0], dismissedShots[1]), [], "dismissed, cycle 1 vs 2")
        XCTAssertEqual(differences(dismissedShots[0], dismissedShots[2]), [], "dismissed, cycle 1 vs 3")
        XCTAssertNotEqual(presentedShots[0], dismissedShots[0], "presenting changes the picture")
        try sway.swaymsg(["[pid=\(demo.pid)] kill"])
        XCTAssertEqual(demo.waitForExit(timeout: 2), .exited(0), demo.diagnostics())
    }

    /// Every keymap replaces the last (docs/design.md, rules from the field, 6): every wayvnc
    /// brings its own keymap; after each change Escape still dismisses and Return still presents.
    func testKeymapChangesEscapeStillDismisses() throws {
        let sway = try startSway()
        var vnc = try startVNC(sway)
        let (demo, _) = try launchDemo([], in: sway)
        var mark = demo.mark()
        try vnc.key("enter")
        expectEvent(demo, "presented", since: mark)
        for layout in ["de", "fr", "us", "de"] {
            vnc.stop()
            vnc = try startVNC(sway, keyboardLayout: layout)
            mark = demo.mark()
            try vnc.key("esc")
            guard expectEvent(demo, "dismissed", since: mark, "after switching to layout \(layout)") != nil else { return }
            mark = demo.mark()
            try vnc.key("enter")
            guard expectEvent(demo, "presented", since: mark, "after switching to layout \(layout)") != nil else { return }
        }
        // Two keymap changes back to back, then Escape.
        vnc.stop()
        vnc = try startVNC(sway, keyboardLayout: "fr")
        vnc.stop()
        vnc = try startVNC(sway)
        mark = demo.mark()
        try vnc.key("esc")
        expectEvent(demo, "dismissed", since: mark, "after two keymap changes in a row")
        XCTAssertTrue(demo.isRunning, demo.diagnostics())
    }

    /// Hidden windows get no frame callbacks (docs/design.md, rules from the field, 7). Hidden in
    /// the scratchpad in the middle of a transition it uses no CPU; shown again, the transition
    /// ends (from the clock) and input works.
    func testHiddenInScratchpadUsesNoCPUAndWorksWhenShownAgain() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo(["--duration", "2"], in: sway)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presenting", since: mark) != nil else { return }
        try sway.swaymsg(["[pid=\(demo.pid)] move scratchpad"])
        XCTAssertTrue(waitUntil(timeout: 5) { (try? sway.windows())?.first { $0.pid == Int(demo.pid) }?.isVisible == false },
                      "window hidden in the scratchpad")
        usleep(500_000)
        let ticks = try cpuTicksUsed(by: demo.pid, over: 3)
        XCTAssertLessThanOrEqual(ticks, 1, "hidden mid-transition, no frame callbacks: \(ticks) ticks of CPU in 3 s")

        try sway.swaymsg(["[pid=\(demo.pid)] scratchpad show"])
        var shown = try sway.waitForWindow(pid: demo.pid)
        // The 2 s transition began more than 3.5 s ago: shown again, it ends at once.
        expectEvent(demo, "presented", since: mark, "after the window was shown again")
        // Shown as a floating window of another size: wait until the demo has taken that size
        // (its last configure) and sway shows it at that size, then click at its centre.
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.1) {
            guard let w = (try? sway.windows())?.first(where: { $0.pid == Int(demo.pid) && $0.isVisible }),
                  let size = demo.lastConfigureSize else { return false }
            shown = w
            return size.width == w.rect.width && size.height == w.rect.height
        }, "configure \(shown.rect.width)x\(shown.rect.height) after scratchpad show; got \(demo.events("configure"))")
        XCTAssertTrue(shown.isFloating, "scratchpad show makes the window floating")
        mark = demo.mark()
        try vnc.key("esc")
        expectEvent(demo, "dismissed", since: mark, "Escape after scratchpad show")
        mark = demo.mark()
        try vnc.click(x: Int(shown.rect.midX), y: Int(shown.rect.midY))
        expectEvent(demo, "activated", since: mark, "click on the button of the shown window \(shown.rect)")
    }
}
