import ModalKit
@testable import ModalKitContent
import ModalKitText
import XCTest

/// `TextField`: keys (GTK's bindings), clipboard and primary selection through a `Pasteboard`,
/// secure entry, pointer clicks, the input method's state, and its pixels against the documented
/// values (padding 9 pt, the caret at the advance of the text before it, the selection colour).
final class TextFieldTests: XCTestCase {
    typealias K = KeyInput.Keysym
    let ctrl = KeyInput.Modifiers.control, shift = KeyInput.Modifiers.shift

    func press(_ f: TextField, _ keysym: UInt32, _ text: String = "", _ mods: KeyInput.Modifiers = [], now: Double = 1) -> Bool {
        f.handle(.keyboard(KeyInput(keysym: keysym, phase: .press, text: text, modifiers: mods)), now: now)
    }
    func type(_ f: TextField, _ s: String) {
        for c in s { XCTAssertTrue(press(f, UInt32(c.unicodeScalars.first!.value), String(c))) }
    }
    func focused(_ text: String = "", secure: Bool = false) -> TextField {
        let f = TextField(text: text, isSecure: secure)
        f.pasteboard = Pasteboard()
        f.clock = { 100 }
        XCTAssertTrue(f.handle(.focus(nil), now: 100))
        return f
    }

    func testKeysEditAndMoveAndUnusedKeysPassOn() {
        let f = focused()
        var changes: [String] = []
        f.onChange = { changes.append($0) }
        type(f, "ab cd")
        XCTAssertEqual(changes, ["a", "ab", "ab ", "ab c", "ab cd"])
        XCTAssertTrue(press(f, K.left, "", ctrl))
        XCTAssertEqual(f.model.caret, 3)
        XCTAssertTrue(press(f, K.end, "", shift))
        XCTAssertEqual(f.model.selectedText, "cd")
        XCTAssertTrue(press(f, K.backSpace))
        XCTAssertEqual(f.text, "ab ")
        XCTAssertTrue(press(f, K.home))
        XCTAssertTrue(press(f, K.delete))
        XCTAssertEqual(f.text, "b ")
        XCTAssertTrue(press(f, 0x7a, "\u{1A}", ctrl))        // Ctrl+Z
        XCTAssertEqual(f.text, "ab ")
        XCTAssertTrue(press(f, 0x5a, "\u{1A}", [.control, .shift]))   // Ctrl+Shift+Z: keysym Z
        XCTAssertEqual(f.text, "b ")
        XCTAssertTrue(press(f, 0x79, "\u{19}", ctrl))        // Ctrl+Y: nothing more to redo
        XCTAssertEqual(f.text, "b ")
        // Return, Escape, Tab, Up and Down are the container's; a dead key (no text) too.
        for k in [K.returnKey, K.escape, K.tab, K.up, K.down, 0xfe52] { XCTAssertFalse(press(f, k, k == K.returnKey ? "\r" : "")) }
        XCTAssertFalse(f.handle(.keyboard(KeyInput(keysym: 0x61, phase: .release, text: "a")), now: 1))
        // Return reaching a field used alone submits.
        var submitted: [Double] = []
        f.onSubmit = { submitted.append($0) }
        XCTAssertTrue(f.handle(.key(.activate), now: 7))
        XCTAssertEqual(submitted, [7])
    }

    func testClipboardAndPrimarySelection() {
        let f = focused("hello world")
        XCTAssertTrue(press(f, K.left, "", [.control, .shift]))
        XCTAssertEqual(f.model.selectedText, "world")
        var primary: String?
        f.pasteboard.requestText(from: .primary) { primary = $0 }
        XCTAssertEqual(primary, "world", "selecting offers the primary selection")
        XCTAssertTrue(press(f, 0x63, "\u{3}", ctrl))        // Ctrl+C
        XCTAssertTrue(press(f, 0x78, "\u{18}", ctrl))       // Ctrl+X
        XCTAssertEqual(f.text, "hello ")
        f.pasteboard.setText("one\ntwo", as: .clipboard)
        XCTAssertTrue(press(f, 0x76, "\u{16}", ctrl))       // Ctrl+V: newline → space
        XCTAssertEqual(f.text, "hello one two")
        // Middle click as the platform delivers it: an input-method commit.
        XCTAssertTrue(f.handle(.textInput(TextInputUpdate(commit: "!")), now: 2))
        XCTAssertEqual(f.text, "hello one two!")
    }

    /// A change is reported when the text changed, and only then: pasting the selected text over
    /// itself, an undo to the same text, or setting the same text changes nothing; typing into a
    /// long text and undoing it report each change.
    func testOnlyAChangedTextIsReportedAsAChange() {
        let f = focused("a text longer than fifteen bytes")
        var changes: [String] = []
        f.onChange = { changes.append($0) }
        XCTAssertTrue(press(f, 0x61, "\u{1}", ctrl))        // Ctrl+A
        XCTAssertTrue(press(f, 0x63, "\u{3}", ctrl))        // Ctrl+C
        XCTAssertTrue(press(f, 0x76, "\u{16}", ctrl))       // Ctrl+V: the same text over itself
        XCTAssertEqual(changes, [])
        f.text = "a text longer than fifteen bytes"
        XCTAssertEqual(changes, [])
        type(f, "!?")
        XCTAssertEqual(changes, ["a text longer than fifteen bytes!", "a text longer than fifteen bytes!?"])
        XCTAssertTrue(press(f, 0x7a, "\u{1A}", ctrl))       // Ctrl+Z: the typed group
        XCTAssertEqual(f.text, "a text longer than fifteen bytes")
        XCTAssertEqual(changes.last, "a text longer than fifteen bytes")
        f.text = ""
        type(f, "short")
        XCTAssertTrue(press(f, 0x7a, "\u{1A}", ctrl))
        XCTAssertEqual(f.text, "", "the typing group's start, saved apart from the text typed into")
        XCTAssertTrue(press(f, 0x7a, "\u{1A}", ctrl))
        XCTAssertEqual(f.text, "a text longer than fifteen bytes")
        XCTAssertEqual(changes.suffix(3), ["short", "", "a text longer than fifteen bytes"])
    }

    /// What a secure field draws is one bullet per character after every edit (its bullets are
    /// kept and changed in place).
    func testASecureFieldDrawsABulletPerCharacterAfterEveryEdit() {
        let f = focused(secure: true)
        XCTAssertEqual(f.shownText(), "")
        type(f, "pa55")
        XCTAssertEqual(f.shownText(), "••••")
        XCTAssertTrue(press(f, K.backSpace))
        XCTAssertEqual(f.shownText(), "•••")
        f.text = ""
        XCTAssertEqual(f.shownText(), "")
        f.text = "e\u{301}👍🏽"
        XCTAssertEqual(f.shownText(), "••")
        f.isSecure = false
        XCTAssertEqual(f.shownText(), "e\u{301}👍🏽")
    }

    func testSecureFieldShowsBulletsAndNeverCopies() {
        let f = focused("pa55", secure: true)
        XCTAssertEqual(f.displayText, "••••")
        XCTAssertTrue(press(f, 0x61, "\u{1}", ctrl))        // Ctrl+A
        XCTAssertTrue(press(f, 0x63, "\u{3}", ctrl))
        XCTAssertTrue(press(f, 0x78, "\u{18}", ctrl))
        var got: [String?] = []
        f.pasteboard.requestText(from: .clipboard) { got.append($0) }
        f.pasteboard.requestText(from: .primary) { got.append($0) }
        XCTAssertEqual(got, [nil, nil], "nothing offered from a password field")
        XCTAssertEqual(f.text, "pa55", "no cut either")
        let state = f.textInputState
        XCTAssertEqual(state?.purpose, .password)
        XCTAssertEqual(state?.hints, [.hiddenText, .sensitiveData])
        XCTAssertEqual(state?.surroundingText, "")
        XCTAssertEqual(f.accessibilityElement?.role, .passwordText)
        XCTAssertEqual(f.accessibilityElement?.text?.text, "••••")
    }

    func testTextInputStateFollowsFocusInBytes() {
        let f = TextField(text: "日本")
        XCTAssertNil(f.textInputState, "not focused")
        _ = f.handle(.focus(nil), now: 1)
        XCTAssertEqual(f.textInputState?.surroundingText, "日本")
        XCTAssertEqual(f.textInputState?.cursor, 6)
        XCTAssertEqual(f.textInputState?.purpose, .normal)
        f.isFocused = false
        XCTAssertNil(f.textInputState)
        XCTAssertEqual(f.cursorShape(at: Point(x: 5, y: 5)), .default, "outside its laid-out size 0 × 36")
        f.didLayout(size: Size(width: 200, height: 36))
        XCTAssertEqual(f.cursorShape(at: Point(x: 5, y: 5)), .text)
    }

    /// The caret's column is 9 pt (padding) plus the advance of the text before it; it is the text
    /// colour for the line's height; the selection is #99C1F1 where no glyph covers it.
    func testCaretAndSelectionPixels() throws {
        let f = focused("Hello")
        _ = f.handle(.keyboard(KeyInput(keysym: K.left, phase: .press)), now: 100)
        _ = f.handle(.keyboard(KeyInput(keysym: K.left, phase: .press)), now: 100)
        _ = f.handle(.keyboard(KeyInput(keysym: K.left, phase: .press)), now: 100)
        let img = render(f, size: Size(width: 200, height: 36))
        let font = try XCTUnwrap(TextStyle.body.font(scale: 1))
        let x = 9 + font.width(of: "He")
        let top = (36 - (font.ascent + font.descent)) / 2
        for y in top..<(top + font.ascent + font.descent) {
            XCTAssertEqual(img.pixel(x: x, y: y), 0xFF1E1E1E, "caret at x \(x), y \(y)")
        }
        XCTAssertEqual(img.pixel(x: 4, y: 18), 0xFFEBEBEB, "the box's fill left of the text")
        // Select all: the first row of the line box is above every glyph: selection colour from the
        // text's start to its end.
        _ = f.handle(.keyboard(KeyInput(keysym: 0x61, phase: .press, text: "\u{1}", modifiers: ctrl)), now: 100)
        let sel = render(f, size: Size(width: 200, height: 36))
        XCTAssertEqual(sel.pixel(x: 9, y: top), 0xFF99C1F1)
        XCTAssertEqual(sel.pixel(x: 9 + font.width(of: "Hello") - 1, y: top), 0xFF99C1F1)
        XCTAssertEqual(sel.pixel(x: 9 + font.width(of: "Hello") + 3, y: top), 0xFFEBEBEB)
    }

    /// Bullets: a secure field draws exactly what a field holding "•••" draws, not its text.
    func testSecureFieldDrawsBullets() {
        let secure = focused("abc", secure: true), bullets = focused("•••"), plain = focused("abc")
        let a = render(secure, size: Size(width: 160, height: 36)), b = render(bullets, size: Size(width: 160, height: 36))
        let c = render(plain, size: Size(width: 160, height: 36))
        var same = true, differs = false
        for y in 0..<36 { for x in 0..<160 {
            if a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { same = false }
            if a.pixel(x: x, y: y) != c.pixel(x: x, y: y) { differs = true }
        } }
        XCTAssertTrue(same)
        XCTAssertTrue(differs)
    }

    /// The caret blinks 0.5 s on, 0.5 s off after 0.5 s of rest, and stays on after 10 s.
    func testCaretBlinkTimes() {
        let f = TextField()
        var now = 50.0
        f.clock = { now }
        _ = f.handle(.focus(nil), now: 50)
        XCTAssertTrue(f.caretOn(at: 50.4))
        XCTAssertFalse(f.caretOn(at: 50.6))
        XCTAssertTrue(f.caretOn(at: 51.2))
        XCTAssertTrue(f.caretOn(at: 70))
        XCTAssertEqual(f.nextBlinkTime, 50.5)
        _ = render(f, size: Size(width: 100, height: 36))
        XCTAssertEqual(f.invalidation, .none)
        now = 50.6
        XCTAssertEqual(f.invalidation, .all, "the caret turned off")
        now = 61
        XCTAssertNil(f.nextBlinkTime)
    }

    /// Long text scrolls so the caret stays inside the box; Home scrolls back.
    func testScrollingKeepsTheCaretVisible() throws {
        let f = focused(String(repeating: "W", count: 60))
        let img = render(f, size: Size(width: 120, height: 36))
        XCTAssertGreaterThan(f.scrollPixels, 0)
        let font = try XCTUnwrap(TextStyle.body.font(scale: 1))
        let top = (36 - (font.ascent + font.descent)) / 2
        XCTAssertEqual(img.pixel(x: 120 - 9 - 1, y: top + 1), 0xFF1E1E1E, "the caret at the text area's right edge")
        _ = f.handle(.keyboard(KeyInput(keysym: K.home, phase: .press)), now: 100)
        _ = render(f, size: Size(width: 120, height: 36))
        XCTAssertEqual(f.scrollPixels, 0)
    }

    /// Double click selects the word, triple click everything (0.4 s apart at most).
    func testMultipleClicks() throws {
        let f = focused("alpha beta")
        _ = render(f, size: Size(width: 300, height: 36))
        let font = try XCTUnwrap(TextStyle.body.font(scale: 1))
        let x = Double(9 + font.width(of: "alpha b"))
        _ = f.handle(.press(Point(x: x, y: 18)), now: 1)
        _ = f.handle(.release(Point(x: x, y: 18)), now: 1.05)
        XCTAssertFalse(f.model.hasSelection)
        _ = f.handle(.press(Point(x: x, y: 18)), now: 1.2)
        XCTAssertEqual(f.model.selectedText, "beta")
        _ = f.handle(.press(Point(x: x, y: 18)), now: 1.4)
        XCTAssertEqual(f.model.selectedText, "alpha beta")
        _ = f.handle(.press(Point(x: 9, y: 18)), now: 3)
        XCTAssertEqual(f.model.caret, 0)
        _ = f.handle(.drag(Point(x: Double(9 + font.width(of: "alp")), y: 18)), now: 3.1)
        XCTAssertEqual(f.model.selectedText, "alp")
    }

    /// Right-to-left text sits at the right of the box; the caret at the logical end is at the
    /// text's left edge, at the logical start (Home) at its right edge (positions from shaping).
    func testRightToLeftTextAndItsCaret() throws {
        let f = focused("שלום")
        let font = try XCTUnwrap(TextStyle.body.font(scale: 1))
        let w = font.width(of: "שלום")
        let top = (36 - (font.ascent + font.descent)) / 2
        var img = render(f, size: Size(width: 200, height: 36))
        // The text area ends 9 pt from the right; one pixel stays free for the caret.
        XCTAssertEqual(img.pixel(x: 190 - w, y: top), 0xFF1E1E1E, "the caret after the last (leftmost) letter")
        _ = f.handle(.keyboard(KeyInput(keysym: K.home, phase: .press)), now: 100)
        img = render(f, size: Size(width: 200, height: 36))
        XCTAssertEqual(img.pixel(x: 190, y: top), 0xFF1E1E1E, "the caret before the first (rightmost) letter")
        XCTAssertEqual(img.pixel(x: 190 - w, y: top), 0xFFEBEBEB)
        XCTAssertEqual(font.caretLayout(of: "שלום").isRightToLeft, [true, true, true, true])
        XCTAssertEqual(font.caretLayout(of: "שלום").positions.first, w)
        XCTAssertEqual(font.caretLayout(of: "שלום").positions.last, 0)
    }

    /// A preedit is drawn at the caret, underlined; it is not part of the text.
    func testPreeditIsUnderlinedAndNotText() throws {
        let f = focused("ab")
        var preedits: [TextInputUpdate.Preedit?] = []
        f.onPreeditChange = { preedits.append($0) }
        _ = f.handle(.textInput(TextInputUpdate(preedit: .init(text: "xy", cursor: 2..<2))), now: 100)
        XCTAssertEqual(f.text, "ab")
        XCTAssertEqual(preedits, [.init(text: "xy", cursor: 2..<2)])
        let img = render(f, size: Size(width: 200, height: 36))
        let font = try XCTUnwrap(TextStyle.body.font(scale: 1))
        let top = (36 - (font.ascent + font.descent)) / 2
        let underline = top + font.ascent + max(1, font.descent / 2)
        let x0 = 9 + font.width(of: "ab"), x1 = 9 + font.width(of: "abxy")
        XCTAssertEqual(img.pixel(x: x0 + 1, y: underline), 0xFF1E1E1E)
        XCTAssertEqual(img.pixel(x: x1 - 2, y: underline), 0xFF1E1E1E)
        XCTAssertEqual(img.pixel(x: x1, y: top), 0xFF1E1E1E, "the preedit's own cursor after y")
        XCTAssertEqual(f.caretRectangle.minX, Double(x1))
    }
}

/// `Alert` with a text field: focus on presentation, Return chooses the default response with the
/// field's text, Tab moves to the buttons, the I-beam and the input method's state.
final class AlertTextFieldTests: XCTestCase {
    func testReturnInTheFieldAnswersWithItsText() {
        let alert = Alert(title: "Rename", responses: [Response("cancel", label: "Cancel"), Response("ok", label: "OK")],
                          defaultResponse: "ok", closeResponse: "cancel")
        let field = alert.addTextField(TextField(placeholder: "Name"))
        field.pasteboard = Pasteboard()
        var results: [AlertResult] = []
        alert.onResult = { r, _ in results.append(r) }
        alert.didLayout(size: Size(width: 270, height: alert.preferredContentSize(fittingWidth: 270)!.height))
        XCTAssertTrue(alert.handle(.focus(nil), now: 1))
        XCTAssertTrue(field.isFocused)
        for c in "new name" {
            XCTAssertTrue(alert.handle(.keyboard(KeyInput(keysym: UInt32(c.asciiValue!), phase: .press, text: String(c))), now: 2))
        }
        XCTAssertNotNil(alert.textInputState)
        // Space typed in the field is text, not activation; Return (unused by the field) activates.
        XCTAssertFalse(alert.handle(.keyboard(KeyInput(keysym: KeyInput.Keysym.returnKey, phase: .press, text: "\r")), now: 3))
        XCTAssertTrue(alert.handle(.key(.activate), now: 3))
        XCTAssertEqual(results, [AlertResult(response: "ok", texts: ["new name"])])
        XCTAssertEqual(alert.chosenResult, AlertResult(response: "ok", texts: ["new name"]))
        XCTAssertNil(alert.textInputState, "focus left the field")
    }

    func testLayoutTabOrderPointerAndAccessibility() {
        let alert = Alert(title: "Sign in", responses: [Response("cancel", label: "Cancel"), Response("ok", label: "OK")],
                          defaultResponse: "ok", closeResponse: "cancel")
        let user = alert.addTextField(TextField(placeholder: "User"))
        let pass = alert.addTextField(TextField(placeholder: "Password", isSecure: true))
        let plain = Alert(title: "Sign in", responses: alert.responses)
        // Each field 36 pt tall, 8 pt below the piece above it.
        XCTAssertEqual(alert.preferredContentSize(fittingWidth: 270)!.height, plain.preferredContentSize(fittingWidth: 270)!.height + 2 * 44)
        let size = Size(width: 270, height: alert.preferredContentSize(fittingWidth: 270)!.height)
        alert.didLayout(size: size)
        _ = alert.handle(.focus(nil), now: 1)
        XCTAssertTrue(user.isFocused)
        _ = alert.handle(.key(.tab), now: 1)
        XCTAssertTrue(pass.isFocused); XCTAssertFalse(user.isFocused)
        _ = alert.handle(.key(.tab), now: 1)
        XCTAssertFalse(pass.isFocused)
        XCTAssertEqual(alert.focusedResponse, 0)
        XCTAssertNil(alert.textInputState)
        _ = alert.handle(.key(.backTab), now: 1)
        XCTAssertTrue(pass.isFocused)
        XCTAssertEqual(alert.textInputState?.purpose, .password)
        // The user field: 20 pt inset, under the title.
        let title = Label("Sign in", style: .title, alignment: .center).height(fittingWidth: 230)
        let fieldY = 20 + title + 8
        XCTAssertEqual(alert.cursorShape(at: Point(x: 30, y: fieldY + 18)), .text)
        XCTAssertEqual(alert.cursorShape(at: Point(x: 5, y: fieldY + 18)), .default)
        _ = alert.handle(.press(Point(x: 30, y: fieldY + 18)), now: 2)
        _ = alert.handle(.release(Point(x: 30, y: fieldY + 18)), now: 2)
        XCTAssertTrue(user.isFocused)
        XCTAssertEqual(alert.textInputState?.cursorRectangle.minX, 20 + 9, "the caret's rectangle in the alert's points")
        let roles = alert.accessibilityElement!.children.map(\.role)
        XCTAssertEqual(roles, [.heading, .entry, .passwordText, .button, .button])
        XCTAssertEqual(alert.accessibilityElement!.children[1].frame.minY, fieldY)
    }
}
