import XCTest
@testable import ModalKitWaylandClient

/// Every environment value the client reads is parsed and range-checked: out of range is clamped
/// or ignored, never a trap on integer conversion.
final class EnvironmentValuesTests: XCTestCase {
    func testCursorSizeInRangeIsTaken() {
        XCTAssertEqual(EnvironmentValues.cursorSize("24"), 24)
        XCTAssertEqual(EnvironmentValues.cursorSize("1"), 1)
        XCTAssertEqual(EnvironmentValues.cursorSize("48"), 48)
        XCTAssertEqual(EnvironmentValues.cursorSize("256"), 256)
        XCTAssertEqual(EnvironmentValues.cursorSize(" 32\t"), 32)
        XCTAssertEqual(EnvironmentValues.cursorSize("+32"), 32)
    }

    func testCursorSizeTooLargeIsClampedWhateverItsLength() {
        XCTAssertEqual(EnvironmentValues.cursorSize("257"), 256)
        XCTAssertEqual(EnvironmentValues.cursorSize("3000000000"), 256)        // > Int32.max
        XCTAssertEqual(EnvironmentValues.cursorSize("1100000000"), 256)        // × 2 > Int32.max
        XCTAssertEqual(EnvironmentValues.cursorSize("9223372036854775807"), 256)   // Int.max
        XCTAssertEqual(EnvironmentValues.cursorSize("99999999999999999999999999"), 256)   // > Int.max
    }

    func testCursorSizeUnsetZeroNegativeOrNotANumberIsTheDefault() {
        for raw in [nil, "", " ", "0", "-1", "-3000000000", "24px", "abc", "2 4", "0x20", "+", "24.5", "١٢"] {
            XCTAssertEqual(EnvironmentValues.cursorSize(raw), 24, "XCURSOR_SIZE=\(raw ?? "(unset)")")
        }
    }

    func testCursorPixelSizeNeverOverflowsAndIsClamped() {
        XCTAssertEqual(EnvironmentValues.cursorPixelSize(logicalSize: 24, scale: 1), 24)
        XCTAssertEqual(EnvironmentValues.cursorPixelSize(logicalSize: 24, scale: 2), 48)
        XCTAssertEqual(EnvironmentValues.cursorPixelSize(logicalSize: 256, scale: 4), 1024)
        XCTAssertEqual(EnvironmentValues.cursorPixelSize(logicalSize: 256, scale: 8), 1024)
        XCTAssertEqual(EnvironmentValues.cursorPixelSize(logicalSize: 1_100_000_000, scale: 2), 1024)
        XCTAssertEqual(EnvironmentValues.cursorPixelSize(logicalSize: Int.max, scale: Int.max), 1024)
        XCTAssertEqual(EnvironmentValues.cursorPixelSize(logicalSize: 24, scale: 0), 24)
        XCTAssertEqual(EnvironmentValues.cursorPixelSize(logicalSize: -5, scale: -5), 1)
    }

    func testCursorTheme() {
        XCTAssertEqual(EnvironmentValues.cursorTheme("Adwaita"), "Adwaita")
        XCTAssertEqual(EnvironmentValues.cursorTheme("DMZ-White"), "DMZ-White")
        XCTAssertNil(EnvironmentValues.cursorTheme(nil))
        XCTAssertNil(EnvironmentValues.cursorTheme(""))
        XCTAssertNil(EnvironmentValues.cursorTheme("../../etc"))
        XCTAssertNil(EnvironmentValues.cursorTheme("a\nb"))
        XCTAssertNil(EnvironmentValues.cursorTheme(String(repeating: "x", count: 256)))
        XCTAssertEqual(EnvironmentValues.cursorTheme(String(repeating: "x", count: 255))?.count, 255)
    }

    func testSocketFD() {
        XCTAssertEqual(EnvironmentValues.socketFD("5"), 5)
        XCTAssertEqual(EnvironmentValues.socketFD("0"), 0)
        XCTAssertEqual(EnvironmentValues.socketFD("2147483647"), Int32.max)
        for raw in [nil, "", "-1", "2147483648", "99999999999999999999", "5x", " 5", "fd"] {
            XCTAssertNil(EnvironmentValues.socketFD(raw), raw ?? "(unset)")
        }
    }

    func testBadWaylandSocketIsNamedInTheMessage() {
        let target = SocketTarget(socket: nil, environment: ["WAYLAND_SOCKET": "99999999999999999999"])
        XCTAssertEqual(target.path, "WAYLAND_SOCKET")
        XCTAssertEqual(target.notes, ["WAYLAND_SOCKET is not a file descriptor number"])
    }

    func testSocketPathLongerThanSunPathSaysSo() {
        let runtime = "/" + String(repeating: "r", count: 100)
        let target = SocketTarget(socket: nil, environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": "wayland-1"])
        XCTAssertEqual(target.path, runtime + "/wayland-1")
        XCTAssertEqual(target.notes, ["longer than the 107 bytes of a socket path"])
        let fits = SocketTarget(socket: nil, environment: ["XDG_RUNTIME_DIR": "/" + String(repeating: "r", count: 96),
                                                          "WAYLAND_DISPLAY": "wayland-1"])
        XCTAssertEqual(fits.path.utf8.count, 107)
        XCTAssertEqual(fits.notes, [])
    }

    /// The cursor theme reads the process environment through these parsers: the value that used
    /// to trap (`Int32(3000000000 × scale)`) gives the clamped size.
    func testCursorThemeSizeFromTheProcessEnvironment() {
        let saved = EnvironmentValues.raw("XCURSOR_SIZE")
        defer { if let saved { setenv("XCURSOR_SIZE", saved, 1) } else { unsetenv("XCURSOR_SIZE") } }
        setenv("XCURSOR_SIZE", "3000000000", 1)
        XCTAssertEqual(CursorTheme.logicalSize, 256)
        XCTAssertEqual(EnvironmentValues.cursorPixelSize(logicalSize: CursorTheme.logicalSize, scale: 2), 512)
        setenv("XCURSOR_SIZE", "1100000000", 1)
        XCTAssertEqual(CursorTheme.logicalSize, 256)
        unsetenv("XCURSOR_SIZE")
        XCTAssertEqual(CursorTheme.logicalSize, 24)
    }
}
