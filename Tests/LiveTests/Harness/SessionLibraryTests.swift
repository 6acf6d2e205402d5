// ModalKitSession's parts beyond one compositor and one VNC seat, under headless sway: a second
// seat with its own virtual pointer and keyboard, the clipboard through wl-clipboard, and fcitx5
// as the session's input method committing into a text-input-v3 client (foot).
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class SessionLibraryTests: CompositorTestCase {
    /// `seat seat1 fallback false` plus a wayvnc with `--seat=seat1`: each seat gets exactly its
    /// own wayvnc's pointer and keyboard, a click through seat1 reaches modal-demo like one through
    /// seat0, and stopping seat1's wayvnc empties seat1 only.
    func testASecondSeatHasItsOwnPointerAndKeyboardAndReachesTheApp() throws {
        try requireProgram("sway", "swaymsg", "grim", "wayvnc")
        let sway = try HeadlessSway(seats: ["seat1"])
        addTeardownBlock { sway.stop() }
        XCTAssertEqual(Set(sway.seatNames()), ["seat0", "seat1"])
        XCTAssertEqual(sway.seatCapabilities("seat1"), 0, "no device joins seat1 by itself")
        let first = try VNCInput(sway: sway)
        addTeardownBlock { first.stop() }
        XCTAssertEqual(sway.seatCapabilities("seat0") & 3, 3)
        XCTAssertEqual(sway.seatCapabilities("seat1"), 0, "seat0's wayvnc stays on seat0")
        let second = try VNCInput(sway: sway, seat: "seat1")
        addTeardownBlock { second.stop() }
        XCTAssertEqual(second.seat, "seat1")
        XCTAssertEqual(sway.seatCapabilities("seat1") & 3, 3)

        let (demo, window) = try launchDemo([], in: sway)
        let mark = demo.mark()
        try second.click(x: Int(window.rect.midX), y: Int(window.rect.midY))
        expectEvent(demo, "presenting", since: mark, "a click through seat1 on Present")

        second.stop()
        XCTAssertEqual(sway.seatCapabilities("seat1") & 3, 0, "seat1's devices left with its wayvnc")
        XCTAssertEqual(sway.seatCapabilities("seat0") & 3, 3, "seat0 keeps its own")
    }

    /// wl-copy offers text (any UTF-8) as the clipboard and, separately, as the primary selection;
    /// wl-paste reads each back as it was; once our wl-copy is stopped the selection is gone.
    func testTheClipboardAndThePrimarySelectionRoundTripThroughWlClipboard() throws {
        try requireProgram("sway", "swaymsg", "grim", "wl-copy", "wl-paste")
        let sway = try startSway()
        let clipboard = SessionClipboard(session: sway, user: sway.user)
        addTeardownBlock { clipboard.stop() }
        XCTAssertNil(try clipboard.paste(), "an empty clipboard at the start")
        let text = "Grüße – ✓ 你好\nsecond line"
        try clipboard.copy(text)
        XCTAssertEqual(try clipboard.paste(), text)
        XCTAssertNil(try clipboard.paste(primary: true), "the primary selection is another one")
        try clipboard.copy("-primary-", primary: true)
        XCTAssertEqual(try clipboard.paste(primary: true), "-primary-")
        XCTAssertEqual(try clipboard.paste(), text, "the clipboard stays")
        try clipboard.copy("replaced")
        XCTAssertEqual(try clipboard.paste(), "replaced")
        XCTAssertTrue(clipboard.isServing())
        clipboard.stop()
        XCTAssertFalse(clipboard.isServing())
        XCTAssertNil(try clipboard.paste(), "no selection once its only source ended")
    }

    /// fcitx5 as the session's input method (pinyin active by default): keys from the VNC seat go
    /// to fcitx5's keyboard grab while foot (a text-input-v3 client) is focused; `n i h a o`, space
    /// (the first candidate) and Return commit 你好, which reaches the program in foot.
    func testFcitx5CommitsPinyinIntoATextInputClient() throws {
        try requireProgram("sway", "swaymsg", "grim", "wayvnc", "fcitx5", "fcitx5-remote", "foot")
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let im = try SessionInputMethod(in: sway, inputMethod: "pinyin")
        addTeardownBlock { im.stop() }
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-im-test")
        addTeardownBlock { removeTree(dir) }
        let out = dir + "/typed"
        let foot = try startClient(["foot", "-e", "sh", "-c", "cat > '\(out)'"], in: sway)
        _ = try sway.waitForWindow(pid: foot.pid, timeout: eventTimeout)
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.1) { (try? im.state()) == 2 },
                      "fcitx5 active for foot's text field: state \(String(describing: try? im.state()))")
        XCTAssertEqual(try im.currentInputMethod(), "pinyin")
        try vnc.send(["key", "n", "key", "i", "key", "h", "key", "a", "key", "o"])
        // The dictionary loads after start-up: give the preedit time to have candidates.
        usleep(500_000)
        try vnc.key("space")
        try vnc.key("enter")
        let typed = waitUntil(timeout: eventTimeout, interval: 0.1) {
            (try? String(contentsOfFile: out, encoding: .utf8)) == "你好\n"
        }
        XCTAssertTrue(typed, "foot's program read: \(String(describing: try? String(contentsOfFile: out, encoding: .utf8)))\n\(im.process.diagnostics(maxLines: 20))")
    }
}
