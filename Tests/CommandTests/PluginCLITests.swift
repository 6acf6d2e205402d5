// The style plugins through the `modal-demo` command line (--style, --style-option, --list-styles;
// docs/design.md, command line): the installed release `modal-demo` (``InstalledProducts``) is run
// as a user would. Bad plugins — missing, not a library, no entry symbol, empty name (docs/design.md, rules
// from the field, 5) — and other bad style input: exit status 2, exactly one stderr line naming the
// path and the cause, nothing else written, and a rejected plugin's entry never runs.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKit
import ModalKitPlugins

final class PluginCLITests: XCTestCase {
    typealias Support = PluginTestSupport

    /// The installed modal-demo (``InstalledProducts``).
    static var demoPath: String { get throws { try InstalledProducts.demo() } }

    /// Runs the installed modal-demo with no style path and no Wayland session (``PluginTestSupport/runDemo(_:environment:currentDirectory:)``).
    static func demo(_ arguments: [String], environment: [String: String?] = [:],
                     currentDirectory: String? = nil) throws -> PluginTestSupport.RunResult {
        try Support.runDemo(arguments, environment: environment, currentDirectory: currentDirectory)
    }

    /// `render` with `style`; the style is loaded before anything is drawn.
    private func render(_ style: String, options: [String] = [], output: String) throws -> PluginTestSupport.RunResult {
        try Self.demo(["render", "--style", style] + options.flatMap { ["--style-option", $0] }
                      + ["--size", "120x200", "--progress", "1", "--output", output])
    }

    /// Asserts exit 2, one stderr line containing every string in `mentions`, no stdout, no output file.
    @discardableResult
    private func assertRejected(_ result: PluginTestSupport.RunResult, output: String? = nil, mentions: [String],
                                file: StaticString = #filePath, line: UInt = #line) -> String {
        XCTAssertEqual(result.status, 2, "exit status; stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderrLines.count, 1, "exactly one stderr line: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.hasSuffix("\n"), "a complete line", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        let message = result.stderrLines.first ?? ""
        for m in mentions { XCTAssertTrue(message.contains(m), "'\(message)' should mention '\(m)'", file: file, line: line) }
        if let output { XCTAssertFalse(FileManager.default.fileExists(atPath: output), "no output written", file: file, line: line) }
        return message
    }

    // MARK: --list-styles

    func testListStylesPrintsTheBuiltInStylesWithTheirLibraryPaths() throws {
        let styles = try Support.stylesDirectory()
        let result = try Self.demo(["--list-styles"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        for (name, file) in [("inset-centered", Support.insetCenteredLibrary), ("bottom-sheet", Support.bottomSheetLibrary),
                             ("popover", Support.popoverLibrary), ("adaptive", Support.adaptiveLibrary),
                             ("alert", "libModalKitStyleAlert.so")] {
            let fields = result.stdoutLines.first { $0.hasPrefix(name + "\t") }?.split(separator: "\t").map(String.init)
            XCTAssertEqual(fields?.count, 3, "NAME<TAB>PATH<TAB>DESCRIPTION in \(result.stdout)")
            XCTAssertEqual(fields?[1], styles + "/" + file)
        }
    }

    func testListStylesFollowsModalkitStylePathAndReportsShadowingAndFailures() throws {
        let dir = try Support.temporaryDirectory(self, "clipath")
        let fixture = try Support.compileFixture("libModalKitStyleFixture.so", in: dir,
                                                 note: StyleNote.note(for: Support.fixtureDeclaration()))
        let copy = dir + "/" + Support.bottomSheetLibrary
        try Support.copy(try Support.installedLibrary(Support.bottomSheetLibrary), to: copy)
        var claims7 = Support.fixtureDeclaration()
        claims7.abiVersion = StyleABIVersion(major: 7, minor: StyleABIVersion.current.minor)
        let broken = try Support.compileFixture("libModalKitStyleZBroken.so", in: dir, defines: ["FIXTURE_MAJOR=7"],
                                                note: StyleNote.note(for: claims7))
        let noNote = try Support.compileFixture("libModalKitStyleZNoNote.so", in: dir)

        let result = try Self.demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": ":" + dir + ":"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdoutLines
        XCTAssertEqual(lines.first { $0.hasPrefix("bottom-sheet\t") }?.split(separator: "\t")[1], Substring(copy),
                       "the copy on MODALKIT_STYLE_PATH comes before the installed styles")
        XCTAssertTrue(lines.contains { $0.hasPrefix("c-fixture\t\(fixture.library)\t") }, "\(lines)")
        XCTAssertTrue(lines.contains("# shadowed\t\(try Support.stylesDirectory())/\(Support.bottomSheetLibrary)\tbottom-sheet\t\(copy)"),
                      "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("# failed\t\(broken.library)\tbuilt for style ABI 7.") }, "\(lines)")
        XCTAssertTrue(lines.contains("# no-note\t\(noNote.library)\tno .note.modalkit note, so nothing of it was read: "
                                     + "load it by path, or rebuild it"), "\(lines)")
        XCTAssertEqual(Support.entryCalls(broken.marker), 0)
        XCTAssertEqual(Support.constructorRuns(fixture.library), 0, "listing reads notes and runs nothing")
        XCTAssertEqual(Support.constructorRuns(noNote.library), 0)
    }

    // MARK: Errors: exit 2 and one line

    func testStylePathThatDoesNotExist() throws {
        let dir = try Support.temporaryDirectory(self, "cli-none")
        let path = dir + "/libModalKitStyleMissing.so"
        assertRejected(try render(path, output: dir + "/out.png"), output: dir + "/out.png", mentions: [path, "no such file"])
    }

    func testTextFileNamedSO() throws {
        let dir = try Support.temporaryDirectory(self, "cli-text")
        let path = dir + "/libModalKitStyleText.so"
        try "#!/bin/sh\necho not a library\n".write(toFile: path, atomically: false, encoding: .utf8)
        let line = assertRejected(try render(path, output: dir + "/out.png"), output: dir + "/out.png",
                                  mentions: [path, "not a shared library"])
        XCTAssertTrue(line.contains("invalid ELF header") || line.contains("file too short"), "dlopen's own message: \(line)")
    }

    func testLibraryWithoutTheEntrySymbol() throws {
        let dir = try Support.temporaryDirectory(self, "cli-noentry")
        let fixture = try Support.compileFixture("libModalKitStyleNoEntry.so", in: dir, defines: ["FIXTURE_NO_ENTRY"])
        assertRejected(try render(fixture.library, output: dir + "/out.png"), output: dir + "/out.png",
                       mentions: [fixture.library, "modalkit_style_entry"])
    }

    func testABIMajorMismatchNamesBothVersionsAndTheEntryNeverRuns() throws {
        let dir = try Support.temporaryDirectory(self, "cli-major")
        let fixture = try Support.compileFixture("libModalKitStyleMajor.so", in: dir, defines: ["FIXTURE_MAJOR=2"])
        let host = StyleABIVersion.current
        assertRejected(try render(fixture.library, output: dir + "/out.png"), output: dir + "/out.png",
                       mentions: [fixture.library, "2.\(host.minor)", "\(host)"])
        XCTAssertEqual(Support.entryCalls(fixture.marker), 0, "the plugin's entry ran in modal-demo")
    }

    func testNewerMinorNamesBothVersionsAndTheEntryNeverRuns() throws {
        let dir = try Support.temporaryDirectory(self, "cli-minor")
        let host = StyleABIVersion.current
        let fixture = try Support.compileFixture("libModalKitStyleMinor.so", in: dir, defines: ["FIXTURE_MINOR=\(host.minor + 1)"])
        assertRejected(try render(fixture.library, output: dir + "/out.png"), output: dir + "/out.png",
                       mentions: [fixture.library, "\(host.major).\(host.minor + 1)", "\(host)"])
        XCTAssertEqual(Support.entryCalls(fixture.marker), 0)
    }

    func testBadStructSizeAndTheEntryNeverRuns() throws {
        let dir = try Support.temporaryDirectory(self, "cli-size")
        let fixture = try Support.compileFixture("libModalKitStyleSize.so", in: dir, defines: ["FIXTURE_DESCRIPTOR_SIZE=8"])
        assertRejected(try render(fixture.library, output: dir + "/out.png"), output: dir + "/out.png",
                       mentions: [fixture.library, "8 bytes"])
        XCTAssertEqual(Support.entryCalls(fixture.marker), 0)
    }

    func testUnresolvedSymbolIsRefusedAtLoadNotAtFirstCall() throws {
        let dir = try Support.temporaryDirectory(self, "cli-unresolved")
        let fixture = try Support.compileFixture("libModalKitStyleUnresolved.so", in: dir, defines: ["FIXTURE_UNRESOLVED"])
        assertRejected(try render(fixture.library, output: dir + "/out.png"), output: dir + "/out.png",
                       mentions: [fixture.library, "modalkit_fixture_function_nobody_defines"])
        XCTAssertEqual(Support.entryCalls(fixture.marker), 0)
    }

    /// `--style` with a copy of an installed style whose ELF e_machine says another machine: exit 2 and
    /// one line saying it is not a library for this machine, naming both (dlopen itself says
    /// "No such file or directory" for this file that exists).
    func testLibraryForAnotherMachineNamesBothMachines() throws {
        let dir = try Support.temporaryDirectory(self, "cli-machine")
        for (file, elf32) in [("libModalKitStyleForeign.so", false), ("libModalKitStyleForeign32.so", true)] {
            let path = try Support.foreignMachineCopy(in: dir, file: file, elf32: elf32)
            let library = elf32 ? "\(Support.hostMachine.name) (ELF32, little-endian)"
                : "\(Support.hostMachine.other) (ELF64, little-endian)"
            let line = assertRejected(try render(path, output: dir + "/out.png"), output: dir + "/out.png",
                                      mentions: [path, "not a shared library for this machine", "built for \(library)",
                                                 "this machine is \(Support.hostMachine.name) (ELF64, little-endian)"])
            XCTAssertFalse(line.contains("No such file"), line)
        }
    }

    /// A library with no `modalkit_style_entry` of its own but a DT_NEEDED on a real (built) style
    /// plugin, first on MODALKIT_STYLE_PATH: it has no note, so it is listed as such (not as that
    /// style, nothing of it loaded) and shadows nothing; by its path it is refused as no style.
    func testLibraryThatOnlyLinksAStylePluginIsListedWithoutANoteAndShadowsNothing() throws {
        let dir = try Support.temporaryDirectory(self, "cli-forwarder")
        let real = dir + "/" + Support.bottomSheetLibrary
        try Support.copy(try Support.installedLibrary(Support.bottomSheetLibrary), to: real)
        let forwarder = try Support.compileLibraryLinking(real, as: "libModalKitStyleABottomSheetLinker.so", in: dir)
        let result = try Self.demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": dir])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdoutLines
        XCTAssertEqual(lines.first { $0.hasPrefix("bottom-sheet\t") }?.split(separator: "\t")[1], Substring(real), "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("# no-note\t\(forwarder)\t") }, "\(lines)")
        XCTAssertFalse(lines.contains { $0.hasPrefix("# shadowed\t\(real)\t") || $0.hasSuffix("\t\(forwarder)") },
                       "the real plugin is not hidden, the forwarder hides nothing: \(lines)")
        let byPath = try Self.demo(["render", "--style", forwarder, "--size", "120x200", "--progress", "1",
                                    "--output", dir + "/out.png"])
        XCTAssertEqual(byPath.status, 2)
        XCTAssertTrue(byPath.stderr.contains("not a ModalKit style: no symbol 'modalkit_style_entry'"), byPath.stderr)
    }

    /// `--style NAME` when libraries on the style path failed to load: the one line also says how
    /// many and to run --list-styles for why (the style asked for is one of them here).
    func testUnknownStyleNameSaysHowManyLibrariesFailedToLoad() throws {
        let dir = try Support.temporaryDirectory(self, "cli-failed")
        var claims7 = Support.fixtureDeclaration()
        claims7.abiVersion = StyleABIVersion(major: 7, minor: StyleABIVersion.current.minor)
        _ = try Support.compileFixture("libModalKitStyleFixture.so", in: dir, defines: ["FIXTURE_MAJOR=7"],
                                       note: StyleNote.note(for: claims7))
        assertRejected(try Self.demo(["render", "--style", "c-fixture", "--size", "120x200", "--progress", "1",
                                      "--output", dir + "/out.png"], environment: ["MODALKIT_STYLE_PATH": dir]),
                       output: dir + "/out.png",
                       mentions: ["no style named 'c-fixture'", "1 library there failed to load", "--list-styles"])
    }

    func testEmptyStyleNameListsTheAvailableNames() throws {
        let dir = try Support.temporaryDirectory(self, "cli-empty")
        assertRejected(try render("", output: dir + "/out.png"), output: dir + "/out.png",
                       mentions: ["inset-centered", "bottom-sheet"])
    }

    func testUnknownStyleNameListsTheAvailableNames() throws {
        let dir = try Support.temporaryDirectory(self, "cli-unknown")
        let line = assertRejected(try render("top-banner", output: dir + "/out.png"), output: dir + "/out.png",
                                  mentions: ["top-banner", "inset-centered", "bottom-sheet"])
        XCTAssertFalse(line.contains("failed"), "no library failed, so nothing is said about failures: \(line)")
    }

    func testUnknownOptionKeyListsTheKeys() throws {
        let dir = try Support.temporaryDirectory(self, "cli-key")
        let keys = try StyleLoader(searchPath: [Support.stylesDirectory()]).load("inset-centered").options.map(\.key)
        assertRejected(try render("inset-centered", options: ["margin-z=4"], output: dir + "/out.png"),
                       output: dir + "/out.png", mentions: ["margin-z"] + keys)
    }

    /// A bad value names its option with that option's meaning (not the whole list: the line
    /// stays short).
    func testBadOptionValueNamesTheOptionWithItsMeaning() throws {
        let dir = try Support.temporaryDirectory(self, "cli-value")
        let line = assertRejected(try render("bottom-sheet", options: ["duration=soon"], output: dir + "/out.png"),
                                  output: dir + "/out.png", mentions: ["'soon'", "duration", "(duration (transition duration, seconds))"])
        XCTAssertFalse(line.contains("dim-alpha"), "only the option at fault: \(line)")
    }

    func testBadStyleIsReportedBeforeConnectingToACompositor() throws {
        // Window mode with no compositor: the style is a bad command line (2), found before the
        // connection would fail (1).
        let dir = try Support.temporaryDirectory(self, "cli-window")
        let path = dir + "/libModalKitStyleMissing.so"
        assertRejected(try Self.demo(["--style", path], environment: ["XDG_RUNTIME_DIR": dir]), mentions: [path])
    }

    // MARK: A style from another package, in the prebuilt demo

    func testExampleStyleRendersThroughThePrebuiltDemoAsTheEngineDrawsIt() throws {
        let library = try PluginExampleTests.exampleLibrary()
        let dir = try Support.temporaryDirectory(self, "cli-example")
        let module = try StyleLoader(searchPath: []).load(library)
        for progress in ["0.5", "1"] {
            let output = dir + "/fade-\(progress).png"
            let result = try Self.demo(["render", "--style", library, "--style-option", "curve=linear",
                                        "--size", "400x600", "--progress", progress, "--output", output])
            XCTAssertEqual(result.status, 0, result.stderr)
            // PluginExampleTests asserts these pixels against the style's rules; here the demo,
            // which was built without the example, must draw exactly the same frame.
            let expected = try PluginRendering.png(of: module.makeStyle(options: ["curve": "linear"]),
                                                   width: 400, height: 600, progress: Double(progress)!, in: dir)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), expected, "frame at \(progress)")
        }
    }
}

/// Frames drawn in-process through the engine, encoded like `modal-demo render` encodes them.
enum PluginRendering {
    static func png(of style: PresentationStyle, width: Int, height: Int, progress: Double,
                    phase: TransitionPhase = .present, in dir: String) throws -> Data {
        let scene = try DemoScene(style: style)
        scene.layout(containerSize: Size(width: Double(width), height: Double(height)), scale: 1)
        let image = try Image(width: width, height: height)
        scene.renderSnapshot(into: image.pixelBuffer, phase: phase, fraction: progress)
        let path = dir + "/expected-\(UUID().uuidString).png"
        try image.writePNG(to: path)
        defer { unlink(path) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
