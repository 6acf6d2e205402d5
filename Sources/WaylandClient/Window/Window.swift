/// An xdg-shell toplevel window drawn in software into `wl_shm` buffers.
///
/// The window owns its `wl_surface`, `xdg_surface`, `xdg_toplevel`, optional decoration object,
/// frame callback and buffers; ``close()`` or `deinit` destroys them in the order the protocols
/// require (decoration, toplevel, xdg_surface, surface). It keeps its ``WaylandConnection`` alive.
///
/// Behaviour, and the rule each follows:
/// - Configure (xdg-shell): `xdg_toplevel.configure` is stored; `xdg_surface.configure` is acked,
///   the stored state applied (a 0 dimension = ``WindowOptions/requestedSize``, as xdg-shell says),
///   the delegate told (``WindowDelegate/window(_:didConfigureWidth:height:scale:)``), and the next
///   commit carries a buffer of exactly the acked size × scale (``SurfaceScale/bufferSize(width:height:)``).
/// - Frame pacing (wl_surface.frame; docs/design.md, frame pipeline): redraw is a flag. A frame is
///   drawn at the end of the current event-loop iteration when the flag is set and no frame
///   callback is pending, or at once after an ack or a scale change; each commit requests a frame
///   callback, and its `done` lets the next frame be drawn. With the flag clear nothing is
///   requested and nothing wakes up, which also covers hidden windows (they get no callbacks).
/// - Buffers (wl_buffer.release; the compositor may hold them all): the delegate only ever draws
///   into a buffer the compositor has released; see ``BufferSlots``.
/// - Scale (wl_surface.enter/leave, wl_output.scale): ``BufferScale/resolve(entered:hasEntered:advertised:current:)``:
///   the largest integer scale of the outputs the surface is on; before it first enters one, the
///   largest scale the compositor advertises, so even the first frame is drawn at the output's
///   scale; when it leaves all, the last scale is kept.
/// - Fractional scale (fractional-scale-v1 with wp_viewporter, both offered): the window draws at
///   the compositor's `preferred_scale` n/120 instead — buffer = each logical side × n/120 rounded
///   half away from zero, `wp_viewport.set_destination` = the logical size, buffer scale left at 1
///   (`set_buffer_scale` is never sent), damage in buffer pixels; a new `preferred_scale` redraws.
///   Until the first `preferred_scale`, the integer scale above stands in. Input stays in
///   surface-local points, as the compositor sends it. See ``SurfaceScale``.
/// - Decorations (xdg-decoration-unstable-v1; foot's practice): server-side decorations are
///   requested when the compositor offers `zxdg_decoration_manager_v1`. Without it, or while the
///   compositor's decoration `configure` says `client_side`, the window draws its own title bar
///   (``TitleBar``: a `wl_subsurface` at (0, −``TitleBarLayout/height``), title and close button;
///   press to move, double-click to maximize/restore, × to close). A mode change is applied at the
///   following configure ack. The configure size is then the window geometry (xdg-shell), which
///   includes the bar (`set_window_geometry(0, −bar, w, h + bar)`); the delegate is told and draws
///   the *content* size, so it never sees the bar. Fullscreen hides the bar; maximized keeps it.
/// - Resize borders (xdg-shell `xdg_toplevel.resize`; foot's practice): around a client-side bar,
///   unless maximized, fullscreen or tiled, four invisible 8 pt ``ResizeBorders`` subsurfaces lie
///   outside the window geometry (which excludes them, as xdg-shell requires); a press or touch
///   on one asks for an interactive resize from that edge or corner, whose configures take the
///   path above. `set_min_size` is ``ResizeBorderLayout/minimumWindowSize(titleBarHeight:requestedWidth:requestedHeight:)``.
///
/// Use it from the thread that runs ``WaylandConnection/run()``.
public final class Window {
    /// The connection this window lives on.
    public let connection: WaylandConnection
    /// Receives configure, draw, close and input calls. Held weakly, like UIKit delegates: keep it
    /// alive yourself. While nil, a commit that is due (configure ack) carries a buffer nobody drew
    /// into (a new buffer is zeroed: transparent).
    public weak var delegate: WindowDelegate?
    public let options: WindowOptions

    /// The configuration acked last (logical size in points, states); nil before the first configure.
    public private(set) var configuration: WindowConfiguration?
    /// The integer scale of the outputs the surface is on (≥ 1, `wl_output.scale`): the buffer
    /// scale on the integer path, and the cursor's scale on both paths.
    public private(set) var scale = 1
    /// Buffer pixels per logical point, as drawn: the fractional `preferred_scale` (n/120) where
    /// fractional-scale-v1 is in use, else `Double(scale)`. What ``DrawTarget/scale`` carries.
    public var pixelScale: Double { surfaceScale.scale }
    /// True when the window sizes its buffers by fractional-scale-v1 and a `wp_viewport`
    /// (the compositor offers `wp_fractional_scale_manager_v1` and `wp_viewporter`).
    public var usesFractionalScale: Bool { surfaceScale.isFractional }
    /// True after ``close()``.
    public private(set) var isClosed = false
    /// True when the compositor agreed to draw the title bar and borders (xdg-decoration), as
    /// applied at the last configure ack.
    public var hasServerSideDecorations: Bool { decorationMode == .serverSide }
    /// The decoration mode applied at the last configure ack (nil before the first configure).
    public private(set) var decorationMode: DecorationMode?
    /// True while the window shows its own (client-side) title bar.
    public var showsClientSideTitleBar: Bool { titleBar != nil }

    private var surface: Surface?
    private var xdgSurface: XdgSurface?
    private var toplevel: XdgToplevel?
    private var decoration: ToplevelDecoration?
    private var frameCallback: FrameCallback?
    /// The surface's fractional-scale object and viewport (fractional path only).
    private var fractionalScale: FractionalScale?
    private var viewport: Viewport?
    /// The viewport destination last sent (points; nil = never).
    private var sentDestination: (width: Int, height: Int)?
    private var surfaceScale: SurfaceScale
    private let pool: BufferPool
    private var configureState: ConfigureState
    private var enteredOutputs: [Output] = []
    /// Whether the surface has ever entered an output (`wl_surface.enter`).
    private var hasEnteredOutput = false
    /// The scale of the last committed `set_buffer_scale` (the surface starts at 1).
    private var committedScale = 1
    /// What the delegate was last told by didConfigure.
    private var reported: (width: Int, height: Int, scale: Double)?
    private var pacing = FramePacing()
    /// This frame's damage rectangles (buffer pixels), kept with its capacity so that drawing a
    /// frame creates no array (a frame allocates nothing after warm-up).
    private var damage: [BufferRect] = { var a = [BufferRect](); a.reserveCapacity(16); return a }()
    /// The client-side title bar, while shown.
    private var titleBar: TitleBar?
    /// The window geometry last sent (nil = never: the default, the whole surface).
    private var sentGeometry: DecorationRect?
    /// The invisible resize borders around the client-side decorations, while shown.
    private var resizeBorders: ResizeBorders?
    /// The `set_min_size` last sent (window-geometry points; nil = never).
    private var sentMinSize: (width: Int, height: Int)?

    /// Creates the toplevel and commits it without a buffer, which asks the compositor for the
    /// first configure (xdg-shell); nothing is drawn before that configure arrives in ``WaylandConnection/run()``.
    ///
    /// - Parameters:
    ///   - options: title, app id and the size asked for (points).
    ///   - delegate: held weakly.
    /// - Throws: ``WaylandError/invalidOptions(_:)`` for a requested size below 1×1.
    public init(connection: WaylandConnection, options: WindowOptions = WindowOptions(),
                delegate: WindowDelegate) throws {
        let (width, height) = options.requestedSize
        guard width > 0, height > 0 else {
            throw WaylandError.invalidOptions("requested size must be at least 1x1, got \(width)x\(height)")
        }
        guard let shm = connection.shm, let wmBase = connection.wmBase else { throw WaylandError.closed }
        self.connection = connection
        self.delegate = delegate
        self.options = options
        pool = BufferPool(shm: shm)
        configureState = ConfigureState(requestedWidth: width, requestedHeight: height)
        // fractional-scale-v1 sizes buffers through wp_viewport: without a viewporter, integer scale.
        let fractionalManager = connection.viewporter != nil ? connection.fractionalScaleManager : nil
        surfaceScale = SurfaceScale(isFractional: fractionalManager != nil)

        let surface = connection.compositor.createSurface()
        if let fractionalManager, let viewporter = connection.viewporter {
            viewport = viewporter.viewport(for: surface)
            fractionalScale = fractionalManager.fractionalScale(for: surface)
        }
        let xdgSurface = wmBase.createXdgSurface(for: surface)
        let toplevel = xdgSurface.getToplevel()
        toplevel.setTitle(options.title)
        toplevel.setAppID(options.appID)
        // Before the first commit: xdg-decoration forbids creating it once a buffer is attached.
        decoration = connection.decorationManager?.decorate(toplevel)
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel

        surface.onEnter = { [weak self] output in self?.surfaceEntered(output) }
        surface.onLeave = { [weak self] output in self?.surfaceLeft(output) }
        fractionalScale?.onPreferredScale = { [weak self] numerator in self?.preferredScaleChanged(to: numerator) }
        toplevel.onConfigure = { [weak self] width, height, states in
            self?.configureState.toplevelConfigure(width: width, height: height, states: states)
        }
        toplevel.onConfigureBounds = { [weak self] width, height in
            self?.configureState.toplevelConfigureBounds(width: width, height: height)
        }
        toplevel.onClose = { [weak self] in
            guard let self, !isClosed else { return }
            self.delegate?.windowDidRequestClose(self)
        }
        xdgSurface.onConfigure = { [weak self] serial in self?.surfaceConfigure(serial: serial) }
        connection.register(self)
        updateScale()   // the outputs' initial scales arrived in the connection's start-up roundtrip
        surface.commit()
    }

    deinit { destroyObjects() }

    /// The logical size in points (the requested size before the first configure).
    public var width: Int { configuration?.width ?? options.requestedSize.width }
    public var height: Int { configuration?.height ?? options.requestedSize.height }

    /// Asks for a frame: the delegate's `draw` runs at the end of the current event-loop iteration
    /// if no frame callback is pending (right away from the caller's point of view), otherwise when
    /// the pending callback's `done` arrives. Calls before the first configure draw at that
    /// configure. Cheap and idempotent: call it whenever anything visible changed, and from `draw`
    /// itself while animating.
    public func setNeedsRedraw() {
        guard !isClosed else { return }
        pacing.setNeedsRedraw()
    }

    /// Unmaps and destroys the window's Wayland objects. ``WaylandConnection/run()`` returns once
    /// no window on the connection is open. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        connection.windowClosed(self)
        destroyObjects()
    }

    // MARK: Internal (connection, devices)

    var surfaceProxy: OpaquePointer? { surface?.proxy }

    /// Draws if a frame is due. Called once per event-loop iteration by the connection.
    func update() throws {
        guard !isClosed else { return }
        if pacing.shouldDraw {
            try draw()
        } else if let titleBar, titleBar.needsRedraw, let surface, configuration != nil {
            // Only the bar changed (hover, focus): its sync commit shows with a parent commit
            // that keeps the content buffer as it is.
            if try titleBar.renderIfNeeded() { surface.commit() }
        }
    }

    /// Which of the window's surfaces `proxy` is, if any.
    func part(of proxy: OpaquePointer) -> WindowPart? {
        if surface?.proxy == proxy { return .content }
        if let titleBar, titleBar.surface.proxy == proxy { return .titleBar }
        if let side = resizeBorders?.side(of: proxy) { return .resizeBorder(side) }
        return nil
    }

    func deliver(_ event: PointerEvent) {
        guard !isClosed else { return }
        delegate?.window(self, pointer: event)
    }

    /// Pointer input on the title bar (bar-surface points): never forwarded to the delegate.
    /// `serial`/`time` are those of a button event (0 otherwise).
    func titleBarPointer(_ event: PointerEvent, seat: OpaquePointer, serial: UInt32, time: UInt32) {
        guard !isClosed, let titleBar, let action = titleBar.pointer(event, serial: serial, time: time) else { return }
        perform(action, seat: seat)
    }

    /// A pointer press on the content or a resize border: the title bar's double-click sequence
    /// ends (only consecutive presses on the bar make a double-click).
    func pointerPressedOutsideTitleBar() {
        titleBar?.pointerPressedElsewhere()
    }

    /// A touch down on the title bar: an interactive move with the touch serial (xdg_toplevel.move).
    func titleBarTouchDown(seat: OpaquePointer, serial: UInt32) {
        guard !isClosed, titleBar != nil else { return }
        perform(.move(serial: serial), seat: seat)
    }

    /// The edge a point on a resize border is on (`x`, `y`: points in that border surface's
    /// coordinates, as wl_pointer/wl_touch report them); nil when the window has no borders now.
    func resizeEdge(on side: ResizeBorderSide, x: Double, y: Double) -> ResizeEdge? {
        guard !isClosed, let layout = resizeBorders?.layout else { return nil }
        return layout.edge(on: side, x: x, y: y)
    }

    /// A primary-button press or touch down on a resize border: an interactive resize from `edge`
    /// with that event's serial (xdg_toplevel.resize). The compositor answers with configures of
    /// the new window-geometry size, handled like any configure (content = size − title bar).
    func beginResize(edge: ResizeEdge, seat: OpaquePointer, serial: UInt32) {
        guard !isClosed, resizeBorders != nil else { return }
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
            delegate?.windowDidRequestClose(self)
        }
    }

    func deliver(_ event: KeyEvent) {
        guard !isClosed else { return }
        delegate?.window(self, key: event)
    }

    func deliver(_ event: TouchEvent) {
        guard !isClosed else { return }
        delegate?.window(self, touch: event)
    }

    func outputScaleChanged(_ output: Output) {
        if !hasEnteredOutput || enteredOutputs.contains(where: { $0 === output }) { updateScale() }
    }

    func outputRemoved(_ output: Output) {
        enteredOutputs.removeAll { $0 === output }
        updateScale()
    }

    // MARK: Configure and scale

    private func surfaceConfigure(serial: UInt32) {
        guard !isClosed else { return }
        xdgSurface?.ackConfigure(serial: serial)
        // xdg-decoration: the decoration configure precedes this xdg_surface.configure and takes
        // effect with its ack, like the toplevel's. Without wl_subcompositor no bar can be drawn.
        let mode = DecorationMode.resolve(managerOffered: decoration != nil, configuredMode: decoration?.mode)
        decorationMode = mode
        let barShown = connection.subcompositor != nil
            && TitleBarLayout.isShown(mode: mode, states: configureState.upcomingStates)
        let (configuration, sizeChanged) = configureState.surfaceConfigure(
            titleBarHeight: barShown ? TitleBarLayout.height : 0)
        self.configuration = configuration
        updateTitleBar(shown: barShown)
        updateResizeBorders(shown: titleBar != nil
            && ResizeBorderLayout.isShown(barShown: true, states: configuration.states))
        updateMinSize(titleBarHeight: titleBar != nil ? TitleBarLayout.height : 0)
        // xdg-shell: the next commit answers this configure, so it must come now and carry a
        // buffer of the acked size, not wait for a frame callback (which a hidden window never gets).
        pacing.configureAcked(sizeChanged: sizeChanged)
        reportConfigurationIfChanged()
    }

    private func surfaceEntered(_ proxy: OpaquePointer) {
        guard let output = connection.output(for: proxy),
              !enteredOutputs.contains(where: { $0 === output }) else { return }
        enteredOutputs.append(output)
        hasEnteredOutput = true
        updateScale()
    }

    private func surfaceLeft(_ proxy: OpaquePointer) {
        enteredOutputs.removeAll { $0.proxy == proxy }
        updateScale()
    }

    private func updateScale() {
        let newScale = BufferScale.resolve(entered: enteredOutputs.map(\.scale), hasEntered: hasEnteredOutput,
                                           advertised: connection.outputs.map(\.scale), current: scale)
        guard !isClosed else { return }
        if newScale != scale {
            scale = newScale
            connection.windowScaleChanged(self)   // the cursor follows the integer scale
        }
        if surfaceScale.outputScaleChanged(to: newScale) { pixelScaleChanged() }
    }

    /// `wp_fractional_scale_v1.preferred_scale`: redraw at n/120 when that is a new scale.
    private func preferredScaleChanged(to numerator: UInt32) {
        guard !isClosed else { return }
        if surfaceScale.preferredScaleChanged(to: numerator) { pixelScaleChanged() }
    }

    private func pixelScaleChanged() {
        if titleBar != nil { updateTitleBar(shown: true) }
        pacing.scaleChanged()   // before the first configure: applied with it
        reportConfigurationIfChanged()
    }

    private func reportConfigurationIfChanged() {
        guard let configuration else { return }
        let now = (configuration.width, configuration.height, pixelScale)
        if let reported, reported == now { return }
        reported = now
        delegate?.window(self, didConfigureWidth: now.0, height: now.1, scale: now.2)
    }

    // MARK: Title bar

    private func updateTitleBar(shown: Bool) {
        guard shown, let configuration, let surface, let subcompositor = connection.subcompositor,
              let shm = connection.shm else {
            titleBar = nil   // destroying the subsurface unmaps it at once
            return
        }
        let layout = TitleBarLayout(width: configuration.width, scale: pixelScale)
        let bar = titleBar ?? TitleBar(compositor: connection.compositor, subcompositor: subcompositor,
                                       parent: surface, shm: shm, layout: layout, title: options.title,
                                       viewporter: usesFractionalScale ? connection.viewporter : nil)
        titleBar = bar
        bar.update(layout: layout, activated: configuration.states.contains(.activated))
    }

    // MARK: Resize borders and minimum size

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
        let (requestedWidth, requestedHeight) = options.requestedSize
        let (width, height) = ResizeBorderLayout.minimumWindowSize(
            titleBarHeight: titleBarHeight, requestedWidth: requestedWidth, requestedHeight: requestedHeight)
        if let sent = sentMinSize, sent == (width, height) { return }
        toplevel?.setMinSize(width: width, height: height)
        sentMinSize = (width, height)
    }

    /// Everything that must ride on the parent's next commit besides the buffer: the title bar's
    /// and resize borders' (sync) commits and the window geometry. Returns true when any was sent.
    private func prepareParentCommit() throws -> Bool {
        var sent = try titleBar?.renderIfNeeded() ?? false
        if let configuration {
            let geometry = TitleBarLayout.windowGeometry(contentWidth: configuration.width,
                                                         contentHeight: configuration.height,
                                                         barShown: titleBar != nil)
            if let resizeBorders {
                let layout = ResizeBorderLayout(windowWidth: geometry.width, windowHeight: geometry.height)
                if try resizeBorders.apply(layout: layout, geometryOrigin: (geometry.x, geometry.y)) { sent = true }
            }
            // Never set while the window was always server-side decorated: the default geometry
            // (the surface's extent) is exactly right then.
            if geometry != sentGeometry, titleBar != nil || sentGeometry != nil {
                xdgSurface?.setWindowGeometry(geometry)
                sentGeometry = geometry
                sent = true
            }
        }
        return sent
    }

    // MARK: Drawing

    private func draw() throws {
        guard let surface, let configuration else { return }
        let (width, height) = surfaceScale.bufferSize(width: configuration.width, height: configuration.height)
        let pixelScale = surfaceScale.scale
        // The title bar's redraw rides on this commit (sync subsurface): if it cannot be drawn
        // now, neither is the content, so a new size or scale never shows on one surface only.
        if let titleBar, try !titleBar.reserveBuffer() { return }
        pool.setSize(width: width, height: height)
        // All buffers held by the compositor and the pool full: skip; a release wakes the loop
        // and the next iteration retries.
        guard let acquired = try pool.acquire() else { return }
        pacing.willDraw()   // before the delegate, which may ask for the next frame
        let buffer = acquired.buffer
        let target = DrawTarget(data: buffer.data, width: width, height: height, stride: buffer.stride,
                                scale: pixelScale, age: acquired.age, time: monotonicSeconds())
        damage.removeAll(keepingCapacity: true)
        delegate?.window(self, draw: target, damage: &damage)
        guard !isClosed else { return }   // the delegate closed the window while drawing
        let decision = pacing.didDraw(damage: &damage, width: width, height: height)
        // The title bar's commit and the geometry go before the parent's commit (sync subsurface).
        let decorationsChanged = try prepareParentCommit()
        switch decision {
        case .discard:
            pool.finishDrawing(id: acquired.id, attached: false)
            if decorationsChanged { surface.commit() }
        case .commitFrameRequest:
            // An animation step that changed no pixel: keep the pace without a new buffer.
            pool.finishDrawing(id: acquired.id, attached: false)
            requestFrameCallback(surface)
            surface.commit()
        case let .commit(requestFrame):
            if let viewport {
                // fractional-scale-v1: the destination is the logical size; the buffer scale stays 1.
                let destination = (width: configuration.width, height: configuration.height)
                if sentDestination.map({ $0 != destination }) ?? true {
                    viewport.setDestination(width: destination.width, height: destination.height)
                    sentDestination = destination
                }
            } else if surfaceScale.bufferScale != committedScale {
                surface.setBufferScale(surfaceScale.bufferScale)
                committedScale = surfaceScale.bufferScale
            }
            surface.attach(buffer.proxy)
            for rect in damage {
                surface.damageBuffer(x: rect.x, y: rect.y, width: rect.width, height: rect.height, scale: pixelScale)
            }
            if requestFrame { requestFrameCallback(surface) }
            surface.commit()
            pool.finishDrawing(id: acquired.id, attached: true)
        }
    }

    private func requestFrameCallback(_ surface: Surface) {
        frameCallback = FrameCallback(surface: surface) { [weak self] _ in
            // The next frame may be drawn now; update() does it if one is wanted.
            self?.frameCallback = nil
            self?.pacing.frameDone()
        }
    }

    private func destroyObjects() {
        frameCallback = nil
        titleBar = nil        // its subsurface before the parent surface
        resizeBorders = nil   // likewise
        decoration = nil      // before its toplevel (xdg-decoration: orphaned)
        toplevel = nil        // before its xdg_surface (xdg-shell: defunct_role_object)
        xdgSurface = nil
        fractionalScale = nil // add-on objects before their surface
        viewport = nil
        surface = nil
        pool.removeAll()
        enteredOutputs.removeAll()
    }
}

/// Which surface of a window an input event is on.
enum WindowPart: Equatable {
    /// The main surface: the content the delegate draws.
    case content
    /// The client-side title bar's subsurface.
    case titleBar
    /// One of the invisible resize borders around the client-side decorations.
    case resizeBorder(ResizeBorderSide)
}
