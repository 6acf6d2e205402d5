/// What a pinentry's prompts show, as gpg-agent set it with the `SET…` and `OPTION` commands
/// (pinentry's `struct pinentry`). Texts are percent-decoded; nil: not set (the prompter's default).
public struct PinentrySettings: Equatable, Sendable {
    /// `SETTITLE`: the window's title.
    public var title: String?
    /// `SETDESC`: the description ("Please enter the passphrase to unlock …").
    public var description: String?
    /// `SETPROMPT`: the entry's label ("Passphrase:").
    public var prompt: String?
    /// `SETOK`, `SETCANCEL`, `SETNOTOK`: the buttons' labels; with `SETNOTOK` CONFIRM has a third
    /// button. A `_` marks a mnemonic (GTK's convention; shown without it).
    public var okLabel: String?, cancelLabel: String?, notOKLabel: String?
    /// `SETERROR`: shown with the next GETPIN or CONFIRM only (pinentry clears it after each).
    public var error: String?
    /// `SETREPEAT`: GETPIN asks twice, this the second entry's label ("Repeat:"); nil: once.
    public var repeatPrompt: String?
    /// `SETREPEATERROR`: shown when the two entries differ.
    public var repeatError: String?
    /// `SETTIMEOUT`: seconds before a prompt gives up (0: never).
    public var timeout: Int = 0
    /// `OPTION name=value` (names lowercased, leading dashes dropped; a bare name has value "").
    public var options: [String: String] = [:]

    public init() {}

    /// The OK label: `SETOK`, else `OPTION default-ok`, else "OK"; mnemonic underscores removed.
    public var shownOKLabel: String { Self.withoutMnemonic(okLabel ?? options["default-ok"] ?? "OK") }
    /// The Cancel label: `SETCANCEL`, else `OPTION default-cancel`, else "Cancel".
    public var shownCancelLabel: String { Self.withoutMnemonic(cancelLabel ?? options["default-cancel"] ?? "Cancel") }
    /// The "not OK" label (`SETNOTOK`), nil when not set.
    public var shownNotOKLabel: String? { notOKLabel.map(Self.withoutMnemonic) }

    /// `label` with GTK's mnemonic marks removed: `_X` shows X, `__` shows one `_`.
    public static func withoutMnemonic(_ label: String) -> String {
        var out = "", pendingUnderscore = false
        for c in label {
            if c == "_" && !pendingUnderscore { pendingUnderscore = true; continue }
            pendingUnderscore = false
            out.append(c)
        }
        return out
    }
}

/// Which entry a GETPIN prompt asks for.
public enum PinentryEntry: Equatable, Sendable {
    /// The passphrase (labelled by `SETPROMPT`).
    case passphrase
    /// Its repetition after `SETREPEAT` (labelled by the repeat prompt).
    case repetition
}

/// How a prompt ended.
public enum PinentryOutcome: Equatable, Sendable {
    /// OK (GETPIN: the secret holds the entry).
    case ok
    /// The `SETNOTOK` button (CONFIRM only).
    case notOK
    /// Cancel, Escape, or the prompt closed.
    case cancelled
    /// `SETTIMEOUT` seconds passed without an answer.
    case timedOut
    /// The prompt could not be shown (no compositor, a connection lost).
    case failed
}

/// Shows the prompts an ``AssuanPinentry`` asks for and waits for the answer (a window, an
/// overlay, or a script in tests). Each call blocks until the prompt ends.
public protocol PinentryPrompter: AnyObject {
    /// Asks for a passphrase in a secure (bullets, never copied) entry, showing `settings` and
    /// `error` (`SETERROR`, or `SETREPEATERROR` after a mismatch; nil: none). On `.ok` the entry's
    /// text is in `secret` (``PinentrySecret/set(_:)``); nothing else may keep or log it.
    func getPin(_ settings: PinentrySettings, entry: PinentryEntry, error: String?, into secret: PinentrySecret) -> PinentryOutcome
    /// Asks a question (CONFIRM: OK, Cancel and with `SETNOTOK` a third button) or, with
    /// `oneButton`, shows a message with OK only (MESSAGE, `CONFIRM --one-button`).
    func confirm(_ settings: PinentrySettings, error: String?, oneButton: Bool) -> PinentryOutcome
}

extension PinentrySettings {
    /// The prompt a pinentry shows for GETPIN (`entry` non-nil: a password prompt, its field
    /// labelled by `SETPROMPT`, or by `SETREPEAT`'s label for the repetition), CONFIRM (a question
    /// with the `SETNOTOK` button when set) or MESSAGE and `CONFIRM --one-button` (`oneButton`: a
    /// notice, OK alone): the title (`SETTITLE`, else Passphrase, Confirm or Message), the
    /// description, `error` under it, the labels without mnemonics, and `SETTIMEOUT` seconds
    /// (0: none) that the first key typed into the field stops, as pinentry-gtk-2's and -curses'.
    public func askPrompt(entry: PinentryEntry? = nil, oneButton: Bool = false, error: String?) -> AskPrompt {
        var prompt = AskPrompt(kind: entry != nil ? .password : oneButton ? .info : .question)
        prompt.title = title ?? (entry != nil ? "Passphrase" : oneButton ? "Message" : "Confirm")
        prompt.text = description ?? ""
        prompt.errorText = error ?? ""
        prompt.okLabel = shownOKLabel
        prompt.cancelLabel = shownCancelLabel
        switch entry {
        case .passphrase?: prompt.fieldLabel = Self.withoutMnemonic(self.prompt ?? "Passphrase:")
        case .repetition?: prompt.fieldLabel = Self.withoutMnemonic(repeatPrompt ?? "Repeat:")
        case nil: if !oneButton { prompt.notOKLabel = shownNotOKLabel }
        }
        if timeout > 0 {
            prompt.timeout = Double(timeout)
            prompt.timeoutStopsAtInput = true
        }
        return prompt
    }
}
