import Glibc
import ModalKit
import ModalKitContent
import ModalKitDemo
import ModalKitSystemSupport
import ModalKitWayland
import ModalKitWaylandClient

/// `modal-demo pinentry`: the pinentry Assuan protocol on standard input and output
/// (``AssuanPinentry``), each prompt an alert in its own window (``PinentryWindowPrompter``).
/// - Returns: 0 after `BYE` or the end of the input; 1 with one stderr line for a line too long,
///   input ending inside a line, or a failed read or write.
func runPinentry(style: String, logEvents: Bool) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let prompter = PinentryWindowPrompter(style: style, logEvents: logEvents)
    let engine = AssuanPinentry(prompter: prompter, write: AssuanPinentry.descriptorWriter(STDOUT_FILENO))
    let end = engine.serve(input: STDIN_FILENO)
    if let message = end.message {
        writeToStandardError("modal-demo: " + message + "\n")
        return 1
    }
    return 0
}

/// Shows each pinentry prompt as an alert, presented in a window of its own that closes when the
/// alert is answered: GETPIN a secure text field (bullets, never copied, the input method told
/// purpose password), the error (`SETERROR`, or `SETREPEATERROR` after a mismatch) above the
/// description; CONFIRM OK, Cancel and a `SETNOTOK` button; MESSAGE OK alone. Escape, or the
/// compositor closing the window, cancels.
final class PinentryWindowPrompter: PinentryPrompter {
    private let styleName: String
    private let logEvents: Bool

    /// - Parameters:
    ///   - style: the style's name or path.
    ///   - logEvents: print `presented` and `dismissed` on stderr for each prompt.
    init(style: String, logEvents: Bool) { styleName = style; self.logEvents = logEvents }

    func getPin(_ settings: PinentrySettings, entry: PinentryEntry, error: String?, into secret: PinentrySecret) -> PinentryOutcome {
        let alert = Alert(title: settings.title ?? "Passphrase",
                          message: message(settings, error: error),
                          responses: [Response("cancel", label: settings.shownCancelLabel),
                                      Response("ok", label: settings.shownOKLabel, appearance: .suggested)],
                          defaultResponse: "ok", closeResponse: "cancel")
        let label = entry == .repetition ? (settings.repeatPrompt ?? "Repeat:") : (settings.prompt ?? "Passphrase:")
        let field = alert.addTextField(TextField(placeholder: PinentrySettings.withoutMnemonic(label), isSecure: true))
        field.accessibilityLabel = field.placeholder
        var outcome = PinentryOutcome.cancelled
        alert.onResult = { [unowned field] result, _ in
            guard result.response == "ok" else { return }
            outcome = secret.set(field.text) ? .ok : .cancelled
            field.text = ""
        }
        present(alert)
        return outcome
    }

    func confirm(_ settings: PinentrySettings, error: String?, oneButton: Bool) -> PinentryOutcome {
        var responses = [Response("ok", label: settings.shownOKLabel, appearance: .suggested)]
        if !oneButton {
            if let notOK = settings.shownNotOKLabel { responses.insert(Response("notok", label: notOK), at: 0) }
            responses.insert(Response("cancel", label: settings.shownCancelLabel), at: 0)
        }
        let alert = Alert(title: settings.title ?? (oneButton ? "Message" : "Confirm"),
                          message: message(settings, error: error), responses: responses,
                          defaultResponse: "ok", closeResponse: oneButton ? "ok" : "cancel")
        var outcome = PinentryOutcome.cancelled
        alert.onResult = { result, _ in
            outcome = switch result.response { case "ok": .ok; case "notok": .notOK; default: .cancelled }
        }
        present(alert)
        return outcome
    }

    /// The alert's message: the error on its own line above the description.
    private func message(_ settings: PinentrySettings, error: String?) -> String {
        [error, settings.description].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// Presents `alert` in a new window once it is on screen and returns once it is dismissed (or
    /// the window is closed). No compositor, or a style that cannot load: one stderr line, exit 1.
    private func present(_ alert: Alert) {
        let fonts = SceneFontLoad()
        pendingFontLoad = fonts
        defer { fonts.cancel(); pendingFontLoad = nil }
        let style = makeStyle({ var s = StyleSelection(); s.style = styleName; return s }())
        weak var windowRef: PresentationWindow?
        var presented = false
        let logEvents = self.logEvents
        let scene = DemoScene(styleForLevel: { _ in style }, fonts: fonts,
                              onFontFailure: { error in fail(1, String(describing: error)) }) { event, level in
            guard level == 1, presented else { return }
            if logEvents, event == .presented || event == .dismissed { writeToStandardError(event.rawValue + "\n") }
            if event == .dismissed { windowRef?.close() }
        }
        scene.presentsAlert = true
        scene.makeAlertContent = { alert }
        do {
            let connection = try WaylandConnection()
            var options = PresentationWindowOptions(title: alert.title, appID: "modalkit.pinentry")
            options.size = (420, 320)
            options.applicationName = "modal-demo"
            let window = try PresentationWindow(scene: scene, options: options, connection: connection)
            windowRef = window
            window.onWarning = { line in warn(line) }
            window.onAppear = {
                guard !presented else { return }
                presented = true
                scene.present(now: monotonicSeconds())
                window.setNeedsRedraw()
            }
            try window.run()
            withExtendedLifetime(window) {}
        } catch {
            fail(1, String(describing: error))
        }
    }
}
