// No compositor, wrong socket (docs/design.md, rules from the field, 3) → exit status 1 and exactly
// one stderr line naming the socket tried; no crash, no hang.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class WindowNoCompositorTests: CompositorTestCase {
    /// An empty private XDG_RUNTIME_DIR, so no real compositor can be reached by accident.
    private func emptyRuntimeDirectory() throws -> String {
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-nocomp")
        addTeardownBlock { removeTree(dir) }
        return dir
    }

    private func runExpectingOneLine(_ env: [String: String], naming socket: String,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let demo = try startDemo(["--log-events"], environment: env)
        let status = demo.waitForExit(timeout: 20)
        XCTAssertEqual(status, .exited(1), "no compositor → exit 1\n\(demo.diagnostics())", file: file, line: line)
        demo.drainOutput()
        XCTAssertEqual(demo.stderrLines.count, 1, "exactly one stderr line: \(demo.stderrLines)", file: file, line: line)
        XCTAssertTrue(demo.stderrLines.first?.contains(socket) ?? false,
                      "the line names the socket \(socket): \(demo.stderrLines)", file: file, line: line)
        XCTAssertEqual(demo.events("configure"), [], file: file, line: line)
    }

    /// A socket that accepts connections but never answers (no compositor behind it, or a hung
    /// one): the start-up roundtrip gives up after 10 s — exit 1, one line naming the socket —
    /// where `wl_display_roundtrip` would wait forever.
    func testSocketThatNeverAnswersExitsOneWithOneLineAfterTenSeconds() throws {
        let dir = try emptyRuntimeDirectory()
        let path = dir + "/silent-0"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0, "bind \(path)")
        XCTAssertEqual(listen(fd, 4), 0)   // the kernel completes connections; nobody reads them
        let env = harnessEnvironment(["WAYLAND_DISPLAY": "silent-0", "WAYLAND_SOCKET": nil, "XDG_RUNTIME_DIR": dir])
        let started = monotonicNow()
        try runExpectingOneLine(env, naming: path)
        XCTAssertGreaterThanOrEqual(monotonicNow() - started, 9.5, "it waited the 10 s the compositor gets to answer")
    }

    func testWaylandDisplayUnsetExitsOneWithOneLineNamingTheDefaultSocket() throws {
        let dir = try emptyRuntimeDirectory()
        let env = harnessEnvironment(["WAYLAND_DISPLAY": nil, "WAYLAND_SOCKET": nil, "XDG_RUNTIME_DIR": dir])
        // libwayland's default when WAYLAND_DISPLAY is unset is "wayland-0".
        try runExpectingOneLine(env, naming: "wayland-0")
    }

    func testMissingSocketNameExitsOneWithOneLineNamingIt() throws {
        let dir = try emptyRuntimeDirectory()
        let env = harnessEnvironment(["WAYLAND_DISPLAY": "modalkit-no-such-socket", "WAYLAND_SOCKET": nil, "XDG_RUNTIME_DIR": dir])
        try runExpectingOneLine(env, naming: "modalkit-no-such-socket")
    }

    func testMissingAbsoluteSocketPathExitsOneWithOneLineNamingIt() throws {
        let dir = try emptyRuntimeDirectory()
        let path = dir + "/absent/wayland-7"
        let env = harnessEnvironment(["WAYLAND_DISPLAY": path, "WAYLAND_SOCKET": nil, "XDG_RUNTIME_DIR": dir])
        try runExpectingOneLine(env, naming: path)
    }

    /// Environment values out of range: WAYLAND_SOCKET that is no file descriptor number, and a
    /// socket path longer than sun_path — still exit 1 and one line that says what is wrong.
    func testWaylandSocketThatIsNoNumberExitsOneWithOneLineSayingSo() throws {
        let dir = try emptyRuntimeDirectory()
        let env = harnessEnvironment(["WAYLAND_SOCKET": "99999999999999999999", "XDG_RUNTIME_DIR": dir])
        try runExpectingOneLine(env, naming: "WAYLAND_SOCKET is not a file descriptor number")
    }

    func testSocketPathLongerThanSunPathExitsOneWithOneLineSayingSo() throws {
        let dir = try emptyRuntimeDirectory()
        let name = String(repeating: "w", count: 120)
        let env = harnessEnvironment(["WAYLAND_DISPLAY": name, "WAYLAND_SOCKET": nil, "XDG_RUNTIME_DIR": dir])
        try runExpectingOneLine(env, naming: "longer than the 107 bytes of a socket path")
    }

    func testSocketThatIsNotACompositorExitsOne() throws {
        // A plain file where the socket should be: connect fails, same rule.
        let dir = try emptyRuntimeDirectory()
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/wayland-5", contents: Data()))
        let env = harnessEnvironment(["WAYLAND_DISPLAY": "wayland-5", "WAYLAND_SOCKET": nil, "XDG_RUNTIME_DIR": dir])
        try runExpectingOneLine(env, naming: "wayland-5")
    }
}
