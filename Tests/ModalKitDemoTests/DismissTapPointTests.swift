import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// `PresentationController.dismissingTapPoint`: a point the scene's own tap rule dismisses at,
/// found through the style's hooks, preferring the dim's top centre; nil when the style has none.
final class DismissTapPointTests: XCTestCase {
    /// A style with a given frame and tap veto, no transform.
    private func FrameStyle(frame: @escaping (Rect) -> Rect,
                            accepts: @escaping (Point, Rect) -> Bool = { _, _ in true }) -> PresentationStyle {
        let style = PresentationStyle()
        style.frameOfPresentedView = { c in frame(c.containerBounds) }
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.5 * progress) }
        style.shouldDismissOnTap = { point, c in accepts(point, c.containerBounds) }
        return style
    }

    private let size = Size(width: 800, height: 600)

    func testTheBuiltInStylesDismissAtTheTopCentre() throws {
        // inset-centered: card 20…780 × 110…490; bottom-sheet: the sheet in the bottom half.
        for style in BuiltinStyle.allCases {
            XCTAssertEqual(PresentationController.dismissingTapPoint(style: try style.make(), containerSize: size),
                           Point(x: 400, y: 60), style.rawValue)
        }
    }

    /// No point for a modal that refuses dismissal, nor for a sheet resting at an undimmed
    /// detent (taps outside it reach the view underneath); a dimmed detent keeps the top centre.
    func testNoPointWhenRefusingOrRestingUndimmed() throws {
        let refusing = try BuiltinStyle.bottomSheet.make(options: ["dismissible": "false"])
        XCTAssertNil(PresentationController.dismissingTapPoint(style: refusing, containerSize: size))
        let undimmed = try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5,0.9", "undimmed-detent": "0"])
        XCTAssertNil(PresentationController.dismissingTapPoint(style: undimmed, containerSize: size))
        let dimmed = try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5,0.9"])
        XCTAssertEqual(PresentationController.dismissingTapPoint(style: dimmed, containerSize: size), Point(x: 400, y: 60))
    }

    /// A card 10 pt from the top covers (centre, 60): the point is in the left or right 20 pt
    /// strip, at least 8 pt from the card and the window edge, and the scene dismisses there.
    func testACardCoveringTheTopCentreGivesAPointBesideIt() throws {
        let style = try BuiltinStyle.insetCentered.make(options: ["margin-y": "10"])
        guard let p = PresentationController.dismissingTapPoint(style: style, containerSize: size) else {
            return XCTFail("the 20 pt strips left and right of the card are dim")
        }
        XCTAssertTrue((8...12).contains(p.x) || (788...792).contains(p.x), "\(p)")
        XCTAssertTrue((8...592).contains(p.y), "\(p)")
        XCTAssertEqual(p.x, p.x.rounded(), "whole points")
        try assertSceneDismisses(style, at: p)
    }

    /// Only 5 pt of dim at the top and no side strips: no room for 8 pt of clearance, so 2 pt.
    func testANarrowStripFallsBackToTwoPointsOfClearance() throws {
        let style = try BuiltinStyle.insetCentered.make(options: ["margin-y": "5", "margin-x": "0"])
        let p = PresentationController.dismissingTapPoint(style: style, containerSize: size)
        XCTAssertEqual(p?.y, 2, "\(String(describing: p))")
        XCTAssertEqual(p.map { abs($0.x - 400) <= 8 }, true, "nearest the top centre: \(String(describing: p))")
    }

    /// A container 200 times as wide as it is tall: the grid's step is at least the longer side
    /// / 2000 (here 10 pt, not 2), so the search stays within 2000 columns whatever the shape (a
    /// 2 pt grid over a long container held millions of candidates: gigabytes and minutes for a
    /// configure of an extreme size). Bottom sheet: the dim is y 0…50; anchor (10000, 50).
    func testTheGridOverALongContainerHasAtMost2000Columns() throws {
        let style = try BuiltinStyle.bottomSheet.make()
        let p = PresentationController.dismissingTapPoint(style: style, containerSize: Size(width: 20000, height: 100))
        XCTAssertEqual(p, Point(x: 9998, y: 38), "x on 8 + 10k, y on 8 + 10k below 42 (8 pt above the sheet)")
    }

    func testNoneWhenThePresentedViewCoversTheContainer() throws {
        let style = try BuiltinStyle.insetCentered.make(options: ["margin-y": "0", "margin-x": "0"])
        XCTAssertNil(PresentationController.dismissingTapPoint(style: style, containerSize: size))
    }

    func testNoneWhenTheStyleRefusesEveryTap() {
        let style = FrameStyle(frame: { b in Rect(x: 100, y: 100, width: b.width - 200, height: b.height - 200) },
                               accepts: { _, _ in false })
        XCTAssertNil(PresentationController.dismissingTapPoint(style: style, containerSize: size))
    }

    /// The style's veto is asked: only its bottom-left corner dismisses, so the answer is there.
    func testTheStylesVetoIsHonoured() throws {
        let style = FrameStyle(frame: { _ in Rect(x: 300, y: 200, width: 200, height: 200) },
                               accepts: { p, b in p.x < 100 && p.y > b.height - 100 })
        guard let p = PresentationController.dismissingTapPoint(style: style, containerSize: size) else {
            return XCTFail("the bottom-left corner dismisses")
        }
        XCTAssertLessThan(p.x, 100)
        XCTAssertGreaterThan(p.y, 500)
        XCTAssertLessThanOrEqual(p.y, 592, "clear of the window edge")
        try assertSceneDismisses(style, at: p)
    }

    /// A click at `p` on a scene presenting `style` (at rest) dismisses it.
    private func assertSceneDismisses(_ style: PresentationStyle, at p: Point,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        let f = try SceneFixture(style, width: Int(size.width), height: Int(size.height))
        f.scene.present(now: 0)
        f.scene.handle(.pointerMotion(p), now: 5)
        f.scene.handle(.pointerButton(pressed: true), now: 5)
        f.scene.handle(.pointerButton(pressed: false), now: 5.01)
        XCTAssertEqual(f.scene.state, .dismissing, "a click at \(p)", file: file, line: line)
    }
}
