import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// Input routing, focus, interrupted transitions (UIKit's modal presentation) through the public
/// DemoScene API.
final class SceneBehaviourTests: XCTestCase {
    private let d = 0.35  // the built-in styles' default duration (docs/design.md)

    private func scene(_ style: BuiltinStyle = .insetCentered) throws -> SceneFixture {
        try SceneFixture(try style.make(), width: 400, height: 800)
    }

    private func click(_ f: SceneFixture, _ p: Point, at t: Double) {
        f.scene.handle(.pointerMotion(p), now: t)
        f.scene.handle(.pointerButton(pressed: true), now: t)
        f.scene.handle(.pointerButton(pressed: false), now: t + 0.01)
    }

    func testClickOnPresentButtonPresents() throws {
        let f = try scene()
        let button = f.scene.buttonFrame
        XCTAssertEqual(button.midX, 200)
        XCTAssertEqual(button.midY, 400)
        click(f, Point(x: 200, y: 400), at: 0)
        XCTAssertEqual(f.recorded, [.activated, .presenting])
        XCTAssertEqual(f.scene.focus, .presentedView)
    }

    func testClickOnDimDuringFadeInDismissesOnceAndNeverReachesTheButton() throws {
        let f = try scene()
        click(f, Point(x: 200, y: 400), at: 0)
        // 20 ms into the presentation the card is still low; the button's position is on the dim.
        click(f, Point(x: 200, y: 400), at: 0.02)
        XCTAssertEqual(f.recorded, [.activated, .presenting, .dismissing])
        // More clicks while dismissing: nothing (no second dismissal, no activation).
        click(f, Point(x: 200, y: 400), at: 0.025)
        click(f, Point(x: 10, y: 10), at: 0.03)
        f.scene.handle(.key(.escape, pressed: true), now: 0.031)
        XCTAssertEqual(f.recorded, [.activated, .presenting, .dismissing])
        let img = try f.newImage()
        _ = f.render(now: 1, into: img)
        XCTAssertEqual(f.recorded, [.activated, .presenting, .dismissing, .dismissed])
        XCTAssertFalse(f.scene.host.snapshot(at: 1).isModalLayerShown, "no dimming view left")
    }

    func testTapOnPresentedViewDoesNothingAndTouchTapOnDimDismisses() throws {
        let f = try scene()
        f.scene.present(now: 0)
        f.scene.handle(.touchDown(id: 7, Point(x: 200, y: 300)), now: 1)  // inside the card (20…380 × 110…690)
        f.scene.handle(.touchUp(id: 7), now: 1.05)
        XCTAssertEqual(f.scene.state, .presented)
        // Press on the card, release on the dim: not a tap on the dim. (Sideways: a move down
        // would drag the card, whose dismiss axis is vertical.)
        f.scene.handle(.pointerMotion(Point(x: 200, y: 300)), now: 1.1)
        f.scene.handle(.pointerButton(pressed: true), now: 1.1)
        f.scene.handle(.pointerMotion(Point(x: 395, y: 300)), now: 1.2)
        f.scene.handle(.pointerButton(pressed: false), now: 1.2)
        XCTAssertEqual(f.scene.state, .presented)
        // A cancelled touch on the dim does nothing either.
        f.scene.handle(.touchDown(id: 8, Point(x: 200, y: 750)), now: 1.3)
        f.scene.handle(.touchCancel, now: 1.35)
        XCTAssertEqual(f.scene.state, .presented)
        // A touch tap below the card dismisses.
        f.scene.handle(.touchDown(id: 9, Point(x: 200, y: 750)), now: 1.4)
        f.scene.handle(.touchUp(id: 9), now: 1.45)
        XCTAssertEqual(f.scene.state, .dismissing)
        XCTAssertEqual(f.recorded, [.presenting, .presented, .dismissing])
    }

    func testSheetTapAboveDismissesTapOnSheetDoesNot() throws {
        let f = try scene(.bottomSheet)
        f.scene.present(now: 0)
        click(f, Point(x: 200, y: 600), at: 1)  // on the sheet (bottom half)
        XCTAssertEqual(f.scene.state, .presented)
        click(f, Point(x: 200, y: 100), at: 2)  // on the dim above it
        XCTAssertEqual(f.scene.state, .dismissing)
    }

    func testKeyboardReturnPresentsEscapeDismissesFocusIsTrappedAndReturns() throws {
        let f = try scene()
        XCTAssertEqual(f.scene.focus, .presentButton)
        f.scene.handle(.key(.activate, pressed: true), now: 0)
        XCTAssertEqual(f.recorded, [.activated, .presenting])
        XCTAssertEqual(f.scene.focus, .presentedView)
        // Return again (double activation) and Tab: focus stays in the modal, one modal only.
        f.scene.handle(.key(.activate, pressed: true), now: 0.1)
        f.scene.handle(.key(.tab, pressed: true), now: 0.15)
        f.scene.handle(.key(.backTab, pressed: true), now: 0.16)
        XCTAssertEqual(f.scene.focus, .presentedView)
        XCTAssertFalse(f.scene.buttonAppearance.showsFocusRing)
        f.scene.handle(.key(.escape, pressed: true), now: 1)
        XCTAssertEqual(f.scene.state, .dismissing)
        XCTAssertEqual(f.scene.focus, .presentedView, "focus returns only when the dismissal completes")
        f.scene.handle(.key(.escape, pressed: false), now: 1.2)
        f.scene.handle(.key(.escape, pressed: true), now: 1.2)  // no-op during the dismissal
        f.scene.handle(.pointerMotion(.zero), now: 2)
        XCTAssertEqual(f.scene.state, .dismissed)
        XCTAssertEqual(f.scene.focus, .presentButton)
        XCTAssertTrue(f.scene.buttonAppearance.showsFocusRing, "keyboard use shows the focus ring")
        XCTAssertEqual(f.recorded, [.activated, .presenting, .presented, .dismissing, .dismissed])
    }

    func testEscapeDuringDismissalDoesNotRestartIt() throws {
        let f = try scene()
        f.scene.present(now: 0)
        f.scene.handle(.key(.escape, pressed: true), now: 1)
        f.scene.handle(.key(.escape, pressed: true), now: 1 + d / 2)
        XCTAssertEqual(f.scene.host.fraction(at: 1 + d / 2), 0.5, accuracy: 1e-9)
        f.scene.handle(.pointerMotion(.zero), now: 1 + d)
        XCTAssertEqual(f.scene.state, .dismissed)
        XCTAssertEqual(f.recorded, [.presenting, .presented, .dismissing, .dismissed])
    }

    func testButtonHoverAndPressedStates() throws {
        let f = try scene()
        XCTAssertEqual(f.scene.buttonAppearance, ButtonAppearance())
        f.scene.handle(.pointerMotion(Point(x: 200, y: 400)), now: 0)
        XCTAssertTrue(f.scene.buttonAppearance.isHovered)
        XCTAssertTrue(f.scene.needsRedraw)
        f.scene.handle(.pointerButton(pressed: true), now: 0.1)
        XCTAssertTrue(f.scene.buttonAppearance.isPressed)
        // Drag off the button and release: no activation (UIKit's touch-up-inside).
        f.scene.handle(.pointerMotion(Point(x: 10, y: 10)), now: 0.2)
        XCTAssertFalse(f.scene.buttonAppearance.isPressed)
        f.scene.handle(.pointerButton(pressed: false), now: 0.3)
        XCTAssertEqual(f.recorded, [])
        f.scene.handle(.pointerLeave, now: 0.4)
        XCTAssertEqual(f.scene.buttonAppearance, ButtonAppearance())
    }

    /// A press on the dim, then the pointer leaves without a release and comes back: the leave
    /// ended that press, so the next tap on the dim dismisses (it is not swallowed as a second
    /// press while the first is "in progress").
    func testAPressOnTheDimEndsAtTheLeaveAndTheNextTapDismisses() throws {
        let f = try scene()
        f.scene.present(now: 0)
        f.scene.handle(.pointerMotion(Point(x: 200, y: 60)), now: 1)   // the dim above the card
        f.scene.handle(.pointerButton(pressed: true), now: 1)
        f.scene.handle(.pointerLeave, now: 1.1)                        // no release
        XCTAssertEqual(f.scene.state, .presented, "a leave is not a tap")
        f.scene.handle(.pointerMotion(Point(x: 200, y: 60)), now: 1.5) // wl_pointer.enter
        XCTAssertEqual(f.scene.state, .presented)
        click(f, Point(x: 200, y: 60), at: 1.6)
        XCTAssertEqual(f.scene.state, .dismissing)
        XCTAssertEqual(f.recorded, [.presenting, .presented, .dismissing])
    }

    /// The same with the lost press on the card: its target (the presented view) does not carry
    /// over to the next tap, which lands on the dim and dismisses.
    func testAPressOnTheCardEndsAtTheLeaveAndTheNextTapOnTheDimDismisses() throws {
        let f = try scene()
        f.scene.present(now: 0)
        f.scene.handle(.pointerMotion(Point(x: 200, y: 300)), now: 1)  // on the card (20…380 × 110…690)
        f.scene.handle(.pointerButton(pressed: true), now: 1)
        f.scene.handle(.pointerLeave, now: 1.1)
        click(f, Point(x: 200, y: 60), at: 1.6)
        XCTAssertEqual(f.scene.state, .dismissing)
    }

    /// The release the compositor may still send after the leave (the button held while away)
    /// belongs to the ended press: it activates nothing, and the button no longer looks pressed.
    func testAReleaseAfterTheLeaveDoesNotFinishTheEndedPress() throws {
        let f = try scene()
        f.scene.handle(.pointerMotion(Point(x: 200, y: 400)), now: 0)
        f.scene.handle(.pointerButton(pressed: true), now: 0.1)
        XCTAssertTrue(f.scene.buttonAppearance.isPressed)
        f.scene.handle(.pointerLeave, now: 0.2)
        f.scene.handle(.pointerMotion(Point(x: 200, y: 400)), now: 0.3)
        XCTAssertFalse(f.scene.buttonAppearance.isPressed, "the press ended at the leave")
        f.scene.handle(.pointerButton(pressed: false), now: 0.4)
        XCTAssertEqual(f.recorded, [])
        click(f, Point(x: 200, y: 400), at: 0.5)
        XCTAssertEqual(f.recorded, [.activated, .presenting])
    }

    /// A leave is the pointer's: a touch press in progress goes on and its tap on the dim dismisses.
    func testAPointerLeaveDoesNotEndATouchPress() throws {
        let f = try scene()
        f.scene.present(now: 0)
        f.scene.handle(.touchDown(id: 3, Point(x: 200, y: 750)), now: 1)
        f.scene.handle(.pointerLeave, now: 1.02)
        f.scene.handle(.touchUp(id: 3), now: 1.05)
        XCTAssertEqual(f.scene.state, .dismissing)
    }

    func testInterruptedPresentationRunsBackAndLeavesNoChrome() throws {
        let f = try scene()
        let base = try f.unpresented()
        f.scene.present(now: 0)
        f.scene.dismiss(now: 0.3 * d)
        XCTAssertEqual(f.scene.host.fraction(at: 0.3 * d), 0.3, accuracy: 1e-9)
        // 0.1 × duration later the frame is the presentation's frame at 0.2.
        let mid = try f.newImage()
        _ = f.render(now: 0.4 * d, into: mid)
        let expected = try f.snapshot(.present, 0.2)
        XCTAssertTrue(samePixels(mid, expected), "frame after reversing = presentation at 0.2")
        let end = try f.newImage()
        _ = f.render(now: 0.6 * d, into: end)
        XCTAssertEqual(f.scene.state, .dismissed)
        XCTAssertFalse(f.scene.host.snapshot(at: 0.6 * d).isModalLayerShown, "no dimming view left")
        XCTAssertTrue(samePixels(end, base), "no chrome left: the frame is the presenting view alone")
        XCTAssertEqual(f.recorded, [.presenting, .dismissing, .dismissed])
    }

    func testDismissSnapshotMirrorsPresentSnapshot() throws {
        for style in BuiltinStyle.allCases {
            let f = try SceneFixture(try style.make(), width: 400, height: 800, scale: 2)
            for p in [0.0, 0.1, 0.3, 0.5, 0.77, 1.0] {
                XCTAssertTrue(samePixels(try f.snapshot(.dismiss, p), try f.snapshot(.present, 1 - p)),
                              "\(style) dismiss \(p) == present \(1 - p)")
            }
            // And they differ from each other where they should (the test can fail).
            XCTAssertFalse(samePixels(try f.snapshot(.present, 0.3), try f.snapshot(.present, 0.7)))
        }
    }

    func testSnapshotDoesNotDisturbLiveState() throws {
        let f = try scene()
        _ = try f.snapshot(.present, 0.5)
        XCTAssertEqual(f.scene.state, .dismissed)
        XCTAssertEqual(f.recorded, [])
    }
}

func samePixels(_ a: Image, _ b: Image) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height {
        for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false }
    }
    return true
}
