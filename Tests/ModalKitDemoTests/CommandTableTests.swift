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
                                        "--content": "list", "--scroll": "10"]
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
        XCTAssertEqual(try parseCommandLine(["completion", "--help"]), .help)
        for (arguments, message) in [([String](), "completion takes one shell: bash, zsh or fish"),
                                     (["tcsh"], "completion expects bash, zsh or fish, got 'tcsh'"),
                                     (["bash", "zsh"], "completion takes one shell: bash, zsh or fish, got 'bash zsh'")] {
            XCTAssertThrowsError(try parseCommandLine(["completion"] + arguments)) { XCTAssertEqual("\($0)", message) }
        }
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
    }
}
