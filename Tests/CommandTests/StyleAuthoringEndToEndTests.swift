// The style-authoring tools through the installed `modal-demo`: `new-style` → `swift build` → `render`
// (three commands from nothing to a picture), the build-time guard for a missing entry,
// `preview` (an animated WebP decoded with libwebp, frame k against `render --progress k/(n−1)`,
// and `--strip`), `--describe-style`, option metadata across the C ABI (1.1 fields; a 1.0 plugin's
// shorter option records), and the "no style named" line naming a misnamed library.
import Foundation
import ModalKitDemo
import ModalKit
import ModalKitTestHarness
import ModalKitPlugins
import XCTest

final class StyleAuthoringEndToEndTests: XCTestCase {
    typealias Support = PluginTestSupport

    private func demo(_ arguments: [String], environment: [String: String?] = [:]) throws -> Support.RunResult {
        try PluginCLITests.demo(arguments, environment: environment)
    }

    private func rgb(_ image: Image, _ x: Int, _ y: Int) -> [Int] {
        let p = image.pixel(x: x, y: y)
        return [Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF)]
    }

    private func assertNear(_ got: [Int], _ expected: [Double], tolerance: Double = 2, _ what: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(zip(got, expected).allSatisfy { abs(Double($0) - $1) <= tolerance },
                      "\(what): got \(got), expected \(expected.map { $0.rounded() }) ±\(tolerance)", file: file, line: line)
    }

    // MARK: new-style

    func testNewStyleBuildsAndRendersTheSideDrawerAndAMissingEntryFailsTheBuild() throws {
        let (directory, made) = try Support.freshPackage("side-drawer", for: self)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(made.stderr, "")
        // Four files: the manifest, the style (with its entry), the README and .gitignore.
        let written = try XCTUnwrap(FileManager.default.enumerator(atPath: directory)).compactMap { $0 as? String }
            .filter { !$0.hasPrefix(".build") && !$0.hasSuffix(".lock") }
            .filter { var d: ObjCBool = false; return FileManager.default.fileExists(atPath: directory + "/" + $0, isDirectory: &d) && !d.boolValue }
        XCTAssertEqual(written.sorted(), [".gitignore", "Package.swift", "README.md", "Sources/SideDrawerStyle/SideDrawerStyle.swift"])
        let manifest = try String(contentsOfFile: directory + "/Package.swift", encoding: .utf8)
        let modalKit = try InstalledProducts.prefix() + "/share/modalkit/ModalKit"
        XCTAssertTrue(manifest.contains(".package(name: \"ModalKit\", path: \"\(modalKit)\")"),
                      "depends on the installed ModalKit package by path: \(manifest)")

        // 2. swift build → .build/debug/libModalKitStyleSideDrawer.so
        let build = try Support.swiftBuild(directory)
        XCTAssertEqual(build.status, 0, String((build.stdout + build.stderr).suffix(3000)))
        let library = directory + "/.build/debug/libModalKitStyleSideDrawer.so"
        XCTAssertTrue(FileManager.default.fileExists(atPath: library))

        // 3. render. The drawer at 390×844: a panel 273 wide (70 %) at the left edge, full height,
        // right corners 12, over a black dim of 0.3; at linear progress 0.5 it is halfway in.
        let dir = try Support.temporaryDirectory(self, "new-style")
        func render(_ progress: String) throws -> Image {
            let output = dir + "/p\(progress).png"
            let r = try demo(["render", "--style", library, "--style-option", "curve=linear", "--size", "390x844",
                              "--progress", progress, "--output", output])
            XCTAssertEqual(r.status, 0, r.stderr)
            return try Image(pngFile: output)
        }
        let start = try render("0"), half = try render("0.5"), end = try render("1")
        let y = 500
        func dimmed(_ x: Int, _ y: Int, _ alpha: Double) -> [Double] { rgb(start, x, y).map { Double($0) * (1 - alpha) } }
        assertNear(rgb(end, 300, y), dimmed(300, y, 0.3), "right of the panel: the 0.3 dim")
        assertNear(rgb(end, 274, y), dimmed(274, y, 0.3), "just right of the panel's edge (x = 273)")
        XCTAssertGreaterThan(abs(rgb(end, 271, y)[0] - Int(dimmed(271, y, 0.3)[0])), 20, "just inside: the panel")
        assertNear(rgb(end, 272, 0), dimmed(272, 0, 0.3), "top-right corner rounded: the dim shows")
        XCTAssertGreaterThan(abs(rgb(end, 1, 0)[0] - Int(dimmed(1, 0, 0.3)[0])), 20, "top-left corner square: the panel")
        assertNear(rgb(half, 200, y), dimmed(200, y, 0.15), "at 0.5 the panel's right edge is at 136.5; dim 0.15")
        XCTAssertGreaterThan(abs(rgb(half, 130, y)[0] - Int(dimmed(130, y, 0.15)[0])), 20, "left of 136: the panel")

        // Its options, as declared, through --describe-style.
        let described = try demo(["--describe-style", library])
        XCTAssertEqual(described.status, 0, described.stderr)
        XCTAssertEqual(Array(described.stdoutLines.prefix(4)),
                       ["name: side-drawer", "path: \(library)", "abi: \(StyleABIVersion.current)",
                        "summary: panel 70 % wide slides in from the left edge over a black dim 0 → 0.3"])
        XCTAssertTrue(described.stdout.contains("  corner-radius  12           radius of the right corners, points       0 to 100\n"),
                      described.stdout)

        // What --describe-style printed came from the library's note, which the build wrote from
        // the style's declarations; an incremental build after changing a default writes it anew.
        XCTAssertEqual(try StyleLoader(searchPath: []).find(library).metadata.source, .note)
        // --list-styles reads that note: the style's line, not a `# no-note` one.
        let listed = try demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": directory + "/.build/debug"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdoutLines.contains(
            "side-drawer\t\(library)\tpanel 70 % wide slides in from the left edge over a black dim 0 → 0.3"), listed.stdout)
        XCTAssertFalse(listed.stdout.contains("# no-note"), listed.stdout)
        let styleFile = directory + "/Sources/SideDrawerStyle/SideDrawerStyle.swift"
        let styleText = try String(contentsOfFile: styleFile, encoding: .utf8)
        let changed = styleText.replacingOccurrences(of: "\"radius of the right corners\", unit: \"points\", default: 12,",
                                                     with: "\"radius of the right corners\", unit: \"points\", default: 16,")
        XCTAssertNotEqual(changed, styleText)
        try changed.write(toFile: styleFile, atomically: false, encoding: .utf8)
        defer { try? styleText.write(toFile: styleFile, atomically: false, encoding: .utf8) }
        let rebuilt = try Support.swiftBuild(directory)
        XCTAssertEqual(rebuilt.status, 0, String((rebuilt.stdout + rebuilt.stderr).suffix(3000)))
        let redescribed = try demo(["--describe-style", library])
        XCTAssertTrue(redescribed.stdout.contains("  corner-radius  16           radius of the right corners, points       0 to 100\n"),
                      redescribed.stdout)
        XCTAssertEqual(try StyleLoader(searchPath: []).load(library).options.first { $0.key == "corner-radius" }?.defaultValue, "16",
                       "the loaded library agrees with its new note")
        try styleText.write(toFile: styleFile, atomically: false, encoding: .utf8)
        let restored = try Support.swiftBuild(directory)
        XCTAssertEqual(restored.status, 0, String((restored.stdout + restored.stderr).suffix(3000)))

        // A tap right of the panel dismisses; dismiss-point finds one there.
        let point = try demo(["dismiss-point", "--style", library, "--size", "390x844"])
        let xy = point.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(xy.count, 2, point.stdout + point.stderr)
        XCTAssertGreaterThanOrEqual(xy.first ?? 0, 273, "right of the panel")

        // Guard rail: without the entry function the build fails, in the note step, naming the function.
        let entryless = try XCTUnwrap(styleText.range(of: "\n/// The one symbol the host looks up")).lowerBound
        try String(styleText[..<entryless]).write(toFile: styleFile, atomically: false, encoding: .utf8)
        let broken = try Support.swiftBuild(directory)
        XCTAssertNotEqual(broken.status, 0, "a style without modalkit_style_entry must not build")
        XCTAssertTrue((broken.stdout + broken.stderr).contains("error: SideDrawerStyle defines no modalkit_style_entry function"),
                      String((broken.stdout + broken.stderr).suffix(3000)))
        try styleText.write(toFile: styleFile, atomically: false, encoding: .utf8)
    }

    func testNewStyleRefusesBadNamesAndDirectoriesWithOneLineAndWritesNothing() throws {
        let dir = try Support.temporaryDirectory(self, "new-style-bad")
        for name in ["", "side drawer", "side/drawer", "SideDrawer"] {
            let r = try demo(["new-style", name, "--directory", dir + "/out"])
            XCTAssertEqual(r.status, 2, "'\(name)': \(r.stderr)")
            XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("modal-demo: bad style name '\(name)'"), r.stderr)
            XCTAssertEqual(r.stdout, "")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out"), "nothing written for '\(name)'")
        }
        try FileManager.default.createDirectory(atPath: dir + "/full", withIntermediateDirectories: false)
        try "mine".write(toFile: dir + "/full/notes.txt", atomically: false, encoding: .utf8)
        let r = try demo(["new-style", "side-drawer", "--directory", dir + "/full"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderrLines, ["modal-demo: directory '\(dir)/full' is not empty (new-style writes only into a new or empty directory)"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/full"), ["notes.txt"], "nothing written")
    }

    // MARK: preview

    /// Every frame of the animated WebP equals `render` of its phase at k/(n−1) within ±2 per
    /// channel (lossless WebP stores the 8-bit RGB exactly, so in practice 0).
    func testPreviewFrameKEqualsRenderAtKOverNMinusOne() throws {
        let dir = try Support.temporaryDirectory(self, "preview")
        let webp = dir + "/sheet.webp"
        let common = ["--style", "bottom-sheet", "--style-option", "dim-alpha=0.45", "--size", "120x200"]
        let made = try demo(["preview"] + common + ["--fps", "20", "--hold", "0.25", "--output", webp])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(made.stderr, "")
        let animation = try XCTUnwrap(DecodedAnimation(path: webp), "libwebp decodes it")
        XCTAssertEqual([animation.width, animation.height], [120, 200])
        // 0.35 s at 20 fps: round(7) = 7 intervals, n = 8 frames per transition, 50 ms each.
        let timeline = PreviewTimeline(duration: 0.35, fps: 20, hold: 0.25)
        XCTAssertEqual(timeline.framesPerTransition, 8)
        XCTAssertEqual(animation.frames.last?.end, timeline.start(of: 16), "the whole cycle: 16 × 50 ms + 2 × 250 ms")
        XCTAssertEqual(timeline.start(of: 16), 1300)
        for i in 0..<timeline.frameCount {
            let (phase, progress) = timeline.frame(i)
            let k = i % timeline.framesPerTransition
            let png = dir + "/render-\(i).png"
            let r = try demo(["render"] + common + ["--phase", phase == .present ? "present" : "dismiss",
                                                    "--progress", String(Double(k) / 7),
                                                    "--output", png])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(progress, Double(k) / 7)
            var expected: [UInt8] = []
            try Image(pngFile: png).straightRGBA(into: &expected)
            let shown = try XCTUnwrap(animation.frame(at: timeline.start(of: i)), "frame \(i) at \(timeline.start(of: i)) ms")
            let worst = zip(shown, expected).map { abs(Int($0) - Int($1)) }.max() ?? 255
            XCTAssertLessThanOrEqual(worst, 2, "frame \(i) (\(phase) k=\(k)) differs from render by \(worst)")
            XCTAssertEqual(shown.count, expected.count)
        }
        // Frames move: the presented frame is not the first.
        XCTAssertNotEqual(animation.frame(at: 0), animation.frame(at: timeline.start(of: 7)))
    }

    func testPreviewStripIsTheFramesSideBySide() throws {
        let dir = try Support.temporaryDirectory(self, "strip")
        let strip = dir + "/strip.png"
        let common = ["--style", "inset-centered", "--size", "60x100"]
        let r = try demo(["preview"] + common + ["--strip", "4", "--output", strip])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try Image(pngFile: strip)
        XCTAssertEqual([image.width, image.height], [240, 100])
        let timeline = PreviewTimeline(duration: 0.35, fps: 30, hold: 0.5)
        for (slot, i) in timeline.stripFrames(count: 4).enumerated() {
            let (phase, progress) = timeline.frame(i)
            let png = dir + "/f\(slot).png"
            let one = try demo(["render"] + common + ["--phase", phase == .present ? "present" : "dismiss",
                                                      "--progress", String(progress), "--output", png])
            XCTAssertEqual(one.status, 0, one.stderr)
            let frame = try Image(pngFile: png)
            var worst = 0
            for y in stride(from: 0, to: 100, by: 3) {
                for x in stride(from: 0, to: 60, by: 3) {
                    worst = max(worst, zip(rgb(image, slot * 60 + x, y), rgb(frame, x, y)).map { abs($0 - $1) }.max()!)
                }
            }
            XCTAssertEqual(worst, 0, "slot \(slot) is frame \(i)")
        }
    }

    func testPreviewIntoADirectoryThatDoesNotExistIsOneLineAndStatusOne() throws {
        let dir = try Support.temporaryDirectory(self, "preview-bad")
        for (output, extra) in [(dir + "/missing/a.webp", [String]()), (dir + "/missing/s.png", ["--strip", "3"])] {
            let r = try demo(["preview", "--size", "40x60", "--output", output] + extra)
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(output), r.stderr)
        }
        let bad = try demo(["preview", "--style", "inset-centered", "--style-option", "dim-alpha=2", "--size", "40x60",
                            "--output", dir + "/x.webp"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderrLines.count, 1, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("bad value '2' for style option 'dim-alpha' (expected a number from 0 to 1)"), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/x.webp"))
    }

    // MARK: Options across the ABI

    func testOptionMetadataCrossesTheABIAndDescribeStyleShowsIt() throws {
        let dir = try Support.temporaryDirectory(self, "meta")
        let fixture = try Support.compileFixture("libModalKitStyleMeta.so", in: dir, defines: ["FIXTURE_OPTIONS_1_1"])
        let module = try StyleLoader(searchPath: []).load(fixture.library)
        XCTAssertEqual(module.options, [
            StyleOption(key: "inset", summary: "inset on every side", defaultValue: "10", unit: "points", accepted: .number(0...100)),
            StyleOption(key: "edge", summary: "the edge it hangs from", defaultValue: "left", unit: "", accepted: .choice(["left", "right"])),
            StyleOption(key: "tint", summary: "the dim's colour", defaultValue: "#000000", unit: "", accepted: .color),
            StyleOption(key: "note", summary: "a remark", defaultValue: "", unit: "", accepted: .text("any words")),
        ])
        let described = try demo(["--describe-style", fixture.library])
        XCTAssertEqual(described.status, 0, described.stderr)
        XCTAssertEqual(described.stdoutLines, [
            "name: c-fixture", "path: \(fixture.library)", "abi: \(StyleABIVersion.current)",
            "summary: C fixture: container inset on every side, dim 0.3", "options:",
            "  option  default  meaning                      accepted",
            "  inset   10       inset on every side, points  0 to 100",
            "  edge    left     the edge it hangs from       left, right",
            "  tint    #000000  the dim's colour             #RRGGBB or #RRGGBBAA",
            "  note             a remark                     any words",
        ])
        // An unknown key names the nearest declared key and lists every option with its meaning.
        let rejected = try demo(["render", "--style", fixture.library, "--style-option", "inzet=1", "--size", "10x10",
                                 "--progress", "1", "--output", dir + "/x.png"])
        XCTAssertEqual(rejected.status, 2)
        XCTAssertEqual(rejected.stderrLines, ["modal-demo: \(fixture.library): style 'c-fixture' has no option 'inzet'; did you mean 'inset'? (options: "
            + "inset (inset on every side, points), edge (the edge it hangs from), tint (the dim's colour), note (a remark))"])
    }

    /// A 1.0 plugin's option records are three pointers long (option_size 24): the host reads
    /// each at that stride and none of the 1.1 fields, which would be the next record's key.
    func testABI10OptionRecordsAreReadAtTheirOwnStrideWithoutTheNewFields() throws {
        let dir = try Support.temporaryDirectory(self, "abi10")
        let plain = [StyleOption(key: "inset", summary: "inset on every side, points", defaultValue: "10"),
                     StyleOption(key: "tint", summary: "a second option right behind the first", defaultValue: "#000000")]
        let old = try Support.compileFixture("libModalKitStyleOld.so", in: dir, defines: ["FIXTURE_OPTIONS_1_0", "FIXTURE_MINOR=0"])
        let module = try StyleLoader(searchPath: []).load(old.library)
        XCTAssertEqual(module.abiVersion, StyleABIVersion(major: 1, minor: 0))
        XCTAssertEqual(module.options, plain)
        let style = try module.makeStyle(options: ["inset": "20"])
        XCTAssertEqual(style.frameOfPresentedView(layoutContext(Rect(x: 0, y: 0, width: 100, height: 100))), Rect(x: 20, y: 20, width: 60, height: 60))
        let described = try demo(["--describe-style", old.library])
        XCTAssertEqual(described.status, 0, described.stderr)
        XCTAssertTrue(described.stdoutLines.contains("abi: 1.0"))
        XCTAssertTrue(described.stdoutLines.contains("  inset   10       inset on every side, points             -"), described.stdout)

        // Built with the 1.1 header but claiming minor 0: the 1.1 fields are not read either.
        let claims10 = try Support.compileFixture("libModalKitStyleClaims.so", in: dir, defines: ["FIXTURE_OPTIONS_1_1", "FIXTURE_MINOR=0"])
        XCTAssertEqual(try StyleLoader(searchPath: []).load(claims10.library).options.map(\.accepted), Array(repeating: .text(""), count: 4))
        // Minor 1 with 1.0-sized records: only the three fields.
        let short = try Support.compileFixture("libModalKitStyleShort.so", in: dir, defines: ["FIXTURE_OPTIONS_1_0"])
        XCTAssertEqual(try StyleLoader(searchPath: []).load(short.library).options, plain)
    }

    // MARK: Name lookup

    func testNoStyleNamedLineMentionsALibraryWithTheWrongFileName() throws {
        let dir = try Support.temporaryDirectory(self, "misnamed")
        try Support.copy(try Support.installedLibrary(Support.bottomSheetLibrary), to: dir + "/libSideDrawer.so")
        try Support.copy(try Support.installedLibrary(Support.bottomSheetLibrary), to: dir + "/libUnrelated.so")
        let r = try demo(["render", "--style", "side-drawer", "--size", "10x10", "--progress", "1", "--output", dir + "/x.png"],
                         environment: ["MODALKIT_STYLE_PATH": dir])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
        let line = r.stderrLines.first ?? ""
        XCTAssertTrue(line.hasPrefix("modal-demo: no style named 'side-drawer' (available: "), line)
        XCTAssertTrue(line.hasSuffix("; \(dir)/libSideDrawer.so is not looked at: a style library's file name must start "
                                     + "with libModalKitStyle (rename it, or give its path to --style)"), line)
        XCTAssertFalse(line.contains("libUnrelated"), line)
        let plain = try demo(["render", "--style", "no-such", "--size", "10x10", "--progress", "1", "--output", dir + "/x.png"],
                             environment: ["MODALKIT_STYLE_PATH": dir])
        XCTAssertFalse(plain.stderr.contains("not looked at"), "nothing resembles 'no-such': \(plain.stderr)")
    }

    // MARK: the article "Built-in styles"

    /// The option tables in the article "Built-in styles" are the built-in styles' declarations: key,
    /// default, meaning with unit, accepted values (a curve: "a timing curve, below", where the syntax is).
    func testBuiltInStylesArticleOptionTablesAreTheDeclarations() throws {
        let path = Support.packageRoot + "/Sources/ModalKit/ModalKit.docc/BuiltInStyles.md"
        let readme = try String(contentsOfFile: path, encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for name in ["inset-centered", "bottom-sheet", "adaptive", "alert"] {
            let module = try StyleLoader(searchPath: [Support.stylesDirectory()]).load(name)
            guard let heading = lines.firstIndex(where: { $0.hasPrefix("**\(name)**") }),
                  let header = lines[heading...].firstIndex(of: "| option | default | meaning | accepted |") else {
                return XCTFail("no option table for \(name) in \(path)")
            }
            let rows = lines[(header + 2)...].prefix { $0.hasPrefix("| ") }
            let expected = module.options.map { o in
                "| `\(o.key)` | \(o.defaultValue) | \(o.meaning) | \(o.accepted == .curve ? "a timing curve, below" : o.acceptedDescription) |"
            }
            XCTAssertEqual(Array(rows), expected, name)
        }
    }

    // MARK: --help

    func testHelpPointsToDescribeStyle() throws {
        let r = try demo(["--help"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("--describe-style NAME lists a style's options"), r.stdout)
        let both = try demo(["--duration", "1", "--style", "inset-centered", "--style-option", "duration=2"])
        XCTAssertEqual(both.status, 2)
        XCTAssertEqual(both.stderrLines, ["modal-demo: --duration and --style-option duration=... both set the duration; give one of them"])
    }
}
