import Glibc
import ModalDemoKit
import ModalKit
import ModalKitATK
import SystemSupport
import WaylandClient

/// Linux input event code of the primary pointer button (linux/input-event-codes.h `BTN_LEFT`).
private let buttonLeft: UInt32 = 0x110

/// xkb keysyms the demo reacts to (xkbcommon-keysyms.h).
private enum Keysym {
    static let escape: UInt32 = 0xff1b
    static let returnKey: UInt32 = 0xff0d
    static let keypadEnter: UInt32 = 0xff8d
    static let space: UInt32 = 0x0020
    static let tab: UInt32 = 0xff09
    static let isoLeftTab: UInt32 = 0xfe20
}

/// Input event times on the monotonic clock: a drag's release velocity is measured from the
/// times the compositor stamped on its events (`wl_pointer.motion` / `wl_touch.motion`, ms on an
/// undefined base), not from when the client got round to reading them (events queued while a
/// frame renders arrive together). The base is the smallest `receive time − event time` seen
/// (the event that waited least); a jump of a second or more (a new base, wrap-around) resets it.
struct InputClock {
    private var base: Double?

    /// The monotonic time (seconds) of an event stamped `time` (ms), received at `clock`.
    mutating func now(eventTime time: UInt32?, clock: Double) -> Double {
        guard let time = time else { return clock }
        let stamp = Double(time) / 1000
        let candidate = clock - stamp
        if let b = base, candidate >= b, candidate - b < 1 {
            return b + stamp
        }
        base = candidate
        return clock
    }
}

/// The wiring between the Wayland window and the presentation engine: configure → layout,
/// frame callback → render (pixman) or compose (sub-surfaces), seat events → scene input. Logs
/// events for `--log-events`.
final class DemoWindowController: LayeredWindowDelegate {
    private let scene: DemoScene
    private let logEvents: Bool
    private var frames = 0
    private var inputClock = InputClock()
    private weak var window: Window?
    /// A reloaded style waiting for the running transition to end (`--watch`), with its path.
    private var pendingStyle: (style: any PresentationStyle, path: String)?
    /// The frame being drawn changed what the window shows (a `frame` line is due at its commit),
    /// and which backend drew it.
    private var pendingFrame = false
    private var pendingBackend = Backend.pixman
    /// `frame` numbers by commit sequence (for `presented N TIME`), a small ring: feedback arrives
    /// within a few refreshes.
    private var frameBySequence = [Int](repeating: 0, count: 64)
    /// The sub-surface layers (dim below, presented view above), made at the first composed frame.
    private var dimLayer: SurfaceLayer?
    private var presentedLayer: SurfaceLayer?
    /// What the presented layer's image holds: (cache version, buffer pixel size) of an opaque,
    /// unscaled presented view; nil when it holds a per-frame (alpha or scale) drawing or nothing.
    private var presentedImage: (version: Int, width: Int, height: Int)?
    /// The drop shadow the presented layer's image holds (colour, offset, blur; 0s without one).
    private var presentedShadow: (color: UInt32, x: Int, y: Int, blur: Int) = (0, 0, 0, 0)
    /// What the last composed frame showed (to tell whether this one changed anything).
    private var lastDim: UInt32 = 0
    /// What the dim layer's image holds: a vertical gradient dim's strip (the gradient, its rows =
    /// the container's buffer pixel height, the container's width in points); nil otherwise.
    private var dimStrip: (gradient: LinearGradient, rows: Int, width: Int)?
    /// The vertical gradient dim the last composed frame showed (to tell whether this one changed).
    private var lastDimGradient: LinearGradient?
    private var lastPresented: (x: Int, y: Int, width: Int, height: Int)?
    /// Presents once the window is shown and dismisses once presented (`--autoplay`).
    var presentsOnce = false
    /// Screen readers (AT-SPI), started after the first committed frame.
    var accessibility: WindowAccessibility?
    private var presentedOnce = false

    /// How a frame was composed (`backend=` on `frame` lines).
    enum Backend: String {
        /// Everything drawn by pixman into the window's buffer.
        case pixman
        /// The dim and the presented view as sub-surfaces; their pixels drawn once.
        case subsurface
        /// Sub-surfaces, the presented view's layer drawn by pixman for this frame (an alpha or a
        /// scale the compositor cannot apply).
        case subsurfacePixmanPresented = "subsurface+pixman-presented"
    }

    init(scene: DemoScene, logEvents: Bool) {
        self.scene = scene
        self.logEvents = logEvents
    }

    /// A state change of the scene (called after it is logged).
    func sceneEvent(_ event: SceneEvent) {
        if event == .presented && presentsOnce {
            presentsOnce = false
            scene.dismiss(now: monotonicSeconds())
            window?.setNeedsRedraw()
        }
    }

    private func log(_ line: @autoclosure () -> String) {
        if logEvents { print(line()) }
    }

    func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {
        self.window = window
        log("configure \(width)x\(height)")
        scene.layout(containerSize: Size(width: Double(width), height: Double(height)), scale: scale)
        window.setNeedsRedraw()
    }

    func window(_ window: Window, draw target: DrawTarget, damage rects: inout [BufferRect]) {
        let buffer = PixelBuffer(data: target.data, width: target.width, height: target.height, stride: target.stride)
        let damage = scene.render(into: buffer, now: target.time, bufferAge: target.age)
        // While a transition runs, ask for the next frame callback; when it ends, stop asking,
        // so an idle window sleeps in poll().
        if scene.isAnimating { window.setNeedsRedraw() }
        if pendingStyle != nil, !scene.isAnimating { applyPendingStyle() }
        pendingFrame = !damage.isEmpty
        pendingBackend = .pixman
        // The scene's rectangles (ModalKit) into the window's array (WaylandClient): the one
        // conversion between the two, into an array that keeps its capacity.
        for r in damage { rects.append(BufferRect(x: r.x, y: r.y, width: r.width, height: r.height)) }
    }

    /// A sub-surface frame: the presenting view in the window's buffer only when it changed, the
    /// dim as one colour stretched over the container, the presented view as its own buffer (drawn
    /// once per content, size and scale; per frame by pixman only for an alpha or a scale) moved
    /// by whole points and cropped to the container (sub-surfaces are not clipped to their parent).
    func window(_ window: Window, compose frame: FrameComposer) {
        let host = scene.host
        defer {
            if scene.isAnimating { window.setNeedsRedraw() }
            if pendingStyle != nil, !scene.isAnimating { applyPendingStyle() }
        }
        let s = frame.bufferScale
        guard s > 0 else {
            // Fractional scale: the layers' buffers are drawn at a whole buffer scale only: the whole
            // frame by pixman (the presented view at the same pixels: its top-left is a whole point
            // by the snapshot's rule at every scale).
            composeWithPixman(window, frame)
            return
        }
        if dimLayer == nil {
            dimLayer = window.makeLayer()
            presentedLayer = window.makeLayer()
        }
        guard let dimLayer, let presentedLayer else { return }
        let f = scene.layerFrame(at: frame.time)
        // What the layers do not express yet (a gradient dim in any direction but vertical, a
        // receding presenting view, a stack of levels): the whole frame by pixman, decided per frame.
        // (A drop shadow is drawn into the presented view's own buffer, around it.)
        let stripGradient = f.dimGradient.flatMap { DimStrip.canShow($0) ? $0 : nil }
        let w = window.width, h = window.height
        let placement = PresentedLayerPlacement(frame: f, bufferScale: s, containerWidth: w, containerHeight: h)
        // A presented view whose buffer (with its shadow room) would be over the buffer cap (a card
        // as large as a window at the cap): that frame by pixman too, within the window's buffer.
        let overCap = placement.map { !BufferCap.fits(width: $0.bufferWidth, height: $0.bufferHeight) } ?? false
        if (f.dimGradient != nil && stripGradient == nil) || f.presentingRect != nil || host.levelCount > 1 || overCap {
            composeWithPixman(window, frame)
            return
        }
        var changed = false
        // A layer that goes away uncovers the window's own buffer there: that area is damaged too
        // (sway 1.7 does not repaint the area of an unmapped sub-surface by itself).
        var uncovered: (x: Int, y: Int, width: Int, height: Int)?
        if f.dim == 0 && stripGradient == nil && dimLayer.isShown { uncovered = (0, 0, w, h) }
        if let last = lastPresented, placement == nil, uncovered == nil {
            uncovered = last
        }
        // The presenting view: the window's own buffer, drawn only when it changed.
        if frame.mustDrawBase || host.presentingLayerNeedsRender || uncovered != nil, let t = target({ try frame.baseTarget() }) {
            let damage = host.renderPresentingLayer(into: PixelBuffer(data: t.data, width: t.width, height: t.height,
                                                                      stride: t.stride), bufferAge: t.age)
            for r in damage { frame.baseDamage.append(BufferRect(x: r.x, y: r.y, width: r.width, height: r.height)) }
            if let u = uncovered {
                frame.baseDamage.append(BufferRect(x: u.x * s, y: u.y * s, width: u.width * s, height: u.height * s))
            }
            changed = !frame.baseDamage.isEmpty
        }
        // The dim: one colour over the container, or a vertical gradient's column of row colours
        // (4 pixels wide: the middle 2 shown, a margin of the same colour each side) stretched over
        // it, 1:1 vertically; redrawn only when the gradient (its colours carry the dim's alpha)
        // or the container changes.
        if let g = stripGradient {
            let rows = h * s
            let holds = dimStrip.map { $0.gradient == g && $0.rows == rows && $0.width == w } ?? false
            if !holds || !dimLayer.hasImage {
                if let t = target({ try dimLayer.imageTarget(width: 4, height: rows) }) {
                    DimStrip.draw(g, into: PixelBuffer(data: t.data, width: t.width, height: t.height, stride: t.stride))
                    dimStrip = (g, rows, w)
                } else {
                    window.setNeedsRedraw()   // every buffer held: retried after a release
                }
            }
            dimLayer.showStretchedImage(source: (1, 0, 2, rows), x: 0, y: 0, width: w, height: h)
        } else if f.dim != 0 {
            try? dimLayer.showSolid(color: f.dim, x: 0, y: 0, width: w, height: h)   // a failure ends the run (see target(_:))
            dimStrip = nil
        } else {
            dimLayer.hide()
            dimStrip = nil
        }
        changed = changed || f.dim != lastDim || stripGradient != lastDimGradient
        lastDim = f.dim
        lastDimGradient = stripGradient
        // The presented view: its own buffer (whole points: padded with transparent pixels), moved.
        var backend = Backend.subsurface
        if let p = placement {
            if !p.isCacheAsIs { backend = .subsurfacePixmanPresented }
            let shadow = f.hasShadow ? (f.shadowColor, f.shadowOffsetX, f.shadowOffsetY, f.shadowBlur) : (0, 0, 0, 0)
            let holds = presentedImage.map { $0 == (f.cardVersion, p.bufferWidth, p.bufferHeight) } ?? false
                && presentedShadow == shadow
            if !p.isCacheAsIs || !holds || !presentedLayer.hasImage {
                if let t = target({ try presentedLayer.imageTarget(width: p.bufferWidth, height: p.bufferHeight) }) {
                    host.drawPresentedLayer(f, into: PixelBuffer(data: t.data, width: t.width, height: t.height,
                                                                 stride: t.stride),
                                            cardOffset: (p.cardOffsetX, p.cardOffsetY))
                    presentedImage = p.isCacheAsIs ? (f.cardVersion, p.bufferWidth, p.bufferHeight) : nil
                    presentedShadow = shadow
                    changed = true
                } else {
                    window.setNeedsRedraw()   // every buffer held: retried after a release
                }
            }
            let v = p.visible
            presentedLayer.showImage(x: p.x, y: p.y, visible: (Int(v.minX), Int(v.minY), Int(v.width), Int(v.height)),
                                     bufferScale: s)
            let shown = (x: p.x + Int(v.minX), y: p.y + Int(v.minY), width: Int(v.width), height: Int(v.height))
            changed = changed || lastPresented.map { $0 != shown } ?? true
            lastPresented = shown
        } else {
            changed = changed || lastPresented != nil
            presentedLayer.hide()
            lastPresented = nil
        }
        pendingFrame = changed
        pendingBackend = backend
    }

    /// The buffer cap keeps the window below the outputs' scale: said once on stderr (the window
    /// stays sharp enough to use; a compositor scales its buffers up).
    func window(_ window: Window, didLimitScaleTo scale: Double, wanted: Double) {
        guard !warnedAboutScaleLimit else { return }
        warnedAboutScaleLimit = true
        func text(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : cFormat("%g", s) }
        let w = window.width, h = window.height
        warn("a \(w)x\(h)-point window at scale \(text(wanted)) needs a \(scaledLength(w, scale: wanted))x\(scaledLength(h, scale: wanted))-pixel buffer, "
             + "over the buffer cap (\(BufferCap.maxSide) pixels a side, \(BufferCap.maxPixels) pixels): drawing at scale \(text(scale))")
    }
    private var warnedAboutScaleLimit = false

    /// The target `make` returns; nil when every buffer is held (the frame is retried after a
    /// release) or when the buffer cannot be made. The window does not let the latter pass: it
    /// ends ``WaylandConnection/run()`` with that error after the frame (exit 1 with one line),
    /// so a window never stays open without frames.
    private func target(_ make: () throws -> DrawTarget?) -> DrawTarget? {
        (try? make()) ?? nil
    }

    func window(_ window: Window, didCommit frame: CommittedFrame) {
        accessibility?.windowDidCommit(window)
        guard pendingFrame else {
            frameBySequence[frame.sequence % frameBySequence.count] = 0
            return
        }
        pendingFrame = false
        frames += 1
        // Without presentation feedback (none offered, or none sent: headless sway): after the
        // first frame, or the second (a tiling compositor's resize after the first configure).
        if presentsOnce && (frames == 2 || frames == 1 && !window.connection.offersPresentationTime) {
            presentOnce(window)
        }
        frameBySequence[frame.sequence % frameBySequence.count] = frames
        log("frame \(frames) \(cFormat("%.4f", frame.time)) backend=\(pendingBackend.rawValue) cpu=\(cFormat("%.3f", frame.cpuSeconds * 1000))")
    }

    func window(_ window: Window, didPresent sequence: Int, at time: Double, refresh: Double) {
        let n = frameBySequence[sequence % frameBySequence.count]
        guard n > 0 else { return }
        log("presented \(n) \(cFormat("%.4f", time))")
        // Once the window is on screen and idle, as when a user presses Return.
        if presentsOnce && scene.state == .dismissed && !scene.isAnimating { presentOnce(window) }
    }

    private func presentOnce(_ window: Window) {
        guard scene.state == .dismissed, !presentedOnce else { return }
        presentedOnce = true
        self.window = window
        scene.present(now: monotonicSeconds())
        window.setNeedsRedraw()
    }

    /// A frame drawn whole by pixman into the window's buffer, the layers hidden (a fractional
    /// scale, or chrome the layers do not express).
    private func composeWithPixman(_ window: Window, _ frame: FrameComposer) {
        dimLayer?.hide()
        presentedLayer?.hide()
        presentedImage = nil
        lastPresented = nil
        lastDim = 0
        dimStrip = nil
        lastDimGradient = nil
        pendingBackend = .pixman
        pendingFrame = false
        guard let t = target({ try frame.baseTarget() }) else { return }
        let damage = scene.render(into: PixelBuffer(data: t.data, width: t.width, height: t.height, stride: t.stride),
                                  now: frame.time, bufferAge: t.age)
        for r in damage { frame.baseDamage.append(BufferRect(x: r.x, y: r.y, width: r.width, height: r.height)) }
        pendingFrame = !damage.isEmpty
    }

    func windowDidRequestClose(_ window: Window) {
        window.close()
    }

    func window(_ window: Window, pointer frame: PointerFrame) {
        let clock = monotonicSeconds()
        for event in frame.events {
            let now = inputClock.now(eventTime: event.time, clock: clock)
            switch event.kind {
            case let .enter(x, y), let .motion(x, y):
                scene.handle(.pointerMotion(Point(x: x, y: y)), now: now)
            case .leave:
                scene.handle(.pointerLeave, now: now)
            case let .button(code, pressed):
                guard code == buttonLeft else { continue }
                scene.handle(.pointerButton(pressed: pressed), now: now)
            }
        }
        redrawIfNeeded(window)
    }

    func window(_ window: Window, key event: KeyEvent) {
        let key: SceneKey
        switch event.keysym {
        case Keysym.escape: key = .escape
        case Keysym.returnKey, Keysym.keypadEnter, Keysym.space: key = .activate
        case Keysym.tab: key = .tab
        case Keysym.isoLeftTab: key = .backTab
        default: return
        }
        // Held keys repeat (wl_keyboard.repeat_info); only focus movement should: a held Return
        // or Escape acts once.
        if event.isRepeat && key != .tab && key != .backTab { return }
        scene.handle(.key(key, pressed: event.pressed), now: monotonicSeconds())
        redrawIfNeeded(window)
    }

    func window(_ window: Window, touch frame: TouchFrame) {
        let clock = monotonicSeconds()
        for event in frame.events {
            let now = inputClock.now(eventTime: event.time, clock: clock)
            switch event.kind {
            case let .down(id, x, y): scene.handle(.touchDown(id: id, Point(x: x, y: y)), now: now)
            case let .motion(id, x, y): scene.handle(.touchMotion(id: id, Point(x: x, y: y)), now: now)
            case let .up(id): scene.handle(.touchUp(id: id), now: now)
            case .cancel: scene.handle(.touchCancel, now: now)
            }
        }
        redrawIfNeeded(window)
    }

    /// Uses a reloaded style (`--watch`): at once when no transition runs (a presented card takes
    /// its frame and dim now), else after the running transition's last frame.
    func offer(_ style: any PresentationStyle, path: String) {
        pendingStyle = (style, path)
        if !scene.isAnimating { applyPendingStyle() }
    }

    private func applyPendingStyle() {
        guard let pending = pendingStyle, scene.replaceStyle(pending.style) else { return }
        pendingStyle = nil
        log("reloaded \(pending.path)")
        window?.setNeedsRedraw()
    }

    private func redrawIfNeeded(_ window: Window) {
        if scene.needsRedraw { window.setNeedsRedraw() }
    }

    /// A screen reader's request (``WindowAccessibility``), through the scene's input path like a key.
    func accessibilityRequest(_ input: PresentationInput) {
        scene.handle(input, now: monotonicSeconds())
        if let window { redrawIfNeeded(window) }
    }
}

/// Runs the window until the compositor closes it.
/// - Returns: 0 after `xdg_toplevel.close`, SIGTERM or SIGINT. Failures do not return: a bad
///   style exits 2; no font, no compositor, a missing required global, a lost connection or a
///   buffer that cannot be made exits 1 (one stderr line, `fail`).
func runWindow(_ options: RunOptions) -> Int32 {
    // The styles of the stack's levels (loaded now, so a bad one exits 2 before any window); with
    // --watch level 1's comes from the reloader's copy and the levels above share it.
    let styles: ((Int) -> any PresentationStyle)? = options.watch ? nil : makeStyleFactory(options.selections)
    let logEvents = options.logEvents
    // --watch: the style is loaded from a copy of its file, now and at every change.
    var controllerRef: (() -> DemoWindowController?) = { nil }
    let reloader = options.watch ? StyleReloader(
        path: options.selection.style, options: options.selection.effectiveOptions,
        log: { line in if logEvents { print(line) } },
        apply: { style in controllerRef()?.offer(style, path: options.selection.style) }) : nil
    let style: any PresentationStyle
    if let reloader {
        do { style = try reloader.loadInitial() } catch { fail(UsageError.exitStatus, String(describing: error)) }
    } else {
        style = styles!(1)
    }
    let scene: DemoScene
    do {
        // Level 1's lines as they always were; a level n > 1 appends " n".
        scene = try DemoScene(styleForLevel: { level in level == 1 ? style : (styles?(level) ?? style) }) { event, level in
            if logEvents { print(level > 1 ? "\(event.rawValue) \(level)" : event.rawValue) }
            if level == 1 { controllerRef()?.sceneEvent(event) }
        }
    } catch {
        fail(1, String(describing: error))
    }
    // Gestures: `drag-began`, `drag-ended VELOCITY`, `detent INDEX`, `close-attempt`.
    scene.onInteraction = { event in
        if logEvents { print(event.logLine) }
    }
    scene.pauseFraction = options.pauseAt
    let controller = DemoWindowController(scene: scene, logEvents: logEvents)
    controller.presentsOnce = options.autoplay
    controllerRef = { [weak controller] in controller }
    let accessibility = WindowAccessibility(
        host: scene.host, configuration: AccessibilityBridge.Configuration(applicationName: "modal-demo", windowTitle: "ModalKit"),
        handle: { [weak controller] input in controller?.accessibilityRequest(input) },
        log: { line in if logEvents { print(line) } },
        warn: { line in writeToStandardError("modal-demo: " + line + "\n") })
    controller.accessibility = accessibility
    do {
        let connection = try WaylandConnection()
        if options.compositing == .subsurface, let missing = connection.missingCompositingGlobals.first {
            fail(UsageError.exitStatus, "--compositing subsurface needs \(missing), which the compositor does not offer")
        }
        // After the compositor answered (a missing one is reported at once), before the window:
        // the first presentation already knows the desktop's setting.
        let motion = DesktopMotion(scene: scene, forced: options.reducedMotion) { line in
            if logEvents { print(line) }
        }
        motion.attach(to: connection)
        reloader?.attach(to: connection)
        var windowOptions = WindowOptions(title: "ModalKit", appID: "modalkit.demo",
                                          requestedSize: (options.width, options.height),
                                          compositing: CompositingMode(rawValue: options.compositing.rawValue) ?? .auto,
                                          presentationFeedback: logEvents || options.predictsPresentationTime)
        windowOptions.predictsPresentationTime = options.predictsPresentationTime
        let window = try Window(connection: connection, options: windowOptions, delegate: controller)
        // SIGTERM and SIGINT close the window like the compositor's close (exit 0).
        let termination = TerminationSignals.install(on: connection) { [weak window] in window?.close() }
        defer { accessibility.stop() }
        try connection.run()
        withExtendedLifetime((window, motion, reloader, termination)) {}
    } catch {
        fail(1, String(describing: error))
    }
    return 0
}
