import Glibc
import XCTest
@testable import ModalKitWaylandClient

/// The pointer's cursor over the content follows `Window.setContentCursor(_:)`: a change sets the
/// cursor again (`wl_pointer.set_cursor` with the enter serial), the same names again do not, and
/// an empty list is the arrow again.
final class ContentCursorTests: XCTestCase {
    private final class Delegate: WindowDelegate {
        /// The names to set at each pointer frame, in order.
        var names: [[String]] = []
        func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {}
        func window(_ window: Window, draw target: DrawTarget, damage: inout [PixelRect]) {}
        func windowDidRequestClose(_ window: Window) { window.close() }
        func window(_ window: Window, pointer frame: PointerFrame) {
            if !names.isEmpty { window.setContentCursor(names.removeFirst()) }
        }
    }

    func testContentCursorIsSetWhenItChangesOnly() throws {
        let compositor = try SocketPairCompositor(globals: SocketPairCompositor.everything)
        compositor.actsAsCompositor = true
        compositor.afterFirstFrame = { c in
            guard let pointer = c.object("wl_pointer"), let surface = c.toplevelSurface, let toplevel = c.xdgToplevel else { return }
            let f = SocketPairCompositor.fixed
            // wl_pointer: enter 0 (serial 700), motion 2, frame 5; then xdg_toplevel.close.
            c.sendEvent(pointer, opcode: 0, [700, surface, f(10), f(20)]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(pointer, opcode: 2, [1000, f(11), f(21)]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(pointer, opcode: 2, [1001, f(12), f(22)]); c.sendEvent(pointer, opcode: 5, [])
            c.sendEvent(toplevel, opcode: 1, [])
        }
        let connection = try compositor.connect()
        let delegate = Delegate()
        delegate.names = [["text", "xterm"], ["text", "xterm"], []]
        let window = try Window(connection: connection, options: WindowOptions(title: "Cursor", requestedSize: (200, 100)),
                                delegate: delegate)
        try compositor.serve(deadline: 30) { try connection.run() }
        XCTAssertTrue(window.isClosed)
        let setCursor = compositor.requests.filter { $0.interface == "wl_pointer" && $0.opcode == 0 }
        // enter: the arrow; the I-beam; (the same again: nothing); the arrow again.
        XCTAssertEqual(setCursor.count, 3, "set_cursor at enter, at the change to the I-beam and back to the arrow")
        XCTAssertEqual(Set(setCursor.map { $0.word(0) }), [700], "every set_cursor carries the enter serial")
    }
}
