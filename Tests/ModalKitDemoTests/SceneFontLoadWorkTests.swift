@testable import ModalKitDemo
@testable import ModalKitText
import ModalKit
import Foundation
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

    /// The card's title font is not made while the first frame is drawn: the load's thread makes it
    /// once the window says its first frame is on screen, so that it takes no CPU from that frame.
    func testTheCardTitleFontWaitsForTheFirstFrameOnScreen() throws {
        let load = SceneFontLoad(labelDelay: 120)
        let set = try load.wait(onLabelFailure: { fatalError("\($0)") })
        // The first frame's four fonts are made; the label would follow at once without the wait.
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertFalse(load.labelMade, "the card's title font was made before the first frame was on screen")
        load.firstFrameShown()
        let deadline = Date().addingTimeInterval(30)
        while !load.labelMade && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertTrue(load.labelMade, "the load's thread made it once the first frame was on screen")
        XCTAssertEqual(set.label.font.shapeCount, 1, "its title shaped by the load's thread")
    }

    /// A window that never says so still gets the card's title font from the load's thread, after
    /// the delay; asking for it earlier makes the thread go on at once.
    func testTheCardTitleFontComesWithoutTheSignal() throws {
        let late = SceneFontLoad(labelDelay: 0.05)
        _ = try late.wait(onLabelFailure: { fatalError("\($0)") })
        let deadline = Date().addingTimeInterval(30)
        while !late.labelMade && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertTrue(late.labelMade)
        let asked = try SceneFontLoad(labelDelay: 120).wait(onLabelFailure: { fatalError("\($0)") })
        XCTAssertEqual(asked.label.font.pixelSize, FontSet.labelPoints, "made when first used, long before the delay")
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
