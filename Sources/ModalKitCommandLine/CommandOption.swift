// The command-line table the project's commands share: `modal-demo` (a parser per subcommand),
// `modal-bench` and `modalkit-session`. One table of options per command, one scanner that reads
// arguments against it (`--name VALUE`, `--name=VALUE`, aliases, the one-line mistakes), and the
// help text made from the same rows, so that a command's parser, `--help` and completions cannot
// disagree about what an option is called or whether it takes a value.

/// What a shell completes for an option's value.
public enum ValueCompletion: Equatable, Sendable {
    /// Nothing to offer (a number, a size).
    case none
    /// A style name (from `modal-demo --list-styles`), or a path.
    case style
    /// A file name (a path).
    case file
    /// A directory name.
    case directory
    /// A `KEY=` of the style the nearest `--style` before it names (its `--describe-style` option
    /// keys; nothing without such a `--style`).
    case styleOption
    /// One of these words.
    case words([String])
}

/// One row of a command-line table: an option, the subcommands that take it, its value and help.
///
/// `Subcommand` names a command's subcommands (or modes); a tool without subcommands uses a type
/// with one value. An option whose meaning differs between subcommands has a row for each, with
/// disjoint ``commands``.
public struct CommandOption<Subcommand: Hashable & Sendable>: Sendable {
    /// The long name, e.g. `--style`.
    public let name: String
    /// A short alias (`-h`), if any.
    public let alias: String?
    /// The value's placeholder in help (`NAME|PATH`), or nil for a flag that takes no value.
    public let value: String?
    /// What a shell completes for the value.
    public let completion: ValueCompletion
    /// The subcommands that take this option.
    public let commands: Set<Subcommand>
    /// Where help lists it: the heading of its section (``HelpSection/heading``).
    public let section: String
    /// Its help, one or more lines already wrapped (at most 75 columns in `modal-demo`'s help).
    public let help: [String]

    public init(_ name: String, alias: String? = nil, _ value: String? = nil, completion: ValueCompletion = .none,
                in commands: Set<Subcommand>, section: String = "Options:", _ help: String...) {
        self.name = name; self.alias = alias; self.value = value; self.completion = completion
        self.commands = commands; self.section = section; self.help = help
    }

    /// `--name VALUE` as help shows it.
    public var usage: String { value.map { "\(name) \($0)" } ?? name }
}

/// A command-line mistake: printed as one line on stderr (after the program's name), exit status
/// ``exitStatus``.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// The one line to print (without the program name).
    public let description: String
    public init(_ message: String) { description = message }

    /// The exit status of a command-line mistake: 2 (as getopt-based tools, `modal-demo`,
    /// `modal-bench` and `modalkit-session` all use).
    public static let exitStatus: Int32 = 2
}

/// A heading of a help text, an optional paragraph under it, then the options whose
/// ``CommandOption/section`` it is.
public struct HelpSection: Sendable {
    public let heading: String
    public let paragraph: String?
    public init(_ heading: String, _ paragraph: String? = nil) { self.heading = heading; self.paragraph = paragraph }
}

/// A command's options, in help's order within each section.
public struct OptionTable<Subcommand: Hashable & Sendable>: Sendable {
    public let options: [CommandOption<Subcommand>]

    public init(_ options: [CommandOption<Subcommand>]) { self.options = options }

    /// The row for `flag` (a long name or an alias) that `command` takes, if any.
    public func option(_ flag: String, in command: Subcommand) -> CommandOption<Subcommand>? {
        options.first { ($0.name == flag || $0.alias == flag) && $0.commands.contains(command) }
    }

    /// Whether some subcommand takes `flag` (a long name or an alias).
    public func names(_ flag: String) -> Bool { options.contains { $0.name == flag || $0.alias == flag } }

    /// The long option names `command` takes, in table order, without repeats.
    public func optionNames(for command: Subcommand) -> [String] {
        var seen = Set<String>()
        return options.filter { $0.commands.contains(command) && seen.insert($0.name).inserted }.map(\.name)
    }

    /// The lines of `sections`: each heading, its paragraph, then its options, each as
    /// `  --name VALUE, -a` with its help starting at `column` (a name too long for that gets its
    /// help two spaces after it when that overruns the column by at most 2, else on the next line).
    /// Sections are separated by an empty line.
    public func helpLines(_ sections: [HelpSection], column: Int) -> [String] {
        var lines: [String] = []
        for (i, section) in sections.enumerated() {
            if i > 0 { lines.append("") }
            lines.append(section.heading)
            if let paragraph = section.paragraph { lines.append(paragraph) }
            for option in options where option.section == section.heading {
                lines += Self.lines(of: option, column: column)
            }
        }
        return lines
    }

    /// The lines of every option `command` takes, in table order, laid out as in
    /// ``helpLines(_:column:)``: one subcommand's options, wherever the whole help lists them.
    public func helpLines(for command: Subcommand, column: Int) -> [String] {
        options.filter { $0.commands.contains(command) }.flatMap { Self.lines(of: $0, column: column) }
    }

    private static func lines(of option: CommandOption<Subcommand>, column: Int) -> [String] {
        var lines: [String] = []
        let name = "  " + option.usage + (option.alias.map { ", \($0)" } ?? "")
        let indent = String(repeating: " ", count: column)
        if name.count <= column - 2 {
            lines.append(name + String(repeating: " ", count: column - name.count) + option.help[0])
        } else if name.count + 2 <= column + 4 {
            lines.append(name + "  " + option.help[0])
        } else {
            lines.append(name)
            lines.append(indent + option.help[0])
        }
        for more in option.help.dropFirst() { lines.append(indent + more) }
        return lines
    }
}
