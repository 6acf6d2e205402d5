// Examples/CustomStyle built as its own SwiftPM package (a third-party style) and loaded by this
// prebuilt host, which was not rebuilt for it: its values through the ABI, and its pixels through
// the engine in-process and through `modal-demo render`.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKit
import ModalKitPlugins

final class PluginExampleTests: XCTestCase {
    typealias Support = PluginTestSupport

    /// Built once per test process into a scratch directory in this checkout's build directory
    /// (`Support.cacheDirectory`), so a second run reuses it (an incremental build), two checkouts
    /// never share one, and nothing is left in /tmp. Not the app examples' scratch directory
    /// (``ExamplePackages``): ModalKit's note tools (which SwiftPM builds for the examples too)
    /// compile ModalKit for the build machine there, and a build of one kind of package after the
    /// other compiles it again (~30 s each time).
    private static var built: Result<String, PluginTestFailure>?

    static func exampleLibrary() throws -> String {
        if let built { return try built.get() }
        let package = Support.packageRoot + "/Examples/CustomStyle"
        let scratch = Support.cacheDirectory + "/custom-style-example"
        let result: Result<String, PluginTestFailure>
        do {
            let run = try Support.run("/usr/bin/env", ["swift", "build", "--package-path", package,
                                                       "--scratch-path", scratch],
                                      isolatingTMPDIR: true, timeout: 1500)
            let library = scratch + "/debug/libModalKitStyleFadeScale.so"
            if run.status != 0 {
                result = .failure(PluginTestFailure("swift build of Examples/CustomStyle failed (\(run.status)): "
                                                    + String((run.stdout + run.stderr).suffix(3000))))
            } else if !FileManager.default.fileExists(atPath: library) {
                result = .failure(PluginTestFailure("the example's build did not produce \(library)"))
            } else {
                result = .success(library)
            }
        } catch {
            result = .failure(error as? PluginTestFailure ?? PluginTestFailure("\(error)"))
        }
        built = result
        return try result.get()
    }

    /// Black dim of `alpha` over an opaque pixel: each channel × (1 − alpha).
    private func dimmed(_ pixel: UInt32, by alpha: Double) -> [Double] {
        channels(pixel).map { $0 * (1 - alpha) }
    }

    private func channels(_ pixel: UInt32) -> [Double] {
        [Double((pixel >> 16) & 0xFF), Double((pixel >> 8) & 0xFF), Double(pixel & 0xFF)]
    }

    private func assertPixel(_ actual: UInt32, _ expected: [Double], tolerance: Double = 2, _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let got = channels(actual)
        let close = zip(got, expected).allSatisfy { abs($0 - $1) <= tolerance }
        XCTAssertTrue(close, "\(what): got \(got), expected \(expected.map { $0.rounded() })", file: file, line: line)
        XCTAssertEqual(actual >> 24, 0xFF, "\(what): opaque", file: file, line: line)
    }

    func testExampleBuildsAsItsOwnPackageAndRunsInThePrebuiltHost() throws {
        let library = try Self.exampleLibrary()
        // Its note (written by its own build step) says what the loaded library says.
        XCTAssertEqual(try StyleLoader(searchPath: []).find(library).metadata.source, .note)
        let module = try StyleLoader(searchPath: []).load(library)
        XCTAssertEqual(module.metadataSource, .note)
        XCTAssertEqual(module.name, "fade-scale")
        XCTAssertEqual(module.options.map(\.key), ["width", "height", "scale-from", "dim-alpha", "duration", "curve"])

        // Its own rules, as the example documents them: a 280×200 centred card, scale 0.9 → 1,
        // opacity 0 → 1, black dim 0 → 0.4, 0.25 s ease-out.
        let style = try module.makeStyle()
        let bounds = Rect(x: 0, y: 0, width: 400, height: 600)
        let frame = style.frameOfPresentedView(layoutContext(bounds))
        XCTAssertEqual(frame, Rect(x: 60, y: 200, width: 280, height: 200))
        let none = TransitionContext(phase: .present, containerBounds: bounds)
        XCTAssertEqual(style.presentedViewTransform(0, frame, none), ViewTransform(scale: 0.9, alpha: 0))
        XCTAssertEqual(style.presentedViewTransform(1, frame, none), .identity)
        // Presented from a control: it scales about that control's centre, in unit coordinates of
        // the card — a button at the top-left corner (0…20 pt) gives the anchor ((10−60)/280, (10−200)/200).
        let fromCorner = TransitionContext(phase: .present, sourceRect: Rect(x: 0, y: 0, width: 20, height: 20),
                                           containerBounds: bounds)
        let t = style.presentedViewTransform(0, frame, fromCorner)
        XCTAssertEqual(t, ViewTransform(scaleX: 0.9, scaleY: 0.9, anchor: Point(x: -50.0 / 280, y: -190.0 / 200), alpha: 0))
        // The anchor stays put: the point of the card over the control's centre does not move.
        let shown = PresentationController.apply(t, to: frame)
        XCTAssertEqual(shown.minX + (10 - frame.minX) / frame.width * shown.width, 10, accuracy: 1e-9)
        XCTAssertEqual(shown.minY + (10 - frame.minY) / frame.height * shown.height, 10, accuracy: 1e-9)
        XCTAssertEqual(style.dimmingAppearance(1, presentContext), DimmingAppearance(color: .black, alpha: 0.4))
        XCTAssertEqual(style.transitionDuration(presentContext), 0.25)
        XCTAssertEqual(style.timingCurve(presentContext), .easeOut)
        XCTAssertEqual(try module.makeStyle(options: ["width": "1000"]).frameOfPresentedView(layoutContext(bounds)).width, 360,
                       "20 points to each edge at most")

        // Pixels through the engine, linear curve so that time fraction = progress.
        let linear = try module.makeStyle(options: ["curve": "linear"])
        let scene = try DemoScene(style: linear)
        scene.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        func snapshot(_ progress: Double) throws -> Image {
            let image = try Image(width: 400, height: 600)
            scene.renderSnapshot(into: image.pixelBuffer, phase: .present, fraction: progress)
            return image
        }
        let start = try snapshot(0), half = try snapshot(0.5), end = try snapshot(1)
        let y = 300
        // Presented: outside the card the background under a 0.4 black dim; inside, the card.
        assertPixel(end.pixel(x: 50, y: y), dimmed(start.pixel(x: 50, y: y), by: 0.4), "outside the card at 1")
        let card = channels(end.pixel(x: 70, y: y))
        XCTAssertGreaterThan(zip(card, dimmed(start.pixel(x: 70, y: y), by: 0.4)).map { abs($0 - $1) }.max() ?? 0, 20,
                             "the card differs from the dimmed background")
        // Halfway: dim 0.2; the card is 0.95 × 280 = 266 wide (x 67…333) and half transparent.
        assertPixel(half.pixel(x: 63, y: y), dimmed(start.pixel(x: 63, y: y), by: 0.2), "outside the scaled card at 0.5")
        let under = dimmed(start.pixel(x: 71, y: y), by: 0.2)
        assertPixel(half.pixel(x: 71, y: y), zip(card, under).map { 0.5 * $0 + 0.5 * $1 }, tolerance: 3,
                    "card at opacity 0.5 over the 0.2 dim")
    }

    /// The example is the package a style author writes: one target, the style with its C entry,
    /// whose note comes from ModalKit's `ModalKitStyleNote` step (no note program, no linker
    /// flags), and `--list-styles` shows that note.
    func testTheExampleIsOneTargetWhoseNoteComesFromModalKitsBuildStep() throws {
        let package = Support.packageRoot + "/Examples/CustomStyle"
        let dump = try Support.run("/usr/bin/env", ["swift", "package", "dump-package", "--package-path", package],
                                   isolatingTMPDIR: true, timeout: 300)
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let targets = try XCTUnwrap(manifest["targets"] as? [[String: Any]])
        XCTAssertEqual(targets.compactMap { $0["name"] as? String }, ["FadeScaleStyle"])
        XCTAssertEqual(targets.first?["type"] as? String, "regular")
        let plugins = String(describing: targets.first?["pluginUsages"] ?? "")
        XCTAssertTrue(plugins.contains("ModalKitStyleNote") && plugins.contains("ModalKit"), plugins)
        XCTAssertFalse(dump.stdout.contains("unsafeFlags"), "no unsafe flags: the package can be a dependency")

        let library = try Self.exampleLibrary()
        let listed = try PluginCLITests.demo(["--list-styles"],
                                             environment: ["MODALKIT_STYLE_PATH": (library as NSString).deletingLastPathComponent])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdoutLines.contains(
            "fade-scale\t\(library)\tcentred card that fades in and scales 0.9 → 1 over a black dim"), listed.stdout)
        XCTAssertFalse(listed.stdout.contains("# no-note"), listed.stdout)
    }
}
