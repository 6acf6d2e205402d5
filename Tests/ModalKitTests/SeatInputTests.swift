import ModalKit
import ModalKitHostFuzzSupport
import XCTest

/// Input of two seats at once (no compositor): each seat's pointer and touch points are its own,
/// and a press belongs to the seat that began it (``PresentationHost/handle(_:from:now:)``). The
/// bottom sheet in a 480 × 800 container: presented at y 400…800, its drag follows the pressing
/// pointer 1:1 along y once past 8 pt.
final class SeatInputTests: XCTestCase {
    final class Content: PresentationContent {
        var invalidation: ContentInvalidation = .all
        var inputs: [ContentInput] = []
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: .white)
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool {
            inputs.append(input)
            return true
        }
    }

    private let seat0 = InputSeat(rawValue: 7), seat1 = InputSeat(rawValue: 9)

    /// A presented bottom sheet at rest at t = 1, and the log of its interaction events.
    private func sheet() throws -> (PresentationHost, Content, () -> [String]) {
        let host = PresentationHost(style: try BuiltinStyle.bottomSheet.make(options: [:]), presenting: Content())
        let card = Content()
        var lines: [String] = []
        host.onInteraction = { lines.append($0.logLine) }
        host.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        host.present(card, now: 0)
        host.update(now: 1)
        XCTAssertEqual(host.state, .presented)
        return (host, card, { lines })
    }

    private func top(_ host: PresentationHost, _ now: Double) -> Double { host.snapshot(at: now).presentedRect.minY }
    private func ended(_ log: [String]) -> Int { log.filter { $0.hasPrefix("drag-ended") }.count }
    private func began(_ log: [String]) -> Int { log.filter { $0.hasPrefix("drag-began") }.count }

    func testAnotherSeatsPointerNeitherStealsNorEndsNorSteersADrag() throws {
        let (host, card, log) = try sheet()
        // seat0 presses at y 500 and drags 60 pt down: the sheet's top at 460.
        host.handle(.pointerMotion(Point(x: 240, y: 500)), from: seat0, now: 1.00)
        host.handle(.pointerButton(pressed: true), from: seat0, now: 1.00)
        host.handle(.pointerMotion(Point(x: 240, y: 530)), from: seat0, now: 1.02)
        host.handle(.pointerMotion(Point(x: 240, y: 560)), from: seat0, now: 1.04)
        XCTAssertEqual(top(host, 1.04), 460, accuracy: 0.01)
        XCTAssertEqual(began(log()), 1)
        let cardInputs = card.inputs.count

        // seat1 moves over the sheet, presses, moves, releases, leaves: none of it is seat0's.
        host.handle(.pointerMotion(Point(x: 100, y: 700)), from: seat1, now: 1.10)
        host.handle(.pointerButton(pressed: true), from: seat1, now: 1.12)
        host.handle(.pointerMotion(Point(x: 100, y: 760)), from: seat1, now: 1.14)
        host.handle(.pointerButton(pressed: false), from: seat1, now: 1.16)
        host.handle(.pointerLeave, from: seat1, now: 1.18)
        XCTAssertEqual(ended(log()), 0, "seat1's release and leave did not end seat0's drag: \(log())")
        XCTAssertEqual(top(host, 1.18), 460, accuracy: 0.01, "seat1's motion did not steer the sheet")
        XCTAssertEqual(card.inputs.count, cardInputs, "seat1's press reached no content: \(card.inputs.suffix(4))")

        // seat0 goes on: 20 pt further, then releases (80 pt: back to the detent).
        host.handle(.pointerMotion(Point(x: 240, y: 580)), from: seat0, now: 1.30)
        XCTAssertEqual(top(host, 1.30), 480, accuracy: 0.01, "the sheet follows seat0")
        host.handle(.pointerButton(pressed: false), from: seat0, now: 1.50)
        XCTAssertEqual(ended(log()), 1, "seat0's release ends its drag")
        host.update(now: 3)
        XCTAssertEqual(top(host, 3), 400, accuracy: 0.5, "back at the detent")
        XCTAssertEqual(host.state, .presented)
    }

    func testALeaveOfTheDraggingSeatEndsItsDragAndOnlyIts() throws {
        let (host, _, log) = try sheet()
        host.handle(.pointerMotion(Point(x: 240, y: 500)), from: seat1, now: 1.00)
        host.handle(.pointerButton(pressed: true), from: seat1, now: 1.00)
        host.handle(.pointerMotion(Point(x: 240, y: 540)), from: seat1, now: 1.02)
        // seat0 (the default seat of handle(_:now:)'s callers is another one) leaves: nothing.
        host.handle(.pointerLeave, from: seat0, now: 1.05)
        host.handle(.pointerLeave, now: 1.06)
        XCTAssertEqual(ended(log()), 0)
        host.handle(.pointerLeave, from: seat1, now: 1.10)
        XCTAssertEqual(ended(log()), 1, "its own leave ends seat1's drag (released at rest)")
    }

    func testTheHoverFollowsThePointerThatMovedLastAndALeaveHandsItOn() throws {
        let (host, card, _) = try sheet()
        // Both pointers over the sheet (top 400): seat1 moved last.
        host.handle(.pointerMotion(Point(x: 100, y: 500)), from: seat0, now: 1.0)
        host.handle(.pointerMotion(Point(x: 300, y: 600)), from: seat1, now: 1.1)
        XCTAssertEqual(card.inputs.last, .hover(Point(x: 300, y: 200)), "the card's own points")
        // seat1 leaves: the hover goes to seat0's pointer, not away.
        host.handle(.pointerLeave, from: seat1, now: 1.2)
        XCTAssertEqual(card.inputs.last, .hover(Point(x: 100, y: 100)))
        // seat0 leaves too: no hover.
        host.handle(.pointerLeave, from: seat0, now: 1.3)
        XCTAssertEqual(card.inputs.last, .hover(nil))
    }

    func testTouchPointIdsArePerSeat() throws {
        let (host, _, log) = try sheet()
        // seat0's touch point 1 drags the sheet 50 pt down.
        host.handle(.touchDown(id: 1, Point(x: 240, y: 500)), from: seat0, now: 1.00)
        host.handle(.touchMotion(id: 1, Point(x: 240, y: 550)), from: seat0, now: 1.04)
        XCTAssertEqual(top(host, 1.04), 450, accuracy: 0.01)
        // seat1's touch point 1 (the same id) goes down, moves, lifts; then seat1's touch is cancelled.
        host.handle(.touchDown(id: 1, Point(x: 100, y: 700)), from: seat1, now: 1.10)
        host.handle(.touchMotion(id: 1, Point(x: 100, y: 780)), from: seat1, now: 1.12)
        host.handle(.touchUp(id: 1), from: seat1, now: 1.14)
        host.handle(.touchCancel, from: seat1, now: 1.16)
        XCTAssertEqual(ended(log()), 0, "seat1's point 1 is not seat0's: \(log())")
        XCTAssertEqual(top(host, 1.16), 450, accuracy: 0.01)
        host.handle(.touchMotion(id: 1, Point(x: 240, y: 560)), from: seat0, now: 1.20)
        XCTAssertEqual(top(host, 1.20), 460, accuracy: 0.01, "seat0's point 1 still drags")
        host.handle(.touchCancel, from: seat0, now: 1.30)
        XCTAssertEqual(ended(log()), 1, "seat0's cancel ends its own drag")
    }
}
