// The shared command-line table: the scanner's reading of options (getopt_long's spelling), its
// one-line mistakes, the subcommand table's dispatch, and the help layout made from the rows.
import ModalKitCommandLine
import XCTest

private enum Verb: Hashable, Sendable { case main, draw, ask }

private let table = OptionTable<Verb>([
    CommandOption("--size", "WxH", in: [.main, .draw], "window size"),
    CommandOption("--log", in: [.main], "print events"),
    CommandOption("--output", "FILE", completion: .file, in: [.draw], section: "draw:",
                  "where the picture goes: a long help", "on two lines"),
    CommandOption("--a-very-long-option-name", "VALUE", in: [.ask], section: "ask:", "a name past the column"),
    CommandOption("--medium-name", "VAL", in: [.ask], section: "ask:", "just past"),
    CommandOption("--help", alias: "-h", in: [.main, .draw, .ask], "this text"),
])

/// What a parser saw, in order.
private enum Seen: Equatable { case option(String, String?), operand(String), end }

private func scan(_ arguments: [String], _ command: Verb = .main, name: String? = nil, endOfOptions: Bool = false) throws -> [Seen] {
    var scanner = ArgumentScanner(arguments[...], table: table, command: command, commandName: name)
    scanner.allowsEndOfOptions = endOfOptions
    var seen: [Seen] = []
    while let argument = try scanner.next() {
        switch argument {
        case let .option(option, value): seen.append(.option(option.name, value))
        case let .operand(word): seen.append(.operand(word))
        case .endOfOptions: seen.append(.end); seen += scanner.rest().map(Seen.operand)
        }
    }
    return seen
}

private func assertMistake(_ arguments: [String], _ message: String, command: Verb = .main, name: String? = nil,
                           file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try scan(arguments, command, name: name), file: file, line: line) {
        XCTAssertEqual(($0 as? UsageError)?.description, message, file: file, line: line)
    }
}

final class ArgumentScannerTests: XCTestCase {
    func testValuesSeparateOrAfterAnEqualsSignFlagsAndAliases() throws {
        XCTAssertEqual(try scan(["--size", "10x20", "--size=3x4", "--log", "-h", "word", "-", "--size", "-5"]),
                       [.option("--size", "10x20"), .option("--size", "3x4"), .option("--log", nil), .option("--help", nil),
                        .operand("word"), .operand("-"), .option("--size", "-5")])
        XCTAssertEqual(try scan(["--size="]), [.option("--size", "")], "an empty value after = is a value")
    }

    func testMistakesAreOneLineNamingTheArgumentAndTheSubcommand() {
        assertMistake(["--bogus"], "unknown option '--bogus' (see --help)")
        assertMistake(["--bogus=1"], "unknown option '--bogus=1' (see --help)")
        assertMistake(["-x"], "unknown option '-x' (see --help)")
        assertMistake(["--log"], "unknown option '--log' for draw (see --help)", command: .draw, name: "draw")
        assertMistake(["--output", "x"], "unknown option '--output' (see --help)")
        assertMistake(["--size"], "option --size needs a value")
        assertMistake(["--log=yes"], "--log takes no value")
        assertMistake(["--"], "unknown option '--' (see --help)")
    }

    func testDoubleDashEndsTheOptionsWhereAllowed() throws {
        XCTAssertEqual(try scan(["--log", "--", "--size", "app"], endOfOptions: true),
                       [.option("--log", nil), .end, .operand("--size"), .operand("app")])
    }

    func testRefusalCanBeTheCommandsOwn() {
        var scanner = ArgumentScanner(["--log"][...], table: table, command: .draw)
        scanner.refuse = { _, name in UsageError("\(name) does not apply to draw") }
        XCTAssertThrowsError(try scanner.next()) { XCTAssertEqual("\($0)", "--log does not apply to draw") }
    }

    func testNextOptionRefusesOperandsAndNumbersAreChecked() throws {
        var scanner = ArgumentScanner(["--size", "1x1", "stray"][...], table: table, command: .main)
        XCTAssertEqual(try scanner.nextOption()?.value, "1x1")
        XCTAssertThrowsError(try scanner.nextOption()) { XCTAssertEqual("\($0)", "unexpected argument 'stray' (see --help)") }
        let size = table.option("--size", in: .main)!
        XCTAssertEqual(try ArgumentScanner<Verb>.number("0.5", in: 0...1, for: size, expects: "a fraction"), 0.5)
        for text in ["1.5", "nan", "inf", "x", ""] {
            XCTAssertThrowsError(try ArgumentScanner<Verb>.number(text, in: 0...1, for: size, expects: "a fraction")) {
                XCTAssertEqual("\($0)", "--size expects a fraction, got '\(text)'")
            }
        }
        XCTAssertEqual(try ArgumentScanner<Verb>.whole("8", in: 1...8, for: size, expects: "N"), 8)
        XCTAssertThrowsError(try ArgumentScanner<Verb>.whole("1.0", in: 1...8, for: size, expects: "N"))
    }

    /// The first argument picks a subcommand's parser; anything else goes to the default's.
    func testSubcommandTableDispatchesOnTheFirstWord() throws {
        func parser(_ label: String) -> (inout ArgumentScanner<Verb>) throws -> String {
            { scanner in
                var words = [label, scanner.commandName ?? "-"]
                while let (option, value) = try scanner.nextOption() { words.append(option.name + "=" + value) }
                return words.joined(separator: " ")
            }
        }
        let commands = SubcommandTable(table: table, entries: [.init(.main, word: nil, parse: parser("main")),
                                                               .init(.draw, word: "draw", parse: parser("draw")),
                                                               .init(.ask, word: "ask", parse: parser("ask"))])
        XCTAssertEqual(try commands.parse([]), "main -")
        XCTAssertEqual(try commands.parse(["--size", "1x1"]), "main - --size=1x1")
        XCTAssertEqual(try commands.parse(["draw", "--output", "f"]), "draw draw --output=f")
        XCTAssertEqual(try commands.parse(["ask", "--medium-name=v"]), "ask ask --medium-name=v")
        XCTAssertThrowsError(try commands.parse(["--log", "draw"])) { XCTAssertEqual("\($0)", "unexpected argument 'draw' (see --help)") }
        XCTAssertThrowsError(try commands.parse(["ask", "--log"])) { XCTAssertEqual("\($0)", "unknown option '--log' for ask (see --help)") }
    }

    func testTableLookups() {
        XCTAssertEqual(table.option("-h", in: .draw)?.name, "--help")
        XCTAssertNil(table.option("--log", in: .draw))
        XCTAssertTrue(table.names("--log"))
        XCTAssertFalse(table.names("--logs"))
        XCTAssertEqual(table.optionNames(for: .draw), ["--size", "--output", "--help"])
        XCTAssertEqual(table.option("--output", in: .draw)?.usage, "--output FILE")
    }

    /// Each row under its heading: help from the column, a long name's help after two spaces when
    /// that overruns the column by at most two, else on the next line.
    func testHelpLayout() {
        let lines = table.helpLines([HelpSection("Options:"), HelpSection("draw:"), HelpSection("ask:", "  asks.")], column: 20)
        XCTAssertEqual(lines, [
            "Options:",
            "  --size WxH        window size",
            "  --log             print events",
            "  --help, -h        this text",
            "",
            "draw:",
            "  --output FILE     where the picture goes: a long help",
            "                    on two lines",
            "",
            "ask:",
            "  asks.",
            "  --a-very-long-option-name VALUE",
            "                    a name past the column",
            "  --medium-name VAL  just past",
        ])
    }
}
