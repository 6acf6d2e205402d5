import ModalKit
import ModalKitContent
import ModalKitContentConcurrency
import XCTest

/// ModalKitContent's `Alert` and `ActionSheet`: libadwaita's `AdwAlertDialog` layout rule, keys,
/// responses and accessibility, with the numbers of the type's documentation (points).
final class AlertTests: XCTestCase {
    /// 270 pt (the alert style's width): 230 pt inside the 20 pt insets, two shares of 111 pt 8 pt
    /// apart; "Cancel" and "Delete" plus 12 pt each side fit, so they sit side by side.
    func testTwoShortButtonsSitSideBySideInEqualShares() {
        let alert = deleteAlert()
        XCTAssertTrue(alert.buttonsSideBySide(width: 270))
        let f = alert.buttonFrames(width: 270)
        XCTAssertEqual(f[0].minX, 20); XCTAssertEqual(f[0].width, 111)
        XCTAssertEqual(f[1].minX, 139); XCTAssertEqual(f[1].width, 111)
        XCTAssertEqual(f[0].minY, f[1].minY)
        XCTAssertEqual(f[0].height, 44)
        XCTAssertEqual(alert.preferredContentSize(fittingWidth: 270)?.height, f[0].maxY + 20, "20 pt below the buttons")
    }

    /// Labels that do not fit their share stack, full width, 8 pt apart, the first response
    /// (Cancel) at the bottom as libadwaita does.
    func testLabelsThatDoNotFitStackWithTheFirstResponseAtTheBottom() {
        let alert = Alert(title: "Discard changes?", responses: [
            Response("cancel", label: "Keep Editing the Document"), Response("discard", label: "Discard All Changes", appearance: .destructive),
        ])
        XCTAssertFalse(alert.buttonsSideBySide(width: 270))
        let f = alert.buttonFrames(width: 270)
        XCTAssertEqual(f[1].minX, 20); XCTAssertEqual(f[1].width, 230)
        XCTAssertEqual(f[0].minY, f[1].maxY + 8)
        // The same short labels stack too when the width leaves each share less than the label:
        // 150 pt gives shares of 51 pt, narrower than "Cancel" + 24 pt.
        XCTAssertFalse(deleteAlert().buttonsSideBySide(width: 150))
        XCTAssertTrue(Alert(title: "", responses: [Response("ok", label: "OK")]).buttonsSideBySide(width: 270))
    }

    func testReturnChoosesTheDefaultEscapeTheCloseResponseOnce() {
        var got: [(String, Double)] = []
        var dismissed: [Double] = []
        let alert = deleteAlert()
        alert.onResponse = { got.append(($0, $1)) }
        alert.dismiss = { dismissed.append($0) }
        alert.didLayout(size: Size(width: 270, height: 200))
        XCTAssertTrue(alert.handle(.focus(nil), now: 1))
        XCTAssertTrue(alert.handle(.key(.activate), now: 2))
        XCTAssertEqual(got.map(\.0), ["delete"]); XCTAssertEqual(got.map(\.1), [2]); XCTAssertEqual(dismissed, [2])
        XCTAssertEqual(alert.chosenResponse, "delete")
        _ = alert.handle(.key(.escape), now: 3)
        XCTAssertEqual(got.map(\.0), ["delete"], "one choice per presentation")

        let other = deleteAlert()
        var r: [String] = []
        other.onResponse = { id, _ in r.append(id) }
        other.didLayout(size: Size(width: 270, height: 200))
        XCTAssertTrue(other.handle(.key(.escape), now: 1))
        XCTAssertEqual(r, ["cancel"])
        // Without a close response Escape is the host's (it dismisses without a response).
        let plain = Alert(title: "T", responses: [Response("ok", label: "OK")])
        XCTAssertFalse(plain.handle(.key(.escape), now: 1))
        XCTAssertFalse(plain.handle(.key(.activate), now: 1), "no default response, no focused button")
    }

    /// Tab moves focus left to right (arrows too: the alert asks the host for arrow focus), and
    /// Return then chooses the focused button rather than the default.
    func testTabFocusesButtonsInOrderAndReturnChoosesTheFocusedOne() {
        let alert = deleteAlert()
        var r: [String] = []
        alert.onResponse = { id, _ in r.append(id) }
        alert.didLayout(size: Size(width: 270, height: 200))
        XCTAssertTrue(alert.arrowKeysMoveFocus)
        XCTAssertTrue(alert.handle(.key(.tab), now: 1))
        XCTAssertEqual(alert.focusedResponse, 0)
        XCTAssertTrue(alert.handle(.key(.tab), now: 1))
        XCTAssertEqual(alert.focusedResponse, 1)
        XCTAssertTrue(alert.handle(.key(.tab), now: 1))
        XCTAssertEqual(alert.focusedResponse, 0, "wraps")
        XCTAssertTrue(alert.handle(.key(.backTab), now: 1))
        XCTAssertEqual(alert.focusedResponse, 1)
        XCTAssertTrue(alert.handle(.key(.backTab), now: 1))
        XCTAssertEqual(alert.focusedResponse, 0)
        XCTAssertTrue(alert.handle(.key(.activate), now: 1))
        XCTAssertEqual(r, ["cancel"])
        let focused = alert.accessibilityElement?.focusedDescendant
        XCTAssertEqual(focused?.identifier, "response-cancel")
    }

    func testATapOnAButtonChoosesItAPressThatLeavesDoesNot() {
        let alert = deleteAlert()
        var r: [String] = []
        alert.onResponse = { id, _ in r.append(id) }
        alert.didLayout(size: Size(width: 270, height: 200))
        let f = alert.buttonFrames(width: 270)
        _ = alert.handle(.press(Point(x: f[1].midX, y: f[1].midY)), now: 1)
        _ = alert.handle(.release(Point(x: f[0].midX, y: f[0].midY)), now: 1)
        XCTAssertEqual(r, [])
        _ = alert.handle(.press(Point(x: f[1].midX, y: f[1].midY)), now: 2)
        _ = alert.handle(.release(Point(x: f[1].midX + 10, y: f[1].midY)), now: 2)
        XCTAssertEqual(r, ["delete"])
    }

    func testHostDismissalReportsTheCloseResponseAndChooseReturnsIt() async {
        let alert = deleteAlert()
        alert.didLayout(size: Size(width: 270, height: 200))
        alert.hostDismissed(now: 5)
        let chosen = await alert.choose()
        XCTAssertEqual(chosen, "cancel")
        // An observer registered before the choice is called at the choice, once.
        let second = deleteAlert()
        second.didLayout(size: Size(width: 270, height: 200))
        var seen: [String] = []
        second.whenResponded { seen.append($0) }
        XCTAssertEqual(seen, [])
        _ = second.handle(.activate("response-delete"), now: 6)
        _ = second.handle(.key(.escape), now: 7)
        XCTAssertEqual(seen, ["delete"])
        let afterwards = await second.choose()
        XCTAssertEqual(afterwards, "delete")
    }

    func testAccessibilityAnAlertWithAHeadingTextAndPushButtons() {
        let alert = deleteAlert()
        alert.didLayout(size: Size(width: 270, height: alert.preferredContentSize(fittingWidth: 270)!.height))
        let root = alert.accessibilityElement!
        XCTAssertEqual(root.role, .alert)
        XCTAssertEqual(root.label, "Delete file?")
        XCTAssertEqual(root.description, "It will be gone.")
        XCTAssertEqual(root.children.map(\.role), [.heading, .label, .button, .button])
        XCTAssertEqual(root.children.map(\.identifier), ["title", "message", "response-cancel", "response-delete"])
        XCTAssertEqual(root.children[3].frame, alert.buttonFrames(width: 270)[1])
        XCTAssertTrue(root.children[3].actions.contains(.activate))
        XCTAssertTrue(alert.handle(.focus("response-delete"), now: 1))
        XCTAssertEqual(alert.accessibilityElement?.focusedDescendant?.identifier, "response-delete")
        let sheet = ActionSheet(title: "Share", actions: [Response("copy", label: "Copy")], cancel: Response("cancel", label: "Cancel"))
        XCTAssertEqual(sheet.accessibilityElement?.role, .dialog)
    }

    /// Pixels at scale 2: white around, Cancel's grey field and Delete's red one (libadwaita's
    /// destructive #E01B24), each sampled 4 pt inside its left edge at its middle (no label there).
    func testPixelsOfTheButtonsAtScale2() {
        let alert = deleteAlert()
        let h = alert.preferredContentSize(fittingWidth: 270)!.height
        let img = render(alert, size: Size(width: 270, height: h), scale: 2)
        let f = alert.buttonFrames(width: 270)
        XCTAssertEqual(img.pixel(x: 4, y: 4), 0xFFFF_FFFF)
        XCTAssertEqual(img.pixel(x: Int((f[0].minX + 4) * 2), y: Int(f[0].midY * 2)), 0xFFEB_EBEB)
        XCTAssertEqual(img.pixel(x: Int((f[1].minX + 4) * 2), y: Int(f[1].midY * 2)), 0xFFE0_1B24)
        XCTAssertEqual(img.pixel(x: Int((f[1].maxX + 4) * 2), y: Int(f[1].midY * 2)), 0xFFFF_FFFF, "20 pt inset right of Delete")
        // The label: some white ink in Delete's middle.
        let y = Int(f[1].midY * 2)
        XCTAssertTrue((Int(f[1].minX * 2 + 30)..<Int(f[1].maxX * 2 - 30)).contains { img.pixel(x: $0, y: y) != 0xFFE0_1B24 })
    }

    /// An action sheet: its actions top to bottom, full width, the cancel action last after 16 pt.
    func testActionSheetStacksActionsInOrderCancelLast() {
        let sheet = ActionSheet(actions: [Response("copy", label: "Copy"), Response("delete", label: "Delete", appearance: .destructive)],
                                cancel: Response("cancel", label: "Cancel"))
        let f = sheet.buttonFrames(width: 390)
        XCTAssertEqual(f.map(\.minY), [20, 72, 132])
        XCTAssertEqual(f.map(\.width), [350, 350, 350])
        var r: [String] = []
        sheet.onResponse = { id, _ in r.append(id) }
        sheet.didLayout(size: Size(width: 390, height: 196))
        XCTAssertTrue(sheet.handle(.key(.escape), now: 1))
        XCTAssertEqual(r, ["cancel"])
    }
}
