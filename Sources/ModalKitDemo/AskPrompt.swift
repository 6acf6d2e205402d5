import ModalKit

/// What `modal-demo ask` (and `modal-demo pinentry`) asks: one prompt, described before any window
/// exists, run by the program's prompt runner into an ``AskResult`` (zenity's dialogs: `--question`,
/// `--warning`, `--info`, `--error`, `--entry`, `--password`, `--list`).
public struct AskPrompt: Equatable, Sendable {
    /// The kind of prompt (zenity's dialog types).
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        /// Yes or no: OK and Cancel (zenity `--question`).
        case question
        /// A warning acknowledged with OK (zenity `--warning`).
        case warning
        /// A notice acknowledged with OK (zenity `--info`).
        case info
        /// An error acknowledged with OK (zenity `--error`).
        case error
        /// One line of text (zenity `--entry`); the answer is the text.
        case entry
        /// One line of secret text, shown as bullets (zenity `--password`); the answer is the text.
        case password
        /// Rows to choose from (zenity `--list`); the answer is the chosen rows joined by the separator.
        case list

        /// Whether the prompt has a Cancel button (a notice has only OK; zenity's rule).
        public var hasCancel: Bool { self == .question || self == .entry || self == .password || self == .list }
        /// Whether the prompt holds a text field.
        public var hasTextField: Bool { self == .entry || self == .password }
    }

    /// The kind.
    public var kind: Kind
    /// The heading (`--title`); empty: the kind's own ("Question", "Warning", …).
    public var title = ""
    /// The body text (`--text`), may be empty.
    public var text = ""
    /// A line shown under the text in the error's place (pinentry's `SETERROR`), may be empty.
    public var errorText = ""
    /// The OK button's label (`--ok-label`).
    public var okLabel = "OK"
    /// The Cancel button's label (`--cancel-label`).
    public var cancelLabel = "Cancel"
    /// A third button's label, between Cancel and OK, for a question (pinentry's `SETNOTOK`:
    /// CONFIRM's "not OK"); nil: none. Its answer is ``AskResult/notOK``.
    public var notOKLabel: String?
    /// The field's label (pinentry's `SETPROMPT`, "Passphrase:"), shown as its placeholder and
    /// its name for screen readers; empty: none (the text, or the heading, names the field).
    public var fieldLabel = ""
    /// Whether the first change of the field's text stops ``timeout`` (pinentry's rule: pinentry-gtk-2
    /// and pinentry-curses time out only a prompt nothing was typed into); zenity's `--timeout` does not.
    public var timeoutStopsAtInput = false
    /// Return chooses Cancel rather than OK (`--default-cancel`).
    public var defaultCancel = false
    /// The entry's initial text (`--entry-text`).
    public var entryText = ""
    /// The list's column heading (`--column`), its name for screen readers.
    public var column = ""
    /// Several rows may be chosen (`--multiple`).
    public var multiple = false
    /// What joins the chosen rows on stdout (`--separator`, default `|`).
    public var separator = "|"
    /// The list's rows, top to bottom.
    public var rows: [String] = []
    /// Seconds after which the prompt goes away with ``AskResult/timedOut`` (`--timeout`); nil: never.
    public var timeout: Double?
    /// The presentation style (`--style`, `--style-option`); nil: the kind's default
    /// (``defaultStyle``).
    public var style: StyleSelection?

    /// A prompt of `kind` with every other field at its default.
    public init(kind: Kind) { self.kind = kind }

    /// The style used when none is given: a bottom sheet for a list, the alert style otherwise.
    public var defaultStyle: StyleSelection {
        var s = StyleSelection()
        s.style = kind == .list ? "bottom-sheet" : "alert"
        return s
    }

    /// The style this prompt is shown with.
    public var effectiveStyle: StyleSelection { style ?? defaultStyle }

    /// The heading shown: ``title``, or the kind's name when empty.
    public var shownTitle: String {
        if !title.isEmpty { return title }
        switch kind {
        case .question: return "Question"
        case .warning: return "Warning"
        case .info: return "Information"
        case .error: return "Error"
        case .entry: return "Enter text"
        case .password: return "Password"
        case .list: return "Choose"
        }
    }
}

/// How a prompt ended (zenity's exit statuses: `AskResult/exitStatus`).
public enum AskResult: Equatable, Sendable {
    /// OK was chosen; `answer` is what goes to stdout: the entry's text, the chosen rows joined by
    /// the separator, nil for a prompt without an answer (a question, a notice).
    case ok(answer: String?)
    /// Cancel was chosen, or the prompt was dismissed (Escape, a tap on the dim) or closed.
    case cancelled
    /// The ``AskPrompt/notOKLabel`` button was chosen.
    case notOK
    /// ``AskPrompt/timeout`` passed first.
    case timedOut

    /// The exit status: 0 OK, 1 cancelled or not OK (zenity's for a button other than OK), 5 timed
    /// out (zenity's).
    public var exitStatus: Int32 {
        switch self {
        case .ok: return 0
        case .cancelled, .notOK: return 1
        case .timedOut: return 5
        }
    }
}
