// A file that is not a complete ELF shared object for this machine is refused before `dlopen`
// (docs/design.md, plugin metadata and trust): `dlopen` of a file cut short maps segments past its
// end and the process dies with SIGBUS on first touch. Each case is a copy of a built style
// library broken one way, with the exact offsets the checks report.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKit
import ModalKitPlugins
#if canImport(Glibc)
import Glibc
#endif

final class PluginELFTests: XCTestCase {
    typealias Support = PluginTestSupport

    private func loadError(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> StyleLoadError? {
        do {
            _ = try StyleLoader(searchPath: []).load(path)
            XCTFail("\(path) loaded", file: file, line: line)
            return nil
        } catch {
            XCTAssertTrue(error is StyleLoadError, "\(error)", file: file, line: line)
            return error as? StyleLoadError
        }
    }

    private func original() throws -> Data {
        try XCTUnwrap(FileManager.default.contents(atPath: try Support.installedLibrary(Support.bottomSheetLibrary)))
    }

    private func u16(_ d: Data, _ at: Int) -> Int { Int(d[at]) | Int(d[at + 1]) << 8 }
    private func u64(_ d: Data, _ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(d[at + $1]) << (8 * UInt64($1)) } }

    /// The program headers of an ELF64 little-endian file: (type, offset, filesz).
    private func segments(_ d: Data) -> [(type: UInt32, offset: UInt64, size: UInt64)] {
        let phoff = Int(u64(d, 32)), count = u16(d, 56)
        return (0..<count).map { i in
            let at = phoff + i * 56
            return (UInt32(truncatingIfNeeded: u64(d, at)), u64(d, at + 8), u64(d, at + 32))
        }
    }

    private func write(_ data: Data, _ dir: String, _ file: String) throws -> String {
        let path = dir + "/" + file
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: data))
        return path
    }

    /// Cut in the middle of its first loadable segment — as a reloader sees a library the linker
    /// is still writing: the first segment that ends past the new end is named, with both offsets.
    func testALibraryCutShortIsRefusedNamingTheSegmentPastTheEnd() throws {
        let dir = try Support.temporaryDirectory(self, "elf-cut")
        let data = try original()
        let load = try XCTUnwrap(segments(data).first { $0.type == 1 && $0.size > 0 })
        let half = Int(load.offset + load.size / 2)
        let path = try write(data.prefix(half), dir, "libModalKitStyleHalf.so")
        let all = segments(data)
        let (index, segment) = try XCTUnwrap(all.enumerated().first { $0.element.size > 0 && $0.element.offset + $0.element.size > UInt64(half) }
                                                .map { ($0.offset, $0.element) })
        XCTAssertEqual(segment.type, 1, "a PT_LOAD segment comes first past the cut")
        XCTAssertEqual(loadError(path), .malformedELF(path: path, problem: .segmentPastEnd(
            index: index, type: "PT_LOAD", end: segment.offset + segment.size, fileSize: half)))
        XCTAssertEqual(loadError(path)?.description,
                       "\(path): not a complete shared library: segment \(index) (PT_LOAD) ends at byte "
                       + "\(segment.offset + segment.size), past the end of the file (\(half) bytes; cut short?)")
    }

    /// Cut just inside the section header table (every segment whole): the table is past the end.
    func testASectionTablePastTheEndIsRefused() throws {
        let dir = try Support.temporaryDirectory(self, "elf-sections")
        let data = try original()
        let shoff = u64(data, 40), count = UInt64(u16(data, 60))
        XCTAssertEqual(shoff + count * 64, UInt64(data.count), "the table ends the file (gold and lld put it last)")
        let cut = Int(shoff) + 10
        let path = try write(data.prefix(cut), dir, "libModalKitStyleNoSections.so")
        XCTAssertEqual(loadError(path), .malformedELF(path: path, problem: .sectionHeadersPastEnd(end: shoff + count * 64, fileSize: cut)))
    }

    /// Header fields that lie: the program header table moved past the end, a wrong entry size,
    /// and an executable (ET_EXEC) where a shared object belongs.
    func testBadHeaderSizesOffsetsAndTypesAreRefused() throws {
        let dir = try Support.temporaryDirectory(self, "elf-header")
        let data = try original()
        var movedTable = data
        let end = UInt64(data.count)
        for i in 0..<8 { movedTable[32 + i] = UInt8((end >> (8 * UInt64(i))) & 0xFF) }
        let moved = try write(movedTable, dir, "libModalKitStyleMoved.so")
        let count = UInt64(u16(data, 56))
        XCTAssertEqual(loadError(moved), .malformedELF(path: moved, problem: .programHeadersPastEnd(end: end + count * 56, fileSize: data.count)))

        var entrySize = data
        entrySize[54] = 55
        let wrongSize = try write(entrySize, dir, "libModalKitStyleEntrySize.so")
        XCTAssertEqual(loadError(wrongSize), .malformedELF(path: wrongSize, problem: .badEntrySize(field: "e_phentsize", size: 55, expected: 56)))

        var executable = data
        executable[16] = 2
        let exec = try write(executable, dir, "libModalKitStyleExec.so")
        XCTAssertEqual(loadError(exec), .malformedELF(path: exec, problem: .notSharedObject(type: 2)))
        XCTAssertEqual(loadError(exec)?.description,
                       "\(exec): not a shared library: it is an executable (ET_EXEC), not a shared object (ET_DYN)")
    }

    /// Through the command line: exit 2 and one line, the process alive to say it (no SIGBUS),
    /// and the listing names it as failed.
    func testTheDemoRefusesATruncatedLibraryWithOneLine() throws {
        let dir = try Support.temporaryDirectory(self, "elf-cli")
        let data = try original()
        let path = try write(data.prefix(65536), dir, "libModalKitStyleCut.so")
        let r = try PluginCLITests.demo(["render", "--style", path, "--size", "40x40", "--progress", "1", "--output", dir + "/x.png"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("modal-demo: \(path): not a complete shared library: segment "), r.stderr)
        XCTAssertTrue(r.stderr.contains(" (PT_LOAD) ends at byte "), r.stderr)
        let listed = try PluginCLITests.demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": dir])
        XCTAssertTrue(listed.stdoutLines.contains { $0.hasPrefix("# failed\t\(path)\tnot a complete shared library: segment ") },
                      listed.stdout)
    }
}
