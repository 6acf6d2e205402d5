// Issue 2 acceptance under a second compositor: a private headless weston (desktop-shell,
// pixman, no input). Its first configure is 0×0, so this is also field report 1 live.
import Foundation
import XCTest

final class WindowWestonTests: CompositorTestCase {
    func testWindowMapsAtTheRequestedSizeAndRendersUnderWeston() throws {
        let weston = try startWeston()
        let demo = try startDemo(["--size", "400x300", "--log-events"], in: weston)
        // weston leaves the size to the client (0×0): the --size size is used.
        XCTAssertEqual(expectEvent(demo, "configure"), "configure 400x300")
        guard expectEvent(demo, "frame") != nil else { return }
        // The window shows up on weston's output: a 400x300 area that is not the background.
        var shot: RGBImage?
        var box: PixelBox?
        _ = waitUntil(timeout: eventTimeout, interval: 0.2) {
            shot = try? weston.screenshot()
            box = shot?.boundingBox(ofPixelsDifferentFrom: HeadlessWeston.background)
            return box?.width == 400 && box?.height == 300
        }
        guard let shot, let box, box.width == 400, box.height == 300 else {
            return XCTFail("no 400x300 window on weston's output (drawn area: \(String(describing: box)))\n\(demo.diagnostics())")
        }
        // …with the Present button centred in it.
        guard let button = findButton(in: shot, window: box) else {
            return XCTFail("no button near the centre of the window at \(box)")
        }
        XCTAssertEqual(button.midX, box.midX, accuracy: 1.5, "button \(button) in window \(box)")
        XCTAssertEqual(button.midY, box.midY, accuracy: 1.5, "button \(button) in window \(box)")
        XCTAssertTrue(demo.isRunning, demo.diagnostics())
    }
}
