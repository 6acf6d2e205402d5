// `modal-demo ask` on the installed binary, without a compositor: a bad command line or bad rows
// on standard input is one stderr line and exit 2, before any connection; no compositor is one
// line and exit 2 (1 is cancel for a prompt). Never a crash, never a hang.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class AskCommandTests: CompositorTestCase {
    /// Runs the installed `modal-demo ask ARGUMENTS` (`command` then `ARGUMENTS`) with `stdin`
    /// (nil: none, its end at once) in an environment with no compositor; returns the status,
    /// stdout and stderr.
    private func run(_ arguments: [String], stdin: Data?, command: String = "ask") throws -> (status: Int32, out: String, err: [String]) {
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-ask")
        defer { removeTree(dir) }
        signal(SIGPIPE, SIG_IGN)   // a child that exits before reading all of stdin: EPIPE, not a signal
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try InstalledProducts.demo())
        process.arguments = [command] + arguments
        process.environment = harnessEnvironment(["WAYLAND_DISPLAY": "modalkit-no-such-socket", "WAYLAND_SOCKET": nil,
                                                  "XDG_RUNTIME_DIR": dir])
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin {
            try? input.fileHandleForWriting.write(contentsOf: stdin)
        }
        try? input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        let errLines = String(decoding: errData, as: UTF8.self).split(separator: "\n").map(String.init)
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), errLines)
    }

    private func expectUsage(_ arguments: [String], stdin: Data? = nil, _ line: String,
                             file: StaticString = #filePath, line l: UInt = #line) throws {
        let r = try run(arguments, stdin: stdin)
        XCTAssertEqual(r.status, 2, "\(arguments)", file: file, line: l)
        XCTAssertEqual(r.err, ["modal-demo: " + line], file: file, line: l)
        XCTAssertEqual(r.out, "", file: file, line: l)
    }

    func testUsageErrors() throws {
        try expectUsage(["yesno"], "unknown kind 'yesno' for ask (expected question, warning, info, error, entry, password, list)")
        try expectUsage(["question", "--timeout", "0"], "--timeout expects seconds above 0 and at most 86400, got '0'")
        try expectUsage(["entry", "--multiple"], "--multiple is not an option of ask entry")
    }

    func testBadRowsOnStandardInput() throws {
        try expectUsage(["list"], stdin: Data(),
                        "ask list has no rows (give them as arguments or one per line on standard input)")
        try expectUsage(["list"], stdin: Data("a\n".utf8) + Data([0xFF, 0xFE, 0x0A]), "standard input is not UTF-8 text (line 2)")
        try expectUsage(["list"], stdin: Data(String(repeating: "row\n", count: 100_000).utf8),
                        "too many rows on standard input for ask list (more than 10000)")
    }

    func testClosedStandardInput() throws {
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-ask")
        defer { removeTree(dir) }
        let demo = try InstalledProducts.demo()
        // `<&-`: descriptor 0 closed, as a script's `exec <&-` leaves it.
        let r = try ChildProcess.run(["/bin/sh", "-c", "exec \"$0\" ask list <&-", demo],
                                     environment: harnessEnvironment(["WAYLAND_DISPLAY": "modalkit-no-such-socket",
                                                                      "XDG_RUNTIME_DIR": dir]), timeout: 10)
        XCTAssertEqual(r.status, .exited(2))
        XCTAssertEqual(r.stderr.split(separator: "\n").map(String.init), ["modal-demo: ask list has no rows and standard input is closed"])
    }

    /// pinentry without a compositor answers each prompt command with an Assuan error (gpg then
    /// says "No pinentry"), one stderr line each, and goes on: GETINFO, BYE, exit 0.
    func testPinentryWithoutACompositorAnswersERR() throws {
        let r = try run([], stdin: Data("GETPIN\nCONFIRM\nGETINFO flavor\nBYE\n".utf8), command: "pinentry")
        XCTAssertEqual(r.status, 0, "\(r.err)")
        XCTAssertEqual(r.out.split(separator: "\n").map(String.init),
                       ["OK Pleased to meet you", "S ERROR modalkit.? 83886165 ", "ERR 83886165 No pinentry <Pinentry>",
                        "S ERROR modalkit.? 83886165 ", "ERR 83886165 No pinentry <Pinentry>",
                        "D modalkit", "OK", "OK closing connection"])
        XCTAssertEqual(r.err.count, 2, "\(r.err)")
        for line in r.err { XCTAssertTrue(line.hasPrefix("modal-demo: pinentry: ") && line.contains("modalkit-no-such-socket"), line) }
    }

    func testNoCompositorIsTwoWithOneLine() throws {
        let r = try run(["question", "--text", "Delete?"], stdin: nil)
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.err.count, 1, "\(r.err)")
        XCTAssertTrue(r.err.first?.contains("modalkit-no-such-socket") ?? false, "\(r.err)")
        XCTAssertEqual(r.out, "")
    }
}
