// The comparison the sub-surface compositing tests share: one scenario (styles and options, one
// level or a stack of two) run to the same paused frame under each backend in turn, the
// screenshots equal within 2 per channel, and every frame's `backend=` what that backend should
// compose with. Compositor-neutral: the caller passes how to launch, type and take a screenshot.
import Foundation
import ModalKitSession
import XCTest

/// What to present and how far.
public struct LayerScenario {
    /// A label for messages and kept screenshots.
    public var name: String
    /// `--style …` arguments (with their `--style-option`s), one `--style` per level.
    public var styleArguments: [String]
    /// 1: Return presents level 1; 2: then Tab (focus on the card's Present another) and Return
    /// present level 2 over it.
    public var levels = 1
    /// Linear time fractions to hold level 1's presentation at (`--pause-at`; 1 = presented). A
    /// stack is compared presented (`--pause-at` would hold level 1 too).
    public var fractions: [Double] = [0.5, 1.0]

    public init(name: String, styleArguments: [String], levels: Int = 1, fractions: [Double] = [0.5, 1.0]) {
        self.name = name
        self.styleArguments = styleArguments
        self.levels = levels
        self.fractions = fractions
    }
}

/// How a test drives one compositor.
public struct CompositorDriver {
    /// Starts modal-demo with these arguments (plus `--log-events`) and waits until its window shows.
    public var launch: ([String]) throws -> DemoProcess
    /// Types one key: "enter" or "tab".
    public var key: (String) throws -> Void
    /// A screenshot once the picture is stable, the pointer parked off the window.
    public var screenshot: () throws -> RGBImage
    /// The compositor's scale, for messages.
    public var scaleLabel: String

    public init(launch: @escaping ([String]) throws -> DemoProcess, key: @escaping (String) throws -> Void,
                screenshot: @escaping () throws -> RGBImage, scaleLabel: String) {
        self.launch = launch
        self.key = key
        self.screenshot = screenshot
        self.scaleLabel = scaleLabel
    }
}

extension CompositorTestCase {
    /// For each fraction: the screenshot of the held frame under `--compositing subsurface` and
    /// under `--compositing pixman`; they must agree within 2 per channel everywhere, every frame
    /// of the sub-surface run says `backend=subsurface` (`subsurface+pixman-presented` counts: the
    /// dim and the views are sub-surfaces, a view's alpha or scale drawn by pixman into its own
    /// buffer), every frame of the pixman run `backend=pixman`, and the dim shows.
    public func compareBackends(_ scenario: LayerScenario, on driver: CompositorDriver,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let fractions = scenario.levels > 1 ? [1.0] : scenario.fractions
        // The window before the presentation: the same picture for every run of the scenario
        // (same styles and size; the backends compose the same frame), so it is taken once.
        var before: RGBImage?
        for f in fractions {
            var shots: [String: RGBImage] = [:]
            for backend in ["subsurface", "pixman"] {
                // The held frame is F's at any duration (the scene clock stands at exactly F's
                // time), so the transitions are short: nothing waits on a clock.
                let demo = try driver.launch(scenario.styleArguments + ["--duration", "0.3", "--compositing", backend,
                                                                        "--pause-at", String(f)])
                if before == nil { before = try driver.screenshot() }
                let mark = demo.mark()
                try driver.key("enter")
                guard expectEvent(demo, "presenting", since: mark, file: file, line: line) != nil else { return }
                guard expectEvent(demo, f < 1 ? "paused" : "presented", since: mark, timeout: 0.3 * f + 10,
                                  file: file, line: line) != nil else { return }
                if scenario.levels > 1 {
                    try driver.key("tab")
                    try driver.key("enter")
                    let presented2 = waitUntil(timeout: 0.3 + eventTimeout, interval: 0.05) {
                        demo.stdoutLines.dropFirst(mark).contains("presented 2")
                    }
                    guard presented2 else {
                        return XCTFail("\(scenario.name): no `presented 2`: \(demo.diagnostics())", file: file, line: line)
                    }
                }
                let shot = try driver.screenshot()
                keep(shot, "\(scenario.name)-\(driver.scaleLabel)-\(f)-\(backend)")
                let frames = demo.events("frame", since: mark)
                XCTAssertFalse(frames.isEmpty, "frames were committed", file: file, line: line)
                let expected = "backend=\(backend)"
                XCTAssertTrue(frames.allSatisfy { $0.split(separator: " ").contains { $0.hasPrefix(expected) } },
                              "\(scenario.name) at \(driver.scaleLabel): every frame by \(backend): \(frames.filter { !$0.contains(expected) }.prefix(5))",
                              file: file, line: line)
                XCTAssertGreaterThan(differences(shot, before!, tolerance: 8, limit: 1).count, 0,
                                     "the dim shows at \(f) (\(backend))", file: file, line: line)
                shots[backend] = shot
                demo.stop()
            }
            if let a = shots["subsurface"], let b = shots["pixman"] {
                XCTAssertEqual(differences(a, b, tolerance: 2), [],
                               "\(scenario.name) at \(driver.scaleLabel), fraction \(f): sub-surface vs pixman",
                               file: file, line: line)
            }
        }
    }

    /// The scenarios every built-in style and option goes through: each style with its defaults;
    /// the bottom sheet with a gradient dim, a drop shadow, a receding presenting view, detents and
    /// a grabber; the inset card with a shadow and a border; the stacks of two (a card under a
    /// sheet that makes it recede; a sheet under a popover).
    public static var builtinLayerScenarios: [LayerScenario] {
        func style(_ name: String, _ options: [String] = []) -> [String] {
            ["--style", name] + options.flatMap { ["--style-option", $0] }
        }
        return [
            LayerScenario(name: "inset-centered", styleArguments: style("inset-centered")),
            LayerScenario(name: "inset-centered-shadow-border",
                          styleArguments: style("inset-centered", ["shadow=soft", "border=#FF2080"])),
            LayerScenario(name: "bottom-sheet", styleArguments: style("bottom-sheet")),
            LayerScenario(name: "bottom-sheet-gradient-shadow",
                          styleArguments: style("bottom-sheet", ["dim=gradient", "shadow=soft"])),
            LayerScenario(name: "bottom-sheet-recede-detents",
                          styleArguments: style("bottom-sheet", ["recede=on", "detents=0.5,0.9", "grabber=on"])),
            LayerScenario(name: "popover", styleArguments: style("popover")),
            LayerScenario(name: "adaptive", styleArguments: style("adaptive")),
            LayerScenario(name: "stack-card-receding-sheet", styleArguments: style("inset-centered") + style("bottom-sheet", ["recede=on"]),
                          levels: 2),
            LayerScenario(name: "stack-sheet-popover", styleArguments: style("bottom-sheet", ["shadow=soft"]) + style("popover"),
                          levels: 2),
        ]
    }
}
