import Glibc
import XCTest
@testable import ModalKitWaylandClient

/// The ownership rule of ``WaylandConnection``: every object that wraps a proxy keeps the
/// `wl_display` connected, so the display disconnects after the last of them whatever order the
/// app (or an optimized build's ARC) releases them in, and no proxy is ever destroyed on a
/// disconnected (freed) display.
///
/// Each test runs against a ``SocketPairCompositor`` and watches the compositor's end of the
/// socket: the client's end closes exactly when `wl_display_disconnect` runs. Freed memory is
/// overwritten meanwhile (glibc's `M_PERTURB`), so a proxy destroyed on a freed display reads
/// garbage and crashes at once instead of passing by luck.
final class TeardownOrderTests: XCTestCase {
    /// glibc's `mallopt(M_PERTURB, byte)` (malloc.h, which the Glibc module does not import):
    /// `free` fills freed memory with `byte`; 0 turns it off.
    /// Under AddressSanitizer (scripts/test --sanitize address), whose allocator takes the place of
    /// glibc's and reports any use of freed memory itself, there is nothing to turn on.
    private static func perturbFreedMemory(_ byte: Int32) {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let M_PERTURB: Int32 = -6
        guard dlsym(nil, "__asan_init") == nil else { return }
        guard let symbol = dlsym(nil, "mallopt") else { return XCTFail("no mallopt in the C library") }
        XCTAssertEqual(unsafeBitCast(symbol, to: Mallopt.self)(M_PERTURB, byte), 1, "mallopt(M_PERTURB)")
    }

    override func setUp() {
        super.setUp()
        Self.perturbFreedMemory(0xA5)
    }

    override func tearDown() {
        Self.perturbFreedMemory(0)
        super.tearDown()
    }

    private final class Delegate: LayeredWindowDelegate {
        func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {}
        func window(_ window: Window, draw target: DrawTarget, damage: inout [PixelRect]) {}
        func window(_ window: Window, compose frame: FrameComposer) {}
        func windowDidRequestClose(_ window: Window) { window.close() }
    }

    /// What `modal-demo` does when closed, in the order its release build releases things: the
    /// connection's last use is `run()`, so its local reference goes first and the window holds
    /// the last one; the window's `deinit` then releases the connection and its buffer pool (with
    /// the `wl_shm`) in whatever order its stored properties go.
    func testConnectionReleasedBeforeItsWindowDisconnectsOnlyAfterTheWindow() throws {
        let compositor = try SocketPairCompositor(globals: SocketPairCompositor.everything)
        let delegate = Delegate()
        var connection: WaylandConnection? = try compositor.connect()
        XCTAssertEqual(connection?.seats.count, 1)
        XCTAssertNotNil(connection?.seats.first?.pointer, "the seat's capabilities made its pointer")
        XCTAssertNotNil(connection?.seats.first?.keyboard)
        var window: Window? = try Window(connection: connection!, options: WindowOptions(compositing: .subsurface),
                                         delegate: delegate)
        XCTAssertEqual(window?.compositing, .subsurface)
        // A layer with a colour buffer and an image buffer, and a cursor theme, as after a present.
        let layer = try XCTUnwrap(window?.makeLayer())
        try layer.showSolid(color: 0x8000_0000, x: 0, y: 0, width: 100, height: 80)
        XCTAssertNotNil(try layer.imageTarget(width: 40, height: 30))
        layer.showImage(x: 10, y: 10, visible: Rect(x: 0, y: 0, width: 40, height: 30), scale: 1)
        XCTAssertNotNil(connection?.cursorTheme(scale: 1))

        connection = nil
        XCTAssertFalse(compositor.clientHungUp(), "the window keeps the display connected")
        window = nil
        XCTAssertTrue(compositor.clientHungUp(), "the display disconnects with the window, its last holder")
        // The layer the app kept was destroyed with the window: it does nothing, holds nothing.
        XCTAssertFalse(layer.isShown)
        XCTAssertEqual(layer.imageBufferCount, 0)
        try layer.showSolid(color: 0xFF00_0000, x: 0, y: 0, width: 10, height: 10)
        XCTAssertFalse(layer.isShown)
    }

    /// Objects made on the display and kept after the connection and the window are gone keep the
    /// display connected, each until it goes; the display disconnects after the last one.
    func testObjectsKeptAfterTheConnectionKeepTheDisplayConnectedUntilTheLastGoes() throws {
        let compositor = try SocketPairCompositor(globals: SocketPairCompositor.everything)
        let delegate = Delegate()
        var connection: WaylandConnection? = try compositor.connect()
        var window: Window? = try Window(connection: connection!, options: WindowOptions(compositing: .pixman),
                                         delegate: delegate)
        XCTAssertEqual(window?.compositing, .pixman)
        var theme = connection?.cursorTheme(scale: 2)
        XCTAssertNotNil(theme)
        var buffer: ShmBuffer? = try ShmBuffer(shm: XCTUnwrap(connection?.shm), width: 8, height: 8)
        var surface: Surface? = connection?.compositor.createSurface()
        var seat = connection?.seats.first
        XCTAssertNotNil(seat?.touch)
        var output = connection?.outputs.first
        XCTAssertNotNil(output)

        window = nil
        connection = nil
        XCTAssertFalse(compositor.clientHungUp(), "a cursor theme, a buffer, a surface, a seat and an output keep it")
        theme = nil
        XCTAssertFalse(compositor.clientHungUp(), "a buffer, a surface, a seat and an output keep it")
        buffer = nil
        XCTAssertFalse(compositor.clientHungUp(), "a surface, a seat and an output keep it")
        surface = nil
        XCTAssertFalse(compositor.clientHungUp(), "a seat and an output keep it")
        seat = nil
        XCTAssertFalse(compositor.clientHungUp(), "an output keeps it")
        output = nil
        XCTAssertTrue(compositor.clientHungUp(), "disconnected after the last object made on it")
        withExtendedLifetime((theme, buffer, surface, seat, output)) {}
    }

    /// Dropping the connection first, while nothing else is made on it, disconnects at once.
    func testConnectionAloneDisconnectsWhenReleased() throws {
        let compositor = try SocketPairCompositor(globals: SocketPairCompositor.required)
        var connection: WaylandConnection? = try compositor.connect()
        XCTAssertFalse(compositor.clientHungUp())
        connection = nil
        XCTAssertTrue(compositor.clientHungUp())
        withExtendedLifetime(connection) {}
    }
}
