@testable import ModalKitDemo
@testable import ModalKitText
import ModalKit
import XCTest

/// What `SceneFontLoad` leaves for the window's first frame (docs/design.md, start-up and
/// footprint): the four fonts it draws with, each having shaped the words the frame draws with it,
/// so the frame shapes nothing; the card's title font comes later, its title shaped too.
final class SceneFontLoadWorkTests: XCTestCase {
    private func shapings(_ set: FontSet) -> [Int] {
        [set.title, set.body, set.button, set.caption].map(\.font.shapeCount)
    }

    func testTheFirstFrameFindsItsWordsShaped() throws {
        let set = try SceneFontLoad().wait(onLabelFailure: { fatalError("\($0)") })
        XCTAssertEqual(shapings(set), [1, 1, 1, 1], "title, subtitle, button title and hint shaped by the load")
        let image = try Image(width: 800, height: 600)
        DemoLook.drawPresentingView(into: image.pixmanImage, size: Size(width: 800, height: 600), scale: 1, fonts: set,
                                    button: ButtonAppearance(), hint: DemoLook.hint)
        XCTAssertEqual(shapings(set), [1, 1, 1, 1], "the frame drew the lines the load shaped")
        XCTAssertEqual(set.label.font.shapeCount, 1, "the card's title shaped by the load as well")
        XCTAssertEqual(set.label.font.pixelSize, FontSet.labelPoints)
    }

    /// Cancelled before anything was waited for: the waiting thread makes what the load did not.
    func testACancelledLoadStillGivesEveryFont() throws {
        let load = SceneFontLoad()
        load.cancel()
        let set = try load.wait(onLabelFailure: { fatalError("\($0)") })
        XCTAssertEqual([set.title, set.body, set.button, set.caption, set.label].map(\.font.pixelSize),
                       [FontSet.titlePoints, FontSet.bodyPoints, FontSet.buttonPoints, FontSet.captionPoints, FontSet.labelPoints])
    }
}
