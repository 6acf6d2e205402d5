import Foundation
import ModalKitDemo
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// ``OutputFile``'s rules in process: what a path is classified as (without opening it), and a
/// write that replaces a regular file by rename (a new inode, the old mode) or makes a new one.
/// Failed writes and the commands are covered end to end (OutputFileTests).
final class OutputFileUnitTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        var template = Array("\(NSTemporaryDirectory())/mk-outputfile-XXXXXX".utf8CString)
        dir = String(cString: try XCTUnwrap(mkdtemp(&template)))
        let made = dir
        addTeardownBlock { try? FileManager.default.removeItem(atPath: made) }
    }

    private func inode(_ path: String) -> ino_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_ino : nil
    }

    func testDestinationFollowsLinksToTheFileFinallyWritten() throws {
        let fm = FileManager.default
        XCTAssertEqual(try OutputFile.destination(of: dir + "/new.png"), .newFile(path: dir + "/new.png"))
        try "x".write(toFile: dir + "/file", atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(dir + "/file", 0o604), 0)
        XCTAssertEqual(try OutputFile.destination(of: dir + "/file"), .regularFile(path: dir + "/file", mode: 0o604))
        try fm.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: false)
        try fm.createSymbolicLink(atPath: dir + "/sub/up", withDestinationPath: "../file")   // relative to the link's directory
        try fm.createSymbolicLink(atPath: dir + "/chain", withDestinationPath: "sub/up")
        XCTAssertEqual(try OutputFile.destination(of: dir + "/chain"), .regularFile(path: dir + "/sub/../file", mode: 0o604))
        try fm.createSymbolicLink(atPath: dir + "/dangling", withDestinationPath: "sub/made-by-the-write")
        XCTAssertEqual(try OutputFile.destination(of: dir + "/dangling"), .newFile(path: dir + "/sub/made-by-the-write"),
                       "a link to a new path in an existing directory: that path is made, as a shell's > would")
    }

    func testDestinationRefusesWhatIsNotARegularFileWithoutOpeningIt() throws {
        XCTAssertEqual(mkfifo(dir + "/fifo", 0o600), 0)
        XCTAssertThrowsError(try OutputFile.destination(of: dir + "/fifo")) { error in
            XCTAssertEqual(error as? OutputFileError, .notRegularFile(path: dir + "/fifo", what: "a FIFO"))
            XCTAssertEqual((error as? OutputFileError)?.isUsage, true, "exit status 2")
        }
        XCTAssertThrowsError(try OutputFile.destination(of: dir)) { error in
            XCTAssertEqual(error as? OutputFileError, .notRegularFile(path: dir, what: "a directory"))
        }
        XCTAssertThrowsError(try OutputFile.destination(of: "/dev/null")) { error in
            XCTAssertEqual(error as? OutputFileError, .notRegularFile(path: "/dev/null", what: "a character device"))
        }
    }

    func testWriteReplacesByRenameKeepingTheModeAndMakesNewFilesExclusively() throws {
        let path = dir + "/out"
        try OutputFile.write(Data("one".utf8), to: path)
        let mask = umask(0)
        umask(mask)
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o7777, 0o666 & ~mask)
        XCTAssertEqual(chmod(path, 0o600), 0)
        let before = inode(path)
        try OutputFile.write(Data("two".utf8), to: path)
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("two".utf8))
        XCTAssertNotEqual(inode(path), before, "a new file renamed over the old one")
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o7777, 0o600, "the replaced file's mode")
        XCTAssertThrowsError(try OutputFile.write(Data("three".utf8), to: path, replacing: false)) { error in
            XCTAssertEqual(error as? OutputFileError, .notRegularFile(path: path, what: "an existing file"))
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("two".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["out"], "no temporary file left")
    }

    func testAFailedWriteNamesTheCause() {
        XCTAssertThrowsError(try OutputFile.write(Data("x".utf8), to: dir + "/missing/out")) { error in
            XCTAssertEqual(error as? OutputFileError, .writeFailed(path: dir + "/missing/out", reason: "No such file or directory"))
            XCTAssertEqual((error as? OutputFileError)?.isUsage, false, "exit status 1")
        }
    }
}
