import ModalKit
import ModalKitATK
import ModalKitSystemSupport
import ModalKitWaylandClient
import ModalKitWaylandDecorations

/// What runs a ``PresentationWindow``: the `Window`'s one delegate (kept apart so that the window's
/// public surface is the app's, not the delegate protocol's). A configure lays the scene out; a
/// frame is `update(now:)` at the frame's time, then draw (pixman) or compose (sub-surfaces); seat
/// events go to the scene with their times (``InputTranslator``); commits, feedback and frame
/// callbacks go to the parts that follow them — the ``FrameLedger``, the ``AppearWatch``, the
/// ``RestWatch`` and the ``StyleSwap`` — and the window's callbacks hear what they report. Text
/// entry goes through the ``TextInputBridge`` (input method, content cursor; synced after input
/// and before each frame) and the ``ClipboardBridge`` (the pasteboard's backend while open).
///
/// It owns what the window starts along the way: reduced motion from the desktop, the termination
/// signals, the accessibility bridge.
final class WindowDriver: LayeredWindowDelegate {
    let scene: PresentationScene
    let connection: WaylandConnection
    let options: PresentationWindowOptions
    /// Set once, by ``init(scene:options:connection:)``.
    private(set) var window: Window!
    /// Whose callbacks hear the reports (held weakly: the window owns its driver).
    private weak var owner: PresentationWindow?
    private lazy var composer = LayerComposer { [weak self] in self?.window.makeLayer() }
    private var input = InputTranslator()
    private var ledger = FrameLedger()
    private lazy var appearWatch = AppearWatch(connection: connection) { [weak self] in self?.owner?.onAppear?() }
    private lazy var restWatch = RestWatch(host: host, connection: connection, delay: PresentationWindow.restDelay) {
        [weak self] in self?.owner?.onRest?()
    }
    private lazy var contentWake = ContentWake(connection: connection) { [weak self] in self?.redrawIfNeeded() }
    private var styleSwap = StyleSwap()
    private var textInput = TextInputBridge()
    private var clipboard: ClipboardBridge!
    private var hasCommitted = false
    private var warnedAboutScaleLimit = false
    private var motion: DesktopMotion?
    private var signals: TerminationSignals?
    private var accessibility: WindowAccessibility?

    private var host: PresentationHost { scene.host }

    /// Makes the window (`Window`, this driver its delegate) for `scene` on `connection`.
    /// - Throws: what `Window/init(connection:options:delegate:)` throws.
    init(scene: PresentationScene, options: PresentationWindowOptions, connection: WaylandConnection) throws {
        self.scene = scene
        self.options = options
        self.connection = connection
        var windowOptions = WindowOptions(title: options.title, appID: options.appID, requestedSize: options.size,
                                          compositing: options.compositing,
                                          presentationFeedback: options.presentationFeedback || options.frameTime == .predicted)
        windowOptions.predictsPresentationTime = options.frameTime == .predicted
        // A title bar where the compositor draws none; an overlay has none.
        windowOptions.clientSideDecorations = options.layerSurface == nil ? .standard : nil
        windowOptions.layerSurface = options.layerSurface
        window = try Window(connection: connection, options: windowOptions, delegate: self)
        clipboard = ClipboardBridge(window: window) { [weak self] in self?.inputHandled(now: monotonicSeconds()) }
        clipboard.install()
    }

    deinit {
        accessibility?.stop()
        clipboard?.uninstall()
    }

    /// `owner`'s callbacks hear what the driver reports from now on.
    func report(to owner: PresentationWindow) { self.owner = owner }

    // MARK: What the window's public API asks

    /// The loop is about to run: follow the termination signals, and a forced reduced motion (the
    /// desktop's is asked after the first commit, so the session bus and libdbus stay off the first
    /// frame's path: docs/design.md, start-up and footprint).
    func willRun() {
        if options.reducedMotion != .desktop || hasCommitted { startDesktopMotion() }
        if options.closesOnTerminationSignals, signals == nil {
            signals = TerminationSignals(connection: connection) { [weak self] in self?.close() }
        }
    }

    /// The loop returned.
    func didRun() { accessibility?.stop() }

    /// Closes the window (the bridge first). Idempotent.
    func close() {
        accessibility?.stop()
        clipboard.uninstall()
        window.close()
    }

    /// ``StyleSwap``: `style` for level 1 once no transition runs, then `completion`.
    func replaceStyle(_ style: PresentationStyle, completion: (() -> Void)?) {
        styleSwap.request(style, completion: completion)
        swapStyleIfIdle()
    }

    // MARK: Parts

    private func swapStyleIfIdle() {
        guard styleSwap.isWaiting, let completion = styleSwap.apply(to: scene) else { return }
        window.setNeedsRedraw()
        completion()
    }

    private func redrawIfNeeded() {
        if scene.needsRedraw { window.setNeedsRedraw() }
        contentWake.schedule(at: host.nextContentInvalidationTime)
    }

    /// After input: the input method hears the focused field's new state, the pointer its cursor.
    private func inputHandled(now: Double, cause: TextChangeCause = .other) {
        redrawIfNeeded()
        textInput.sync(window, host: host, now: now, cause: cause)
    }

    /// A middle click over a focused text field pastes the primary selection (X11's and GTK's
    /// rule), as text committed at the caret.
    private func pastePrimary() {
        window.requestSelectionText(.primary) { [weak self] text in
            guard let self, let text, !text.isEmpty else { return }
            let now = monotonicSeconds()
            host.deliverTextInput(TextInputUpdate(commit: text), now: now)
            inputHandled(now: now)
        }
    }

    /// Starts following reduced motion (once): at ``willRun()`` for a forced choice, after the first
    /// commit for the desktop's.
    private func startDesktopMotion() {
        guard motion == nil else { return }
        motion = DesktopMotion(options.reducedMotion, connection: connection) { [weak self] on in
            guard let self else { return }
            host.reducesMotion = on
            owner?.onReducedMotionChange?(on)
        }
    }

    private func startAccessibility() {
        guard options.accessibility, accessibility == nil else { return }
        let name = options.applicationName
            ?? CommandLine.arguments.first.map { PathName.lastComponent($0) } ?? options.title
        accessibility = WindowAccessibility(
            host: host, configuration: AccessibilityBridge.Configuration(applicationName: name, windowTitle: options.title),
            handle: { [weak self] input in
                guard let self else { return }
                let now = monotonicSeconds()
                scene.handle(input, now: now)   // a screen reader's request: now
                inputHandled(now: now)
            },
            started: { [weak self] in self?.owner?.onAccessibilityStart?() },
            warn: { [weak self] line in self?.owner?.onWarning(line) })
        accessibility?.windowDidCommit(window)
    }

    /// After each drawn frame (the next one already asked for while the scene animates): a waiting
    /// style, the ledger's note of the frame, the rest watch.
    private func drew(changed: Bool, backend: FrameBackend, time: Double, textInputVersion: Int) {
        textInput.frameDrawn(window, host: host, version: textInputVersion, now: time)
        swapStyleIfIdle()
        ledger.drew(changed: changed, backend: backend)
        restWatch.check()
        contentWake.schedule(at: host.nextContentInvalidationTime)
    }

    // MARK: WindowDelegate

    func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {
        let size = Size(width: Double(width), height: Double(height))
        appearWatch.configured()
        owner?.onConfigure?(size, scale)
        scene.layout(containerSize: size, scale: scale)
        window.setNeedsRedraw()
    }

    func window(_ window: Window, draw target: DrawTarget, damage rects: inout [PixelRect]) {
        scene.update(now: target.time)
        let version = host.textInputVersion   // before drawing clears the content's invalidation
        let damage = host.render(into: target.pixelBuffer, bufferAge: target.age)
        // While a transition runs, ask for the next frame callback; when it ends, stop asking, so
        // an idle window sleeps in poll().
        if scene.isAnimating { window.setNeedsRedraw() }
        drew(changed: !damage.isEmpty, backend: .pixman, time: target.time, textInputVersion: version)
        // The host's rectangles into the window's array, which keeps its capacity.
        rects.append(contentsOf: damage)
    }

    func window(_ window: Window, compose frame: FrameComposer) {
        scene.update(now: frame.time)
        let version = host.textInputVersion
        let result = composer.compose(host, into: frame, width: window.width, height: window.height)
        if result.needsRetry || scene.isAnimating { window.setNeedsRedraw() }
        drew(changed: result.changed, backend: result.backend, time: frame.time, textInputVersion: version)
    }

    func window(_ window: Window, didCommit frame: CommittedFrame) {
        if !hasCommitted {
            hasCommitted = true
            startDesktopMotion()
            startAccessibility()
        }
        appearWatch.committed()
        if let report = ledger.committed(sequence: frame.sequence, time: frame.time, cpuSeconds: frame.cpuSeconds) {
            owner?.onFrame?(report)
        }
    }

    func window(_ window: Window, didPresent sequence: Int, at time: Double, refresh: Double) {
        if let number = ledger.number(ofSequence: sequence) { owner?.onFramePresented?(number, time) }
        appearWatch.presented()
    }

    func windowDidReceiveFrameCallback(_ window: Window) {
        restWatch.check()
        appearWatch.frameCallback()
    }

    func windowDidRequestClose(_ window: Window) { close() }

    /// The buffer cap keeps the window below the outputs' scale: said once (the window stays sharp
    /// enough to use; a compositor scales its buffers up).
    func window(_ window: Window, didLimitScaleTo scale: Double, wanted: Double) {
        guard !warnedAboutScaleLimit else { return }
        warnedAboutScaleLimit = true
        func text(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : cFormat("%g", s) }
        let w = window.width, h = window.height
        owner?.onWarning("a \(w)x\(h)-point window at scale \(text(wanted)) needs a "
                         + "\(scaledLength(w, scale: wanted))x\(scaledLength(h, scale: wanted))-pixel buffer, over the buffer cap "
                         + "(\(BufferCap.maxSide) pixels a side, \(BufferCap.maxPixels) pixels): drawing at scale \(text(scale))")
    }

    func window(_ window: Window, pointer frame: PointerFrame) {
        let seat = InputTranslator.inputSeat(frame.seat)
        let now = monotonicSeconds()
        input.translate(frame, receivedAt: now) { event, now in scene.handle(event, from: seat, now: now) }
        textInput.follow(frame)
        if TextInputBridge.pressesMiddleButton(frame), let point = textInput.pointer,
           host.cursorShape(at: point, now: now) == .text, host.textInputState(at: now) != nil {
            pastePrimary()
        }
        inputHandled(now: now)
    }

    func window(_ window: Window, touch frame: TouchFrame) {
        let seat = InputTranslator.inputSeat(frame.seat)
        let now = monotonicSeconds()
        input.translate(frame, receivedAt: now) { event, now in scene.handle(event, from: seat, now: now) }
        inputHandled(now: now)
    }

    func window(_ window: Window, key event: KeyEvent) {
        guard let (key, now) = input.translate(event, receivedAt: monotonicSeconds()) else { return }
        scene.handle(key, from: InputTranslator.inputSeat(event.seat), now: now)
        inputHandled(now: monotonicSeconds())
    }

    /// An input method's `done`: applied whatever its serial (text-input-v3: "proceed with
    /// evaluating and applying the changes as normal"); the field's new state follows with cause
    /// input method (held back by the window when the serial lagged).
    func window(_ window: Window, textInput event: TextInputEvent) {
        let now = monotonicSeconds()
        host.deliverTextInput(TextInputBridge.update(for: event), now: now)
        redrawIfNeeded()
        textInput.sync(window, host: host, now: now, cause: .inputMethod)
    }
}
