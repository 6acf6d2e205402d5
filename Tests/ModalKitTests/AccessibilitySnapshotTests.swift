import ModalKit
import XCTest

/// What `PresentationHost` shows assistive technology (UIKit's `accessibilityViewIsModal`): a
/// presented level is a modal dialog (or an alert) named by its content, everything beneath is
/// hidden, focus moves onto the modal and back, requests of assistive technology are routed as
/// keys are, and the version changes only when something a screen reader sees may have changed.
final class AccessibilitySnapshotTests: XCTestCase {
    /// A content with one button ("go") that describes itself and records its input.
    final class Described: PresentationContent {
        var invalidation: ContentInvalidation = .all
        var inputs: [ContentInput] = []
        var focused: String?
        var role: AccessibilityRole = .group
        let name: String
        var onActivate: (Double) -> Void = { _ in }
        init(_ name: String, focused: String? = nil) { self.name = name; self.focused = focused }
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: .white)
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool {
            inputs.append(input)
            switch input {
            case let .focus(id): focused = id
            case .activate("go"): onActivate(now)
            case .key(.escape), .activate: return false
            default: break
            }
            return true
        }
        var accessibilityElement: AccessibilityElement? {
            AccessibilityElement(identifier: "root", role: role, label: name, description: "About \(name)", children: [
                .text("title", name, frame: Rect(x: 10, y: 10, width: 100, height: 20), role: .heading),
                .button("go", label: "Go", frame: Rect(x: 10, y: 40, width: 80, height: 30), isFocused: focused == "go"),
            ], describedBy: "title")
        }
    }

    /// RecordingStyle (1 s linear, frame 20…380 × 110…490) in 400 × 600.
    private func host() -> (PresentationHost, Described) {
        let root = Described("Root", focused: "go")
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        return (host, root)
    }

    func testNothingPresentedIsTheWindowWithItsFocusedControl() {
        let (host, _) = host()
        let s = host.accessibilitySnapshot()
        XCTAssertEqual(s.levels.count, 1)
        XCTAssertEqual(s.levels[0].role, .window)
        XCTAssertEqual(s.levels[0].frame, Rect(x: 0, y: 0, width: 400, height: 600))
        XCTAssertFalse(s.levels[0].isHidden)
        XCTAssertFalse(s.levels[0].isModal)
        XCTAssertEqual(s.levels[0].elements.map(\.identifier), ["title", "go"])
        XCTAssertEqual(s.focus, .init(level: 0, element: "go"))
    }

    func testAPresentedLevelIsAModalDialogAtItsFrameAndHidesWhatIsBeneath() {
        let (host, _) = host()
        let card = Described("Card", focused: "go")
        host.present(card, now: 0)
        XCTAssertEqual(card.inputs.first, .focus(nil), "focus moves onto the modal as it is presented")
        var s = host.accessibilitySnapshot()
        XCTAssertEqual(s.levels.count, 2, "the level is there from the start of its presentation")
        let level = s.levels[1]
        XCTAssertEqual(level.role, .dialog)
        XCTAssertEqual(level.label, "Card")
        XCTAssertEqual(level.description, "About Card")
        XCTAssertEqual(level.describedBy, "title")
        XCTAssertTrue(level.isModal)
        XCTAssertFalse(level.isHidden)
        XCTAssertEqual(level.frame, Rect(x: 20, y: 110, width: 360, height: 380), "the presented view's frame, where it rests")
        XCTAssertEqual(level.elements[1].frame, Rect(x: 30, y: 150, width: 80, height: 30), "elements in container points")
        XCTAssertTrue(s.levels[0].isHidden, "what is beneath is hidden")
        XCTAssertFalse(s.levels[0].elements[1].states.contains(.focused), "focus only in the top level")
        XCTAssertEqual(s.focus, .init(level: 1, element: nil), "on the modal itself")

        host.handle(.key(.tab, pressed: true), now: 0.5)
        card.focused = "go"   // (what a content does on Tab)
        host.setNeedsAccessibilityUpdate()
        s = host.accessibilitySnapshot()
        XCTAssertEqual(s.focus, .init(level: 1, element: "go"))
        XCTAssertTrue(s.levels[1].elements[1].states.contains(.focused))

        // Still there while it dismisses (it captures input until then); gone after.
        host.update(now: 2)
        host.dismiss(now: 2)
        XCTAssertEqual(host.accessibilitySnapshot().levels.count, 2)
        host.update(now: 4)
        s = host.accessibilitySnapshot()
        XCTAssertEqual(s.levels.count, 1)
        XCTAssertFalse(s.levels[0].isHidden)
        XCTAssertEqual(s.focus, .init(level: 0, element: "go"), "back on the control that presented it")
    }

    func testAContentSaysAlert() {
        let (host, _) = host()
        let alert = Described("Alert")
        alert.role = .alert
        host.present(alert, now: 0)
        XCTAssertEqual(host.accessibilitySnapshot().levels[1].role, .alert)
    }

    func testAStackHidesEveryLevelButTheTop() {
        let (host, _) = host()
        let one = Described("One"), two = Described("Two")
        host.present(one, now: 0)
        host.update(now: 2)
        host.present(two, now: 2)
        let s = host.accessibilitySnapshot()
        XCTAssertEqual(s.levels.map(\.isHidden), [true, true, false])
        XCTAssertEqual(s.levels.map(\.label), ["Root", "One", "Two"])
        XCTAssertEqual(s.focus.level, 2)
    }

    func testRequestsGoToTheTopLevelOnlyAsKeysDo() {
        let (host, root) = host()
        var activations = 0
        root.onActivate = { _ in activations += 1 }
        host.handle(.accessibility(.activate("go"), level: 0), now: 0)
        XCTAssertEqual(activations, 1)
        XCTAssertEqual(root.inputs.last, .activate("go"))
        let card = Described("Card")
        host.present(card, now: 1)
        root.inputs.removeAll()
        host.handle(.accessibility(.activate("go"), level: 0), now: 1.1)
        host.handle(.accessibility(.focus("go"), level: 0), now: 1.1)
        XCTAssertEqual(root.inputs.filter { if case .hover = $0 { return false } else { return true } }, [],
                       "nothing reaches a level hidden under the modal")
        XCTAssertEqual(activations, 1)
        host.handle(.accessibility(.focus("go"), level: 1), now: 1.2)
        XCTAssertEqual(card.inputs.last, .focus("go"))
        host.handle(.accessibility(.focus(nil), level: 1), now: 1.3)
        XCTAssertEqual(card.inputs.last, .focus(nil))
        host.handle(.accessibility(.activate("go"), level: 2), now: 1.4)
        XCTAssertEqual(card.inputs.last, .focus(nil), "a level that is not there: ignored")
    }

    func testTheVersionChangesWithWhatAScreenReaderSeesNotWithMotion() {
        let (host, _) = host()
        var v = host.accessibilityVersion
        host.handle(.pointerMotion(Point(x: 5, y: 5)), now: 0)
        host.handle(.touchMotion(id: 1, Point(x: 5, y: 5)), now: 0)
        host.update(now: 0.1)
        XCTAssertEqual(host.accessibilityVersion, v, "motion and time without a state change")
        host.handle(.key(.tab, pressed: true), now: 0.2)
        XCTAssertNotEqual(host.accessibilityVersion, v)
        v = host.accessibilityVersion
        host.present(Described("Card"), now: 1)
        XCTAssertNotEqual(host.accessibilityVersion, v, "presenting")
        v = host.accessibilityVersion
        host.update(now: 1.5)
        XCTAssertEqual(host.accessibilityVersion, v, "an animation frame")
        host.update(now: 2.5)
        XCTAssertNotEqual(host.accessibilityVersion, v, "presented")
        v = host.accessibilityVersion
        host.layout(containerSize: Size(width: 500, height: 600), scale: 1)
        XCTAssertNotEqual(host.accessibilityVersion, v, "a layout moves frames")
        v = host.accessibilityVersion
        host.setNeedsAccessibilityUpdate()
        XCTAssertNotEqual(host.accessibilityVersion, v)
    }

    func testAContentThatDoesNotDescribeItselfIsAnUnnamedLevel() {
        final class Plain: PresentationContent {
            var invalidation: ContentInvalidation = .none
            func draw(into image: OpaquePointer, size: Size, scale: Double) {}
            func handle(_ input: ContentInput, now: Double) -> Bool { false }
        }
        let host = PresentationHost(style: RecordingStyle().style, presenting: Plain())
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        host.present(Plain(), now: 0)
        let s = host.accessibilitySnapshot()
        XCTAssertEqual(s.levels.map(\.label), ["", ""])
        XCTAssertEqual(s.levels.map(\.role), [.window, .dialog])
        XCTAssertEqual(s.levels[1].elements, [])
        XCTAssertEqual(s.focus, .init(level: 1, element: nil))
    }

    func testElementHelpers() {
        let e = AccessibilityElement(identifier: "r", role: .group, children: [
            .button("a", label: "A", frame: Rect(x: 1, y: 2, width: 3, height: 4)),
            AccessibilityElement(identifier: "g", role: .group, children: [
                .button("b", label: "B", frame: .zero, isFocused: true)]),
        ])
        XCTAssertEqual(e.element(withIdentifier: "b")?.label, "B")
        XCTAssertNil(e.element(withIdentifier: "z"))
        XCTAssertEqual(e.focusedDescendant?.identifier, "b")
        XCTAssertEqual(e.offsetBy(dx: 10, dy: 20).children[0].frame, Rect(x: 11, y: 22, width: 3, height: 4))
        XCTAssertEqual(AccessibilityElement.button("x", label: "X", frame: .zero, isFocused: true, isEnabled: false).states,
                       [.disabled], "a disabled button is neither focusable nor focused")
        XCTAssertEqual(AccessibilityElement.button("x", label: "X", frame: .zero).actions, .activate)
    }

    /// The host numbers each presentation: the snapshot of a level replaced between two syncs
    /// differs from the old one in its presentation; a reversed dismissal keeps it.
    func testTheHostNumbersEachPresentation() {
        final class Plain: PresentationContent {
            var invalidation: ContentInvalidation = .none
            func draw(into image: OpaquePointer, size: Size, scale: Double) {}
            func handle(_ input: ContentInput, now: Double) -> Bool { false }
        }
        let host = PresentationHost(style: RecordingStyle().style, presenting: Plain())
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        let first = Plain()
        XCTAssertEqual(host.accessibilitySnapshot().levels.map(\.presentation), [0])
        host.present(first, now: 0)
        host.update(now: 5)
        let one = host.accessibilitySnapshot().levels.map(\.presentation)
        XCTAssertEqual(one.count, 2)
        _ = host.dismiss(now: 5)
        host.present(first, now: 5.01)   // reversed before it completed: the same dialog
        XCTAssertEqual(host.accessibilitySnapshot().levels.map(\.presentation), one)
        host.update(now: 10)
        _ = host.dismiss(now: 10)
        host.update(now: 20)
        host.present(first, now: 20)
        let two = host.accessibilitySnapshot().levels.map(\.presentation)
        XCTAssertEqual(two.count, 2)
        XCTAssertEqual(two[0], 0)
        XCTAssertNotEqual(two[1], one[1], "a new presentation of the same content is a new dialog")
    }
}
