import Glibc
import ModalKit
import ModalKitDemo
import ModalKitSystemSupport
import ModalKitWaylandClient

/// `modal-demo pinentry`: the pinentry Assuan protocol on standard input and output
/// (``AssuanPinentry``), each prompt shown by an ``AskRunner`` (``PinentryWindowPrompter``).
/// A style that cannot load: exit 2 with one line, before the greeting.
/// - Returns: 0 after `BYE` or the end of the input; 1 with one stderr line for a line too long,
///   input ending inside a line, or a failed read or write.
func runPinentry(style: StyleSelection, logEvents: Bool) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    _ = makeStyle(style)
    let prompter = PinentryWindowPrompter(style: style, logEvents: logEvents)
    let engine = AssuanPinentry(prompter: prompter, write: AssuanPinentry.descriptorWriter(STDOUT_FILENO))
    let end = engine.serve(input: STDIN_FILENO)
    if let message = end.message {
        writeToStandardError("modal-demo: " + message + "\n")
        return 1
    }
    return 0
}

/// Shows each pinentry prompt as an ``AskPrompt`` on one ``AskRunner`` (one compositor connection
/// for the whole conversation, made at the first prompt): GETPIN a password prompt (bullets, never
/// copied, the input method told purpose password) labelled by `SETPROMPT`, the error (`SETERROR`,
/// or `SETREPEATERROR` after a mismatch) under the description; CONFIRM a question with OK, Cancel
/// and a `SETNOTOK` button; MESSAGE a notice with OK alone. Escape, or the compositor closing the
/// prompt, cancels; `SETTIMEOUT` seconds with nothing typed time it out (pinentry-gtk-2's rule).
/// No compositor, or a connection lost: the prompt fails (`ERR … No pinentry`) with one stderr
/// line, and the next prompt connects again.
final class PinentryWindowPrompter: PinentryPrompter {
    private let style: StyleSelection
    private let logEvents: Bool
    private var runner: AskRunner?

    /// - Parameters:
    ///   - style: the prompts' style, loaded for each prompt (a style object per presentation).
    ///   - logEvents: print `presented` and `dismissed` on stderr for each prompt.
    init(style: StyleSelection, logEvents: Bool) { self.style = style; self.logEvents = logEvents }

    func getPin(_ settings: PinentrySettings, entry: PinentryEntry, error: String?, into secret: PinentrySecret) -> PinentryOutcome {
        switch show(settings.askPrompt(entry: entry, error: error)) {
        case .ok(let answer): return secret.set(answer ?? "") ? .ok : .cancelled
        case .timedOut: return .timedOut
        case .failed: return .failed
        case .notOK, .cancelled: return .cancelled
        }
    }

    func confirm(_ settings: PinentrySettings, error: String?, oneButton: Bool) -> PinentryOutcome {
        switch show(settings.askPrompt(oneButton: oneButton, error: error)) {
        case .ok: return .ok
        case .notOK: return .notOK
        case .timedOut: return .timedOut
        case .failed: return .failed
        case .cancelled: return .cancelled
        }
    }

    /// What showing a prompt came to.
    private enum Shown { case ok(String?), notOK, cancelled, timedOut, failed }

    /// Runs `prompt` on the runner (connecting first when there is none); a connection that
    /// cannot be made or fails: one stderr line, `.failed`, and no runner kept.
    private func show(_ prompt: AskPrompt) -> Shown {
        do {
            if runner == nil {
                let made = try AskRunner()
                if logEvents { made.onEvent = { state in writeToStandardError(state.rawValue + "\n") } }
                runner = made
            }
            var prompt = prompt
            prompt.style = style
            switch try runner!.run(prompt, style: makeStyle(style)) {
            case .ok(let answer): return .ok(answer)
            case .notOK: return .notOK
            case .cancelled: return .cancelled
            case .timedOut: return .timedOut
            }
        } catch {
            runner = nil
            warn("pinentry: " + String(describing: error))
            return .failed
        }
    }
}
