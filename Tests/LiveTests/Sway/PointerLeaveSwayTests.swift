// A press that outlives a leave, live under headless sway with real input: the pointer presses on
// the presented card, the window goes to the scratchpad while the button is held (sway ends the
// implicit grab and sends wl_pointer.leave; the release reaches no client), then comes back. The
// leave ended that press, so the next tap on the dim dismisses.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class PointerLeaveSwayTests: CompositorTestCase {
    func testAPressThatLostItsReleaseToALeaveDoesNotSwallowTheNextTap() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo([], in: sway)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }

        // Press on the card (inset-centered covers the window's centre) and keep the button down.
        try vnc.send(["move", String(Int(window.rect.midX)), String(Int(window.rect.midY)), "mousedown", "1"])
        _ = try sway.swaymsg(["[pid=\(demo.pid)] move scratchpad"])
        XCTAssertTrue(waitUntil(timeout: 5) { (try? sway.windows())?.first { $0.pid == Int(demo.pid) }?.isVisible == false },
                      "window hidden in the scratchpad")
        try vnc.send(["mouseup", "1"])   // over the empty output: no client gets this release
        try vnc.park()

        _ = try sway.swaymsg(["[pid=\(demo.pid)] scratchpad show"])
        var shown = try sway.waitForWindow(pid: demo.pid)
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.1) {
            guard let w = (try? sway.windows())?.first(where: { $0.pid == Int(demo.pid) && $0.isVisible }),
                  let size = demo.lastConfigureSize else { return false }
            shown = w
            return size.width == w.rect.width && size.height == w.rect.height
        }, "configure \(shown.rect.width)x\(shown.rect.height) after scratchpad show; got \(demo.events("configure"))")
        XCTAssertEqual(demo.events("dismissing"), [], "nothing dismissed the modal so far")

        // A tap on the dim: 30 pt below the window's top, above the card (inset 110 pt top and bottom).
        mark = demo.mark()
        try vnc.click(x: Int(shown.rect.midX), y: shown.rect.y + 30)
        expectEvent(demo, "dismissing", since: mark, "tap on the dim of \(shown.rect) after the lost press")
    }
}
