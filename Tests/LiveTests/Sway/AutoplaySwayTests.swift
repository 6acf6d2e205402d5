// modal-demo --autoplay under headless sway 1.7, which sends no presentation feedback: the window
// presents once it is on screen — the compositor's frame callback after its first frame — whether
// that first frame is already at the tiled size (no resize follows) or not, on both backends.
import Foundation
import ModalKitTestHarness
import XCTest

final class AutoplaySwayTests: CompositorTestCase {
    private func cycle(size: String, compositing: String, in sway: HeadlessSway,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let demo = try startDemo(["--size", size, "--compositing", compositing, "--autoplay", "--log-events"],
                                 environment: sway.clientEnvironment)
        guard expectEvent(demo, "dismissed", "(--size \(size), \(compositing))", file: file, line: line) != nil else { return }
        let events = demo.stdoutLines.filter { ["presenting", "presented", "dismissing", "dismissed"].contains($0) }
        XCTAssertEqual(events, ["presenting", "presented", "dismissing", "dismissed"], "--size \(size), \(compositing)",
                       file: file, line: line)
        // Presented at the tiled size: the last configure before `presenting` is the window's.
        let lines = demo.stdoutLines
        if let p = lines.firstIndex(of: "presenting"),
           let c = lines[..<p].lastIndex(where: { DemoProcess.firstWord($0) == "configure" }) {
            XCTAssertEqual(lines[c], "configure 400x300", "--size \(size), \(compositing)", file: file, line: line)
        } else {
            XCTFail("no configure before presenting: \(lines.prefix(20))", file: file, line: line)
        }
        demo.stop()
    }

    /// The first frame is already at the tiled size: no second frame comes by itself.
    func testPresentsWhenTheFirstFrameIsAlreadyAtItsFinalSize() throws {
        let sway = try startSway(windowWidth: 400, windowHeight: 300)
        for compositing in ["pixman", "subsurface"] {
            try cycle(size: "400x300", compositing: compositing, in: sway)
        }
    }

    /// The first frame is at `--size`, and sway tiles the window to another size after it.
    func testPresentsAfterTheTilingResize() throws {
        let sway = try startSway(windowWidth: 400, windowHeight: 300)
        for compositing in ["pixman", "subsurface"] {
            try cycle(size: "200x150", compositing: compositing, in: sway)
        }
    }
}
