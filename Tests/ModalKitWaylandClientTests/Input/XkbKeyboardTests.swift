import CModalKitWaylandClient
import Glibc
import XCTest
@testable import ModalKitWaylandClient

/// Every wl_keyboard.keymap replaces keymap and state; the fd is mapped private and read-only and
/// always closed; non-xkb formats are ignored (docs/design.md, rules from the field, 6).
final class XkbKeyboardTests: XCTestCase {
    // wl_keyboard.keymap_format values (wayland.xml).
    private let formatNoKeymap: UInt32 = 0
    private let formatXkbV1: UInt32 = 1
    // Linux evdev key codes (input-event-codes.h) and xkb keysyms (xkbcommon-keysyms.h).
    private let keyEsc: UInt32 = 1, keyTab: UInt32 = 15, keyY: UInt32 = 21, keyA: UInt32 = 30, keyLeftShift: UInt32 = 42
    private let symEscape: UInt32 = 0xff1b, symISOLeftTab: UInt32 = 0xfe20, symTab: UInt32 = 0xff09
    private let symy: UInt32 = 0x79, symz: UInt32 = 0x7a, syma: UInt32 = 0x61, symA: UInt32 = 0x41
    /// Shift is always the first of xkb's eight core modifiers.
    private let shiftMask: UInt32 = 1

    /// A keymap as xkb text, compiled from RMLVO names by xkeyboard-config.
    private func keymapText(layout: String) throws -> String {
        let builder = try XCTUnwrap(XkbKeyboard())
        XCTAssertEqual(builder.loadKeymap(layout: layout), .replaced, "xkeyboard-config lacks layout \(layout)")
        return try XCTUnwrap(builder.keymapText)
    }

    /// The keymap as a compositor sends it: a memfd holding the text and a terminating NUL.
    private func keymapFD(holding text: String) -> (fd: Int32, size: UInt32) {
        let fd = memfd_create("keymap-test", 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var bytes = Array(text.utf8)
        bytes.append(0)
        XCTAssertEqual(write(fd, bytes, bytes.count), bytes.count)
        return (fd, UInt32(bytes.count))
    }

    private func isClosed(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) == -1 && errno == EBADF }

    func testKeymapFromFDTranslatesKeys() throws {
        let keyboard = try XCTUnwrap(XkbKeyboard())
        let (fd, size) = keymapFD(holding: try keymapText(layout: "us"))
        XCTAssertEqual(keyboard.loadKeymap(format: formatXkbV1, fd: fd, size: size), .replaced)
        XCTAssertTrue(isClosed(fd))
        XCTAssertEqual(keyboard.event(code: keyEsc, pressed: true, isRepeat: false).keysym, symEscape)
        let a = keyboard.event(code: keyA, pressed: true, isRepeat: false)
        XCTAssertEqual(a.keysym, syma)
        XCTAssertEqual(a.utf8, "a")
        XCTAssertEqual(a.code, keyA)
        XCTAssertEqual(keyboard.event(code: keyA, pressed: false, isRepeat: false).utf8, "", "no text on release")
    }

    func testEveryKeymapEventReplacesTheKeymap() throws {
        let us = try keymapText(layout: "us"), de = try keymapText(layout: "de")
        let keyboard = try XCTUnwrap(XkbKeyboard())
        for round in 0..<12 {
            let text = round.isMultiple(of: 2) ? us : de
            let (fd, size) = keymapFD(holding: text)
            XCTAssertEqual(keyboard.loadKeymap(format: formatXkbV1, fd: fd, size: size), .replaced)
            XCTAssertTrue(isClosed(fd))
            // us: KEY_Y is 'y'; de (QWERTZ): KEY_Y is 'z'.
            XCTAssertEqual(keyboard.event(code: keyY, pressed: true, isRepeat: false).keysym,
                           round.isMultiple(of: 2) ? symy : symz, "round \(round)")
            XCTAssertEqual(keyboard.event(code: keyEsc, pressed: true, isRepeat: false).keysym, symEscape)
        }
    }

    func testNewKeymapStartsWithAFreshState() throws {
        let keyboard = try XCTUnwrap(XkbKeyboard())
        XCTAssertEqual(keyboard.loadKeymap(layout: "us"), .replaced)
        keyboard.updateModifiers(depressed: shiftMask, latched: 0, locked: 0, group: 0)
        XCTAssertEqual(keyboard.event(code: keyA, pressed: true, isRepeat: false).keysym, symA)
        XCTAssertEqual(keyboard.modifiers, [.shift])
        let (fd, size) = keymapFD(holding: try keymapText(layout: "us"))
        XCTAssertEqual(keyboard.loadKeymap(format: formatXkbV1, fd: fd, size: size), .replaced)
        XCTAssertEqual(keyboard.event(code: keyA, pressed: true, isRepeat: false).keysym, syma)
        XCTAssertEqual(keyboard.modifiers, [])
    }

    func testShiftTabIsISOLeftTab() throws {
        let keyboard = try XCTUnwrap(XkbKeyboard())
        keyboard.loadKeymap(layout: "us")
        XCTAssertEqual(keyboard.event(code: keyTab, pressed: true, isRepeat: false).keysym, symTab)
        keyboard.updateModifiers(depressed: shiftMask, latched: 0, locked: 0, group: 0)
        let event = keyboard.event(code: keyTab, pressed: true, isRepeat: false)
        XCTAssertEqual(event.keysym, symISOLeftTab)
        XCTAssertEqual(event.modifiers, [.shift])
    }

    func testOtherFormatsAreIgnoredAndTheFDClosed() throws {
        let keyboard = try XCTUnwrap(XkbKeyboard())
        keyboard.loadKeymap(layout: "us")
        let (fd, size) = keymapFD(holding: "not a keymap")
        XCTAssertEqual(keyboard.loadKeymap(format: formatNoKeymap, fd: fd, size: size), .ignoredFormat(0))
        XCTAssertTrue(isClosed(fd))
        XCTAssertEqual(keyboard.event(code: keyEsc, pressed: true, isRepeat: false).keysym, symEscape,
                       "the previous keymap still applies")
        let (fd2, size2) = keymapFD(holding: "x")
        XCTAssertEqual(keyboard.loadKeymap(format: 7, fd: fd2, size: size2), .ignoredFormat(7))
        XCTAssertTrue(isClosed(fd2))
    }

    func testAnInvalidKeymapDropsTheOldOneWithoutCrashing() throws {
        let keyboard = try XCTUnwrap(XkbKeyboard())
        keyboard.loadKeymap(layout: "us")
        let (fd, size) = keymapFD(holding: "xkb_keymap { this is not xkb }")
        guard case .failed = keyboard.loadKeymap(format: formatXkbV1, fd: fd, size: size) else {
            return XCTFail("garbage compiled")
        }
        XCTAssertTrue(isClosed(fd))
        let event = keyboard.event(code: keyEsc, pressed: true, isRepeat: false)
        XCTAssertEqual(event.keysym, 0, "no keymap: NoSymbol, not a stale translation")
        XCTAssertFalse(keyboard.keyRepeats(code: keyA))
        // A valid keymap afterwards works again.
        let (fd2, size2) = keymapFD(holding: try keymapText(layout: "us"))
        XCTAssertEqual(keyboard.loadKeymap(format: formatXkbV1, fd: fd2, size: size2), .replaced)
        XCTAssertEqual(keyboard.event(code: keyEsc, pressed: true, isRepeat: false).keysym, symEscape)
    }

    func testUnmappableFDFailsCleanly() throws {
        let keyboard = try XCTUnwrap(XkbKeyboard())
        let fd = memfd_create("empty", 0)
        XCTAssertEqual(keyboard.loadKeymap(format: formatXkbV1, fd: fd, size: 0), .failed("empty keymap"))
        XCTAssertTrue(isClosed(fd))
        XCTAssertEqual(keyboard.loadKeymap(format: formatXkbV1, fd: -1, size: 100),
                       .failed("mmap: Bad file descriptor"))
    }

    func testModifierKeysDoNotRepeat() throws {
        let keyboard = try XCTUnwrap(XkbKeyboard())
        keyboard.loadKeymap(layout: "us")
        XCTAssertTrue(keyboard.keyRepeats(code: keyA))
        XCTAssertFalse(keyboard.keyRepeats(code: keyLeftShift))
    }

    /// A stored keymap (what `wl_keyboard.keymap` does now) is text until first used: the fd is
    /// closed at once, the first key, modifier or repeat query compiles it, and it then translates
    /// as one compiled at once does (us: KEY_Y is 'y'; Shift+A is 'A').
    func testAStoredKeymapCompilesAtItsFirstUse() throws {
        let keyboard = try XCTUnwrap(XkbKeyboard())
        let (fd, size) = keymapFD(holding: try keymapText(layout: "us"))
        XCTAssertEqual(keyboard.storeKeymap(format: formatXkbV1, fd: fd, size: size), .replaced)
        XCTAssertTrue(isClosed(fd))
        XCTAssertTrue(keyboard.hasPendingKeymap)
        XCTAssertNil(keyboard.keymap, "nothing compiled before a key needs it")
        keyboard.updateModifiers(depressed: shiftMask, latched: 0, locked: 0, group: 0)
        XCTAssertFalse(keyboard.hasPendingKeymap)
        XCTAssertNotNil(keyboard.keymap)
        XCTAssertEqual(keyboard.event(code: keyA, pressed: true, isRepeat: false).keysym, symA)
        XCTAssertEqual(keyboard.event(code: keyA, pressed: true, isRepeat: false).utf8, "A")
        XCTAssertNil(keyboard.compilePendingKeymap(), "compiled once")

        let (fd2, size2) = keymapFD(holding: try keymapText(layout: "de"))
        keyboard.storeKeymap(format: formatXkbV1, fd: fd2, size: size2)
        XCTAssertNil(keyboard.keymap, "the old keymap goes with the new event")
        XCTAssertEqual(keyboard.event(code: keyY, pressed: true, isRepeat: false).keysym, symz, "de: KEY_Y is 'z'")
        XCTAssertTrue(keyboard.keyRepeats(code: keyA))
    }

    /// Garbage stored is reported when compiled (once), and keys read as NoSymbol; another
    /// format keeps the stored text.
    func testAStoredKeymapThatDoesNotCompileFailsAtItsFirstUse() throws {
        let keyboard = try XCTUnwrap(XkbKeyboard())
        let (fd, size) = keymapFD(holding: "xkb_keymap { this is not xkb }")
        XCTAssertEqual(keyboard.storeKeymap(format: formatXkbV1, fd: fd, size: size), .replaced)
        let (fd2, size2) = keymapFD(holding: "ignored")
        XCTAssertEqual(keyboard.storeKeymap(format: formatNoKeymap, fd: fd2, size: size2), .ignoredFormat(0))
        XCTAssertTrue(isClosed(fd2))
        XCTAssertTrue(keyboard.hasPendingKeymap)
        guard case .failed = keyboard.compilePendingKeymap() else { return XCTFail("garbage compiled") }
        XCTAssertNil(keyboard.compilePendingKeymap())
        XCTAssertEqual(keyboard.event(code: keyEsc, pressed: true, isRepeat: false).keysym, 0)
    }
}
