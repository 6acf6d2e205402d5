import Foundation
import XCTest

/// The committed wayland-scanner glue in CWayland/Protocols must be exactly what
/// `scripts/generate-protocols` makes with the installed scanner and wayland-protocols XML.
/// When this fails: run `scripts/generate-protocols` and commit the result.
final class ProtocolGlueTests: XCTestCase {
    /// The package root: this file is Tests/ModalKitWaylandClientTests/ProtocolGlueTests.swift.
    private let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Relative paths of the generated files under `directory` (scanner output only: the
    /// hand-written umbrella header CModalKitWaylandProtocols.h is not one of them).
    private func generatedFiles(in directory: URL) throws -> Set<String> {
        var result: Set<String> = []
        for (sub, suffix) in [("", "-protocol.c"), ("include", "-client-protocol.h")] {
            let folder = sub.isEmpty ? directory : directory.appendingPathComponent(sub)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(suffix) {
                result.insert(sub.isEmpty ? name : sub + "/" + name)
            }
        }
        return result
    }

    func testCommittedGlueMatchesTheInstalledScanner() throws {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("modalkit-protocols-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }

        let script = Process()
        script.executableURL = root.appendingPathComponent("scripts/generate-protocols")
        script.arguments = [output.path]
        let errors = Pipe()
        script.standardError = errors
        try script.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        XCTAssertEqual(script.terminationStatus, 0, "generate-protocols failed: \(message)")

        let committed = root.appendingPathComponent("CWayland/Protocols")
        let fresh = try generatedFiles(in: output)
        let existing = try generatedFiles(in: committed)
        XCTAssertFalse(fresh.isEmpty, "the script generated nothing")
        XCTAssertTrue(fresh.contains("include/xdg-shell-client-protocol.h"))
        XCTAssertTrue(fresh.contains("xdg-shell-protocol.c"))
        XCTAssertEqual(existing.subtracting(fresh), [], "committed glue the script no longer generates")
        for file in fresh.sorted() {
            let expected = try Data(contentsOf: output.appendingPathComponent(file))
            guard let actual = try? Data(contentsOf: committed.appendingPathComponent(file)) else {
                XCTFail("CWayland/Protocols/\(file) is not committed; run scripts/generate-protocols")
                continue
            }
            XCTAssertTrue(actual == expected, "CWayland/Protocols/\(file) differs from the scanner's output; run scripts/generate-protocols")
        }
    }
}
