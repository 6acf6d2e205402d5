// The documentation check of scripts/docs (scripts/lib/docs-coverage.py), on symbol graphs written
// here in swift-symbolgraph-extract's format: a public symbol without a doc comment fails the check
// with one line naming its file, line, module, kind and path; a member that implements a protocol
// requirement (its documentation is the requirement's, as DocC shows it), a compiler-synthesised
// member (no source location) and an internal symbol do not count. scripts/test runs scripts/docs
// itself on the real modules (with `docc convert`, whose warnings fail it too).
import Foundation
import ModalKitTestHarness
import XCTest

final class DocumentationCoverageTests: XCTestCase {
    typealias Support = PluginTestSupport

    private func symbol(_ precise: String, _ path: [String], kind: String = "swift.property", access: String = "public",
                        doc: String? = nil, line: Int? = 9, extra: [String: Any] = [:]) -> [String: Any] {
        var s: [String: Any] = ["identifier": ["precise": precise, "interfaceLanguage": "swift"],
                                "kind": ["identifier": kind, "displayName": kind == "swift.struct" ? "Structure" : "Instance Property"],
                                "pathComponents": path, "names": ["title": path.last!], "accessLevel": access]
        if let doc { s["docComment"] = ["lines": [["text": doc]]] }
        if let line { s["location"] = ["uri": "file:///src/Fixture/Thing.swift", "position": ["line": line, "character": 4]] }
        return s.merging(extra) { $1 }
    }

    /// Runs the check on a graph of `symbols` for module Fixture; returns (status, stdout + stderr).
    private func check(_ symbols: [[String: Any]], relationships: [[String: Any]] = []) throws -> (Int32, String) {
        let dir = try Support.temporaryDirectory(self, "docs-coverage")
        let graph: [String: Any] = ["metadata": ["formatVersion": ["major": 0, "minor": 6, "patch": 0]],
                                    "module": ["name": "Fixture"], "symbols": symbols, "relationships": relationships]
        try JSONSerialization.data(withJSONObject: graph).write(to: URL(fileURLWithPath: dir + "/Fixture.symbols.json"))
        let run = try Support.run("/usr/bin/env", ["python3", Support.packageRoot + "/scripts/lib/docs-coverage.py", dir, "Fixture"],
                                  currentDirectory: "/", timeout: 60)
        return (run.status, run.stdout + run.stderr)
    }

    func testAnUndocumentedPublicPropertyFailsTheCheckNamingIt() throws {
        let (status, output) = try check([
            symbol("s:7Fixture5ThingV", ["Thing"], kind: "swift.struct", doc: "A thing.", line: 2),
            symbol("s:7Fixture5ThingV5widthSdvp", ["Thing", "width"], doc: "Width, points.", line: 4),
            symbol("s:7Fixture5ThingV6heightSdvp", ["Thing", "height"], line: 5),
        ])
        XCTAssertEqual(status, 1, output)
        // Line numbers in the graph are 0-based; the report's are the editor's (1-based).
        XCTAssertTrue(output.contains("src/Fixture/Thing.swift:6: Fixture: instance property Thing.height is public and undocumented"),
                      output)
        XCTAssertFalse(output.contains("Thing.width"), output)
        XCTAssertTrue(output.contains("docs-coverage: 1 public symbols without documentation"), output)
    }

    func testRequirementImplementationsSynthesisedAndInternalSymbolsDoNotCount() throws {
        let (status, output) = try check([
            symbol("s:7Fixture5ThingV", ["Thing"], kind: "swift.struct", doc: "A thing.", line: 2),
            // `description` of CustomStringConvertible: DocC shows the requirement's documentation.
            symbol("s:7Fixture5ThingV11descriptionSSvp", ["Thing", "description"], line: 7,
                   extra: ["sourceOrigin": ["identifier": "s:s23CustomStringConvertibleP11descriptionSSvp",
                                            "displayName": "CustomStringConvertible.description"]]),
            // A default implementation of the module's own protocol requirement.
            symbol("s:7Fixture4DrawPAAE4drawyyF", ["Draw", "draw()"], line: 12),
            // The memberwise initialiser: synthesised, no location.
            symbol("s:7Fixture5ThingV5widthACSd_tcfc", ["Thing", "init(width:)"], line: nil),
            symbol("s:7Fixture5ThingV6secretSivp", ["Thing", "secret"], access: "internal", line: 8),
        ], relationships: [["kind": "defaultImplementationOf", "source": "s:7Fixture4DrawPAAE4drawyyF",
                            "target": "s:7Fixture4DrawP4drawyyF"]])
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output, "", "nothing to report")
    }

    func testAMissingSymbolGraphIsAnError() throws {
        let dir = try Support.temporaryDirectory(self, "docs-coverage-empty")
        let run = try Support.run("/usr/bin/env", ["python3", Support.packageRoot + "/scripts/lib/docs-coverage.py", dir, "Nowhere"],
                                  timeout: 60)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "docs-coverage: no symbol graph for Nowhere in \(dir)\n")
    }
}
