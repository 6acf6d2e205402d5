import Glibc

/// `modal-demo ask KIND [OPTION]... [ROW]...`: the command line of a prompt (zenity's options).
public enum AskCommandLine {
    /// The options `ask` takes: name, value placeholder (nil for a flag), the kinds that take it
    /// (nil: every kind), help.
    public static let options: [(name: String, value: String?, kinds: Set<AskPrompt.Kind>?, help: String)] = [
        ("--title", "TEXT", nil, "the heading (default: the kind's, e.g. Question)"),
        ("--text", "TEXT", nil, "the body text"),
        ("--ok-label", "TEXT", nil, "the OK button's label"),
        ("--cancel-label", "TEXT", [.question, .entry, .password, .list], "the Cancel button's label"),
        ("--default-cancel", nil, [.question, .entry, .password, .list], "Return chooses Cancel"),
        ("--entry-text", "TEXT", [.entry, .password], "the entry's initial text"),
        ("--column", "TEXT", [.list], "the list's heading (its name for screen readers)"),
        ("--multiple", nil, [.list], "several rows may be chosen"),
        ("--separator", "TEXT", [.list], "what joins the chosen rows on stdout (default |)"),
        ("--timeout", "SECONDS", nil, "give up after SECONDS (exit 5)"),
        ("--style", "NAME|PATH", nil, "the presentation style (default alert; bottom-sheet for list)"),
        ("--style-option", "KEY=VALUE", nil, "an option of the style before it"),
    ]

    /// The most rows a list takes.
    public static let maximumRows = 10_000

    /// The longest `--timeout`, seconds (one day).
    public static let maximumTimeout = 86_400.0

    /// Parses the arguments after `ask`.
    /// - Throws: `UsageError` (exit 2) for a missing or unknown kind, an unknown option, an option
    ///   the kind does not take, a bad value, rows given to a kind other than list, more rows than
    ///   ``maximumRows``.
    public static func parse(_ arguments: [String]) throws -> AskPrompt {
        var args = arguments[...]
        let kinds = AskPrompt.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let first = args.popFirst() else { throw UsageError("ask needs a kind: \(kinds)") }
        guard let kind = AskPrompt.Kind(rawValue: first) else {
            throw UsageError("unknown kind '\(first)' for ask (expected \(kinds))")
        }
        var prompt = AskPrompt(kind: kind)
        var style: StyleSelection?
        var onlyRows = false
        while let raw = args.popFirst() {
            if onlyRows || !raw.hasPrefix("--") || raw == "-" {
                guard kind == .list else { throw UsageError("unexpected argument '\(raw)' (ask \(kind.rawValue) takes no rows)") }
                prompt.rows.append(raw)
                continue
            }
            if raw == "--" { onlyRows = true; continue }
            var name = raw, inline: String?
            if let eq = raw.firstIndex(of: "=") { name = String(raw[..<eq]); inline = String(raw[raw.index(after: eq)...]) }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '\(name)' for ask")
            }
            if let allowed = option.kinds, !allowed.contains(kind) {
                throw UsageError("\(name) is not an option of ask \(kind.rawValue)")
            }
            var value = ""
            if option.value != nil {
                if let inline { value = inline } else {
                    guard let v = args.popFirst() else { throw UsageError("option \(name) needs a value") }
                    value = v
                }
            } else if inline != nil {
                throw UsageError("\(name) takes no value")
            }
            switch name {
            case "--title": prompt.title = value
            case "--text": prompt.text = value
            case "--ok-label": prompt.okLabel = value
            case "--cancel-label": prompt.cancelLabel = value
            case "--default-cancel": prompt.defaultCancel = true
            case "--entry-text": prompt.entryText = value
            case "--column": prompt.column = value
            case "--multiple": prompt.multiple = true
            case "--separator": prompt.separator = value
            case "--timeout":
                guard let s = Double(value), s.isFinite, s > 0, s <= maximumTimeout else {
                    throw UsageError("--timeout expects seconds above 0 and at most 86400, got '\(value)'")
                }
                prompt.timeout = s
            case "--style":
                if style != nil { throw UsageError("ask takes one --style") }
                var s = StyleSelection()
                s.style = value
                style = s
            default:   // --style-option
                guard let eq = value.firstIndex(of: "="), eq != value.startIndex else {
                    throw UsageError("--style-option expects KEY=VALUE, got '\(value)'")
                }
                guard style != nil else {
                    throw UsageError("--style-option \(value) comes before any --style: an option belongs to the --style before it")
                }
                style!.options[String(value[..<eq])] = String(value[value.index(after: eq)...])
            }
        }
        prompt.style = style
        if prompt.rows.count > maximumRows {
            throw UsageError("too many rows for ask list (\(prompt.rows.count); at most \(maximumRows))")
        }
        return prompt
    }

    /// The rows of a list read from standard input (`bytes`): one per line (LF, a CR before it
    /// dropped), a last line without LF counted, empty lines kept except a final one.
    /// - Throws: `UsageError` for bytes that are not UTF-8 (naming the line), no rows at all, more
    ///   than ``maximumRows`` rows.
    public static func rows(fromStandardInput bytes: [UInt8]) throws -> [String] {
        var rows: [String] = []
        var start = 0
        var line = 1
        func add(_ end: Int) throws {
            var slice = bytes[start..<end]
            if slice.last == 0x0D { slice = slice.dropLast() }
            guard let text = String(validating: slice, as: UTF8.self), !slice.contains(0) else {
                throw UsageError("standard input is not UTF-8 text (line \(line))")
            }
            rows.append(text)
            if rows.count > maximumRows {
                throw UsageError("too many rows on standard input for ask list (more than \(maximumRows))")
            }
        }
        for i in bytes.indices where bytes[i] == 0x0A {
            try add(i)
            start = i + 1
            line += 1
        }
        if start < bytes.count { try add(bytes.count) }
        if rows.isEmpty { throw UsageError("ask list has no rows (give them as arguments or one per line on standard input)") }
        return rows
    }

    /// Reads standard input to its end (for ``rows(fromStandardInput:)``); stops past
    /// `limit` bytes (64 MiB) so that an endless stream is refused rather than held.
    /// - Throws: `UsageError` when standard input is closed or cannot be read, or is longer than `limit`.
    public static func readStandardInput(limit: Int = 64 << 20) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n == 0 { return bytes }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EBADF { throw UsageError("ask list has no rows and standard input is closed") }
                throw UsageError("could not read standard input: \(String(cString: strerror(errno)))")
            }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw UsageError("standard input is longer than \(limit >> 20) MiB") }
        }
    }
}
