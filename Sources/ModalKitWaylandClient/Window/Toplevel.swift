/// What a ``Toplevel`` tells its window (smithay-client-toolkit's `WindowHandler`: state changes
/// are reported, the window decides what follows).
protocol ToplevelHandler: AnyObject {
    /// At `xdg_surface.configure`, before the content size is computed: the height in points the
    /// window's own decorations take within the configure size for `mode` and `states` (0 = none).
    func toplevel(_ toplevel: Toplevel, decorationHeightFor mode: DecorationMode, states: ToplevelStates) -> Int
    /// An `xdg_surface.configure` was acked and applied (``Toplevel/configuration``); `scaleChanged`
    /// when fitting the new size changed the pixel scale. Not called when the size is over the
    /// buffer cap (``Toplevel/failure`` is set instead).
    func toplevel(_ toplevel: Toplevel, didConfigureSizeChanged sizeChanged: Bool, scaleChanged: Bool,
                  decorationHeight: Int)
    /// The pixel scale changed outside a configure (outputs entered or left, `preferred_scale`).
    func toplevelPixelScaleChanged(_ toplevel: Toplevel)
    /// The integer scale of the outputs changed (the cursor follows it).
    func toplevelIntegerScaleChanged(_ toplevel: Toplevel)
    /// The buffer cap holds the scale below the wanted one (a new limit).
    func toplevel(_ toplevel: Toplevel, didLimitScaleTo scale: Double, wanted: Double)
    /// `xdg_toplevel.close`.
    func toplevelDidRequestClose(_ toplevel: Toplevel)
}

/// The xdg-shell side of a ``Window``: `xdg_surface` and `xdg_toplevel`, the configure/ack
/// handshake (``ConfigureState``), and the scale its buffers are drawn at (``SurfaceScale``:
/// outputs entered, fractional-scale-v1, ``BufferCap``).
///
/// Rules: `xdg_toplevel.configure` is stored; `xdg_surface.configure` is acked, the stored state
/// applied (a 0 dimension = the requested size, as xdg-shell says; the decorations' height taken
/// off) and reported to the handler, whose next commit answers it. The integer scale is
/// ``BufferScale/resolve(entered:hasEntered:advertised:current:)``; the fractional one the last
/// `preferred_scale` n/120; either is lowered to fit ``BufferCap`` (``SurfaceScale/fit(width:height:)``),
/// and a size over the cap even at 1 pixel per point is ``failure``.
///
/// Decorations (xdg-decoration-unstable-v1; foot's practice): where the compositor offers
/// `zxdg_decoration_manager_v1`, server-side decorations are asked for at creation, before the
/// surface's first commit (the protocol forbids it once a buffer is attached); the mode of the last
/// decoration `configure` takes effect at the following ack (``decorationMode``).
///
/// Owns the decoration object, the `xdg_toplevel`, the `xdg_surface` and the fractional-scale
/// object; ``destroy()`` destroys them in that order (xdg-decoration: the decoration before its
/// toplevel; xdg-shell: the role object before its `xdg_surface`; add-on objects before their
/// surface), before the window's surface goes. The requests client-side decorations make
/// (move, resize, maximize, window menu, minimum size, geometry) are `package` methods.
package final class Toplevel {
    private let connection: WaylandConnection
    weak var handler: ToplevelHandler?
    private var xdgSurface: XdgSurface?
    private var xdgToplevel: XdgToplevel?
    /// The layer-surface role (``WindowOptions/layerSurface``) in place of the xdg-shell objects.
    private var layerSurface: LayerSurface?
    private var decoration: ToplevelDecoration?
    /// The decoration mode applied at the last configure ack (nil before the first).
    private(set) var decorationMode: DecorationMode?
    private var fractionalScale: FractionalScale?
    private var configureState: ConfigureState
    /// The configuration acked last (content size in points, states); nil before the first configure.
    private(set) var configuration: ConfigureResult?
    /// Scale state (integer or fractional, capped).
    private(set) var surfaceScale: SurfaceScale
    /// The integer scale of the outputs the surface is on (≥ 1).
    private(set) var scale = 1
    private var enteredOutputs: [Output] = []
    /// Whether the surface has ever entered an output (`wl_surface.enter`).
    private var hasEnteredOutput = false
    /// What the delegate was last told (size and pixel scale), and the cap limit last told.
    private var reported: (width: Int, height: Int, scale: Double)?
    private var reportedLimit: (scale: Double, wanted: Double)?
    /// A window over the buffer cap at a configure: thrown by the window's next frame.
    private(set) var failure: WaylandError?
    private var isDestroyed = false

    /// The acked configuration and the decorations' height it was applied with.
    struct ConfigureResult {
        var configuration: WindowConfiguration
        var decorationHeight: Int
    }

    /// Makes the `xdg_surface` and `xdg_toplevel` of `surface` (title and app id set when given)
    /// and, with `viewporter`-backed fractional scale, its fractional-scale object.
    init(connection: WaylandConnection, wmBase: XdgWmBase, surface: Surface, options: WindowOptions, fractional: Bool) {
        self.connection = connection
        configureState = ConfigureState(requestedWidth: options.requestedSize.width,
                                        requestedHeight: options.requestedSize.height)
        surfaceScale = SurfaceScale(isFractional: fractional)
        if fractional { fractionalScale = connection.fractionalScaleManager?.fractionalScale(for: surface) }
        surface.onEnter = { [weak self] output in self?.surfaceEntered(output) }
        surface.onLeave = { [weak self] output in self?.surfaceLeft(output) }
        fractionalScale?.onPreferredScale = { [weak self] numerator in self?.preferredScaleChanged(to: numerator) }
        if let layerOptions = options.layerSurface, let shell = connection.layerShell {
            // The layer role: its configure is the size and the serial in one event.
            let output = layerOptions.output.flatMap { name in connection.outputs.first { $0.globalName == name }?.proxy }
            let layer = shell.layerSurface(for: surface, options: layerOptions, output: output)
            layer.onConfigure = { [weak self] serial, width, height in
                guard let self else { return }
                configureState.toplevelConfigure(width: Int32(clamping: width), height: Int32(clamping: height), states: [])
                surfaceConfigure(serial: serial)
            }
            layer.onClosed = { [weak self] in
                guard let self, !isDestroyed else { return }
                handler?.toplevelDidRequestClose(self)
            }
            layerSurface = layer
            return
        }
        let xdgSurface = wmBase.createXdgSurface(for: surface)
        let toplevel = xdgSurface.getToplevel()
        if !options.title.isEmpty { toplevel.setTitle(options.title) }
        if let appID = options.appID { toplevel.setAppID(appID) }
        self.xdgSurface = xdgSurface
        xdgToplevel = toplevel
        decoration = connection.decorationManager?.decorate(toplevel)
        toplevel.onConfigure = { [weak self] width, height, states in
            self?.configureState.toplevelConfigure(width: width, height: height, states: states)
        }
        toplevel.onConfigureBounds = { [weak self] width, height in
            self?.configureState.toplevelConfigureBounds(width: width, height: height)
        }
        toplevel.onClose = { [weak self] in
            guard let self, !isDestroyed else { return }
            handler?.toplevelDidRequestClose(self)
        }
        xdgSurface.onConfigure = { [weak self] serial in self?.surfaceConfigure(serial: serial) }
    }

    deinit { destroy() }

    /// Destroys the role object, the `xdg_surface`, then the fractional-scale object. Idempotent.
    func destroy() {
        isDestroyed = true
        decoration = nil    // before its toplevel (xdg-decoration: orphaned)
        xdgToplevel = nil   // before its xdg_surface (xdg-shell: defunct_role_object)
        xdgSurface = nil
        layerSurface = nil   // before its surface (wlr-layer-shell)
        fractionalScale = nil
        enteredOutputs.removeAll()
    }

    // MARK: Requests of client-side decorations

    /// `xdg_surface.set_window_geometry` (points, main-surface coordinates; applied at the next commit).
    package func setWindowGeometry(x: Int, y: Int, width: Int, height: Int) {
        xdgSurface?.setWindowGeometry(x: x, y: y, width: width, height: height)
    }

    /// `xdg_toplevel.move`: `serial` is that of the press or touch down that asks for it.
    package func move(seat: OpaquePointer, serial: UInt32) { xdgToplevel?.move(seat: seat, serial: serial) }

    /// `xdg_toplevel.resize` from `edge`: `serial` is that of the press or touch down.
    package func resize(seat: OpaquePointer, serial: UInt32, edge: ResizeEdge) {
        xdgToplevel?.resize(seat: seat, serial: serial, edge: edge)
    }

    /// `set_maximized` or `unset_maximized`.
    package func setMaximized(_ maximized: Bool) {
        if maximized { xdgToplevel?.setMaximized() } else { xdgToplevel?.unsetMaximized() }
    }

    /// `xdg_toplevel.show_window_menu` at (x, y), points relative to the window's surface.
    package func showWindowMenu(seat: OpaquePointer, serial: UInt32, x: Int, y: Int) {
        xdgToplevel?.showWindowMenu(seat: seat, serial: serial, x: x, y: y)
    }

    /// `xdg_toplevel.set_min_size` in window-geometry points (applied at the next commit).
    package func setMinSize(width: Int, height: Int) { xdgToplevel?.setMinSize(width: width, height: height) }

    // MARK: Configure

    private func surfaceConfigure(serial: UInt32) {
        guard !isDestroyed else { return }
        xdgSurface?.ackConfigure(serial: serial)
        layerSurface?.ackConfigure(serial: serial)
        // xdg-decoration: the decoration configure precedes this xdg_surface.configure and takes
        // effect with its ack, like the toplevel's.
        // A layer surface has no decorations: as if the compositor drew them (nothing drawn here).
        let mode = layerSurface != nil ? .serverSide
            : DecorationMode.resolve(managerOffered: decoration != nil, configuredMode: decoration?.mode)
        decorationMode = mode
        let barHeight = handler?.toplevel(self, decorationHeightFor: mode, states: configureState.upcomingStates) ?? 0
        let (configuration, sizeChanged) = configureState.surfaceConfigure(titleBarHeight: barHeight)
        self.configuration = ConfigureResult(configuration: configuration, decorationHeight: barHeight)
        // Every buffer of the window (content, title bar) within the cap: the scale for this size.
        let scaleChanged = surfaceScale.fit(width: configuration.width, height: max(configuration.height, barHeight))
        checkBufferCap()
        guard failure == nil else { return }   // over the cap: the next frame ends the run; nothing is laid out
        handler?.toplevel(self, didConfigureSizeChanged: sizeChanged, scaleChanged: scaleChanged,
                          decorationHeight: barHeight)
    }

    /// The configuration to tell the delegate, when it differs from what it was last told
    /// (size in points, pixel scale); nil otherwise.
    func takeChangedReport() -> (width: Int, height: Int, scale: Double)? {
        guard let configuration = configuration?.configuration else { return nil }
        let now = (configuration.width, configuration.height, surfaceScale.scale)
        if let reported, reported == now { return nil }
        reported = now
        return now
    }

    // MARK: Scale

    /// The registry names of the outputs the surface is on (`wl_surface.enter`, `leave`), in the
    /// order it entered them.
    var enteredOutputNames: [UInt32] { enteredOutputs.map(\.globalName) }

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

    /// An output's `wl_output.scale` changed.
    func outputScaleChanged(_ output: Output) {
        if !hasEnteredOutput || enteredOutputs.contains(where: { $0 === output }) { updateScale() }
    }

    /// An output went away.
    func outputRemoved(_ output: Output) {
        enteredOutputs.removeAll { $0 === output }
        updateScale()
    }

    /// Resolves the integer scale from the outputs (also at creation: their initial scales
    /// arrived in the connection's start-up roundtrip).
    func updateScale() {
        let newScale = BufferScale.resolve(entered: enteredOutputs.map(\.scale), hasEntered: hasEnteredOutput,
                                           advertised: connection.outputs.map(\.scale), current: scale)
        guard !isDestroyed else { return }
        if newScale != scale {
            scale = newScale
            handler?.toplevelIntegerScaleChanged(self)
        }
        let changed = surfaceScale.outputScaleChanged(to: newScale)
        checkBufferCap()
        if changed && failure == nil { handler?.toplevelPixelScaleChanged(self) }
    }

    /// `wp_fractional_scale_v1.preferred_scale`: redraw at n/120 when that is a new scale.
    private func preferredScaleChanged(to numerator: UInt32) {
        guard !isDestroyed else { return }
        let changed = surfaceScale.preferredScaleChanged(to: numerator)
        checkBufferCap()
        if changed && failure == nil { handler?.toplevelPixelScaleChanged(self) }
    }

    /// After the size or the wanted scale changed: a window over ``BufferCap`` even at the smallest
    /// scale is a failure (thrown by the window's next frame); a new limit is told to the handler.
    private func checkBufferCap() {
        if surfaceScale.isTooLarge, let configuration {
            if failure == nil {
                failure = .windowTooLarge(width: configuration.configuration.width,
                                          height: configuration.configuration.height + configuration.decorationHeight)
            }
            return
        }
        guard surfaceScale.isLimited else {
            reportedLimit = nil
            return
        }
        let limit = (scale: surfaceScale.scale, wanted: surfaceScale.wantedScale)
        if let reportedLimit, reportedLimit == limit { return }
        reportedLimit = limit
        handler?.toplevel(self, didLimitScaleTo: limit.scale, wanted: limit.wanted)
    }
}
