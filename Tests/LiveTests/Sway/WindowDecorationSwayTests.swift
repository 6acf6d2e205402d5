// Client-side decorations live, under headless sway with real input (wayvnc + vncdo). sway
// offers xdg-decoration; `border csd` makes it answer client_side and `border none` server_side
// again (zxdg_toplevel_decoration_v1.configure at runtime), so one compositor covers both modes,
// the switch between them, and pointer input on the bar (headless weston has no input).
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class WindowDecorationSwayTests: CompositorTestCase {
    /// The bar as designed (ModalKitWaylandClient TitleBar): 28 pt, #303030 focused, × hover circle #4a4a4a.
    private let barHeight = 28
    private let barFocused = RGB(0x30, 0x30, 0x30)
    private let closeHover = RGB(0x4A, 0x4A, 0x4A)

    func testSwitchingToClientSideShowsTheBarHoverAndCloseWorkAndServerSideRemovesIt() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo([], in: sway)
        let rect = window.rect
        XCTAssertEqual(demo.events("configure").last, "configure 800x600", "server-side: content = the tile")

        // client_side: the tile (window geometry) stays 800x600; the content loses the bar's 28 pt.
        var mark = demo.mark()
        _ = try sway.swaymsg(["[pid=\(demo.pid)] border csd"])
        XCTAssertEqual(expectEvent(demo, "configure", since: mark), "configure 800x572")
        guard expectEvent(demo, "frame", since: mark) != nil else { return }
        var shot = try sway.stableScreenshot()
        keep(shot, "client-side")
        for y in rect.y..<(rect.y + barHeight - 1) {
            assertPixel(shot, rect.x + 4, y, near: barFocused, tolerance: 0, "focused bar at the tile's top")
        }
        let content = PixelBox(x: rect.x, y: rect.y + barHeight, width: rect.width, height: rect.height - barHeight)
        if let button = findButton(in: shot, window: content) {
            XCTAssertEqual(button.midY, content.midY, accuracy: 1.5, "button centred in the content below the bar")
        } else {
            XCTFail("no button in the content \(content)")
        }

        // Hover on ×: the circle behind it (11 pt radius) shows; 8 px left of the centre is off the × strokes.
        let closeX = rect.x + rect.width - barHeight / 2, closeY = rect.y + barHeight / 2
        try vnc.move(x: closeX, y: closeY)
        var hovered = false
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            guard let s = try? sway.screenshot() else { return false }
            shot = s
            hovered = s[closeX - 8, closeY].distance(to: closeHover) <= 2
            return hovered
        }
        keep(shot, "hover")
        XCTAssertTrue(hovered, "hover circle at (\(closeX - 8), \(closeY)): \(shot[closeX - 8, closeY])")
        try vnc.park()

        // server_side again: the bar goes, the content is the whole tile.
        mark = demo.mark()
        _ = try sway.swaymsg(["[pid=\(demo.pid)] border none"])
        XCTAssertEqual(expectEvent(demo, "configure", since: mark), "configure 800x600")
        guard expectEvent(demo, "frame", since: mark) != nil else { return }
        shot = try sway.stableScreenshot()
        keep(shot, "server-side-again")
        XCTAssertGreaterThan(shot[rect.x + 4, rect.y + 4].distance(to: barFocused), 100, "no bar: \(shot[rect.x + 4, rect.y + 4])")

        // client_side once more, then a click on × closes the window like xdg_toplevel.close: exit 0.
        mark = demo.mark()
        _ = try sway.swaymsg(["[pid=\(demo.pid)] border csd"])
        XCTAssertEqual(expectEvent(demo, "configure", since: mark), "configure 800x572")
        guard expectEvent(demo, "frame", since: mark) != nil else { return }
        XCTAssertTrue(sway.waitUntilShown(barFocused, atX: rect.x + 4, y: rect.y + 4, tolerance: 0), "the bar shows again")
        try vnc.click(x: closeX, y: closeY)
        XCTAssertEqual(demo.waitForExit(timeout: 5), .exited(0), "× closes: \(demo.diagnostics())")
    }

    /// A press on the bar starts an interactive move with the press serial (xdg_toplevel.move):
    /// dragging the floating window's bar by (+60, +40) moves the window by that much.
    func testDraggingTheBarMovesTheWindow() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo(["--size", "400x300"], in: sway)
        var mark = demo.mark()
        _ = try sway.swaymsg(["[pid=\(demo.pid)] floating enable, border csd"])
        // sway floats the window at its natural window geometry, 400x300 (the content it had):
        // a configure is the window geometry (xdg-shell), so the content is 300 − 28 pt high.
        XCTAssertEqual(expectEvent(demo, "configure", since: mark), "configure 400x272")
        guard expectEvent(demo, "frame", since: mark) != nil else { return }
        var before: PixelBox?
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            before = (try? sway.windows())?.first { $0.pid == Int(demo.pid) && $0.isFloating }?.rect
            return before != nil
        }
        guard let before else { return XCTFail("the window did not float") }
        XCTAssertEqual(before.width, 400)
        XCTAssertEqual(before.height, 300, "the window geometry: bar + content")
        XCTAssertTrue(sway.waitUntilShown(barFocused, atX: before.x + 4, y: before.y + 4, tolerance: 0), "the bar shows")
        mark = demo.mark()
        let x = before.x + 100, y = before.y + barHeight / 2
        // The pause lets the move request arrive while the button is still down: sway starts a move
        // only for the serial of the latest button event.
        try vnc.send(["move", String(x), String(y), "mousedown", "1", "pause", "0.5",
                      "move", String(x + 30), String(y + 20), "move", String(x + 60), String(y + 40), "pause", "0.2", "mouseup", "1"])
        let expected = PixelBox(x: before.x + 60, y: before.y + 40, width: 400, height: 300)
        var after: PixelBox?
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            after = (try? sway.windows())?.first { $0.pid == Int(demo.pid) }?.rect
            return after == expected
        }
        XCTAssertEqual(after, expected, "moved by the drag")
        XCTAssertTrue(demo.events("activated", since: mark).isEmpty, "the press on the bar is not the app's")
    }

    /// A floating client-decorated window resized by the compositor: the window geometry
    /// excludes the 8 pt resize borders (xdg-shell set_window_geometry: borders are not part of the
    /// window), and a configure of a new size is the window geometry (content = size − 28 pt bar).
    ///
    /// Not driven by a drag of the border itself: sway 1.7 routes pointer input to a floating
    /// window only inside its window geometry (a pointer 4 px right of the edge leaves the content
    /// surface and never enters the border surface, checked with WAYLAND_DEBUG), so the press →
    /// `xdg_toplevel.resize` path cannot be reached under sway 1.7; the interactive resize's
    /// configures take the same path as these.
    func testResizingAFloatingClientDecoratedWindowKeepsBarAndMinimumSize() throws {
        let sway = try startSway()
        let (demo, _) = try launchDemo(["--size", "400x300"], in: sway)
        var mark = demo.mark()
        _ = try sway.swaymsg(["[pid=\(demo.pid)] floating enable, border csd"])
        XCTAssertEqual(expectEvent(demo, "configure", since: mark), "configure 400x272")
        guard expectEvent(demo, "frame", since: mark) != nil else { return }
        func floatingRect(_ expected: PixelBox? = nil) -> PixelBox? {
            var rect: PixelBox?
            _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
                rect = (try? sway.windows())?.first { $0.pid == Int(demo.pid) && $0.isFloating }?.rect
                return rect != nil && (expected == nil || rect == expected)
            }
            return rect
        }
        guard let before = floatingRect() else { return XCTFail("the window did not float") }
        XCTAssertEqual(before.width, 400, "the window geometry excludes the resize borders (else 416)")
        XCTAssertEqual(before.height, 300, "bar + content, no borders (else 316)")

        mark = demo.mark()
        _ = try sway.swaymsg(["[pid=\(demo.pid)] resize set width 460 px"])
        XCTAssertEqual(floatingRect(PixelBox(x: before.x, y: before.y, width: 460, height: 300))?.width, 460)
        let widened = waitUntil(timeout: eventTimeout, interval: 0.1) {
            demo.events("configure", since: mark).last == "configure 460x272"
        }
        XCTAssertTrue(widened, "content = 460 × (300 − 28): \(demo.events("configure", since: mark))")

        // Below set_min_size (200 × 178): sway 1.7's `resize set` applies only its own
        // floating_minimum_size, not the client's; the configure is still honoured (xdg-shell: the
        // client must not draw a different size): content 100 × (100 − 28), and a frame follows.
        mark = demo.mark()
        _ = try sway.swaymsg(["[pid=\(demo.pid)] resize set 100 px 100 px"])
        let shrunk = waitUntil(timeout: eventTimeout, interval: 0.1) {
            demo.events("configure", since: mark).last == "configure 100x72"
        }
        XCTAssertTrue(shrunk, "content = 100 × (100 − 28): \(demo.events("configure", since: mark))")
        XCTAssertNotNil(expectEvent(demo, "frame", since: mark), "drawn at the small size")
        XCTAssertNil(demo.waitForExit(timeout: 0.2).flatMap { "\($0)" }, "still running")
    }
}
