import Glibc
import XCTest
@testable import ModalKitWaylandClient

/// text-input-v3 on the wire (``SocketPairCompositor``): on `enter` the window's state is sent
/// whole after `enable` and closed by `commit`; later only what changed; a `done` is delivered with
/// its double-buffered events (strings repaired, any length) whatever its serial, but the state it
/// leads to is sent only when its serial matches the commits sent; `leave` disables and commits.
final class TextInputTests: XCTestCase {
    private final class Delegate: WindowDelegate {
        var events: [TextInputEvent] = []
        /// The state each `done` leads to, sent with cause input method.
        var next: [TextInputRequest] = []
        func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {}
        func window(_ window: Window, draw target: DrawTarget, damage: inout [PixelRect]) {}
        func windowDidRequestClose(_ window: Window) { window.close() }
        func window(_ window: Window, textInput event: TextInputEvent) {
            events.append(event)
            if !next.isEmpty { window.setTextInput(next.removeFirst(), cause: .inputMethod) }
        }
    }

    // zwp_text_input_v3 request opcodes (text-input-unstable-v3.xml).
    private let enable: UInt32 = 1, disable: UInt32 = 2, surrounding: UInt32 = 3, cause: UInt32 = 4, contentType: UInt32 = 5,
                rectangle: UInt32 = 6, commit: UInt32 = 7

    func testEnableSendsTheWholeStateThenOnlyChangesAndADoneWithALaggingSerialSendsNothing() throws {
        let globals = SocketPairCompositor.everything + [("zwp_text_input_manager_v3", 1)]
        let compositor = try SocketPairCompositor(globals: globals)
        compositor.actsAsCompositor = true
        compositor.afterFirstFrame = { c in
            guard let input = c.object("zwp_text_input_v3"), let surface = c.toplevelSurface, let toplevel = c.xdgToplevel else { return }
            c.sendEvent(input, opcode: 0, [surface])                                      // enter
            // preedit_string("に" + an invalid byte, 0, 3), done(0): the client has sent 1 commit.
            var bad = SocketPairCompositor.string("にX")
            bad[1] = (bad[1] & 0x00FF_FFFF) | 0xFF00_0000                                // "に" then 0xFF
            c.sendEvent(input, opcode: 2, bad + [0, 3])
            c.sendEvent(input, opcode: 5, [0])
            // commit_string("日本語"), delete_surrounding_text(3, 0), done(1): current.
            c.sendEvent(input, opcode: 3, SocketPairCompositor.string("日本語"))
            c.sendEvent(input, opcode: 4, [3, 0])
            c.sendEvent(input, opcode: 5, [1])
            c.sendEvent(input, opcode: 1, [surface])                                      // leave
            c.sendEvent(toplevel, opcode: 1, [])                                          // close
        }
        let connection = try compositor.connect()
        let delegate = Delegate()
        let window = try Window(connection: connection, options: WindowOptions(title: "Text", requestedSize: (200, 100)),
                                delegate: delegate)
        let first = TextInputRequest(surroundingText: "abc", cursor: 3, anchor: 3, contentHint: 0x80, contentPurpose: 8,
                                     cursorX: 10, cursorY: 20, cursorWidth: 2, cursorHeight: 18)
        window.setTextInput(first)
        window.setTextInput(first)   // unchanged, and no focus yet: nothing on the wire
        var afterLag = first
        afterLag.surroundingText = "abc?"
        var afterCommit = first
        afterCommit.surroundingText = "日本語"
        afterCommit.cursor = 9
        afterCommit.anchor = 9
        delegate.next = [afterLag, afterCommit]
        try compositor.serve(deadline: 30) { try connection.run() }
        XCTAssertTrue(window.isClosed)

        let sent = compositor.requests.filter { $0.interface == "zwp_text_input_v3" }.map(\.opcode)
        XCTAssertEqual(sent, [enable, surrounding, cause, contentType, rectangle, commit,   // enter: all of it
                              surrounding, cause, commit,                                   // the matching done's state
                              disable, commit])                                              // leave
        let requests = compositor.requests.filter { $0.interface == "zwp_text_input_v3" }
        XCTAssertEqual(requests[3].word(1), 8, "content_type purpose password")
        XCTAssertEqual(requests[3].word(0), 0x80)
        XCTAssertEqual((0..<4).map { Int32(bitPattern: requests[4].word($0)) }, [10, 20, 2, 18])

        XCTAssertEqual(delegate.events.count, 2)
        let lagging = try XCTUnwrap(delegate.events.first)
        XCTAssertEqual(lagging.preedit, "に\u{FFFD}", "invalid UTF-8 repaired")
        XCTAssertEqual([lagging.preeditCursorBegin, lagging.preeditCursorEnd], [0, 3])
        XCTAssertFalse(lagging.isCurrent)
        XCTAssertEqual(lagging.serial, 0)
        let current = try XCTUnwrap(delegate.events.last)
        XCTAssertTrue(current.isCurrent)
        XCTAssertNil(current.preedit, "each done starts from empty pending state")
        XCTAssertEqual(current.commit, "日本語")
        XCTAssertEqual([current.deleteBefore, current.deleteAfter], [3, 0])
    }

    func testSurroundingTextOverTheLimitIsCutAroundTheCaretOnScalarBoundaries() {
        // 3000 × "é" (2 bytes) = 6000 bytes; the caret in the middle (byte 3000).
        let text = String(repeating: "é", count: 3000)
        let clipped = TextInputRequest(surroundingText: text, cursor: 3000, anchor: 3000).clippedSurrounding
        XCTAssertEqual(clipped.text.utf8.count, TextInputRequest.maxSurroundingBytes)
        XCTAssertTrue(clipped.text.allSatisfy { $0 == "é" }, "no character cut")
        XCTAssertEqual(clipped.cursor, 2000)
        let short = TextInputRequest(surroundingText: "abc", cursor: 9, anchor: -1).clippedSurrounding
        XCTAssertEqual(short.text, "abc")
        XCTAssertEqual([short.cursor, short.anchor], [3, 0], "offsets clamped into the text")
    }
}
