/// Why a style library could not be loaded, or a style not created from it. Each
/// `description` is one line for stderr naming the library path and the cause, with the dynamic
/// loader's own `dlerror()` message where there is one (docs/design.md, rules from the field, 5).
/// Finding a style by name has its own errors (`StyleLookupError`).
///
/// The cases follow the loader's order of checks (`StyleLoader`): the file exists and is a
/// regular file, may be trusted, is a complete ELF shared object for this machine, carries a
/// readable note of a compatible ABI — all without loading it — then `dlopen` accepts it, the
/// entry and version symbols exist, the versions are compatible, and only then the entry runs and
/// its descriptor is checked (and compared with the note).
public enum StyleLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No file at `path` (`--style PATH` with a path that does not exist).
    case notFound(path: String)
    /// The file is not an ELF shared object for this machine, or not a complete one (a text
    /// file named `.so`, an executable, a file cut short): refused before `dlopen`, which maps
    /// segments past the end of a short file and crashes on first touch (SIGBUS).
    case malformedELF(path: String, problem: ELFProblem)
    /// The file, or a directory above it, could have been written by someone other than root
    /// or the user running the host (`StyleTrust`): refused before anything is read from it.
    case refused(path: String, violation: StyleTrustViolation)
    /// The library's `DT_RUNPATH` or `DT_RPATH` has an entry relative to its own directory
    /// (`entry`, e.g. `$ORIGIN`) and it needs libraries not loaded yet, which the dynamic loader
    /// would look for there; the directory that entry names (`violation.path`, or one above it)
    /// fails the trust rule. A library named by path in such a directory loads only without
    /// such an entry.
    case originRefused(path: String, entry: String, violation: StyleTrustViolation)
    /// The open file changed (its device, inode, size or modification time) between the checks
    /// and `dlopen`, or while it was copied: nothing of it was loaded.
    case changedSinceChecked(path: String)
    /// The library's style note (`StyleNote`) cannot be read.
    case badNote(path: String, problem: StyleNoteProblem)
    /// The descriptor the library's entry returned does not say what its note says: the note was
    /// not made from this code (a stale or copied note), so the listing would lie.
    case noteMismatch(path: String, mismatch: StyleNoteMismatch)
    /// The path is not a regular file but `kind` ("a directory", "a FIFO", "a socket", "a
    /// device"): it is refused before `dlopen`, which would block forever on a FIFO.
    case notAFile(path: String, kind: String)
    /// `dlopen(RTLD_NOW)` failed because a symbol the library needs is not defined anywhere
    /// (`message` names it). With lazy binding this would have been a crash at first call.
    case unresolvedSymbol(path: String, message: String)
    /// `dlopen` refused an ELF file built for another machine: its header (`library`) and this
    /// process's (`host`) differ in `e_machine`, class or byte order; each is described like
    /// "AArch64 (ELF64, little-endian)". (`dlerror()` may say "No such file or directory" here.)
    case wrongMachine(path: String, library: String, host: String)
    /// `dlopen` failed for another reason, e.g. a library it needs is missing; `message` is
    /// `dlerror()`'s.
    case loadFailed(path: String, message: String)
    /// The library does not export `symbol` (`modalkit_style_entry` or
    /// `modalkit_style_abi_version`) itself: it is not a ModalKit style. `message` is `dlerror()`'s,
    /// or names the dependency that defines the symbol (a library linking a style is not one).
    case missingEntry(path: String, symbol: String, message: String)
    /// The plugin was built for another major version of the style ABI.
    case abiMismatch(path: String, plugin: StyleABIVersion, host: StyleABIVersion)
    /// The plugin was built for a newer minor version than this host knows.
    case newerMinor(path: String, plugin: StyleABIVersion, host: StyleABIVersion)
    /// The plugin's descriptor is smaller (`size`, bytes) than its ABI version requires.
    case badStructSize(path: String, size: Int, minimum: Int, version: StyleABIVersion)
    /// The entry returned no descriptor or one that breaks the header's rules.
    case badDescriptor(path: String, problem: StyleDescriptorProblem)
    /// `--style-option KEY=…` with a key the style does not declare; `known` lists its options
    /// (the message names each with its meaning, after the nearest key when one is near enough to
    /// be a typing mistake: ``StyleOption/closestKey(to:among:)``).
    case unknownOption(path: String, style: String, key: String, known: [StyleOption])
    /// The style's `create` refused the options; `message` is its one line (usually a
    /// `StyleOptionError.badValue`); `known` lists the style's options.
    case optionsRejected(path: String, style: String, message: String, known: [StyleOption])

    /// The library path the error is about.
    public var path: String {
        switch self {
        case let .notFound(path), let .malformedELF(path, _), let .notAFile(path, _), let .refused(path, _),
             let .originRefused(path, _, _), let .changedSinceChecked(path),
             let .badNote(path, _), let .noteMismatch(path, _), let .unresolvedSymbol(path, _),
             let .wrongMachine(path, _, _), let .loadFailed(path, _), let .missingEntry(path, _, _),
             let .abiMismatch(path, _, _), let .newerMinor(path, _, _), let .badStructSize(path, _, _, _),
             let .badDescriptor(path, _), let .unknownOption(path, _, _, _), let .optionsRejected(path, _, _, _):
            return path
        }
    }

    /// The cause alone, without the path (the third field of a `# failed` listing line).
    public var reason: String {
        switch self {
        case .notFound:
            return "no such file"
        case let .malformedELF(_, problem):
            if problem.isNotELF { return "not a shared library (\(problem))" }
            if case .notSharedObject = problem { return "not a shared library: \(problem)" }
            return "not a complete shared library: \(problem)"
        case let .notAFile(_, kind):
            return "not a shared library: it is \(kind)"
        case let .refused(_, violation):
            return "refused: \(violation)"
        case let .originRefused(_, entry, violation):
            return "refused: it loads libraries it needs from '\(entry)' (its RUNPATH/RPATH), and \(violation)"
        case .changedSinceChecked:
            return "changed since it was checked (not loaded; try again once it is written)"
        case let .badNote(_, problem):
            return "unreadable \(StyleNote.section) note: \(problem)"
        case let .noteMismatch(_, mismatch):
            return "its \(StyleNote.section) note does not match what the library says when loaded: \(mismatch)"
        case let .unresolvedSymbol(_, message):
            return "unresolved symbol, refused by dlopen(RTLD_NOW) (\(message))"
        case let .wrongMachine(_, library, host):
            return "not a shared library for this machine: built for \(library), this machine is \(host)"
        case let .loadFailed(_, message):
            return "cannot be loaded (dlopen: \(message))"
        case let .missingEntry(_, symbol, message):
            return "not a ModalKit style: no symbol '\(symbol)' (dlsym: \(message))"
        case let .abiMismatch(_, plugin, host):
            return "built for style ABI \(plugin), this host speaks ABI \(host) (major versions differ)"
        case let .newerMinor(_, plugin, host):
            return "built for style ABI \(plugin), newer than this host's ABI \(host)"
        case let .badStructSize(_, size, minimum, version):
            return "style descriptor is \(size) bytes, ABI \(version) needs at least \(minimum)"
        case let .badDescriptor(_, problem):
            return "invalid style descriptor: \(problem)"
        case let .unknownOption(_, style, key, known):
            let guess = StyleOption.closestKey(to: key, among: known.map(\.key)).map { "; did you mean '\($0)'?" } ?? ""
            return "style '\(style)' has no option '\(key)'\(guess) (options: \(StyleLoadError.list(options: known)))"
        case let .optionsRejected(_, style, message, known):
            // A message about one declared option names it in quotes: that option's meaning is
            // what helps; otherwise every option with its meaning.
            let named = known.filter { message.containsText("'\($0.key)'") }
            if named.count == 1 { return "style '\(style)': \(message) (\(StyleLoadError.list(options: named)))" }
            return "style '\(style)': \(message) (options: \(StyleLoadError.list(options: known)))"
        }
    }

    /// One line: `PATH: REASON`.
    public var description: String { StyleLoadError.oneLine("\(path): \(reason)") }

    /// The same error about another path to the same file (the loader caches per real path).
    func withPath(_ newPath: String) -> StyleLoadError {
        switch self {
        case .notFound: return .notFound(path: newPath)
        case let .malformedELF(_, p): return .malformedELF(path: newPath, problem: p)
        case let .notAFile(_, k): return .notAFile(path: newPath, kind: k)
        case let .refused(_, v): return .refused(path: newPath, violation: v)
        case let .originRefused(_, e, v): return .originRefused(path: newPath, entry: e, violation: v)
        case .changedSinceChecked: return .changedSinceChecked(path: newPath)
        case let .badNote(_, p): return .badNote(path: newPath, problem: p)
        case let .noteMismatch(_, m): return .noteMismatch(path: newPath, mismatch: m)
        case let .unresolvedSymbol(_, m): return .unresolvedSymbol(path: newPath, message: m)
        case let .wrongMachine(_, l, h): return .wrongMachine(path: newPath, library: l, host: h)
        case let .loadFailed(_, m): return .loadFailed(path: newPath, message: m)
        case let .missingEntry(_, s, m): return .missingEntry(path: newPath, symbol: s, message: m)
        case let .abiMismatch(_, p, h): return .abiMismatch(path: newPath, plugin: p, host: h)
        case let .newerMinor(_, p, h): return .newerMinor(path: newPath, plugin: p, host: h)
        case let .badStructSize(_, s, m, v): return .badStructSize(path: newPath, size: s, minimum: m, version: v)
        case let .badDescriptor(_, p): return .badDescriptor(path: newPath, problem: p)
        case let .unknownOption(_, s, k, known): return .unknownOption(path: newPath, style: s, key: k, known: known)
        case let .optionsRejected(_, s, m, known):
            return .optionsRejected(path: newPath, style: s, message: m, known: known)
        }
    }

    static func list(_ items: [String]) -> String { items.isEmpty ? "none" : items.joined(separator: ", ") }

    /// Options with their meanings: "margin-x (left and right inset of the card, points), …";
    /// a key declared without a meaning stands alone.
    static func list(options: [StyleOption]) -> String {
        list(options.map { $0.meaning.isEmpty ? $0.key : "\($0.key) (\($0.meaning))" })
    }

    /// Newlines and tabs (possible in `dlerror()` text or a plugin's message) become spaces.
    ///
    /// A text with neither is returned as it is without walking its characters (the loader cleans
    /// every field of every note it reads, at each start): a newline (`Character.isNewline`:
    /// U+000A–U+000D, U+0085, U+2028, U+2029) or a tab always has one of the UTF-8 lead bytes
    /// 0x09–0x0D, 0xC2 or 0xE2, and always begins a character of its own (a control or line
    /// separator ends the grapheme cluster before it, Unicode UAX #29 GB4/GB5).
    static func oneLine(_ s: String) -> String {
        guard s.utf8.contains(where: { (0x09...0x0D).contains($0) || $0 == 0xC2 || $0 == 0xE2 }) else { return s }
        return String(s.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}

/// Where a library's note and its loaded descriptor disagree (`StyleLoadError.noteMismatch`).
public enum StyleNoteMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The style names differ.
    case name(note: String, library: String)
    /// The summaries differ.
    case summary(note: String, library: String)
    /// The style ABI versions differ (the note's and the version symbol's or descriptor's).
    case abiVersion(note: StyleABIVersion, library: StyleABIVersion)
    /// The note declares `note` options, the descriptor `library`.
    case optionCount(note: Int, library: Int)
    /// Option `index` (key `key` in the note) differs in `field` (key, meaning, default, unit,
    /// accepted values).
    case option(index: Int, key: String, field: String, note: String, library: String)

    public var description: String {
        switch self {
        case let .name(note, library): return "name '\(note)' in the note, '\(library)' in the library"
        case let .summary(note, library): return "summary '\(note)' in the note, '\(library)' in the library"
        case let .abiVersion(note, library): return "style ABI \(note) in the note, \(library) in the library"
        case let .optionCount(note, library): return "\(note) options in the note, \(library) in the library"
        case let .option(_, key, field, note, library):
            return "option '\(key)' has \(field) '\(note)' in the note, '\(library)' in the library"
        }
    }

    /// The first difference between what a note declares and what the loaded library does;
    /// nil when they agree (compared as the host reads both: `StyleDeclaration.normalized`).
    static func first(note: StyleDeclaration, library: StyleDeclaration) -> StyleNoteMismatch? {
        let note = note.normalized, library = library.normalized
        if note.name != library.name { return .name(note: note.name, library: library.name) }
        if note.abiVersion != library.abiVersion { return .abiVersion(note: note.abiVersion, library: library.abiVersion) }
        if note.summary != library.summary { return .summary(note: note.summary, library: library.summary) }
        if note.options.count != library.options.count {
            return .optionCount(note: note.options.count, library: library.options.count)
        }
        for (i, (n, l)) in zip(note.options, library.options).enumerated() where n != l {
            func field(_ name: String, _ a: String, _ b: String) -> StyleNoteMismatch {
                .option(index: i, key: n.key, field: name, note: a, library: b)
            }
            if n.key != l.key { return field("key", n.key, l.key) }
            if n.summary != l.summary { return field("meaning", n.summary, l.summary) }
            if n.defaultValue != l.defaultValue { return field("default", n.defaultValue, l.defaultValue) }
            if n.unit != l.unit { return field("unit", n.unit, l.unit) }
            return field("accepted values", describe(n.accepted), describe(l.accepted))
        }
        return nil
    }

    private static func describe(_ accepted: StyleOption.Accepted) -> String {
        switch accepted {
        case let .text(t): return "text \(t)"
        case let .number(r): return "number \(r.lowerBound)...\(r.upperBound)"
        case let .choice(words): return "choice of \(words.joined(separator: ", "))"
        case .color: return "colour"
        case .curve: return "timing curve"
        }
    }
}

/// Why no style library could be chosen for a name (`StyleLoader.find(_:)`). Descriptions are one
/// line, without advice about any command line (the demo adds its own).
public enum StyleLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An empty name. `available` lists the names found on `searchPath`; `failed` and `refused`
    /// count the libraries there that could not be read or are not trusted.
    case emptyName(available: [String], searchPath: [String], failed: Int, refused: Int)
    /// No trusted library on `searchPath` declares the name; `available` lists the names found;
    /// `failed` counts the libraries that could not be read (one of them may be the style),
    /// `refused` those not trusted (`StyleTrust`) whose name is not known; `misnamed` lists shared
    /// libraries whose file name resembles the name but does not start with `libModalKitStyle`,
    /// so the lookup never looks at them.
    case unknownName(String, available: [String], searchPath: [String], failed: Int, refused: Int, misnamed: [String])
    /// Only refused libraries declare the name: the first is `path`, refused for `violation`.
    case refused(name: String, path: String, violation: StyleTrustViolation)

    /// The name looked for.
    public var name: String {
        switch self {
        case .emptyName: return ""
        case let .unknownName(name, _, _, _, _, _), let .refused(name, _, _): return name
        }
    }

    public var description: String {
        func list(_ items: [String]) -> String { items.isEmpty ? "none" : items.joined(separator: ", ") }
        func searched(_ dirs: [String], failed: Int, refused: Int) -> String {
            var line = "; searched " + (dirs.isEmpty ? "nothing (empty style path)" : dirs.joined(separator: ":"))
            if failed > 0 { line += "; \(failed) \(failed == 1 ? "library" : "libraries") there failed to load" }
            if refused > 0 { line += "; \(refused) \(refused == 1 ? "library" : "libraries") there \(refused == 1 ? "was" : "were") refused as untrusted" }
            return line
        }
        switch self {
        case let .emptyName(available, dirs, failed, refused):
            return StyleLoadError.oneLine("empty style name (available: \(list(available)))"
                                          + searched(dirs, failed: failed, refused: refused))
        case let .unknownName(name, available, dirs, failed, refused, misnamed):
            var line = "no style named '\(name)' (available: \(list(available)))" + searched(dirs, failed: failed, refused: refused)
            if !misnamed.isEmpty {
                line += "; \(misnamed.joined(separator: ", ")) \(misnamed.count == 1 ? "is" : "are") not looked at: "
                    + "a style library's file name must start with libModalKitStyle"
            }
            return StyleLoadError.oneLine(line)
        case let .refused(name, path, violation):
            return StyleLoadError.oneLine("style '\(name)' is only in \(path), which is refused: \(violation)")
        }
    }
}

/// What breaks the header's rules in a descriptor a plugin's entry returned
/// (`StyleLoadError.badDescriptor`).
public enum StyleDescriptorProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The entry returned NULL.
    case entryReturnedNull
    /// The descriptor's `abi_major`/`abi_minor` differ from the version symbol's.
    case versionDisagrees(descriptor: StyleABIVersion, symbol: StyleABIVersion)
    /// `name` is NULL.
    case nullName
    /// `description` is NULL.
    case nullDescription
    /// One of the required functions (create, destroy, frame_of_presented_view,
    /// dimming_appearance) is NULL.
    case missingRequiredFunction
    /// `options` is NULL with this `option_count`.
    case nullOptions(count: Int)
    /// `option_size` is smaller than ABI 1.0's option record.
    case optionSizeTooSmall(Int, minimum: Int)
    /// A number option's minimum...maximum is not a finite range.
    case badRange(key: String, minimum: Double, maximum: Double)
    /// A choice option's `choices` is NULL or `choice_count` is not 1 to 256.
    case badChoices(key: String, count: Int, isNull: Bool)
    /// A choice option's word at `index` is NULL.
    case nullChoice(key: String, index: Int)
    /// The name, the keys or the option count break the rules every declaration keeps.
    case declaration(StyleDeclarationProblem)

    public var description: String {
        switch self {
        case .entryReturnedNull: return "\(StyleABI.entrySymbol)() returned NULL"
        case let .versionDisagrees(descriptor, symbol):
            return "descriptor says ABI \(descriptor), \(StyleABI.versionSymbol) says \(symbol)"
        case .nullName: return "name is NULL"
        case .nullDescription: return "description is NULL"
        case .missingRequiredFunction:
            return "a required function (create, destroy, frame_of_presented_view, dimming_appearance) is NULL"
        case let .nullOptions(count): return "options is NULL with option_count \(count)"
        case let .optionSizeTooSmall(size, minimum): return "option_size \(size) is smaller than \(minimum)"
        case let .badRange(key, minimum, maximum): return "option '\(key)': range \(minimum)...\(maximum) is not a finite range"
        case let .badChoices(key, count, isNull):
            return "option '\(key)': choice_count \(count) with choices \(isNull ? "NULL" : "set") is not a list of 1 to 256 words"
        case let .nullChoice(key, index): return "option '\(key)': choice \(index) is NULL"
        case let .declaration(problem): return problem.description
        }
    }
}
