import XCTest
@testable import ModalKitWaylandClient
@testable import ModalKitWaylandDecorations

/// The invisible resize borders: when they exist (client-side bar, not maximized/fullscreen/tiled),
/// where they are (8 pt strips outside the window geometry, which xdg-shell says excludes them),
/// which `xdg_toplevel.resize_edge` a point asks for (corners 16 pt along each edge), the cursor
/// names, and the minimum size.
final class ResizeBorderLayoutTests: XCTestCase {
    func testEdgeValuesAreXdgShells() {
        // xdg-shell xdg_toplevel.resize_edge.
        let expected: [(ResizeEdge, UInt32)] = [(.top, 1), (.bottom, 2), (.left, 4), (.topLeft, 5),
                                                (.bottomLeft, 6), (.right, 8), (.topRight, 9), (.bottomRight, 10)]
        for (edge, value) in expected { XCTAssertEqual(edge.rawValue, value, "\(edge)") }
    }

    func testCursorNamesAreTheThemeNamesOfEachEdge() {
        XCTAssertEqual(ResizeEdge.top.cursorName, "top_side")
        XCTAssertEqual(ResizeEdge.bottom.cursorName, "bottom_side")
        XCTAssertEqual(ResizeEdge.left.cursorName, "left_side")
        XCTAssertEqual(ResizeEdge.right.cursorName, "right_side")
        XCTAssertEqual(ResizeEdge.topLeft.cursorName, "top_left_corner")
        XCTAssertEqual(ResizeEdge.topRight.cursorName, "top_right_corner")
        XCTAssertEqual(ResizeEdge.bottomLeft.cursorName, "bottom_left_corner")
        XCTAssertEqual(ResizeEdge.bottomRight.cursorName, "bottom_right_corner")
    }

    func testBordersOnlyAroundAFreeClientSideWindow() {
        XCTAssertTrue(ResizeBorderLayout.isShown(barShown: true, states: []))
        XCTAssertTrue(ResizeBorderLayout.isShown(barShown: true, states: [.activated, .resizing]))
        XCTAssertFalse(ResizeBorderLayout.isShown(barShown: false, states: []), "server-side: the compositor's")
        XCTAssertFalse(ResizeBorderLayout.isShown(barShown: true, states: [.maximized]))
        XCTAssertFalse(ResizeBorderLayout.isShown(barShown: true, states: [.fullscreen]))
        for tiled: ToplevelStates in [.tiledLeft, .tiledRight, .tiledTop, .tiledBottom] {
            XCTAssertFalse(ResizeBorderLayout.isShown(barShown: true, states: [tiled, .activated]), "\(tiled)")
        }
    }

    func testStripsLieOutsideTheWindowGeometry() {
        // A 400x300 window geometry (bar + content): 8 pt strips, top/bottom spanning the corners.
        let layout = ResizeBorderLayout(windowWidth: 400, windowHeight: 300)
        XCTAssertEqual(layout.rect(.top), Rect(x: -8, y: -8, width: 416, height: 8))
        XCTAssertEqual(layout.rect(.bottom), Rect(x: -8, y: 300, width: 416, height: 8))
        XCTAssertEqual(layout.rect(.left), Rect(x: -8, y: 0, width: 8, height: 300))
        XCTAssertEqual(layout.rect(.right), Rect(x: 400, y: 0, width: 8, height: 300))
    }

    func testEdgeForAPointInWindowGeometryCoordinates() {
        let layout = ResizeBorderLayout(windowWidth: 400, windowHeight: 300)
        XCTAssertNil(layout.edge(atX: 0, y: 0), "inside the geometry")
        XCTAssertNil(layout.edge(atX: 399.5, y: 299.5), "inside the geometry")
        XCTAssertNil(layout.edge(atX: 408, y: 150), "beyond the border")
        XCTAssertNil(layout.edge(atX: -8.5, y: 150), "beyond the border")
        XCTAssertEqual(layout.edge(atX: 404, y: 150), .right)
        XCTAssertEqual(layout.edge(atX: -4, y: 150), .left)
        XCTAssertEqual(layout.edge(atX: 200, y: -4), .top)
        XCTAssertEqual(layout.edge(atX: 200, y: 304), .bottom)
        // Corners: 16 pt from the outer corner along each edge, i.e. 8 pt into the geometry's span.
        XCTAssertEqual(layout.edge(atX: -8, y: -8), .topLeft)
        XCTAssertEqual(layout.edge(atX: 7.5, y: -2), .topLeft, "15.5 pt from the outer corner")
        XCTAssertEqual(layout.edge(atX: 8, y: -2), .top, "16 pt from the outer corner")
        XCTAssertEqual(layout.edge(atX: -2, y: 7.5), .topLeft, "on the left strip, near the top")
        XCTAssertEqual(layout.edge(atX: -2, y: 8), .left)
        XCTAssertEqual(layout.edge(atX: 392, y: -2), .topRight)
        XCTAssertEqual(layout.edge(atX: 391.5, y: -2), .top)
        XCTAssertEqual(layout.edge(atX: 404, y: 292), .bottomRight)
        XCTAssertEqual(layout.edge(atX: 404, y: 291.5), .right)
        XCTAssertEqual(layout.edge(atX: -4, y: 306), .bottomLeft)
        XCTAssertEqual(layout.edge(atX: 400, y: 300), .bottomRight)
    }

    func testEdgeOnEachBorderSurfaceUsesThatSurfacesCoordinates() {
        let layout = ResizeBorderLayout(windowWidth: 400, windowHeight: 300)
        // Right strip surface (8x300 at (400, 0)): (4, 150) is the middle of the right edge.
        XCTAssertEqual(layout.edge(on: .right, x: 4, y: 150), .right)
        XCTAssertEqual(layout.edge(on: .right, x: 4, y: 295), .bottomRight)
        XCTAssertEqual(layout.edge(on: .right, x: 4, y: 2), .topRight)
        // Top strip surface (416x8 at (−8, −8)).
        XCTAssertEqual(layout.edge(on: .top, x: 2, y: 2), .topLeft)
        XCTAssertEqual(layout.edge(on: .top, x: 208, y: 4), .top)
        XCTAssertEqual(layout.edge(on: .top, x: 414, y: 4), .topRight)
        // Left and bottom.
        XCTAssertEqual(layout.edge(on: .left, x: 4, y: 150), .left)
        XCTAssertEqual(layout.edge(on: .bottom, x: 208, y: 4), .bottom)
        XCTAssertEqual(layout.edge(on: .bottom, x: 1, y: 4), .bottomLeft)
        // A coordinate reported just past the strip (wl_fixed rounding) stays on that border.
        XCTAssertEqual(layout.edge(on: .right, x: 8, y: 150), .right)
        XCTAssertEqual(layout.edge(on: .left, x: -0.1, y: 150), .left)
    }

    func testTinyWindowPrefersTopAndLeft() {
        // 10x10: every border point is within a corner of both ends; top/left win, no invalid edge.
        let layout = ResizeBorderLayout(windowWidth: 10, windowHeight: 10)
        XCTAssertEqual(layout.edge(atX: 5, y: -4), .topLeft)
        XCTAssertEqual(layout.edge(atX: 5, y: 14), .bottomLeft)
        XCTAssertEqual(layout.edge(atX: 14, y: 5), .topRight)
        XCTAssertEqual(layout.edge(atX: -4, y: 5), .topLeft)
    }

    func testMinimumSizeIsContentPlusBar() {
        XCTAssertTrue(ResizeBorderLayout.minimumWindowSize(titleBarHeight: 28) == (200, 178))
        XCTAssertTrue(ResizeBorderLayout.minimumWindowSize(titleBarHeight: 0) == (200, 150))
        // --size 400x300 asks for more than the minimum: the minimum stands.
        XCTAssertTrue(ResizeBorderLayout.minimumWindowSize(titleBarHeight: 28, requestedWidth: 400,
                                                           requestedHeight: 300) == (200, 178))
        // --size 100x100 asks for less: the minimum is what was asked (+ the bar).
        XCTAssertTrue(ResizeBorderLayout.minimumWindowSize(titleBarHeight: 28, requestedWidth: 100,
                                                           requestedHeight: 100) == (100, 128))
        XCTAssertTrue(ResizeBorderLayout.minimumWindowSize(titleBarHeight: 0, requestedWidth: 120,
                                                           requestedHeight: 200) == (120, 150))
    }
}
