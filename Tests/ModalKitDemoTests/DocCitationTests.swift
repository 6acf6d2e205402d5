import Foundation
import XCTest

/// Every citation of a heading — `docs/design.md, "…"`, `README "…"`, `article "…"` and the
/// links to README's and docs/design.md's headings — names a heading that exists
/// (scripts/lib/doc-citations.py, which scripts/docs also runs): a section renamed or moved
/// without its citations fails here, listing each one.
final class DocCitationTests: XCTestCase {
    private let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    private func check(_ root: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", checkout + "/scripts/lib/doc-citations.py", root]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testEveryCitedHeadingExists() throws {
        let result = try check(checkout)
        XCTAssertEqual(result.status, 0, result.output)
    }

    /// The check fails on what it should: a copy of the documents with one citation of each kind
    /// that resolves and one of each that does not.
    func testACitationOfAMissingHeadingIsListed() throws {
        let fm = FileManager.default
        let root = NSTemporaryDirectory() + "doc-citations-\(getpid())"
        try? fm.removeItem(atPath: root)
        defer { try? fm.removeItem(atPath: root) }
        try fm.createDirectory(atPath: root + "/docs", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/Sources/M/M.docc", withIntermediateDirectories: true)
        try "# Design\n\n## The frame pipeline\n\n## Rules from the field\n\n1. One.\n2. Two.\n"
            .write(toFile: root + "/docs/design.md", atomically: true, encoding: .utf8)
        try "# ModalKit\n\n## Quick start\n\nSee [Quick start](#quick-start) and [gone](#gone).\n"
            .write(toFile: root + "/README.md", atomically: true, encoding: .utf8)
        try "# Command line\n\nThe options.\n".write(toFile: root + "/Sources/M/M.docc/CommandLine.md", atomically: true, encoding: .utf8)
        try """
            // Fine: docs/design.md, frame pipeline; docs/design.md, "The frame pipeline"; README, "Quick start";
            // article "Command line"; docs/design.md, rules from the field, 2.
            // Not: docs/design.md, "Frame timing"; docs/design.md, plugin
            // boundary; README "Install"; article "Buffers"; docs/design.md, rules from the field, 3.

            """.write(toFile: root + "/Sources/M/a.swift", atomically: true, encoding: .utf8)
        let result = try check(root)
        XCTAssertEqual(result.status, 1, result.output)
        let lines = result.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("Sources/M/a.swift:") }, [
            "Sources/M/a.swift:3: cites docs/design.md, \"Frame timing\": no such heading",
            "Sources/M/a.swift:3: cites docs/design.md, \"plugin boundary\": no such heading",
            "Sources/M/a.swift:4: cites docs/design.md, \"Rules from the field\", rule 3: no such rule",
            "Sources/M/a.swift:4: cites README \"Install\": no such heading",
            "Sources/M/a.swift:4: cites the article \"Buffers\": no DocC article has that title",
        ], result.output)
        XCTAssertTrue(lines.contains("README.md:5: link to #gone: README.md has no such heading"), result.output)
    }
}
