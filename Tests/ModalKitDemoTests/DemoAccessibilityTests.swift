import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// The demo's content as assistive technology sees it (`PresentationHost.accessibilitySnapshot()`):
/// the window with its title, subtitle, Present button and hint; a presented card as a dialog
/// named "A modal card", described by its body, with its title, body and two buttons at the frames
/// the card draws them; Tab within the card; requests of assistive technology through the same
/// path as keys; a stacked card and Escape.
///
/// 480 × 800 points, inset-centered (card 20…460 × 110…690) for every level, 0.35 s.
final class DemoAccessibilityTests: XCTestCase {
    final class LevelBox { var events: [String] = [] }

    private func scene() throws -> (DemoScene, LevelBox) {
        let box = LevelBox()
        let s = try DemoScene(styleForLevel: { _ in try! BuiltinStyle.insetCentered.make() }) { e, level in
            box.events.append(level > 1 ? "\(e.rawValue) \(level)" : e.rawValue)
        }
        s.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        return (s, box)
    }

    private func key(_ s: DemoScene, _ k: PresentationKey, _ t: Double) { s.handle(.key(k, pressed: true), now: t) }
    private func request(_ s: DemoScene, _ r: AccessibilityRequest, level: Int, _ t: Double) {
        s.handle(.accessibility(r, level: level), now: t)
    }
    private func settle(_ s: DemoScene, _ t: Double) { s.handle(.pointerMotion(Point(x: 1, y: 1)), now: t) }

    func testTheWindowHasItsTitleAndAFocusedPresentButton() throws {
        let (s, _) = try scene()
        let snap = s.host.accessibilitySnapshot()
        XCTAssertEqual(snap.levels.count, 1)
        let elements = snap.levels[0].elements
        XCTAssertEqual(elements.map(\.role), [.heading, .label, .button, .label])
        XCTAssertEqual(elements.map(\.label), ["ModalKit", "Custom modal presentation", "Present",
                                               "Esc or a tap outside dismisses"])
        let present = elements[2]
        // Centred 176 × 50 in 480 × 800 (DemoLook.buttonFrame).
        XCTAssertEqual(present.frame, Rect(x: 152, y: 375, width: 176, height: 50))
        XCTAssertEqual(present.states, [.focusable, .focused])
        XCTAssertEqual(present.actions, .activate)
        XCTAssertEqual(snap.focus, .init(level: 0, element: "present"))
        // The title drawn 20 pt from the left, 24 pt from the top; the hint centred under the button.
        XCTAssertEqual(elements[0].frame.minX, 20)
        XCTAssertEqual(elements[0].frame.minY, 24, accuracy: 0.01)
        XCTAssertEqual(elements[3].frame.midX, 240, accuracy: 0.5)
        XCTAssertGreaterThan(elements[3].frame.minY, present.frame.maxY)
    }

    func testAPresentedCardIsADialogNamedByItsTitleDescribedByItsBodyWithTwoButtons() throws {
        let (s, box) = try scene()
        key(s, .activate, 0)
        settle(s, 1)
        XCTAssertEqual(box.events, ["activated", "presenting", "presented"])
        let snap = s.host.accessibilitySnapshot()
        XCTAssertEqual(snap.levels.count, 2)
        let card = snap.levels[1]
        XCTAssertEqual(card.role, .dialog)
        XCTAssertEqual(card.label, "A modal card")
        XCTAssertEqual(card.description, "Focus stays here until it is dismissed.")
        XCTAssertEqual(card.labelledBy, "card-title")
        XCTAssertEqual(card.describedBy, "card-body")
        XCTAssertTrue(card.isModal)
        XCTAssertEqual(card.frame, Rect(x: 20, y: 110, width: 440, height: 580))
        XCTAssertEqual(card.elements.map(\.identifier), ["card-title", "card-body", "present-another", "close"])
        XCTAssertEqual(card.elements.map(\.role), [.heading, .label, .button, .button])
        // The buttons where the card draws them (DemoLook.cardButtonFrames: 16 pt padding, side by
        // side at the bottom right, Close 88 pt wide rightmost), in container points.
        XCTAssertEqual(card.elements[3].frame, Rect(x: 20 + 440 - 16 - 88, y: 110 + 580 - 16 - 36, width: 88, height: 36))
        XCTAssertEqual(card.elements[2].frame, Rect(x: 20 + 440 - 16 - 88 - 10 - 150, y: 110 + 580 - 16 - 36,
                                                    width: 150, height: 36))
        XCTAssertEqual(s.cardButtonFrames().close.offsetBy(dx: 20, dy: 110), card.elements[3].frame)
        XCTAssertTrue(snap.levels[0].isHidden, "the window's content is hidden beneath the modal")
        XCTAssertEqual(snap.focus, .init(level: 1, element: nil), "focus moved onto the modal itself")
    }

    func testTabStaysInTheCardAndReturnActivatesWhatIsFocused() throws {
        let (s, box) = try scene()
        key(s, .activate, 0)
        settle(s, 1)
        var foci: [String?] = []
        for (i, k) in [PresentationKey.tab, .tab, .tab, .backTab, .backTab].enumerated() {
            key(s, k, 1.1 + Double(i) * 0.01)
            foci.append(s.host.accessibilitySnapshot().focus.element)
            XCTAssertEqual(s.host.accessibilitySnapshot().focus.level, 1, "Tab never leaves the modal")
        }
        XCTAssertEqual(foci, ["present-another", "close", "present-another", "close", "present-another"])
        key(s, .backTab, 1.2)
        key(s, .activate, 1.3)
        XCTAssertEqual(box.events.suffix(2), ["close", "dismissing"])
        settle(s, 2)
        XCTAssertEqual(s.host.accessibilitySnapshot().focus, .init(level: 0, element: "present"), "back on Present")
    }

    func testRequestsOfAssistiveTechnologyTakeTheKeyPath() throws {
        let (s, box) = try scene()
        request(s, .activate("present"), level: 0, 0)
        XCTAssertEqual(box.events, ["activated", "presenting"], "do_action on Present presents, as Return does")
        settle(s, 1)
        // A request for the hidden window's button does nothing; one for the card's does.
        request(s, .activate("present"), level: 0, 1.1)
        XCTAssertEqual(box.events, ["activated", "presenting", "presented"])
        request(s, .focus("close"), level: 1, 1.2)
        XCTAssertEqual(s.host.accessibilitySnapshot().focus.element, "close", "grab_focus moves keyboard focus")
        XCTAssertFalse(s.closeButtonAppearance.showsFocusRing, "a screen reader's focus shows no ring by itself")
        request(s, .focus(nil), level: 1, 1.25)
        XCTAssertNil(s.host.accessibilitySnapshot().focus.element)
        request(s, .activate("nothing-such"), level: 1, 1.3)
        XCTAssertEqual(box.events.last, "presented", "an unknown element: nothing")
        request(s, .activate("close"), level: 1, 1.4)
        XCTAssertEqual(box.events.suffix(2), ["close", "dismissing"])
        XCTAssertEqual(s.host.accessibilitySnapshot().focus.element, "close", "activated, Close took focus as a tap does")
        settle(s, 2)
        XCTAssertEqual(box.events.last, "dismissed")
    }

    func testAStackedCardNestsAndEscapeRemovesOnlyIt() throws {
        let (s, box) = try scene()
        key(s, .activate, 0)
        settle(s, 1)
        request(s, .activate("present-another"), level: 1, 1.1)
        settle(s, 2)
        XCTAssertEqual(box.events.suffix(2), ["presenting 2", "presented 2"])
        var snap = s.host.accessibilitySnapshot()
        XCTAssertEqual(snap.levels.map(\.isHidden), [true, true, false])
        XCTAssertEqual(snap.levels.map(\.role), [.window, .dialog, .dialog])
        XCTAssertEqual(snap.focus, .init(level: 2, element: nil))
        XCTAssertFalse(snap.levels[1].elements.contains { $0.states.contains(.focused) }, "no focus beneath")
        key(s, .escape, 2.1)
        settle(s, 3)
        XCTAssertEqual(box.events.suffix(2), ["dismissing 2", "dismissed 2"])
        snap = s.host.accessibilitySnapshot()
        XCTAssertEqual(snap.levels.count, 2, "only the top level went")
        XCTAssertEqual(snap.focus, .init(level: 1, element: "present-another"), "focus is back on what presented it")
        XCTAssertTrue(snap.levels[1].elements[2].states.contains(.focused))
    }
}
