// Environment values out of range, end to end under a private headless sway with real input:
// XCURSOR_SIZE beyond Int32 (and beyond Int32 once multiplied by the output scale) used to trap
// when the pointer entered the window. Now it is clamped (256 points, 1024 pixels), the cursor
// shows at the theme's largest size, and the window keeps working.
import Foundation
import EndToEndHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class EnvironmentSwayTests: CompositorTestCase {
    /// modal-demo in `sway` with `changes` applied to the client environment; waits for its
    /// window and first frame.
    private func launchDemo(environment changes: [String: String], in sway: HeadlessSway) throws -> (DemoProcess, SwayWindow) {
        var environment = sway.clientEnvironment
        for (key, value) in changes { environment[key] = value }
        let demo = try startDemo(["--log-events"], environment: environment)
        guard demo.waitForLine("frame", timeout: eventTimeout) != nil else {
            throw HarnessError("modal-demo drew no frame within \(eventTimeout) s:\n\(demo.diagnostics())")
        }
        let window = try sway.waitForWindow(pid: demo.pid, timeout: eventTimeout)
        return (demo, window)
    }

    /// The bounding box (output pixels) of what differs inside `window` between a screenshot with
    /// the pointer where it is now and one with it parked outside the window: the cursor, which
    /// headless sway draws in software into what grim captures. nil when nothing differs.
    private func cursorBox(in sway: HeadlessSway, vnc: VNCInput, window: PixelBox, scale: Int) throws -> PixelBox? {
        let with = try sway.stableScreenshot()
        try vnc.park()
        let without = try sway.stableScreenshot()
        keep(with, "pointer-inside")
        keep(without, "pointer-parked")
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in (window.y * scale)..<((window.y + window.height) * scale) {
            for x in (window.x * scale)..<((window.x + window.width) * scale) where with[x, y] != without[x, y] {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : PixelBox(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    private func checkHugeCursorSize(_ value: String, scale: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let sway = try startSway(windowWidth: 800, windowHeight: 600, scale: scale)
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(environment: ["XCURSOR_SIZE": value], in: sway)
        // Into the window over the plain background, left of and above the button: the enter
        // makes the client load its cursor theme and set the cursor (where it used to trap).
        let inside = (x: (window.rect.x + 150) * scale, y: (window.rect.y + 120) * scale)
        try vnc.move(x: inside.x, y: inside.y)
        let box = try cursorBox(in: sway, vnc: vnc, window: window.rect, scale: scale)
        XCTAssertNil(demo.waitForExit(timeout: 0), "modal-demo ended when the pointer entered:\n\(demo.diagnostics())",
                     file: file, line: line)
        if let box {
            // XCURSOR_SIZE clamped to 256: libwayland-cursor takes the theme's largest image
            // (Adwaita: 96 px; at scale 2 the 96 px image at buffer scale 2, 96 output pixels).
            // The default 24 (24 × scale output pixels) could not be this tall.
            XCTAssertGreaterThan(box.height, 24 * 2, "cursor \(box): the clamped size, not the default", file: file, line: line)
            XCTAssertTrue(abs(box.x - inside.x) < 40 && abs(box.y - inside.y) < 40,
                          "cursor \(box) at the pointer \(inside)", file: file, line: line)
        } else {
            XCTFail("no cursor shows over the window", file: file, line: line)
        }
        // And the window still works: a click on the button presents.
        let mark = demo.mark()
        try vnc.click(x: Int(window.rect.midX) * scale, y: Int(window.rect.midY) * scale)
        expectEvent(demo, "presenting", since: mark, file: file, line: line)
        XCTAssertNil(demo.waitForExit(timeout: 0), file: file, line: line)
    }

    /// XCURSOR_SIZE=3000000000 (> Int32.max) on a scale-1 output.
    func testCursorSizeBeyondInt32DoesNotTrapWhenThePointerEnters() throws {
        try checkHugeCursorSize("3000000000", scale: 1)
    }

    /// XCURSOR_SIZE=1100000000 on a scale-2 output (size × scale > Int32.max).
    func testCursorSizeThatOverflowsOnceScaledDoesNotTrapWhenThePointerEnters() throws {
        try checkHugeCursorSize("1100000000", scale: 2)
    }

    /// Values that are not sizes at all fall back to the default, and the window works.
    func testCursorSizeThatIsNotANumberIsIgnored() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(environment: ["XCURSOR_SIZE": "-99999999999999999999", "XCURSOR_THEME": "../x"],
                                            in: sway)
        try vnc.move(x: window.rect.x + 150, y: window.rect.y + 120)
        let mark = demo.mark()
        try vnc.click(x: Int(window.rect.midX), y: Int(window.rect.midY))
        expectEvent(demo, "presenting", since: mark)
    }
}
