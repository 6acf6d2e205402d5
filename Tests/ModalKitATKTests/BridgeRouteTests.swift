import Foundation
import ModalKitDesktopSettings
import XCTest
@testable import ModalKitATK

/// Where the bridge would find an accessibility bus, from the environment alone (at-spi2-core's
/// rules), and when it does not try at all.
final class BridgeRouteTests: XCTestCase {
    func testNoATBridgeOneDisablesWhateverElseIsSet() {
        XCTAssertEqual(AccessibilityBridge.route(environment: ["NO_AT_BRIDGE": "1", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"]),
                       .failure(.disabled))
        XCTAssertEqual(AccessibilityBridge.route(environment: ["NO_AT_BRIDGE": "1.0"]), .failure(.disabled))
        XCTAssertEqual(AccessibilityBridge.route(environment: ["NO_AT_BRIDGE": "0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"]),
                       .success(.sessionBus("unix:path=/x")), "only the value 1 disables")
        XCTAssertEqual(AccessibilityBridge.route(environment: ["NO_AT_BRIDGE": "yes", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"]),
                       .success(.sessionBus("unix:path=/x")))
    }

    func testTheAccessibilityBusAddressThenTheSessionBusThenAnXDisplay() throws {
        XCTAssertEqual(AccessibilityBridge.route(environment: ["AT_SPI_BUS_ADDRESS": "unix:path=/a",
                                                               "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"]), .success(.direct))
        XCTAssertEqual(AccessibilityBridge.route(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x", "DISPLAY": ":0"]),
                       .success(.sessionBus("unix:path=/x")))
        XCTAssertEqual(AccessibilityBridge.route(environment: ["DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": ":0"]),
                       .success(.xDisplay), "an empty address is none")
        XCTAssertEqual(AccessibilityBridge.route(environment: [:]), .failure(.noBus))
        XCTAssertEqual(AccessibilityBridge.route(environment: ["XDG_RUNTIME_DIR": "/nonexistent-modalkit"]), .failure(.noBus))

        // $XDG_RUNTIME_DIR/bus, when it is a socket (the systemd user bus).
        let dir = NSTemporaryDirectory() + "/modalkit-route-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertEqual(AccessibilityBridge.route(environment: ["XDG_RUNTIME_DIR": dir]), .failure(.noBus))
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = dir + "/bus"
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(AccessibilityBridge.route(environment: ["XDG_RUNTIME_DIR": dir]), .success(.sessionBus("unix:path=\(path)")))
    }
}
