/// An xdg-shell toplevel window drawn in software into `wl_shm` buffers.
///
/// The window owns its `wl_surface`, `xdg_surface`, `xdg_toplevel`, decorations (`WindowDecorations`),
/// frame callback and buffers; ``close()`` or `deinit` destroys them in the order the protocols
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
/// - Decorations (xdg-decoration-unstable-v1; foot's practice): `WindowDecorations` asks for
///   server-side decorations when offered, and otherwise draws a client-side title bar (`TitleBar`)
///   and invisible resize borders (`ResizeBorders`), sets the minimum size and the window
///   geometry. The configure size is then the window geometry, which includes the bar; the delegate
///   is told and draws the *content* size, so it never sees the bar.
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

    /// The configuration acked last (logical size in points, states); nil before the first configure.
    public private(set) var configuration: WindowConfiguration?
    /// The integer scale of the outputs the surface is on (≥ 1, `wl_output.scale`): the buffer
    /// scale on the integer path, and the cursor's scale on both paths.
    public private(set) var scale = 1
    /// Buffer pixels per logical point, as drawn: the fractional `preferred_scale` (n/120) where
    /// fractional-scale-v1 is in use, else `Double(scale)` — or less, where a buffer of the
    /// window's size at that scale would be over ``BufferCap``. What ``DrawTarget/scale`` carries.
    public var pixelScale: Double { surfaceScale.scale }
    /// Buffer pixels per logical point the outputs ask for, before ``BufferCap``
    /// (``pixelScale`` is lower while the cap limits it).
    public var wantedPixelScale: Double { surfaceScale.wantedScale }
    /// True when the window sizes its buffers by fractional-scale-v1 and a `wp_viewport`
    /// (the compositor offers `wp_fractional_scale_manager_v1` and `wp_viewporter`).
    public var usesFractionalScale: Bool { surfaceScale.isFractional }
    /// True after ``close()``.
    public private(set) var isClosed = false
    /// True when the compositor agreed to draw the title bar and borders (xdg-decoration), as
    /// applied at the last configure ack.
    public var hasServerSideDecorations: Bool { decorationMode == .serverSide }
    /// The decoration mode applied at the last configure ack (nil before the first configure).
    public var decorationMode: DecorationMode? { decorations?.mode }
    /// True while the window shows its own (client-side) title bar.
    public var showsClientSideTitleBar: Bool { decorations?.showsTitleBar ?? false }

    private var surface: Surface?
    private var xdgSurface: XdgSurface?
    private var toplevel: XdgToplevel?
    /// The decoration object, title bar, resize borders, minimum size and window geometry; nil
    /// once closed. Pointer and touch input on the bar and borders goes to it.
    private(set) var decorations: WindowDecorations?
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
    /// The compositing mode in use: `.subsurface` or `.pixman` (``WindowOptions/compositing`` resolved).
    public let compositing: CompositingMode
    /// The sub-surface layers made by ``makeLayer()``, bottom to top.
    private var layers: [SurfaceLayer] = []
    private let composer = FrameComposer()
    /// Committed frames that changed what the window shows (``CommittedFrame/sequence``).
    private var commitSequence = 0
    /// A failure found outside the event loop's call chain (a window over the buffer cap at a
    /// configure): thrown by the next ``update()``.
    private var failure: WaylandError?
    /// The (scale, wanted scale) last told to the delegate as limited by the buffer cap.
    private var reportedLimit: (scale: Double, wanted: Double)?
    /// The title bar height (points) applied at the last configure.
    private var titleBarHeight = 0
    /// Presentation feedback objects waiting for their event.
    private var feedbacks: [(sequence: Int, feedback: PresentationFeedback)] = []
    /// The refresh grid from presentation feedback, for ``WindowOptions/predictsPresentationTime``.
    private var presentationClock = PresentationClock()

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
        if !options.title.isEmpty { toplevel.setTitle(options.title) }
        if let appID = options.appID { toplevel.setAppID(appID) }
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
        // Before the first commit: xdg-decoration forbids creating its object once a buffer is attached.
        decorations = WindowDecorations(connection: connection, surface: surface, xdgSurface: xdgSurface,
                                        toplevel: toplevel, options: options) { [weak self] in
            guard let self, !isClosed else { return }
            self.delegate?.windowDidRequestClose(self)
        }
        connection.register(self)
        updateScale()   // the outputs' initial scales arrived in the connection's start-up roundtrip
        surface.commit()
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
        pacing.setNeedsRedraw()
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
            self?.pacing.setNeedsRedraw()
        }
        layers.append(layer)
        decorations?.hasLayers = true
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

    /// Draws if a frame is due. Called once per event-loop iteration by the connection.
    func update() throws {
        guard !isClosed else { return }
        if let failure { throw failure }
        if pacing.shouldDraw {
            pool.dropsReleasedBuffers = false
            try draw()
        } else if let decorations, decorations.needsRedrawAlone, let surface, configuration != nil {
            // Only the bar changed (hover, focus): its sync commit shows with a parent commit
            // that keeps the content buffer as it is.
            if try decorations.renderTitleBarIfNeeded() { surface.commit() }
        }
    }

    /// Which of the window's surfaces `proxy` is, if any.
    func part(of proxy: OpaquePointer) -> WindowPart? {
        if surface?.proxy == proxy { return .content }
        return decorations?.part(of: proxy)
    }

    func deliver(_ frame: PointerFrame) {
        guard !isClosed else { return }
        delegate?.window(self, pointer: frame)
    }

    func deliver(_ event: KeyEvent) {
        guard !isClosed else { return }
        delegate?.window(self, key: event)
    }

    func deliver(_ frame: TouchFrame) {
        guard !isClosed else { return }
        delegate?.window(self, touch: frame)
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
        // effect with its ack, like the toplevel's.
        let barHeight = decorations?.titleBarHeight(upcomingStates: configureState.upcomingStates) ?? 0
        let (configuration, sizeChanged) = configureState.surfaceConfigure(titleBarHeight: barHeight)
        self.configuration = configuration
        titleBarHeight = barHeight
        // Every buffer of the window (content, title bar) within the cap: the scale for this size.
        let scaleChanged = surfaceScale.fit(width: configuration.width, height: max(configuration.height, barHeight))
        checkBufferCap()
        guard failure == nil else { return }   // over the cap: the next update() ends the run; nothing is laid out
        if scaleChanged { pacing.scaleChanged() }
        decorations?.configured(configuration, titleBarHeight: barHeight, pixelScale: pixelScale,
                                fractional: usesFractionalScale)
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
        let changed = surfaceScale.outputScaleChanged(to: newScale)
        checkBufferCap()
        if changed && failure == nil { pixelScaleChanged() }
    }

    /// `wp_fractional_scale_v1.preferred_scale`: redraw at n/120 when that is a new scale.
    private func preferredScaleChanged(to numerator: UInt32) {
        guard !isClosed else { return }
        let changed = surfaceScale.preferredScaleChanged(to: numerator)
        checkBufferCap()
        if changed && failure == nil { pixelScaleChanged() }
    }

    /// After the size or the wanted scale changed: a window over ``BufferCap`` even at the smallest
    /// scale is a failure (thrown by the next ``update()``); a new limit is told to the delegate.
    private func checkBufferCap() {
        if surfaceScale.isTooLarge, let configuration {
            if failure == nil {
                failure = .windowTooLarge(width: configuration.width, height: configuration.height + titleBarHeight)
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
        delegate?.window(self, didLimitScaleTo: limit.scale, wanted: limit.wanted)
    }

    private func pixelScaleChanged() {
        decorations?.pixelScaleChanged(to: pixelScale, fractional: usesFractionalScale)
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

    // MARK: Drawing

    private func draw() throws {
        let cpuStart = threadCPUSeconds()
        if compositing == .subsurface, let layered = delegate as? LayeredWindowDelegate {
            try drawComposed(layered, cpuStart: cpuStart)
        } else {
            try drawPixman(cpuStart: cpuStart)
        }
    }

    private func drawPixman(cpuStart: Double) throws {
        guard let surface, let configuration else { return }
        let (width, height) = surfaceScale.bufferSize(width: configuration.width, height: configuration.height)
        let pixelScale = surfaceScale.scale
        // The title bar's redraw rides on this commit (sync subsurface): if it cannot be drawn
        // now, neither is the content, so a new size or scale never shows on one surface only.
        if let decorations, try !decorations.reserveBuffer() { return }
        pool.setSize(width: width, height: height)
        // All buffers held by the compositor and the pool full: skip; a release wakes the loop
        // and the next iteration retries.
        guard let acquired = try pool.acquire() else { return }
        pacing.willDraw()   // before the delegate, which may ask for the next frame
        let buffer = acquired.buffer
        let target = DrawTarget(data: buffer.data, width: width, height: height, stride: buffer.stride,
                                scale: pixelScale, age: acquired.age, time: frameTime())
        damage.removeAll(keepingCapacity: true)
        delegate?.window(self, draw: target, damage: &damage)
        guard !isClosed else { return }   // the delegate closed the window while drawing
        let decision = pacing.didDraw(damage: &damage, width: width, height: height)
        // The title bar's commit and the geometry go before the parent's commit (sync subsurface).
        let decorationsChanged = try decorations?.prepareParentCommit() ?? false
        switch decision {
        case .discard:
            pool.finishDrawing(id: acquired.id, attached: false)
            if decorationsChanged { surface.commit() }
            restIfIdle()
        case .commitFrameRequest:
            // An animation step that changed no pixel: keep the pace without a new buffer.
            pool.finishDrawing(id: acquired.id, attached: false)
            requestFrameCallback(surface)
            surface.commit()
        case let .commit(requestFrame):
            applyScaleState(surface, configuration)
            surface.attach(buffer.proxy)
            for rect in damage { surface.damageBuffer(rect) }
            if requestFrame { requestFrameCallback(surface) }
            commitContent(surface, time: target.time, cpuStart: cpuStart, attached: true, layersChanged: false)
            pool.finishDrawing(id: acquired.id, attached: true)
        case .commitLayers:
            break   // not returned by didDraw
        }
    }

    /// A frame composed by a ``LayeredWindowDelegate``: layers, and the content buffer only when drawn.
    private func drawComposed(_ layered: LayeredWindowDelegate, cpuStart: Double) throws {
        guard let surface, let configuration else { return }
        let (width, height) = surfaceScale.bufferSize(width: configuration.width, height: configuration.height)
        if let decorations, try !decorations.reserveBuffer() { return }
        pool.setSize(width: width, height: height)
        pacing.willDraw()
        let time = frameTime()
        composer.time = time
        composer.width = width
        composer.height = height
        composer.scale = surfaceScale.scale
        composer.bufferScale = surfaceScale.isFractional ? 0 : surfaceScale.bufferScale
        composer.mustDrawBase = pacing.mustCommit
        composer.baseDamage.removeAll(keepingCapacity: true)
        composer.acquired = nil
        if composer.acquire == nil { composer.acquire = { [unowned self] in try self.pool.acquire() } }
        layered.window(self, compose: composer)
        let acquired = composer.acquired
        composer.acquired = nil
        guard !isClosed else { return }
        // A buffer that could not be made ends the run, even when the delegate ignored the error:
        // a frame is never silently left undrawn for good.
        if let error = composer.failure ?? layers.lazy.compactMap(\.allocationFailure).first {
            composer.failure = nil
            if let acquired { pool.finishDrawing(id: acquired.id, attached: false) }
            throw error
        }
        if pacing.mustCommit && acquired == nil {
            // The content buffer could not be drawn (every buffer held): retry after a release; the
            // layers' cached state shows with that commit.
            pacing.setNeedsRedraw()
            return
        }
        let layersChanged = layers.contains { $0.changed }
        let decorationsChanged = try decorations?.prepareParentCommit() ?? false
        damage.removeAll(keepingCapacity: true)
        damage.append(contentsOf: composer.baseDamage)
        // Damage outside the buffer (an empty rectangle) is none: such a frame is a layers-only
        // frame, never a buffer frame that the pacing discards with the layers' state in it.
        damage.removeAll { FramePacing.clip($0, width: width, height: height) == nil }
        let decision: FramePacing.Action
        if let acquired, !damage.isEmpty || pacing.mustCommit {
            decision = pacing.didDraw(damage: &damage, width: width, height: height)
            if case .commit = decision {} else { pool.finishDrawing(id: acquired.id, attached: false) }
        } else {
            if let acquired { pool.finishDrawing(id: acquired.id, attached: false) }
            decision = pacing.didCompose(layersChanged: layersChanged)
        }
        switch decision {
        case .discard:
            if decorationsChanged { surface.commit() }
            restIfIdle()
        case .commitFrameRequest:
            requestFrameCallback(surface)
            surface.commit()
        case let .commitLayers(requestFrame):
            if requestFrame { requestFrameCallback(surface) }
            commitContent(surface, time: time, cpuStart: cpuStart, attached: false, layersChanged: true)
        case let .commit(requestFrame):
            guard let acquired else { return }
            applyScaleState(surface, configuration)
            surface.attach(acquired.buffer.proxy)
            for rect in damage { surface.damageBuffer(rect) }
            if requestFrame { requestFrameCallback(surface) }
            commitContent(surface, time: time, cpuStart: cpuStart, attached: true, layersChanged: layersChanged)
            pool.finishDrawing(id: acquired.id, attached: true)
        }
    }

    /// The buffer scale, or on the fractional path the viewport's destination, for the next commit.
    private func applyScaleState(_ surface: Surface, _ configuration: WindowConfiguration) {
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
    }

    /// Commits a frame that changed what the window shows: presentation feedback first (it is
    /// for this commit), then the commit, then the report to the delegate.
    private func commitContent(_ surface: Surface, time: Double, cpuStart: Double, attached: Bool, layersChanged: Bool) {
        commitSequence += 1
        let sequence = commitSequence
        if options.presentationFeedback, let presentation = connection.presentationTime {
            let feedback = presentation.feedback(for: surface) { [weak self] outcome in
                self?.feedbackArrived(sequence: sequence, outcome)
            }
            feedbacks.append((sequence, feedback))
        }
        surface.commit()
        for layer in layers { layer.parentCommitted() }
        let cpu = threadCPUSeconds() - cpuStart
        delegate?.window(self, didCommit: CommittedFrame(sequence: sequence, time: time, cpuSeconds: cpu,
                                                         attachedBuffer: attached, layersChanged: layersChanged))
    }

    /// The time a frame drawn now is drawn for: with ``WindowOptions/predictsPresentationTime`` and
    /// presentation feedback, the predicted presentation time (``PresentationClock``); otherwise
    /// the monotonic clock now.
    private func frameTime() -> Double {
        let now = monotonicSeconds()
        return options.predictsPresentationTime ? presentationClock.predictedPresentationTime(committedAt: now) : now
    }

    private func feedbackArrived(sequence: Int, _ outcome: PresentationFeedback.Outcome) {
        feedbacks.removeAll { $0.sequence == sequence }   // destroys the proxy (after this event)
        guard !isClosed, case let .presented(time, refresh, monotonic) = outcome else { return }
        if monotonic { presentationClock.presented(at: time, refresh: refresh) }
        delegate?.window(self, didPresent: sequence, at: time, refresh: refresh)
    }

    private func requestFrameCallback(_ surface: Surface) {
        frameCallback = FrameCallback(surface: surface) { [weak self] _ in
            // The next frame may be drawn now; update() does it if one is wanted.
            guard let self else { return }
            frameCallback = nil
            pacing.frameDone()
            if !isClosed { delegate?.windowDidReceiveFrameCallback(self) }
            restIfIdle()
        }
    }

    /// Nothing more to draw — no frame due, none asked for, no frame callback pending: at rest,
    /// the window keeps only the buffer the compositor shows (and frees the others as they come
    /// back), as foot does; the next frame makes one. Checked when a frame callback arrives and
    /// when a frame the delegate was asked for turned out to change nothing (a delegate that asks
    /// for one more frame at the last callback of an animation, which then draws nothing).
    private func restIfIdle() {
        guard !isClosed, !pacing.frameCallbackPending, !pacing.shouldDraw, !pacing.needsRedraw else { return }
        pool.dropsReleasedBuffers = true
        pool.dropFreeBuffers()
        for layer in layers { layer.dropImageBuffersWhileHidden() }
    }

    private func destroyObjects() {
        frameCallback = nil
        feedbacks.removeAll()
        for layer in layers { layer.destroy() }   // sub-surfaces before their parent
        layers.removeAll()
        decorations?.destroy()   // subsurfaces before the parent surface, decoration before its toplevel
        decorations = nil
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
