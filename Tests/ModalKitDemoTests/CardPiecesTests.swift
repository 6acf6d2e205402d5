import ModalKitHostFuzzSupport
@testable import ModalKitDemo
import ModalKit
import ModalKitContent
import XCTest

/// The card is drawn by ModalKitContent's pieces (`Label`, `Button` with the card's `ButtonStyle`s)
/// and keeps its design: Close the accent #0A6CFF, #2A80FF hovered, #0656D1 pressed; Present another
/// the tint #E6F0FF, #D6E6FF hovered, #C2DAFF pressed; the focus ring 3 pt outside the button,
/// 2.5 pt wide, the accent at 55 % (over white: (120, 174, 255)).
///
/// inset-centered in 400 × 800 at scale 1: Close at x 276…364, Present another at 116…266, both
/// at y 638…674 in the window.
final class CardPiecesTests: XCTestCase {
    private func presented() throws -> SceneFixture {
        let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: 400, height: 800)
        f.scene.present(now: 0)
        f.scene.handle(.pointerMotion(Point(x: 1, y: 1)), now: 1)  // completes the transition
        XCTAssertEqual(f.scene.state, .presented)
        return f
    }

    private func frame(_ f: SceneFixture, at t: Double) throws -> Image {
        let image = try f.newImage()
        f.render(now: t, into: image)
        return image
    }

    func testTheButtonsShowTheirHoveredAndPressedFills() throws {
        for (centre, leftEnd, fills) in [(Point(x: 320, y: 656), 278, [0xFF0A_6CFF, 0xFF2A_80FF, 0xFF06_56D1] as [UInt32]),
                                         (Point(x: 190, y: 656), 118, [0xFFE6_F0FF, 0xFFD6_E6FF, 0xFFC2_DAFF])] {
            let f = try presented()
            XCTAssertPixel(try frame(f, at: 1).pixel(x: leftEnd, y: 656), fills[0], tolerance: 0, "at rest")
            f.scene.handle(.pointerMotion(centre), now: 2)
            XCTAssertPixel(try frame(f, at: 2).pixel(x: leftEnd, y: 656), fills[1], tolerance: 0, "hovered")
            f.scene.handle(.pointerButton(pressed: true), now: 3)
            XCTAssertPixel(try frame(f, at: 3).pixel(x: leftEnd, y: 656), fills[2], tolerance: 0, "pressed")
        }
    }

    func testTheFocusRingSitsOutsideTheFocusedButton() throws {
        let f = try presented()
        f.scene.handle(.key(.tab, pressed: true), now: 2)   // Present another, ring shown (keyboard)
        let image = try frame(f, at: 2)
        // Left of Present another (x 116): the gap 113…116 white, the ring 110.5…113.
        XCTAssertPixel(image.pixel(x: 114, y: 656), 0xFFFF_FFFF, tolerance: 0, "the gap")
        XCTAssertPixel(image.pixel(x: 111, y: 656), 0xFF78_AEFF, tolerance: 1, "the ring")
        XCTAssertPixel(image.pixel(x: 109, y: 656), 0xFFFF_FFFF, tolerance: 0, "outside the ring")
        // Close has none.
        XCTAssertPixel(image.pixel(x: 367, y: 656), 0xFFFF_FFFF, tolerance: 0, "no ring around Close")
    }

    /// The card's pieces are the content module's: its labels' styles and its buttons' looks.
    func testTheCardIsMadeOfTheContentModulesPieces() throws {
        let fonts = try FontSet(scale: 1)
        let card = DemoLook.CardText(size: Size(width: 360, height: 380), scale: 1, fonts: fonts, texts: .standard)
        XCTAssertEqual(card.titleLabel.style, TextStyle(points: 20, color: Color(rgb: 0x1C1C1E)))
        XCTAssertEqual(card.bodyLabel.lineHeight, 20)
        XCTAssertEqual(card.closeButton.style.hoveredFill, Color(rgb: 0x2A80FF))
        XCTAssertEqual(card.presentAnotherButton.style.pressedFill, Color(rgb: 0xC2DAFF))
        XCTAssertTrue(card.closeButton.style.snapsToPixels)
        // The card's fonts are the scene's (handed to the text styles), not loaded again.
        XCTAssertTrue(DemoLook.cardTitleStyle.font(scale: 1) === fonts.label.font)
        XCTAssertTrue(DemoLook.cardBodyStyle.font(scale: 1) === fonts.body.font)
    }
}
