/// Reads a command line against an ``OptionTable``, one argument at a time, for one subcommand's
/// parser: each option comes back as its table row with its value, anything else as an operand.
///
/// The rules are getopt_long's as GNU tools spell them: `--name VALUE` or `--name=VALUE` for an
/// option that takes a value, `--name` alone for a flag, an alias (`-h`) for its row, and `--`
/// ends the options where the command takes operands after it (``allowsEndOfOptions``).
/// Mistakes are one line each (``UsageError``):
/// - `unknown option 'ARG' (see --help)`, with ` for SUBCOMMAND` before the parenthesis when
///   the arguments are a named subcommand's (``commandName``);
/// - `option NAME needs a value` at the end of the arguments;
/// - `NAME takes no value` for `--flag=VALUE`.
public struct ArgumentScanner<Subcommand: Hashable & Sendable> {
    /// What ``next()`` read.
    public enum Argument {
        /// An option of the table for this subcommand, with its value (nil for a flag).
        case option(CommandOption<Subcommand>, value: String?)
        /// An argument that is not an option (`-` alone included).
        case operand(String)
        /// `--`, where ``allowsEndOfOptions``: the rest (``rest()``) are operands.
        case endOfOptions
    }

    public let table: OptionTable<Subcommand>
    /// The subcommand whose options are taken.
    public let command: Subcommand
    /// The subcommand's word in messages (`render`), nil for a command's default (no subcommand).
    public let commandName: String?
    /// Whether `--` ends the options; otherwise it is an unknown option.
    public var allowsEndOfOptions = false
    /// The mistake for an option this subcommand does not take (the argument as given, and its
    /// name without `=VALUE`); by default `unknown option 'ARG' [for SUBCOMMAND] (see --help)`.
    public var refuse: (_ argument: String, _ name: String) -> UsageError

    private var arguments: ArraySlice<String>

    public init(_ arguments: ArraySlice<String>, table: OptionTable<Subcommand>, command: Subcommand,
                commandName: String? = nil) {
        self.arguments = arguments
        self.table = table
        self.command = command
        self.commandName = commandName
        refuse = { argument, _ in
            UsageError("unknown option '\(argument)'" + (commandName.map { " for \($0)" } ?? "") + " (see --help)")
        }
    }

    /// The next argument, or nil after the last.
    /// - Throws: `UsageError` for an option this subcommand does not take, a value missing or given
    ///   to a flag.
    public mutating func next() throws -> Argument? {
        guard let raw = arguments.popFirst() else { return nil }
        if raw == "--", allowsEndOfOptions { return .endOfOptions }
        guard raw.hasPrefix("-"), raw != "-" else { return .operand(raw) }
        var flag = raw
        var inline: String?
        if raw.hasPrefix("--"), let eq = raw.firstIndex(of: "=") {
            flag = String(raw[..<eq])
            inline = String(raw[raw.index(after: eq)...])
        }
        guard let option = table.option(flag, in: command) else { throw refuse(raw, flag) }
        guard option.value != nil else {
            if inline != nil { throw UsageError("\(option.name) takes no value") }
            return .option(option, value: nil)
        }
        if let inline { return .option(option, value: inline) }
        guard let value = arguments.popFirst() else { throw UsageError("option \(flag) needs a value") }
        return .option(option, value: value)
    }

    /// The arguments not read yet (after an operand or `--` that starts them), consumed.
    public mutating func rest() -> [String] {
        defer { arguments = [] }
        return Array(arguments)
    }

    /// The mistake for an operand this subcommand does not take.
    public static func unexpected(_ operand: String) -> UsageError {
        UsageError("unexpected argument '\(operand)' (see --help)")
    }
}

/// A command's subcommands, each with its own parser over the command's option table: the first
/// argument names a subcommand (its ``Entry/word``), or the default entry (the one without a word)
/// reads all the arguments. A new subcommand is one more entry.
public struct SubcommandTable<Subcommand: Hashable & Sendable, Parsed> {
    /// A subcommand and its parser.
    public struct Entry {
        public let command: Subcommand
        /// The word that selects it as the first argument; nil for the default.
        public let word: String?
        /// Its parser: reads the arguments after the word with `scanner` and returns the result.
        public let parse: (inout ArgumentScanner<Subcommand>) throws -> Parsed

        public init(_ command: Subcommand, word: String?, parse: @escaping (inout ArgumentScanner<Subcommand>) throws -> Parsed) {
            self.command = command; self.word = word; self.parse = parse
        }
    }

    public let table: OptionTable<Subcommand>
    public let entries: [Entry]

    public init(table: OptionTable<Subcommand>, entries: [Entry]) {
        precondition(entries.filter { $0.word == nil }.count == 1, "one default entry")
        self.table = table
        self.entries = entries
    }

    /// Parses `arguments` (without the program name) with the parser of the subcommand the first
    /// one names, or the default's.
    /// - Throws: `UsageError` from the scanner or the subcommand's parser.
    public func parse(_ arguments: [String]) throws -> Parsed {
        if let first = arguments.first, let entry = entries.first(where: { $0.word == first }) {
            var scanner = ArgumentScanner(arguments.dropFirst(), table: table, command: entry.command, commandName: entry.word)
            return try entry.parse(&scanner)
        }
        let entry = entries.first { $0.word == nil }!
        var scanner = ArgumentScanner(arguments[...], table: table, command: entry.command)
        return try entry.parse(&scanner)
    }
}

extension ArgumentScanner {
    /// The next option and its value (empty for a flag), for a parser that takes no operands, or
    /// nil after the last argument.
    /// - Throws: `UsageError` as ``next()``, and `unexpected argument 'ARG' (see --help)` for an
    ///   operand.
    public mutating func nextOption() throws -> (option: CommandOption<Subcommand>, value: String)? {
        switch try next() {
        case nil: return nil
        case let .option(option, value)?: return (option, value ?? "")
        case let .operand(operand)?: throw Self.unexpected(operand)
        case .endOfOptions?: throw Self.unexpected("--")
        }
    }

    /// `text` as a finite number in `range`.
    /// - Throws: `UsageError` `NAME expects WHAT, got 'TEXT'`.
    public static func number(_ text: String, in range: ClosedRange<Double>, for option: CommandOption<Subcommand>,
                              expects what: String) throws -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError("\(option.name) expects \(what), got '\(text)'")
        }
        return value
    }

    /// `text` as a whole number in `range`.
    /// - Throws: `UsageError` `NAME expects WHAT, got 'TEXT'`.
    public static func whole(_ text: String, in range: ClosedRange<Int>, for option: CommandOption<Subcommand>,
                             expects what: String) throws -> Int {
        guard let value = Int(text), range.contains(value) else { throw UsageError("\(option.name) expects \(what), got '\(text)'") }
        return value
    }
}
