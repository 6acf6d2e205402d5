import Glibc
import XCTest
@testable import ModalKitWaylandClient

/// No compositor or a wrong socket: an error naming the socket tried, never a crash
/// (docs/design.md, rules from the field, 3), and the one-line error contract.
final class ConnectionErrorTests: XCTestCase {
    func testMissingSocketThrowsNoCompositorNamingThePath() {
        let path = "/nonexistent-modalkit-dir/wayland-test-\(getpid())"
        XCTAssertThrowsError(try WaylandConnection(socket: path)) { error in
            XCTAssertEqual(error as? WaylandError,
                           .noCompositor(socket: path, reason: "No such file or directory"))
            XCTAssertEqual("\(error)",
                           "cannot connect to Wayland compositor at '\(path)': No such file or directory")
        }
    }

    func testSocketPathWithWaylandDisplayUnset() {
        let target = SocketTarget(socket: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
        XCTAssertEqual(target.path, "/run/user/1000/wayland-0")
        XCTAssertEqual(target.notes, ["WAYLAND_DISPLAY is unset"])
    }

    func testSocketPathFromWaylandDisplay() {
        let target = SocketTarget(socket: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/0", "WAYLAND_DISPLAY": "wayland-9"])
        XCTAssertEqual(target.path, "/run/user/0/wayland-9")
        XCTAssertEqual(target.notes, [])
    }

    func testAbsoluteNameIsUsedAsIs() {
        let target = SocketTarget(socket: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/0", "WAYLAND_DISPLAY": "/tmp/sock"])
        XCTAssertEqual(target.path, "/tmp/sock")
        XCTAssertEqual(SocketTarget(socket: "/tmp/x", environment: ["WAYLAND_DISPLAY": "wayland-1"]).path, "/tmp/x")
    }

    func testExplicitSocketWinsOverWaylandDisplay() {
        let target = SocketTarget(socket: "wl-test", environment: ["XDG_RUNTIME_DIR": "/r", "WAYLAND_DISPLAY": "wayland-1"])
        XCTAssertEqual(target.path, "/r/wl-test")
    }

    func testRuntimeDirUnset() {
        let target = SocketTarget(socket: nil, environment: [:])
        XCTAssertEqual(target.path, "wayland-0")
        XCTAssertEqual(target.notes, ["WAYLAND_DISPLAY is unset", "XDG_RUNTIME_DIR is unset"])
        XCTAssertEqual("\(WaylandError.noCompositor(socket: target.path, reason: "No such file or directory (WAYLAND_DISPLAY is unset; XDG_RUNTIME_DIR is unset)"))",
                       "cannot connect to Wayland compositor at 'wayland-0': No such file or directory (WAYLAND_DISPLAY is unset; XDG_RUNTIME_DIR is unset)")
    }

    func testRuntimeDirEmptyOrRelativeIsNamed() {
        let empty = SocketTarget(socket: nil, environment: ["XDG_RUNTIME_DIR": "", "WAYLAND_DISPLAY": "wayland-0"])
        XCTAssertEqual(empty.path, "/wayland-0")
        XCTAssertEqual(empty.notes, ["XDG_RUNTIME_DIR is empty"])
        let relative = SocketTarget(socket: nil, environment: ["XDG_RUNTIME_DIR": "run", "WAYLAND_DISPLAY": "wayland-0"])
        XCTAssertEqual(relative.path, "run/wayland-0")
        XCTAssertEqual(relative.notes, ["XDG_RUNTIME_DIR is not an absolute path"])
    }

    func testInheritedSocketFD() {
        XCTAssertEqual(SocketTarget(socket: nil, environment: ["WAYLAND_SOCKET": "5"]).path, "fd 5")
    }

    func testDescriptionsAreOneLine() {
        let errors: [WaylandError] = [
            .noCompositor(socket: "/run/user/0/wayland-9", reason: "No such file or directory"),
            .missingGlobal("wl_shm"),
            .connectionLost("Broken pipe"),
            .protocolError(interface: "xdg_surface", objectID: 12, code: 3, message: "no buffer"),
            .bufferAllocation("mmap: Cannot allocate memory"),
            .bufferTooLarge(width: 24576, height: 24576),
            .windowTooLarge(width: 17000, height: 200),
            .invalidOptions("requested size must be at least 1x1, got 0x5"),
            .closed,
        ]
        for error in errors {
            XCTAssertFalse(error.description.contains("\n"), error.description)
            XCTAssertFalse(error.description.isEmpty)
        }
        XCTAssertEqual(WaylandError.missingGlobal("wl_shm").description, "compositor lacks required global wl_shm")
        XCTAssertEqual(WaylandError.protocolError(interface: "xdg_surface", objectID: 12, code: 3, message: "").description,
                       "Wayland protocol error 3 on xdg_surface@12")
        XCTAssertEqual(WaylandError.connectionLost("Broken pipe").description,
                       "lost connection to the Wayland compositor: Broken pipe")
    }

    func testMonotonicSecondsIsTheMonotonicClock() {
        let a = monotonicSeconds()
        usleep(20_000)
        let b = monotonicSeconds()
        XCTAssertGreaterThanOrEqual(b - a, 0.019)
        XCTAssertLessThan(b - a, 1.0)
    }
}
