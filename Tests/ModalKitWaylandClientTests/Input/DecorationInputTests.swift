import XCTest
@testable import ModalKitWaylandClient
import ModalKitWaylandDecorations

/// Pointer and touch on the client-side decorations, over the wire (``SocketPairCompositor``):
/// the devices report the events on decoration surfaces and the decorations act — a primary press
/// on a resize border asks for `xdg_toplevel.resize` with that press's serial and the edge under
/// it (xdg-shell `resize_edge`: right 8, bottom 2), a press on the title bar for
/// `xdg_toplevel.move` with its serial, a touch down on a border for a resize with the touch's
/// serial — and none of it reaches the delegate.
final class DecorationInputTests: XCTestCase {
    private final class Delegate: WindowDelegate {
        var pointerFrames = 0, touchFrames = 0
        func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {}
        func window(_ window: Window, draw target: DrawTarget, damage: inout [PixelRect]) {}
        func windowDidRequestClose(_ window: Window) { window.close() }
        func window(_ window: Window, pointer frame: PointerFrame) { pointerFrames += 1 }
        func window(_ window: Window, touch frame: TouchFrame) { touchFrames += 1 }
    }

    func testPressesOnTheBordersAndTheBarResizeAndMoveWithTheirSerials() throws {
        let compositor = try SocketPairCompositor(globals: SocketPairCompositor.everything)
        compositor.actsAsCompositor = true
        // The first configure: 0 × 0, the window picks 320 × 200 points of content (+ 28 of bar).
        compositor.afterFirstFrame = { c in
            // Surfaces in the order made: the window's, the title bar's, then the borders (top,
            // bottom, left, right; ResizeBorderSide.allCases).
            guard c.surfaces.count >= 6, let pointer = c.object("wl_pointer"), let touch = c.object("wl_touch"),
                  let toplevel = c.xdgToplevel else { return }
            let bar = c.surfaces[1], bottom = c.surfaces[3], right = c.surfaces[5]
            let f = SocketPairCompositor.fixed
            // wl_pointer: enter 0, leave 1, button 3, frame 5; wl_touch: down 0, up 1, frame 3.
            c.sendEvent(pointer, opcode: 0, [500, right, f(4), f(100)]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(pointer, opcode: 3, [501, 10, 0x110, 1]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(pointer, opcode: 3, [502, 20, 0x110, 0]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(pointer, opcode: 1, [503, right]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(pointer, opcode: 0, [504, bar, f(50), f(10)]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(pointer, opcode: 3, [505, 1000, 0x110, 1]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(pointer, opcode: 3, [506, 1010, 0x110, 0]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(touch, opcode: 0, [507, 2000, bottom, 1, f(100), f(4)]); c.sendEvent(touch, opcode: 3, [])
            c.sendEvent(touch, opcode: 1, [508, 2010, 1]); c.sendEvent(touch, opcode: 3, [])
            c.sendEvent(toplevel, opcode: 1, [])   // xdg_toplevel.close: the delegate closes the window
        }
        let connection = try compositor.connect()
        let delegate = Delegate()
        var options = WindowOptions(title: "Borders", requestedSize: (320, 200))
        options.clientSideDecorations = .standard
        let window = try Window(connection: connection, options: options, delegate: delegate)
        try compositor.serve(deadline: 30) { try connection.run() }
        XCTAssertTrue(window.isClosed)

        let toplevel = try XCTUnwrap(compositor.xdgToplevel)
        let seat = try XCTUnwrap(compositor.object("wl_seat"))
        // xdg_toplevel: move 5 (seat, serial), resize 6 (seat, serial, edges).
        let acts = compositor.requests(on: toplevel).filter { $0.opcode == 5 || $0.opcode == 6 }
            .map { [$0.opcode, $0.word(0), $0.word(1)] + ($0.opcode == 6 ? [$0.word(2)] : []) }
        XCTAssertEqual(acts, [[6, seat, 501, 8], [5, seat, 505], [6, seat, 507, 2]],
                       "resize from the right edge, move, resize from the bottom edge")
        XCTAssertEqual(delegate.pointerFrames, 0, "nothing on the decorations reaches the delegate")
        XCTAssertEqual(delegate.touchFrames, 0)
    }
}
