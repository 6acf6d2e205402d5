// The mistakes a style author makes between writing a style and seeing it, each caught with a
// message that says what to do (exit status 2 and exactly one stderr line for a bad command line
// or style): a misspelled hook does not build, naming it; a file name given as a name; a path
// into the other build configuration; a package whose product is not `.dynamic`; a mistyped
// option key; an option before any `--style`. (Two libraries declaring one name: one line naming
// the one used and the one shadowed: PluginNoteTests.testStyleNameThatTwoLibrariesDeclareSaysWhichOneIsUsedOnOneLine.)
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKit

final class StyleAuthorMistakesTests: XCTestCase {
    typealias Support = PluginTestSupport

    /// `render` with `style`: a refused style exits before the output (never written) is looked at.
    private func render(_ style: String, in directory: String? = nil, options: [String] = [],
                        output: String = "/dev/null/never.png") throws -> Support.RunResult {
        try PluginCLITests.demo(["render", "--style", style] + options + ["--size", "20x20", "--progress", "1", "--output", output],
                                currentDirectory: directory)
    }

    private func assertRefused(_ r: Support.RunResult, _ line: String, file: StaticString = #filePath, line number: UInt = #line) {
        XCTAssertEqual(r.status, 2, r.stderr, file: file, line: number)
        XCTAssertEqual(r.stderrLines, ["modal-demo: " + line], file: file, line: number)
        XCTAssertEqual(r.stdout, "", file: file, line: number)
    }

    // MARK: The style's source

    /// A misspelled hook is not a method that silently stands beside a default: hooks are
    /// properties of `PresentationStyle`, so the package fails to build and the compiler names
    /// the misspelling. The package is the one `modal-demo new-style` writes, its build kept
    /// across runs (PluginTestSupport.freshPackage).
    func testAMisspelledHookFailsTheBuildNamingIt() throws {
        let (directory, made) = try Support.freshPackage("side-drawer", for: self)
        XCTAssertEqual(made.status, 0, made.stderr)
        let styleFile = directory + "/Sources/SideDrawerStyle/SideDrawerStyle.swift"
        let text = try String(contentsOfFile: styleFile, encoding: .utf8)
        let misspelled = text.replacingOccurrences(of: "        return style\n",
                                                   with: "        style.shouldDismissOnTapAt = { _, _ in false }\n        return style\n")
        XCTAssertNotEqual(misspelled, text, "the template ends makeStyle with `return style`")
        try misspelled.write(toFile: styleFile, atomically: false, encoding: .utf8)
        defer { try? text.write(toFile: styleFile, atomically: false, encoding: .utf8) }
        let build = try Support.swiftBuild(directory)
        let output = build.stdout + build.stderr
        XCTAssertNotEqual(build.status, 0, "a misspelled hook must not build")
        // The line README shows: the file, the line of the misspelling, the column of the name.
        XCTAssertTrue(output.contains("/Sources/SideDrawerStyle/SideDrawerStyle.swift:26:15: error: value of type "
                                      + "'PresentationStyle' has no member 'shouldDismissOnTapAt'"), String(output.suffix(3000)))
    }

    // MARK: --style

    /// A file name without a `/` is looked up as a style name; the line says to give a path.
    func testAFileNameGivenAsANameSuggestsItsPath() throws {
        let dir = try Support.temporaryDirectory(self, "bare-name")
        assertRefused(try render("libModalKitStyleSideDrawer.so", in: dir),
                      "no style named 'libModalKitStyleSideDrawer.so': a name is looked up on the style path, a file is given by "
                      + "its path (--style ./libModalKitStyleSideDrawer.so for a file in this directory, which has none by that name)")
        try Support.copy(try Support.installedLibrary(Support.insetCenteredLibrary), to: dir + "/libModalKitStyleSideDrawer.so")
        assertRefused(try render("libModalKitStyleSideDrawer.so", in: dir),
                      "no style named 'libModalKitStyleSideDrawer.so': a name is looked up on the style path, a file is given by "
                      + "its path (the file in this directory: --style ./libModalKitStyleSideDrawer.so)")
        let loaded = try render("./libModalKitStyleSideDrawer.so", in: dir, output: dir + "/drawn.png")
        XCTAssertEqual(loaded.status, 0, "the path the line gives loads: \(loaded.stderr)")
    }

    /// `.build/debug/…` when only the release build has the library, and the reverse.
    func testThePathOfTheOtherConfigurationIsNamed() throws {
        let dir = try Support.temporaryDirectory(self, "configurations")
        let library = try Support.installedLibrary(Support.insetCenteredLibrary)
        for (built, asked) in [("release", "debug"), ("debug", "release")] {
            let package = dir + "/" + built
            try FileManager.default.createDirectory(atPath: package + "/.build/" + built, withIntermediateDirectories: true)
            try Support.copy(library, to: package + "/.build/\(built)/libModalKitStyleSideDrawer.so")
            let how = built == "release" ? "swift build -c release" : "swift build"
            assertRefused(try render(".build/\(asked)/libModalKitStyleSideDrawer.so", in: package),
                          ".build/\(asked)/libModalKitStyleSideDrawer.so: no such file; the \(built) build has it: "
                          + ".build/\(built)/libModalKitStyleSideDrawer.so (built with \(how))")
        }
    }

    /// A product declared without `type: .dynamic` links no library: the line says so, from the
    /// package's manifest (SwiftPM leaves nothing of an automatic library product in `.build`).
    func testAProductThatIsNotDynamicIsNamed() throws {
        let package = try Support.temporaryDirectory(self, "not-dynamic")
        try FileManager.default.createDirectory(atPath: package + "/.build/debug/SideDrawerStyle.build", withIntermediateDirectories: true)
        try """
        // swift-tools-version:5.10
        // A comment that mentions .library(name: "ModalKitStyleSideDrawer", type: .dynamic, targets: []) is not the manifest.
        import PackageDescription
        let package = Package(
            name: "SideDrawerStyle",
            products: [
                .library(name: "ModalKitStyleSideDrawer", targets: ["SideDrawerStyleEntry"]),
                .library(name: "ModalKitStyleArchive", type: .static, targets: ["SideDrawerStyleEntry"]),
                .library(name: "ModalKitStyleUnbuilt", type: .dynamic, targets: ["SideDrawerStyleEntry"]),
            ],
            targets: [.target(name: "SideDrawerStyleEntry")]
        )

        """.write(toFile: package + "/Package.swift", atomically: false, encoding: .utf8)
        func path(_ product: String) -> String { package + "/.build/debug/lib\(product).so" }
        assertRefused(try render(path("ModalKitStyleSideDrawer")),
                      "\(path("ModalKitStyleSideDrawer")): no such file; the package in \(package) declares the library product "
                      + "ModalKitStyleSideDrawer without a type, so swift build links no shared library for it: declare it "
                      + ".library(name: \"ModalKitStyleSideDrawer\", type: .dynamic, targets: [...])")
        assertRefused(try render(path("ModalKitStyleArchive")),
                      "\(path("ModalKitStyleArchive")): no such file; the package in \(package) declares the library product "
                      + "ModalKitStyleArchive as type: .static (a static archive), so swift build links no shared library for it: "
                      + "declare it .library(name: \"ModalKitStyleArchive\", type: .dynamic, targets: [...])")
        assertRefused(try render(path("ModalKitStyleUnbuilt")),
                      "\(path("ModalKitStyleUnbuilt")): no such file; the package in \(package) declares ModalKitStyleUnbuilt as "
                      + ".dynamic but it is not built: run swift build there")
        assertRefused(try render(path("ModalKitStyleOther")),
                      "\(path("ModalKitStyleOther")): no such file; the package in \(package) declares no library product "
                      + "ModalKitStyleOther (a library lib<product>.so comes from its product's name; it declares "
                      + "ModalKitStyleSideDrawer, ModalKitStyleArchive, ModalKitStyleUnbuilt)")
        // Outside a package's build directory: the plain line.
        assertRefused(try render(package + "/libModalKitStyleSideDrawer.so"), "\(package)/libModalKitStyleSideDrawer.so: no such file")
    }

    // MARK: --style-option

    func testAMistypedOptionKeyNamesTheNearestOne() throws {
        let r = try render("bottom-sheet", options: ["--style-option", "dim-alfa=0.2"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
        let line = r.stderrLines.first ?? ""
        XCTAssertTrue(line.hasPrefix("modal-demo: ") && line.hasSuffix(
            "/libModalKitStyleBottomSheet.so: style 'bottom-sheet' has no option 'dim-alfa'; did you mean 'dim-alpha'? (options: "
            + "height (sheet height: a fraction of the container if ≤ 1, else points), corner-radius (radius of the sheet's top "
            + "corners, points), dim-alpha (alpha of the black dim when presented), duration (transition duration, seconds), "
            + "curve (timing curve), detents (resting sizes, smallest first: fractions of the container (≤ 1), points (> 1), "
            + "or fit / fit:SIZE (the content's height, at most SIZE), comma-separated; empty = the frame only), undimmed-detent (index of the largest detent without dim (the dim fades "
            + "in up to the next one), or none), dismissible (false: dim taps, Escape and drags do not dismiss (each attempt is "
            + "reported)), dim (dim fill: solid (black × dim-alpha everywhere) or gradient (clear at the top edge rising to "
            + "dim-alpha at the sheet's top edge)), grabber (UIKit's grabber bar at the sheet's top: auto (shown with more than "
            + "one detent), on or off), shadow (drop shadow behind the presented view: none, or soft (black 25 %, 4 pt down, "
            + "16 pt blur)), recede (the view underneath recedes while covered (UIKit's page sheet): off, or on (scale 0.92, "
            + "corners 10 pt)), max-width (the sheet's largest width: on a wider container it is this wide, centred (Material "
            + "3's 640 dp); 0 = the container's width, points), scrolling-expands (true: a drag or scroll up on content that can "
            + "scroll first grows the sheet through its detents to the largest; false: the content scrolls at any detent "
            + "(UIKit's prefersScrollingExpandsWhenScrolledToEdge)))"), line)
        let far = try render("bottom-sheet", options: ["--style-option", "colour=#fff"])
        XCTAssertEqual(far.status, 2)
        XCTAssertFalse(far.stderr.contains("did you mean"), "nothing near 'colour': \(far.stderr)")
    }

    /// One rule: an option belongs to the `--style` before it, so one before any is refused
    /// (before, it silently went to level 1's style).
    func testAnOptionBeforeAnyStyleIsRefused() throws {
        for arguments in [["--style-option", "dim-alpha=0.2"], ["--style-option", "dim-alpha=0.2", "--style", "bottom-sheet"],
                          ["render", "--style-option", "dim-alpha=0.2", "--size", "20x20", "--progress", "1", "--output", "x.png"]] {
            assertRefused(try PluginCLITests.demo(arguments),
                          "--style-option dim-alpha=0.2 comes before any --style: an option belongs to the --style before it "
                          + "(--style NAME --style-option dim-alpha=0.2; the default is --style inset-centered)")
        }
    }
}
