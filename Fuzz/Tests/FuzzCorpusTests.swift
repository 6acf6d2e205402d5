// The fuzz targets on the seed corpus (Fuzz/Corpus/<target>) and on every input that once
// failed (Fuzz/Regressions/<target>, each fixed since and named after what it found), in the
// ordinary test build: each input is read as its target reads it, and none traps.
import Foundation
import XCTest

final class FuzzCorpusTests: XCTestCase {
    private static let fuzzDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    private func inputs(_ folder: String, _ target: FuzzTarget) throws -> [URL] {
        let dir = Self.fuzzDirectory.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        guard FileManager.default.fileExists(atPath: dir.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    private func replay(_ target: FuzzTarget) throws {
        let seeds = try inputs("Corpus", target)
        XCTAssertGreaterThanOrEqual(seeds.count, 3, "Fuzz/Corpus/\(target.rawValue) has a seed corpus")
        for file in try seeds + inputs("Regressions", target) {
            target.run(Array(try Data(contentsOf: file)))
        }
    }

    func testELFCorpus() throws { try replay(.elf) }
    func testStyleNoteCorpus() throws { try replay(.styleNote) }
    func testStyleOptionsCorpus() throws { try replay(.styleOptions) }
    func testPortalCorpus() throws { try replay(.portal) }
    func testTextCorpus() throws { try replay(.text) }
    func testTextEntryCorpus() throws { try replay(.textEntry) }
}
