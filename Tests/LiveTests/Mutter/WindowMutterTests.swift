// modal-demo under GNOME's compositor: a private headless mutter 43, driven through its
// RemoteDesktop D-Bus API (pointer, keyboard and touch) and seen through its ScreenCast API.
// mutter offers no xdg-decoration manager, so the window draws its own title bar; it places a
// new window by its own rules (first fit), so the tests find the window by its title bar. Every
// test runs the demo with WAYLAND_DEBUG=1, closes it with the title bar's × and checks that log
// of the whole run for protocol errors.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class WindowMutterTests: CompositorTestCase {
    /// The client-side title bar as designed (README, ModalKitWaylandClient TitleBar): 28 pt tall,
    /// #303030 when focused (xdg_toplevel `activated`), a one-pixel #1a1a1a line at its bottom,
    /// a 28 pt square close button at its right end with × in white.
    private let barHeight = 28
    private let barFocused = RGB(0x30, 0x30, 0x30)
    private let separator = RGB(0x1A, 0x1A, 0x1A)
    /// The demo's content size (`--size`): mutter's first configure is 0×0, so the client chooses.
    private let contentWidth = 400, contentHeight = 300

    /// Where the window is on the monitor, in screenshot (= input) pixels: points × `scale`.
    private struct Placement {
        /// The window geometry: title bar + content.
        let window: PixelBox
        /// The title bar's height in pixels.
        let barHeight: Int
        let scale: Int
        /// The demo's own surface, right below the bar.
        var content: PixelBox {
            PixelBox(x: window.x, y: window.y + barHeight, width: window.width, height: window.height - barHeight)
        }
        var presentButton: (x: Double, y: Double) { (content.midX, content.midY) }
        /// A point on the dim for the inset-centred style: above the card's top edge at y = 110 pt.
        var dimPoint: (x: Double, y: Double) { (content.midX, Double(content.y + 60 * scale)) }
        /// The centre of the close button: the square of the bar's height at its right end.
        var closeButton: (x: Double, y: Double) {
            (Double(window.x + window.width - barHeight / 2), Double(window.y + barHeight / 2))
        }
    }

    // MARK: tests

    func testWindowWithClientSideTitleBarClickPresentsAsRenderedAndDimClickDismisses() throws {
        let mutter = try startMutter()
        let (demo, at) = try launchDemo(in: mutter)
        let before = try mutter.stableScreenshot()
        keep(before, "before")
        checkTitleBar(before, at)

        var mark = demo.mark()
        try mutter.click(x: at.presentButton.x, y: at.presentButton.y)
        expectEvent(demo, "activated", since: mark)
        expectEvent(demo, "presenting", since: mark)
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        let shot = try mutter.stableScreenshot()
        keep(shot, "presented")
        try checkMatchesRender(shot, at)
        checkTitleBar(shot, at)   // the modal covers the content, never the title bar

        mark = demo.mark()
        try mutter.click(x: at.dimPoint.x, y: at.dimPoint.y)
        expectEvent(demo, "dismissing", since: mark, "click on the dim at \(at.dimPoint)")
        expectEvent(demo, "dismissed", since: mark, "click on the dim at \(at.dimPoint)")
        XCTAssertEqual(demo.events("activated", since: mark), [], "the click on the dim never reaches the button")
        let after = try mutter.stableScreenshot()
        keep(after, "dismissed")
        XCTAssertEqual(differences(after.cropped(to: at.content), before.cropped(to: at.content)), [],
                       "after the dismissal the content looks as before")

        let log = try closeAndCheckLog(demo, mutter, at)
        XCTAssertFalse(log.contains { $0.contains("zxdg_decoration_manager_v1") },
                       "mutter offers no xdg-decoration manager (so the client draws the bar)")
        XCTAssertTrue(log.contains { $0.contains(".configure_bounds(\(mutter.width), \(mutter.height))") },
                      "mutter bounds the first configure by the monitor")
        XCTAssertTrue(log.contains { $0.contains("xdg_toplevel@") && $0.contains(".configure(0, 0,") },
                      "mutter's first configure leaves the size to the client")
    }

    func testReturnPresentsEscapeDismissesAndTheCloseButtonEndsTheDemo() throws {
        let mutter = try startMutter()
        let (demo, at) = try launchDemo(in: mutter)
        for round in 1...2 {
            var mark = demo.mark()
            try mutter.key(HeadlessMutter.keysymReturn)
            expectEvent(demo, "presenting", since: mark, "Return, round \(round)")
            guard expectEvent(demo, "presented", since: mark, "Return, round \(round)") != nil else { return }
            mark = demo.mark()
            try mutter.key(HeadlessMutter.keysymEscape)
            expectEvent(demo, "dismissing", since: mark, "Escape, round \(round)")
            guard expectEvent(demo, "dismissed", since: mark, "Escape, round \(round)") != nil else { return }
        }
        _ = try closeAndCheckLog(demo, mutter, at)
    }

    /// mutter's own close (Alt+F4, its default `close` key binding: `xdg_toplevel.close` to the
    /// focused window) after a present/dismiss cycle driven by real input — a click on Present
    /// (the pointer's enter loads a cursor theme), Escape — ends the installed release modal-demo
    /// with status 0, on the default sub-surface backend (layers and their buffer pools exist) and
    /// on `--compositing pixman`, with no protocol error in the whole run.
    func testAltF4AfterAPresentDismissCycleExitsZeroOnBothBackends() throws {
        let mutter = try startMutter()
        for (arguments, backend) in [([String](), "subsurface"), (["--compositing", "pixman"], "pixman")] {
            let (demo, at) = try launchDemo(in: mutter, arguments: arguments)
            guard try presentDismissThenClose(demo, label: backend, frameBackend: backend,
                                              click: { try mutter.click(x: at.presentButton.x, y: at.presentButton.y) },
                                              escape: { try mutter.key(HeadlessMutter.keysymEscape) },
                                              close: { try mutter.closeFocusedWindow() },
                                              closedBy: "Alt+F4") else { return }
            demo.drainOutput()
            let log = demo.stderrLines
            XCTAssertTrue(log.contains { $0.contains("xdg_toplevel@") && $0.hasSuffix(".close()") },
                          "\(backend): the demo received xdg_toplevel.close")
            let errors = log.filter { $0.contains("wl_display@1.error(") || $0.contains("wl_display#1.error(") }
            XCTAssertEqual(errors, [], "\(backend): protocol errors in the WAYLAND_DEBUG log")
        }
    }

    /// Output scale 2 (a 1600×1200 monitor, the smallest size class mutter offers 2 for): bar and
    /// content buffers at twice the points (buffer scale 2 on both surfaces), the presented frame
    /// as `render --scale 2` draws it, clicks in physical pixels.
    func testTitleBarAndContentAtScaleTwoClickPresentsAsRendered() throws {
        let mutter = try startMutter(width: 1600, height: 1200, scale: 2)
        let (demo, at) = try launchDemo(in: mutter)
        let before = try mutter.stableScreenshot()
        keep(before, "before")
        checkTitleBar(before, at)

        let mark = demo.mark()
        try mutter.click(x: at.presentButton.x, y: at.presentButton.y)
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        let shot = try mutter.stableScreenshot()
        keep(shot, "presented")
        try checkMatchesRender(shot, at)
        let log = try closeAndCheckLog(demo, mutter, at)
        XCTAssertTrue(log.contains { $0.contains("wl_output@") && $0.hasSuffix(".scale(2)") }, "wl_output.scale 2")
        // Buffer scale 2 on the toplevel's surface (the content) and on the bar: the subsurface
        // placed at (0, −28 pt) above it.
        func objects(_ line: String, _ interface: String) -> [String] {
            line.components(separatedBy: CharacterSet(charactersIn: " (),.")).filter { $0.hasPrefix(interface + "@") }
        }
        let scaled = Set(log.filter { $0.contains(".set_buffer_scale(2)") }.flatMap { objects($0, "wl_surface") })
        let content = log.first { $0.contains(".get_xdg_surface(") }.flatMap { objects($0, "wl_surface").last }
        let barSubsurface = log.first { $0.contains(".set_position(0, -\(barHeight))") }.flatMap { objects($0, "wl_subsurface").first }
        let bar = log.first { line in barSubsurface.map { line.contains(".get_subsurface(new id \($0),") } ?? false }
            .flatMap { objects($0, "wl_surface").first }
        XCTAssertNotNil(content)
        XCTAssertNotNil(bar)
        XCTAssertTrue(content.map(scaled.contains) ?? false, "content surface \(content ?? "?") at buffer scale 2 (scaled: \(scaled))")
        XCTAssertTrue(bar.map(scaled.contains) ?? false, "title bar surface \(bar ?? "?") at buffer scale 2 (scaled: \(scaled))")
    }

    /// Real touch: mutter's RemoteDesktop touch device reaches the client as wl_touch (not as
    /// emulated pointer events), and a tap works like a click.
    func testTouchTapOnPresentPresentsAndTouchTapOnTheDimDismisses() throws {
        let mutter = try startMutter()
        let (demo, at) = try launchDemo(in: mutter)

        var mark = demo.mark()
        try mutter.tap(x: at.presentButton.x, y: at.presentButton.y)
        expectEvent(demo, "activated", since: mark, "touch tap on Present")
        guard expectEvent(demo, "presented", since: mark, "touch tap on Present") != nil else { return }
        let shot = try mutter.stableScreenshot()
        keep(shot, "presented")
        try checkMatchesRender(shot, at)

        mark = demo.mark()
        try mutter.tap(x: at.dimPoint.x, y: at.dimPoint.y)
        expectEvent(demo, "dismissing", since: mark, "touch tap on the dim at \(at.dimPoint)")
        expectEvent(demo, "dismissed", since: mark, "touch tap on the dim at \(at.dimPoint)")
        XCTAssertEqual(demo.events("activated", since: mark), [], "the tap on the dim never reaches the button")

        // The WAYLAND_DEBUG log, read once the demo ended and its output is drained.
        let log = try closeAndCheckLog(demo, mutter, at)
        XCTAssertTrue(log.contains { $0.contains(".get_touch(new id wl_touch@") },
                      "the seat has touch (capability 4) and the demo binds wl_touch")
        let downs = log.filter { $0.contains("wl_touch@") && $0.contains(".down(") }
        XCTAssertEqual(downs.count, 2, "both taps arrive as wl_touch.down: \(downs)")
        // In surface coordinates (points): the demo's surface is the content, below the bar.
        if downs.count == 2 {
            let x = (Int(at.presentButton.x) - at.content.x) / at.scale, y = (Int(at.presentButton.y) - at.content.y) / at.scale
            XCTAssertTrue(downs[0].hasSuffix(", \(x).00000000, \(y).00000000)"),
                          "tap on Present at surface (\(x), \(y)): \(downs[0])")
        }
        // Up to the second tap's end (the close click comes after it).
        let lastUp = log.lastIndex { $0.contains("wl_touch@") && $0.contains(".up(") } ?? log.count
        XCTAssertFalse(log[..<lastUp].contains { $0.contains("wl_pointer@") && $0.contains(".button(") },
                       "no pointer button event: the taps were touch, not emulated clicks")
    }

    /// The harness itself: stopping the session ends every process it started (by PID, reaped)
    /// and removes its runtime directory (bus, PipeWire and Wayland sockets, HOME).
    func testStoppingTheSessionEndsEveryProcessAndRemovesItsDirectory() throws {
        let mutter = try startMutter()
        let processes = mutter.processes
        XCTAssertEqual(processes.map(\.name).sorted(),
                       ["dbus-daemon", "mutter", "mutter_remote_desktop", "pipewire", "wireplumber"])
        XCTAssertTrue(processes.allSatisfy(\.isRunning), mutter.diagnostics())
        XCTAssertTrue(isSocket(mutter.socketPath) && isSocket(mutter.runtimeDirectory + "/bus"))
        mutter.stop()
        for child in processes {
            XCTAssertNotNil(child.status, "\(child.name) still running")
            XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/\(child.pid)"), "\(child.name) not reaped")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: mutter.runtimeDirectory), "runtime directory left behind")
    }

    // MARK: helpers

    /// Starts modal-demo (inset-centred style, `--size`, WAYLAND_DEBUG=1) and waits until its
    /// first configure, a frame and a screenshot showing its focused title bar; returns where the
    /// window is: the box of the bar's colour (title and × lie inside it) extended by the content.
    private func launchDemo(in mutter: HeadlessMutter, arguments: [String] = []) throws -> (DemoProcess, Placement) {
        var env = mutter.clientEnvironment
        env["WAYLAND_DEBUG"] = "1"
        let demo = try startDemo(["--size", "\(contentWidth)x\(contentHeight)", "--log-events"] + arguments, environment: env)
        guard let first = demo.waitForLine("configure", timeout: eventTimeout) else {
            throw HarnessError("modal-demo logged no `configure` within \(eventTimeout) s:\n\(demo.diagnostics())")
        }
        XCTAssertEqual(first, "configure \(contentWidth)x\(contentHeight)", "the 0×0 first configure leaves --size to the client")
        expectEvent(demo, "frame")
        // In pixels: the bar is drawn at the output scale, its separator one pixel high.
        let s = mutter.scale, width = contentWidth * s, bar = barHeight * s, height = bar + contentHeight * s
        var last: RGBImage?
        var box: PixelBox?
        let shown = waitUntil(timeout: eventTimeout, interval: 0.1) {
            guard let shot = try? mutter.screenshot() else { return false }
            last = shot
            box = boundingBox(ofPixelsEqualTo: barFocused, in: shot)
            guard let b = box, b.width == width, b.height == bar - 1, b.y + height <= shot.height else { return false }
            return shot[b.x, b.y + bar - 1] == separator
        }
        guard shown, let box else {
            if let last { keep(last, "no-title-bar") }
            throw HarnessError("no focused \(width) px title bar (\(bar - 1) rows of \(barFocused) over a \(separator) line) on the monitor within \(eventTimeout) s; bar colour at \(String(describing: box)):\n\(demo.diagnostics())")
        }
        let window = PixelBox(x: box.x, y: box.y, width: width, height: height)
        return (demo, Placement(window: window, barHeight: bar, scale: s))
    }

    /// The title bar at the window's top, full width: its focused colour on every row above the
    /// separator at both ends of the grab area, the separator, the title around its centre and ×
    /// in the close button; the window ends at its width (mutter draws nothing around a
    /// client-decorated window).
    private func checkTitleBar(_ shot: RGBImage, _ at: Placement, file: StaticString = #filePath, line: UInt = #line) {
        let x0 = at.window.x, y0 = at.window.y, w = at.window.width, s = at.scale, barHeight = at.barHeight
        for y in y0..<(y0 + barHeight - 1) {
            assertPixel(shot, x0 + 4, y, near: barFocused, tolerance: 0, "title bar, left end", file: file, line: line)
            assertPixel(shot, x0 + w - barHeight - 4, y, near: barFocused, tolerance: 0, "title bar, left of ×", file: file, line: line)
            if x0 > 0 {
                assertPixel(shot, x0 - 1, y, differsFrom: barFocused, margin: 0, "left of the window (mutter's background)", file: file, line: line)
            }
            if x0 + w < shot.width {
                assertPixel(shot, x0 + w, y, differsFrom: barFocused, margin: 0, "right of the window (mutter's background)", file: file, line: line)
            }
        }
        assertPixel(shot, x0 + 4, y0 + barHeight - 1, near: separator, tolerance: 0, "separator line", file: file, line: line)
        assertPixel(shot, x0 + w - 1, y0 + barHeight - 1, near: separator, tolerance: 0, "separator line, right end", file: file, line: line)
        // The light content starts right below, dimmed (× 0.5) or not: far from the bar's grey.
        assertPixel(shot, x0 + 4, y0 + barHeight, differsFrom: barFocused, margin: 60, "first content row", file: file, line: line)
        XCTAssertTrue(anyPixel(in: shot, PixelBox(x: x0 + w / 2 - 40 * s, y: y0 + 6 * s, width: 80 * s, height: 16 * s),
                               fartherThan: 100, from: barFocused), "title text around the bar's centre", file: file, line: line)
        XCTAssertFalse(anyPixel(in: shot, PixelBox(x: x0 + 8 * s, y: y0 + 2 * s, width: 100 * s, height: 24 * s), fartherThan: 0, from: barFocused),
                       "nothing but bar at its left end", file: file, line: line)
        XCTAssertTrue(anyPixel(in: shot, PixelBox(x: Int(at.closeButton.x) - 3 * s, y: Int(at.closeButton.y) - 3 * s, width: 6 * s, height: 6 * s),
                               fartherThan: 100, from: barFocused), "× at the centre of the close button", file: file, line: line)
    }

    /// The content equals `modal-demo render` of the same size and scale at progress 1, ±2 per channel on
    /// every pixel: the screen cast leaves the cursor out, and the inset card covers the button
    /// (with its hover and pressed looks) at this size.
    private func checkMatchesRender(_ shot: RGBImage, _ at: Placement, file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-render")
        defer { removeTree(dir) }
        let png = dir + "/presented.png"
        let r = try ChildProcess.run([try DemoProcess.executablePath, "render", "--size", "\(contentWidth)x\(contentHeight)",
                                      "--scale", String(at.scale), "--progress", "1", "--output", png],
                                     environment: harnessEnvironment([:]), timeout: 60)
        guard r.status == .exited(0) else {
            return XCTFail("modal-demo render failed (\(r.status)): \(r.stderr)", file: file, line: line)
        }
        let rendered = try RGBImage.loadPNG(path: png)
        keep(rendered, "render")
        XCTAssertEqual(differences(shot.cropped(to: at.content), rendered, tolerance: 2), [],
                       "live content at \(at.content) vs `render --progress 1`", file: file, line: line)
    }

    /// Clicks the title bar's ×; the demo must exit 0, and its WAYLAND_DEBUG log of the whole run
    /// must hold no protocol error (libwayland logs a received `wl_display.error` event).
    /// Returns that log (the demo's stderr, complete).
    private func closeAndCheckLog(_ demo: DemoProcess, _ mutter: HeadlessMutter, _ at: Placement,
                                  file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try mutter.click(x: at.closeButton.x, y: at.closeButton.y)
        let status = demo.waitForExit(timeout: eventTimeout)
        XCTAssertEqual(status, .exited(0), "the close button ends the demo with status 0\n\(demo.diagnostics())", file: file, line: line)
        demo.drainOutput()
        let log = demo.stderrLines
        XCTAssertTrue(log.contains { $0.contains("xdg_toplevel@") && $0.contains(".destroy()") },
                      "the WAYLAND_DEBUG log covers the whole run, up to the window's destruction", file: file, line: line)
        let errors = log.filter {
            $0.contains("wl_display@1.error(") || $0.contains("wl_display#1.error(") || $0.localizedCaseInsensitiveContains("protocol error")
        }
        XCTAssertEqual(errors, [], "protocol errors in the WAYLAND_DEBUG log", file: file, line: line)
        return log
    }

    /// The smallest box holding every pixel of exactly `color`, or nil.
    private func boundingBox(ofPixelsEqualTo color: RGB, in shot: RGBImage) -> PixelBox? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<shot.height {
            for x in 0..<shot.width where shot[x, y] == color {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return PixelBox(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    private func anyPixel(in shot: RGBImage, _ box: PixelBox, fartherThan distance: Int, from color: RGB) -> Bool {
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) where shot[x, y].distance(to: color) > distance { return true }
        }
        return false
    }
}
