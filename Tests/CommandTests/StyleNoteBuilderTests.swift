// The command line of the ModalKitStyleNote plugin's tool (`StyleNoteBuilder`): modules in the
// order given, each flag attached to the module before it, and one line for each mistake. The
// build itself runs in the style-package tests (StyleAuthoringEndToEndTests, PluginExampleTests,
// TaggedStylePackageTests).
import ModalKitNoteTool
import XCTest

final class StyleNoteBuilderTests: XCTestCase {
    func testModulesKeepTheirOrderAndTheirOwnFlags() throws {
        let b = try StyleNoteBuilder(arguments: [
            "--output", "/w/StyleNote.swift", "--work", "/w/probe", "--swiftc", "/t/swiftc", "--clang", "/t/clang",
            "--c-module", "CModalKitStyle", "--package", "modalkit", "--source", "/m/a.c", "--include", "/m/include", "--define", "X=1",
            "--swift-module", "ModalKitStyle", "--package", "modalkit", "--source", "/m/S.swift",
            "--swift-module", "SideDrawerStyle", "--package", "sidedrawerstyle", "--source", "/p/SideDrawerStyle.swift",
        ])
        XCTAssertEqual(b.output, "/w/StyleNote.swift")
        XCTAssertEqual(b.work, "/w/probe")
        XCTAssertEqual(b.modules.map(\.name), ["CModalKitStyle", "ModalKitStyle", "SideDrawerStyle"])
        XCTAssertEqual(b.modules[0], StyleNoteBuilder.Module(name: "CModalKitStyle", language: .c, package: "modalkit",
                                                             sources: ["/m/a.c"], includes: ["/m/include"], defines: ["X=1"]))
        XCTAssertEqual(b.modules[2].package, "sidedrawerstyle")
        XCTAssertEqual(b.modules[2].sources, ["/p/SideDrawerStyle.swift"])
    }

    func testMistakesAreOneLineEach() {
        let tools = ["--output", "/o", "--work", "/w", "--swiftc", "/s", "--clang", "/c"]
        let usage = "usage: --output FILE --work DIR --swiftc PATH --clang PATH, then per module, the style's last: "
            + "--swift-module|--c-module NAME --package ID [--source FILE]... [--include DIR]... [--define D]... "
        let cases: [([String], String)] = [
            (tools + ["--source", "/a.swift"], usage + "(--source before any module)"),
            (tools + ["--swift-module"], usage + "(--swift-module needs a value)"),
            (tools + ["--c-module", "C", "--source", "/a.c"],
             usage + "(the last module must be the style's Swift module, with its sources)"),
            (Array(tools.dropFirst(2)) + ["--swift-module", "S", "--source", "/a.swift"],
             usage + "(--output missing)"),
            (tools + ["--bogus", "x"], usage + "(--bogus)"),
        ]
        for (arguments, line) in cases {
            XCTAssertThrowsError(try StyleNoteBuilder(arguments: arguments), arguments.joined(separator: " ")) {
                XCTAssertEqual(String(describing: $0), line)
            }
        }
    }

    func testAMissingEntryNamesTheFunctionToAdd() {
        XCTAssertEqual(StyleNoteToolError.noEntry(module: "SideDrawerStyle", symbol: "modalkit_style_entry").description,
                       "SideDrawerStyle defines no modalkit_style_entry function, so no host could load its library; add one to the "
                       + "target: @_cdecl(\"modalkit_style_entry\") public func modalkitStyleEntry() -> UnsafeRawPointer { "
                       + "exportStyle(YourStyle.self) }")
    }
}
