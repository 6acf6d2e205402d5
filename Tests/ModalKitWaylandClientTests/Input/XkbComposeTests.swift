import XCTest
@testable import ModalKitWaylandClient

/// Dead keys and Compose through xkbcommon's compose table for the locale (the real table from
/// /usr/share/X11/locale, en_US.UTF-8/Compose): a sequence types only its result; a key that does
/// not continue a sequence cancels it and types nothing.
final class XkbComposeTests: XCTestCase {
    // Linux evdev key codes (input-event-codes.h) and keysyms (xkbcommon-keysyms.h).
    private let key6: UInt32 = 7, keyE: UInt32 = 18, keyQ: UInt32 = 16, keySpace: UInt32 = 57, keyApostrophe: UInt32 = 40
    private let keyLeftShift: UInt32 = 42
    private let symDeadCircumflex: UInt32 = 0xfe52, symDeadAcute: UInt32 = 0xfe51
    private let symEcircumflex: UInt32 = 0xea, symAsciiCircum: UInt32 = 0x5e
    private let shiftMask: UInt32 = 1

    /// A keyboard with the us "intl" layout (dead keys: Shift+6 is dead_circumflex, ' dead_acute).
    private func intlKeyboard(locale: String? = "en_US.UTF-8") throws -> XkbKeyboard {
        let keyboard = try XCTUnwrap(XkbKeyboard(composeLocale: locale))
        XCTAssertEqual(keyboard.loadKeymap(layout: "us", variant: "intl"), .replaced)
        return keyboard
    }

    /// Shift+6 on us-intl: returns the press event.
    private func deadCircumflex(_ keyboard: XkbKeyboard) -> KeyEvent {
        keyboard.updateModifiers(depressed: shiftMask, latched: 0, locked: 0, group: 0)
        let press = keyboard.event(code: key6, pressed: true, isRepeat: false)
        _ = keyboard.event(code: key6, pressed: false, isRepeat: false)
        keyboard.updateModifiers(depressed: 0, latched: 0, locked: 0, group: 0)
        return press
    }

    func testDeadCircumflexThenEComposesECircumflex() throws {
        let keyboard = try intlKeyboard()
        let dead = deadCircumflex(keyboard)
        XCTAssertEqual(dead.keysym, symDeadCircumflex)
        XCTAssertEqual(dead.utf8, "", "a dead key types nothing by itself")
        let e = keyboard.event(code: keyE, pressed: true, isRepeat: false)
        XCTAssertEqual(e.utf8, "ê")
        XCTAssertEqual(e.keysym, symEcircumflex)
        // The sequence is over: the next e is a plain e.
        XCTAssertEqual(keyboard.event(code: keyE, pressed: true, isRepeat: false).utf8, "e")
    }

    func testDeadKeyThenSpaceTypesTheAccentItself() throws {
        let keyboard = try intlKeyboard()
        _ = deadCircumflex(keyboard)
        let space = keyboard.event(code: keySpace, pressed: true, isRepeat: false)
        XCTAssertEqual(space.utf8, "^")
        XCTAssertEqual(space.keysym, symAsciiCircum)
    }

    func testDeadAcuteThenEComposesEAcute() throws {
        let keyboard = try intlKeyboard()
        XCTAssertEqual(keyboard.event(code: keyApostrophe, pressed: true, isRepeat: false).keysym, symDeadAcute)
        XCTAssertEqual(keyboard.event(code: keyE, pressed: true, isRepeat: false).utf8, "é")
    }

    func testAKeyThatEndsNoSequenceCancelsItAndTypesNothing() throws {
        let keyboard = try intlKeyboard()
        _ = deadCircumflex(keyboard)
        // en_US.UTF-8/Compose has no <dead_circumflex> <q>.
        XCTAssertEqual(keyboard.event(code: keyQ, pressed: true, isRepeat: false).utf8, "")
        XCTAssertEqual(keyboard.event(code: keyQ, pressed: true, isRepeat: false).utf8, "q", "compose state reset")
    }

    func testModifierPressesDoNotDisturbASequence() throws {
        let keyboard = try intlKeyboard()
        _ = deadCircumflex(keyboard)
        XCTAssertEqual(keyboard.event(code: keyLeftShift, pressed: true, isRepeat: false).utf8, "")
        XCTAssertEqual(keyboard.event(code: keyE, pressed: true, isRepeat: false).utf8, "ê")
    }

    func testWithoutComposeADeadKeyTypesNothingAndTheNextKeyItself() throws {
        let keyboard = try intlKeyboard(locale: nil)
        _ = deadCircumflex(keyboard)
        XCTAssertEqual(keyboard.event(code: keyE, pressed: true, isRepeat: false).utf8, "e")
    }

    func testLocaleIsTheFirstSetOfLCAllLCCTypeLang() {
        func locale(_ env: [String: String]) -> String { XkbKeyboard.composeLocale { env[$0] } }
        XCTAssertEqual(locale([:]), "C")
        XCTAssertEqual(locale(["LANG": "de_DE.UTF-8"]), "de_DE.UTF-8")
        XCTAssertEqual(locale(["LANG": "de_DE.UTF-8", "LC_CTYPE": "ja_JP.UTF-8"]), "ja_JP.UTF-8")
        XCTAssertEqual(locale(["LANG": "de_DE.UTF-8", "LC_CTYPE": "ja_JP.UTF-8", "LC_ALL": "fr_FR.UTF-8"]), "fr_FR.UTF-8")
        XCTAssertEqual(locale(["LC_ALL": "", "LANG": "pt_BR.UTF-8"]), "pt_BR.UTF-8", "an empty value counts as unset")
    }
}
