@testable import ModalKitDemo
import Glibc
import XCTest

/// A prompter that answers from a script and records what it was asked.
private final class ScriptedPrompter: PinentryPrompter {
    var pins: [(PinentryOutcome, String)] = []
    var confirmations: [PinentryOutcome] = []
    var asked: [(entry: PinentryEntry, error: String?, settings: PinentrySettings)] = []
    var confirmed: [(oneButton: Bool, error: String?, settings: PinentrySettings)] = []

    func getPin(_ settings: PinentrySettings, entry: PinentryEntry, error: String?, into secret: PinentrySecret) -> PinentryOutcome {
        asked.append((entry, error, settings))
        let (outcome, text) = pins.isEmpty ? (.cancelled, "") : pins.removeFirst()
        if outcome == .ok { secret.set(text) }
        return outcome
    }

    func confirm(_ settings: PinentrySettings, error: String?, oneButton: Bool) -> PinentryOutcome {
        confirmed.append((oneButton, error, settings))
        return confirmations.isEmpty ? .cancelled : confirmations.removeFirst()
    }
}

/// The pinentry side of Assuan as GnuPG's pinentry 1.2.1 answers (transcripts of
/// `/usr/bin/pinentry` driven by the same lines), with a scripted prompter.
final class PinentryTests: XCTestCase {
    private var prompter = ScriptedPrompter()
    private var output: [UInt8] = []
    private lazy var engine = AssuanPinentry(prompter: prompter, flavor: "modalkit", version: "9.8.7", processID: 4242) { [unowned self] bytes in
        output.append(contentsOf: bytes)
        return true
    }

    /// Answers `lines` (each without LF) and returns the response lines written.
    private func converse(_ lines: [String]) -> [String] {
        output = []
        for line in lines where engine.handle(line: Array(line.utf8)) != .more { break }
        var text = String(decoding: output, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func testTheGreetingAndByeAreThoseOfPinentry() {
        XCTAssertTrue(engine.greet())
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "OK Pleased to meet you\n")
        XCTAssertEqual(engine.handle(line: Array("BYE".utf8)), .bye)
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "OK Pleased to meet you\nOK closing connection\n")
    }

    func testSettingsAreAnsweredOKAndKeptPercentDecoded() {
        XCTAssertEqual(converse(["SETTITLE Unlock", "SETDESC Key%0A“alice”%25 %zz %4", "SETPROMPT Passphrase:",
                                 "SETOK _Unlock", "SETCANCEL Can_cel", "SETNOTOK _No", "SETREPEAT Repeat:",
                                 "SETREPEATERROR Wrong", "SETERROR Bad passphrase", "SETTIMEOUT 30", "setkeyinfo n/ABC",
                                 "SETQUALITYBAR", "NOP", "CLEARPASSPHRASE x"]),
                       Array(repeating: "OK", count: 14))
        let s = engine.settings
        XCTAssertEqual(s.title, "Unlock")
        XCTAssertEqual(s.description, "Key\n“alice”% %zz %4")
        XCTAssertEqual(s.prompt, "Passphrase:")
        XCTAssertEqual([s.shownOKLabel, s.shownCancelLabel, s.shownNotOKLabel], ["Unlock", "Cancel", "No"])
        XCTAssertEqual(s.repeatPrompt, "Repeat:")
        XCTAssertEqual(s.repeatError, "Wrong")
        XCTAssertEqual(s.error, "Bad passphrase")
        XCTAssertEqual(s.timeout, 30)
        XCTAssertEqual(converse(["RESET"]), ["OK"])
        XCTAssertEqual(engine.settings, PinentrySettings())
    }

    func testCommentsAndEmptyLinesGetNoResponse() {
        XCTAssertEqual(converse(["# a comment", "", "\r", "NOP\r"]), ["OK"])
    }

    func testUnknownCommandsAndUnimplementedOnesAreAssuanErrors() {
        XCTAssertEqual(converse(["FOO", "CANCEL", "END", "AUTH"]),
                       ["ERR 536871187 Unknown IPC command <User defined source 1>"]
                       + Array(repeating: "ERR 536870981 Not implemented <User defined source 1>", count: 3))
    }

    func testOptionsPinentryKnowsAreAcceptedOthersRefused() {
        XCTAssertEqual(converse(["OPTION ttyname=/dev/pts/3", "OPTION grab", "OPTION default-ok=_Fine",
                                 "OPTION --lc-ctype C.UTF-8", "OPTION allow-external-password-cache", "OPTION foo",
                                 "OPTION constraints-enforce"]),
                       ["OK", "OK", "OK", "OK", "OK", "ERR 83886254 Unknown option <Pinentry>", "OK"])
        XCTAssertEqual(engine.settings.options["ttyname"], "/dev/pts/3")
        XCTAssertEqual(engine.settings.options["lc-ctype"], "C.UTF-8")
        XCTAssertEqual(engine.settings.options["grab"], "")
        XCTAssertEqual(engine.settings.shownOKLabel, "Fine")   // default-ok is the OK label without SETOK
    }

    func testGetInfoAnswersFlavorVersionAndPid() {
        XCTAssertEqual(converse(["GETINFO flavor", "GETINFO version", "GETINFO pid", "GETINFO ttyinfo", "GETINFO foo", "GETINFO"]),
                       ["D modalkit", "OK", "D 9.8.7", "OK", "D 4242", "OK", "D - - - - 0/0 -", "OK",
                        "ERR 83886360 IPC parameter error <Pinentry>", "ERR 83886360 IPC parameter error <Pinentry>"])
    }

    func testHelpListsPinentrysCommands() {
        let lines = converse(["HELP"])
        XCTAssertEqual(lines.count, 29)
        XCTAssertEqual(lines.first, "# NOP")
        XCTAssertEqual(lines.dropLast().last, "# CLEARPASSPHRASE")
        XCTAssertEqual(lines.last, "OK")
    }

    func testGetPinSendsThePassphraseEscapedThenOK() {
        prompter.pins = [(.ok, "50% off\r\nnow é")]
        XCTAssertEqual(converse(["SETPROMPT PIN:", "GETPIN"]), ["OK", "D 50%25 off%0D%0Anow é", "OK"])
        XCTAssertEqual(prompter.asked.map(\.entry), [.passphrase])
        XCTAssertEqual(prompter.asked[0].settings.prompt, "PIN:")
    }

    func testAnEmptyPassphraseIsJustOK() {
        prompter.pins = [(.ok, "")]
        XCTAssertEqual(converse(["GETPIN"]), ["OK"])
    }

    func testGetPinCancelledAndTimedOutAreTheirErrors() {
        prompter.pins = [(.cancelled, ""), (.timedOut, "")]
        XCTAssertEqual(converse(["GETPIN", "GETPIN"]),
                       ["ERR 83886179 Operation cancelled <Pinentry>", "S ERROR modalkit.? 83886142 ", "ERR 83886142 Timeout <Pinentry>"])
        // pinentry-curses 1.2.1 with SETTIMEOUT 1 answers all three prompts so (a message too).
        prompter.confirmations = [.timedOut, .timedOut]
        XCTAssertEqual(converse(["CONFIRM", "MESSAGE"]),
                       ["S ERROR modalkit.? 83886142 ", "ERR 83886142 Timeout <Pinentry>",
                        "S ERROR modalkit.? 83886142 ", "ERR 83886142 Timeout <Pinentry>"])
    }

    func testSetErrorIsShownWithTheNextPromptOnly() {
        prompter.pins = [(.ok, "a"), (.ok, "b")]
        prompter.confirmations = [.ok]
        XCTAssertEqual(converse(["SETERROR Bad passphrase (try 2 of 3)", "GETPIN", "GETPIN", "SETERROR x", "CONFIRM"]),
                       ["OK", "D a", "OK", "D b", "OK", "OK", "OK"])
        XCTAssertEqual(prompter.asked.map(\.error), ["Bad passphrase (try 2 of 3)", nil])
        XCTAssertEqual(prompter.confirmed.map(\.error), ["x"])
    }

    func testSetRepeatAsksTwiceAndSaysPinRepeated() {
        prompter.pins = [(.ok, "hunter2"), (.ok, "hunter2")]
        XCTAssertEqual(converse(["SETREPEAT Repeat:", "GETPIN"]), ["OK", "S PIN_REPEATED", "D hunter2", "OK"])
        XCTAssertEqual(prompter.asked.map(\.entry), [.passphrase, .repetition])
    }

    func testAMismatchIsRefusedWithTheRepeatErrorAndAskedAgain() {
        prompter.pins = [(.ok, "hunter2"), (.ok, "hunter3"), (.ok, "right"), (.ok, "right")]
        XCTAssertEqual(converse(["SETREPEAT Repeat:", "SETREPEATERROR Does not match", "GETPIN"]),
                       ["OK", "OK", "S PIN_REPEATED", "D right", "OK"])
        XCTAssertEqual(prompter.asked.map(\.entry), [.passphrase, .repetition, .passphrase, .repetition])
        XCTAssertEqual(prompter.asked.map(\.error), [nil, nil, "Does not match", nil])
    }

    func testCancellingTheRepetitionCancels() {
        prompter.pins = [(.ok, "hunter2"), (.cancelled, "")]
        XCTAssertEqual(converse(["SETREPEAT", "GETPIN"]), ["OK", "ERR 83886179 Operation cancelled <Pinentry>"])
    }

    func testConfirmAndMessage() {
        prompter.confirmations = [.ok, .notOK, .cancelled, .ok, .ok]
        XCTAssertEqual(converse(["CONFIRM", "CONFIRM", "CONFIRM", "CONFIRM --one-button", "MESSAGE"]),
                       ["OK", "ERR 83886194 Not confirmed <Pinentry>", "ERR 83886179 Operation cancelled <Pinentry>", "OK", "OK"])
        XCTAssertEqual(prompter.confirmed.map(\.oneButton), [false, false, false, true, true])
    }

    /// A message closed without its OK (Escape) is still OK, as pinentry's cmd_confirm answers a
    /// one-button prompt; a question's Escape is Operation cancelled.
    func testAMessageClosedIsOK() {
        prompter.confirmations = [.cancelled, .cancelled, .cancelled]
        XCTAssertEqual(converse(["MESSAGE", "CONFIRM --one-button", "CONFIRM"]),
                       ["OK", "OK", "ERR 83886179 Operation cancelled <Pinentry>"])
    }

    /// A prompt that cannot be shown (no compositor) is answered with an error, GPG_ERR_NO_PIN_ENTRY
    /// from the Pinentry source (5 << 24 | 85), and the conversation goes on.
    func testAPromptThatCannotBeShownIsNoPinentry() {
        prompter.pins = [(.failed, "")]
        prompter.confirmations = [.failed, .failed]
        let failed = ["S ERROR modalkit.? 83886165 ", "ERR 83886165 No pinentry <Pinentry>"]
        XCTAssertEqual(converse(["GETPIN", "CONFIRM", "MESSAGE", "GETINFO flavor"]),
                       failed + failed + failed + ["D modalkit", "OK"])
        XCTAssertEqual(AssuanPinentry.Failure.timeout.code, 5 << 24 | 62, "GPG_ERR_TIMEOUT from GPG_ERR_SOURCE_PINENTRY")
        XCTAssertEqual(AssuanPinentry.Failure.noPinentry.code, 5 << 24 | 85)
    }

    /// What each command shows: the settings as an ask prompt, SETTIMEOUT as its timeout (stopped
    /// by typing, pinentry's rule), SETNOTOK as CONFIRM's third button.
    func testThePromptsShown() {
        var settings = PinentrySettings()
        var pin = settings.askPrompt(entry: .passphrase, error: nil)
        XCTAssertEqual(pin.kind, .password)
        XCTAssertEqual(pin.shownTitle, "Passphrase")
        XCTAssertEqual(pin.fieldLabel, "Passphrase:")
        XCTAssertNil(pin.timeout)
        settings.title = "Unlock"
        settings.description = "Key of alice"
        settings.prompt = "_PIN:"
        settings.repeatPrompt = "Again:"
        settings.okLabel = "_Unlock"
        settings.options["default-cancel"] = "_Cancel"
        settings.notOKLabel = "_No"
        settings.timeout = 30
        pin = settings.askPrompt(entry: .passphrase, error: "Bad passphrase")
        XCTAssertEqual([pin.title, pin.text, pin.errorText, pin.fieldLabel, pin.okLabel, pin.cancelLabel],
                       ["Unlock", "Key of alice", "Bad passphrase", "PIN:", "Unlock", "Cancel"])
        XCTAssertEqual(pin.timeout, 30)
        XCTAssertTrue(pin.timeoutStopsAtInput)
        XCTAssertNil(pin.notOKLabel)
        XCTAssertEqual(settings.askPrompt(entry: .repetition, error: nil).fieldLabel, "Again:")
        let confirm = settings.askPrompt(error: nil)
        XCTAssertEqual(confirm.kind, .question)
        XCTAssertEqual(confirm.notOKLabel, "No")
        XCTAssertEqual(AskContent(prompt: confirm).alert.responses.map(\.label), ["Cancel", "No", "Unlock"])
        let message = settings.askPrompt(oneButton: true, error: nil)
        XCTAssertEqual(message.kind, .info)
        XCTAssertNil(message.notOKLabel)
        XCTAssertEqual(PinentrySettings().askPrompt(oneButton: true, error: nil).shownTitle, "Message")
        XCTAssertEqual(PinentrySettings().askPrompt(error: nil).shownTitle, "Confirm")
    }

    func testTheSecretHoldsThePassphraseUntilTheDataLineIsWritten() {
        prompter.pins = [(.ok, "correct horse")]
        var held = false, zeroAfterOK = false
        var e: AssuanPinentry!
        e = AssuanPinentry(prompter: prompter) { bytes in
            let block = e.secret.blockForTesting
            if bytes.starts(with: Array("D ".utf8)) { held = block.starts(with: Array("correct horse".utf8)) }
            if bytes.elementsEqual(Array("OK\n".utf8)) { zeroAfterOK = block.allSatisfy { $0 == 0 } }
            return true
        }
        _ = e.handle(line: Array("GETPIN".utf8))
        XCTAssertTrue(held)
        XCTAssertTrue(zeroAfterOK)
        XCTAssertTrue(e.secret.blockForTesting.allSatisfy { $0 == 0 })
    }

    func testALongPassphraseIsSplitIntoDataLinesOfAtMost1000Bytes() {
        let pin = String(repeating: "a", count: 997) + "%" + String(repeating: "b", count: 1500)
        prompter.pins = [(.ok, pin)]
        let lines = converse(["GETPIN"])
        XCTAssertEqual(lines.map(\.count), [999, 1000, 507, 2])   // "D " + 997 a (the escape does not fit), …
        XCTAssertEqual(lines.dropLast().map { $0.dropFirst(2) }.joined(), String(repeating: "a", count: 997) + "%25" + String(repeating: "b", count: 1500))
    }

    func testSecretsCompareAllTheirBytes() {
        let a = PinentrySecret(), b = PinentrySecret()
        a.set("abc"); b.set("abc")
        XCTAssertTrue(a.matches(b))
        b.set("abd")
        XCTAssertFalse(a.matches(b))
        b.set("ab")
        XCTAssertFalse(a.matches(b))
        XCTAssertFalse(a.set(String(repeating: "x", count: PinentrySecret.capacity + 1)))
        XCTAssertEqual(a.count, 0)
    }

    /// Feeds `input` from an unlinked temporary file to ``AssuanPinentry/serve(input:)``.
    private func serve(_ input: [UInt8]) -> (AssuanPinentry.End, [String]) {
        var template = Array("/tmp/mk-pinentry-test-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        XCTAssertGreaterThanOrEqual(fd, 0)
        unlink(template)
        defer { close(fd) }
        input.withUnsafeBytes { XCTAssertEqual(write(fd, $0.baseAddress, $0.count), input.count) }
        XCTAssertEqual(lseek(fd, 0, SEEK_SET), 0)
        output = []
        let end = engine.serve(input: fd)
        return (end, String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    func testServeAnswersUntilByeAndIgnoresWhatFollows() {
        let (end, lines) = serve(Array("GETINFO flavor\nBYE extra\nNOP\n".utf8))
        XCTAssertEqual(end, .bye)
        XCTAssertEqual(lines, ["OK Pleased to meet you", "D modalkit", "OK", "OK closing connection"])
    }

    func testServeEndsAtTheEndOfInput() {
        XCTAssertEqual(serve(Array("NOP\n".utf8)).0, .endOfInput)
        XCTAssertEqual(serve(Array("NOP".utf8)).0, .incompleteLine)
    }

    func testLinesOf1001BytesAreAcceptedLongerOnesRefused() {
        let longest = "SETDESC " + String(repeating: "a", count: 993)
        let (end, lines) = serve(Array((longest + "\nNOP\n").utf8))
        XCTAssertEqual(end, .endOfInput)
        XCTAssertEqual(lines, ["OK Pleased to meet you", "OK", "OK"])
        let (tooLong, answered) = serve(Array((longest + "a\nNOP\n").utf8))
        XCTAssertEqual(tooLong, .lineTooLong)
        XCTAssertEqual(answered, ["OK Pleased to meet you"])
        XCTAssertEqual(serve([UInt8](repeating: 0x61, count: 100_000)).0, .lineTooLong)
    }
}
