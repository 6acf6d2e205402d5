import Glibc

import ModalKitCommandLine

/// `modal-demo ask KIND [OPTION]... [ROW]...`: the command line of a prompt (zenity's options),
/// read against `ask`'s rows of ``CommandTable`` by ``parse(_:)``.
public enum AskCommandLine {
    /// The kinds that take an option of `ask`'s rows; an option not named here is every kind's
    /// (zenity's: only a dialog with a Cancel button takes `--cancel-label`, only a list `--column`).
    public static let kinds: [String: Set<AskPrompt.Kind>] = [
        "--cancel-label": [.question, .entry, .password, .list],
        "--default-cancel": [.question, .entry, .password, .list],
        "--entry-text": [.entry, .password],
        "--column": [.list],
        "--multiple": [.list],
        "--separator": [.list],
    ]

    /// The most rows a list takes.
    public static let maximumRows = 10_000

    /// The longest `--timeout`, seconds (one day).
    public static let maximumTimeout = 86_400.0

    /// Parses the arguments after `ask` with `scanner` (over ``CommandTable``'s rows for `ask`):
    /// the first operand is the kind, the others (and every argument after `--`) a list's rows.
    /// - Returns: `.ask` with the prompt, or `.help(.ask)` for `--help`.
    /// - Throws: `UsageError` (exit 2) for a missing or unknown kind, an option `ask` does not take
    ///   or the kind does not take, a value missing or bad, rows given to a kind other than list,
    ///   more rows than ``maximumRows``.
    static func parse(_ scanner: inout ArgumentScanner<Subcommand>) throws -> Command {
        scanner.allowsEndOfOptions = true
        var given: [(option: CommandOption, value: String)] = []
        var operands: [String] = []
        while let argument = try scanner.next() {
            switch argument {
            case let .option(option, value):
                if option.name == "--help" { return .help(.ask) }
                given.append((option, value ?? ""))
            case let .operand(word): operands.append(word)
            case .endOfOptions: operands += scanner.rest()
            }
        }
        let names = AskPrompt.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let first = operands.first else { throw UsageError("ask needs a kind: \(names)") }
        guard let kind = AskPrompt.Kind(rawValue: first) else {
            throw UsageError("unknown kind '\(first)' for ask (expected \(names))")
        }
        var prompt = AskPrompt(kind: kind)
        prompt.rows = Array(operands.dropFirst())
        if kind != .list, let row = prompt.rows.first {
            throw UsageError("unexpected argument '\(row)' (ask \(kind.rawValue) takes no rows)")
        }
        var style: StyleSelection?
        for (option, value) in given {
            if let allowed = kinds[option.name], !allowed.contains(kind) {
                throw UsageError("\(option.name) is not an option of ask \(kind.rawValue)")
            }
            switch option.name {
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
            case "--style-option":
                let (key, optionValue) = try styleOption(value)
                guard style != nil else {
                    throw UsageError("--style-option \(value) comes before any --style: an option belongs to the --style before it")
                }
                style!.options[key] = optionValue
            default:
                preconditionFailure("\(option.name) is in CommandTable but not parsed")
            }
        }
        prompt.style = style
        if prompt.rows.count > maximumRows {
            throw UsageError("too many rows for ask list (\(prompt.rows.count); at most \(maximumRows))")
        }
        return .ask(prompt)
    }

    /// `KEY=VALUE` of a `--style-option`, split at its first `=`.
    /// - Throws: `UsageError` `--style-option expects KEY=VALUE, got 'TEXT'` without `=` or key.
    static func styleOption(_ value: String) throws -> (key: String, value: String) {
        guard let eq = value.firstIndex(of: "="), eq != value.startIndex else {
            throw UsageError("--style-option expects KEY=VALUE, got '\(value)'")
        }
        return (String(value[..<eq]), String(value[value.index(after: eq)...]))
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
