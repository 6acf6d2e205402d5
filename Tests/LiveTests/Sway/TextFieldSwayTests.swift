// The text field live under headless sway with real keys (wayvnc + vncdo): `modal-demo --content
// form --log-events` presents an alert whose one text field has keyboard focus; every change logs
// `text "TEXT"` (JSON-escaped), Return logs `response ok "TEXT"`, Escape `response cancel`, and a
// `--secure` field logs one • per character, never the typed text.
import Foundation
import ModalKitTestHarness
import XCTest

final class TextFieldSwayTests: CompositorTestCase {
    /// Typing, BackSpace, Ctrl+BackSpace, Ctrl+A with typing over the selection, then Return; the
    /// second presentation's Escape cancels.
    func testTypedTextIsLoggedAndReturnAnswersOkWithIt() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo(["--content", "form"], in: sway)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }

        // "Hi y" typed key by key (wayvnc presses Shift for keysym H), a quote and a backslash
        // (JSON-escaped in the log), BackSpace deletes one character.
        mark = demo.mark()
        try vnc.send(["key", "H", "key", "i", "key", "space", "key", "y", "key", "\"", "key", "\\", "key", "bsp"])
        let texts = { demo.events("text", since: mark) }
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) { texts().count >= 7 }
        XCTAssertEqual(texts(), ["text \"H\"", "text \"Hi\"", "text \"Hi \"", "text \"Hi y\"", "text \"Hi y\\\"\"",
                                 "text \"Hi y\\\"\\\\\"", "text \"Hi y\\\"\""])
        XCTAssertEqual(demo.events("response", since: mark), [], "space and letters are typed, not activations")

        // Ctrl+BackSpace deletes back to the start of the word; Ctrl+A selects all and typing
        // replaces it; Left moves the caret, typing inserts before the last character.
        mark = demo.mark()
        try vnc.send(["key", "ctrl-bsp", "key", "ctrl-a", "key", "o", "key", "k", "key", "left", "key", "X"])
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) { texts().count >= 4 }
        XCTAssertEqual(texts(), ["text \"Hi \"", "text \"o\"", "text \"ok\"", "text \"oXk\""])

        mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "dismissed", since: mark) != nil else { return }
        XCTAssertEqual(demo.events("response", since: mark), ["response ok \"oXk\""])

        mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        mark = demo.mark()
        try vnc.key("esc")
        guard expectEvent(demo, "dismissed", since: mark) != nil else { return }
        XCTAssertEqual(demo.events("response", since: mark), ["response cancel"])
    }

    /// A password field: bullets in every line, the typed characters never on stdout.
    func testSecureFieldNeverLogsTheText() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo(["--content", "form", "--secure"], in: sway)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        mark = demo.mark()
        try vnc.send(["key", "q", "key", "Z", "key", "7", "key", "ctrl-a", "key", "ctrl-c", "key", "end"])
        let texts = { demo.events("text", since: mark) }
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) { texts().count >= 3 }
        XCTAssertEqual(texts(), ["text \"•\"", "text \"••\"", "text \"•••\""])
        mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "dismissed", since: mark) != nil else { return }
        XCTAssertEqual(demo.events("response", since: mark), ["response ok \"•••\""])
        let all = demo.stdoutLines.joined(separator: "\n")
        XCTAssertFalse(all.contains("qZ7") || all.contains("\"q") || all.contains("Z7"), all)
    }

    /// The caret blinks without input: the idle window draws a frame about every 0.5 s while the
    /// field has focus, and none once the caret went solid after 10 s without input.
    func testTheCaretBlinksThenRests() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo(["--content", "form"], in: sway)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        try vnc.key("a")
        Thread.sleep(forTimeInterval: 0.3)
        mark = demo.mark()
        Thread.sleep(forTimeInterval: 2.2)
        let blinking = demo.events("frame", since: mark).count
        XCTAssertTrue((3...6).contains(blinking), "frames in 2.2 s of blinking: \(blinking)")
        Thread.sleep(forTimeInterval: 8.5)
        mark = demo.mark()
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(demo.events("frame", since: mark), [], "the caret is solid after 10 s: nothing to draw")
    }
}
