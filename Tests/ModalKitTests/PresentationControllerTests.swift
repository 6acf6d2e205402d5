import ModalKitHostFuzzSupport
import ModalKit
import XCTest

/// The state machine and UIKit's `UIPresentationController` hook order. RecordingStyle: duration
/// 1 s, linear curve.
final class PresentationControllerTests: XCTestCase {
    private let bounds = Rect(x: 0, y: 0, width: 400, height: 800)

    private func make() -> (PresentationController, RecordingStyle, StateBox) {
        let style = RecordingStyle(duration: 1)
        let c = PresentationController(style: style.style)
        let box = StateBox()
        c.onStateChange = { box.states.append($0) }
        c.layout(containerBounds: bounds)
        return (c, style, box)
    }

    func testFullPresentAndDismissCallsHooksLikeUIKit() {
        let (c, style, box) = make()
        XCTAssertTrue(style.calls.isEmpty, "no layout hooks while nothing is presented")
        XCTAssertTrue(c.present(now: 0))
        XCTAssertEqual(c.state, .presenting)
        XCTAssertTrue(c.isDimmingViewInstalled)
        XCTAssertEqual(c.dimmingViewFrame, bounds)
        XCTAssertEqual(c.presentedViewFrame, Rect(x: 20, y: 110, width: 360, height: 580))
        c.update(now: 0.5)
        XCTAssertEqual(c.state, .presenting)
        c.update(now: 1.0)
        XCTAssertEqual(c.state, .presented)
        XCTAssertTrue(c.dismiss(now: 2))
        c.update(now: 3)
        XCTAssertEqual(c.state, .dismissed)
        XCTAssertFalse(c.isDimmingViewInstalled, "the dimming view is removed when the dismissal completes")
        XCTAssertEqual(style.calls, [
            "presentationWillBegin", "willLayout(400.0x800.0)", "didLayout(400.0x800.0)",
            "presentationDidEnd(true)", "dismissalWillBegin", "dismissalDidEnd(true)",
        ])
        XCTAssertEqual(box.states, [.presenting, .presented, .dismissing, .dismissed])
    }

    func testDismissDuringPresentationRunsBackFromCurrentProgress() {
        let (c, style, box) = make()
        c.present(now: 10)
        c.dismiss(now: 10.3)
        XCTAssertEqual(c.state, .dismissing)
        XCTAssertEqual(c.fraction(at: 10.3), 0.3, accuracy: 1e-9)
        XCTAssertEqual(c.fraction(at: 10.4), 0.2, accuracy: 1e-9)
        XCTAssertTrue(c.isDimmingViewInstalled)
        c.update(now: 10.59)
        XCTAssertEqual(c.state, .dismissing)
        c.update(now: 10.6)
        XCTAssertEqual(c.state, .dismissed)
        XCTAssertFalse(c.isDimmingViewInstalled)
        XCTAssertNil(c.presentedViewRect(progress: 0))
        XCTAssertEqual(Array(style.calls.suffix(3)),
                       ["presentationDidEnd(false)", "dismissalWillBegin", "dismissalDidEnd(true)"])
        XCTAssertEqual(box.states, [.presenting, .dismissing, .dismissed])
    }

    func testPresentDuringDismissalReversesAndKeepsChrome() {
        let (c, style, box) = make()
        c.present(now: 0)
        c.update(now: 1)
        c.dismiss(now: 2)
        c.present(now: 2.25)  // at u = 0.75
        XCTAssertEqual(c.state, .presenting)
        XCTAssertEqual(c.fraction(at: 2.25), 0.75, accuracy: 1e-9)
        XCTAssertTrue(c.isDimmingViewInstalled, "a cancelled dismissal keeps the dimming view")
        XCTAssertEqual(Array(style.calls.suffix(2)), ["dismissalDidEnd(false)", "presentationWillBegin"])
        c.update(now: 2.5)
        XCTAssertEqual(c.state, .presented)
        XCTAssertEqual(box.states, [.presenting, .presented, .dismissing, .presenting, .presented])
    }

    func testSecondPresentAndSecondDismissAreIgnored() {
        let (c, style, box) = make()
        c.present(now: 0)
        XCTAssertFalse(c.present(now: 0.1))
        c.update(now: 1)
        XCTAssertFalse(c.present(now: 1.5))
        c.dismiss(now: 2)
        XCTAssertFalse(c.dismiss(now: 2.1))
        XCTAssertEqual(c.fraction(at: 2.5), 0.5, accuracy: 1e-9, "a second dismiss does not restart the timing")
        XCTAssertEqual(style.calls.filter { $0 == "presentationWillBegin" }.count, 1)
        XCTAssertEqual(box.states, [.presenting, .presented, .dismissing])
    }

    func testLayoutMidTransitionReappliesFrames() {
        let (c, style, _) = make()
        c.present(now: 0)
        style.calls.removeAll()
        let newBounds = Rect(x: 0, y: 0, width: 1000, height: 600)
        c.layout(containerBounds: newBounds)
        XCTAssertEqual(style.calls, ["willLayout(1000.0x600.0)", "didLayout(1000.0x600.0)"])
        XCTAssertEqual(c.dimmingViewFrame, newBounds)
        XCTAssertEqual(c.presentedViewFrame, Rect(x: 20, y: 110, width: 960, height: 380))
        // Cover-vertical at progress 0.5: top edge halfway between 110 and the bottom edge 600.
        XCTAssertEqual(c.presentedViewRect(progress: 0.5)?.minY ?? -1, (600 + 110) / 2, accuracy: 1e-9)
    }

    /// A spring curve overshoots: the card rises past its frame, but the dim stays at its presented
    /// alpha (docs/design.md: inset-centered's dim is black 0.5 when presented, never darker).
    func testSpringOvershootMovesTheCardButNotTheDim() throws {
        let style = try BuiltinStyle.insetCentered.make(options: ["curve": "spring(300,10)", "duration": "1"])
        let c = PresentationController(style: style)
        c.layout(containerBounds: bounds)
        c.present(now: 0)
        // Sample the transition; an underdamped spring (zeta = 10 / (2·sqrt 300) ≈ 0.29) overshoots.
        var overshot = false
        for step in 1..<100 {
            let now = Double(step) / 100
            let progress = c.progress(at: now)
            let dim = c.dimmingAppearance(progress: progress)
            XCTAssertLessThanOrEqual(dim.alpha, 0.5 + 1e-9, "dim alpha at progress \(progress)")
            if progress > 1.01 {
                overshot = true
                let rect = try XCTUnwrap(c.presentedViewRect(progress: progress))
                XCTAssertLessThan(rect.minY, 110, "the card overshoots above its frame at progress \(progress)")
                XCTAssertEqual(dim.alpha, 0.5, accuracy: 1e-9)
            }
        }
        XCTAssertTrue(overshot, "spring(300,10) overshoots")
    }
}
