import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// The presented card as a real app content on `PresentationHost`: its buttons, focus trapped in it
/// (Tab / Shift-Tab between Present another and Close), Return activating the focused control,
/// pointer and touch taps on Close, taps elsewhere on the card doing nothing (Present another:
/// `StackSceneTests`); and the presenting view's hint naming a dismissing tap only when the style
/// has one.
///
/// inset-centered in 400 × 800: the card is 20…380 × 110…690 pt; its buttons sit 16 pt inside its
/// bottom-right corner, 36 pt tall: Close 88 pt wide at x 256…344 in the card (276…364 in the
/// window), Present another 150 pt wide 10 pt to its left at x 96…246 (116…266), both at y 528…564
/// in the card (638…674 in the window).
final class CardBehaviourTests: XCTestCase {
    private let d = 0.35

    private func presented(_ style: PresentationStyle) throws -> SceneFixture {
        let f = try SceneFixture(style, width: 400, height: 800)
        f.scene.present(now: 0)
        f.scene.handle(.pointerMotion(Point(x: 1, y: 1)), now: 2 * d)  // completes the transition
        XCTAssertEqual(f.scene.state, .presented)
        return f
    }

    private func presented() throws -> SceneFixture { try presented(try BuiltinStyle.insetCentered.make()) }

    private func click(_ f: SceneFixture, _ p: Point, at t: Double) {
        f.scene.handle(.pointerMotion(p), now: t)
        f.scene.handle(.pointerButton(pressed: true), now: t)
        f.scene.handle(.pointerButton(pressed: false), now: t + 0.01)
    }

    func testButtonFramesFollowTheCardDesign() throws {
        let f = try presented()
        let b = f.scene.cardButtonFrames()
        XCTAssertEqual(b.close, Rect(x: 256, y: 528, width: 88, height: 36))
        XCTAssertEqual(b.presentAnother, Rect(x: 96, y: 528, width: 150, height: 36))
    }

    func testClickOnCloseDismisses() throws {
        let f = try presented()
        click(f, Point(x: 320, y: 656), at: 1)  // Close's centre
        XCTAssertEqual(f.recorded, [.presenting, .presented, .close, .dismissing])
    }

    func testTouchTapOnCloseDismisses() throws {
        let f = try presented()
        f.scene.handle(.touchDown(id: 3, Point(x: 340, y: 656)), now: 1)
        f.scene.handle(.touchUp(id: 3), now: 1.05)
        XCTAssertEqual(f.recorded, [.presenting, .presented, .close, .dismissing])
    }

    func testTapsElsewhereOnTheCardDoNothing() throws {
        let f = try presented()
        click(f, Point(x: 200, y: 400), at: 1)          // the card's middle
        click(f, Point(x: 110, y: 656), at: 1.1)  // left of Present another (x 116…266)
        f.scene.handle(.touchDown(id: 1, Point(x: 60, y: 130)), now: 1.2)
        f.scene.handle(.touchUp(id: 1), now: 1.25)
        XCTAssertEqual(f.recorded, [.presenting, .presented])
        XCTAssertEqual(f.scene.state, .presented)
    }

    func testPressOnCloseReleasedElsewhereDoesNotClose() throws {
        let f = try presented()
        f.scene.handle(.pointerMotion(Point(x: 340, y: 656)), now: 1)
        f.scene.handle(.pointerButton(pressed: true), now: 1)
        XCTAssertTrue(f.scene.closeButtonAppearance.isPressed)
        f.scene.handle(.pointerMotion(Point(x: 200, y: 400)), now: 1.05)
        XCTAssertFalse(f.scene.closeButtonAppearance.isPressed)
        f.scene.handle(.pointerButton(pressed: false), now: 1.1)
        XCTAssertEqual(f.scene.state, .presented)
    }

    func testTabMovesBetweenPresentAnotherAndCloseReturnCloses() throws {
        let f = try presented()
        XCTAssertFalse(f.scene.closeButtonAppearance.showsFocusRing, "focus starts on the card itself")
        f.scene.handle(.key(.activate, pressed: true), now: 1)
        XCTAssertEqual(f.scene.state, .presented, "Return with no control focused does nothing")
        f.scene.handle(.key(.tab, pressed: true), now: 1.1)
        XCTAssertEqual(f.scene.cardButtonAppearances(level: 1)?.presentAnother.showsFocusRing, true,
                       "Tab focuses Present another first")
        XCTAssertFalse(f.scene.closeButtonAppearance.showsFocusRing)
        f.scene.handle(.key(.tab, pressed: true), now: 1.2)
        XCTAssertTrue(f.scene.closeButtonAppearance.showsFocusRing)
        f.scene.handle(.key(.tab, pressed: true), now: 1.25)
        f.scene.handle(.key(.backTab, pressed: true), now: 1.3)
        XCTAssertTrue(f.scene.closeButtonAppearance.showsFocusRing, "Tab wraps to Present another, Shift-Tab back to Close")
        XCTAssertFalse(f.scene.buttonAppearance.showsFocusRing, "focus is trapped in the card")
        f.scene.handle(.key(.activate, pressed: true), now: 1.4)
        XCTAssertEqual(f.recorded, [.presenting, .presented, .close, .dismissing])
        f.scene.handle(.pointerMotion(Point(x: 1, y: 1)), now: 1.4 + 2 * d)
        XCTAssertEqual(f.scene.state, .dismissed)
        XCTAssertEqual(f.scene.focus, .presentButton)
        XCTAssertTrue(f.scene.buttonAppearance.showsFocusRing, "focus returns to Present, ring shown after keyboard use")
    }

    /// The focus ring is drawn: Close's ring (accent at 0.55 over white) 3…5.5 pt outside its left edge.
    func testFocusRingIsDrawnAroundClose() throws {
        let f = try presented()
        let before = try f.newImage()
        f.render(now: 1, into: before)
        f.scene.handle(.key(.backTab, pressed: true), now: 1.1)  // Shift-Tab from the card: the last control, Close
        let after = try f.newImage()
        f.render(now: 1.2, into: after)
        // x = 276 − 4 = 272 (inside the ring band 270.5…273), y = 110 + 546 = 656 (Close's middle row).
        XCTAssertEqual(before.pixel(x: 272, y: 656), 0xFFFFFFFF, "white card beside Close")
        // accent 0x0A6CFF × 0.55 over white: 255 − 0.55 × (255 − c).
        func ring(_ c: Double) -> UInt32 { UInt32((255 - 0.55 * (255 - c)).rounded()) }
        XCTAssertPixel(after.pixel(x: 272, y: 656), 0xFF00_0000 | ring(0x0A) << 16 | ring(0x6C) << 8 | ring(0xFF))
    }

    func testHintNamesTheTapOnlyWhenAStyleHasADismissingTap() throws {
        let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: 400, height: 800)
        XCTAssertEqual(f.scene.hint, "Esc or a tap outside dismisses")
        let noTap = PresentationStyle()
        noTap.frameOfPresentedView = { c in c.containerBounds.insetBy(dx: 40, dy: 100) }
        noTap.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.5 * progress) }
        noTap.shouldDismissOnTap = { _, _ in false }
        let g = try SceneFixture(noTap, width: 400, height: 800)
        XCTAssertEqual(g.scene.hint, "Esc dismisses")
    }
}
