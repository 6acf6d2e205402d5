import Glibc

/// What a style library declares about itself: its name, one-line summary, the style ABI it was
/// built against and its options. A host reads it from the library's ELF note without loading
/// the library (`StyleNote`), or, from a library without a note, from the descriptor its entry
/// returns (docs/design.md, plugin metadata and trust).
public struct StyleDeclaration: Hashable, Sendable {
    /// The name `--style NAME` matches, e.g. `inset-centered`: non-empty, no whitespace, no `/`.
    public var name: String
    /// One line (tabs and newlines are replaced by spaces when read).
    public var summary: String
    /// The style ABI the plugin was built against.
    public var abiVersion: StyleABIVersion
    /// The options, in the style's order, with their defaults, units and accepted values.
    public var options: [StyleOption]

    /// A declaration; see the properties for each value.
    public init(name: String, summary: String, abiVersion: StyleABIVersion, options: [StyleOption]) {
        self.name = name; self.summary = summary; self.abiVersion = abiVersion; self.options = options
    }

    /// The declaration of a Swift style, as `exportStyle(_:)` exports it: its static `name`,
    /// `summary` and `options`, with the ABI of this ModalKit (`StyleABIVersion.current`).
    public init<S: LoadablePresentationStyle>(_ type: S.Type) {
        self.init(name: S.name, summary: S.summary, abiVersion: .current, options: S.options)
    }

    /// The same declaration as a host reads it back: summary, meanings, units, accepted text and
    /// choices on one line (tabs and newlines become spaces), as the loader cleans what it reads
    /// from a descriptor. Two declarations are compared in this form.
    public var normalized: StyleDeclaration {
        func clean(_ s: String) -> String { StyleDeclaration.oneLine(s) }
        return StyleDeclaration(name: name, summary: clean(summary), abiVersion: abiVersion, options: options.map { o in
            var o = o
            o.summary = clean(o.summary)
            o.unit = clean(o.unit)
            switch o.accepted {
            case let .text(t): o.accepted = .text(clean(t))
            case let .choice(words): o.accepted = .choice(words.map(clean))
            default: break
            }
            return o
        })
    }

    /// Why a declaration cannot be a style's (the rules of `modalkit_style.h` for the name, the
    /// keys and the accepted values); nil when it can.
    public var problem: StyleDeclarationProblem? {
        if name.isEmpty { return .emptyName }
        if name.contains(where: { $0.isWhitespace || $0 == "/" }) { return .malformedName(name) }
        if options.count > StyleDeclaration.maximumOptions { return .tooManyOptions(options.count) }
        var keys = Set<String>()
        for (i, o) in options.enumerated() {
            if o.key.isEmpty || o.key.contains(where: { $0.isWhitespace || $0 == "=" }) {
                return .malformedKey(index: i, key: o.key)
            }
            if !keys.insert(o.key).inserted { return .duplicateKey(o.key) }
            switch o.accepted {
            case let .number(range) where !range.lowerBound.isFinite || !range.upperBound.isFinite:
                return .badRange(key: o.key)
            case let .choice(words) where words.isEmpty || words.count > StyleDeclaration.maximumChoices:
                return .badChoices(key: o.key, count: words.count)
            default: break
            }
        }
        return nil
    }

    /// The most options a host reads (the descriptor's and the note's limit).
    public static let maximumOptions = 1024
    /// The most words a choice option may list.
    public static let maximumChoices = 256
}

/// Why a `StyleDeclaration` breaks the rules of `modalkit_style.h`.
public enum StyleDeclarationProblem: Hashable, Sendable, CustomStringConvertible {
    /// The name is empty.
    case emptyName
    /// The name contains whitespace or `/`.
    case malformedName(String)
    /// More than `StyleDeclaration.maximumOptions` options.
    case tooManyOptions(Int)
    /// The option at `index` has an empty key, or one with whitespace or `=`.
    case malformedKey(index: Int, key: String)
    /// Two options share this key.
    case duplicateKey(String)
    /// A number option whose range is not finite.
    case badRange(key: String)
    /// A choice option with no words or more than `StyleDeclaration.maximumChoices`.
    case badChoices(key: String, count: Int)

    public var description: String {
        switch self {
        case .emptyName: return "empty style name"
        case let .malformedName(name): return "style name '\(StyleDeclaration.oneLine(name))' contains whitespace or '/'"
        case let .tooManyOptions(n): return "\(n) options, at most \(StyleDeclaration.maximumOptions)"
        case let .malformedKey(i, key): return "option \(i) has an empty or malformed key '\(StyleDeclaration.oneLine(key))'"
        case let .duplicateKey(key): return "option '\(key)' declared twice"
        case let .badRange(key): return "option '\(key)': its range is not finite"
        case let .badChoices(key, n): return "option '\(key)': \(n) choices, it needs 1 to \(StyleDeclaration.maximumChoices)"
        }
    }
}

extension StyleDeclaration {
    /// Newlines and tabs (possible in `dlerror()` text or a plugin's message) become spaces: the one
    /// line a listing or an error shows.
    ///
    /// A text with neither is returned as it is without walking its characters (the loader cleans
    /// every field of every note it reads, at each start): a newline (`Character.isNewline`:
    /// U+000A–U+000D, U+0085, U+2028, U+2029) or a tab always has one of the UTF-8 lead bytes
    /// 0x09–0x0D, 0xC2 or 0xE2, and always begins a character of its own (a control or line
    /// separator ends the grapheme cluster before it, Unicode UAX #29 GB4/GB5).
    package static func oneLine(_ s: String) -> String {
        guard s.utf8.contains(where: { (0x09...0x0D).contains($0) || $0 == 0xC2 || $0 == 0xE2 }) else { return s }
        return String(s.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}
