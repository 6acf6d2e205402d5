// The ELF reader on files whose empty parts lie at offsets past any file (an offset is a 64-bit
// field; where nothing is stored, nothing bounds it): each was a trap (a conversion of the offset
// to Int) before the reader read them as what they are. gABI: a segment whose p_filesz is 0 has
// no contents in the file; a section of type SHT_NOBITS occupies no space in it. The files are
// the seed style library (Fuzz/Corpus/elf) with one field changed, in Fuzz/Regressions/elf.
import Foundation
import XCTest
@testable import ModalKitPlugins

final class ELFReaderRegressionTests: XCTestCase {
    /// An empty PT_NOTE segment at offset 2⁶⁴ − 16 in a library without section headers: no notes.
    func testAnEmptyNoteSegmentAnywhereHoldsNoNote() throws {
        let file = try XCTUnwrap(result("empty-note-segment-at-huge-offset"))
        XCTAssertNil(file.styleNotePayload)
        XCTAssertEqual(file.dynamic.needed, ["libnb.so"], "the rest of the file is read as before")
    }

    /// An empty PT_DYNAMIC segment at offset 2⁶³: no dynamic entries (no DT_NEEDED, no run path).
    func testAnEmptyDynamicSegmentAnywhereHasNoEntries() throws {
        let file = try XCTUnwrap(result("empty-dynamic-segment-at-huge-offset"))
        XCTAssertEqual(file.dynamic, ELFFile.DynamicInfo())
        XCTAssertNotNil(file.styleNotePayload, "the note in PT_NOTE is still found")
    }

    /// The section-name table made SHT_NOBITS at offset 0x9000…: it has no bytes, so no section
    /// has a name, and the style note is not found by its section's name.
    func testASectionNameTableWithoutContentsNamesNoSection() throws {
        let file = try XCTUnwrap(result("nobits-section-names-at-huge-offset"))
        XCTAssertNil(file.styleNotePayload)
        XCTAssertEqual(file.dynamic.needed, ["libnb.so"])
    }

    private func result(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> ELFFile? {
        let path = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Regressions/elf/\(name)").path
        switch ELFFile.inspect(path: path, host: nil) {
        case let .success(elf): return elf
        case let .failure(failure):
            XCTFail("\(name): \(failure)", file: file, line: line)
            return nil
        }
    }
}
