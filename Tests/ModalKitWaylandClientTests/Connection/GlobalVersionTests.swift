import XCTest
@testable import ModalKitWaylandClient

/// The version rule for globals (wl_registry.bind): bind `min(offered, supported)`; below the
/// minimum the global is not bound — a required one is an error naming it, an optional one is
/// ignored. The minimums come from the `since` attributes of what the client calls.
final class GlobalVersionTests: XCTestCase {
    func testBindsTheOfferedVersionCappedAtTheSupportedOne() {
        let compositor = GlobalVersions.compositor
        XCTAssertEqual(compositor.bindVersion(offered: 4), 4)
        XCTAssertEqual(compositor.bindVersion(offered: 5), 5)
        XCTAssertEqual(compositor.bindVersion(offered: 6), 5, "never newer than the client implements")
        XCTAssertEqual(GlobalVersions.seat.bindVersion(offered: 9), 8)
        XCTAssertEqual(GlobalVersions.seat.bindVersion(offered: 1), 1)
        XCTAssertEqual(GlobalVersions.xdgWmBase.bindVersion(offered: 1), 1)
        XCTAssertEqual(GlobalVersions.xdgWmBase.bindVersion(offered: 7), 5)
    }

    func testBelowTheMinimumNothingIsBound() {
        XCTAssertNil(GlobalVersions.compositor.bindVersion(offered: 3))
        XCTAssertNil(GlobalVersions.compositor.bindVersion(offered: 1))
        let optional = GlobalVersion(interface: "wp_example", minimum: 2, supported: 3, neededFor: nil, isRequired: false)
        XCTAssertNil(optional.bindVersion(offered: 1))
        XCTAssertEqual(optional.bindVersion(offered: 2), 2)
    }

    /// wayland.xml: wl_surface.damage_buffer is `since="4"`, set_buffer_scale `since="3"`; both
    /// are sent without a version check, so wl_compositor 4 is the minimum. Everything else the
    /// client calls exists in version 1 of its interface.
    func testTheMinimumsFollowWhatTheClientCalls() {
        XCTAssertEqual(GlobalVersions.compositor.minimum, 4)
        for versions in GlobalVersions.all where versions.interface != "wl_compositor" {
            XCTAssertEqual(versions.minimum, 1, versions.interface)
        }
        for versions in GlobalVersions.all {
            XCTAssertGreaterThanOrEqual(versions.supported, versions.minimum, versions.interface)
        }
        XCTAssertEqual(GlobalVersions.all.filter(\.isRequired).map(\.interface), ["wl_compositor", "wl_shm", "xdg_wm_base"])
        XCTAssertEqual(Set(GlobalVersions.all.map(\.interface)).count, GlobalVersions.all.count)
    }

    func testTooOldErrorIsOneLineNamingInterfaceAndVersions() {
        let error = GlobalVersions.compositor.tooOldError(offered: 3)
        XCTAssertEqual(error, .globalTooOld(interface: "wl_compositor", offered: 3, needed: 4,
                                            neededFor: "wl_surface.damage_buffer"))
        XCTAssertEqual(error.description,
                       "the compositor offers wl_compositor version 3; \(clientName) needs 4 (for wl_surface.damage_buffer)")
        XCTAssertFalse(error.description.contains("\n"))
        let plain = WaylandError.globalTooOld(interface: "wp_example", offered: 1, needed: 2, neededFor: nil)
        XCTAssertEqual(plain.description, "the compositor offers wp_example version 1; \(clientName) needs 2")
    }
}
