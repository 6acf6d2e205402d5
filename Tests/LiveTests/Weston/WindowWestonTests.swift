// The window under a second compositor: a private headless weston (desktop-shell, pixman, no
// input). Its first configure is 0×0, so this also checks live that a zero size means "you
// choose" (docs/design.md, rules from the field, 1).
// weston offers no xdg-decoration manager, so the window draws its own title bar there
// (xdg-decoration: without the manager, decorations are client-side).
// No close test here: weston 10 never sends xdg_toplevel.close (none of its shells or backends
// calls weston_desktop_surface_close; desktop-shell's only binding that ends a window, Super+K,
// kills the client), and the headless session has no input to click the title bar's × with.
// The close after a present/dismiss cycle is tested under sway, mutter and KWin, on both backends.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class WindowWestonTests: CompositorTestCase {
    /// The client-side title bar as designed (README, ModalKitWaylandClient TitleBar): 28 pt tall,
    /// #303030 when focused (xdg_toplevel `activated`), #242424 when not, a one-pixel #1a1a1a
    /// line at its bottom, title and × in a light colour (white / #919191).
    private let barHeight = 28
    private let barFocused = RGB(0x30, 0x30, 0x30)
    private let barUnfocused = RGB(0x24, 0x24, 0x24)
    private let separator = RGB(0x1A, 0x1A, 0x1A)

    func testWindowMapsAtTheRequestedSizeWithATitleBarAndRendersUnderWeston() throws {
        try checkWindowWithTitleBar(outputScale: 1)
    }

    /// wl_output.scale 2: bar and content buffers at twice the points (buffer scale on both surfaces).
    func testTitleBarAndContentAtOutputScaleTwo() throws {
        try checkWindowWithTitleBar(outputScale: 2)
    }

    /// SIGTERM and SIGINT (Ctrl+C) close the window as the compositor's close does: exit 0,
    /// nothing on stderr (headless weston has no seat to click × with).
    func testSIGTERMAndSIGINTCloseTheWindowWithExitZero() throws {
        let weston = try startWeston()
        for signal in [SIGTERM, SIGINT] {
            let demo = try startDemo(["--size", "300x200", "--log-events"], in: weston)
            guard expectEvent(demo, "frame") != nil else { return }
            kill(demo.pid, signal)
            XCTAssertEqual(demo.waitForExit(timeout: eventTimeout), .exited(0), "signal \(signal)\n\(demo.diagnostics())")
            demo.drainOutput()
            XCTAssertEqual(demo.stderrLines, [], "signal \(signal)")
        }
    }

    private func checkWindowWithTitleBar(outputScale s: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let weston = try startWeston(width: 800 * s, height: 600 * s, scale: s)
        let demo = try startDemo(["--size", "400x300", "--log-events"], in: weston)
        // weston leaves the size to the client (0×0): the --size size is the content's.
        XCTAssertEqual(expectEvent(demo, "configure"), "configure 400x300")
        guard expectEvent(demo, "frame") != nil else { return }
        // The window shows up on weston's output: 400x300 pt of content under a 28 pt title bar.
        let width = 400 * s, bar = barHeight * s, height = 300 * s + bar
        var shot: RGBImage?
        var box: PixelBox?
        _ = waitUntil(timeout: eventTimeout, interval: 0.2) {
            shot = try? weston.screenshot()
            box = shot?.boundingBox(ofPixelsDifferentFrom: HeadlessWeston.background)
            return box?.width == width && box?.height == height
        }
        guard let shot, let box, box.width == width, box.height == height else {
            return XCTFail("no \(width)x\(height) px window (bar + content) on weston's output (drawn area: \(String(describing: box)))\n\(demo.diagnostics())",
                           file: file, line: line)
        }
        keep(shot, "window")
        // The bar: its own colour on every row above the separator, at both ends of the grab area.
        let barColor = shot[box.x + 4, box.y + 4]
        XCTAssertTrue(barColor == barFocused || barColor == barUnfocused,
                      "title bar colour \(barColor), expected \(barFocused) (focused) or \(barUnfocused)", file: file, line: line)
        for y in box.y..<(box.y + bar - 1) {
            assertPixel(shot, box.x + 4, y, near: barColor, tolerance: 0, "title bar, left end", file: file, line: line)
            assertPixel(shot, box.x + width - bar - 4, y, near: barColor, tolerance: 0, "title bar, left of ×", file: file, line: line)
        }
        assertPixel(shot, box.x + 4, box.y + bar - 1, near: separator, tolerance: 0, "separator line", file: file, line: line)
        // The content starts right below: the demo's light background, not the bar.
        assertPixel(shot, box.x + 4, box.y + bar, differsFrom: barColor, margin: 100, "first content row", file: file, line: line)
        // The title "ModalKit" is centred on the bar and the × sits in the square at its right end.
        XCTAssertTrue(anyPixel(in: shot, PixelBox(x: box.x + 160 * s, y: box.y + 6 * s, width: 80 * s, height: 16 * s),
                               fartherThan: 100, from: barColor), "title text around the bar's centre", file: file, line: line)
        XCTAssertFalse(anyPixel(in: shot, PixelBox(x: box.x + 8 * s, y: box.y + 2 * s, width: 100 * s, height: 24 * s),
                                fartherThan: 0, from: barColor), "nothing but bar at its left end", file: file, line: line)
        XCTAssertTrue(anyPixel(in: shot, PixelBox(x: box.x + width - 17 * s, y: box.y + 11 * s, width: 6 * s, height: 6 * s),
                               fartherThan: 100, from: barColor), "× at the centre of the close button", file: file, line: line)
        // …and the Present button centred in the content, not in the whole window.
        let content = PixelBox(x: box.x, y: box.y + bar, width: width, height: 300 * s)
        guard let button = findButton(in: shot, window: content) else {
            return XCTFail("no button near the centre of the content at \(content)", file: file, line: line)
        }
        XCTAssertEqual(button.midX, content.midX, accuracy: 1.5, "button \(button) in content \(content)", file: file, line: line)
        XCTAssertEqual(button.midY, content.midY, accuracy: 1.5, "button \(button) in content \(content)", file: file, line: line)
        XCTAssertTrue(demo.isRunning, demo.diagnostics(), file: file, line: line)
    }

    private func anyPixel(in shot: RGBImage, _ box: PixelBox, fartherThan distance: Int, from color: RGB) -> Bool {
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) where shot[x, y].distance(to: color) > distance { return true }
        }
        return false
    }
}
