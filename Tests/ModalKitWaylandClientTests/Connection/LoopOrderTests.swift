import CModalKitWaylandClient
import Glibc
import XCTest
@testable import ModalKitWaylandClient

/// The loop's order over the wire (``SocketPairCompositor``): the Wayland events read in a
/// wake-up are dispatched before the watches of that wake-up run (a key's release before the
/// repeat timer's expiry), and each device's events carry their `wl_seat`.
final class LoopOrderTests: XCTestCase {
    private final class Delegate: WindowDelegate {
        var pointerFrames: [PointerFrame] = []
        func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {}
        func window(_ window: Window, draw target: DrawTarget, damage: inout [PixelRect]) {}
        func windowDidRequestClose(_ window: Window) { window.close() }
        func window(_ window: Window, pointer frame: PointerFrame) { pointerFrames.append(frame) }
    }

    func testWatchesRunAfterTheEventsReadInTheSameWakeUpAreDispatched() throws {
        let compositor = try SocketPairCompositor(globals: SocketPairCompositor.everything)
        compositor.actsAsCompositor = true
        compositor.afterFirstFrame = { c in
            guard let pointer = c.object("wl_pointer"), let surface = c.toplevelSurface, let toplevel = c.xdgToplevel else { return }
            let f = SocketPairCompositor.fixed
            // wl_pointer: enter 0, leave 1, motion 2, frame 5; then xdg_toplevel.close.
            c.sendEvent(pointer, opcode: 0, [600, surface, f(10), f(20)]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(pointer, opcode: 2, [1000, f(11), f(21)]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(toplevel, opcode: 1, [])
        }
        let connection = try compositor.connect()
        let delegate = Delegate()
        let window = try Window(connection: connection, options: WindowOptions(title: "Order", requestedSize: (200, 100)),
                                delegate: delegate)
        // A watch that is ready in every wake-up (a pipe with a byte never read): whenever the
        // loop reads events, this handler runs in the same wake-up. Events still queued when it
        // runs were read and not dispatched (wl_display_dispatch_pending dispatches them here and
        // says how many).
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        var byte: UInt8 = 1
        XCTAssertEqual(write(fds[1], &byte, 1), 1)
        var runs = 0, undispatched: [Int32] = []
        let display = connection.display.pointer
        let watch = connection.watch(fd: fds[0]) { _ in
            runs += 1
            let queued = wl_display_dispatch_pending(display)
            if queued != 0 { undispatched.append(queued) }
        }
        defer { connection.removeWatch(watch) }
        try compositor.serve(deadline: 30) { try connection.run() }
        XCTAssertTrue(window.isClosed, "the close arrived")
        XCTAssertGreaterThan(runs, 0)
        XCTAssertEqual(undispatched, [], "events read in a wake-up were still queued when its watches ran")
        XCTAssertEqual(delegate.pointerFrames.flatMap(\.events).map(\.kind), [.enter(x: 10, y: 20), .motion(x: 11, y: 21)])
        // The frames carry the seat: the registry name of the wl_seat global.
        let seatName = UInt32(try XCTUnwrap(SocketPairCompositor.everything.firstIndex { $0.interface == "wl_seat" }) + 1)
        XCTAssertEqual(Set(delegate.pointerFrames.map(\.seat)), [SeatID(rawValue: seatName)])
    }
}
