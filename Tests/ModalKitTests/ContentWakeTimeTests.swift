import ModalKit
import XCTest

/// `PresentationHost.nextContentInvalidationTime`: the earliest time any content's pixels change
/// without input (a caret's blink), which a window sleeps until; and an input method's update that
/// a field used tells screen readers (the accessibility version moves).
final class ContentWakeTimeTests: XCTestCase {
    final class Timed: PresentationContent {
        var invalidation: ContentInvalidation = .none
        var nextInvalidationTime: Double?
        var textInputState: TextInputState?
        func draw(into image: OpaquePointer, size: Size, scale: Double) {}
        func handle(_ input: ContentInput, now: Double) -> Bool { if case .textInput = input { return true }; return false }
    }

    func testTheEarliestContentTimeWakesTheWindow() {
        let root = Timed(), presented = Timed()
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        XCTAssertNil(host.nextContentInvalidationTime, "no content asks: the window sleeps until input")
        root.nextInvalidationTime = 7
        XCTAssertEqual(host.nextContentInvalidationTime, 7)
        host.present(presented, now: 0)
        presented.nextInvalidationTime = 5.5
        XCTAssertEqual(host.nextContentInvalidationTime, 5.5)
        root.nextInvalidationTime = nil
        XCTAssertEqual(host.nextContentInvalidationTime, 5.5)
    }

    func testAUsedInputMethodUpdateMovesTheAccessibilityVersion() {
        let root = Timed()
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        let before = host.accessibilityVersion
        XCTAssertFalse(host.deliverTextInput(TextInputUpdate(commit: "x"), now: 1), "no field focused")
        XCTAssertEqual(host.accessibilityVersion, before)
        root.textInputState = TextInputState(surroundingText: "", cursor: 0, anchor: 0, cursorRectangle: .zero)
        XCTAssertTrue(host.deliverTextInput(TextInputUpdate(commit: "x"), now: 1))
        XCTAssertNotEqual(host.accessibilityVersion, before)
    }
}
