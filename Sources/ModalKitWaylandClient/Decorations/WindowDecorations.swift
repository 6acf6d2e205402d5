/// The decorations of one ``Window``: the xdg-decoration object, and while the window draws its
/// own decorations the title bar, the resize borders, the minimum size and the window geometry.
///
/// Rules (xdg-decoration-unstable-v1, xdg-shell; foot's practice):
/// - Server-side decorations are requested when the compositor offers
///   `zxdg_decoration_manager_v1` (the object is made before the toplevel's first commit, as
///   xdg-decoration requires). Without it, or while the compositor's decoration `configure` says
///   `client_side`, the window shows a ``TitleBar`` — if `wl_subcompositor` is offered — and, unless
///   maximized, fullscreen or tiled, the four invisible ``ResizeBorders``. A mode change takes
///   effect at the following configure ack. Fullscreen hides the bar; maximized keeps it.
/// - The configure size is then the window geometry, which includes the bar: the window subtracts
///   ``titleBarHeight(upcomingStates:)`` to get the content size and the geometry sent is
///   `(0, −bar, w, h + bar)` (``TitleBarLayout/windowGeometry(contentWidth:contentHeight:barShown:)``);
///   it excludes the resize borders, as xdg-shell requires.
/// - `set_min_size` is ``ResizeBorderLayout/minimumWindowSize(titleBarHeight:requestedWidth:requestedHeight:)``,
///   sent when it changes.
/// - The bar's and borders' subsurfaces are synchronized: their commits and the geometry ride on
///   the parent's next commit (``prepareParentCommit()``). A bar redraw that cannot get a buffer
///   holds back the content too (``reserveBuffer()``), so a new size or scale never shows on one
///   surface only.
/// - Input (from ``Pointer`` and ``Touch``, never the delegate): on the bar, press to move,
///   double-click to maximize or restore, secondary click for the window menu, × to close; a press
///   anywhere else on the window ends the bar's double-click sequence. On a border, a primary press
///   or a touch down starts `xdg_toplevel.resize` from the edge under it.
///
/// Owns the decoration object, the bar and the borders; ``destroy()`` (or `deinit`) destroys the bar
/// and borders (subsurfaces before the parent surface), then the decoration object (before its
/// toplevel: xdg-decoration's `orphaned` error), and lets go of the window's objects, so that the
/// window destroys those in its order even while this object is still referenced (a title-bar
/// close runs inside one of its methods).
final class WindowDecorations {
    private let connection: WaylandConnection
    /// The window's objects; nil after ``destroy()``.
    private var surface: Surface?
    private var shell: Toplevel?
    private var toplevel: XdgToplevel?
    private let title: String
    private let requestedSize: (width: Int, height: Int)
    /// The window's "close" (× on the bar): the window tells its delegate.
    private let onCloseRequest: () -> Void
    private var decoration: ToplevelDecoration?
    /// The decoration mode applied at the last configure ack (nil before the first).
    private(set) var mode: DecorationMode?
    /// The configuration acked last (content size in points, states).
    private var configuration: WindowConfiguration?
    /// The client-side title bar, while shown.
    private var titleBar: TitleBar?
    /// The invisible resize borders, while shown.
    private var resizeBorders: ResizeBorders?
    /// The window geometry last sent (nil = never: the default, the whole surface).
    private var sentGeometry: DecorationRect?
    /// The `set_min_size` last sent (window-geometry points; nil = never).
    private var sentMinSize: (width: Int, height: Int)?

    /// Asks for server-side decorations when the compositor offers them. Call before the
    /// toplevel's first commit.
    init(connection: WaylandConnection, surface: Surface, toplevel shell: Toplevel, xdgToplevel toplevel: XdgToplevel,
         options: WindowOptions, onCloseRequest: @escaping () -> Void) {
        self.connection = connection
        self.surface = surface
        self.shell = shell
        self.toplevel = toplevel
        title = options.title
        requestedSize = options.requestedSize
        self.onCloseRequest = onCloseRequest
        decoration = connection.decorationManager?.decorate(toplevel)
    }

    deinit { destroy() }

    /// Destroys the decorations' Wayland objects and lets go of the window's. Idempotent; every
    /// other method does nothing afterwards.
    func destroy() {
        titleBar = nil        // its subsurface before the parent surface
        resizeBorders = nil   // likewise
        decoration = nil      // before its toplevel (xdg-decoration: orphaned)
        toplevel = nil
        shell = nil
        surface = nil
    }

    /// True while the client-side title bar is shown.
    var showsTitleBar: Bool { titleBar != nil }

    // MARK: Configure and scale

    /// At `xdg_surface.configure`, before the window computes its content size: resolves the mode
    /// the decoration `configure` (which precedes it) asked for, and returns the height of the bar
    /// the configure size includes (points; 0 without a bar).
    func titleBarHeight(upcomingStates states: ToplevelStates) -> Int {
        let mode = DecorationMode.resolve(managerOffered: decoration != nil, configuredMode: decoration?.mode)
        self.mode = mode
        // Without wl_subcompositor no bar can be drawn.
        let barShown = connection.subcompositor != nil && TitleBarLayout.isShown(mode: mode, states: states)
        return barShown ? TitleBarLayout.height : 0
    }

    /// The configure was acked with `configuration` (content size): the bar, the borders and the
    /// minimum size follow. `titleBarHeight` is what ``titleBarHeight(upcomingStates:)`` returned.
    func configured(_ configuration: WindowConfiguration, titleBarHeight: Int, pixelScale: Double,
                    fractional: Bool) {
        self.configuration = configuration
        updateTitleBar(shown: titleBarHeight > 0, pixelScale: pixelScale, fractional: fractional)
        updateResizeBorders(shown: titleBar != nil
            && ResizeBorderLayout.isShown(barShown: true, states: configuration.states))
        updateMinSize(titleBarHeight: titleBar != nil ? TitleBarLayout.height : 0)
    }

    /// The window's pixel scale changed: the bar is redrawn at it.
    func pixelScaleChanged(to pixelScale: Double, fractional: Bool) {
        if titleBar != nil { updateTitleBar(shown: true, pixelScale: pixelScale, fractional: fractional) }
    }

    private func updateTitleBar(shown: Bool, pixelScale: Double, fractional: Bool) {
        guard shown, let configuration, let surface, let subcompositor = connection.subcompositor,
              let shm = connection.shm else {
            titleBar = nil   // destroying the subsurface unmaps it at once
            return
        }
        let layout = TitleBarLayout(width: configuration.width, scale: pixelScale)
        let bar = titleBar ?? TitleBar(compositor: connection.compositor, subcompositor: subcompositor,
                                       parent: surface, shm: shm, layout: layout, title: title,
                                       viewporter: fractional ? connection.viewporter : nil)
        titleBar = bar
        bar.update(layout: layout, activated: configuration.states.contains(.activated))
    }

    private func updateResizeBorders(shown: Bool) {
        guard shown, let surface, let subcompositor = connection.subcompositor, let shm = connection.shm else {
            resizeBorders = nil   // destroying the subsurfaces unmaps them at once
            return
        }
        guard resizeBorders == nil else { return }
        do {
            resizeBorders = try ResizeBorders(compositor: connection.compositor, subcompositor: subcompositor,
                                              viewporter: connection.viewporter, parent: surface, shm: shm)
        } catch {
            // No memory for a 1×1 buffer: the window stays usable, only not resizable by its borders.
            resizeBorders = nil
        }
    }

    /// `xdg_toplevel.set_min_size`: ``ResizeBorderLayout/minimumWindowSize(titleBarHeight:requestedWidth:requestedHeight:)``.
    /// Sent when it changes (the bar comes or goes); applied with the next commit.
    private func updateMinSize(titleBarHeight: Int) {
        let (width, height) = ResizeBorderLayout.minimumWindowSize(
            titleBarHeight: titleBarHeight, requestedWidth: requestedSize.width, requestedHeight: requestedSize.height)
        if let sent = sentMinSize, sent == (width, height) { return }
        toplevel?.setMinSize(width: width, height: height)
        sentMinSize = (width, height)
    }

    // MARK: Commits

    /// True when only the bar changed (hover, focus) and must be committed without a new frame.
    var needsRedrawAlone: Bool { titleBar?.needsRedraw ?? false }

    /// Draws the bar if it needs it and commits its subsurface. Returns true when it did: the
    /// parent must commit (keeping its buffer) for the sync subsurface's state to show.
    func renderTitleBarIfNeeded() throws -> Bool {
        try titleBar?.renderIfNeeded() ?? false
    }

    /// Makes sure a bar redraw that is due can go with the next content frame.
    /// - Returns: false when the bar needs a redraw and every one of its buffers is held by the
    ///   compositor: the content frame must wait too (a release wakes the loop).
    func reserveBuffer() throws -> Bool {
        try titleBar?.reserveBuffer() ?? true
    }

    /// Everything that must ride on the parent's next commit besides the buffer: the title bar's
    /// and resize borders' (sync) commits and the window geometry. Returns true when any was sent.
    /// The window has sub-surface layers (``SurfaceLayer``): the geometry is always set, since the
    /// default one (xdg-shell: the extent of the surface and all its sub-surfaces) would follow
    /// a layer's size mid-resize.
    var hasLayers = false

    func prepareParentCommit() throws -> Bool {
        var sent = try titleBar?.renderIfNeeded() ?? false
        if let configuration {
            let geometry = TitleBarLayout.windowGeometry(contentWidth: configuration.width,
                                                         contentHeight: configuration.height,
                                                         barShown: titleBar != nil)
            if let resizeBorders {
                let layout = ResizeBorderLayout(windowWidth: geometry.width, windowHeight: geometry.height)
                if try resizeBorders.apply(layout: layout, geometryOrigin: (geometry.x, geometry.y)) { sent = true }
            }
            // Never set while the window was always server-side decorated and has no layers: the
            // default geometry (the extent of the surface and its sub-surfaces) is exactly right then.
            if geometry != sentGeometry, titleBar != nil || sentGeometry != nil || hasLayers {
                shell?.setWindowGeometry(x: geometry.x, y: geometry.y, width: geometry.width, height: geometry.height)
                sentGeometry = geometry
                sent = true
            }
        }
        return sent
    }

    // MARK: Input

    /// Which decoration surface `proxy` is, if any.
    func part(of proxy: OpaquePointer) -> WindowPart? {
        if let titleBar, titleBar.surface.proxy == proxy { return .titleBar }
        if let side = resizeBorders?.side(of: proxy) { return .resizeBorder(side) }
        return nil
    }

    /// Pointer input on the title bar (bar-surface points); never forwarded to the delegate.
    func titleBarPointer(_ event: PointerEvent, seat: OpaquePointer) {
        guard let titleBar, let action = titleBar.pointer(event.kind, serial: event.serial ?? 0,
                                                          time: event.time ?? 0) else { return }
        perform(action, seat: seat)
    }

    /// A pointer press on the content or a resize border: the title bar's double-click sequence
    /// ends (only consecutive presses on the bar make a double-click).
    func pointerPressedOutsideTitleBar() {
        titleBar?.pointerPressedElsewhere()
    }

    /// A touch down on the title bar: an interactive move with the touch serial (xdg_toplevel.move).
    func titleBarTouchDown(seat: OpaquePointer, serial: UInt32) {
        guard titleBar != nil else { return }
        perform(.move(serial: serial), seat: seat)
    }

    /// The edge a point on a resize border is on (`x`, `y`: points in that border surface's
    /// coordinates, as wl_pointer/wl_touch report them); nil when the window has no borders now.
    func resizeEdge(on side: ResizeBorderSide, x: Double, y: Double) -> ResizeEdge? {
        resizeBorders?.layout?.edge(on: side, x: x, y: y)
    }

    /// A primary-button press or touch down on a resize border: an interactive resize from `edge`
    /// with that event's serial (xdg_toplevel.resize). The compositor answers with configures of
    /// the new window-geometry size, handled like any configure (content = size − title bar).
    func beginResize(edge: ResizeEdge, seat: OpaquePointer, serial: UInt32) {
        guard resizeBorders != nil else { return }
        toplevel?.resize(seat: seat, serial: serial, edge: edge)
    }

    private func perform(_ action: TitleBarAction, seat: OpaquePointer) {
        switch action {
        case let .move(serial):
            toplevel?.move(seat: seat, serial: serial)
        case .toggleMaximized:
            if configuration?.states.contains(.maximized) == true { toplevel?.unsetMaximized() } else { toplevel?.setMaximized() }
        case let .showWindowMenu(serial, x, y):
            toplevel?.showWindowMenu(seat: seat, serial: serial, x: x, y: y)
        case .close:
            onCloseRequest()
        }
    }
}
