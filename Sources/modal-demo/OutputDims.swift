import ModalKit
import ModalKitWayland
import ModalKitWaylandClient

/// An overlay prompt's dim on the outputs the prompt is not on: a system-modal prompt darkens
/// every screen, not only the one it asks on (as GNOME Shell's system-modal dialogs, polkit's
/// among them, shade every monitor). One layer surface per other output (`zwlr_layer_shell_v1` overlay layer, anchored to the
/// four edges, exclusive zone −1, no keyboard), each drawing the prompt's dim as it is at the
/// moment (``OutputDim``): it fades in and out with the prompt's transition.
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
            dims.append(try PresentationWindow(content: OutputDim(host: prompt.host), style: .object(style),
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
final class OutputDim: PresentationContent {
    private weak var host: PresentationHost?
    private var drawn: Color?

    init(host: PresentationHost) { self.host = host }

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

    func handle(_ input: ContentInput, now: Double) -> Bool { false }
    func didLayout(size: Size) { drawn = nil }
}
