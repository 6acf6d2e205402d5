import ModalKitWaylandClient

public extension ClientSideDecorations {
    /// A title bar (28 pt: the title, ending in "…" when it does not fit, and a close button ×;
    /// drag to move, double-click to maximize or restore, secondary click for the window menu) and
    /// four invisible resize borders, as foot draws them; see `WindowDecorations`.
    static var standard: ClientSideDecorations {
        ClientSideDecorations { WindowDecorations(context: $0) }
    }
}

/// The client-side decorations of one `Window`: while the compositor leaves decorating to the
/// client, the title bar, the resize borders, the minimum size and the window geometry.
///
/// Rules (xdg-decoration-unstable-v1, xdg-shell; foot's practice):
/// - Without `zxdg_decoration_manager_v1`, or while the compositor's decoration `configure` says
///   `client_side` (the window's `DecorationMode`), the window shows a ``TitleBar`` — if
///   `wl_subcompositor` is offered — and, unless maximized, fullscreen or tiled, the four invisible
///   ``ResizeBorders``. A mode change takes effect at the following configure ack. Fullscreen
///   hides the bar; maximized keeps it.
/// - The configure size is then the window geometry, which includes the bar: the window subtracts
///   ``decorationHeight(mode:states:)`` to get the content size and the geometry sent is
///   `(0, −bar, w, h + bar)` (``TitleBarLayout/windowGeometry(contentWidth:contentHeight:barShown:)``);
///   it excludes the resize borders, as xdg-shell requires.
/// - `set_min_size` is ``ResizeBorderLayout/minimumWindowSize(titleBarHeight:requestedWidth:requestedHeight:)``,
///   sent when it changes.
/// - The bar's and borders' subsurfaces are synchronized: their commits and the geometry ride on
///   the parent's next commit (``prepareParentCommit()``). A bar redraw that cannot get a buffer
///   holds back the content too (``reserveBuffer()``), so a new size or scale never shows on one
///   surface only.
/// - Input (reported by the window's pointer and touch devices, never the delegate's): on the
///   bar, press to move, double-click to maximize or restore, secondary click for the window menu,
///   × to close; a press anywhere else on the window ends the bar's double-click sequence. On a
///   border, the cursor names the edge under the pointer (`ResizeEdge.cursorName`) and a primary
///   press or a touch down starts `xdg_toplevel.resize` from that edge.
///
/// Owns the bar and the borders; ``destroy()`` (or `deinit`) destroys them (subsurfaces before the
/// parent surface) and lets go of the window's objects, so that the window destroys those in its
/// order even while this object is still referenced (a title-bar close runs inside one of its methods).
final class WindowDecorations: WindowDecorating {
    private let connection: WaylandConnection
    /// The window's objects; nil after ``destroy()``.
    private var surface: Surface?
    private var toplevel: Toplevel?
    private let title: String
    private let requestedSize: (width: Int, height: Int)
    /// The window's "close" (× on the bar): the window tells its delegate.
    private let onCloseRequest: () -> Void
    /// The configuration acked last (content size in points, states).
    private var configuration: WindowConfiguration?
    /// The client-side title bar, while shown.
    private var titleBar: TitleBar?
    /// The invisible resize borders, while shown.
    private var resizeBorders: ResizeBorders?
    /// The resize edge under the pointer while it is on a border.
    private var pointerEdge: ResizeEdge?
    /// The window geometry last sent (nil = never: the default, the whole surface).
    private var sentGeometry: Rect?
    /// The `set_min_size` last sent (window-geometry points; nil = never).
    private var sentMinSize: (width: Int, height: Int)?
    /// The window has sub-surface layers (`SurfaceLayer`): the geometry is always set, since the
    /// default one (xdg-shell: the extent of the surface and all its sub-surfaces) would follow
    /// a layer's size mid-resize.
    private var hasLayers = false

    init(context: DecorationContext) {
        connection = context.connection
        surface = context.surface
        toplevel = context.toplevel
        title = context.options.title
        requestedSize = context.options.requestedSize
        onCloseRequest = context.requestClose
    }

    deinit { destroy() }

    func destroy() {
        titleBar = nil        // its subsurface before the parent surface
        resizeBorders = nil   // likewise
        toplevel = nil
        surface = nil
    }

    var showsTitleBar: Bool { titleBar != nil }

    func windowMadeLayer() { hasLayers = true }

    // MARK: Configure and scale

    func decorationHeight(mode: DecorationMode, states: ToplevelStates) -> Int {
        // Without wl_subcompositor no bar can be drawn.
        let barShown = connection.subcompositor != nil && TitleBarLayout.isShown(mode: mode, states: states)
        return barShown ? TitleBarLayout.height : 0
    }

    func configured(_ configuration: WindowConfiguration, decorationHeight: Int, pixelScale: Double, fractional: Bool) {
        self.configuration = configuration
        updateTitleBar(shown: decorationHeight > 0, pixelScale: pixelScale, fractional: fractional)
        updateResizeBorders(shown: titleBar != nil
            && ResizeBorderLayout.isShown(barShown: true, states: configuration.states))
        updateMinSize(titleBarHeight: titleBar != nil ? TitleBarLayout.height : 0)
    }

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

    var needsCommitAlone: Bool { titleBar?.needsRedraw ?? false }

    func reserveBuffer() throws -> Bool {
        try titleBar?.reserveBuffer() ?? true
    }

    func prepareParentCommit() throws -> Bool {
        var sent = try titleBar?.renderIfNeeded() ?? false
        if let configuration {
            let geometry = TitleBarLayout.windowGeometry(contentWidth: configuration.width,
                                                         contentHeight: configuration.height,
                                                         barShown: titleBar != nil)
            if let resizeBorders {
                let layout = ResizeBorderLayout(windowWidth: Int(geometry.width), windowHeight: Int(geometry.height))
                if try resizeBorders.apply(layout: layout, geometryOrigin: (Int(geometry.minX), Int(geometry.minY))) { sent = true }
            }
            // Never set while the window was always server-side decorated and has no layers: the
            // default geometry (the extent of the surface and its sub-surfaces) is exactly right then.
            if geometry != sentGeometry, titleBar != nil || sentGeometry != nil || hasLayers {
                toplevel?.setWindowGeometry(x: Int(geometry.minX), y: Int(geometry.minY), width: Int(geometry.width),
                                            height: Int(geometry.height))
                sentGeometry = geometry
                sent = true
            }
        }
        return sent
    }

    // MARK: Input

    func owns(_ surface: OpaquePointer) -> Bool {
        titleBar?.surface.proxy == surface || resizeBorders?.side(of: surface) != nil
    }

    func pointer(_ event: PointerEvent, on surface: OpaquePointer, seat: OpaquePointer) -> String? {
        if let titleBar, titleBar.surface.proxy == surface {
            if let action = titleBar.pointer(event.kind, serial: event.serial ?? 0, time: event.time ?? 0) {
                perform(action, seat: seat)
            }
            return nil
        }
        guard let side = resizeBorders?.side(of: surface) else { return nil }
        switch event.kind {
        case let .enter(x, y), let .motion(x, y):
            pointerEdge = resizeBorders?.layout?.edge(on: side, x: x, y: y)
        case .leave:
            pointerEdge = nil
        case let .button(code, pressed) where pressed:
            titleBar?.pointerPressedElsewhere()
            // Only a primary press does anything on a border: the resize.
            if code == TitleBarPointerState.buttonLeft, let pointerEdge, let serial = event.serial {
                beginResize(edge: pointerEdge, seat: seat, serial: serial)
            }
        case .button, .scroll:
            break
        }
        return pointerEdge?.cursorName
    }

    func pointerPressedOnContent() {
        titleBar?.pointerPressedElsewhere()
    }

    func touchDown(on surface: OpaquePointer, x: Double, y: Double, serial: UInt32, seat: OpaquePointer) {
        if let titleBar, titleBar.surface.proxy == surface {
            perform(.move(serial: serial), seat: seat)   // xdg_toplevel.move with the touch serial
        } else if let side = resizeBorders?.side(of: surface), let edge = resizeBorders?.layout?.edge(on: side, x: x, y: y) {
            // xdg_toplevel.resize with the touch-down serial; the compositor owns the sequence.
            beginResize(edge: edge, seat: seat, serial: serial)
        }
    }

    /// A primary-button press or touch down on a resize border: an interactive resize from `edge`
    /// with that event's serial (xdg_toplevel.resize). The compositor answers with configures of
    /// the new window-geometry size, handled like any configure (content = size − title bar).
    private func beginResize(edge: ResizeEdge, seat: OpaquePointer, serial: UInt32) {
        guard resizeBorders != nil else { return }
        toplevel?.resize(seat: seat, serial: serial, edge: edge)
    }

    private func perform(_ action: TitleBarAction, seat: OpaquePointer) {
        switch action {
        case let .move(serial):
            toplevel?.move(seat: seat, serial: serial)
        case .toggleMaximized:
            toplevel?.setMaximized(configuration?.states.contains(.maximized) != true)
        case let .showWindowMenu(serial, x, y):
            toplevel?.showWindowMenu(seat: seat, serial: serial, x: x, y: y)
        case .close:
            onCloseRequest()
        }
    }
}
