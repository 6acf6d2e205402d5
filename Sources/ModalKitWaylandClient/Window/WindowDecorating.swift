/// The decorations a ``Window`` draws itself where the compositor does not (client-side
/// decorations): what the window asks of them and what its input devices report to them.
///
/// The core only negotiates the mode (xdg-decoration: ``DecorationMode``, asked for before the
/// first commit) and applies the height the decorations take; drawing a title bar, borders and
/// resize edges — and the fonts that takes — lives in the module that implements this protocol
/// (ModalKitWaylandDecorations), so the core links no font library. Input devices never decide
/// what a press on a decoration does: they report pointer and touch events on decoration surfaces
/// (``pointer(_:on:seat:)``, ``touchDown(on:x:y:serial:seat:)``) and presses on the content
/// (``pointerPressedOnContent()``); the decorations act (move, resize, maximize, close) and name
/// the cursor to show.
///
/// Sub-surfaces of the decorations are synchronized: their state rides on the window's next
/// commit (``prepareParentCommit()``), so the decorations and the content change in one frame.
package protocol WindowDecorating: AnyObject {
    /// At `xdg_surface.configure`, before the window computes its content size: the height in
    /// points the decorations take above the content within the configure size (0: none), for
    /// the `mode` that takes effect with this ack and the toplevel's upcoming `states`.
    func decorationHeight(mode: DecorationMode, states: ToplevelStates) -> Int
    /// The configure was acked with `configuration` (content size, points); `decorationHeight` is
    /// what ``decorationHeight(mode:states:)`` returned; `pixelScale` buffer pixels per point.
    func configured(_ configuration: WindowConfiguration, decorationHeight: Int, pixelScale: Double, fractional: Bool)
    /// The window's pixel scale changed outside a configure.
    func pixelScaleChanged(to pixelScale: Double, fractional: Bool)
    /// True while a client-side title bar is shown.
    var showsTitleBar: Bool { get }
    /// The window made a sub-surface layer (the window geometry must then be set explicitly).
    func windowMadeLayer()
    /// True when the decorations changed on their own (hover, focus) and must be committed
    /// without a new content frame.
    var needsCommitAlone: Bool { get }
    /// Makes sure a decoration redraw that is due can go with the next content frame; false when
    /// every buffer is held by the compositor (the content frame waits too, so that a new size or
    /// scale never shows on one surface only).
    func reserveBuffer() throws -> Bool
    /// Sends what must ride on the window's next commit (the sub-surfaces' commits, the window
    /// geometry, the minimum size); true when anything was sent.
    func prepareParentCommit() throws -> Bool
    /// Whether `surface` (a `wl_surface` proxy) is one of the decorations' surfaces.
    func owns(_ surface: OpaquePointer) -> Bool
    /// A pointer event on the decoration surface `surface` (surface-local points; `seat` is the
    /// `wl_seat` proxy, for `xdg_toplevel.move` and `resize`). Returns the cursor wanted there
    /// (a cursor-theme name), nil for the default arrow.
    func pointer(_ event: PointerEvent, on surface: OpaquePointer, seat: OpaquePointer) -> String?
    /// A pointer button was pressed on the window's content.
    func pointerPressedOnContent()
    /// A touch went down on the decoration surface `surface` at (`x`, `y`), surface-local points.
    func touchDown(on surface: OpaquePointer, x: Double, y: Double, serial: UInt32, seat: OpaquePointer)
    /// Destroys the decorations' Wayland objects (sub-surfaces before the window's surface).
    /// Idempotent; every other method does nothing afterwards.
    func destroy()
}

/// How a ``Window`` decorates itself where the compositor leaves that to the client
/// (``WindowOptions/clientSideDecorations``). ModalKitWaylandDecorations provides the standard
/// ones (a title bar with the title and a close button, drag to move, double-click to maximize,
/// invisible resize borders: `ClientSideDecorations.standard`); without any, such a window is
/// shown undecorated.
public struct ClientSideDecorations {
    package let make: (DecorationContext) -> WindowDecorating

    /// Decorations made by `make` for each window, before its first commit.
    package init(make: @escaping (DecorationContext) -> WindowDecorating) { self.make = make }
}

/// What decorations get from their window.
package struct DecorationContext {
    /// The window's connection (its globals: compositor, sub-compositor, viewporter, shm).
    package let connection: WaylandConnection
    /// The window's surface, the parent of the decorations' sub-surfaces.
    package let surface: Surface
    /// The window's toplevel (move, resize, maximize, window menu, minimum size, geometry).
    package let toplevel: Toplevel
    /// The title and the requested size.
    package let options: WindowOptions
    /// Asks the window's delegate to close it (the title bar's ×), as `xdg_toplevel.close` does.
    package let requestClose: () -> Void
}

/// The decoration mode in effect for a toplevel.
public enum DecorationMode: Equatable, Sendable {
    /// The compositor draws title bar and borders (xdg-decoration `server_side`).
    case serverSide
    /// The client draws its own title bar (`TitleBar`).
    case clientSide

    /// The mode that applies, given what the compositor offers.
    ///
    /// xdg-decoration-unstable-v1: a compositor without `zxdg_decoration_manager_v1` expects every
    /// client to decorate itself ("if this protocol is not supported … client-side decorations");
    /// with it, the mode is the one of the last `zxdg_toplevel_decoration_v1.configure`, which the
    /// compositor may change at any time. Until that configure arrives nothing has been agreed, so
    /// the client decorates (a window the user can always move and close, as foot does).
    ///
    /// - Parameters:
    ///   - managerOffered: the compositor advertises `zxdg_decoration_manager_v1`.
    ///   - configuredMode: the mode of the last decoration `configure`
    ///     (`ZXDG_TOPLEVEL_DECORATION_V1_MODE_*`: 1 client_side, 2 server_side), nil before one.
    public static func resolve(managerOffered: Bool, configuredMode: UInt32?) -> DecorationMode {
        guard managerOffered, let configuredMode else { return .clientSide }
        return configuredMode == 2 ? .serverSide : .clientSide
    }
}

/// An edge or corner of a window being resized: the `xdg_toplevel.resize_edge` values (xdg-shell;
/// `XDG_TOPLEVEL_RESIZE_EDGE_*`: top 1, bottom 2, left 4, top_left 5, bottom_left 6, right 8,
/// top_right 9, bottom_right 10 — the horizontal and vertical bits or-ed together).
public enum ResizeEdge: UInt32, CaseIterable, Sendable {
    /// The top edge.
    case top = 1
    /// The bottom edge.
    case bottom = 2
    /// The left edge.
    case left = 4
    /// The top-left corner.
    case topLeft = 5
    /// The bottom-left corner.
    case bottomLeft = 6
    /// The right edge.
    case right = 8
    /// The top-right corner.
    case topRight = 9
    /// The bottom-right corner.
    case bottomRight = 10

    /// The cursor-theme name for this edge (the X cursor font / freedesktop cursor-spec names that
    /// every XCursor theme ships, and that foot and GTK use for their resize borders).
    public var cursorName: String {
        switch self {
        case .top: return "top_side"
        case .bottom: return "bottom_side"
        case .left: return "left_side"
        case .right: return "right_side"
        case .topLeft: return "top_left_corner"
        case .topRight: return "top_right_corner"
        case .bottomLeft: return "bottom_left_corner"
        case .bottomRight: return "bottom_right_corner"
        }
    }
}

