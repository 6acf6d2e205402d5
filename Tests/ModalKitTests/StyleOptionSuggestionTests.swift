import ModalKit
import ModalKitPlugins
import XCTest

/// "Did you mean": the declared key nearest a mistyped one (Levenshtein distance, at most 2 edits
/// or a third of the key's length).
final class StyleOptionSuggestionTests: XCTestCase {
    let keys = ["margin-x", "margin-y", "corner-radius", "dim-alpha", "duration", "curve", "dismissible", "height"]

    func testNearMissesNameTheKeyMeant() {
        XCTAssertEqual(StyleOption.closestKey(to: "dim-alfa", among: keys), "dim-alpha", "one substitution")
        XCTAssertEqual(StyleOption.closestKey(to: "dimalpha", among: keys), "dim-alpha", "one insertion")
        XCTAssertEqual(StyleOption.closestKey(to: "margin_x", among: keys), "margin-x")
        XCTAssertEqual(StyleOption.closestKey(to: "heigth", among: keys), "height", "a swap is two edits")
        XCTAssertEqual(StyleOption.closestKey(to: "cornerradious", among: keys), "corner-radius", "two edits")
        XCTAssertEqual(StyleOption.closestKey(to: "Duration", among: keys), "duration", "case is one edit")
    }

    func testFarKeysAndTiesAreHandled() {
        XCTAssertNil(StyleOption.closestKey(to: "radius", among: keys), "7 edits from corner-radius")
        XCTAssertNil(StyleOption.closestKey(to: "x", among: keys), "fewer characters than edits")
        XCTAssertNil(StyleOption.closestKey(to: "colour", among: keys))
        XCTAssertNil(StyleOption.closestKey(to: "dim-alfa", among: []))
        XCTAssertEqual(StyleOption.closestKey(to: "margin-z", among: keys), "margin-x", "equally near: the first declared")
    }

    func testTheMessagesNameIt() throws {
        XCTAssertThrowsError(try StyleOptions(["dim-alfa": "1"], declared: [.number("dim-alpha", "alpha", default: 0.5, in: 0...1)])) {
            XCTAssertEqual("\($0)", "unknown style option 'dim-alfa'; did you mean 'dim-alpha'? (known: dim-alpha)")
        }
        let far = StyleLoadError.unknownOption(path: "/p.so", style: "s", key: "radius",
                                               known: [StyleOption(key: "corner-radius", summary: "corners", defaultValue: "1")])
        XCTAssertEqual(far.description, "/p.so: style 's' has no option 'radius' (options: corner-radius (corners))")
    }
}
