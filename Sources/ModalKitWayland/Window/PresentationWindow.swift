import Glibc
import ModalKit
import ModalKitATK
import ModalKitSystemSupport
import ModalKitWaylandClient
import ModalKitWaylandDecorations

/// A Wayland window showing a `PresentationHost`: the app's content, and what it presents over it
/// with a presentation style (UIKit's `present(_:animated:)`, libadwaita's `adw_dialog_present`) —
/// presenting is one call, ``present(_:style:sourceRect:)``.
///
/// ```swift
/// let window = try PresentationWindow(content: root, style: "bottom-sheet",
///                                     options: PresentationWindowOptions(title: "Rows", appID: "org.example.Rows"))
/// root.onTap = { window.present(detail) }
/// try window.run()
/// ```
///
/// The window binds the host to an xdg-shell toplevel (`Window`) and does the rest:
/// - **Input** (docs/design.md, "The frame pipeline"): `wl_pointer` motion and the primary button
///   (`BTN_LEFT`), `wl_touch` points and the keys the host routes (Escape; Return, keypad Enter,
///   space; Tab, Shift+Tab — `PresentationKey/init(keysym:)`) go to the host with the compositor's
///   event time converted to the monotonic clock as `now` (``InputClock``), so a drag's release
///   velocity (the samples of the last 100 ms: article "Interactive transitions") is measured
///   from when the compositor saw the motions, not from when they were read.
///   A content's `PresentationContent/handle(_:now:)` receives that `now`.
/// - **Frames** (foot's rule, docs/design.md, "The frame pipeline"): a frame is drawn only for a
///   frame callback (or a configure); it is ``PresentationScene/update(now:)`` at the frame's time,
///   then the host's pure queries; while the host animates the next frame is asked for, and an idle
///   window sleeps in `poll`. Damage goes to `wl_surface.damage_buffer` as the renderer reports it.
/// - **Compositing**: the dim and the presented view as sub-surfaces where the compositor can
///   (``LayerComposer``, with its pixman fallback per frame), else everything by pixman
///   (``PresentationWindowOptions/compositing``).
/// - **Scale**: the window's integer or fractional scale (fractional-scale-v1) is the host's
///   (`PresentationHost/layout(containerSize:scale:)`), re-laid-out when it changes; a window
///   too large for the buffer cap at the outputs' scale draws at a lower one and says so once
///   (``onWarning``).
/// - **Reduced motion** from the desktop (``PresentationWindowOptions/ReducedMotion``), followed live.
/// - **Screen readers** (AT-SPI through `AccessibilityBridge`), started after the first committed
///   frame so that launching never waits for the accessibility bus.
/// - **SIGTERM and SIGINT** close the window as the compositor's close does
///   (``PresentationWindowOptions/closesOnTerminationSignals``).
/// Everything runs on one loop, ModalKitWaylandClient's (``run()``): the display, the portal's D-Bus
/// connection, the accessibility bus and GLib's main context, timers and the app's own descriptors
/// (`WaylandConnection/watch(fd:events:onReady:)`, `EventLoopTimer`).
///
/// Use it from one thread, the one that calls ``run()``; every callback comes on it.
public final class PresentationWindow {
    /// What the window drives (a host, or the app's scene around one).
    public let scene: PresentationScene
    /// The host whose frames the window shows (``PresentationScene/host``). Observe its state
    /// through `PresentationHost/onStateChange` and `PresentationHost/onLevelStateChange`.
    public var host: PresentationHost { scene.host }
    /// The connection the window lives on (its loop is the app's one loop).
    public let connection: WaylandConnection
    /// The xdg-shell window (for what the binding does not cover: its configuration, its scale).
    public let window: Window
    /// What the window was created with.
    public let options: PresentationWindowOptions

    /// Called for every committed frame that changed what the window shows (number, time, backend,
    /// client CPU time), after its commit.
    public var onFrame: ((FrameReport) -> Void)?
    /// Called when the compositor reports that frame `number` (``FrameReport/number``) was shown at
    /// `time` (monotonic seconds, `wp_presentation` feedback); only with
    /// ``PresentationWindowOptions/presentationFeedback`` on a compositor that offers it.
    public var onFramePresented: ((_ number: Int, _ time: Double) -> Void)?
    /// Called once, when the window is first on screen (UIKit's `viewDidAppear`): its first frame's
    /// `wp_presentation` feedback, or, without feedback (none offered, or none sent: headless sway),
    /// the compositor's frame callback after its first committed frame — unless the compositor
    /// resized the window in the same breath (a tiling compositor's configure for the tiled size
    /// comes right after that callback): then the callback after the frame at the new size.
    public var onAppear: (() -> Void)?
    /// Called before the scene lays out for each configure (new size or scale): the content size in
    /// points and the scale in buffer pixels per point.
    public var onConfigure: ((_ size: Size, _ scale: Double) -> Void)?
    /// Called with each change of the effective reduced motion (true also at start when it is on),
    /// after the host has it.
    public var onReducedMotionChange: ((Bool) -> Void)?
    /// Called once the accessibility bridge runs (a screen reader can see the window).
    public var onAccessibilityStart: (() -> Void)?
    /// Called each time the window has rested (nothing presented, nothing moving, no frame drawn)
    /// for ``restDelay`` seconds and the host has freed its pixel caches
    /// (`PresentationHost.releaseCachesAtRest()`): the window then holds little more than the
    /// buffer the compositor shows, until its next frame.
    public var onRest: (() -> Void)?
    /// A one-line notice for the user (a buffer-capped scale, an incomplete installation). Default:
    /// written to stderr as `PROGRAM: notice`.
    public var onWarning: (String) -> Void = { line in
        let program = CommandLine.arguments.first.map { PathName.lastComponent($0) } ?? "app"
        writeToStandardError(program + ": " + line.replacingAll("\n", with: " ") + "\n")
    }

    let composer: LayerComposer
    private var binding: WindowBinding!
    var input = InputTranslator()
    /// The time of the input event being routed (``present(_:style:sourceRect:)`` from a content's
    /// handler uses it); nil outside input.
    var inputTime: Double?
    /// A style replacement waiting for the running transition to end, and what to do once applied.
    var pendingStyle: (style: PresentationStyle, completion: (() -> Void)?)?
    var motion: DesktopMotion?
    var signals: TerminationSignals?
    var accessibility: WindowAccessibility?
    /// The frame being drawn changed what the window shows (reported at its commit), and how.
    var pendingFrame = false
    var pendingBackend = FrameBackend.pixman
    var frames = 0
    /// Frame numbers by commit sequence (for ``onFramePresented``), a small ring: feedback arrives
    /// within a few refreshes.
    var frameBySequence = [Int](repeating: 0, count: 64)
    var hasAppeared = false
    var hasCommitted = false
    /// Configures that changed the size or scale (``onConfigure``), counted to tell whether one came
    /// with a frame callback (``onAppear``).
    var configures = 0
    /// The configures counted when the last frame callback came, and the check that runs once the
    /// events read with it have been handled (in the loop's next iteration).
    var configuresAtCallback = 0
    var appearCheck: EventLoopTimer?
    /// Frees the host's caches once the window has been at rest for ``restDelay`` seconds.
    var restCheck: EventLoopTimer?
    /// How long a window with nothing presented draws no frame before its caches go, seconds.
    public static let restDelay = 0.5
    var warnedAboutScaleLimit = false

    /// A window showing `content` with `style` for what it presents (level 1's style; a
    /// presentation may name its own).
    /// - Parameters:
    ///   - content: the window's own content (the presenting view: UIKit's root view), sized to the window.
    ///   - style: the style of what the window presents, by name (with its options) or as an object.
    ///   - options: title, app id, size and the window's other choices.
    ///   - connection: the compositor connection; nil connects to `$WAYLAND_DISPLAY`.
    /// - Throws: `StyleLoadError` or `StyleOptionError` for a named style that does not load;
    ///   `WaylandError` when there is no compositor or a required global is missing.
    public convenience init(content: any PresentationContent, style: StyleChoice, options: PresentationWindowOptions,
                            connection: WaylandConnection? = nil) throws {
        let host = PresentationHost(style: try style.makeStyle(), presenting: content)
        try self.init(scene: host, options: options, connection: connection)
    }

    /// A window driving `scene`. Nothing is drawn before ``run()``.
    /// - Throws: `WaylandError/noCompositor(socket:reason:)` and the other connection errors when
    ///   `connection` is nil and connecting fails; `WaylandError/missingGlobal(_:)` for
    ///   `.subsurface` compositing without `wl_subcompositor` or `wp_viewporter`;
    ///   `WaylandError/invalidOptions(_:)` for a size below 1 × 1.
    public init(scene: PresentationScene, options: PresentationWindowOptions, connection: WaylandConnection? = nil) throws {
        self.scene = scene
        self.options = options
        let connection = try connection ?? WaylandConnection()
        self.connection = connection
        var windowOptions = WindowOptions(title: options.title, appID: options.appID, requestedSize: options.size,
                                          compositing: options.compositing,
                                          presentationFeedback: options.presentationFeedback || options.frameTime == .predicted)
        windowOptions.predictsPresentationTime = options.frameTime == .predicted
        windowOptions.clientSideDecorations = .standard   // a title bar where the compositor draws none
        let binding = WindowBinding()
        let window = try Window(connection: connection, options: windowOptions, delegate: binding)
        self.window = window
        composer = LayerComposer { [weak window] in window?.makeLayer() }
        self.binding = binding
        binding.owner = self
    }

    deinit {
        accessibility?.stop()
        appearCheck?.invalidate()
        restCheck?.invalidate()
    }

    // MARK: Presenting

    /// Presents `content` over the window's content, or over the top presented level when one is
    /// presented (a stack) — `PresentationHost/present(_:style:sourceRect:now:)` at the time of
    /// the input event being handled (its compositor time), or now outside input, followed by the
    /// frames it takes.
    /// - Parameters:
    ///   - content: what is presented (the presented view), sized by the style's frame.
    ///   - style: the style of this presentation; nil: level 1 keeps the window's style, a level
    ///     above level 1 uses the same style object.
    ///   - sourceRect: the control it comes from, container points (a style may grow from it).
    /// - Returns: false when ignored (a transition is running, or `content` is presented already).
    @discardableResult
    public func present(_ content: any PresentationContent, style: PresentationStyle? = nil,
                        sourceRect: Rect? = nil) -> Bool {
        let now = inputTime ?? monotonicSeconds()
        if let style, host.levelCount == 0, style !== host.style { _ = scene.replaceStyle(style) }
        let changed = host.present(content, style: style, sourceRect: sourceRect, now: now)
        window.setNeedsRedraw()
        return changed
    }

    /// Dismisses the top presented level (`PresentationHost/dismiss(now:)`), at the input event's
    /// time or now. Returns false when ignored (it is dismissing already, or nothing is presented).
    @discardableResult
    public func dismiss() -> Bool {
        let changed = host.dismiss(now: inputTime ?? monotonicSeconds())
        window.setNeedsRedraw()
        return changed
    }

    /// Uses `style` for level 1 from now on (``PresentationScene/replaceStyle(_:)``): at once when no
    /// transition runs (a presented view takes its frame and chrome now), else after the frame that
    /// ends the running one; then `completion` runs. A later call replaces a replacement still waiting.
    public func replaceStyle(_ style: PresentationStyle, completion: (() -> Void)? = nil) {
        pendingStyle = (style, completion)
        if !scene.isAnimating { applyPendingStyle() }
    }

    /// Asks for a frame (something the host does not know about changed, e.g. after calling the host
    /// directly). Cheap and idempotent.
    public func setNeedsRedraw() { window.setNeedsRedraw() }

    // MARK: Running

    /// Runs the app's loop until the window is closed (by the compositor, ``close()``, or SIGTERM /
    /// SIGINT): starts following the termination signals (and a forced reduced motion; the
    /// desktop's is asked after the first commit), then `WaylandConnection/run()`.
    /// - Throws: what `WaylandConnection/run()` throws (the compositor went away, a protocol error,
    ///   a buffer that cannot be made). The window is closed afterwards.
    public func run() throws {
        // The desktop's setting is asked after the first commit (``startDesktopMotion()``): the
        // session bus and libdbus stay off the first frame's path (docs/design.md, start-up and
        // footprint); a forced choice applies at once.
        if options.reducedMotion != .desktop || hasCommitted { startDesktopMotion() }
        if options.closesOnTerminationSignals, signals == nil {
            signals = TerminationSignals(connection: connection) { [weak self] in self?.close() }
        }
        defer { accessibility?.stop() }
        try connection.run()
    }

    /// Closes the window (its Wayland objects destroyed in protocol order); ``run()`` returns.
    /// Idempotent.
    public func close() {
        accessibility?.stop()
        window.close()
    }

    // MARK: Internal

    func handle(_ event: PresentationInput, now: Double) {
        inputTime = now
        scene.handle(event, now: now)
        inputTime = nil
    }

    func redrawIfNeeded() {
        if scene.needsRedraw { window.setNeedsRedraw() }
    }

    func applyPendingStyle() {
        guard let pending = pendingStyle, scene.replaceStyle(pending.style) else { return }
        pendingStyle = nil
        window.setNeedsRedraw()
        pending.completion?()
    }

    /// Starts following reduced motion (once): at ``run()`` for a forced choice, after the first
    /// commit for the desktop's.
    func startDesktopMotion() {
        guard motion == nil else { return }
        motion = DesktopMotion(options.reducedMotion, connection: connection) { [weak self] on in
            guard let self else { return }
            host.reducesMotion = on
            onReducedMotionChange?(on)
        }
    }

    func startAccessibility() {
        guard options.accessibility, accessibility == nil else { return }
        let name = options.applicationName
            ?? CommandLine.arguments.first.map { PathName.lastComponent($0) } ?? options.title
        accessibility = WindowAccessibility(
            host: host, configuration: AccessibilityBridge.Configuration(applicationName: name, windowTitle: options.title),
            handle: { [weak self] input in
                guard let self else { return }
                handle(input, now: monotonicSeconds())
                redrawIfNeeded()
            },
            started: { [weak self] in self?.onAccessibilityStart?() },
            warn: { [weak self] line in self?.onWarning(line) })
        accessibility?.windowDidCommit(window)
    }

    func appear() {
        guard !hasAppeared else { return }
        hasAppeared = true
        appearCheck?.invalidate()
        appearCheck = nil
        onAppear?()
    }

    /// Nothing presented and nothing moving: after ``restDelay`` seconds at rest the host's caches
    /// go (``PresentationHost/releaseCachesAtRest()``, then ``onRest``); every frame and frame
    /// callback until then puts it off. Checked at both: the frame that ends a dismissal asks for
    /// no frame callback, so a window that checked at callbacks only kept its caches after it.
    func scheduleRestCheck() {
        if host.levelCount == 0 && !host.isAnimating {
            if restCheck == nil {
                restCheck = EventLoopTimer(connection: connection) { [weak self] in
                    guard let self, host.levelCount == 0, !host.isAnimating else { return }
                    if host.releaseCachesAtRest() { onRest?() }
                }
            }
            restCheck?.schedule(after: PresentationWindow.restDelay)
        } else if restCheck?.isScheduled == true {
            restCheck?.cancel()
        }
    }

    /// A frame callback came after the first commit: the window is on screen — unless a configure
    /// that resizes it was read with the callback (sway sends the tiled size right after the first
    /// frame's callback), which is known once the events after it have been dispatched.
    func frameCallbackArrived() {
        scheduleRestCheck()
        guard hasCommitted, !hasAppeared else { return }
        configuresAtCallback = configures
        if appearCheck == nil {
            appearCheck = EventLoopTimer(connection: connection) { [weak self] in
                guard let self, configures == configuresAtCallback else { return }
                appear()
            }
        }
        appearCheck?.schedule(after: 0)
    }
}
