// Environment values out of range, end to end under a private headless sway with real input:
// XCURSOR_SIZE beyond Int32 (and beyond Int32 once multiplied by the output scale) used to trap
// when the pointer entered the window. Now it is clamped (256 points, 1024 pixels), the cursor
// shows at the theme's largest size, and the window keeps working.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class EnvironmentSwayTests: CompositorTestCase {
    /// The bounding box (output pixels) of what differs inside `window` between `parked` (a
    /// screenshot with the pointer parked outside the window) and the screen now: the cursor, which
    /// headless sway draws in software into what grim captures. nil when nothing differs.
    private func cursorBox(in sway: HeadlessSway, parked: RGBImage, window: PixelBox, scale: Int) throws -> PixelBox? {
        let window = PixelBox(x: window.x * scale, y: window.y * scale, width: window.width * scale, height: window.height * scale)
        return differenceBox(try sway.screenshot(), parked, in: window)
    }

    private func checkHugeCursorSize(_ value: String, scale: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let sway = try startSway(windowWidth: 800, windowHeight: 600, scale: scale)
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo([], in: sway, environment: ["XCURSOR_SIZE": value])
        let parked = try sway.stableScreenshot()   // the pointer parked outside the window (startVNC)
        keep(parked, "pointer-parked")
        // Into the window over the plain background, left of and above the button: the enter
        // makes the client load its cursor theme and set the cursor (where it used to trap). The
        // compositor's own cursor shows until the client has loaded its theme and set its cursor,
        // so wait (bounded) for a cursor taller than the default could be.
        let inside = (x: (window.rect.x + 150) * scale, y: (window.rect.y + 120) * scale)
        try vnc.move(x: inside.x, y: inside.y)
        var box: PixelBox?
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            box = try? cursorBox(in: sway, parked: parked, window: window.rect, scale: scale)
            return (box?.height ?? 0) > 24 * 2
        }
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
        let (demo, window) = try launchDemo([], in: sway,
                                            environment: ["XCURSOR_SIZE": "-99999999999999999999", "XCURSOR_THEME": "../x"])
        try vnc.move(x: window.rect.x + 150, y: window.rect.y + 120)
        let mark = demo.mark()
        try vnc.click(x: Int(window.rect.midX), y: Int(window.rect.midY))
        expectEvent(demo, "presenting", since: mark)
    }
}
