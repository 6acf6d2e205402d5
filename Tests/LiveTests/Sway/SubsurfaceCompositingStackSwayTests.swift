// The sub-surface backend under headless sway at whole scales for every built-in style and its
// options, a receding presenting view and stacks of two: each level's dim and presented view are
// sub-surfaces, the receding presenting view is drawn into the window's buffer under them, and the
// screen shows the pixman backend's pixels (within 2 per channel) at the same paused frame.
import ModalKitTestHarness
import Foundation
import XCTest

final class SubsurfaceCompositingStackSwayTests: CompositorTestCase {
    func testEveryBuiltinStyleAndStackEqualsPixmanAtScaleOne() throws {
        let driver = try swayDriver(scale: 1)
        for scenario in Self.builtinLayerScenarios { try compareBackends(scenario, on: driver) }
    }

    func testEveryBuiltinStyleAndStackEqualsPixmanAtScaleTwo() throws {
        let driver = try swayDriver(scale: 2)
        for scenario in Self.builtinLayerScenarios { try compareBackends(scenario, on: driver) }
    }

    /// At scale 3 the dim (a colour buffer stretched ~750 times, or the gradient's strip) covers the
    /// window's edge rows and columns as pixman's dim does, the top row included.
    func testInsetCenteredAndTheGradientSheetEqualPixmanAtScaleThree() throws {
        let driver = try swayDriver(scale: 3)
        try compareBackends(LayerScenario(name: "inset-centered", styleArguments: ["--style", "inset-centered"]), on: driver)
        try compareBackends(LayerScenario(name: "bottom-sheet-gradient",
                                          styleArguments: ["--style", "bottom-sheet", "--style-option", "dim=gradient"]),
                            on: driver)
    }

    private func swayDriver(scale: Int) throws -> CompositorDriver {
        let sway = try startSway(windowWidth: 400, windowHeight: 500, scale: scale)
        let vnc = try startVNC(sway)
        return CompositorDriver(
            launch: { [self] arguments in
                let (demo, _) = try launchDemo(arguments, in: sway)
                try vnc.park()
                return demo
            },
            key: { name in try vnc.key(name) },
            screenshot: { try sway.stableScreenshot(timeout: 5, interval: 0.1) },
            scaleLabel: "sway x\(scale)")
    }
}
