import XCTest
@testable import ModalKitWaylandClient
@testable import ModalKitWaylandDecorations

/// Client-side decorations: when they apply (xdg-decoration), the title bar's geometry and hit
/// regions (28 pt bar, 28 pt square close button at the right end), the content size from a
/// configure (xdg-shell: the configure size is the window geometry, which includes the bar), and
/// the bar's pointer rules (press moves, double-click within 400 ms maximizes, × acts on release).
final class ClientSideDecorationsTests: XCTestCase {
    // MARK: Mode

    func testWithoutADecorationManagerTheClientDecorates() {
        XCTAssertEqual(DecorationMode.resolve(managerOffered: false, configuredMode: nil), .clientSide)
        XCTAssertEqual(DecorationMode.resolve(managerOffered: false, configuredMode: 2), .clientSide)
    }

    func testTheDecorationConfigureDecidesWhenAManagerIsOffered() {
        XCTAssertEqual(DecorationMode.resolve(managerOffered: true, configuredMode: 2), .serverSide, "server_side")
        XCTAssertEqual(DecorationMode.resolve(managerOffered: true, configuredMode: 1), .clientSide, "client_side")
        XCTAssertEqual(DecorationMode.resolve(managerOffered: true, configuredMode: nil), .clientSide,
                       "nothing agreed yet: the window stays movable and closable")
    }

    func testTheBarIsHiddenWhenFullscreenOrServerSideAndKeptWhenMaximized() {
        XCTAssertTrue(TitleBarLayout.isShown(mode: .clientSide, states: []))
        XCTAssertTrue(TitleBarLayout.isShown(mode: .clientSide, states: [.maximized, .activated]))
        XCTAssertFalse(TitleBarLayout.isShown(mode: .clientSide, states: [.fullscreen]))
        XCTAssertFalse(TitleBarLayout.isShown(mode: .serverSide, states: []))
    }

    // MARK: Geometry

    func testGeometryAndRegionsAtScaleTwo() {
        let layout = TitleBarLayout(width: 400, scale: 2)
        XCTAssertEqual(TitleBarLayout.height, 28)
        XCTAssertEqual(layout.position.x, 0)
        XCTAssertEqual(layout.position.y, -28, "above the content surface")
        XCTAssertEqual(layout.bufferWidth, 800)
        XCTAssertEqual(layout.bufferHeight, 56)
        XCTAssertEqual(layout.closeButton, Rect(x: 372, y: 0, width: 28, height: 28))
        XCTAssertEqual(layout.closeButtonPixels, PixelRect(x: 744, y: 0, width: 56, height: 56))
        XCTAssertEqual(layout.region(atX: 10, y: 10), .bar)
        XCTAssertEqual(layout.region(atX: 371.9, y: 27.9), .bar)
        XCTAssertEqual(layout.region(atX: 372, y: 0), .close)
        XCTAssertEqual(layout.region(atX: 399.9, y: 27.9), .close)
        XCTAssertNil(layout.region(atX: 400, y: 5))
        XCTAssertNil(layout.region(atX: -0.5, y: 5))
        XCTAssertNil(layout.region(atX: 200, y: 28))
    }

    func testANarrowBarHasNoCloseButton() {
        let layout = TitleBarLayout(width: 50, scale: 1)
        XCTAssertNil(layout.closeButton, "50 pt cannot hold a 28 pt button and a grab area as wide")
        XCTAssertEqual(layout.region(atX: 45, y: 10), .bar)
        XCTAssertNotNil(TitleBarLayout(width: 56, scale: 1).closeButton)
    }

    func testWindowGeometryCoversTheBarAndTheContent() {
        XCTAssertEqual(TitleBarLayout.windowGeometry(contentWidth: 400, contentHeight: 300, barShown: true),
                       Rect(x: 0, y: -28, width: 400, height: 328))
        XCTAssertEqual(TitleBarLayout.windowGeometry(contentWidth: 400, contentHeight: 300, barShown: false),
                       Rect(x: 0, y: 0, width: 400, height: 300))
    }

    // MARK: Content size from a configure

    private func state() -> ConfigureState { ConfigureState(requestedWidth: 480, requestedHeight: 800) }

    func testWithTheBarTheContentIsTheConfigureHeightMinusTheBar() {
        var configure = state()
        configure.toplevelConfigure(width: 800, height: 600, states: [4])
        XCTAssertEqual(configure.surfaceConfigure(titleBarHeight: 28).configuration,
                       WindowConfiguration(width: 800, height: 572, states: [.activated]))
    }

    func testWithoutTheBarTheContentIsTheConfigureSize() {
        var configure = state()
        configure.toplevelConfigure(width: 800, height: 600, states: [])
        XCTAssertEqual(configure.surfaceConfigure(titleBarHeight: 0).configuration,
                       WindowConfiguration(width: 800, height: 600, states: []))
    }

    func testZeroByZeroWithTheBarGivesTheRequestedContentSize() {
        var configure = state()
        configure.toplevelConfigure(width: 0, height: 0, states: [])
        XCTAssertEqual(configure.surfaceConfigure(titleBarHeight: 28).configuration,
                       WindowConfiguration(width: 480, height: 800, states: []))
    }

    func testBoundsLimitTheWholeWindowIncludingTheBar() {
        var configure = state()
        configure.toplevelConfigureBounds(width: 1000, height: 500)
        configure.toplevelConfigure(width: 0, height: 0, states: [])
        XCTAssertEqual(configure.surfaceConfigure(titleBarHeight: 28).configuration.height, 472)
    }

    func testSwitchingDecorationModeAloneChangesTheContentSize() {
        var configure = state()
        configure.toplevelConfigure(width: 800, height: 600, states: [])
        XCTAssertEqual(configure.surfaceConfigure(titleBarHeight: 0).configuration.height, 600)
        // server_side → client_side: a decoration configure and an xdg_surface.configure only.
        let toClient = configure.surfaceConfigure(titleBarHeight: 28)
        XCTAssertEqual(toClient.configuration, WindowConfiguration(width: 800, height: 572, states: []))
        XCTAssertTrue(toClient.sizeChanged)
        let back = configure.surfaceConfigure(titleBarHeight: 0)
        XCTAssertEqual(back.configuration.height, 600)
        XCTAssertTrue(back.sizeChanged)
    }

    func testATinyConfigureNeverGivesAnEmptyContent() {
        var configure = state()
        configure.toplevelConfigure(width: 10, height: 20, states: [])
        XCTAssertEqual(configure.surfaceConfigure(titleBarHeight: 28).configuration.height, 1)
    }

    func testUpcomingStatesArePendingThenApplied() {
        var configure = state()
        configure.toplevelConfigure(width: 800, height: 600, states: [2])
        XCTAssertEqual(configure.upcomingStates, [.fullscreen])
        _ = configure.surfaceConfigure()
        XCTAssertEqual(configure.upcomingStates, [.fullscreen], "an xdg_surface.configure alone keeps the states")
    }

    // MARK: Pointer on the bar

    private let left = TitleBarPointerState.buttonLeft

    private func pointer(at x: Double, _ y: Double) -> TitleBarPointerState {
        var state = TitleBarPointerState(layout: TitleBarLayout(width: 400, scale: 1))
        state.enter(x: x, y: y)
        return state
    }

    func testPressOnTheBarMovesWithThePressSerial() {
        var state = pointer(at: 100, 10)
        XCTAssertEqual(state.button(left, pressed: true, serial: 77, time: 1000), .move(serial: 77))
        XCTAssertNil(state.button(left, pressed: false, serial: 78, time: 1050))
    }

    func testDoubleClickWithin400MillisecondsTogglesMaximized() {
        var state = pointer(at: 100, 10)
        XCTAssertEqual(state.button(left, pressed: true, serial: 1, time: 1000), .move(serial: 1))
        _ = state.button(left, pressed: false, serial: 2, time: 1080)
        XCTAssertEqual(state.button(left, pressed: true, serial: 3, time: 1400), .toggleMaximized)
        _ = state.button(left, pressed: false, serial: 4, time: 1450)
        XCTAssertEqual(state.button(left, pressed: true, serial: 5, time: 1500), .move(serial: 5),
                       "a third press starts a new click, not another double-click")
    }

    /// Bar, content, bar within the double-click time: the press on the content (the pointer
    /// leaves the bar, presses elsewhere, comes back) ends the sequence, so the second bar press
    /// is a new first click (a move), not a maximize.
    func testBarContentBarIsNoDoubleClick() {
        var state = pointer(at: 100, 10)
        XCTAssertEqual(state.button(left, pressed: true, serial: 1, time: 1000), .move(serial: 1))
        _ = state.button(left, pressed: false, serial: 2, time: 1040)
        state.leave()
        state.pressedElsewhere()   // the press on the content (Window → title bar)
        state.enter(x: 100, y: 10)
        XCTAssertEqual(state.button(left, pressed: true, serial: 5, time: 1200), .move(serial: 5),
                       "bar, content, bar within 300 ms")
        _ = state.button(left, pressed: false, serial: 6, time: 1240)
        XCTAssertEqual(state.button(left, pressed: true, serial: 7, time: 1300), .toggleMaximized,
                       "two consecutive bar presses after it are a double-click again")
    }

    /// Left, right, left on the bar within the double-click time: the secondary press ends the
    /// sequence (it opens the window menu), the last left press only moves.
    func testLeftRightLeftIsNoDoubleClick() {
        var state = pointer(at: 100, 10)
        let right = TitleBarPointerState.buttonRight
        XCTAssertEqual(state.button(left, pressed: true, serial: 1, time: 1000), .move(serial: 1))
        _ = state.button(left, pressed: false, serial: 2, time: 1040)
        XCTAssertEqual(state.button(right, pressed: true, serial: 3, time: 1100), .showWindowMenu(serial: 3, x: 100, y: -18))
        _ = state.button(right, pressed: false, serial: 4, time: 1140)
        XCTAssertEqual(state.button(left, pressed: true, serial: 5, time: 1200), .move(serial: 5), "left, right, left within 300 ms")
    }

    /// Any other press between the two bar presses ends the sequence too: the middle button, or
    /// the primary button on the close button (pressed, then released off it).
    func testAMiddlePressOrAPressOnCloseInBetweenIsNoDoubleClick() {
        var state = pointer(at: 100, 10)
        XCTAssertEqual(state.button(left, pressed: true, serial: 1, time: 1000), .move(serial: 1))
        _ = state.button(0x112, pressed: true, serial: 2, time: 1050)   // BTN_MIDDLE
        XCTAssertEqual(state.button(left, pressed: true, serial: 3, time: 1100), .move(serial: 3))
        state.motion(x: 390, y: 14)
        XCTAssertNil(state.button(left, pressed: true, serial: 4, time: 1150))
        state.motion(x: 100, y: 10)
        XCTAssertNil(state.button(left, pressed: false, serial: 5, time: 1160))
        XCTAssertEqual(state.button(left, pressed: true, serial: 6, time: 1200), .move(serial: 6))
    }

    /// Leaving and re-entering the bar with no press anywhere keeps the sequence: still a double-click.
    func testLeavingTheBarWithoutPressingKeepsTheDoubleClick() {
        var state = pointer(at: 100, 10)
        XCTAssertEqual(state.button(left, pressed: true, serial: 1, time: 1000), .move(serial: 1))
        state.leave()
        state.enter(x: 110, y: 12)
        XCTAssertEqual(state.button(left, pressed: true, serial: 2, time: 1200), .toggleMaximized)
    }

    func testTwoPressesFurtherApartThan400MillisecondsBothMove() {
        var state = pointer(at: 100, 10)
        XCTAssertEqual(state.button(left, pressed: true, serial: 1, time: 1000), .move(serial: 1))
        XCTAssertEqual(state.button(left, pressed: true, serial: 3, time: 1401), .move(serial: 3))
    }

    func testClickOnCloseClosesOnRelease() {
        var state = pointer(at: 390, 14)
        XCTAssertEqual(state.hovered, .close)
        XCTAssertNil(state.button(left, pressed: true, serial: 1, time: 10), "nothing on press")
        XCTAssertEqual(state.button(left, pressed: false, serial: 2, time: 60), .close)
    }

    func testPressOnCloseReleasedElsewhereDoesNothing() {
        var state = pointer(at: 390, 14)
        _ = state.button(left, pressed: true, serial: 1, time: 10)
        state.motion(x: 200, y: 14)
        XCTAssertNil(state.hovered)
        XCTAssertNil(state.button(left, pressed: false, serial: 2, time: 60))
        state.motion(x: 390, y: 14)
        XCTAssertNil(state.button(left, pressed: false, serial: 3, time: 70), "the press was used up")
    }

    func testLeaveCancelsAPressOnClose() {
        var state = pointer(at: 390, 14)
        _ = state.button(left, pressed: true, serial: 1, time: 10)
        state.leave()
        XCTAssertNil(state.hovered)
        state.enter(x: 390, y: 14)
        XCTAssertNil(state.button(left, pressed: false, serial: 2, time: 60))
    }

    func testHoverIsOnlyTheCloseButton() {
        var state = pointer(at: 100, 10)
        XCTAssertNil(state.hovered)
        state.motion(x: 372, y: 1)
        XCTAssertEqual(state.hovered, .close)
        state.motion(x: 371, y: 1)
        XCTAssertNil(state.hovered)
    }

    func testSecondaryButtonOpensTheWindowMenuInMainSurfaceCoordinates() {
        var state = pointer(at: 120, 10)
        XCTAssertEqual(state.button(TitleBarPointerState.buttonRight, pressed: true, serial: 9, time: 5),
                       .showWindowMenu(serial: 9, x: 120, y: -18))
    }
}
