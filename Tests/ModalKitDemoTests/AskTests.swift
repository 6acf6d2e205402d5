import ModalKitDemo
import ModalKit
import ModalKitContent
import XCTest

/// `modal-demo ask`: the command line (zenity's options; usage errors exit 2), rows read from
/// standard input, and the prompt's content and outcome (0 OK, 1 cancel, 5 timeout).
final class AskCommandLineTests: XCTestCase {
    private func prompt(_ args: [String]) throws -> AskPrompt {
        guard case let .ask(p) = try parseCommandLine(["ask"] + args) else { throw UsageError("not ask") }
        return p
    }

    private func usageError(_ args: [String], file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try parseCommandLine(["ask"] + args)
            XCTFail("\(args) parsed", file: file, line: line)
            return nil
        } catch let e as UsageError {
            return e.description
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func testEveryKindAndItsDefaults() throws {
        for kind in ["question", "warning", "info", "error", "entry", "password", "list"] {
            XCTAssertEqual(try prompt([kind]).kind.rawValue, kind)
        }
        let q = try prompt(["question"])
        XCTAssertEqual(q.effectiveStyle.style, "alert")
        XCTAssertEqual(q.okLabel, "OK")
        XCTAssertEqual(q.cancelLabel, "Cancel")
        XCTAssertNil(q.timeout)
        let l = try prompt(["list", "a", "b c", "--", "--not-an-option"])
        XCTAssertEqual(l.effectiveStyle.style, "bottom-sheet")
        XCTAssertEqual(l.separator, "|")
        XCTAssertEqual(l.rows, ["a", "b c", "--not-an-option"])
    }

    func testZenityOptions() throws {
        let p = try prompt(["entry", "--title", "T", "--text=Name", "--ok-label", "Save", "--cancel-label", "Back",
                            "--default-cancel", "--entry-text", "x", "--timeout", "2.5", "--style", "sheet",
                            "--style-option", "detents=0.5"])
        XCTAssertEqual(p.title, "T")
        XCTAssertEqual(p.text, "Name")
        XCTAssertEqual(p.okLabel, "Save")
        XCTAssertEqual(p.cancelLabel, "Back")
        XCTAssertTrue(p.defaultCancel)
        XCTAssertEqual(p.entryText, "x")
        XCTAssertEqual(p.timeout, 2.5)
        XCTAssertEqual(p.effectiveStyle.style, "sheet")
        XCTAssertEqual(p.effectiveStyle.options, ["detents": "0.5"])
        let l = try prompt(["list", "--column", "File", "--multiple", "--separator", "\n", "a"])
        XCTAssertEqual(l.column, "File")
        XCTAssertTrue(l.multiple)
        XCTAssertEqual(l.separator, "\n")
    }

    func testUsageErrorsNameWhatIsWrong() {
        XCTAssertEqual(usageError([]), "ask needs a kind: question, warning, info, error, entry, password, list")
        XCTAssertEqual(usageError(["yesno"]), "unknown kind 'yesno' for ask (expected question, warning, info, error, entry, password, list)")
        XCTAssertEqual(usageError(["question", "--bogus"]), "unknown option '--bogus' for ask (see --help)")
        // Options of other subcommands are not ask's (the table gives each its own).
        XCTAssertEqual(usageError(["question", "--size", "10x10"]), "unknown option '--size' for ask (see --help)")
        XCTAssertEqual(usageError(["question", "--log-events"]), "unknown option '--log-events' for ask (see --help)")
        XCTAssertEqual(usageError(["--title", "T"]), "ask needs a kind: question, warning, info, error, entry, password, list")
        XCTAssertEqual(usageError(["question", "--timeout"]), "option --timeout needs a value")
        XCTAssertEqual(usageError(["list", "--style", "a", "--style", "b"]), "ask takes one --style")
        XCTAssertEqual(usageError(["question", "--style", "alert", "--style-option", "dim"]),
                       "--style-option expects KEY=VALUE, got 'dim'")
        XCTAssertEqual(usageError(["question", "--multiple"]), "--multiple is not an option of ask question")
        XCTAssertEqual(usageError(["info", "--cancel-label", "No"]), "--cancel-label is not an option of ask info")
        XCTAssertEqual(usageError(["question", "row"]), "unexpected argument 'row' (ask question takes no rows)")
        XCTAssertEqual(usageError(["question", "--text"]), "option --text needs a value")
        XCTAssertEqual(usageError(["question", "--default-cancel=yes"]), "--default-cancel takes no value")
        for bad in ["0", "-1", "nan", "inf", "86401", "soon"] {
            XCTAssertEqual(usageError(["question", "--timeout", bad]),
                           "--timeout expects seconds above 0 and at most 86400, got '\(bad)'")
        }
        XCTAssertEqual(usageError(["question", "--style-option", "a=b"]),
                       "--style-option a=b comes before any --style: an option belongs to the --style before it")
        XCTAssertEqual(UsageError.exitStatus, 2)
    }

    /// The per-kind rule names only options the table gives ask, and each is refused by the
    /// kinds it does not name.
    func testPerKindOptionsAreAsksRows() {
        for (name, kinds) in AskCommandLine.kinds {
            XCTAssertNotNil(CommandTable.option(name, in: .ask), name)
            let option = CommandTable.option(name, in: .ask)
            for kind in AskPrompt.Kind.allCases where !kinds.contains(kind) {
                XCTAssertEqual(usageError([kind.rawValue, name] + (option?.value == nil ? [] : ["x"])),
                               "\(name) is not an option of ask \(kind.rawValue)")
            }
        }
    }

    /// Every message is one line (printed after `modal-demo: `, exit status 2).
    func testUsageErrorsAreOneLine() {
        for arguments in [[], ["yesno"], ["question", "--bogus"], ["question", "--text"], ["entry", "--multiple"],
                          ["question", "row"], ["question", "--timeout", "x"]] {
            XCTAssertFalse((usageError(arguments) ?? "\n").contains("\n"), "\(arguments)")
        }
    }

    /// The kind may come after options (zenity's order is free); rows follow it, and after `--`
    /// anything is a row; `--help` is the help wherever it is.
    func testOrderHelpAndEndOfOptions() throws {
        let p = try prompt(["--text", "Pick", "list", "a", "--multiple", "b", "--", "--c", "-"])
        XCTAssertEqual(p.kind, .list)
        XCTAssertEqual(p.text, "Pick")
        XCTAssertTrue(p.multiple)
        XCTAssertEqual(p.rows, ["a", "b", "--c", "-"])
        XCTAssertEqual(try parseCommandLine(["ask", "--help"]), .help(.ask))
        XCTAssertEqual(try parseCommandLine(["ask", "question", "-h"]), .help(.ask))
        XCTAssertEqual(usageError(["list", "-x"]), "unknown option '-x' for ask (see --help)")
    }

    func testTooManyRowsAsArguments() {
        let rows = (0...AskCommandLine.maximumRows).map(String.init)
        XCTAssertEqual(usageError(["list"] + rows), "too many rows for ask list (10001; at most 10000)")
    }

    func testRowsFromStandardInput() throws {
        XCTAssertEqual(try AskCommandLine.rows(fromStandardInput: Array("a\nb c\r\n\nd".utf8)), ["a", "b c", "", "d"])
        XCTAssertEqual(try AskCommandLine.rows(fromStandardInput: Array("é 東京\n".utf8)), ["é 東京"])
        XCTAssertThrowsError(try AskCommandLine.rows(fromStandardInput: [])) {
            XCTAssertEqual(($0 as? UsageError)?.description,
                           "ask list has no rows (give them as arguments or one per line on standard input)")
        }
        XCTAssertThrowsError(try AskCommandLine.rows(fromStandardInput: Array("ok\n".utf8) + [0xC3, 0x28, 0x0A])) {
            XCTAssertEqual(($0 as? UsageError)?.description, "standard input is not UTF-8 text (line 2)")
        }
        let many = Array(String(repeating: "row\n", count: 100_000).utf8)
        XCTAssertThrowsError(try AskCommandLine.rows(fromStandardInput: many)) {
            XCTAssertEqual(($0 as? UsageError)?.description, "too many rows on standard input for ask list (more than 10000)")
        }
    }
}

final class AskContentTests: XCTestCase {
    private func run(_ prompt: AskPrompt, _ inputs: [ContentInput], setUp: (AskContent) -> Void = { _ in }) -> AskResult? {
        let content = AskContent(prompt: prompt)
        var result: AskResult?
        content.onResult = { r, _ in result = r }
        content.alert.didLayout(size: Size(width: 270, height: 400))
        setUp(content)
        for input in inputs { _ = content.alert.handle(input, now: 1) }
        return result
    }

    func testQuestionReturnIsOkEscapeIsCancel() {
        let q = AskPrompt(kind: .question)
        XCTAssertEqual(run(q, [.key(.activate)]), .ok(answer: nil))
        XCTAssertEqual(run(q, [.key(.escape)]), .cancelled)
        var d = q
        d.defaultCancel = true
        XCTAssertEqual(run(d, [.key(.activate)]), .cancelled)
        XCTAssertEqual(AskResult.ok(answer: nil).exitStatus, 0)
        XCTAssertEqual(AskResult.cancelled.exitStatus, 1)
        XCTAssertEqual(AskResult.timedOut.exitStatus, 5)
    }

    /// A question with pinentry's SETNOTOK button: Cancel, not OK, OK in that order; its answer.
    func testNotOKButton() {
        var q = AskPrompt(kind: .question)
        q.notOKLabel = "No"
        let content = AskContent(prompt: q)
        XCTAssertEqual(content.alert.responses.map(\.label), ["Cancel", "No", "OK"])
        XCTAssertEqual(content.result(forResponse: "notok", texts: []), .notOK)
        XCTAssertEqual(AskResult.notOK.exitStatus, 1)
        // A notice has OK only, whatever the label.
        var notice = AskPrompt(kind: .info)
        notice.notOKLabel = "No"
        XCTAssertEqual(AskContent(prompt: notice).alert.responses.map(\.id), ["ok"])
    }

    /// The field's label (pinentry's SETPROMPT) is its placeholder and its name for screen readers.
    func testFieldLabel() {
        var p = AskPrompt(kind: .password)
        p.text = "Unlock the key"
        XCTAssertEqual(AskContent(prompt: p).field?.accessibilityLabel, "Unlock the key")
        p.fieldLabel = "Passphrase:"
        let content = AskContent(prompt: p)
        XCTAssertEqual(content.field?.placeholder, "Passphrase:")
        XCTAssertEqual(content.field?.accessibilityLabel, "Passphrase:")
    }

    func testNoticesHaveOnlyOk() {
        for kind in [AskPrompt.Kind.warning, .info, .error] {
            let content = AskContent(prompt: AskPrompt(kind: kind))
            XCTAssertEqual(content.alert.responses.map(\.id), ["ok"])
            XCTAssertEqual(run(AskPrompt(kind: kind), [.key(.activate)]), .ok(answer: nil))
            // Escape is not the notice's to answer: the host dismisses it unanswered (exit 1).
            XCTAssertNil(run(AskPrompt(kind: kind), [.key(.escape)]))
        }
        var q = AskPrompt(kind: .question)
        q.okLabel = "Delete"
        q.cancelLabel = "Keep"
        XCTAssertEqual(AskContent(prompt: q).alert.responses.map(\.label), ["Keep", "Delete"])
        XCTAssertEqual(AskContent(prompt: AskPrompt(kind: .question)).alert.title, "Question")
    }

    func testEntryAnswersItsText() {
        var e = AskPrompt(kind: .entry)
        e.entryText = "Report"
        XCTAssertEqual(run(e, [.key(.activate)]), .ok(answer: "Report"))
        XCTAssertEqual(run(e, [.key(.escape)]), .cancelled)
        let p = AskContent(prompt: AskPrompt(kind: .password))
        XCTAssertEqual(p.field?.isSecure, true)
        XCTAssertEqual(run(AskPrompt(kind: .password), [.key(.activate)]) { $0.field?.text = "hunter2" }, .ok(answer: "hunter2"))
    }

    /// Keys alone choose: Down moves the list's cursor, which a single-selection list selects,
    /// and Return answers OK with that row; typing jumps to a row; with --multiple space toggles
    /// the cursor's row (GTK's list views, zenity's list dialog). Before, the alert gave the arrows
    /// to its buttons (Down focused Cancel) and a keyboard could not choose a row at all.
    func testListIsChosenWithTheKeyboard() {
        func press(_ keysym: UInt32, _ text: String = "") -> [ContentInput] {
            [.keyboard(KeyInput(keysym: keysym, phase: .press, text: text)), .keyboard(KeyInput(keysym: keysym, phase: .release))]
        }
        var l = AskPrompt(kind: .list)
        l.rows = ["alpha", "beta", "gamma"]
        let down = KeyInput.Keysym.down
        XCTAssertEqual(run(l, press(down) + press(down) + [.key(.activate)]), .ok(answer: "beta"))
        XCTAssertEqual(run(l, press(0x67, "g") + [.key(.activate)]), .ok(answer: "gamma"))
        l.multiple = true
        l.separator = "|"
        let space = KeyInput.Keysym.space
        XCTAssertEqual(run(l, press(down) + press(space, " ") + press(down) + press(down) + press(space, " ") + [.key(.activate)]),
                       .ok(answer: "alpha|gamma"))
    }

    func testListAnswersTheChosenRowsJoined() {
        var l = AskPrompt(kind: .list)
        l.rows = ["a", "b", "c"]
        let chosen = run(l, []) { content in
            _ = content.list?.handle(.activate("row-2"), now: 0)
            _ = content.alert.handle(.key(.activate), now: 1)
        }
        XCTAssertEqual(chosen, .ok(answer: "b"))
        l.multiple = true
        l.separator = ", "
        let several = run(l, []) { content in
            _ = content.list?.handle(.activate("row-3"), now: 0)
            _ = content.list?.handle(.activate("row-1"), now: 0)
            _ = content.alert.handle(.key(.activate), now: 1)
        }
        XCTAssertEqual(several, .ok(answer: "a, c"))
        XCTAssertEqual(run(l, [.key(.activate)]), .ok(answer: ""))
        // 5.5 rows tall at most: the alert does not grow with the list.
        l.rows = (0..<1000).map(String.init)
        let content = AskContent(prompt: l)
        let height = content.alert.preferredContentSize(fittingWidth: 270)?.height ?? 0
        XCTAssertLessThan(height, 44 * 5.5 + 300)
    }
}
