import Foundation
import ModalKitDemo
import ModalKitStyleTemplate
import ModalKit
import XCTest

/// The style-authoring commands parsed in process (`--describe-style`, `new-style`, `preview`,
/// `--watch`), the new-style template, the preview's frame timeline, and option declarations with
/// their typed readers. CommandTests run the executable (StyleAuthoringEndToEndTests).
final class StyleAuthoringTests: XCTestCase {
    private func assertUsageError(_ arguments: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try resolveCommand(arguments, environment: [:]), file: file, line: line) { error in
            XCTAssertEqual((error as? UsageError)?.description, message, file: file, line: line)
        }
    }

    // MARK: Command line

    func testDescribeStyleAndHelpPointsToIt() throws {
        XCTAssertEqual(try resolveCommand(["--describe-style", "bottom-sheet"], environment: [:]), .describeStyle("bottom-sheet"))
        XCTAssertEqual(try resolveCommand(["--describe-style=/x/libModalKitStyleA.so"], environment: [:]),
                       .describeStyle("/x/libModalKitStyleA.so"))
        assertUsageError(["--describe-style"], "option --describe-style needs a value")
        assertUsageError(["--describe-style", "a", "--list-styles"], "give --list-styles or --describe-style, not both")
        XCTAssertTrue(usageText.contains("--describe-style NAME lists a style's options"), "--style-option's help points there")
        XCTAssertTrue(usageText.contains("modal-demo --describe-style NAME|PATH"))
    }

    func testNewStyleNames() throws {
        var expected = NewStyleOptions()
        expected.name = "side-drawer"
        XCTAssertEqual(try resolveCommand(["new-style", "side-drawer"], environment: [:]), .newStyle(expected))
        expected.directory = "/tmp/x"
        XCTAssertEqual(try resolveCommand(["new-style", "side-drawer", "--directory", "/tmp/x"], environment: [:]), .newStyle(expected))
        XCTAssertEqual(try resolveCommand(["new-style", "--directory=/tmp/x", "side-drawer"], environment: [:]), .newStyle(expected))
        let hint = " (use lower-case letters, digits and dashes, e.g. side-drawer)"
        assertUsageError(["new-style", ""], "bad style name '': empty" + hint)
        assertUsageError(["new-style", "side drawer"], "bad style name 'side drawer': it contains whitespace" + hint)
        assertUsageError(["new-style", "side/drawer"], "bad style name 'side/drawer': it contains '/'" + hint)
        assertUsageError(["new-style", "SideDrawer"], "bad style name 'SideDrawer': it contains upper case" + hint)
        assertUsageError(["new-style", "2up"], "bad style name '2up': it must start with a letter" + hint)
        assertUsageError(["new-style", "side-"], "bad style name 'side-': dashes must separate words" + hint)
        assertUsageError(["new-style", "side_drawer"], "bad style name 'side_drawer': only a-z, 0-9 and '-' are allowed" + hint)
        assertUsageError(["new-style"], "new-style needs a NAME, e.g. modal-demo new-style side-drawer")
        assertUsageError(["new-style", "a", "b"], "new-style takes one NAME, got 'a' and 'b'")
        assertUsageError(["new-style", "a", "--size", "1x1"], "unknown option '--size' for new-style (see --help)")
        assertUsageError(["new-style", "a", "--directory"], "option --directory needs a value")
    }

    func testPreviewOptions() throws {
        guard case let .preview(p) = try resolveCommand(
            ["preview", "--style", "bottom-sheet", "--style-option", "dim-alpha=0.2", "--size", "390x844", "--scale", "2",
             "--fps", "60", "--hold", "1", "--output", "a.webp"], environment: [:]) else { return XCTFail("not preview") }
        XCTAssertEqual(p.selection.style, "bottom-sheet")
        XCTAssertEqual(p.selection.options, ["dim-alpha": "0.2"])
        XCTAssertEqual([p.width, p.height], [390, 844])
        XCTAssertEqual(p.scale, 2)
        XCTAssertEqual(p.fps, 60)
        XCTAssertEqual(p.hold, 1)
        XCTAssertNil(p.strip)
        XCTAssertEqual(p.output, "a.webp")
        guard case let .preview(d) = try resolveCommand(["preview", "--size", "10x10", "--strip", "5", "--output", "s.png"],
                                                        environment: ["MODALKIT_REDUCED_MOTION": "1"]) else { return XCTFail() }
        XCTAssertEqual(d.fps, 30, "default")
        XCTAssertEqual(d.hold, 0.5, "default")
        XCTAssertEqual(d.strip, 5)
        XCTAssertTrue(d.reducedMotion)
        assertUsageError(["preview", "--output", "a.webp"], "preview needs --size WxH")
        assertUsageError(["preview", "--size", "10x10"], "preview needs --output FILE")
        assertUsageError(["preview", "--size", "10x10", "--fps", "0", "--output", "a"], "--fps expects a number from 1 to 120, got '0'")
        assertUsageError(["preview", "--size", "10x10", "--strip", "1", "--output", "a"],
                         "--strip expects a number of frames from 2 to 64, got '1'")
        assertUsageError(["preview", "--size", "10x10", "--hold", "11", "--output", "a"], "--hold expects seconds from 0 to 10, got '11'")
        assertUsageError(["preview", "--size", "10x10", "--progress", "1", "--output", "a"], "unknown option '--progress' for preview (see --help)")
        assertUsageError(["preview", "--size", "8192x8192", "--scale", "2", "--output", "a"],
                         "preview of 16384x16384 pixels is too large (at most 16383 per side and 67108864 pixels: --size times --scale)")
        assertUsageError(["preview", "--size", "1000x100", "--strip", "20", "--output", "a"],
                         "preview of 20000x100 pixels is too large (at most 16384 per side and 67108864 pixels: --size times --scale times --strip)")
        assertUsageError(["preview", "--size", "10x10", "--duration", "1", "--style", "inset-centered", "--style-option", "duration=1",
                          "--output", "a"],
                         "--duration and --style-option duration=... both set the duration; give one of them")
    }

    func testWatchNeedsAPath() throws {
        guard case let .run(o) = try resolveCommand(["--style", "./libModalKitStyleX.so", "--watch"], environment: [:]) else {
            return XCTFail("not the window")
        }
        XCTAssertTrue(o.watch)
        guard case let .run(plain) = try resolveCommand([], environment: [:]) else { return XCTFail() }
        XCTAssertFalse(plain.watch)
        assertUsageError(["--watch"], "--watch needs --style PATH (a plugin file, a value containing '/'), got 'inset-centered'")
        assertUsageError(["--style", "./x.so", "--watch=yes"], "--watch takes no value")
        assertUsageError(["render", "--watch"], "unknown option '--watch' for render (see --help)")
    }

    // MARK: The template

    /// Lines of Swift that are neither blank nor comments.
    private func codeLines(_ source: String) -> Int {
        source.split(separator: "\n").filter {
            let t = $0.trimmingCharacters(in: .whitespaces)
            return !t.isEmpty && !t.hasPrefix("//")
        }.count
    }

    func testTemplateIsTheSideDrawerInThirtyLines() throws {
        let t = try StyleTemplate(name: "side-drawer", modalKitPath: "/opt/ModalKit", demoPath: "/opt/bin/modal-demo")
        XCTAssertEqual(t.className, "SideDrawerStyle")
        XCTAssertEqual(t.productName, "ModalKitStyleSideDrawer")
        XCTAssertEqual(t.libraryFile, "libModalKitStyleSideDrawer.so")
        XCTAssertEqual(try StyleTemplate(name: "x2-card-a", modalKitPath: "/", demoPath: "/").productName, "ModalKitStyleX2CardA")
        // Four files, the manifest last; one target holding the style and its entry.
        XCTAssertEqual(t.files.map(\.path), [".gitignore", "README.md", "Sources/SideDrawerStyle/SideDrawerStyle.swift", "Package.swift"],
                       "the manifest written last")
        XCTAssertEqual(t.files[2].contents, t.styleSource + "\n" + t.entrySource, "the entry at the end of the style's file")
        let lines = codeLines(t.styleSource) + codeLines(t.entrySource)
        XCTAssertLessThanOrEqual(lines, 30, "style and entry together in at most 30 lines of Swift")
        XCTAssertTrue(t.packageManifest.contains(#".library(name: "ModalKitStyleSideDrawer", type: .dynamic, targets: ["SideDrawerStyle"])"#))
        XCTAssertTrue(t.packageManifest.contains(#".package(name: "ModalKit", path: "/opt/ModalKit")"#))
        XCTAssertEqual(t.packageManifest.components(separatedBy: ".target(").count - 1, 1, "one target")
        XCTAssertFalse(t.packageManifest.contains("unsafeFlags"), "no unsafe flags: the package can be a dependency")
        XCTAssertTrue(t.entrySource.contains(#"@_cdecl("modalkit_style_entry")"#))
        XCTAssertTrue(t.entrySource.contains("exportStyle(SideDrawerStyle.self)"))
        // The note: ModalKit's build step, named by the style target.
        XCTAssertTrue(t.packageManifest.contains(#"plugins: [.plugin(name: "ModalKitStyleNote", package: "ModalKit")]"#))
        XCTAssertTrue(t.readme.contains("swift build\n/opt/bin/modal-demo render --style .build/debug/libModalKitStyleSideDrawer.so"),
                      "the README's next two commands")
        // The top-level README shows this file whole.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let readme = try String(contentsOfFile: checkout + "/README.md", encoding: .utf8)
        XCTAssertTrue(readme.contains("```swift\n" + t.styleSource + "```\n"), "README's side drawer is the template's")
        XCTAssertTrue(readme.contains("in \(codeLines(t.styleSource)) lines of Swift, blanks and\ncomments aside (\(lines) with the entry at its end)"),
                      "README counts its lines")
    }

    /// new-style's dependency: an installed prefix's `share/modalkit/ModalKit` (scripts/install),
    /// else the checkout a build-tree modal-demo was built in. (The end-to-end tests run the
    /// installed one; the build-tree case is checked here.)
    func testNewStyleDependsOnTheInstalledPackageElseTheCheckoutAbove() throws {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        XCTAssertEqual(StyleTemplate.modalKitPackage(forExecutable: checkout + "/.build/x86_64-unknown-linux-gnu/debug/modal-demo"),
                       checkout)
        let prefix = (NSTemporaryDirectory() as NSString).appendingPathComponent("mk-template-prefix-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: prefix + "/share/modalkit/ModalKit", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: prefix) }
        XCTAssertTrue(FileManager.default.createFile(atPath: prefix + "/share/modalkit/ModalKit/Package.swift", contents: Data()))
        XCTAssertEqual(StyleTemplate.modalKitPackage(forExecutable: prefix + "/bin/modal-demo"),
                       prefix + "/share/modalkit/ModalKit")
    }

    func testWritingRefusesADirectoryThatIsNotEmpty() throws {
        let base = NSTemporaryDirectory() + "/mk-template-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: base) }
        let t = try StyleTemplate(name: "side-drawer", modalKitPath: "/opt/ModalKit", demoPath: "modal-demo")
        try FileManager.default.createDirectory(atPath: base + "/empty", withIntermediateDirectories: false)
        try t.write(to: base + "/empty")
        XCTAssertEqual(try String(contentsOfFile: base + "/empty/Package.swift", encoding: .utf8), t.packageManifest)
        try t.write(to: base + "/new/deeper")
        XCTAssertTrue(FileManager.default.fileExists(atPath: base + "/new/deeper/Sources/SideDrawerStyle/SideDrawerStyle.swift"))
        XCTAssertThrowsError(try t.write(to: base + "/empty")) { error in
            let e = error as? StyleTemplate.WriteError
            XCTAssertEqual(e?.isUsage, true)
            XCTAssertEqual(e?.description,
                           "directory '\(base)/empty' is not empty (new-style writes only into a new or empty directory)")
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: base + "/file", contents: Data()))
        XCTAssertThrowsError(try t.write(to: base + "/file")) { error in
            XCTAssertEqual((error as? StyleTemplate.WriteError)?.description, "'\(base)/file' exists and is a regular file, not a directory")
        }
    }

    // MARK: Preview timeline

    func testTimelineFramesMatchRenderProgress() {
        // 0.35 s at 30 fps: round(10.5) = 11 intervals, 12 frames per transition.
        let t = PreviewTimeline(duration: 0.35, fps: 30, hold: 0.5)
        XCTAssertEqual(t.framesPerTransition, 12)
        XCTAssertEqual(t.frameCount, 24)
        XCTAssertEqual(t.frame(0).phase, .present); XCTAssertEqual(t.frame(0).fraction, 0)
        XCTAssertEqual(t.frame(5).fraction, 5.0 / 11)
        XCTAssertEqual(t.frame(11).fraction, 1); XCTAssertEqual(t.frame(11).phase, .present)
        XCTAssertEqual(t.frame(12).phase, .dismiss); XCTAssertEqual(t.frame(12).fraction, 0)
        XCTAssertEqual(t.frame(23).fraction, 1)
        XCTAssertEqual(t.start(of: 0), 0)
        XCTAssertEqual(t.start(of: 1), 33)
        XCTAssertEqual(t.start(of: 3), 100)
        XCTAssertEqual(t.durationMilliseconds(of: 11), 533, "the presented frame is held 0.5 s more")
        XCTAssertEqual(t.start(of: 12), 900)
        XCTAssertEqual(t.start(of: 24), 1800, "24 frames of 1/30 s and two holds of 0.5 s")
        XCTAssertEqual(t.stripFrames(count: 6), [0, 5, 9, 14, 18, 23])
        XCTAssertEqual(PreviewTimeline(duration: 0, fps: 30, hold: 0).framesPerTransition, 2, "no animation: the two ends")
    }

    // MARK: Declarations and typed readers

    func testDeclarationsAndTypedReaders() throws {
        let width = StyleOption.number("width", "panel width, a fraction of the container", default: 0.7, in: 0.1...1)
        let radius = StyleOption.number("corner-radius", "radius of the right corners", unit: "points", default: 12, in: 0...100)
        let edge = StyleOption.choice("edge", "the edge the panel slides from", default: "left", among: ["left", "right"])
        let tint = StyleOption.color("tint", "the dim's colour", default: "#000000")
        XCTAssertEqual(width.defaultValue, "0.7")
        XCTAssertEqual(radius.defaultValue, "12")
        XCTAssertEqual(radius.meaning, "radius of the right corners, points")
        XCTAssertEqual(radius.acceptedDescription, "0 to 100")
        XCTAssertEqual(edge.acceptedDescription, "left, right")
        XCTAssertEqual(tint.acceptedDescription, "#RRGGBB or #RRGGBBAA")
        XCTAssertEqual(StyleOption.duration().meaning, "transition duration, seconds")
        XCTAssertEqual(StyleOption.duration().acceptedDescription, "0 to 10")
        let plain = StyleOption(key: "x", summary: "old style, points", defaultValue: "1")
        XCTAssertEqual(plain.accepted, .text(""))
        XCTAssertEqual(plain.unit, "")

        let declared = [width, radius, edge, tint]
        let defaults = try StyleOptions([:], declared: declared)
        XCTAssertEqual(try defaults.number(width), 0.7)
        XCTAssertEqual(try defaults.number(radius), 12)
        XCTAssertEqual(try defaults.choice(edge), "left")
        XCTAssertEqual(try defaults.color(tint), .black)
        let given = try StyleOptions(["width": "1", "edge": "right", "tint": "#FF000080"], declared: declared)
        XCTAssertEqual(try given.number(width), 1)
        XCTAssertEqual(try given.choice(edge), "right")
        XCTAssertEqual(try given.color(tint), Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255))
        func rejected(_ key: String, _ value: String, _ read: (StyleOptions) throws -> Void, _ message: String,
                      line: UInt = #line) {
            XCTAssertThrowsError(try read(try StyleOptions([key: value], declared: declared)), line: line) { error in
                XCTAssertEqual("\(error)", message, line: line)
            }
        }
        rejected("corner-radius", "101", { _ = try $0.number(radius) },
                 "bad value '101' for style option 'corner-radius' (expected a number from 0 to 100 points)")
        rejected("width", "0.05", { _ = try $0.number(width) },
                 "bad value '0.05' for style option 'width' (expected a number from 0.1 to 1)")
        rejected("width", "nan", { _ = try $0.number(width) },
                 "bad value 'nan' for style option 'width' (expected a number from 0.1 to 1)")
        rejected("edge", "top", { _ = try $0.choice(edge) },
                 "bad value 'top' for style option 'edge' (expected one of left, right)")
        rejected("tint", "red", { _ = try $0.color(tint) },
                 "bad value 'red' for style option 'tint' (expected #RRGGBB or #RRGGBBAA)")
        rejected("tint", "#12345", { _ = try $0.color(tint) },
                 "bad value '#12345' for style option 'tint' (expected #RRGGBB or #RRGGBBAA)")
    }
}
