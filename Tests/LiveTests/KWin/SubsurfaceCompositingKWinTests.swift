// The sub-surface backend under headless KWin, which offers fractional-scale-v1 and wp_viewporter:
// at 1.5 the window's buffer is drawn at 1.5 and mapped onto its points by a viewport, and the dim
// and presented views stay sub-surfaces, their buffers at the scale shown 1:1 through their
// viewports — the same pixels as the pixman backend, for every built-in style and its options and
// for stacks of two. At 2 KWin offers the same protocols (the fractional path at a whole scale).
//
// "The same frame": `--pause-at F` holds the presentation at linear time fraction F; each backend
// is run to F in turn and the screenshot (KWin's ScreenShot2, device pixels, no cursor) taken once
// the picture is stable.
import ModalKitTestHarness
import Foundation
import XCTest

final class SubsurfaceCompositingKWinTests: CompositorTestCase {
    /// An odd number of points each way: the container's right and bottom edges fall mid-pixel at 1.5.
    private let (contentWidth, contentHeight) = (401, 451)

    func testEveryBuiltinStyleAndStackEqualsPixmanAtOnePointFive() throws {
        let driver = try kwinDriver(scale: 1.5)
        for scenario in Self.builtinLayerScenarios { try compareBackends(scenario, on: driver) }
    }

    func testEveryBuiltinStyleAndStackEqualsPixmanAtTwoOnTheFractionalPath() throws {
        let driver = try kwinDriver(scale: 2)
        for scenario in Self.builtinLayerScenarios { try compareBackends(scenario, on: driver) }
    }

    /// A headless KWin at `scale` and how to drive modal-demo in it.
    private func kwinDriver(scale: Double) throws -> CompositorDriver {
        let kwin = try startKWin(scale: scale)
        let parking = (x: 5.0, y: 595.0)   // off the centred window (KWin's screenshot has no cursor anyway)
        return CompositorDriver(
            launch: { [self] arguments in
                try kwin.driver.move(x: parking.x, y: parking.y)
                let demo = try startDemo(["--size", "\(contentWidth)x\(contentHeight)", "--log-events"] + arguments,
                                         environment: kwin.clientEnvironment)
                guard demo.waitForLine("configure", timeout: eventTimeout) != nil else {
                    throw HarnessError("modal-demo logged no `configure` within \(eventTimeout) s:\n\(demo.diagnostics())")
                }
                _ = try kwin.waitForWindow(pid: demo.pid, width: contentWidth, height: contentHeight, timeout: eventTimeout)
                let drawn = waitUntil(timeout: eventTimeout, interval: 0.05) {
                    let lines = demo.stdoutLines
                    guard let c = lines.lastIndex(where: { DemoProcess.firstWord($0) == "configure" }) else { return false }
                    return lines[c] == "configure \(contentWidth)x\(contentHeight)"
                        && lines[(c + 1)...].contains { DemoProcess.firstWord($0) == "frame" }
                }
                guard drawn else { throw HarnessError("modal-demo did not draw at its size:\n\(demo.diagnostics())") }
                return demo
            },
            key: { name in try kwin.driver.key(name == "tab" ? .tab : .enter) },
            screenshot: { try kwin.stableScreenshot(timeout: 5, interval: 0.1) },
            scaleLabel: "kwin x\(scale)")
    }
}
