import ModalKitHostFuzzSupport
import ModalKit
import XCTest

/// `PresentationController.replaceStyle(_:)` (what `modal-demo --watch` uses): refused while a
/// transition runs, so a transition finishes with the style it started with; at rest the new
/// style's frame, corners and dim apply at once, and its duration from the next transition.
final class ReplaceStyleTests: XCTestCase {
    private let bounds = Rect(x: 0, y: 0, width: 400, height: 800)

    func testRefusedInFlightAppliedAtRest() throws {
        let old = try BuiltinStyle.insetCentered.make(options: ["duration": "1", "curve": "linear"])
        let new = try BuiltinStyle.bottomSheet.make(options: ["duration": "2", "curve": "linear"])
        let c = PresentationController(style: old)
        c.layout(containerBounds: bounds)
        XCTAssertTrue(c.present(now: 0))
        c.update(now: 0.5)
        XCTAssertFalse(c.replaceStyle(new), "presenting: refused")
        XCTAssertTrue(c.style === old)
        XCTAssertEqual(c.presentedViewFrame, Rect(x: 20, y: 110, width: 360, height: 580))
        c.update(now: 1)
        XCTAssertEqual(c.state, .presented)

        XCTAssertTrue(c.replaceStyle(new), "presented: at rest")
        XCTAssertTrue(c.style === new)
        XCTAssertEqual(c.presentedViewFrame, Rect(x: 0, y: 400, width: 400, height: 400), "the sheet's frame at once")
        XCTAssertEqual(c.presentedCornerStyle, CornerStyle(radius: 10, corners: .top))
        XCTAssertEqual(c.dimmingAppearance(progress: 1).alpha, 0.4, accuracy: 1e-12, "bottom-sheet's dim")

        XCTAssertTrue(c.dismiss(now: 10))
        c.update(now: 11)
        XCTAssertEqual(c.state, .dismissing, "the new style's 2 s duration")
        XCTAssertFalse(c.replaceStyle(old), "dismissing: refused")
        c.update(now: 12)
        XCTAssertEqual(c.state, .dismissed)
        XCTAssertTrue(c.replaceStyle(old), "dismissed: at rest")
    }
}
