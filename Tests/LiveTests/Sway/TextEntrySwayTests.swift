// Text entry's platform side, live under headless sway with a window in the test process
// (InProcessEntryWindow: a PresentationWindow over a bare entry): text-input-v3 reaching a real
// input-method-v2 client through sway (enable with the field's state, a preedit then a commit of
// CJK text, delete_surrounding_text), the clipboard and the primary selection both ways with
// wl-clipboard, and a dead key composed through the locale's compose table.
import Foundation
import ModalKit
import ModalKitTestHarness
import XCTest

final class TextEntrySwayTests: CompositorTestCase {
    /// A window with a focused entry and the scripted input method, once the input method has been
    /// activated for it.
    private func start(_ sway: HeadlessSway) throws -> (InProcessEntryWindow, ScriptedInputMethod) {
        let im = try ScriptedInputMethod(session: sway)
        addTeardownBlock { im.stop() }
        let window = try InProcessEntryWindow(session: sway)
        addTeardownBlock { window.close() }
        XCTAssertTrue(im.waitForLine(timeout: eventTimeout) { $0 == "activate" },
                      "the input method was not activated: \(im.log) \(window.error ?? "")")
        return (window, im)
    }

    private func waitForText(_ window: InProcessEntryWindow, _ text: String) -> Bool {
        waitUntil(timeout: eventTimeout, interval: 0.02) { window.entry.snapshot.text == text }
    }

    /// text-input-v3 on focus: enable with surrounding text "" (caret 0), content type normal
    /// (hint 0, purpose 0), then commit; typing through the keyboard updates the surrounding text
    /// (UTF-8 byte offsets); the input method's preedit arrives as one update with its cursor (a
    /// byte range), its commit replaces the preedit with the text, and delete_surrounding_text
    /// removes bytes before the caret.
    func testInputMethodPreeditCommitAndDeleteReachTheFocusedField() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (window, im) = try start(sway)
        XCTAssertTrue(im.waitForLine { $0 == "surrounding \"\" 0 0" }, "\(im.log)")
        XCTAssertTrue(im.log.contains("content_type 0 0"), "\(im.log)")
        XCTAssertTrue(im.waitForLine { $0.hasPrefix("done") }, "\(im.log)")

        try vnc.send(["key", "a", "key", "b", "key", "c"])
        XCTAssertTrue(waitForText(window, "abc"), "typed: \(window.entry.snapshot)")
        XCTAssertTrue(im.waitForLine { $0 == "surrounding \"abc\" 3 3" }, "\(im.log)")

        // にほんご is 12 bytes: the preedit's cursor covers all of it.
        im.showPreedit("にほんご", cursorBegin: 0, cursorEnd: 12)
        let preedit = waitUntil(timeout: eventTimeout, interval: 0.02) { window.entry.snapshot.preedit != nil }
        XCTAssertTrue(preedit, "no preedit: \(window.entry.snapshot)")
        XCTAssertEqual(window.entry.snapshot.preedit, TextInputUpdate.Preedit(text: "にほんご", cursor: 0..<12))
        XCTAssertEqual(window.entry.snapshot.text, "abc", "a preedit is not part of the text")

        im.commit("日本語")
        XCTAssertTrue(waitForText(window, "abc日本語"), "\(window.entry.snapshot)")
        XCTAssertNil(window.entry.snapshot.preedit)
        // The field's new state goes back to the input method: 3 + 9 bytes.
        XCTAssertTrue(im.waitForLine { $0 == "surrounding \"abc日本語\" 12 12" }, "\(im.log)")

        im.deleteSurrounding(before: 9, after: 0)
        XCTAssertTrue(waitForText(window, "abc"), "\(window.entry.snapshot)")
        XCTAssertNil(window.error)
    }

    /// Clipboard both ways: what wl-copy offers, Control+V pastes; what Control+C copies, wl-paste
    /// reads (the window serves it from its loop). The primary selection: a middle click over the
    /// field pastes it.
    func testClipboardBothWaysAndMiddleClickPastesThePrimarySelection() throws {
        try requireProgram("wl-copy", "wl-paste")
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (window, _) = try start(sway)
        let clipboard = SessionClipboard(session: sway, user: sway.user)
        addTeardownBlock { clipboard.stop() }

        try clipboard.copy("from wl-copy ✓")
        try vnc.send(["key", "ctrl-v"])
        XCTAssertTrue(waitForText(window, "from wl-copy ✓"), "pasted: \(window.entry.snapshot)")

        try vnc.send(["key", "x", "key", "ctrl-c"])
        var pasted: String?
        let copied = waitUntil(timeout: eventTimeout, interval: 0.1) {
            pasted = try? clipboard.paste()
            return pasted == "from wl-copy ✓x"
        }
        XCTAssertTrue(copied, "wl-paste read \(pasted.map { "'\($0)'" } ?? "nothing")")

        try clipboard.copy(" primary", primary: true)
        let area = sway.windowArea
        try vnc.send(["move", String(area.x + area.width / 2), String(area.y + area.height / 2), "click", "2"])
        XCTAssertTrue(waitForText(window, "from wl-copy ✓x primary"), "middle click: \(window.entry.snapshot)")
        XCTAssertNil(window.error)
    }

    /// A dead key through the locale's compose table: with wayvnc's keymap us(intl), dead_acute then
    /// e types "é", and dead_acute then space types the accent itself "'" (en_US.UTF-8/Compose).
    func testDeadKeyComposes() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway, keyboardLayout: "us-intl")
        let window = try InProcessEntryWindow(session: sway)
        addTeardownBlock { window.close() }
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) { window.isRunning }
        // Focus comes with the first frame; a plain key shows it arrived.
        try vnc.send(["pause", "0.5", "key", "a"])
        XCTAssertTrue(waitForText(window, "a"), "\(window.entry.snapshot) \(window.error ?? "")")
        try vnc.send(["keysym", "fe51", "key", "e", "keysym", "fe51", "key", "space"])
        XCTAssertTrue(waitForText(window, "aé'"), "composed: \(window.entry.snapshot)")
    }

    /// fcitx5 with pinyin (the session's input method through sway's input-method-v2 relay):
    /// `n i h a o` shows a preedit in the field, space commits the first candidate 你好.
    func testFcitx5PinyinTypesNihao() throws {
        try requireProgram("fcitx5", "fcitx5-remote")
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let im = try SessionInputMethod(in: sway, inputMethod: "pinyin")
        addTeardownBlock { im.stop() }
        let window = try InProcessEntryWindow(session: sway)
        addTeardownBlock { window.close() }
        _ = try sway.waitForWindow(pid: getpid(), timeout: eventTimeout)
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.1) { (try? im.state()) == 2 },
                      "fcitx5 active for the field: state \(String(describing: try? im.state())) \(window.error ?? "")")
        try vnc.send(["key", "n", "key", "i", "key", "h", "key", "a", "key", "o"])
        let composing = waitUntil(timeout: eventTimeout, interval: 0.05) { window.entry.snapshot.preedit != nil }
        XCTAssertTrue(composing, "no preedit while typing pinyin: \(window.entry.snapshot)\n\(im.process.diagnostics(maxLines: 40))")
        XCTAssertEqual(window.entry.snapshot.text, "", "nothing committed while composing")
        usleep(500_000)   // the dictionary loads after start-up: let the candidates come
        try vnc.key("space")
        XCTAssertTrue(waitForText(window, "你好"), "committed: \(window.entry.snapshot)\n\(im.process.diagnostics(maxLines: 20))")
        XCTAssertNil(window.entry.snapshot.preedit, "the preedit goes with the commit")
        XCTAssertTrue(window.entry.snapshot.preedits.contains { $0.replacingOccurrences(of: " ", with: "") == "nihao" },
                      "the pinyin preedit: \(window.entry.snapshot.preedits)")
    }

    /// Waits (bounded) for stdout line `line` at index ≥ `since`; fails with the lines seen.
    private func expectLine(_ demo: DemoProcess, _ line: String, since: Int, file: StaticString = #filePath, lineNumber: UInt = #line) {
        let word = String(line.prefix { $0 != " " })
        let found = waitUntil(timeout: eventTimeout, interval: 0.05) { demo.events(word, since: since).contains(line) }
        XCTAssertTrue(found, "no `\(line)`: \(demo.stdoutLines.suffix(20))", file: file, line: lineNumber)
    }

    // MARK: modal-demo --content form (ModalKitContent's TextField through the window)

    /// The form's field under a real input method and clipboard: the field's enable reaches the
    /// input method once the alert is presented; typed keys log `text`; the input method's preedit
    /// logs `preedit "にほんご" 0 12` (UTF-8 bytes) and its commit `text "ab日本語"`; Control+V pastes
    /// what wl-copy offers, Control+A Control+C copies the field for wl-paste; Return answers with it.
    /// With `MODALKIT_PICTURE_PREEDIT` set to a path, the screenshot with the preedit is written
    /// there (README's picture).
    func testFormFieldWithInputMethodAndClipboard() throws {
        try requireProgram("wl-copy", "wl-paste")
        let sway = try startSway(windowWidth: 480, windowHeight: 360)
        let vnc = try startVNC(sway)
        let im = try ScriptedInputMethod(session: sway)
        addTeardownBlock { im.stop() }
        let clipboard = SessionClipboard(session: sway, user: sway.user)
        addTeardownBlock { clipboard.stop() }
        let (demo, _) = try launchDemo(["--content", "form"], in: sway)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        XCTAssertTrue(im.waitForLine { $0 == "activate" }, "the focused field enabled text input: \(im.log)")
        XCTAssertTrue(im.waitForLine { $0 == "surrounding \"\" 0 0" }, "\(im.log)")

        mark = demo.mark()
        try vnc.send(["key", "a", "key", "b"])
        expectLine(demo, "text \"ab\"", since: mark)
        XCTAssertTrue(im.waitForLine { $0 == "surrounding \"ab\" 2 2" }, "\(im.log)")

        mark = demo.mark()
        im.showPreedit("にほんご", cursorBegin: 0, cursorEnd: 12)
        expectLine(demo, "preedit \"にほんご\" 0 12", since: mark)
        if let path = ProcessInfo.processInfo.environment["MODALKIT_PICTURE_PREEDIT"], !path.isEmpty {
            usleep(300_000)
            try sway.stableScreenshot().writePNG(to: path)
        }
        mark = demo.mark()
        im.commit("日本語")
        expectLine(demo, "text \"ab日本語\"", since: mark)
        XCTAssertTrue(im.waitForLine { $0 == "surrounding \"ab日本語\" 11 11" }, "\(im.log)")

        try clipboard.copy("+clip")
        mark = demo.mark()
        try vnc.key("ctrl-v")
        expectLine(demo, "text \"ab日本語+clip\"", since: mark)
        try vnc.send(["key", "ctrl-a", "key", "ctrl-c"])
        var pasted: String?
        let copied = waitUntil(timeout: eventTimeout, interval: 0.1) {
            pasted = try? clipboard.paste()
            return pasted == "ab日本語+clip"
        }
        XCTAssertTrue(copied, "wl-paste read \(pasted.map { "'\($0)'" } ?? "nothing")")

        mark = demo.mark()
        try vnc.send(["key", "end", "key", "enter"])
        guard expectEvent(demo, "dismissed", since: mark) != nil else { return }
        XCTAssertEqual(demo.events("response", since: mark), ["response ok \"ab日本語+clip\""])
        XCTAssertTrue(im.waitForLine { $0 == "deactivate" }, "dismissing the alert disabled text input: \(im.log)")
    }
}
