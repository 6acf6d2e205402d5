import ModalKit
import ModalKitTestHarness
import ModalKitPlugins
import XCTest

/// The built-in styles' options (docs/design.md): the built plugins, loaded through the plugin
/// loader from the build directory (the unit tests use in-process doubles of these numbers).
final class BuiltinStyleTests: XCTestCase {
    func testDefaultsAreTheDesignNumbers() throws {
        let inset = try installedStyle("inset-centered")
        let b = Rect(x: 0, y: 0, width: 400, height: 800)
        XCTAssertEqual(inset.frameOfPresentedView(layoutContext(b)), Rect(x: 20, y: 110, width: 360, height: 580))
        XCTAssertEqual(inset.cornerStyle(layoutContext(b)), CornerStyle(radius: 10, corners: .all))
        XCTAssertEqual(inset.dimmingAppearance(1, presentContext).alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(inset.dimmingAppearance(1, presentContext).color, .black)
        XCTAssertEqual(inset.transitionDuration(presentContext), 0.35, accuracy: 1e-9)
        XCTAssertEqual(inset.timingCurve(presentContext).value(at: 0.25), 0.1291, accuracy: 5e-4)

        let sheet = try installedStyle("bottom-sheet")
        XCTAssertEqual(sheet.frameOfPresentedView(layoutContext(b)), Rect(x: 0, y: 400, width: 400, height: 400))
        XCTAssertEqual(sheet.cornerStyle(layoutContext(b)), CornerStyle(radius: 10, corners: .top))
        XCTAssertEqual(sheet.dimmingAppearance(1, presentContext).alpha, 0.4, accuracy: 1e-9)
        XCTAssertEqual(sheet.dimmingAppearance(0, presentContext).alpha, 0, accuracy: 1e-9)
        XCTAssertEqual(sheet.transitionDuration(presentContext), 0.35, accuracy: 1e-9)
    }

    func testOptionsChangeTheFrame() throws {
        let b = Rect(x: 0, y: 0, width: 1000, height: 600)
        let inset = try installedStyle("inset-centered", options: ["margin-x": "30", "margin-y": "50",
                                                                  "corner-radius": "0", "dim-alpha": "0.3"])
        XCTAssertEqual(inset.frameOfPresentedView(layoutContext(b)), Rect(x: 30, y: 50, width: 940, height: 500))
        XCTAssertEqual(inset.dimmingAppearance(0.5, presentContext).alpha, 0.15, accuracy: 1e-9)
        // height ≤ 1 is a fraction of the container, above 1 points; on this 1000 pt container
        // the sheet is 640 pt wide (Material 3's cap, `max-width`), centred: x = (1000 − 640) / 2.
        let quarter = try installedStyle("bottom-sheet", options: ["height": "0.25"])
        XCTAssertEqual(quarter.frameOfPresentedView(layoutContext(b)), Rect(x: 180, y: 450, width: 640, height: 150))
        let points = try installedStyle("bottom-sheet", options: ["height": "200", "duration": "0.5", "curve": "linear"])
        XCTAssertEqual(points.frameOfPresentedView(layoutContext(b)), Rect(x: 180, y: 400, width: 640, height: 200))
        let full = try installedStyle("bottom-sheet", options: ["height": "200", "max-width": "0"])
        XCTAssertEqual(full.frameOfPresentedView(layoutContext(b)), Rect(x: 0, y: 400, width: 1000, height: 200))
        XCTAssertEqual(points.transitionDuration(presentContext), 0.5, accuracy: 1e-9)
        XCTAssertEqual(points.timingCurve(presentContext).value(at: 0.3), 0.3, accuracy: 1e-9)
    }

    func testBadOptionsAreRejectedWithTheKeyNamed() {
        let cases: [(String, [String: String], String)] = [
            ("inset-centered", ["dim-alpha": "2"], "dim-alpha"),
            ("inset-centered", ["margin-x": "wide"], "margin-x"),
            ("inset-centered", ["curve": "bouncy"], "curve"),
            ("inset-centered", ["duration": "-1"], "duration"),
            ("bottom-sheet", ["height": "0"], "height"),
            ("bottom-sheet", ["height": "-0.5"], "height"),
            ("bottom-sheet", ["corner-radius": "nan"], "corner-radius"),
            ("bottom-sheet", ["margin-x": "20"], "margin-x"),  // not a sheet option
        ]
        for (style, options, key) in cases {
            XCTAssertThrowsError(try installedStyle(style, options: options), "\(style) \(options)") { error in
                XCTAssertTrue("\(error)".contains(key), "\(error)")
            }
        }
        // The range refused is the range declared (`--describe-style bottom-sheet`: 0.01 to 100000).
        XCTAssertThrowsError(try installedStyle("bottom-sheet", options: ["height": "0"])) { error in
            XCTAssertTrue("\(error)".contains("0.01 to 100000"), "\(error)")
        }
        XCTAssertNoThrow(try installedStyle("bottom-sheet", options: ["height": "0.01"]))
    }
}

/// Built-in style plugin `name` (inset-centered, bottom-sheet, …), loaded by name from the
/// installed styles, with `options`.
/// - Throws: what the loader and the style's option check throw.
private func installedStyle(_ name: String, options: [String: String] = [:]) throws -> PresentationStyle {
    try StyleLoader(searchPath: [PluginTestSupport.stylesDirectory()]).load(name).makeStyle(options: options)
}
