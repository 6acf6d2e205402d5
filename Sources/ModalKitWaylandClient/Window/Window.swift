/// An xdg-shell toplevel window drawn in software into `wl_shm` buffers.
///
/// Three parts, each with one concern (smithay-client-toolkit's state + handler per concern;
/// foot's one render/commit path):
/// - the toplevel (`Toplevel`): `xdg_surface`/`xdg_toplevel`, configure and ack, states, scale;
/// - the frame scheduler (`FrameScheduler`): redraw as a flag, frame callbacks, presentation
///   feedback, rest;
/// - one commit step (`commit(_:)`, Window+Frame.swift): whatever a frame carries — buffer scale
///   or viewport, attach, damage, frame callback, presentation feedback — goes to the window's
///   `wl_surface` there, and `wl_surface.commit` is sent from there only, on the pixman and the
///   sub-surface path alike.
///
/// The window owns its `wl_surface`, the toplevel, its client-side decorations, frame
/// callback and buffers; ``close()`` or `deinit` destroys them in the order the protocols
/// require (decorations, toplevel, xdg_surface, surface). It keeps its ``WaylandConnection`` alive,
/// and each of those objects the connection's `wl_display` (``WaylandConnection``, ownership), so
/// a window may be released before or after its connection: the display disconnects last.
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
///   into a buffer the compositor has released; see `BufferSlots`.
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
/// - Buffer cap (``BufferCap``): no buffer is larger than 16384 pixels a side or 64 Mi pixels.
///   When the window's size × the outputs' scale would need one, the window draws at the largest
///   scale that fits (``SurfaceScale/fit(width:height:)``; on the integer path a smaller
///   `set_buffer_scale`, which the compositor scales up) and tells the delegate
///   (``WindowDelegate/window(_:didLimitScaleTo:wanted:)``); a size over the cap even at 1 pixel per
///   point makes ``WaylandConnection/run()`` throw ``WaylandError/windowTooLarge(width:height:)``.
/// - Failures: a buffer that cannot be made — for the content, the title bar or a layer, even
///   when the delegate ignores the error — makes ``WaylandConnection/run()`` throw it at the end of
///   that frame; a window never stays open without frames.
/// - Decorations (xdg-decoration-unstable-v1; foot's practice): the toplevel asks for server-side
///   decorations when offered (`Toplevel`); where the compositor leaves them to the client, the
///   window shows the ``WindowOptions/clientSideDecorations`` it was given (ModalKitWaylandDecorations'
///   title bar and resize borders), or none. With a client-side title bar the configure size is
///   the window geometry, which includes the bar; the delegate is told and draws the *content*
///   size, so it never sees the bar.
///
/// Use it from the thread that runs ``WaylandConnection/run()``.
public final class Window {
    /// The connection this window lives on.
    public let connection: WaylandConnection
    /// Receives configure, draw, close and input calls. Held weakly, like UIKit delegates: keep it
    /// alive yourself. While nil, a commit that is due (configure ack) carries a buffer nobody drew
    /// into (a new buffer is zeroed: transparent).
    public weak var delegate: WindowDelegate?
    /// What the window was created with (title, app id, requested size, compositing).
    public let options: WindowOptions
    /// The compositing mode in use: `.subsurface` or `.pixman` (``WindowOptions/compositing`` resolved).
    public let compositing: CompositingMode

    /// The configuration acked last (logical size in points, states); nil before the first configure.
    public var configuration: WindowConfiguration? { toplevel.configuration?.configuration }
    /// The integer scale of the outputs the surface is on (≥ 1, `wl_output.scale`): the buffer
    /// scale on the integer path, and the cursor's scale on both paths.
    public var scale: Int { toplevel.scale }
    /// Buffer pixels per logical point, as drawn: the fractional `preferred_scale` (n/120) where
    /// fractional-scale-v1 is in use, else `Double(scale)` — or less, where a buffer of the
    /// window's size at that scale would be over ``BufferCap``. What ``DrawTarget/scale`` carries.
    public var pixelScale: Double { toplevel.surfaceScale.scale }
    /// Buffer pixels per logical point the outputs ask for, before ``BufferCap``
    /// (``pixelScale`` is lower while the cap limits it).
    public var wantedPixelScale: Double { toplevel.surfaceScale.wantedScale }
    /// True when the window sizes its buffers by fractional-scale-v1 and a `wp_viewport`
    /// (the compositor offers `wp_fractional_scale_manager_v1` and `wp_viewporter`).
    public var usesFractionalScale: Bool { toplevel.surfaceScale.isFractional }
    /// The registry names of the outputs the window's surface is on (`wl_surface.enter` and
    /// `leave`; ``WaylandConnection/outputNames``), in the order it entered them; empty before
    /// the compositor has shown it.
    public var enteredOutputNames: [UInt32] { toplevel.enteredOutputNames }
    /// True after ``close()``.
    public private(set) var isClosed = false
    /// True when the compositor agreed to draw the title bar and borders (xdg-decoration), as
    /// applied at the last configure ack.
    public var hasServerSideDecorations: Bool { decorationMode == .serverSide }
    /// The decoration mode applied at the last configure ack (nil before the first configure).
    public var decorationMode: DecorationMode? { isClosed ? nil : toplevel.decorationMode }
    /// True while the window shows its own (client-side) title bar.
    public var showsClientSideTitleBar: Bool { decorations?.showsTitleBar ?? false }

    /// The window's `wl_surface` (nil once closed) and, on the fractional path, its viewport.
    var surface: Surface?
    var viewport: Viewport?
    /// What the last commits sent: the viewport destination (points) and the buffer scale.
    var sentDestination: (width: Int, height: Int)?
    var committedScale = 1
    let toplevel: Toplevel
    let scheduler: FrameScheduler
    /// The client-side decorations (``WindowOptions/clientSideDecorations``); nil without them and
    /// once closed. Pointer and touch input on their surfaces goes to them.
    var decorations: WindowDecorating?
    let pool: BufferPool
    /// This frame's damage rectangles (buffer pixels), kept with its capacity so that drawing a
    /// frame creates no array (a frame allocates nothing after warm-up).
    var damage: [PixelRect] = { var a = [PixelRect](); a.reserveCapacity(16); return a }()
    /// The sub-surface layers made by ``makeLayer()``, bottom to top.
    var layers: [SurfaceLayer] = []
    let composer = FrameComposer()
    /// What the window's focused text field tells the input method (``setTextInput(_:cause:)``).
    public internal(set) var textInputRequest: TextInputRequest?
    /// The cursor names the content wants under the pointer (``setContentCursor(_:)``; empty: the arrow).
    public internal(set) var contentCursor: [String] = []

    /// Creates the toplevel and commits it without a buffer, which asks the compositor for the
    /// first configure (xdg-shell); nothing is drawn before that configure arrives in ``WaylandConnection/run()``.
    ///
    /// - Parameters:
    ///   - connection: the compositor connection the window lives on.
    ///   - options: title, app id and the size asked for (points).
    ///   - delegate: held weakly.
    /// - Throws: ``WaylandError/invalidOptions(_:)`` for a requested size below 1×1.
    public init(connection: WaylandConnection, options: WindowOptions, delegate: WindowDelegate) throws {
        let (width, height) = options.requestedSize
        guard width > 0, height > 0 else {
            throw WaylandError.invalidOptions("requested size must be at least 1x1, got \(width)x\(height)")
        }
        guard let shm = connection.shm, let wmBase = connection.wmBase else { throw WaylandError.closed }
        if options.layerSurface != nil, connection.layerShell == nil { throw WaylandError.missingGlobal("zwlr_layer_shell_v1") }
        let missing = connection.missingCompositingGlobals
        switch options.compositing {
        case .pixman: compositing = .pixman
        case .auto: compositing = missing.isEmpty ? .subsurface : .pixman
        case .subsurface:
            if let first = missing.first { throw WaylandError.missingGlobal(first) }
            compositing = .subsurface
        }
        self.connection = connection
        self.delegate = delegate
        self.options = options
        pool = BufferPool(shm: shm)
        scheduler = FrameScheduler(predictsPresentationTime: options.predictsPresentationTime)

        let surface = connection.compositor.createSurface()
        // fractional-scale-v1 sizes buffers through wp_viewport: without a viewporter, integer scale.
        let fractional = connection.viewporter != nil && connection.fractionalScaleManager != nil
        if fractional { viewport = connection.viewporter?.viewport(for: surface) }
        toplevel = Toplevel(connection: connection, wmBase: wmBase, surface: surface, options: options,
                            fractional: fractional)
        self.surface = surface
        scheduler.window = self
        toplevel.handler = self
        decorations = options.clientSideDecorations?.make(DecorationContext(
            connection: connection, surface: surface, toplevel: toplevel, options: options) { [weak self] in
                guard let self, !isClosed else { return }
                self.delegate?.windowDidRequestClose(self)
            })
        connection.register(self)
        toplevel.updateScale()   // the outputs' initial scales arrived in the connection's start-up roundtrip
        commit(.bare)
    }

    deinit { destroyObjects() }

    /// The logical size in points (the requested size before the first configure).
    public var width: Int { configuration?.width ?? options.requestedSize.width }
    /// The logical height in points (the requested height before the first configure).
    public var height: Int { configuration?.height ?? options.requestedSize.height }

    /// Asks for a frame: the delegate's `draw` runs at the end of the current event-loop iteration
    /// if no frame callback is pending (right away from the caller's point of view), otherwise when
    /// the pending callback's `done` arrives. Calls before the first configure draw at that
    /// configure. Cheap and idempotent: call it whenever anything visible changed, and from `draw`
    /// itself while animating.
    public func setNeedsRedraw() {
        guard !isClosed else { return }
        scheduler.setNeedsRedraw()
        pool.dropsReleasedBuffers = false
    }

    /// A new layer above the content and every earlier layer (``SurfaceLayer``), or nil when the
    /// window does not compose with sub-surfaces (``compositing`` is `.pixman`) or is closed.
    public func makeLayer() -> SurfaceLayer? {
        guard compositing == .subsurface, !isClosed, let surface, let subcompositor = connection.subcompositor,
              let viewporter = connection.viewporter, let shm = connection.shm else { return nil }
        let layer = SurfaceLayer(compositor: connection.compositor, subcompositor: subcompositor, viewporter: viewporter,
                                 shm: shm, parent: surface) { [weak self] in
            // A layer buffer came back: a frame that found none free can be drawn now.
            self?.scheduler.setNeedsRedraw()
        }
        layers.append(layer)
        decorations?.windowMadeLayer()
        return layer
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

    /// Which of the window's surfaces `proxy` is, if any.
    func part(of proxy: OpaquePointer) -> WindowPart? {
        if surface?.proxy == proxy { return .content }
        return decorations?.owns(proxy) == true ? .decoration : nil
    }

    /// A pointer event on one of the decorations' surfaces (``part(of:)`` is `.decoration`):
    /// the decorations act on it. Returns the cursor wanted there (nil: the arrow).
    func decorationPointer(_ event: PointerEvent, on surface: OpaquePointer, seat: OpaquePointer) -> String? {
        guard !isClosed else { return nil }
        return decorations?.pointer(event, on: surface, seat: seat)
    }

    /// A pointer button was pressed on the window's content (the decorations end a double-click).
    func pointerPressedOnContent() { decorations?.pointerPressedOnContent() }

    /// A touch down on one of the decorations' surfaces.
    func decorationTouchDown(on surface: OpaquePointer, x: Double, y: Double, serial: UInt32, seat: OpaquePointer) {
        guard !isClosed else { return }
        decorations?.touchDown(on: surface, x: x, y: y, serial: serial, seat: seat)
    }

    func deliver(_ frame: PointerFrame) {
        guard !isClosed else { return }
        delegate?.window(self, pointer: frame)
    }

    func deliver(_ event: KeyEvent) {
        guard !isClosed else { return }
        delegate?.window(self, key: event)
    }

    func deliver(_ event: TextInputEvent) {
        guard !isClosed else { return }
        delegate?.window(self, textInput: event)
    }

    func deliver(_ frame: TouchFrame) {
        guard !isClosed else { return }
        delegate?.window(self, touch: frame)
    }

    func outputScaleChanged(_ output: Output) { toplevel.outputScaleChanged(output) }
    func outputRemoved(_ output: Output) { toplevel.outputRemoved(output) }

    private func destroyObjects() {
        scheduler.cancel()
        for layer in layers { layer.destroy() }   // sub-surfaces before their parent
        layers.removeAll()
        decorations?.destroy()   // subsurfaces before the parent surface
        decorations = nil
        toplevel.destroy()       // decoration object, xdg_toplevel, xdg_surface, fractional-scale object
        viewport = nil           // add-on objects before their surface
        surface = nil
        pool.removeAll()
    }
}

// MARK: - Toplevel events

extension Window: ToplevelHandler {
    func toplevel(_ toplevel: Toplevel, decorationHeightFor mode: DecorationMode, states: ToplevelStates) -> Int {
        decorations?.decorationHeight(mode: mode, states: states) ?? 0
    }

    func toplevel(_ toplevel: Toplevel, didConfigureSizeChanged sizeChanged: Bool, scaleChanged: Bool,
                  decorationHeight: Int) {
        guard let configuration else { return }
        if scaleChanged { scheduler.scaleChanged() }
        decorations?.configured(configuration, decorationHeight: decorationHeight, pixelScale: pixelScale,
                                fractional: usesFractionalScale)
        // xdg-shell: the next commit answers this configure, so it must come now and carry a
        // buffer of the acked size, not wait for a frame callback (which a hidden window never gets).
        scheduler.configureAcked(sizeChanged: sizeChanged)
        reportConfigurationIfChanged()
    }

    func toplevelPixelScaleChanged(_ toplevel: Toplevel) {
        decorations?.pixelScaleChanged(to: pixelScale, fractional: usesFractionalScale)
        scheduler.scaleChanged()   // before the first configure: applied with it
        reportConfigurationIfChanged()
    }

    func toplevelIntegerScaleChanged(_ toplevel: Toplevel) {
        connection.windowScaleChanged(self)   // the cursor follows the integer scale
    }

    func toplevel(_ toplevel: Toplevel, didLimitScaleTo scale: Double, wanted: Double) {
        delegate?.window(self, didLimitScaleTo: scale, wanted: wanted)
    }

    func toplevelDidRequestClose(_ toplevel: Toplevel) {
        guard !isClosed else { return }
        delegate?.windowDidRequestClose(self)
    }

    private func reportConfigurationIfChanged() {
        guard let now = toplevel.takeChangedReport() else { return }
        delegate?.window(self, didConfigureWidth: now.width, height: now.height, scale: now.scale)
    }
}

/// Which surface of a window an input event is on.
enum WindowPart: Equatable {
    /// The main surface: the content the delegate draws.
    case content
    /// A surface of the client-side decorations (title bar, resize border): events on it go to
    /// the decorations, never to the delegate.
    case decoration
}
