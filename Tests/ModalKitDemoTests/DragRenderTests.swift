import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// `modal-demo render --drag DY` (DemoScene.renderDrag): the bottom sheet at 390 × 844 (sheet
/// 422 pt tall) pressed and dragged, drawn while held, through the window's input path.
final class DragRenderTests: XCTestCase {
    /// The first row from the top in column `x` that is the card's white.
    private func sheetTop(_ image: Image, x: Int) -> Int? {
        (0..<image.height).first { image.pixel(x: x, y: $0) == 0xFFFFFFFF }
    }

    private func dragged(_ distance: Double, options: [String: String] = [:]) throws -> (Image, DemoScene) {
        let scene = try DemoScene(style: try BuiltinStyle.bottomSheet.make(options: options))
        scene.layout(containerSize: Size(width: 390, height: 844), scale: 1)
        let image = try Image(width: 390, height: 844)
        scene.renderDrag(into: image.pixelBuffer, distance: distance)
        return (image, scene)
    }

    func testADragDownMovesTheSheet1To1AndLightensTheDim() throws {
        let (image, scene) = try dragged(127)
        XCTAssertEqual(sheetTop(image, x: 100), 422 + 127)
        XCTAssertEqual(scene.host.snapshot(at: 10.2).dim.alpha, 0.4 * (1 - 127.0 / 422), accuracy: 1e-9)
        XCTAssertEqual(scene.state, .presented, "held: no state change")
    }

    func testADragUpPastThePresentedPlaceRubberBands() throws {
        // (1 − 1/(100·0.55/844 + 1))·844 = 51.64 pt above 422: 370.36, drawn at 370.
        let (image, _) = try dragged(-100)
        XCTAssertEqual(sheetTop(image, x: 100), 370)
    }

    func testARefusingSheetRubberBandsDownToo() throws {
        // 295 pt down shows (1 − 1/(295·0.55/844 + 1))·844 = 136.09 pt (drawn at the whole pixel 558).
        let (image, _) = try dragged(295, options: ["dismissible": "false"])
        XCTAssertEqual(sheetTop(image, x: 100), 422 + 136)
    }
}

/// `--pause-at` and a drag: a drag takes over the paused presentation and its spring settles.
final class PausedDragTests: XCTestCase {
    func testADragOnAPausedPresentationResumesTheClockAndSettles() throws {
        var interactions: [PresentationInteractionEvent] = []
        var events: [SceneEvent] = []
        let scene = try DemoScene(style: try BuiltinStyle.bottomSheet.make()) { events.append($0) }
        scene.onInteraction = { interactions.append($0) }
        scene.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        scene.pauseFraction = 0.5
        scene.present(now: 0)
        scene.host.update(now: 0)
        let image = try Image(width: 480, height: 800)
        scene.render(into: image.pixelBuffer, now: 1, bufferAge: 0)
        XCTAssertTrue(scene.isPaused)
        let top = try XCTUnwrap(scene.host.presentedViewRect(at: 0.175)).minY   // 600: half-way
        scene.handle(.pointerMotion(Point(x: 240, y: top + 100)), now: 2)
        scene.handle(.pointerButton(pressed: true), now: 2)
        for i in 1...10 { scene.handle(.pointerMotion(Point(x: 240, y: top + 100 - Double(i) * 15)), now: 2 + Double(i) * 0.02) }
        scene.handle(.pointerButton(pressed: false), now: 2.5)
        XCTAssertFalse(scene.isPaused, "the drag took the presentation over")
        XCTAssertTrue(scene.isAnimating, "its spring runs")
        scene.render(into: image.pixelBuffer, now: 5, bufferAge: 0)
        XCTAssertEqual(scene.state, .presented)
        XCTAssertEqual(interactions, [.dragBegan, .dragEnded(velocity: 0), .detent(1)])
        XCTAssertEqual(events, [.presenting, .paused, .presented])
    }
}
