import BuiltinStyleDoubles
import ModalDemoKit
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
