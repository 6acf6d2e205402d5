import ModalKitWaylandClient

/// The invisible resize borders around a client-side decorated window: the rules (which edge a
/// point is on, where the borders are, when they exist), without any live Wayland object
/// (unit-tested). The live part is ``ResizeBorders``.

/// One of the four border strips (each its own `wl_subsurface`).
public enum ResizeBorderSide: CaseIterable, Equatable, Sendable {
    /// Above the title bar, as wide as the window plus both side borders (it holds the top corners).
    case top
    /// Below the content, as wide as the window plus both side borders (it holds the bottom corners).
    case bottom
    /// Left of the window geometry, as tall as it.
    case left
    /// Right of the window geometry, as tall as it.
    case right
}

/// Geometry of the resize borders for one window-geometry size, in points.
///
/// The borders lie *outside* the window geometry: xdg-shell (`xdg_surface.set_window_geometry`)
/// says the geometry is the window as the user sees it and excludes "invisible portions" such as
/// resize borders and drop shadows, which are then in subsurfaces extending past it. foot does the
/// same: four border subsurfaces (top, bottom, left, right) around its title bar and content, the
/// top and bottom ones spanning the corners, with corner cursors within a corner range of each
/// outer corner. The surfaces take input but draw nothing (their buffer is fully transparent).
///
/// Coordinates: window-geometry coordinates, whose origin is the top-left of the window geometry
/// (the title bar's top-left corner while the bar is shown); add ``TitleBarLayout/windowGeometry(contentWidth:contentHeight:barShown:)``'s
/// origin to get main-surface coordinates (subsurface positions).
public struct ResizeBorderLayout: Equatable, Sendable {
    /// How far the borders reach out of the window geometry (points). GNOME's resize area is
    /// about this wide; foot's is 5 to 10.
    public static let thickness = 8
    /// How far along each edge a corner reaches, measured from the outer corner of the border
    /// (points): within it a press resizes both dimensions.
    public static let cornerLength = 16
    /// The smallest content size (points) the window asks for with `xdg_toplevel.set_min_size`, so
    /// that an interactive resize never hands the scene an absurd size (the inset-centered card
    /// needs 2 × 20 pt across and 2 × 110 pt down plus room for itself; a smaller window clips
    /// it, but never fails).
    public static let minimumContentWidth = 200
    /// The smallest content height (points) asked for with `xdg_toplevel.set_min_size`.
    public static let minimumContentHeight = 150

    /// The window geometry's size in points (content + title bar).
    public var windowWidth: Int
    /// The window geometry's height in points (content + title bar).
    public var windowHeight: Int

    /// The borders of a window of `windowWidth` × `windowHeight` points (each at least 1).
    public init(windowWidth: Int, windowHeight: Int) {
        self.windowWidth = max(1, windowWidth)
        self.windowHeight = max(1, windowHeight)
    }

    /// Whether resize borders exist: only around a client-side title bar (with server-side
    /// decorations the compositor provides its own), and not while the window is maximized,
    /// fullscreen or tiled on any side — then the compositor lays it out and its edges are not the
    /// user's to drag (xdg-shell: tiled "the surface is … constrained", as GNOME and foot do).
    public static func isShown(barShown: Bool, states: ToplevelStates) -> Bool {
        let fixed: ToplevelStates = [.maximized, .fullscreen, .tiledLeft, .tiledRight, .tiledTop, .tiledBottom]
        return barShown && states.isDisjoint(with: fixed)
    }

    /// The `xdg_toplevel.set_min_size` arguments (window-geometry points, as xdg-shell states,
    /// so the bar is included while shown): ``minimumContentWidth`` × ``minimumContentHeight`` of
    /// content, but never more than the content size the client asked for (`--size`), so that a
    /// window asked small is not below its own minimum; plus the title bar's height when shown.
    /// A compositor may still send less (xdg-shell calls it a hint; sway 1.7's `resize set` does):
    /// the configure is honoured, the content size stays ≥ 1.
    public static func minimumWindowSize(titleBarHeight: Int, requestedWidth: Int = .max,
                                         requestedHeight: Int = .max) -> (width: Int, height: Int) {
        (min(minimumContentWidth, max(1, requestedWidth)),
         min(minimumContentHeight, max(1, requestedHeight)) + max(0, titleBarHeight))
    }

    /// The strip of `side` in window-geometry coordinates.
    public func rect(_ side: ResizeBorderSide) -> Rect {
        let t = Self.thickness
        switch side {
        case .top: return Rect(x: Double(-t), y: Double(-t), width: Double(windowWidth + 2 * t), height: Double(t))
        case .bottom: return Rect(x: Double(-t), y: Double(windowHeight), width: Double(windowWidth + 2 * t), height: Double(t))
        case .left: return Rect(x: Double(-t), y: 0, width: Double(t), height: Double(windowHeight))
        case .right: return Rect(x: Double(windowWidth), y: 0, width: Double(t), height: Double(windowHeight))
        }
    }

    /// The edge to resize for a point in window-geometry coordinates: nil inside the window
    /// geometry or beyond the borders. Within ``cornerLength`` of an outer corner, along either
    /// edge, it is that corner.
    public func edge(atX x: Double, y: Double) -> ResizeEdge? {
        let t = Double(Self.thickness), c = Double(Self.cornerLength)
        let w = Double(windowWidth), h = Double(windowHeight)
        guard x >= -t, x < w + t, y >= -t, y < h + t else { return nil }
        let inside = x >= 0 && x < w && y >= 0 && y < h
        guard !inside else { return nil }
        var bits: UInt32 = 0
        if y < -t + c { bits |= ResizeEdge.top.rawValue }
        if y >= h + t - c { bits |= ResizeEdge.bottom.rawValue }
        if x < -t + c { bits |= ResizeEdge.left.rawValue }
        if x >= w + t - c { bits |= ResizeEdge.right.rawValue }
        // A window shorter/narrower than two corners: top wins over bottom, left over right.
        if bits & 3 == 3 { bits &= ~ResizeEdge.bottom.rawValue }
        if bits & 12 == 12 { bits &= ~ResizeEdge.right.rawValue }
        return ResizeEdge(rawValue: bits)
    }

    /// The edge for a point in `side`'s own surface coordinates (what `wl_pointer` and `wl_touch`
    /// report on that border surface). A point just outside the strip is clamped into it, so the
    /// surface an event arrived on always decides between the borders.
    public func edge(on side: ResizeBorderSide, x: Double, y: Double) -> ResizeEdge {
        let r = rect(side)
        let gx = min(max(r.minX + x, r.minX), r.maxX - 0.5)
        let gy = min(max(r.minY + y, r.minY), r.maxY - 0.5)
        if let edge = edge(atX: gx, y: gy) { return edge }
        switch side {   // unreachable for a clamped point; kept total
        case .top: return .top
        case .bottom: return .bottom
        case .left: return .left
        case .right: return .right
        }
    }
}
