// What scripts/install ships beside modal-demo, read by the tools users read it with: the manual
// pages (man), the shell completions (bash, zsh, fish, each parsing the file and bash and fish
// completing from it), the desktop entry (desktop-file-validate), the licence and the changelog.
import Foundation
import ModalKitDemo
import ModalKitTestHarness
import XCTest

final class ShippedFilesTests: XCTestCase {
    private func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:]) throws
        -> PluginTestSupport.RunResult
    {
        try PluginTestSupport.run(executable, arguments, environment: PluginTestSupport.environment(environment), timeout: 60)
    }

    private func installed(_ path: String) throws -> String {
        let full = try InstalledProducts.prefix() + "/" + path
        XCTAssertTrue(FileManager.default.isReadableFile(atPath: full), "installed: \(full)")
        return full
    }

    func testManualPagesRenderWithoutWarnings() throws {
        for (page, name) in [("share/man/man1/modal-demo.1", "modal-demo - "), ("share/man/man7/modalkit-style.7", "modalkit-style - "),
                           ("share/man/man1/modalkit-session.1", "modalkit-session - ")] {
            let result = try run("/usr/bin/man", ["--warnings", "-l", try installed(page)],
                                 environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat", "LANG": "C.UTF-8"])
            XCTAssertEqual(result.status, 0, "\(page): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", "\(page): groff's warnings")
            // man justifies lines (several spaces between words): compared with single spaces.
            let words = result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
            XCTAssertTrue(words.contains("NAME " + name), "\(page): its NAME line\n\(result.stdout.prefix(400))")
        }
        // man finds the pages by name through the prefix's share/man (MANPATH).
        let result = try run("/usr/bin/man", ["-w", "modalkit-style"],
                             environment: ["MANPATH": try InstalledProducts.prefix() + "/share/man"])
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       try InstalledProducts.prefix() + "/share/man/man7/modalkit-style.7", result.stderr)
    }

    func testCompletionScriptsParse() throws {
        XCTAssertEqual(try run("/bin/bash", ["-n", try installed("share/bash-completion/completions/modal-demo")]).status, 0)
        let zsh = try run("/usr/bin/zsh", ["-n", try installed("share/zsh/site-functions/_modal-demo")])
        XCTAssertEqual(zsh.status, 0, zsh.stderr)
        let fish = try run("/usr/bin/fish", ["--no-execute", try installed("share/fish/vendor_completions.d/modal-demo.fish")])
        XCTAssertEqual(fish.status, 0, fish.stderr)
        // What is installed is what the installed binary prints.
        for (shell, path) in [("bash", "share/bash-completion/completions/modal-demo"), ("zsh", "share/zsh/site-functions/_modal-demo"),
                              ("fish", "share/fish/vendor_completions.d/modal-demo.fish")] {
            let printed = try run(try InstalledProducts.demo(), ["completion", shell])
            XCTAssertEqual(printed.stdout, try String(contentsOfFile: try installed(path), encoding: .utf8), shell)
        }
    }

    /// bash completes subcommands, a subcommand's options, style names from --list-styles, and a
    /// --style-option's keys from the --style before it (--describe-style).
    func testBashCompletesStylesOptionsAndSubcommands() throws {
        let script = try installed("share/bash-completion/completions/modal-demo")
        func complete(_ words: [String]) throws -> Set<String> {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try run("/bin/bash", ["--norc", "-c", "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); "
                                          + "_modal_demo; printf '%s\\n' \"${COMPREPLY[@]}\""],
                            environment: ["MODALKIT_STYLE_PATH": nil])
            XCTAssertEqual(r.status, 0, r.stderr)
            return Set(r.stdoutLines)
        }
        let demo = try InstalledProducts.demo()
        XCTAssertTrue(try complete([demo, "--style", ""]).isSuperset(of: ["inset-centered", "bottom-sheet", "popover", "adaptive", "alert"]))
        XCTAssertEqual(try complete([demo, "--style", "bott"]), ["bottom-sheet"])
        XCTAssertEqual(try complete([demo, "render", "--pro"]), ["--progress"])
        XCTAssertEqual(try complete([demo, "--pro"]), [], "--progress is render's")
        XCTAssertEqual(try complete([demo, "pre"]), ["preview"])
        XCTAssertEqual(try complete([demo, "--compositing", "s"]), ["subsurface"])
        XCTAssertEqual(try complete([demo, "completion", "f"]), ["fish"])
        // --style-option: the keys (KEY=) of the style named by the --style before it.
        XCTAssertEqual(try complete([demo, "--style", "bottom-sheet", "--style-option", "de"]), ["detents="])
        XCTAssertTrue(try complete([demo, "render", "--style", "inset-centered", "--style-option", ""])
                        .isSuperset(of: ["curve=", "dim-alpha=", "duration="]))
        XCTAssertEqual(try complete([demo, "--style-option", ""]), [], "no --style before it: no keys")
    }

    func testFishCompletesStylesAndOptions() throws {
        let directory = try InstalledProducts.prefix() + "/share/fish/vendor_completions.d"
        func complete(_ line: String) throws -> Set<String> {
            let r = try run("/usr/bin/fish", ["--no-config", "-c", "set fish_complete_path '\(directory)' $fish_complete_path; complete -C '\(line)'"],
                            environment: ["PATH": try InstalledProducts.binDirectory() + ":/usr/bin:/bin", "MODALKIT_STYLE_PATH": nil])
            XCTAssertEqual(r.status, 0, r.stderr)
            return Set(r.stdoutLines.map { String($0.split(separator: "\t", maxSplits: 1)[0]) })
        }
        XCTAssertTrue(try complete("modal-demo --style ").isSuperset(of: ["inset-centered", "bottom-sheet", "alert"]))
        XCTAssertTrue(try complete("modal-demo render --pro").contains("--progress"))
        XCTAssertFalse(try complete("modal-demo --pro").contains("--progress"), "--progress is render's")
        XCTAssertTrue(try complete("modal-demo ").isSuperset(of: ["render", "preview", "new-style", "completion"]))
        XCTAssertEqual(try complete("modal-demo --style bottom-sheet --style-option de"), ["detents="])
        XCTAssertEqual(try complete("modal-demo --style-option "), [], "no --style before it: no keys")
    }

    func testDesktopEntryIsValidAndNamedAfterTheAppID() throws {
        let entry = try installed("share/applications/modalkit.demo.desktop")
        let result = try run("/usr/bin/desktop-file-validate", [entry])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "", "no hints or warnings")
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        XCTAssertTrue(text.contains("\nExec=\(try InstalledProducts.demo())\n"), text)
        // The window's app id (xdg_toplevel.set_app_id) is the entry's name, so docks match them.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let window = try String(contentsOfFile: checkout + "/Sources/modal-demo/DemoWindow.swift", encoding: .utf8)
        XCTAssertTrue(window.contains("\"modalkit.demo\""), "the app id modal-demo sets")
    }

    func testLicenceChangelogAndVersion() throws {
        let licence = try String(contentsOfFile: try installed("share/doc/modalkit/LICENSE"), encoding: .utf8)
        XCTAssertTrue(licence.hasPrefix("MIT License\n"))
        let changelog = try String(contentsOfFile: try installed("share/doc/modalkit/CHANGELOG.md"), encoding: .utf8)
        XCTAssertTrue(changelog.contains("\n## \(modalDemoVersion) — "), "the changelog has an entry for \(modalDemoVersion)")
        let version = try run(try InstalledProducts.demo(), ["--version"])
        XCTAssertEqual(version.stdout, "modal-demo \(modalDemoVersion)\n")
    }
}
