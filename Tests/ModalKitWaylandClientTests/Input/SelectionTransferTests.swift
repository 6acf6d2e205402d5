import Foundation
import Glibc
import XCTest
@testable import ModalKitWaylandClient

/// Selections read and served on the connection's loop without blocking it: a read ends at end of
/// file with the text (invalid UTF-8 repaired), is cut at 16 MiB on a character boundary, and with
/// nothing offered completes with nil on the next iteration, never inside the call; a served
/// selection is written whole to a slow reader, and a reader that goes away ends the write
/// without killing the process (SIGPIPE).
final class SelectionTransferTests: XCTestCase {
    private final class Delegate: WindowDelegate {
        func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {}
        func window(_ window: Window, draw target: DrawTarget, damage: inout [PixelRect]) {}
        func windowDidRequestClose(_ window: Window) { window.close() }
    }

    /// Runs a connection with one window until `body`'s completion closes it (bounded).
    private func runLoop(_ body: (WaylandConnection, Window) throws -> Void) throws {
        let compositor = try SocketPairCompositor(globals: SocketPairCompositor.required)
        compositor.actsAsCompositor = true
        let connection = try compositor.connect()
        let delegate = Delegate()
        let window = try Window(connection: connection, options: WindowOptions(title: "Sel", requestedSize: (50, 50)),
                                delegate: delegate)
        try body(connection, window)
        try compositor.serve(deadline: 60) { try connection.run() }
        XCTAssertTrue(window.isClosed, "the completion closed the window")
    }

    private func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        return (fds[0], fds[1])
    }

    /// Writes `bytes` to `fd` on a thread, then closes it.
    private func feed(_ fd: Int32, _ bytes: [UInt8]) -> Thread {
        let thread = Thread {
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n <= 0 { break }
                offset += n
            }
            close(fd)
        }
        thread.start()
        return thread
    }

    func testReadEndsAtEndOfFileWithRepairedText() throws {
        var result: String?? = .none
        var calledInside = false
        try runLoop { connection, window in
            let (r, w) = makePipe()
            _ = feed(w, Array("héllo ".utf8) + [0xFF] + Array("日本".utf8))
            var inside = true
            _ = SelectionReader(fd: r, what: "clipboard", connection: connection) { text in
                calledInside = inside
                result = .some(text)
                window.close()
            }
            inside = false
        }
        XCTAssertFalse(calledInside)
        XCTAssertEqual(result, .some("héllo \u{FFFD}日本"))
    }

    func testNothingOfferedCompletesWithNilLater() throws {
        var result: String?? = .none
        var calledInside = false
        try runLoop { connection, window in
            var inside = true
            _ = SelectionReader(fd: nil, what: "clipboard", connection: connection) { text in
                calledInside = inside
                result = .some(text)
                window.close()
            }
            inside = false
        }
        XCTAssertFalse(calledInside, "the completion never runs inside the request")
        XCTAssertEqual(result, .some(nil))
    }

    func testAReadOverSixteenMebibytesIsCutOnACharacterBoundary() throws {
        var length = -1
        var last: Character?
        try runLoop { connection, window in
            let (r, w) = makePipe()
            // 16 MiB − 1 bytes of "a", then "é" (2 bytes) across the cap, then more.
            let bytes = [UInt8](repeating: 0x61, count: SelectionReader.cap - 1) + Array("é".utf8) + [UInt8](repeating: 0x62, count: 1000)
            _ = feed(w, bytes)
            _ = SelectionReader(fd: r, what: "clipboard", connection: connection) { text in
                length = text?.utf8.count ?? -1
                last = text?.last
                window.close()
            }
        }
        XCTAssertEqual(length, SelectionReader.cap - 1, "the character crossing the cap is left out whole")
        XCTAssertEqual(last, "a")
    }

    /// The cut at the cap leaves out at most the one character that crosses it (its lead byte at
    /// most three bytes before the cap, UTF-8's longest sequence): continuation bytes that follow
    /// no lead byte, or a character that ended before the cap, are not a character to walk back
    /// over (what they decode to, U+FFFD, is kept).
    func testTheCutAtTheCapLeavesOutOnlyTheCharacterCrossingIt() {
        XCTAssertEqual(Array(SelectionReader.cut(Array("aé".utf8), toAtMost: 3)), Array("aé".utf8), "all of a text that fits")
        XCTAssertEqual(Array(SelectionReader.cut(Array("aé".utf8), toAtMost: 2)), Array("a".utf8))
        XCTAssertEqual(Array(SelectionReader.cut(Array("a😀".utf8), toAtMost: 4)), Array("a".utf8))
        XCTAssertEqual(Array(SelectionReader.cut([0x61] + [UInt8](repeating: 0x80, count: 10), toAtMost: 5)),
                       [0x61, 0x80, 0x80, 0x80, 0x80], "stray continuation bytes")
        XCTAssertEqual(Array(SelectionReader.cut([0xC3, 0xA9, 0x80, 0x80], toAtMost: 3)), [0xC3, 0xA9, 0x80],
                       "é ends before the cap")
        XCTAssertEqual(Array(SelectionReader.cut([0xF0, 0x9F, 0x98, 0x80, 0x80], toAtMost: 0)), [])
    }

    func testServedSelectionIsWrittenWholeAndAVanishedReaderEndsTheWrite() throws {
        let text = [UInt8](repeating: 0x78, count: 1 << 20)   // 1 MiB: more than a pipe holds
        final class Received: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
        }
        let received = Received()
        var timer: EventLoopTimer?
        try runLoop { connection, window in
            let (r, w) = makePipe()
            _ = SelectionWriter(fd: w, bytes: text, connection: connection)
            // A reader that closes at once: EPIPE, no SIGPIPE.
            let (r2, w2) = makePipe()
            close(r2)
            _ = SelectionWriter(fd: w2, bytes: text, connection: connection)
            let reader = Thread {
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = read(r, &chunk, chunk.count)
                    if n <= 0 { break }
                    received.lock.lock(); received.count += n; received.lock.unlock()
                    usleep(1000)   // slow
                }
                close(r)
            }
            reader.start()
            let deadline = monotonicSeconds() + 30
            timer = EventLoopTimer(connection: connection) {
                received.lock.lock(); let count = received.count; received.lock.unlock()
                if count == text.count || monotonicSeconds() > deadline { window.close() } else { timer?.schedule(after: 0.02) }
            }
            timer?.schedule(after: 0.02)
        }
        timer?.invalidate()
        received.lock.lock(); defer { received.lock.unlock() }
        XCTAssertEqual(received.count, text.count)
    }
}
