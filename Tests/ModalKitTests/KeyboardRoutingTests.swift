import ModalKit
import XCTest

/// Every key event reaches the focused content as `.keyboard` first; a press or repeat it does not
/// use goes on as its meaning (`.key`: Escape, activate, Tab, Shift-Tab, arrows as Tab/Shift-Tab
/// where the content lets arrows move focus), and an unused Escape dismisses. RecordingStyle,
/// 400 × 600, presented at rest at t = 1.
final class KeyboardRoutingTests: XCTestCase {
    final class Keys: PresentationContent {
        var invalidation: ContentInvalidation = .all
        var inputs: [ContentInput] = []
        /// The keysyms whose `.keyboard` events it uses.
        var uses: Set<UInt32> = []
        var arrows = false
        var arrowKeysMoveFocus: Bool { arrows }
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: .white)
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool {
            inputs.append(input)
            switch input {
            case let .keyboard(k): return uses.contains(k.keysym)
            case .key(.escape): return false
            default: return true
            }
        }
        /// The inputs after the presentation's focus(nil).
        var keyInputs: [ContentInput] {
            inputs.filter { if case .keyboard = $0 { return true }; if case .key = $0 { return true }; return false }
        }
    }

    typealias Sym = KeyInput.Keysym

    private func presented() -> (PresentationHost, Keys, Keys) {
        let root = Keys(), card = Keys()
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        host.present(card, now: 0)
        host.update(now: 1)
        return (host, root, card)
    }

    private func key(_ sym: UInt32, _ phase: KeyInput.Phase = .press, _ text: String = "",
                     _ modifiers: KeyInput.Modifiers = []) -> KeyInput {
        KeyInput(keysym: sym, phase: phase, text: text, modifiers: modifiers)
    }

    func testEveryPressRepeatAndReleaseReachesTheFocusedContentWithItsTextAndModifiers() {
        let (host, root, card) = presented()
        let a = key(0x41, .press, "A", [.shift])
        host.handle(.keyboard(a), now: 2)
        host.handle(.keyboard(key(0x41, .repeat, "A", [.shift])), now: 2.5)
        host.handle(.keyboard(key(0x41, .release, "", [.shift])), now: 2.6)
        XCTAssertEqual(card.keyInputs, [.keyboard(a), .keyboard(key(0x41, .repeat, "A", [.shift])),
                                        .keyboard(key(0x41, .release, "", [.shift]))],
                       "a key without a meaning: .keyboard only")
        XCTAssertEqual(root.keyInputs, [], "nothing to the content under the modal")
    }

    func testAnUnusedEscapeDismissesAndAUsedOneDoesNot() {
        let (host, _, card) = presented()
        card.uses = [Sym.escape]
        host.handle(.keyboard(key(Sym.escape, .press, "\u{1B}")), now: 2)
        XCTAssertEqual(card.keyInputs, [.keyboard(key(Sym.escape, .press, "\u{1B}"))], "used: no .key(.escape)")
        XCTAssertEqual(host.state, .presented, "the content used Escape (a text field's cancel): no dismissal")
        card.uses = []
        host.handle(.keyboard(key(Sym.escape, .release)), now: 2.1)
        XCTAssertEqual(host.state, .presented, "a release never dismisses")
        host.handle(.keyboard(key(Sym.escape)), now: 3)
        XCTAssertEqual(card.keyInputs.suffix(2), [.keyboard(key(Sym.escape)), .key(.escape)])
        XCTAssertEqual(host.state, .dismissing)
    }

    func testTabRepeatsIntoFocusMovementAndAHeldReturnActivatesOnce() {
        let (host, _, card) = presented()
        host.handle(.keyboard(key(Sym.tab, .press, "\t")), now: 2)
        host.handle(.keyboard(key(Sym.tab, .repeat, "\t")), now: 2.6)
        host.handle(.keyboard(key(Sym.isoLeftTab, .press, "", [.shift])), now: 2.7)
        host.handle(.keyboard(key(Sym.returnKey, .press, "\r")), now: 3)
        host.handle(.keyboard(key(Sym.returnKey, .repeat, "\r")), now: 3.6)
        host.handle(.keyboard(key(Sym.returnKey, .release)), now: 3.7)
        let meanings = card.keyInputs.compactMap { input -> PresentationKey? in
            if case let .key(k) = input { return k }
            return nil
        }
        XCTAssertEqual(meanings, [.tab, .tab, .backTab, .activate], "the repeat of Return activates nothing")
        XCTAssertEqual(card.keyInputs.count, 6 + 4, "every event also as .keyboard")
    }

    func testAContentThatTypesSpaceIsNotActivatedByIt() {
        let (host, _, card) = presented()
        card.uses = [Sym.space]
        host.handle(.keyboard(key(Sym.space, .press, " ")), now: 2)
        XCTAssertEqual(card.keyInputs, [.keyboard(key(Sym.space, .press, " "))])
        card.uses = []
        host.handle(.keyboard(key(Sym.space, .press, " ")), now: 3)
        XCTAssertEqual(card.keyInputs.last, .key(.activate), "unused: space activates")
    }

    func testArrowsMoveFocusWhereTheContentSaysSo() {
        let (host, _, card) = presented()
        for sym in [Sym.down, Sym.up, Sym.left, Sym.right] { host.handle(.keyboard(key(sym)), now: 2) }
        XCTAssertEqual(card.keyInputs.count, 4, "arrows mean nothing to a content that does not let them move focus")
        card.inputs = []
        card.arrows = true
        host.handle(.keyboard(key(Sym.down)), now: 3)
        host.handle(.keyboard(key(Sym.down, .repeat)), now: 3.5)
        host.handle(.keyboard(key(Sym.right)), now: 3.6)
        host.handle(.keyboard(key(Sym.up)), now: 3.7)
        host.handle(.keyboard(key(Sym.left)), now: 3.8)
        host.handle(.keyboard(key(Sym.left, .release)), now: 3.9)
        host.handle(.keyboard(key(Sym.down, .press, "", [.shift])), now: 4)
        host.handle(.keyboard(key(Sym.down, .press, "", [.numLock])), now: 4.1)
        let meanings = card.keyInputs.compactMap { input -> PresentationKey? in
            if case let .key(k) = input { return k }
            return nil
        }
        XCTAssertEqual(meanings, [.tab, .tab, .tab, .backTab, .backTab, .tab],
                       "Down/Right next, Up/Left previous, repeats too; none on a release or with Shift")
        card.inputs = []
        card.uses = [Sym.down]
        host.handle(.keyboard(key(Sym.down)), now: 5)
        XCTAssertEqual(card.keyInputs, [.keyboard(key(Sym.down))], "an arrow the content uses (scrolling) stays its own")
    }

    func testWithNothingPresentedThePresentingContentHasTheKeys() {
        let root = Keys()
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        host.handle(.keyboard(key(0x62, .press, "b")), now: 1)
        host.handle(.keyboard(key(Sym.returnKey, .press, "\r")), now: 1.1)
        XCTAssertEqual(root.keyInputs, [.keyboard(key(0x62, .press, "b")), .keyboard(key(Sym.returnKey, .press, "\r")),
                                        .key(.activate)])
    }

    func testOnlyTheTopLevelHasTheKeys() {
        let (host, _, one) = presented()
        let two = Keys()
        host.present(two, style: StackHostTests.receding(), now: 2)
        host.update(now: 3)
        one.inputs = []
        host.handle(.keyboard(key(0x63, .press, "c")), now: 4)
        XCTAssertEqual(two.keyInputs, [.keyboard(key(0x63, .press, "c"))])
        XCTAssertEqual(one.keyInputs, [])
    }

    func testTypedTextIsPrintableTextWithoutShortcutModifiers() {
        XCTAssertEqual(key(0x61, .press, "a").typedText, "a")
        XCTAssertEqual(key(0x61, .repeat, "a", [.capsLock, .numLock]).typedText, "a")
        XCTAssertEqual(key(0x41, .press, "A", [.shift]).typedText, "A")
        XCTAssertEqual(key(0xe9, .press, "é").typedText, "é")
        XCTAssertEqual(key(0x61, .release, "a").typedText, "", "a release types nothing")
        XCTAssertEqual(key(0x61, .press, "\u{01}", [.control]).typedText, "", "Ctrl+A is a shortcut")
        XCTAssertEqual(key(0x61, .press, "a", [.alt]).typedText, "")
        XCTAssertEqual(key(Sym.returnKey, .press, "\r").typedText, "", "control characters are no text")
        XCTAssertEqual(key(Sym.backSpace, .press, "\u{08}").typedText, "")
        XCTAssertEqual(key(Sym.delete, .press, "\u{7F}").typedText, "")
        XCTAssertEqual(key(Sym.space, .press, " ").typedText, " ")
    }

    func testKeysymMeanings() {
        XCTAssertEqual(key(Sym.escape).presentationKey, .escape)
        XCTAssertEqual(key(Sym.returnKey).presentationKey, .activate)
        XCTAssertEqual(key(Sym.keypadEnter).presentationKey, .activate)
        XCTAssertEqual(key(Sym.space).presentationKey, .activate)
        XCTAssertEqual(key(Sym.tab).presentationKey, .tab)
        XCTAssertEqual(key(Sym.isoLeftTab).presentationKey, .backTab)
        XCTAssertNil(key(Sym.down).presentationKey)
        XCTAssertNil(key(0x61).presentationKey)
    }
}
