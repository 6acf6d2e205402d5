import Glibc
import ModalKit
import ModalKitContent
import ModalKitDemo
import ModalKitSystemSupport
import ModalKitWayland
import ModalKitWaylandClient

/// The window behind a prompt, under the style's dim and the prompt: clear in an overlay (the
/// desktop shows through the dim), the colour of a dialog's backdrop in a toplevel.
private final class AskBackdrop: PresentationContent {
    let color: Color
    private(set) var invalidation = ContentInvalidation.all
    init(color: Color) { self.color = color }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: color)
        invalidation = .none
    }
    func handle(_ input: ContentInput, now: Double) -> Bool { false }
    func didLayout(size: Size) { invalidation = .all }
}

/// Runs prompts on one compositor connection, one window each, one after another (`ask`, and
/// `pinentry`'s `GETPIN`, `CONFIRM`, `MESSAGE`).
///
/// Where the compositor offers `zwlr_layer_shell_v1` (sway, KWin) each prompt is a system-modal
/// overlay: a layer surface on the overlay layer of the focused output, anchored to its four
/// edges, exclusive zone −1, exclusive keyboard; the style's dim and transition cover the output
/// (swaynag's and fuzzel's practice), and the same dim covers every other output (``OutputDims``).
/// Elsewhere (mutter, weston) a toplevel sized to the prompt.
final class AskRunner {
    /// The connection every prompt's window lives on.
    let connection: WaylandConnection
    /// Whether prompts are overlays (the compositor offers the layer shell).
    var usesOverlay: Bool { connection.offersLayerShell }
    /// Told `presented` once a prompt's transition has ended on screen, `dismissed` once it has
    /// gone (pinentry's `--log-events`).
    var onEvent: ((PresentationState) -> Void)?

    /// Connects to the compositor (`$WAYLAND_DISPLAY`).
    /// - Throws: `WaylandError` when there is no compositor.
    init() throws { connection = try WaylandConnection() }

    /// Shows `prompt` with `style` (the prompt's style, made by the caller: `makeStyle`), waits
    /// for the answer and closes the window. An overlay's dim covers the other outputs too
    /// (``OutputDims``).
    /// - Returns: OK with its answer, not OK (``AskPrompt/notOKLabel``'s button), cancelled (Cancel,
    ///   Escape, a tap on the dim where the style allows it, the window closed, SIGTERM/SIGINT) or
    ///   timed out.
    /// - Throws: `WaylandError` when the window cannot be made or the connection fails.
    func run(_ prompt: AskPrompt, style: PresentationStyle) throws -> AskResult {
        let content = AskContent(prompt: prompt)
        var options = PresentationWindowOptions(title: prompt.shownTitle, appID: "modalkit.ask")
        options.size = Self.windowSize(for: content)
        options.applicationName = "modal-demo"
        if usesOverlay { options.layerSurface = LayerSurfaceOptions(namespace: "modalkit-ask") }
        let backdrop = AskBackdrop(color: usesOverlay ? .clear : Color(rgb: 0xF6F5F4))
        let window = try PresentationWindow(content: backdrop, style: .object(style), options: options,
                                            connection: connection)
        // The window's callbacks hold it weakly: a runner's prompts leave nothing behind.
        var result: AskResult?
        content.onResult = { [weak window] answer, now in
            if result == nil { result = answer }
            window?.dismiss(now: now)
        }
        content.alert.dismiss = { _ in }
        window.onAppear = { [weak window] in window?.present(content.alert) }
        var dimFailure: Error?
        if usesOverlay {
            let dims = OutputDims(prompt: window, connection: connection)
            window.onFrame = { [weak window] _ in
                do { try dims.cover(style: style) } catch { dimFailure = error; window?.close() }
                dims.update()
            }
        }
        let onEvent = self.onEvent
        window.host.onStateChange = { [weak window] state in
            if state == .presented || state == .dismissed { onEvent?(state) }
            // Dismissed: by a choice (result set), or by the host (a tap on the dim): cancel.
            if state == .dismissed { window?.close() }
        }
        let timer = prompt.timeout.map { _ in
            EventLoopTimer(connection: connection) { [weak window] in
                if result == nil { result = .timedOut }
                window?.close()
            }
        }
        if let timer, let seconds = prompt.timeout { timer.schedule(after: seconds) }
        if let timer, prompt.timeoutStopsAtInput, let field = content.field {
            let previous = field.onChange
            field.onChange = { text in timer.cancel(); previous(text) }
        }
        defer { timer?.invalidate() }
        try window.run()
        if let dimFailure { throw dimFailure }
        return result ?? .cancelled
    }

    /// The toplevel's size, points: the alert at 270 pt wide with 40 pt around it; a list's
    /// sheet 480 × 600.
    static func windowSize(for content: AskContent) -> (width: Int, height: Int) {
        if content.list != nil { return (480, 600) }
        let height = content.alert.preferredContentSize(fittingWidth: 270)?.height ?? 200
        return (350, Int(height.rounded(.up)) + 80)
    }
}

/// `modal-demo ask`: the prompt's result as the exit status (0 OK, 1 cancel, 5 timeout) and its
/// answer on stdout with a final newline. A bad style or no compositor: exit 2 with one line.
func runAsk(_ prompt: AskPrompt) -> Int32 {
    var prompt = prompt
    if prompt.kind == .list && prompt.rows.isEmpty {
        do {
            prompt.rows = try AskCommandLine.rows(fromStandardInput: try AskCommandLine.readStandardInput())
        } catch {
            fail(UsageError.exitStatus, String(describing: error))
        }
    }
    var selection = prompt.effectiveStyle
    if prompt.style == nil && prompt.kind == .list {
        // The default sheet as tall as the prompt (its rows, at most 5.5, and its buttons), so the
        // buttons show above the output's bottom edge; 360 pt: the width its text is wrapped at.
        let height = AskContent(prompt: prompt).alert.preferredContentSize(fittingWidth: 360)?.height ?? 400
        selection.options["height"] = String(Int(height.rounded(.up)) + 24)
    }
    let style = makeStyle(selection)
    let runner: AskRunner
    do { runner = try AskRunner() } catch { fail(UsageError.exitStatus, String(describing: error)) }
    let result: AskResult
    do { result = try runner.run(prompt, style: style) } catch { fail(UsageError.exitStatus, String(describing: error)) }
    if case let .ok(answer?) = result { print(answer) }
    finishStandardOutput()
    return result.exitStatus
}
