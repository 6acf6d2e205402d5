import XCTest
@testable import ModalKitWaylandClient

/// xdg-shell configure resolution; a zero width or height means "you choose" (docs/design.md,
/// rules from the field, 1).
final class ConfigureStateTests: XCTestCase {
    private func state() -> ConfigureState { ConfigureState(requestedWidth: 480, requestedHeight: 800) }

    func testZeroByZeroGivesTheRequestedSize() {
        var configure = state()
        configure.toplevelConfigure(width: 0, height: 0, states: [])
        let result = configure.surfaceConfigure()
        XCTAssertEqual(result.configuration, WindowConfiguration(width: 480, height: 800, states: []))
        XCTAssertTrue(result.sizeChanged)
    }

    func testZeroWidthKeepsTheGivenHeight() {
        var configure = state()
        configure.toplevelConfigure(width: 0, height: 600, states: [])
        XCTAssertEqual(configure.surfaceConfigure().configuration.width, 480)
        XCTAssertEqual(configure.current?.height, 600)
    }

    func testZeroHeightKeepsTheGivenWidth() {
        var configure = state()
        configure.toplevelConfigure(width: 700, height: 0, states: [])
        let size = configure.surfaceConfigure().configuration
        XCTAssertEqual(size.width, 700)
        XCTAssertEqual(size.height, 800)
    }

    func testCompositorSizeIsUsedAsIs() {
        var configure = state()
        configure.toplevelConfigure(width: 640, height: 480, states: [1, 4])
        XCTAssertEqual(configure.surfaceConfigure().configuration,
                       WindowConfiguration(width: 640, height: 480, states: [.maximized, .activated]))
    }

    func testNegativeSizeIsTreatedAsZero() {
        var configure = state()
        configure.toplevelConfigure(width: -5, height: -1, states: [])
        let size = configure.surfaceConfigure().configuration
        XCTAssertEqual(size.width, 480)
        XCTAssertEqual(size.height, 800)
    }

    func testToplevelConfigureIsOnlyStoredUntilTheSurfaceConfigure() {
        var configure = state()
        configure.toplevelConfigure(width: 300, height: 200, states: [])
        XCTAssertNil(configure.current, "not applied before xdg_surface.configure")
        _ = configure.surfaceConfigure()
        XCTAssertEqual(configure.current?.width, 300)
        XCTAssertNil(configure.pending)
    }

    func testSurfaceConfigureAloneKeepsTheCurrentSize() {
        var configure = state()
        configure.toplevelConfigure(width: 300, height: 200, states: [4])
        _ = configure.surfaceConfigure()
        let result = configure.surfaceConfigure()   // e.g. after a decoration mode change
        XCTAssertEqual(result.configuration, WindowConfiguration(width: 300, height: 200, states: [.activated]))
        XCTAssertFalse(result.sizeChanged)
    }

    func testFirstSurfaceConfigureWithoutToplevelConfigureGivesTheRequestedSize() {
        var configure = state()
        XCTAssertEqual(configure.surfaceConfigure().configuration, WindowConfiguration(width: 480, height: 800, states: []))
    }

    func testStateOnlyChangeIsNotASizeChange() {
        var configure = state()
        configure.toplevelConfigure(width: 0, height: 0, states: [])
        _ = configure.surfaceConfigure()
        configure.toplevelConfigure(width: 0, height: 0, states: [4])
        let result = configure.surfaceConfigure()
        XCTAssertFalse(result.sizeChanged)
        XCTAssertEqual(result.configuration.states, [.activated])
    }

    func testResizeIsASizeChange() {
        var configure = state()
        configure.toplevelConfigure(width: 0, height: 0, states: [])
        _ = configure.surfaceConfigure()
        configure.toplevelConfigure(width: 800, height: 600, states: [3])
        let result = configure.surfaceConfigure()
        XCTAssertTrue(result.sizeChanged)
        XCTAssertEqual(result.configuration, WindowConfiguration(width: 800, height: 600, states: [.resizing]))
    }

    func testZeroDimensionFallsBackWithinTheBounds() {
        var configure = state()
        configure.toplevelConfigureBounds(width: 1024, height: 600)
        configure.toplevelConfigure(width: 0, height: 0, states: [])
        XCTAssertEqual(configure.surfaceConfigure().configuration, WindowConfiguration(width: 480, height: 600, states: []))
    }

    func testZeroBoundsMeanUnknown() {
        var configure = state()
        configure.toplevelConfigureBounds(width: 0, height: 0)
        configure.toplevelConfigure(width: 0, height: 0, states: [])
        XCTAssertEqual(configure.surfaceConfigure().configuration.height, 800)
    }

    func testBoundsDoNotLimitACompositorChosenSize() {
        var configure = state()
        configure.toplevelConfigureBounds(width: 400, height: 400)
        configure.toplevelConfigure(width: 900, height: 0, states: [])
        let size = configure.surfaceConfigure().configuration
        XCTAssertEqual(size.width, 900)
        XCTAssertEqual(size.height, 400)
    }

    func testStatesIgnoreUnknownValues() {
        XCTAssertEqual(ToplevelStates(protocolValues: [2, 5, 6, 7, 8, 9, 0, 1234]),
                       [.fullscreen, .tiledLeft, .tiledRight, .tiledTop, .tiledBottom])
        XCTAssertEqual(ToplevelStates(protocolValues: []), [])
    }
}
