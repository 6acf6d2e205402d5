/// Why a style could not be found, loaded or created. Each `description` is one line for
/// stderr naming the library path (or, for a name, the search path) and the cause, with the
/// dynamic loader's own `dlerror()` message where there is one (docs/design.md, rules
/// from the field, 5).
///
/// The cases follow the loader's order of checks (`StyleLoader`): the file exists, `dlopen`
/// accepts it, the entry and version symbols exist, the versions are compatible — all before
/// any plugin code runs — and only then the entry's descriptor is checked.
public enum StyleLoadError: Error, Hashable, CustomStringConvertible {
    /// No file at `path` (`--style PATH` with a path that does not exist).
    case notFound(path: String)
    /// `dlopen` refused a file that is not an ELF shared object (a text file named `.so`);
    /// `message` is `dlerror()`'s.
    case notALibrary(path: String, message: String)
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
    /// The entry returned no descriptor or one that breaks the header's rules (`reason`).
    case badDescriptor(path: String, reason: String)
    /// `--style ""`. `available` lists the names found on `searchPath`; `failed` counts the
    /// libraries there that could not be loaded (`StyleLoader.list()` says why).
    case emptyName(available: [String], searchPath: [String], failed: Int)
    /// No library on `searchPath` declares this style name; `available` lists the names found;
    /// `failed` counts the libraries there that could not be loaded (one of them may be the style);
    /// `misnamed` lists shared libraries on `searchPath` whose file name resembles the style's
    /// but does not start with `libModalKitStyle`, so the lookup by name never opens them.
    case unknownName(String, available: [String], searchPath: [String], failed: Int, misnamed: [String] = [])
    /// `--style-option KEY=…` with a key the style does not declare; `known` lists its options
    /// (the message names each with its meaning).
    case unknownOption(path: String, style: String, key: String, known: [StyleOption])
    /// The style's `create` refused the options; `message` is its one line (usually a
    /// `StyleOptionError.badValue`); `known` lists the style's options.
    case optionsRejected(path: String, style: String, message: String, known: [StyleOption])

    /// The library path the error is about; nil for name errors.
    public var path: String? {
        switch self {
        case let .notFound(path), let .notALibrary(path, _), let .notAFile(path, _), let .unresolvedSymbol(path, _),
             let .wrongMachine(path, _, _), let .loadFailed(path, _), let .missingEntry(path, _, _),
             let .abiMismatch(path, _, _), let .newerMinor(path, _, _), let .badStructSize(path, _, _, _), let .badDescriptor(path, _),
             let .unknownOption(path, _, _, _), let .optionsRejected(path, _, _, _):
            return path
        case .emptyName, .unknownName:
            return nil
        }
    }

    /// The cause alone, without the path (the third field of a `# failed` listing line).
    public var reason: String {
        switch self {
        case .notFound:
            return "no such file"
        case let .notALibrary(_, message):
            return "not a shared library (dlopen: \(message))"
        case let .notAFile(_, kind):
            return "not a shared library: it is \(kind)"
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
        case let .badDescriptor(_, reason):
            return "invalid style descriptor: \(reason)"
        case let .emptyName(available, _, _):
            return "empty style name (available: \(StyleLoadError.list(available)))"
        case let .unknownName(name, available, _, _, _):
            return "no style named '\(name)' (available: \(StyleLoadError.list(available)))"
        case let .unknownOption(_, style, key, known):
            return "style '\(style)' has no option '\(key)' (options: \(StyleLoadError.list(options: known)))"
        case let .optionsRejected(_, style, message, known):
            // A message about one declared option names it in quotes: that option's meaning is
            // what helps; otherwise every option with its meaning.
            let named = known.filter { message.contains("'\($0.key)'") }
            if named.count == 1 { return "style '\(style)': \(message) (\(StyleLoadError.list(options: named)))" }
            return "style '\(style)': \(message) (options: \(StyleLoadError.list(options: known)))"
        }
    }

    /// One line: `PATH: REASON`, or for a name error `REASON; searched DIR:DIR`, followed by
    /// `; N libraries there failed to load (--list-styles says why)` when some did.
    public var description: String {
        let line: String
        switch self {
        case let .emptyName(_, searchPath, failed), let .unknownName(_, _, searchPath, failed, _):
            let dirs = searchPath.isEmpty ? "nothing (empty style path)" : searchPath.joined(separator: ":")
            line = "\(reason); searched \(dirs)"
                + (failed == 0 ? "" : "; \(failed) \(failed == 1 ? "library" : "libraries") there failed to load (--list-styles says why)")
                + misnamedNote
        default:
            line = "\(path ?? ""): \(reason)"
        }
        return StyleLoadError.oneLine(line)
    }

    /// "; /x/libSideDrawer.so is not looked at: a style library's name must start with
    /// libModalKitStyle (rename it, or give its path)" for `unknownName`'s `misnamed`.
    private var misnamedNote: String {
        guard case let .unknownName(_, _, _, _, misnamed) = self, !misnamed.isEmpty else { return "" }
        let files = misnamed.joined(separator: ", ")
        return "; \(files) \(misnamed.count == 1 ? "is" : "are") not looked at: a style library's file name must "
            + "start with libModalKitStyle (rename it, or give its path to --style)"
    }


    /// The same error about another path to the same file (the loader caches per real path).
    func withPath(_ newPath: String) -> StyleLoadError {
        switch self {
        case .notFound: return .notFound(path: newPath)
        case let .notALibrary(_, m): return .notALibrary(path: newPath, message: m)
        case let .notAFile(_, k): return .notAFile(path: newPath, kind: k)
        case let .unresolvedSymbol(_, m): return .unresolvedSymbol(path: newPath, message: m)
        case let .wrongMachine(_, l, h): return .wrongMachine(path: newPath, library: l, host: h)
        case let .loadFailed(_, m): return .loadFailed(path: newPath, message: m)
        case let .missingEntry(_, s, m): return .missingEntry(path: newPath, symbol: s, message: m)
        case let .abiMismatch(_, p, h): return .abiMismatch(path: newPath, plugin: p, host: h)
        case let .newerMinor(_, p, h): return .newerMinor(path: newPath, plugin: p, host: h)
        case let .badStructSize(_, s, m, v): return .badStructSize(path: newPath, size: s, minimum: m, version: v)
        case let .badDescriptor(_, r): return .badDescriptor(path: newPath, reason: r)
        case let .unknownOption(_, s, k, known): return .unknownOption(path: newPath, style: s, key: k, known: known)
        case let .optionsRejected(_, s, m, known):
            return .optionsRejected(path: newPath, style: s, message: m, known: known)
        case .emptyName, .unknownName: return self
        }
    }

    static func list(_ items: [String]) -> String { items.isEmpty ? "none" : items.joined(separator: ", ") }

    /// Options with their meanings: "margin-x (left and right inset of the card, points), …";
    /// a key declared without a meaning stands alone.
    static func list(options: [StyleOption]) -> String {
        list(options.map { $0.meaning.isEmpty ? $0.key : "\($0.key) (\($0.meaning))" })
    }

    /// Newlines and tabs (possible in `dlerror()` text or a plugin's message) become spaces.
    static func oneLine(_ s: String) -> String {
        String(s.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}
