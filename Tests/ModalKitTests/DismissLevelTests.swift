import ModalKit
import XCTest

/// `PresentationHost.dismiss(_:now:)`: a given level and the levels it presented above it leave,
/// not whatever is on top. 400 × 600, scale 1. Level 1: RecordingStyle (1 s linear, card
/// 20…380 × 110…490, dim 0.5 × progress); levels 2 and 3: `StackHostTests.receding()` (1 s
/// linear, a 400 × 200 sheet at y 400…600, dim 0.4 × progress, the level below scaled
/// 1 − 0.1 × progress about its top centre).
final class DismissLevelTests: XCTestCase {
    typealias Solid = StackHostTests.Solid

    /// Three levels presented and at rest at t = 3, each level's state changes recorded.
    private func threeLevels() -> (PresentationHost, Solid, Solid, Solid, Events) {
        let root = Solid(Color(rgb: 0x806040)), one = Solid(.white), two = Solid(Color(rgb: 0x2050A0)),
            three = Solid(Color(rgb: 0x40A060))
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        XCTAssertTrue(host.present(one, now: 0))
        host.update(now: 1)
        XCTAssertTrue(host.present(two, style: StackHostTests.receding(), now: 1))
        host.update(now: 2)
        XCTAssertTrue(host.present(three, style: StackHostTests.receding(), now: 2))
        host.update(now: 3)
        XCTAssertEqual(host.levelCount, 3)
        let events = Events()
        host.onLevelStateChange = { events.lines.append("\($0.rawValue) \($1)") }
        return (host, one, two, three, events)
    }

    final class Events { var lines: [String] = [] }

    private let card = Rect(x: 20, y: 110, width: 360, height: 380)
    private let sheet = Rect(x: 0, y: 400, width: 400, height: 200)

    func testDismissingTheMiddleLevelRemovesTheTopAtOnceAndAnimatesItself() throws {
        let (host, one, two, _, events) = threeLevels()
        XCTAssertTrue(host.dismiss(two, now: 3))
        XCTAssertEqual(events.lines, ["dismissing 3", "dismissed 3", "dismissing 2"],
                       "level 3 goes at once, level 2 starts its dismissal")
        XCTAssertEqual(host.levelCount, 2)
        XCTAssertTrue(host.presentedContent === two, "level 2 is the top until its dismissal ends")
        XCTAssertEqual(host.state(level: 1), .presented)
        XCTAssertEqual(host.state(level: 2), .dismissing)
        XCTAssertEqual(host.state(level: 3), .dismissed)
        // Half-way: level 2's dim at 0.4 × 0.5 and level 1 scaled 1 − 0.1 × 0.5 by level 2.
        let mid = try XCTUnwrap(host.snapshot(level: 2, at: 3.5))
        XCTAssertEqual(mid.dim.alpha, 0.2, accuracy: 1e-9)
        XCTAssertEqual(mid.presentingAppearance.transform.scaleX, 0.95, accuracy: 1e-9)
        XCTAssertEqual(mid.presentedFrame, sheet)
        XCTAssertEqual(host.presentedViewFrame(level: 1), card, "level 1 stays where it is")
        host.update(now: 4)
        XCTAssertEqual(events.lines, ["dismissing 3", "dismissed 3", "dismissing 2", "dismissed 2"])
        XCTAssertEqual(host.levelCount, 1)
        XCTAssertTrue(host.presentedContent === one)
        XCTAssertEqual(host.state, .presented)
        XCTAssertEqual(try XCTUnwrap(host.snapshot(level: 1, at: 4)).presentedRect, card)
    }

    func testDismissingLevel1RemovesEveryLevelAboveAndEndsThePresentation() throws {
        let (host, one, _, _, events) = threeLevels()
        XCTAssertTrue(host.dismiss(one, now: 3))
        XCTAssertEqual(events.lines, ["dismissing 3", "dismissed 3", "dismissing 2", "dismissed 2", "dismissing 1"])
        XCTAssertEqual(host.levelCount, 1)
        XCTAssertEqual(host.state, .dismissing)
        let mid = try XCTUnwrap(host.snapshot(level: 1, at: 3.25))
        XCTAssertEqual(mid.dim.alpha, 0.5 * 0.75, accuracy: 1e-9, "level 1's own dismissal, 1 s linear")
        host.update(now: 4)
        XCTAssertEqual(events.lines.last, "dismissed 1")
        XCTAssertEqual(host.state, .dismissed)
        XCTAssertEqual(host.levelCount, 0)
        XCTAssertNil(host.presentedContent)
    }

    func testDismissingTheTopIsTheTopsDismissal() throws {
        let (host, _, _, three, events) = threeLevels()
        XCTAssertTrue(host.dismiss(three, now: 3))
        XCTAssertEqual(events.lines, ["dismissing 3"])
        XCTAssertFalse(host.dismiss(three, now: 3.2), "dismissing already")
        host.update(now: 4)
        XCTAssertEqual(events.lines, ["dismissing 3", "dismissed 3"])
        XCTAssertEqual(host.levelCount, 2)
    }

    func testAContentInNoLevelChangesNothing() {
        let (host, _, _, _, events) = threeLevels()
        XCTAssertFalse(host.dismiss(Solid(.black), now: 3))
        XCTAssertFalse(host.dismiss(host.presentingContent, now: 3), "the presenting content is no level")
        XCTAssertEqual(events.lines, [])
        XCTAssertEqual(host.levelCount, 3)
    }

    func testDismissingALevelBelowARunningPresentationRemovesItUncompleted() throws {
        let root = Solid(.black), one = Solid(.white), two = Solid(Color(rgb: 0x2050A0))
        let recording = RecordingStyle()
        let host = PresentationHost(style: StackHostTests.receding(), presenting: root)
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        host.present(one, now: 0)
        host.update(now: 1)
        host.present(two, style: recording.style, now: 1)
        host.update(now: 1.5)
        recording.calls = []
        XCTAssertTrue(host.dismiss(one, now: 1.5))
        XCTAssertEqual(recording.calls, ["presentationDidEnd(false)", "dismissalWillBegin", "dismissalDidEnd(true)"],
                       "level 2's presentation ends uncompleted and its dismissal completes at once")
        XCTAssertEqual(host.levelCount, 1)
        XCTAssertEqual(host.state(level: 1), .dismissing)
    }

    func testAPressOnARemovedLevelEndsWithoutATap() {
        let (host, _, two, three, _) = threeLevels()
        host.handle(.pointerMotion(Point(x: 200, y: 500)), now: 3)
        host.handle(.pointerButton(pressed: true), now: 3)
        XCTAssertEqual(three.inputs.last, .press(Point(x: 200, y: 100)))
        host.dismiss(two, now: 3.1)
        XCTAssertEqual(three.inputs.last, .cancel, "the press on level 3 ends when level 3 leaves")
        host.handle(.pointerButton(pressed: false), now: 3.2)
        XCTAssertFalse(two.inputs.contains { if case .release = $0 { return true } else { return false } },
                       "the release reaches no level below")
    }
}
