// Style libraries are data until chosen (docs/design.md, plugin metadata and trust): a library's name,
// summary, ABI and options come from its ELF note, so `--list-styles`, `--describe-style NAME` and
// the lookup of a name run none of its code, and `--style NAME` loads exactly the library chosen.
// Proven with C fixtures whose ELF constructor leaves a trace when the library is loaded, and with
// the dynamic loader's own log (LD_DEBUG=files) for the built-in styles.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKit
import ModalKitPlugins

final class PluginNoteTests: XCTestCase {
    typealias Support = PluginTestSupport

    private func demo(_ arguments: [String], environment: [String: String?] = [:]) throws -> Support.RunResult {
        try PluginCLITests.demo(arguments, environment: environment)
    }

    /// A fixture named `name` with a truthful note (or `note`), in `dir`.
    private func notedFixture(_ file: String, in dir: String, name: String = "c-fixture", note: StyleDeclaration? = nil,
                              defines: [String] = []) throws -> String {
        let declaration = note ?? Support.fixtureDeclaration(name: name)
        return try Support.compileFixture(file, in: dir, defines: ["FIXTURE_NAME=\"\(name)\""] + defines,
                                          note: StyleNote.note(for: declaration)).library
    }

    // MARK: No code runs until a library is chosen

    func testListingDescribingAndLookingUpRunNoPluginCodeAndStyleNameLoadsOnlyTheChosenLibrary() throws {
        let dir = try Support.temporaryDirectory(self, "note-cli")
        let a = try notedFixture("libModalKitStyleA.so", in: dir, name: "fixture-a")
        let b = try notedFixture("libModalKitStyleB.so", in: dir, name: "fixture-b")
        let c = try notedFixture("libModalKitStyleC.so", in: dir, name: "fixture-c")
        let env: [String: String?] = ["MODALKIT_STYLE_PATH": dir]

        let listed = try demo(["--list-styles"], environment: env)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(listed.stderr, "")
        let summary = "C fixture: container inset on every side, dim 0.3"
        XCTAssertEqual(Array(listed.stdoutLines.prefix(3)),
                       ["fixture-a\t\(a)\t\(summary)", "fixture-b\t\(b)\t\(summary)", "fixture-c\t\(c)\t\(summary)"])
        XCTAssertFalse(listed.stdout.contains("# "), "no library needed loading, none failed: \(listed.stdout)")

        let described = try demo(["--describe-style", "fixture-b"], environment: env)
        XCTAssertEqual(described.status, 0, described.stderr)
        XCTAssertEqual(described.stdoutLines, [
            "name: fixture-b", "path: \(b)", "abi: \(StyleABIVersion.current)", "summary: \(summary)", "options:",
            "  option  default  meaning                      accepted",
            "  inset   10       inset on every side, points  -",
        ])
        let unknown = try demo(["render", "--style", "fixture-z", "--size", "40x40", "--progress", "1",
                                "--output", dir + "/none.png"], environment: env)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderrLines.count, 1, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("no style named 'fixture-z' (available: fixture-a, fixture-b, fixture-c"), unknown.stderr)
        for library in [a, b, c] {
            XCTAssertEqual(Support.constructorRuns(library), 0, "listing, describing and a lookup loaded \(library)")
        }

        // --style NAME: only the chosen library is loaded, and its entry runs once.
        let output = dir + "/b.png"
        let rendered = try demo(["render", "--style", "fixture-b", "--style-option", "inset=20", "--size", "100x100",
                                 "--progress", "1", "--output", output], environment: env)
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(rendered.stderr, "")
        XCTAssertEqual(Support.constructorRuns(b), 1)
        XCTAssertEqual(Support.entryCalls(b + ".entry-called"), 1)
        XCTAssertEqual(Support.constructorRuns(a), 0)
        XCTAssertEqual(Support.constructorRuns(c), 0)
        // …and draws it: the card is the container inset by 20 on every side.
        let image = try Image(pngFile: output)
        XCTAssertNotEqual(image.pixel(x: 25, y: 50), image.pixel(x: 15, y: 50), "the card's edge at x = 20")
    }

    /// The dynamic loader's own record of the files it opens (ld.so(8), LD_DEBUG=files): the
    /// built-in styles are listed and described without loading any, and `render --style NAME`
    /// loads exactly one style library, through the descriptor its checks read (`/proc/self/fd/N`).
    func testTheDynamicLoaderOpensNoStyleToListAndExactlyOneToRender() throws {
        func styleLibrariesOpened(_ arguments: [String]) throws -> [String] {
            let r = try demo(arguments, environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(r.status, 0, String(r.stderr.suffix(2000)))
            var opened: [String] = []
            for line in r.stderrLines where line.contains("file=") && line.contains("dynamically loaded by") {
                guard let start = line.range(of: "file=")?.upperBound else { continue }
                let path = String(line[start...].prefix { $0 != " " })
                if (path.contains("libModalKitStyle") || path.hasPrefix("/proc/self/fd/")) && !opened.contains(path) {
                    opened.append(path)
                }
            }
            return opened
        }
        XCTAssertEqual(try styleLibrariesOpened(["--list-styles"]), [])
        XCTAssertEqual(try styleLibrariesOpened(["--describe-style", "bottom-sheet"]), [])
        let dir = try Support.temporaryDirectory(self, "ld-debug")
        let rendered = try styleLibrariesOpened(["render", "--style", "inset-centered", "--size", "60x60", "--progress", "1",
                                                 "--output", dir + "/x.png"])
        XCTAssertEqual(rendered.count, 1, "\(rendered)")
        XCTAssertTrue(rendered.first?.hasPrefix("/proc/self/fd/") ?? false, "the checked descriptor: \(rendered)")
    }

    /// Every built-in library carries a note, and it says exactly what the loaded library does.
    func testBuiltInStylesCarryNotesThatMatchTheirDescriptors() throws {
        let loader = StyleLoader(searchPath: [try Support.stylesDirectory()])
        let listing = loader.list()
        XCTAssertEqual(Set(listing.found.map(\.name)), ["inset-centered", "bottom-sheet", "adaptive", "popover", "alert"])
        XCTAssertEqual(listing.found.map(\.source), Array(repeating: .note, count: 5))
        XCTAssertEqual(listing.withoutNote, [])
        XCTAssertEqual(listing.refused, [], "the build directory is the user's own")
        XCTAssertEqual(listing.failed, [])
        for style in listing.found {
            let module = try loader.load(style.name)
            XCTAssertEqual(module.metadataSource, .note)
            XCTAssertEqual(module.declaration, style.declaration, style.name)
        }
    }

    // MARK: Libraries without a note

    /// A library built before ModalKit wrote notes (the ABI 1.0 fixture, from the 1.0 header):
    /// listed on a `#` line without being loaded, not found by a name (nothing of it runs to read
    /// one), and it still works named by its path.
    func testA10PluginWithoutANoteIsListedAsSuchAndStillLoadsByPath() throws {
        let dir = try Support.temporaryDirectory(self, "no-note")
        let old = try Support.compileFixture("libModalKitStyleOld.so", in: dir, headers: Support.abi10HeaderDirectory)
        let listed = try demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": dir])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertFalse(listed.stdoutLines.contains { $0.hasPrefix("c-fixture\t") }, listed.stdout)
        XCTAssertTrue(listed.stdoutLines.contains("# no-note\t\(old.library)\tno .note.modalkit note, so nothing of it was read: "
                                                  + "load it by path, or rebuild it"), listed.stdout)
        let listing = StyleLoader(searchPath: [dir]).list()
        XCTAssertEqual(listing.withoutNote, [old.library])
        XCTAssertEqual(Support.constructorRuns(old.library), 0)
        let byName = try demo(["render", "--style", "c-fixture", "--size", "60x60", "--progress", "1",
                               "--output", dir + "/old.png"], environment: ["MODALKIT_STYLE_PATH": dir])
        XCTAssertEqual(byName.status, 2)
        XCTAssertEqual(Support.constructorRuns(old.library), 0)
        let rendered = try demo(["render", "--style", old.library, "--size", "60x60", "--progress", "1",
                                 "--output", dir + "/old.png"])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(rendered.stderr, "")
        XCTAssertEqual(try StyleLoader(searchPath: []).load(old.library).abiVersion, StyleABIVersion(major: 1, minor: 0))
    }

    // MARK: The note and the library must agree

    /// A note that says something else than the library (here: another default, another name) is
    /// found by the listing — which believes the note, running nothing — but the library is
    /// refused when chosen, with one line naming the difference.
    func testANoteThatDisagreesWithItsLibraryIsRefusedWhenChosen() throws {
        let dir = try Support.temporaryDirectory(self, "mismatch")
        var lying = Support.fixtureDeclaration()
        lying.options[0].defaultValue = "12"
        let library = try notedFixture("libModalKitStyleLying.so", in: dir, note: lying)
        let listed = try demo(["--describe-style", library])
        XCTAssertTrue(listed.stdout.contains("  inset   12 "), "the note's word, nothing ran: \(listed.stdout)")
        XCTAssertEqual(Support.constructorRuns(library), 0)

        let output = dir + "/x.png"
        let r = try demo(["render", "--style", library, "--size", "40x40", "--progress", "1", "--output", output])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderrLines, ["modal-demo: \(library): its .note.modalkit note does not match what the library says "
                                       + "when loaded: option 'inset' has default '12' in the note, '10' in the library"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))

        var renamed = Support.fixtureDeclaration(name: "other-name")
        renamed.summary = "C fixture: container inset on every side, dim 0.3"
        let misnamed = try Support.compileFixture("libModalKitStyleMisnamed.so", in: dir, note: StyleNote.note(for: renamed)).library
        let byName = try demo(["render", "--style", "other-name", "--size", "40x40", "--progress", "1", "--output", output],
                              environment: ["MODALKIT_STYLE_PATH": dir])
        XCTAssertEqual(byName.status, 2)
        XCTAssertEqual(byName.stderrLines, ["modal-demo: \(misnamed): its .note.modalkit note does not match what the library says "
                                            + "when loaded: name 'other-name' in the note, 'c-fixture' in the library"])
    }

    /// A note for an ABI this host does not speak: refused from the note alone — the library is
    /// never loaded, not even to list it.
    func testANoteForANewerABIIsRefusedWithoutLoadingTheLibrary() throws {
        let dir = try Support.temporaryDirectory(self, "note-abi")
        var newer = Support.fixtureDeclaration()
        let host = StyleABIVersion.current
        newer.abiVersion = StyleABIVersion(major: host.major, minor: host.minor + 1)
        let library = try notedFixture("libModalKitStyleNewer.so", in: dir, note: newer)
        let listed = try demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": dir])
        XCTAssertTrue(listed.stdoutLines.contains("# failed\t\(library)\tbuilt for style ABI \(newer.abiVersion), newer than "
                                                  + "this host's ABI \(host)"), listed.stdout)
        let r = try demo(["render", "--style", library, "--size", "40x40", "--progress", "1", "--output", dir + "/x.png"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
        XCTAssertEqual(Support.constructorRuns(library), 0, "refused before dlopen")
    }

    /// A note whose payload cannot be read: the library is listed as failed with why, and never
    /// loaded.
    func testAnUnreadableNoteIsAFailureNotALoad() throws {
        let dir = try Support.temporaryDirectory(self, "bad-note")
        var note = StyleNote.note(for: Support.fixtureDeclaration())
        note[24] = 9   // the payload's format word (after the 12-byte header and the 12-byte owner)
        let library = try Support.compileFixture("libModalKitStyleBadNote.so", in: dir, note: note).library
        let listing = StyleLoader(searchPath: [dir]).list()
        XCTAssertEqual(listing.failed, [FailedStyleLibrary(path: library, error: .badNote(path: library, problem: .unknownFormat(9)))])
        XCTAssertEqual(listing.failed.first?.error.reason, "unreadable .note.modalkit note: note format 9, this host reads format 1")
        XCTAssertEqual(Support.constructorRuns(library), 0)
    }

    // MARK: Shadowing

    /// Two libraries declare the same name: the first on the path wins, `--style NAME` says so on
    /// one stderr line naming both, and the shadowed one is never loaded.
    func testStyleNameThatTwoLibrariesDeclareSaysWhichOneIsUsedOnOneLine() throws {
        let first = try Support.temporaryDirectory(self, "shadow-first")
        let second = try Support.temporaryDirectory(self, "shadow-second")
        let used = try notedFixture("libModalKitStyleFixture.so", in: first)
        let hidden = try notedFixture("libModalKitStyleFixture.so", in: second)
        let r = try demo(["render", "--style", "c-fixture", "--size", "40x40", "--progress", "1", "--output", first + "/x.png"],
                         environment: ["MODALKIT_STYLE_PATH": first + ":" + second])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderrLines, ["modal-demo: using \(used) for style 'c-fixture'; it shadows \(hidden) "
                                       + "(the same name later on the style path)"])
        XCTAssertEqual(Support.constructorRuns(used), 1)
        XCTAssertEqual(Support.constructorRuns(hidden), 0)
        let listed = try demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": first + ":" + second])
        XCTAssertTrue(listed.stdoutLines.contains("# shadowed\t\(hidden)\tc-fixture\t\(used)"), listed.stdout)
        XCTAssertEqual(listed.stderr, "")
    }

    // MARK: The payload format

    /// Encoded and read back unchanged, every kind of option; fields of a later version (unknown
    /// tags, top-level and inside an option) are skipped; a payload cut short or of another
    /// format is refused with why.
    func testThePayloadRoundTripsAndSkipsUnknownFields() throws {
        let declaration = StyleDeclaration(name: "every-kind", summary: "all the option kinds", abiVersion: .current, options: [
            .number("inset", "inset on every side", unit: "points", default: 10, in: 0...100),
            .choice("edge", "the edge it hangs from", default: "left", among: ["left", "right"]),
            .color("tint", "the dim's colour", default: "#000000"),
            .curve(),
            StyleOption(key: "note", summary: "a remark", defaultValue: "", unit: "", accepted: .text("any words")),
            StyleOption(key: "plain", summary: "ABI 1.0's three fields", defaultValue: "x"),
        ])
        let payload = StyleNote.payload(for: declaration)
        XCTAssertEqual(payload.count % 4, 0)
        XCTAssertEqual(Array(payload.prefix(16)), [1, 0, 0, 0, 1, 0, 0, 0, UInt8(StyleABIVersion.current.minor), 0, 0, 0, 0, 0, 0, 0],
                       "format 1, ABI major, minor, reserved: little-endian words")
        XCTAssertEqual(try StyleNote.declaration(fromPayload: payload), declaration)

        // A later version's field (tag 99, 5 bytes and its padding) at the top level, and one
        // (tag 77) appended inside the first option: both skipped.
        var extended = Array(payload.prefix(16)) + [99, 0, 0, 0, 5, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0] + Array(payload.dropFirst(16))
        let option = fieldOffsets(extended).first { word(extended, $0) == 3 }!
        let length = word(extended, option + 4)
        let inner: [UInt8] = [77, 0, 0, 0, 2, 0, 0, 0, 9, 9, 0, 0]
        extended.replaceSubrange((option + 4)..<(option + 8),
                                 with: withUnsafeBytes(of: UInt32(length + inner.count).littleEndian) { Array($0) })
        extended.insert(contentsOf: inner, at: option + 8 + length)
        XCTAssertEqual(try StyleNote.declaration(fromPayload: extended), declaration)

        // Cut short: the last field runs past the end.
        XCTAssertThrowsError(try StyleNote.declaration(fromPayload: Array(payload.dropLast(4)))) {
            XCTAssertEqual($0 as? StyleNoteProblem, .fieldPastEnd(offset: self.fieldOffsets(payload).last!))
        }
        var format2 = payload
        format2[0] = 2
        XCTAssertThrowsError(try StyleNote.declaration(fromPayload: format2)) {
            XCTAssertEqual($0 as? StyleNoteProblem, .unknownFormat(2))
        }
        XCTAssertThrowsError(try StyleNote.declaration(fromPayload: Array(payload.prefix(10)))) {
            XCTAssertEqual($0 as? StyleNoteProblem, .truncated(10))
        }
    }

    /// A little-endian word of a payload.
    private func word(_ bytes: [UInt8], _ i: Int) -> Int {
        Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
    }

    /// The byte offsets of a payload's top-level fields.
    private func fieldOffsets(_ payload: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var at = 16
        while at < payload.count { offsets.append(at); at += 8 + (word(payload, at + 4) + 3) / 4 * 4 }
        return offsets
    }
}
