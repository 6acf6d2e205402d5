// modal-demo under KDE's KWin 5.27 (a private `kwin_wayland --virtual`, see HeadlessKWin): real
// pointer, keyboard and touch input through org_kde_kwin_fake_input, screenshots through
// org.kde.KWin.ScreenShot2, window rectangles from KWin scripts. KWin offers xdg-decoration and
// decorates server-side (a Breeze title bar), so the client draws no title bar of its own.
// Every demo runs with WAYLAND_DEBUG=1: its whole protocol log must show no protocol error.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class WindowKWinTests: CompositorTestCase {
    /// The content size the demo asks for (`--size`); KWin leaves the size to a new window (its
    /// first configure is 0×0) and centres it, title bar included, on the 800×600 output.
    private let contentWidth = 600
    private let contentHeight = 500
    /// Where the pointer rests when it must not touch the window: the output's top-left corner,
    /// left of and above the centred window (and its title bar).
    private let parkingSpot = (x: 2.0, y: 2.0)
    /// The client-side title bar's colours (README, ModalKitWaylandClient TitleBar), which must not show.
    private let clientBarColors = [RGB(0x30, 0x30, 0x30), RGB(0x24, 0x24, 0x24)]

    // MARK: tests

    /// A click on Present presents; presented, the window's content is exactly
    /// `modal-demo render --progress 1` of the content size (the screenshot has no cursor); a
    /// click on the dim dismisses without reaching the button.
    func testClickPresentsTheWindowEqualsRenderAndADimClickDismisses() throws {
        let kwin = try startKWin()
        let (demo, window) = try launchDemo(in: kwin)
        let content = window.buffer.pixels()
        let before = try kwin.stableScreenshot()
        keep(before, "before")
        guard let button = findButton(in: before, window: content) else {
            return XCTFail("no Present button near the centre of the content \(content)")
        }
        var mark = demo.mark()
        try kwin.driver.click(x: button.midX, y: button.midY)
        expectEvent(demo, "activated", since: mark)
        expectEvent(demo, "presenting", since: mark)
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        let shot = try kwin.stableScreenshot()
        keep(shot, "presented")
        let rendered = try render(progress: 1)
        keep(rendered, "render")
        // The pointer still rests on the button (under the card): KWin's screenshot leaves the
        // cursor out, so nothing needs to be excluded.
        XCTAssertEqual(differences(shot.cropped(to: content), rendered, tolerance: 2), [],
                       "presented content vs `render --progress 1` at \(contentWidth)x\(contentHeight)")

        mark = demo.mark()
        let dim = (x: window.buffer.x + window.buffer.width / 2, y: window.buffer.y + 60)
        try kwin.driver.click(x: dim.x, y: dim.y)
        expectEvent(demo, "dismissing", since: mark, "click on the dim at \(dim)")
        expectEvent(demo, "dismissed", since: mark, "click on the dim at \(dim)")
        XCTAssertEqual(demo.events("activated", since: mark), [], "the click on the dim never reaches the button")
        assertCleanProtocolLog(demo)
    }

    /// Return presents (the button has keyboard focus at launch), Escape dismisses; a click on
    /// Breeze's close button (xdg_toplevel.close) ends modal-demo with status 0, and the whole
    /// run's protocol log has no error.
    func testReturnPresentsEscapeDismissesAndTheCloseButtonEndsItWithStatusZero() throws {
        let kwin = try startKWin()
        let (demo, window) = try launchDemo(in: kwin)
        var mark = demo.mark()
        try kwin.driver.key(.enter)
        expectEvent(demo, "presenting", since: mark)
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        mark = demo.mark()
        try kwin.driver.key(.escape)
        expectEvent(demo, "dismissing", since: mark)
        guard expectEvent(demo, "dismissed", since: mark) != nil else { return }

        let shot = try kwin.stableScreenshot()
        keep(shot, "before-close")
        guard let close = closeButton(in: shot, window: window) else {
            return XCTFail("no close button glyph at the right end of KWin's title bar above \(window.buffer)")
        }
        try kwin.driver.click(x: close.midX, y: close.midY)
        XCTAssertEqual(demo.waitForExit(timeout: eventTimeout), .exited(0),
                       "the close button at \(close) ends modal-demo with status 0\n\(demo.diagnostics())")
        demo.drainOutput()
        assertCleanProtocolLog(demo)
    }

    /// KWin's close (`closeWindow()` from a KWin script, as its close button and Alt+F4 do: it sends
    /// `xdg_toplevel.close`) after a present/dismiss cycle driven by real input — a click on
    /// Present (the pointer's enter loads a cursor theme), Escape — ends the installed release
    /// modal-demo with status 0, on the default sub-surface backend and on `--compositing pixman`,
    /// with no protocol error in the whole run. KWin offers fractional-scale-v1, so the sub-surface
    /// backend's window sizes its buffers through a viewport, and its layers' buffers are shown 1:1
    /// through theirs: its frame lines say `backend=subsurface`.
    func testCloseAfterAPresentDismissCycleExitsZeroOnBothBackends() throws {
        let kwin = try startKWin()
        let runs = [(arguments: [String](), label: "default (sub-surface)", frames: "subsurface"),
                    (arguments: ["--compositing", "pixman"], label: "pixman", frames: "pixman")]
        for (arguments, label, frameBackend) in runs {
            let (demo, window) = try launchDemo(in: kwin, contentWidth: contentWidth, contentHeight: contentHeight,
                                                arguments: arguments)
            if arguments.isEmpty {
                XCTAssertTrue(demo.stderrLines.contains { $0.contains("wp_fractional_scale_manager_v1@") && $0.contains(".get_fractional_scale(") },
                              "KWin offers fractional-scale-v1 and the window uses it")
            }
            let content = window.buffer.pixels()
            guard try presentDismissThenClose(demo, label: label, frameBackend: frameBackend,
                                              click: { try kwin.driver.click(x: content.midX, y: content.midY) },
                                              escape: { try kwin.driver.key(.escape) },
                                              close: { try kwin.closeWindows(pid: demo.pid) },
                                              closedBy: "KWin's close") else { return }
            demo.drainOutput()
            XCTAssertTrue(demo.stderrLines.contains { $0.contains("xdg_toplevel@") && $0.hasSuffix(".close()") },
                          "\(label): the demo received xdg_toplevel.close")
            assertCleanProtocolLog(demo)
        }
    }

    /// KWin decorates: xdg-decoration's configure says server_side (mode 2); the window's content
    /// is exactly the demo's size with KWin's title bar above it, and the content is the demo's
    /// scene only — pixel for pixel `modal-demo render --progress 0`, no client title bar in it.
    func testKWinDrawsTheTitleBarAndTheClientDrawsNone() throws {
        let kwin = try startKWin()
        let (demo, window) = try launchDemo(in: kwin)
        let log = demo.stderrLines
        XCTAssertTrue(log.contains { $0.contains("zxdg_toplevel_decoration_v1@") && $0.contains(".configure(2)") },
                      "xdg-decoration configure with mode 2 (server_side) in the protocol log")
        XCTAssertFalse(log.contains { $0.contains("zxdg_toplevel_decoration_v1@") && $0.contains(".configure(1)") },
                       "never client_side")
        XCTAssertEqual(window.buffer.width, Double(contentWidth), "content = the asked size, no client decoration")
        XCTAssertEqual(window.buffer.height, Double(contentHeight), "content = the asked size, no client title bar (+28)")
        XCTAssertEqual(window.frame.x, window.buffer.x, "no side borders")
        XCTAssertEqual(window.frame.width, window.buffer.width, "no side borders")
        XCTAssertGreaterThan(window.buffer.y, window.frame.y, "KWin's title bar above the content: frame \(window.frame), content \(window.buffer)")
        XCTAssertEqual(window.frame.y + window.frame.height, window.buffer.y + window.buffer.height, "no bottom border")

        let shot = try kwin.stableScreenshot()
        keep(shot, "window")
        let content = window.buffer.pixels()
        for y in content.y..<(content.y + 28) {
            for x in [content.x + 4, content.x + content.width / 2, content.x + content.width - 14] {
                for bar in clientBarColors {
                    XCTAssertGreaterThan(shot[x, y].distance(to: bar), 100, "(\(x), \(y)) is \(shot[x, y]): a client title bar colour")
                }
            }
        }
        XCTAssertNotNil(closeButton(in: shot, window: window), "KWin's title bar with its buttons above the content")
        let rendered = try render(progress: 0)
        keep(rendered, "render")
        XCTAssertEqual(differences(shot.cropped(to: content), rendered, tolerance: 2), [],
                       "the content is the demo's scene (`render --progress 0`), nothing drawn above it")
        assertCleanProtocolLog(demo)
    }

    /// Touch for real (wl_touch): a tap on Present presents, a tap on the dim dismisses.
    func testTouchTapOnPresentPresentsAndATouchTapOnTheDimDismisses() throws {
        let kwin = try startKWin()
        let (demo, window) = try launchDemo(in: kwin)
        let content = window.buffer.pixels()
        guard let button = findButton(in: try kwin.stableScreenshot(), window: content) else {
            return XCTFail("no Present button near the centre of the content \(content)")
        }
        var mark = demo.mark()
        try kwin.driver.tap(x: button.midX, y: button.midY)
        expectEvent(demo, "activated", since: mark, "touch tap on the button at \(button)")
        guard expectEvent(demo, "presented", since: mark, "touch tap on the button at \(button)") != nil else { return }
        mark = demo.mark()
        let dim = (x: window.buffer.x + window.buffer.width / 2, y: window.buffer.y + 60)
        try kwin.driver.tap(x: dim.x, y: dim.y, id: 1)
        expectEvent(demo, "dismissing", since: mark, "touch tap on the dim at \(dim)")
        expectEvent(demo, "dismissed", since: mark, "touch tap on the dim at \(dim)")
        XCTAssertEqual(demo.events("activated", since: mark), [], "the tap on the dim never reaches the button")
        XCTAssertTrue(demo.stderrLines.contains { $0.contains("wl_touch@") && $0.contains(".down(") },
                      "the taps came as wl_touch events")
        assertCleanProtocolLog(demo)
    }

    /// Fractional scale (wp_fractional_scale_v1 + wp_viewporter): at `--scale 1.5` KWin sends
    /// `preferred_scale(180)` (1.5 × 120); the window then draws a buffer of round(401 × 1.5) ×
    /// round(301 × 1.5) = 602×452 pixels at buffer scale 1 and maps it onto 401×301 points with
    /// `wp_viewport.set_destination` (the protocol's rule). On screen, in device pixels, the content
    /// is pixel for pixel `modal-demo render --scale 1.5` of the same size, dismissed and presented.
    func testAtFractionalScaleTheWindowDrawsAtOnePointFiveAndEqualsRender() throws {
        let (width, height, scale) = (401, 301, 1.5)
        let kwin = try startKWin(scale: scale)
        let (demo, window) = try launchDemo(in: kwin, contentWidth: width, contentHeight: height)
        let log = demo.stderrLines
        XCTAssertTrue(log.contains { $0.contains("wp_fractional_scale_v1@") && $0.contains(".preferred_scale(180)") },
                      "KWin announces 1.5 (180/120)")
        XCTAssertTrue(log.contains { $0.contains("wp_viewport@") && $0.contains(".set_destination(401, 301)") },
                      "the viewport maps the buffer onto the 401x301 points")
        XCTAssertTrue(log.contains { $0.contains("create_buffer(") && $0.contains(", 602, 452, 2408, ") },
                      "a 602x452 buffer (stride 602 × 4)")
        // The window's own surface: the one given a role by xdg_wm_base.get_xdg_surface.
        let main = log.lazy.compactMap { line -> String? in
            guard line.contains("get_xdg_surface("), let at = line.range(of: "wl_surface@", options: .backwards) else { return nil }
            return "wl_surface@" + line[at.upperBound...].prefix { $0.isNumber } + "."
        }.first
        XCTAssertNotNil(main, "get_xdg_surface in the protocol log")
        if let main {
            XCTAssertFalse(log.contains { $0.contains("-> " + main + "set_buffer_scale(") },
                           "no set_buffer_scale on the window surface \(main) on the fractional path")
        }

        XCTAssertEqual(window.buffer.width, Double(width), "window \(window.buffer)")
        XCTAssertEqual(window.buffer.height, Double(height), "window \(window.buffer)")
        let before = try kwin.stableScreenshot()
        keep(before, "dismissed")
        let renderedBefore = try render(progress: 0, width: width, height: height, scale: scale)
        keep(renderedBefore, "render-0")
        // The buffer's 602×452 pixels are shown 1:1 from the window's position × 1.5. KWin keeps
        // window positions in fractional points and its script API prints them rounded, so the
        // device-pixel origin is found within a pixel of the rounded one: the one where the
        // screenshot shows the rendered frame (nothing else on screen looks like it).
        let guess = (x: Int((window.buffer.x * scale).rounded()), y: Int((window.buffer.y * scale).rounded()))
        let origins = (-2...2).flatMap { dy in (-2...2).map { dx in (x: guess.x + dx, y: guess.y + dy) } }
        let content = origins.map { PixelBox(x: $0.x, y: $0.y, width: 602, height: 452) }
            .first { differences(before.cropped(to: $0), renderedBefore, tolerance: 2).isEmpty }
            ?? PixelBox(x: guess.x, y: guess.y, width: 602, height: 452)
        XCTAssertEqual(differences(before.cropped(to: content), renderedBefore, tolerance: 2), [],
                       "dismissed content vs `render --scale 1.5 --progress 0`")

        let mark = demo.mark()
        try kwin.driver.key(.enter)
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        let presented = try kwin.stableScreenshot()
        keep(presented, "presented")
        let renderedPresented = try render(progress: 1, width: width, height: height, scale: scale)
        keep(renderedPresented, "render-1")
        XCTAssertEqual(differences(presented.cropped(to: content), renderedPresented, tolerance: 2), [],
                       "presented content vs `render --scale 1.5 --progress 1`")
        assertCleanProtocolLog(demo)
    }

    // MARK: helpers

    /// Starts modal-demo (`--size`, `--log-events`, WAYLAND_DEBUG=1) in `kwin` with the pointer
    /// parked off the window, and waits until KWin shows its window at the content size and the
    /// demo has drawn a frame after its last configure.
    private func launchDemo(in kwin: HeadlessKWin) throws -> (DemoProcess, KWinWindow) {
        try launchDemo(in: kwin, contentWidth: contentWidth, contentHeight: contentHeight)
    }

    private func launchDemo(in kwin: HeadlessKWin, contentWidth: Int, contentHeight: Int,
                            arguments: [String] = []) throws -> (DemoProcess, KWinWindow) {
        try kwin.driver.move(x: parkingSpot.x, y: parkingSpot.y)
        var env = kwin.clientEnvironment
        env["WAYLAND_DEBUG"] = "1"
        let demo = try startDemo(["--size", "\(contentWidth)x\(contentHeight)", "--log-events"] + arguments, environment: env)
        guard demo.waitForLine("configure", timeout: eventTimeout) != nil else {
            throw HarnessError("modal-demo logged no `configure` within \(eventTimeout) s:\n\(demo.diagnostics())")
        }
        let window = try kwin.waitForWindow(pid: demo.pid, width: contentWidth, height: contentHeight, timeout: eventTimeout)
        let drawn = waitUntil(timeout: eventTimeout, interval: 0.05) {
            let lines = demo.stdoutLines
            guard let c = lines.lastIndex(where: { DemoProcess.firstWord($0) == "configure" }) else { return false }
            return lines[c] == "configure \(contentWidth)x\(contentHeight)"
                && lines[(c + 1)...].contains { DemoProcess.firstWord($0) == "frame" }
        }
        guard drawn else {
            throw HarnessError("modal-demo did not configure and draw at \(contentWidth)x\(contentHeight) within \(eventTimeout) s:\n\(demo.diagnostics())")
        }
        return (demo, window)
    }

    /// `modal-demo render` of the content size at `progress` (inset-centered, the default style).
    private func render(progress: Double) throws -> RGBImage {
        try render(progress: progress, width: contentWidth, height: contentHeight, scale: 1)
    }

    private func render(progress: Double, width: Int, height: Int, scale: Double) throws -> RGBImage {
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-render")
        defer { removeTree(dir) }
        let png = dir + "/render.png"
        let r = try ChildProcess.run([try DemoProcess.executablePath, "render", "--size", "\(width)x\(height)",
                                      "--progress", String(progress), "--scale", String(scale), "--output", png],
                                     environment: harnessEnvironment([:]), timeout: 60)
        guard r.status == .exited(0) else { throw HarnessError("modal-demo render failed (\(r.status)): \(r.stderr)") }
        return try RGBImage.loadPNG(path: png)
    }

    /// The close button of KWin's title bar: the rightmost glyph (a run of columns with pixels
    /// far from the bar's colour) in the bar above the content. nil if there is none.
    private func closeButton(in shot: RGBImage, window: KWinWindow) -> PixelBox? {
        let frame = window.frame.pixels(), content = window.buffer.pixels()
        let top = frame.y + 2, bottom = content.y - 2
        guard bottom > top else { return nil }
        // A few pixels in from the frame's right edge (clear of its outline and rounded corner)
        // at the bar's middle height: the bar's own colour.
        let right = frame.x + frame.width - 4
        let bar = shot[right, (top + bottom) / 2]
        func isGlyph(_ x: Int, _ y: Int) -> Bool { shot[x, y].distance(to: bar) > drawnThreshold }
        func columnHasGlyph(_ x: Int) -> Bool { (top..<bottom).contains { isGlyph(x, $0) } }
        guard let xR = stride(from: right, to: frame.x + frame.width / 2, by: -1).first(where: columnHasGlyph) else { return nil }
        var xL = xR
        while xL - 1 > frame.x && columnHasGlyph(xL - 1) { xL -= 1 }
        let rows = (top..<bottom).filter { y in (xL...xR).contains { isGlyph($0, y) } }
        guard let yT = rows.first, let yB = rows.last else { return nil }
        let box = PixelBox(x: xL, y: yT, width: xR - xL + 1, height: yB - yT + 1)
        // A glyph, not a bar or a speck.
        guard (4...24).contains(box.width), (4...24).contains(box.height) else { return nil }
        return box
    }

    /// The demo's WAYLAND_DEBUG log (stderr) has no protocol error (`wl_display.error`), and is
    /// a protocol log indeed (it shows the xdg_wm_base binding), so the check cannot pass vacuously.
    private func assertCleanProtocolLog(_ demo: DemoProcess, file: StaticString = #filePath, line: UInt = #line) {
        let log = demo.stderrLines
        XCTAssertTrue(log.contains { $0.contains("xdg_wm_base") }, "WAYLAND_DEBUG log present (\(log.count) lines)", file: file, line: line)
        let errors = log.filter { $0.contains("wl_display@1.error(") || $0.contains("wl_display#1.error(") }
        XCTAssertEqual(errors, [], "protocol errors in the WAYLAND_DEBUG log", file: file, line: line)
    }
}
