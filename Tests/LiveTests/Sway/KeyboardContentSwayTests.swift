// The whole keyboard for content, live under headless sway: keys typed through wayvnc + vncdo
// reach the presented card with the text xkb gives them (the demo card takes printable keys as
// typing: `typed "TEXT" LEVEL` lines of --log-events), arrows move its focus between its buttons
// (the content lets them: `arrowKeysMoveFocus`), and the keys it does not use keep their meaning
// (Return activates the focused button, Escape dismisses).
import Foundation
import ModalKitTestHarness
import XCTest

final class KeyboardContentSwayTests: CompositorTestCase {
    func testTypedTextAndArrowFocusReachTheCardAndEscapeStillDismisses() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo(["--style", "inset-centered"], in: sway)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }

        // Text, a capital (wayvnc presses Shift for keysym I: xkb gives "I") and space: typing, not activation.
        mark = demo.mark()
        try vnc.send(["key", "h", "key", "I", "key", "space", "key", "3"])
        let typed = { demo.events("typed", since: mark) }
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) { typed().count >= 4 }
        XCTAssertEqual(typed(), ["typed \"h\" 1", "typed \"I\" 1", "typed \" \" 1", "typed \"3\" 1"])
        XCTAssertEqual(demo.events("close", since: mark), [], "space typed on the card activates nothing")
        XCTAssertEqual(demo.events("presenting", since: mark), [])

        // Arrows: focus starts on the card itself; Down → Present another, Down → Close,
        // Up → Present another, Right → Close; Return activates Close.
        mark = demo.mark()
        try vnc.send(["key", "down", "key", "down", "key", "up", "key", "right", "key", "enter"])
        expectEvent(demo, "close", since: mark, "Return on the button the arrows focused")
        expectEvent(demo, "dismissed", since: mark)
        XCTAssertEqual(demo.events("presenting", since: mark), [], "Present another was not the focused one")

        // Present again: Down → Present another, Return presents level 2; Escape dismisses it.
        mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        mark = demo.mark()
        try vnc.send(["key", "down", "key", "enter"])
        guard expectEvent(demo, "presented", since: mark, "level 2 from the arrow-focused Present another") != nil else { return }
        XCTAssertEqual(demo.events("presenting", since: mark), ["presenting 2"])
        mark = demo.mark()
        try vnc.send(["key", "x", "key", "esc"])
        expectEvent(demo, "dismissed", since: mark, "Escape, unused by the card, dismisses level 2")
        XCTAssertEqual(demo.events("typed", since: mark), ["typed \"x\" 2"], "the top level has the keys")
        XCTAssertEqual(demo.events("dismissed", since: mark), ["dismissed 2"])
    }
}
