// The command-line table is the one source of --help, README's synopsis, the manual page's option
// list and the shell completions: each is checked against it here, so none can name an option the
// parser does not take, or miss one it does.
import Foundation
@testable import ModalKitDemo
import XCTest

final class CommandTableTests: XCTestCase {
    private let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    private func file(_ path: String) throws -> String { try String(contentsOfFile: checkout + "/" + path, encoding: .utf8) }

    /// Every option of every subcommand parses where the table says it is taken, and is refused
    /// where it is not (the parser reads the table; a row it does not handle would trap).
    func testEveryRowIsParsedWhereTakenAndRefusedElsewhere() {
        let sample: [String: String] = ["--style": "bottom-sheet", "--style-option": "dim-alpha=0.3", "--size": "100x100",
                                        "--duration": "0.5", "--pause-at": "0.5", "--frame-time": "predicted",
                                        "--compositing": "pixman", "--describe-style": "bottom-sheet", "--progress": "0.5",
                                        "--phase": "dismiss", "--drag": "20", "--detent": "1", "--scale": "2",
                                        "--output": "x.png", "--directory": "d", "--fps": "10", "--hold": "1", "--strip": "3",
                                        "--content": "list", "--scroll": "10", "--title": "T", "--text": "t",
                                        "--ok-label": "Yes", "--cancel-label": "No", "--entry-text": "e", "--column": "C",
                                        "--separator": ",", "--timeout": "1"]
        for command in Subcommand.allCases where command != .newStyle && command != .completion {
            let prefix = command == .window ? [] : [command.rawValue]
            for option in CommandTable.options {
                var arguments = prefix + [option.name] + (option.value == nil ? [] : [sample[option.name]!])
                if option.name == "--style-option" { arguments = prefix + ["--style", "x", option.name, sample[option.name]!] }
                // Taken when a row of this name is the command's (render and preview each have their --output).
                let taken = CommandTable.option(option.name, in: command) != nil
                do {
                    _ = try parseCommandLine(arguments)
                    XCTAssertTrue(taken, "\(arguments) parses, but the table does not give it to \(command)")
                } catch let error as UsageError {
                    if taken {
                        // Taken, but the command then lacks what it needs (render's --size and --output).
                        XCTAssertFalse(error.description.contains("unknown option"), "\(arguments): \(error)")
                    } else {
                        XCTAssertTrue(error.description.hasPrefix("unknown option '\(option.name)'"), "\(arguments): \(error)")
                    }
                } catch { XCTFail("\(arguments): \(error)") }
            }
        }
        XCTAssertEqual(try parseCommandLine(["new-style", "side-drawer", "--directory", "d"]),
                       .newStyle({ var o = NewStyleOptions(); o.name = "side-drawer"; o.directory = "d"; return o }()))
        XCTAssertThrowsError(try parseCommandLine(["new-style", "-x"])) {
            XCTAssertEqual("\($0)", "unknown option '-x' for new-style (see --help)")
        }
    }

    func testAFlagGivenAValueIsRefused() {
        for flag in ["--list-styles", "--watch", "--autoplay", "--log-events", "--reduced-motion", "--version"] {
            XCTAssertThrowsError(try parseCommandLine([flag + "=yes"]), flag) {
                XCTAssertEqual("\($0)", "\(flag) takes no value")
            }
        }
    }

    func testCompletionTakesOneShell() throws {
        XCTAssertEqual(try parseCommandLine(["completion", "zsh"]), .completion(.zsh))
        XCTAssertEqual(try parseCommandLine(["completion", "--help"]), .help(.completion))
        for (arguments, message) in [([String](), "completion takes one shell: bash, zsh or fish"),
                                     (["tcsh"], "completion expects bash, zsh or fish, got 'tcsh'"),
                                     (["bash", "zsh"], "completion takes one shell: bash, zsh or fish, got 'bash zsh'")] {
            XCTAssertThrowsError(try parseCommandLine(["completion"] + arguments)) { XCTAssertEqual("\($0)", message) }
        }
    }

    /// `modal-demo SUBCOMMAND --help` narrows the help to the subcommand (as `git SUB --help`):
    /// its synopsis lines and no other's, its section's paragraph, every option it takes with its
    /// value, none it does not take, and a pointer to the whole help.
    func testASubcommandsHelpIsItsOwn() throws {
        for command in Subcommand.allCases where command != .window {
            XCTAssertEqual(try parseCommandLine([command.rawValue, "--help"]), .help(command), command.rawValue)
            let help = CommandTable.usage(for: command)
            let lines = help.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "Usage:")
            let entries = lines.filter { $0.hasPrefix("  modal-demo ") }
            XCTAssertFalse(entries.isEmpty, "\(command.rawValue): no synopsis line")
            for entry in entries { XCTAssertTrue(entry.hasPrefix("  modal-demo \(command.rawValue)"), entry) }
            for option in CommandTable.table.options {
                let listed = lines.contains { $0.hasPrefix("  " + option.usage + " ") || $0 == "  " + option.usage
                                              || $0.hasPrefix("  " + option.usage + ",") }
                if option.commands.contains(command) {
                    XCTAssertTrue(listed, "\(command.rawValue) --help lacks \(option.usage)")
                } else if !CommandTable.table.options.contains(where: { $0.name == option.name && $0.commands.contains(command) }) {
                    XCTAssertFalse(listed, "\(command.rawValue) --help lists \(option.usage), which it does not take")
                }
            }
            XCTAssertEqual(lines.last, "modal-demo --help: every subcommand, the style path, the environment and the exit statuses.")
        }
        XCTAssertTrue(CommandTable.usage(for: .ask).contains("Exit status: 0 OK, 1 Cancel"), "ask's section paragraph")
        XCTAssertFalse(CommandTable.usage(for: .ask).contains("--progress"))
        XCTAssertEqual(try parseCommandLine(["--help"]), .help(.window))
    }

    /// --help lists every option of the table once per section it is in, with its value.
    func testHelpListsEveryRow() {
        let lines = usageText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for option in CommandTable.options {
            let heading = lines.firstIndex(of: option.section)
            XCTAssertNotNil(heading, option.section)
            let rest = lines[(heading ?? 0)...].dropFirst().prefix { !$0.isEmpty }
            XCTAssertTrue(rest.contains { $0.hasPrefix("  " + option.usage + " ") || $0 == "  " + option.usage
                || $0.hasPrefix("  " + option.usage + ",") },
                          "\(option.usage) under \(option.section)")
        }
        XCTAssertTrue(usageText.hasPrefix("Usage:\n  " + CommandTable.synopsis.split(separator: "\n")[0]))
        for line in lines { XCTAssertLessThanOrEqual(line.count, 120, line) }
    }

    /// README's "Command line" block is the table's synopsis, line for line.
    func testReadmeSynopsisIsTheTables() throws {
        let readme = try file("README.md")
        let block = "```\n" + CommandTable.synopsis + "\n```\n"
        XCTAssertTrue(readme.contains(block), "README's synopsis block differs from CommandTable.synopsis:\n\(block)")
    }

    /// The manual page documents every option of the table, and no option the table lacks.
    func testManualPageNamesExactlyTheTablesOptions() throws {
        let page = try file("docs/man/modal-demo.1")
        // roff writes a dash as \-; the options documented are the .TP items' first words.
        let lines = page.split(separator: "\n").map(String.init)
        var documented = Set<String>()
        for (i, line) in lines.enumerated() where line == ".TP" && i + 1 < lines.count {
            let item = lines[i + 1].replacingOccurrences(of: "\\-", with: "-")
            if let range = item.range(of: #"--[a-z-]+"#, options: .regularExpression) { documented.insert(String(item[range])) }
        }
        let table = Set(CommandTable.options.map(\.name))
        XCTAssertEqual(documented.subtracting(table), [], "documented in modal-demo.1 but not in the table")
        XCTAssertEqual(table.subtracting(documented), [], "in the table but not documented in modal-demo.1")
        XCTAssertTrue(page.contains("\"ModalKit \(modalDemoVersion)\""), "the page's version is --version's")
    }

    /// The manual page's SYNOPSIS names every option of the table (each subcommand's line its own).
    func testManualPageSynopsisNamesEveryOption() throws {
        let page = try file("docs/man/modal-demo.1")
        let lines = page.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: ".SH SYNOPSIS") else { return XCTFail("no SYNOPSIS section") }
        let synopsis = lines[(start + 1)...].prefix { !$0.hasPrefix(".SH ") }.joined(separator: " ")
            .replacingOccurrences(of: "\\-", with: "-")
        var named = Set<String>()
        var rest = synopsis[...]
        while let range = rest.range(of: #"--[a-z][a-z-]*"#, options: .regularExpression) {
            named.insert(String(rest[range]))
            rest = rest[range.upperBound...]
        }
        for name in Set(CommandTable.options.map(\.name)).subtracting(named).sorted() {
            XCTFail("\(name) is in the table but not in modal-demo.1's SYNOPSIS")
        }
    }

    /// The long options named in `text` (roff's `\-` read as `-`).
    private func optionNames(in text: String) -> Set<String> {
        var named = Set<String>()
        var rest = text.replacingOccurrences(of: "\\-", with: "-")[...]
        while let range = rest.range(of: #"--[a-z][a-z-]*"#, options: .regularExpression) {
            named.insert(String(rest[range]))
            rest = rest[range.upperBound...]
        }
        return named
    }

    /// Checks that each subcommand's synopsis entries (`entries`: the subcommand's word, or "" for
    /// none, with the entry's text) name every option the table gives it. `--help` and `--version`
    /// have an entry of their own (`modal-demo --help | --version`), which every subcommand takes;
    /// an entry that says "the window's options" takes the window's entries' options.
    private func checkEverySubcommandsOptions(_ entries: [(command: String, text: String)], in what: String) {
        var named: [String: Set<String>] = [:]
        for entry in entries { named[entry.command, default: []].formUnion(optionNames(in: entry.text)) }
        for entry in entries where entry.text.contains("the window's options") {
            named[entry.command, default: []].formUnion(named[""] ?? [])
        }
        let general = named[""] ?? []
        for command in Subcommand.allCases {
            XCTAssertNotNil(named[command.rawValue], "\(what): no entry for \(command)")
            for name in CommandTable.optionNames(for: command) where !(named[command.rawValue] ?? []).contains(name) {
                let generalEntry = (name == "--help" || name == "--version") && general.contains(name)
                if !generalEntry { XCTFail("\(what): \(command.rawValue.isEmpty ? "the window" : command.rawValue) takes \(name), its entry does not name it") }
            }
        }
    }

    /// The manual page's SYNOPSIS names, in each subcommand's entries, every option the table
    /// gives that subcommand (ask's and pinentry's too; render's --content and --scroll).
    func testManualPageSynopsisNamesEachSubcommandsOptions() throws {
        let lines = try file("docs/man/modal-demo.1").split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: ".SH SYNOPSIS") else { return XCTFail("no SYNOPSIS section") }
        let words = Set(Subcommand.allCases.map(\.rawValue))
        var entries: [(command: String, text: String)] = []
        for line in lines[(start + 1)...].prefix(while: { !$0.hasPrefix(".SH ") }) {
            if line == ".br" { continue }
            if line.hasPrefix(".B modal-demo") {
                let word = line.dropFirst(".B modal-demo".count).trimmingCharacters(in: .whitespaces)
                XCTAssertTrue(words.contains(word), "SYNOPSIS: unknown subcommand '\(word)'")
                entries.append((word, ""))
            } else if !entries.isEmpty {
                entries[entries.count - 1].text += " " + line
            }
        }
        checkEverySubcommandsOptions(entries, in: "modal-demo.1 SYNOPSIS")
        XCTAssertTrue(entries.contains { $0.command == "render" && $0.text.contains("\\-\\-content") && $0.text.contains("\\-\\-scroll") })
    }

    /// --help's synopsis (README's too) names, in each subcommand's lines, every option the table
    /// gives that subcommand.
    func testHelpSynopsisNamesEachSubcommandsOptions() {
        let words = Set(Subcommand.allCases.map(\.rawValue).filter { !$0.isEmpty })
        var entries: [(command: String, text: String)] = []
        for line in CommandTable.synopsis.split(separator: "\n").map(String.init) {
            if line.hasPrefix("modal-demo") {
                let second = line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                entries.append((words.contains(second) ? second : "", line))
            } else {
                entries[entries.count - 1].text += " " + line
            }
        }
        checkEverySubcommandsOptions(entries, in: "--help's synopsis")
    }

    /// `pinentry` reads its options from the table: one --style with its --style-options, no operands.
    func testPinentryParser() throws {
        var alert = StyleSelection()
        alert.style = "alert"
        XCTAssertEqual(try parseCommandLine(["pinentry"]), .pinentry(style: alert, logEvents: false))
        var sheet = StyleSelection()
        sheet.style = "bottom-sheet"
        sheet.options = ["dim-alpha": "0.3"]
        XCTAssertEqual(try parseCommandLine(["pinentry", "--log-events", "--style=bottom-sheet", "--style-option", "dim-alpha=0.3"]),
                       .pinentry(style: sheet, logEvents: true))
        XCTAssertEqual(try parseCommandLine(["pinentry", "--help"]), .help(.pinentry))
        for (arguments, message) in [(["--display", ":0"], "unknown option '--display' for pinentry (see --help)"),
                                     (["--style"], "option --style needs a value"),
                                     (["x"], "unexpected argument 'x' (see --help)"),
                                     (["--style-option", "a=b"], "--style-option a=b comes before any --style: an option belongs to the --style before it"),
                                     (["--style", "a", "--style", "b"], "pinentry takes one --style"),
                                     (["--log-events=1"], "--log-events takes no value")] {
            XCTAssertThrowsError(try parseCommandLine(["pinentry"] + arguments)) { XCTAssertEqual("\($0)", message) }
        }
    }

    /// Each completion script offers, for each subcommand, the table's options for it.
    func testCompletionsOfferTheTablesOptions() {
        let bash = ShellCompletion.script(for: .bash), zsh = ShellCompletion.script(for: .zsh)
        let fish = ShellCompletion.script(for: .fish)
        for command in Subcommand.allCases {
            for name in CommandTable.optionNames(for: command) {
                let condition = command == .window ? "not __fish_seen_subcommand_from" : "__fish_seen_subcommand_from \(command.rawValue)"
                XCTAssertTrue(fish.contains("-n \"\(condition)") && fish.split(separator: "\n").contains {
                    $0.contains(condition) && $0.contains(" -l \(name.dropFirst(2)) ") || $0.contains(condition) && $0.hasSuffix(" -l \(name.dropFirst(2))")
                }, "fish: \(name) for \(command)")
                XCTAssertTrue(zsh.contains("'\(name)[") || zsh.contains("'*\(name)["), "zsh: \(name)")
            }
            let pattern = command == .window ? "\"\")" : "\(command.rawValue))"
            let line = bash.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(pattern + " words=") }
            XCTAssertNotNil(line, "bash: a case for \(command)")
            let list = (line ?? "").components(separatedBy: "words=\"").last?.components(separatedBy: "\"").first ?? ""
            let words = Set(list.split(separator: " ").map(String.init))
            XCTAssertTrue(Set(CommandTable.optionNames(for: command)).isSubset(of: words), "bash: \(command): \(words)")
        }
        XCTAssertTrue(bash.contains("--list-styles"), "styles are completed from --list-styles")
        // ask's first operand, its kind.
        let kinds = AskPrompt.Kind.allCases.map(\.rawValue).joined(separator: " ")
        XCTAssertTrue(bash.contains("ask) words=\"\(kinds) "), "bash: ask's kinds")
        XCTAssertTrue(zsh.contains("'1:kind:(\(kinds))'"), "zsh: ask's kinds")
        XCTAssertTrue(fish.contains("-n \"__fish_seen_subcommand_from ask\" -a \"\(kinds)\""), "fish: ask's kinds")
    }
}
