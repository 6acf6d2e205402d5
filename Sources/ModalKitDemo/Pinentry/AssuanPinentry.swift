import Glibc

/// The pinentry side of the Assuan protocol gpg-agent speaks to its `pinentry-program` on the
/// program's standard input and output (libassuan's line protocol; the commands of GnuPG's
/// pinentry 1.2): a state machine over lines that keeps the `SET…`/`OPTION` settings, asks a
/// ``PinentryPrompter`` for GETPIN, CONFIRM and MESSAGE, and writes the responses.
///
/// Lines: at most ``maximumLineLength`` bytes before the LF (a trailing CR is dropped); empty lines
/// and `#` comment lines are ignored without a response; the command name is case-insensitive and
/// its argument percent-decoded (`%XX`; anything else kept as it is). Responses, as pinentry's:
/// `OK` (the greeting `OK Pleased to meet you`, `OK closing connection` after `BYE`),
/// `D DATA` (`%`, CR and LF percent-escaped, each line at most 1000 bytes),
/// `S PIN_REPEATED` after a repeated passphrase, and `ERR CODE DESCRIPTION <SOURCE>` with a
/// libgpg-error code, e.g. `ERR 83886179 Operation cancelled <Pinentry>` (after a timeout or a
/// prompt that could not be shown, preceded by `S ERROR FLAVOR.? CODE `, as pinentry does).
///
/// The passphrase is held in one ``PinentrySecret`` and the `D` line built in one locked scratch
/// block; both are wiped as soon as the line is written, and neither is logged.
public final class AssuanPinentry {
    /// The longest line accepted, bytes before the LF (libassuan's `ASSUAN_LINELENGTH`, 1002,
    /// counts the LF and the NUL).
    public static let maximumLineLength = 1001
    /// The longest `D` line written, bytes before the LF (libassuan's `assuan_send_data` lines).
    public static let maximumDataLineLength = 1000

    /// An error response: a libgpg-error code (source << 24 | code) and its text as libgpg-error
    /// names them (`gpg-error 83886179`).
    public struct Failure: Equatable, Sendable {
        public var code: UInt32, description: String, source: String
        /// The response line without its LF.
        public var line: String { "ERR \(code) \(description) <\(source)>" }

        public static let cancelled = Failure(code: 83886179, description: "Operation cancelled", source: "Pinentry")
        public static let notConfirmed = Failure(code: 83886194, description: "Not confirmed", source: "Pinentry")
        /// `GPG_ERR_TIMEOUT` (62), as pinentry-gtk-2, -qt and -curses answer a prompt timed out.
        public static let timeout = Failure(code: 83886142, description: "Timeout", source: "Pinentry")
        /// `GPG_ERR_NO_PIN_ENTRY` (85): the prompt could not be shown (gpg reports "No pinentry").
        public static let noPinentry = Failure(code: 83886165, description: "No pinentry", source: "Pinentry")
        public static let unknownOption = Failure(code: 83886254, description: "Unknown option", source: "Pinentry")
        public static let parameter = Failure(code: 83886360, description: "IPC parameter error", source: "Pinentry")
        public static let unknownCommand = Failure(code: 536871187, description: "Unknown IPC command", source: "User defined source 1")
        public static let notImplemented = Failure(code: 536870981, description: "Not implemented", source: "User defined source 1")
    }

    /// What a line asked for next.
    public enum Step: Equatable, Sendable {
        /// Go on reading.
        case more
        /// `BYE` was answered: the conversation is over (exit 0).
        case bye
        /// A response could not be written (the peer has gone).
        case writeFailed
    }

    /// The options pinentry 1.2 knows (`OPTION` of another name is `Unknown option`).
    public static let knownOptions: Set<String> = [
        "no-grab", "grab", "debug-wait", "display", "ttyname", "ttytype", "ttyalert", "lc-ctype",
        "lc-messages", "owner", "parent-wid", "touch-file", "default-ok", "default-cancel",
        "default-prompt", "default-pwmngr", "default-cf-visi", "default-tt-visi", "default-tt-hide",
        "default-capshint", "allow-external-password-cache", "allow-emacs-prompt", "invisible-char",
        "formatted-passphrase", "formatted-passphrase-hint", "constraints-enforce",
        "constraints-hint-short", "constraints-hint-long", "constraints-error-title",
    ]

    /// The commands `HELP` lists (pinentry's table, in its order).
    static let commandNames = [
        "NOP", "CANCEL", "OPTION", "BYE", "AUTH", "RESET", "END", "HELP", "SETDESC", "SETPROMPT",
        "SETKEYINFO", "SETREPEAT", "SETREPEATERROR", "SETERROR", "SETOK", "SETNOTOK", "SETCANCEL",
        "GETPIN", "CONFIRM", "MESSAGE", "SETQUALITYBAR", "SETQUALITYBAR_TT", "SETGENPIN",
        "SETGENPIN_TT", "GETINFO", "SETTITLE", "SETTIMEOUT", "CLEARPASSPHRASE",
    ]

    /// The settings so far (`RESET` clears them).
    public private(set) var settings = PinentrySettings()
    /// `GETINFO flavor`, `GETINFO version`, `GETINFO pid`.
    public let flavor: String, version: String, processID: Int32
    private let prompter: PinentryPrompter
    private let write: (UnsafeRawBufferPointer) -> Bool
    /// The passphrase, and its repetition after `SETREPEAT`.
    let secret = PinentrySecret(), repetition = PinentrySecret()
    /// Where a `D` line is built (wiped after each).
    private let dataLine: UnsafeMutableRawBufferPointer

    /// - Parameters:
    ///   - prompter: shows GETPIN, CONFIRM and MESSAGE.
    ///   - flavor, version, processID: the `GETINFO` answers.
    ///   - write: writes one whole response (bytes, with its LF); false when it could not.
    public init(prompter: PinentryPrompter, flavor: String = "modalkit", version: String = modalDemoVersion,
                processID: Int32 = getpid(), write: @escaping (UnsafeRawBufferPointer) -> Bool) {
        self.prompter = prompter
        self.flavor = flavor
        self.version = version
        self.processID = processID
        self.write = write
        dataLine = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.maximumDataLineLength + 1, alignment: 16)
        explicit_bzero(dataLine.baseAddress!, dataLine.count)
        _ = mlock(dataLine.baseAddress, dataLine.count)
    }

    deinit {
        explicit_bzero(dataLine.baseAddress!, dataLine.count)
        _ = munlock(dataLine.baseAddress, dataLine.count)
        dataLine.deallocate()
    }

    /// Writes the greeting, `OK Pleased to meet you`.
    public func greet() -> Bool { respond("OK Pleased to meet you") }

    /// Answers one line (without its LF; at most ``maximumLineLength`` bytes, checked by the reader).
    public func handle(line: some Collection<UInt8>) -> Step {
        var bytes = Array(line)
        if bytes.last == 0x0D { bytes.removeLast() }
        guard let first = bytes.first, first != 0x23 else { return .more }   // empty, or a # comment
        let space = bytes.firstIndex(of: 0x20) ?? bytes.endIndex
        let name = String(decoding: bytes[..<space], as: UTF8.self).uppercased()
        var argumentStart = space
        while argumentStart < bytes.endIndex, bytes[argumentStart] == 0x20 { argumentStart += 1 }
        let raw = bytes[argumentStart...]
        let argument = Self.percentDecoded(raw)
        let result: Failure?
        switch name {
        case "BYE":
            return respond("OK closing connection") ? .bye : .writeFailed
        case "NOP", "SETKEYINFO", "SETQUALITYBAR", "SETQUALITYBAR_TT", "SETGENPIN", "SETGENPIN_TT", "CLEARPASSPHRASE":
            result = nil
        case "SETTITLE": settings.title = argument; result = nil
        case "SETDESC": settings.description = argument; result = nil
        case "SETPROMPT": settings.prompt = argument; result = nil
        case "SETOK": settings.okLabel = argument; result = nil
        case "SETCANCEL": settings.cancelLabel = argument; result = nil
        case "SETNOTOK": settings.notOKLabel = argument; result = nil
        case "SETERROR": settings.error = argument; result = nil
        case "SETREPEAT": settings.repeatPrompt = argument; result = nil
        case "SETREPEATERROR": settings.repeatError = argument; result = nil
        case "SETTIMEOUT": settings.timeout = max(0, Int(argument.trimmingSpaces) ?? 0); result = nil
        case "RESET": settings = PinentrySettings(); result = nil
        case "OPTION": result = option(argument)
        case "HELP":
            for command in Self.commandNames where !respond("# " + command) { return .writeFailed }
            result = nil
        case "GETINFO": return getInfo(argument.trimmingSpaces)
        case "GETPIN": return getPin()
        case "CONFIRM": return confirm(oneButton: argument.split(separator: " ").contains("--one-button"))
        case "MESSAGE": return confirm(oneButton: true)
        case "CANCEL", "END", "AUTH": result = .notImplemented
        default: result = .unknownCommand
        }
        return respond(result.map(\.line) ?? "OK") ? .more : .writeFailed
    }

    /// `OPTION name=value`, `OPTION name value` or `OPTION name` (libassuan's split; leading
    /// dashes dropped).
    private func option(_ argument: String) -> Failure? {
        var text = Substring(argument)
        while text.first == "-" { text = text.dropFirst() }
        let cut = text.firstIndex(where: { $0 == "=" || $0 == " " }) ?? text.endIndex
        let name = text[..<cut].lowercased()
        var value = cut < text.endIndex ? text[text.index(after: cut)...] : ""
        while value.first == " " || value.first == "=" { value = value.dropFirst() }
        guard Self.knownOptions.contains(name) else { return .unknownOption }
        settings.options[name] = String(value)
        return nil
    }

    private func getInfo(_ what: String) -> Step {
        let answer: String
        switch what {
        case "flavor": answer = flavor
        case "version": answer = version
        case "pid": answer = String(processID)
        case "ttyinfo":
            let o = settings.options
            answer = [o["ttyname"], o["ttytype"], o["display"], o["ttyalert"]].map { $0 ?? "-" }.joined(separator: " ") + " 0/0 -"
        default:
            return respond(Failure.parameter.line) ? .more : .writeFailed
        }
        let data = Array(answer.utf8)
        return data.withUnsafeBytes { sendData($0) } && respond("OK") ? .more : .writeFailed
    }

    /// GETPIN: asks (twice after `SETREPEAT`, again after a mismatch), sends the passphrase and
    /// wipes it. `SETERROR` is shown once.
    private func getPin() -> Step {
        var error = settings.error
        settings.error = nil
        defer { secret.wipe(); repetition.wipe() }
        while true {
            let outcome = prompter.getPin(settings, entry: .passphrase, error: error, into: secret)
            guard outcome == .ok else { return fail(outcome) }
            guard settings.repeatPrompt != nil else { break }
            let again = prompter.getPin(settings, entry: .repetition, error: nil, into: repetition)
            guard again == .ok else { return fail(again) }
            let same = secret.matches(repetition)
            repetition.wipe()
            if same {
                guard respond("S PIN_REPEATED") else { return .writeFailed }
                break
            }
            secret.wipe()
            error = settings.repeatError ?? "The passphrases do not match."
        }
        let sent = secret.count == 0 || secret.withBytes { sendData($0) }
        secret.wipe()
        return sent && respond("OK") ? .more : .writeFailed
    }

    private func confirm(oneButton: Bool) -> Step {
        let error = settings.error
        settings.error = nil
        let outcome = prompter.confirm(settings, error: error, oneButton: oneButton)
        // A message closed without its OK is still OK (pinentry's cmd_confirm for one button).
        if outcome == .ok || oneButton && outcome == .cancelled { return respond("OK") ? .more : .writeFailed }
        return fail(outcome)
    }

    private func fail(_ outcome: PinentryOutcome) -> Step {
        let failure: Failure = switch outcome {
        case .notOK: .notConfirmed
        case .timedOut: .timeout
        case .failed: .noPinentry
        case .ok, .cancelled: .cancelled
        }
        // A timeout or a prompt that could not be shown is pinentry's "specific error": first the
        // status line `S ERROR FLAVOR.LOCATION CODE INFO` (pinentry's write_status_error; pinentry-
        // curses 1.2.1 answers a timed-out GETPIN, CONFIRM or MESSAGE `S ERROR curses.? 83886142 `).
        if outcome == .timedOut || outcome == .failed, !respond("S ERROR \(flavor).? \(failure.code) ") { return .writeFailed }
        return respond(failure.line) ? .more : .writeFailed
    }

    /// Writes `bytes` as `D` lines (escaped; an escape never split across lines), each built in
    /// the scratch block and wiped once written.
    private func sendData(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let hex = Array("0123456789ABCDEF".utf8)
        var length = 0
        func begin() { dataLine[0] = 0x44; dataLine[1] = 0x20; length = 2 }
        func flush() -> Bool {
            dataLine[length] = 0x0A
            let ok = write(UnsafeRawBufferPointer(rebasing: dataLine[0...length]))
            explicit_bzero(dataLine.baseAddress!, dataLine.count)
            return ok
        }
        begin()
        for byte in bytes {
            let escaped = byte == 0x25 || byte == 0x0D || byte == 0x0A
            if length + (escaped ? 3 : 1) > Self.maximumDataLineLength {
                guard flush() else { return false }
                begin()
            }
            if escaped {
                dataLine[length] = 0x25; dataLine[length + 1] = hex[Int(byte >> 4)]; dataLine[length + 2] = hex[Int(byte & 15)]
                length += 3
            } else {
                dataLine[length] = byte
                length += 1
            }
        }
        return flush()
    }

    private func respond(_ line: String) -> Bool {
        var bytes = Array((line + "\n").utf8)
        return bytes.withUnsafeMutableBytes { write(UnsafeRawBufferPointer($0)) }
    }

    /// `%XX` (two hex digits) decoded to its byte; any other `%` kept; invalid UTF-8 replaced (U+FFFD).
    public static func percentDecoded(_ bytes: some Collection<UInt8>) -> String {
        let b = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x41...0x46: c - 0x41 + 10
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        var i = 0
        while i < b.count {
            if b[i] == 0x25, i + 2 < b.count, let h = hexValue(b[i + 1]), let l = hexValue(b[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
