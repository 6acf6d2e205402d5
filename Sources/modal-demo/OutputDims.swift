import ModalKit
import ModalKitWayland
import ModalKitWaylandClient

/// An overlay prompt's dim on the outputs the prompt is not on: a system-modal prompt darkens
/// every screen, not only the one it asks on (as GNOME Shell's system-modal dialogs, polkit's
/// among them, shade every monitor). One layer surface per other output (`zwlr_layer_shell_v1` overlay layer, anchored to the
/// four edges, exclusive zone −1, no keyboard), each drawing the prompt's dim as it is at the
/// moment (``OutputDim``): it fades in and out with the prompt's transition.
///
/// A tap on one of them is a tap on the prompt's dim (cancel where the style dismisses on a tap
/// there): ``OutputDim`` gives it to the prompt's host at a point where a tap on its dim dismisses
/// (`PresentationController.dismissingTapPoint`), from a seat of its own, so that the pointer on
/// the prompt's output is not moved; a style that refuses every tap on its dim refuses it here too.
///
/// The prompt's output is the one its surface entered (`wl_surface.enter`; the compositor put it
/// on the focused output), known once the prompt is on screen: ``cover(style:)`` is called from
/// the prompt's frames until it has made the dims. The dims close once the prompt's window has
/// closed (an event-loop source, so that the loop, which runs while any window is open, ends).
final class OutputDims: EventLoopSource {
    private weak var prompt: PresentationWindow?
    private let connection: WaylandConnection
    private var dims: [PresentationWindow] = []
    private var covered = false

    /// Dims for `prompt` on `connection` (none made yet).
    init(prompt: PresentationWindow, connection: WaylandConnection) {
        self.prompt = prompt
        self.connection = connection
        connection.addSource(self)
    }

    /// Makes a dim on every output the prompt's surface is not on, once it is on one (a no-op
    /// before that and after the first time).
    /// - Parameter style: the prompt's style (the dims' hosts present nothing with it).
    /// - Throws: `WaylandError` when a dim's surface cannot be made.
    func cover(style: PresentationStyle) throws {
        guard !covered, let prompt, !prompt.window.isClosed else { return }
        let shownOn = prompt.window.enteredOutputNames
        guard !shownOn.isEmpty else { return }
        covered = true
        for name in connection.outputNames where !shownOn.contains(name) {
            var layer = LayerSurfaceOptions(namespace: "modalkit-ask-dim")
            layer.keyboardInteractivity = 0
            layer.output = name
            var options = PresentationWindowOptions(title: "", appID: "modalkit.ask")
            options.layerSurface = layer
            options.applicationName = "modal-demo"
            let dim = OutputDim(host: prompt.host, style: style) { [weak prompt] in prompt?.setNeedsRedraw() }
            dims.append(try PresentationWindow(content: dim, style: .object(style),
                                               options: options, connection: connection))
        }
    }

    /// Redraws each dim (after a frame of the prompt: the dim may have changed).
    func update() { for dim in dims { dim.setNeedsRedraw() } }

    func prepare(_ descriptors: inout [PollDescriptor]) -> Double? {
        (prompt?.window.isClosed ?? true) ? 0 : nil
    }

    func dispatch(_ descriptors: [PollDescriptor]) {
        guard prompt?.window.isClosed ?? true else { return }
        for dim in dims { dim.close() }
        dims = []
        connection.removeSource(self)
    }
}

/// What a dim on another output shows: the prompt host's dim at the moment it is drawn, a solid
/// fill of its colour times its alpha (a gradient dim: its colour, clear for the built-in styles).
/// A tap on it (press and release) is a tap on the prompt's dim.
final class OutputDim: PresentationContent {
    private weak var host: PresentationHost?
    private let style: PresentationStyle
    private var drawn: Color?
    private var pressed = false
    /// The seat the taps are given to the prompt's host from: not the primary seat, whose pointer
    /// state (on the prompt's output) a synthetic tap must not change.
    static let seat = InputSeat(rawValue: 0xFFFF_FFFF)

    /// Asks the prompt's window for a frame: input its host got from here changes what it shows
    /// (a dismissal starts), and a window at rest draws only when asked.
    private let wakePrompt: () -> Void

    init(host: PresentationHost, style: PresentationStyle, wakePrompt: @escaping () -> Void) {
        self.host = host
        self.style = style
        self.wakePrompt = wakePrompt
    }

    private var current: Color {
        guard let dim = host?.snapshot(at: monotonicSeconds()).dim else { return .clear }
        return dim.color.multipliedAlpha(by: dim.alpha)
    }

    var invalidation: ContentInvalidation { current == drawn ? .none : .all }

    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let color = current
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: color)
        drawn = color
    }

    func handle(_ input: ContentInput, now: Double) -> Bool {
        switch input {
        case .press:
            pressed = true
            return true
        case .cancel:
            pressed = false
            return true
        case .release:
            guard pressed else { return false }
            pressed = false
            tapPromptsDim(now: now)
            return true
        default:
            return false
        }
    }

    /// A tap on the prompt's dim, at a point where one dismisses (none: the style refuses taps on
    /// its dim, and so does this).
    private func tapPromptsDim(now: Double) {
        guard let host, host.levelCount > 0,
              let point = PresentationController.dismissingTapPoint(style: style, containerSize: host.containerSize) else { return }
        host.handle(.pointerMotion(point), from: Self.seat, now: now)
        host.handle(.pointerButton(pressed: true), from: Self.seat, now: now)
        host.handle(.pointerButton(pressed: false), from: Self.seat, now: now)
        host.handle(.pointerLeave, from: Self.seat, now: now)
        wakePrompt()
    }

    func didLayout(size: Size) { drawn = nil }
}
