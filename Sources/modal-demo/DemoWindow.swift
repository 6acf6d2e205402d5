import Foundation
import ModalDemoKit
import ModalKit
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
/// frame callback → render, seat events → scene input. Logs events for `--log-events`.
final class DemoWindowController: WindowDelegate {
    private let scene: DemoScene
    private let logEvents: Bool
    private var frames = 0
    private var inputClock = InputClock()
    private weak var window: Window?
    /// A reloaded style waiting for the running transition to end (`--watch`), with its path.
    private var pendingStyle: (style: any PresentationStyle, path: String)?

    init(scene: DemoScene, logEvents: Bool) {
        self.scene = scene
        self.logEvents = logEvents
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
        if !damage.isEmpty {
            frames += 1
            log("frame \(frames) \(String(format: "%.4f", target.time))")
        }
        // The scene's rectangles (ModalKit) into the window's array (WaylandClient): the one
        // conversion between the two, into an array that keeps its capacity.
        for r in damage { rects.append(BufferRect(x: r.x, y: r.y, width: r.width, height: r.height)) }
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
}

/// Runs the window until the compositor closes it.
/// - Returns: 0 after `xdg_toplevel.close`. Failures do not return: a bad style exits 2; no font,
///   no compositor, a missing required global or a lost connection exits 1 (one stderr line, `fail`).
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
    controllerRef = { [weak controller] in controller }
    do {
        let connection = try WaylandConnection()
        // After the compositor answered (a missing one is reported at once), before the window:
        // the first presentation already knows the desktop's setting.
        let motion = DesktopMotion(scene: scene, forced: options.reducedMotion) { line in
            if logEvents { print(line) }
        }
        motion.attach(to: connection)
        reloader?.attach(to: connection)
        let window = try Window(connection: connection,
                                options: WindowOptions(title: "ModalKit", appID: "modalkit.demo",
                                                       requestedSize: (options.width, options.height)),
                                delegate: controller)
        try connection.run()
        withExtendedLifetime((window, motion, reloader)) {}
    } catch {
        fail(1, String(describing: error))
    }
    return 0
}
