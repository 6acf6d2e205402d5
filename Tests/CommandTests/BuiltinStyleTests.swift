import ModalKit
import ModalKitTestHarness
import XCTest

/// The built-in styles' options (docs/design.md): the built plugins, loaded through the plugin
/// loader from the build directory (the unit tests use in-process doubles of these numbers).
final class BuiltinStyleTests: XCTestCase {
    func testDefaultsAreTheDesignNumbers() throws {
        let inset = try BuiltinStyle.insetCentered.make()
        let b = Rect(x: 0, y: 0, width: 400, height: 800)
        XCTAssertEqual(inset.frameOfPresentedView(layoutContext(b)), Rect(x: 20, y: 110, width: 360, height: 580))
        XCTAssertEqual(inset.cornerStyle(layoutContext(b)), CornerStyle(radius: 10, corners: .all))
        XCTAssertEqual(inset.dimmingAppearance(1, presentContext).alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(inset.dimmingAppearance(1, presentContext).color, .black)
        XCTAssertEqual(inset.transitionDuration(presentContext), 0.35, accuracy: 1e-9)
        XCTAssertEqual(inset.timingCurve(presentContext).value(at: 0.25), 0.1291, accuracy: 5e-4)

        let sheet = try BuiltinStyle.bottomSheet.make()
        XCTAssertEqual(sheet.frameOfPresentedView(layoutContext(b)), Rect(x: 0, y: 400, width: 400, height: 400))
        XCTAssertEqual(sheet.cornerStyle(layoutContext(b)), CornerStyle(radius: 10, corners: .top))
        XCTAssertEqual(sheet.dimmingAppearance(1, presentContext).alpha, 0.4, accuracy: 1e-9)
        XCTAssertEqual(sheet.dimmingAppearance(0, presentContext).alpha, 0, accuracy: 1e-9)
        XCTAssertEqual(sheet.transitionDuration(presentContext), 0.35, accuracy: 1e-9)
    }

    func testOptionsChangeTheFrame() throws {
        let b = Rect(x: 0, y: 0, width: 1000, height: 600)
        let inset = try BuiltinStyle.insetCentered.make(options: ["margin-x": "30", "margin-y": "50",
                                                                  "corner-radius": "0", "dim-alpha": "0.3"])
        XCTAssertEqual(inset.frameOfPresentedView(layoutContext(b)), Rect(x: 30, y: 50, width: 940, height: 500))
        XCTAssertEqual(inset.dimmingAppearance(0.5, presentContext).alpha, 0.15, accuracy: 1e-9)
        // height ≤ 1 is a fraction of the container, above 1 points; on this 1000 pt container
        // the sheet is 640 pt wide (Material 3's cap, `max-width`), centred: x = (1000 − 640) / 2.
        let quarter = try BuiltinStyle.bottomSheet.make(options: ["height": "0.25"])
        XCTAssertEqual(quarter.frameOfPresentedView(layoutContext(b)), Rect(x: 180, y: 450, width: 640, height: 150))
        let points = try BuiltinStyle.bottomSheet.make(options: ["height": "200", "duration": "0.5", "curve": "linear"])
        XCTAssertEqual(points.frameOfPresentedView(layoutContext(b)), Rect(x: 180, y: 400, width: 640, height: 200))
        let full = try BuiltinStyle.bottomSheet.make(options: ["height": "200", "max-width": "0"])
        XCTAssertEqual(full.frameOfPresentedView(layoutContext(b)), Rect(x: 0, y: 400, width: 1000, height: 200))
        XCTAssertEqual(points.transitionDuration(presentContext), 0.5, accuracy: 1e-9)
        XCTAssertEqual(points.timingCurve(presentContext).value(at: 0.3), 0.3, accuracy: 1e-9)
    }

    func testBadOptionsAreRejectedWithTheKeyNamed() {
        let cases: [(BuiltinStyle, [String: String], String)] = [
            (.insetCentered, ["dim-alpha": "2"], "dim-alpha"),
            (.insetCentered, ["margin-x": "wide"], "margin-x"),
            (.insetCentered, ["curve": "bouncy"], "curve"),
            (.insetCentered, ["duration": "-1"], "duration"),
            (.bottomSheet, ["height": "0"], "height"),
            (.bottomSheet, ["height": "-0.5"], "height"),
            (.bottomSheet, ["corner-radius": "nan"], "corner-radius"),
            (.bottomSheet, ["margin-x": "20"], "margin-x"),  // not a sheet option
        ]
        for (style, options, key) in cases {
            XCTAssertThrowsError(try style.make(options: options), "\(style) \(options)") { error in
                XCTAssertTrue("\(error)".contains(key), "\(error)")
            }
        }
        // The range refused is the range declared (`--describe-style bottom-sheet`: 0.01 to 100000).
        XCTAssertThrowsError(try BuiltinStyle.bottomSheet.make(options: ["height": "0"])) { error in
            XCTAssertTrue("\(error)".contains("0.01 to 100000"), "\(error)")
        }
        XCTAssertNoThrow(try BuiltinStyle.bottomSheet.make(options: ["height": "0.01"]))
    }
}

/// The two built-in style plugins, loaded by name from the installed styles with `options`.
enum BuiltinStyle: String, CaseIterable {
    case insetCentered = "inset-centered"
    case bottomSheet = "bottom-sheet"

    func make(options: [String: String] = [:]) throws -> PresentationStyle {
        try StyleLoader(searchPath: [PluginTestSupport.stylesDirectory()]).load(rawValue).makeStyle(options: options)
    }
}
