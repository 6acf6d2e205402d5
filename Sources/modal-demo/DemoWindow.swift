import Glibc
import ModalKitDemo
import ModalKit
import ModalKitWayland
import ModalKitSystemSupport
import ModalKitWaylandClient

/// The demo's scene is what its window drives: the host with the demo's content, its focus rings
/// (shown after keyboard use) and its `--pause-at` clock on top.
extension DemoScene: PresentationScene {}

/// `--autoplay`: one hands-free cycle — presents once the window is on screen
/// (``PresentationWindow/onAppear``), dismisses once presented.
final class Autoplay {
    private let scene: DemoScene
    weak var window: PresentationWindow?
    private var presented = false
    private var dismissed = false

    init(scene: DemoScene) { self.scene = scene }

    /// The window is on screen: present, as a user pressing Return would.
    func windowAppeared() {
        guard scene.state == .dismissed, !presented else { return }
        presented = true
        scene.present(now: monotonicSeconds())
        window?.setNeedsRedraw()
    }

    /// A state change of level 1 (called after it is logged): dismiss once presented.
    func sceneEvent(_ event: SceneEvent) {
        guard event == .presented, presented, !dismissed else { return }
        dismissed = true
        scene.dismiss(now: monotonicSeconds())
        window?.setNeedsRedraw()
    }
}

/// Runs the window until the compositor closes it.
/// - Returns: 0 after `xdg_toplevel.close`, SIGTERM or SIGINT. Failures do not return: a bad
///   style exits 2; no font, no compositor, a missing required global, a lost connection or a
///   buffer that cannot be made exits 1 (one stderr line, `fail`).
func runWindow(_ options: RunOptions) -> Int32 {
    let logEvents = options.logEvents
    func log(_ line: @autoclosure () -> String) { if logEvents { print(line()) } }
    // The fonts load on a second thread while the styles load, the compositor answers the first
    // roundtrips and configures the window, and the first frame makes its buffer and draws its
    // background (the scene waits for them at its first text); every exit waits for the thread
    // first (`fail` cancels `pendingFontLoad`; so does the end of the run).
    let fontLoad = SceneFontLoad()
    pendingFontLoad = fontLoad
    // The styles of the stack's levels (loaded now, so a bad one exits 2 before any window); with
    // --watch level 1's comes from the reloader's copy and the levels above share it.
    let styles: ((Int) -> PresentationStyle)? = options.watch ? nil : makeStyleFactory(options.selections)
    // --watch: the style is loaded from a copy of its file, now and at every change; a new one is
    // used once no transition runs.
    weak var windowRef: PresentationWindow?
    let path = options.selection.style
    let reloader = options.watch ? StyleReloader(
        path: path, options: options.selection.effectiveOptions, log: { line in log(line) },
        apply: { style in windowRef?.replaceStyle(style) { log("reloaded \(path)") } }) : nil
    let style: PresentationStyle
    if let reloader {
        do { style = try reloader.loadInitial() } catch { fail(UsageError.exitStatus, String(describing: error)) }
    } else {
        style = styles!(1)
    }
    let connection: WaylandConnection
    do {
        connection = try WaylandConnection()
    } catch {
        fail(1, String(describing: error))
    }
    if options.compositing == .subsurface, let missing = connection.missingCompositingGlobals.first {
        fail(UsageError.exitStatus, "--compositing subsurface needs \(missing), which the compositor does not offer")
    }
    var autoplay: Autoplay?
    // Level 1's lines as they always were; a level n > 1 appends " n". No font: exit 1 with one
    // line at the first text (before the window has shown anything).
    let scene = DemoScene(styleForLevel: { level in level == 1 ? style : (styles?(level) ?? style) },
                          fonts: fontLoad, onFontFailure: { error in fail(1, String(describing: error)) }) { event, level in
        log(level > 1 ? "\(event.rawValue) \(level)" : event.rawValue)
        if level == 1 { autoplay?.sceneEvent(event) }
    }
    // Gestures: `drag-began`, `drag-ended VELOCITY`, `detent N` (from 1), `close-attempt`.
    scene.onInteraction = { event in log(event.logLine) }
    // Printable keys the card used: `typed "TEXT"`.
    scene.onTyped = { text, level in log("typed \"\(text)\" \(level)") }
    // `--content list`: `scroll OFFSET TOP`, the list's offset and the sheet's top edge (points,
    // where it is drawn at that moment), at every change of the offset.
    scene.presentsList = options.content == .list
    // `--content alert`: `response ID`, the alert's choice.
    scene.presentsAlert = options.content == .alert || options.content == .form
    scene.onAlertResponse = { response in log("response \(response)") }
    // `--content form`: `text "TEXT"`, `preedit "TEXT" BEGIN END`, `response ok "TEXT"` | `response cancel`.
    if options.content == .form {
        let secure = options.secure
        scene.makeAlertContent = { FormDemo.makeAlert(secure: secure, log: logEvents ? { line in log(line) } : nil) }
        scene.onAlertResponse = { _ in }
    }
    if logEvents && options.content == .list {
        scene.onListScroll = { offset, top in log("scroll \(cFormat("%.2f", offset)) \(cFormat("%.2f", top))") }
    }
    scene.pauseFraction = options.pauseAt
    if options.autoplay { autoplay = Autoplay(scene: scene) }
    do {
        var windowOptions = PresentationWindowOptions(title: "ModalKit", appID: "modalkit.demo")
        windowOptions.size = (options.width, options.height)
        windowOptions.compositing = CompositingMode(rawValue: options.compositing.rawValue) ?? .auto
        windowOptions.frameTime = options.predictsPresentationTime ? .predicted : .drawn
        windowOptions.presentationFeedback = logEvents
        windowOptions.reducedMotion = options.reducedMotion ? .always : .desktop
        windowOptions.applicationName = "modal-demo"
        let window = try PresentationWindow(scene: scene, options: windowOptions, connection: connection)
        windowRef = window
        window.onWarning = { line in warn(line) }
        window.onConfigure = { size, _ in log("configure \(Int(size.width))x\(Int(size.height))") }
        window.onFrame = { f in
            log("frame \(f.number) \(cFormat("%.4f", f.time)) backend=\(f.backend.rawValue) cpu=\(cFormat("%.3f", f.cpuSeconds * 1000))")
        }
        window.onFramePresented = { number, time in log("presented \(number) \(cFormat("%.4f", time))") }
        window.onReducedMotionChange = { on in log("reduced-motion " + (on ? "on" : "off")) }
        window.onAccessibilityStart = { log("accessibility on") }
        window.onRest = { log("rest") }
        autoplay?.window = window
        window.onAppear = {
            // The card's title font is made once the first frame is on screen, not while it is drawn.
            fontLoad.firstFrameShown()
            autoplay?.windowAppeared()
        }
        reloader?.attach(to: connection)
        try window.run()
        withExtendedLifetime((window, reloader)) {}
    } catch {
        fail(1, String(describing: error))
    }
    fontLoad.cancel()   // a window closed before its first frame: the thread ends before the program
    return 0
}
