// The client-side title bar's double-click under headless sway (`border csd`) with real input:
// only two consecutive primary presses on the bar, nothing in between, ask to maximize. The
// requests are read from libwayland's own protocol log (WAYLAND_DEBUG=client on stderr): each
// press on the bar that is not a double-click asks for an interactive move (xdg_toplevel.move),
// a double-click for xdg_toplevel.set_maximized (or unset_maximized).
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class TitleBarDoubleClickSwayTests: CompositorTestCase {
    private func requests(_ demo: DemoProcess, since: Int, _ name: String) -> [String] {
        demo.stderrLines.dropFirst(since).filter { $0.contains(" -> xdg_toplevel@") && $0.contains(".\(name)(") }
    }

    private func maximizeRequests(_ demo: DemoProcess, since: Int) -> [String] {
        requests(demo, since: since, "set_maximized") + requests(demo, since: since, "unset_maximized")
    }

    func testOnlyTwoConsecutivePrimaryPressesOnTheBarMaximize() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        // Mapped, tiled and drawn at the tiled size (sway's first configure leaves the size to the
        // client), so the next configure is the one for the bar.
        let (demo, window) = try launchDemo([], in: sway, environment: ["WAYLAND_DEBUG": "client"])
        let rect = window.rect
        let mark = demo.mark()
        _ = try sway.swaymsg(["[pid=\(demo.pid)] border csd"])
        XCTAssertEqual(expectEvent(demo, "configure", since: mark), "configure 800x572", "the 28 pt bar is shown")
        guard expectEvent(demo, "frame", since: mark) != nil else { return }
        // On screen before the first press (the focused bar's colour left of the title).
        XCTAssertTrue(sway.waitUntilShown(RGB(0x30, 0x30, 0x30), atX: rect.x + 4, y: rect.y + 4, tolerance: 0), "the bar shows")

        // On the bar left of the title; in the content away from the Present button.
        let bar = [String(rect.x + 150), String(rect.y + 14)]
        let content = [String(rect.x + 100), String(rect.y + 100)]
        let left = ["click", "1"], right = ["click", "3"]

        // Control: content, then bar, bar in one quick vncdo run: a double-click.
        var since = demo.stderrLines.count
        try vnc.send(["move"] + content + left + ["move"] + bar + left + left)
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) { !self.maximizeRequests(demo, since: since).isEmpty },
                      "bar, bar: a double-click asks to maximize (moves: \(requests(demo, since: since, "move")))")

        // Bar, content, bar: the press on the content ends the sequence; the last bar press moves.
        since = demo.stderrLines.count
        try vnc.send(["move"] + content + left + ["move"] + bar + left + ["move"] + content + left + ["move"] + bar + left)
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) { self.requests(demo, since: since, "move").count >= 2 },
                      "each bar press asks for a move: \(requests(demo, since: since, "move"))")
        XCTAssertEqual(maximizeRequests(demo, since: since), [], "bar, content, bar is no double-click")

        // Left, right, left on the bar: the secondary press (window menu) ends the sequence.
        since = demo.stderrLines.count
        try vnc.send(["move"] + content + left + ["move"] + bar + left + right + left)
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) { self.requests(demo, since: since, "move").count >= 2 },
                      "both left presses ask for a move: \(requests(demo, since: since, "move"))")
        XCTAssertEqual(requests(demo, since: since, "show_window_menu").count, 1, "the right press opens the window menu")
        XCTAssertEqual(maximizeRequests(demo, since: since), [], "left, right, left is no double-click")
        XCTAssertNil(demo.waitForExit(timeout: 0), demo.diagnostics())
    }
}
