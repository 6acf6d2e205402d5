import ModalKit
import XCTest

/// Queries never change state (foot's rule: one place advances, one draws): `render`,
/// `layerFrame()` and snapshots long after a transition's end report nothing and leave it running;
/// the next `update(now:)` completes it, with its events, and the frame drawn after shows that.
final class PureQueriesTests: XCTestCase {
    func testRenderingAndSnapshotsLeaveTheStateAndEventsToUpdate() throws {
        let style = RecordingStyle(duration: 1)
        let host = PresentationHost(style: style, presenting: Painted(Color(rgb: 0x1E40AF)))
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        var events: [PresentationState] = []
        host.onStateChange = { events.append($0) }
        host.present(Painted(Color(rgb: 0xFF8C00)), now: 0)
        XCTAssertEqual(events, [.presenting])
        let image = try Image(width: 400, height: 600)

        host.update(now: 0.5)
        host.render(into: image.pixelBuffer, bufferAge: 0)
        _ = host.layerFrame()
        _ = host.snapshot(at: 10)
        _ = host.snapshot(level: 1, at: 10)
        XCTAssertEqual(events, [.presenting], "no query reports anything")
        XCTAssertEqual(host.state, .presenting, "no query advances")
        XCTAssertEqual(style.calls.filter { $0.hasPrefix("presentationDidEnd") }, [], "no hook from a query")
        // The frame drawn is the one of the last update: half-way (linear curve), the card's top at
        // 110 + 0.5 × (600 − 110) = 355.
        XCTAssertEqual(image.pixel(x: 200, y: 354) >> 24, 0xFF)
        XCTAssertNotEqual(image.pixel(x: 200, y: 354), 0xFFFF_8C00, "above the card: the dimmed root")
        XCTAssertEqual(image.pixel(x: 200, y: 356), 0xFFFF_8C00, "the card")

        host.update(now: 1.5)
        XCTAssertEqual(events, [.presenting, .presented], "update completes it")
        host.render(into: image.pixelBuffer, bufferAge: 1)
        XCTAssertEqual(image.pixel(x: 200, y: 111), 0xFFFF_8C00, "the card at its frame")
    }
}
