// The host side of style plugins: finding libraries on the style path, loading one by name or
// path, listing them, and creating styles with options (docs/design.md, plugin boundary).
import CModalKitStyle
import Foundation

/// A loaded, version-checked style library: what `--list-styles` shows and what `--style`
/// selects. Creating styles from it goes through the plugin's C function table.
public struct StyleModule {
    /// The style's name (`--style NAME`), from the plugin's descriptor.
    public let name: String
    /// Its one-line description (tabs and newlines replaced by spaces).
    public let summary: String
    /// The library file, as found on the search path or as given.
    public let path: String
    /// The options the style declares, in its order, with their defaults.
    public let options: [StyleOption]
    /// The style ABI the plugin was built against.
    public let abiVersion: StyleABIVersion

    let library: PluginLibrary

    init(library: PluginLibrary, path: String) {
        self.library = library
        self.name = library.name
        self.summary = library.summary
        self.path = path
        self.options = library.options
        self.abiVersion = library.version
    }

    /// Creates a style instance. Keys are checked against `options` here, before any plugin
    /// code runs; missing keys take their declared defaults; then the plugin's `create` checks
    /// the values (`init(options:)`).
    /// - Parameter given: option keys and values as written on the command line
    ///   (`--style-option KEY=VALUE`).
    /// - Throws: `StyleLoadError.unknownOption` for an undeclared key (the first in sorted
    ///   order), `StyleLoadError.optionsRejected` with the plugin's one-line message when
    ///   `create` fails (e.g. a bad value); both list the style's keys.
    public func makeStyle(options given: [String: String] = [:]) throws -> any PresentationStyle {
        let known = options
        for key in given.keys.sorted() where !known.contains(where: { $0.key == key }) {
            throw StyleLoadError.unknownOption(path: path, style: name, key: key, known: known)
        }
        let pairs = given.sorted { $0.key < $1.key }
        let keys = pairs.map { strdup($0.key).map { UnsafePointer($0) } }
        let values = pairs.map { strdup($0.value).map { UnsafePointer($0) } }
        defer { (keys + values).forEach { free(UnsafeMutablePointer(mutating: $0)) } }

        let errorLength = 1024
        var errorBuffer = [CChar](repeating: 0, count: errorLength)
        let instance = keys.withUnsafeBufferPointer { k in
            values.withUnsafeBufferPointer { v in
                errorBuffer.withUnsafeMutableBufferPointer { e in
                    library.table.create!(library.descriptor, k.baseAddress, v.baseAddress, pairs.count,
                                          e.baseAddress, errorLength)
                }
            }
        }
        guard let instance else {
            errorBuffer[errorLength - 1] = 0 // a plugin that forgot the NUL
            let message = String(cString: errorBuffer)
            throw StyleLoadError.optionsRejected(
                path: path, style: name,
                message: StyleLoadError.oneLine(message.isEmpty ? "create() failed without a message" : message),
                known: known)
        }
        return PluginHostStyle(library: library, instance: instance)
    }
}

extension StyleModule {
    /// What `modal-demo --describe-style` prints: `name:`, `path:`, `abi:` and `summary:` lines,
    /// then a table of the options — key, default, meaning (with its unit), accepted values —
    /// with a header row, columns separated by at least two spaces, tabs and newlines in any field
    /// replaced by spaces. An option of a 1.0 plugin, which carries no accepted values, shows `-`.
    public func descriptionLines() -> [String] {
        func clean(_ s: String) -> String { StyleLoadError.oneLine(s) }
        var lines = ["name: \(clean(name))", "path: \(clean(path))", "abi: \(abiVersion)", "summary: \(clean(summary))"]
        guard !options.isEmpty else { return lines + ["options: none"] }
        let rows = [["option", "default", "meaning", "accepted"]] + options.map {
            [clean($0.key), clean($0.defaultValue), clean($0.meaning),
             $0.acceptedDescription.isEmpty ? "-" : clean($0.acceptedDescription)]
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        lines.append("options:")
        for row in rows {
            var line = "  "
            for column in 0..<3 { line += row[column].padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0) }
            lines.append(line + row[3])
        }
        return lines
    }
}

/// A style hidden by another of the same name earlier on the search path.
public struct ShadowedStyle {
    /// The hidden library.
    public let module: StyleModule
    /// The path of the library that wins (`--style NAME` loads that one).
    public let shadowedBy: String
}

/// Everything found on a search path: what `--list-styles` prints.
public struct StyleListing {
    /// One module per style name, the first on the search path, in search order.
    public var found: [StyleModule] = []
    /// Later libraries declaring a name already found.
    public var shadowed: [ShadowedStyle] = []
    /// Candidate files that could not be loaded, with why.
    public var failed: [(path: String, error: StyleLoadError)] = []
}

/// Finds and loads style plugins, the way GStreamer's and weston's module loaders do: from an
/// ordered list of directories, by file-name pattern, each library version-checked before any
/// of its code runs.
///
/// - A candidate is a file named `libModalKitStyle*.so` (a SwiftPM `.dynamic` product named
///   `ModalKitStyle<Name>`); within a directory candidates are taken in byte-wise name order.
/// - `load("NAME")` takes the first candidate along `searchPath` whose descriptor declares that
///   name; a later one with the same name is shadowed. `load("PATH")` (any argument containing
///   `/`; docs/design.md, plugin boundary) loads that file whatever its name.
/// - Each file is opened at most once per process (per real path, also across loaders), with
///   `dlopen(RTLD_NOW | RTLD_LOCAL)`, and never closed; see `StyleLoadError` for the checks.
/// - Thread-safe; loading is serialised.
public struct StyleLoader {
    /// Directories searched in order; empty entries are ignored, missing ones skipped.
    public var searchPath: [String]

    public init(searchPath: [String]) {
        self.searchPath = searchPath.filter { !$0.isEmpty }
    }

    /// The default search path (docs/design.md, plugin boundary):
    /// 1. each non-empty entry of `MODALKIT_STYLE_PATH` (colon-separated, like `GST_PLUGIN_PATH`;
    ///    entries too long to be a path are dropped);
    /// 2. the directory of the running executable (`/proc/self/exe`: the build directory, where
    ///    `swift build` puts the built-in style libraries next to `modal-demo`);
    /// 3. `<that directory>/../lib/modalkit/styles` (the install layout, `scripts/install`).
    /// - Parameters:
    ///   - environment: where `MODALKIT_STYLE_PATH` is read (default: this process's).
    ///   - executablePath: the executable (default: `/proc/self/exe` resolved).
    public static func defaultSearchPath(environment: [String: String] = ProcessInfo.processInfo.environment,
                                         executablePath: String? = nil) -> [String] {
        var dirs = parseStylePath(environment["MODALKIT_STYLE_PATH"])
        if let exe = executablePath ?? currentExecutablePath() {
            let exeDir = (exe as NSString).deletingLastPathComponent
            dirs.append(exeDir)
            let prefix = (exeDir as NSString).deletingLastPathComponent
            dirs.append((prefix as NSString).appendingPathComponent("lib/modalkit/styles"))
        }
        return dirs
    }

    /// `MODALKIT_STYLE_PATH` split at `:`, range-checked: empty entries and entries longer than
    /// `PATH_MAX` − 1 bytes (which cannot name a directory) are dropped; nil gives no entries.
    static func parseStylePath(_ raw: String?) -> [String] {
        guard let raw else { return [] }
        return raw.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
            .filter { $0.utf8.count < Int(PATH_MAX) }
    }

    /// The running executable's real path, from `/proc/self/exe` (proc(5)).
    public static func currentExecutablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        buffer[n] = 0
        return String(cString: buffer)
    }

    /// The candidate library files, in search order, each real file once.
    public func candidatePaths() -> [String] {
        var seen = Set<String>()
        var paths: [String] = []
        for dir in searchPath {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            let libraries = names.filter { $0.hasPrefix("libModalKitStyle") && $0.hasSuffix(".so") }
                .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for file in libraries {
                let path = dir.hasSuffix("/") ? dir + file : dir + "/" + file
                let key = (try? PluginLibrary.realPath(of: path).get()) ?? path
                if seen.insert(key).inserted { paths.append(path) }
            }
        }
        return paths
    }

    /// Loads a style library by name (searching `searchPath`) or by path (contains `/`).
    /// Only the candidates up to the first match are opened.
    /// - Throws: `StyleLoadError`: for a path, whatever opening it gives (`notFound`,
    ///   `notALibrary`, `missingEntry`, `abiMismatch`, `newerMinor`, `badStructSize`,
    ///   `unresolvedSymbol`, `wrongMachine`, …); for a name, `emptyName` or `unknownName` listing
    ///   the names available and counting the libraries that failed to load (skipped here,
    ///   shown with why by `list()`).
    public func load(_ nameOrPath: String) throws -> StyleModule {
        if nameOrPath.contains("/") {
            return StyleModule(library: try PluginLibrary.open(nameOrPath).get(), path: nameOrPath)
        }
        if nameOrPath.isEmpty {
            let listing = list()
            throw StyleLoadError.emptyName(available: listing.found.map(\.name), searchPath: searchPath,
                                           failed: listing.failed.count)
        }
        var available: [String] = []
        var failed = 0
        for path in candidatePaths() {
            guard let library = try? PluginLibrary.open(path).get() else { failed += 1; continue }
            if library.name == nameOrPath { return StyleModule(library: library, path: path) }
            if !available.contains(library.name) { available.append(library.name) }
        }
        throw StyleLoadError.unknownName(nameOrPath, available: available, searchPath: searchPath, failed: failed,
                                         misnamed: misnamedLibraries(resembling: nameOrPath))
    }

    /// Shared libraries on the search path that the lookup by name skips because their file name
    /// does not start with `libModalKitStyle`, but whose name contains `styleName` (compared in
    /// lower case, letters and digits only: `side-drawer` matches `libSideDrawer.so`). Not opened.
    public func misnamedLibraries(resembling styleName: String) -> [String] {
        func letters(_ s: String) -> String { String(s.lowercased().filter { $0.isLetter || $0.isNumber }) }
        let wanted = letters(styleName)
        guard !wanted.isEmpty else { return [] }
        var found: [String] = []
        for dir in searchPath {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for file in names.sorted() where !file.hasPrefix("libModalKitStyle")
                && (file.hasSuffix(".so") || file.contains(".so.")) && letters(file).contains(wanted) {
                found.append(dir.hasSuffix("/") ? dir + file : dir + "/" + file)
            }
        }
        return found
    }

    /// Opens every candidate on the search path.
    public func list() -> StyleListing {
        var listing = StyleListing()
        var winners: [String: String] = [:]
        for path in candidatePaths() {
            switch PluginLibrary.open(path) {
            case let .success(library):
                let module = StyleModule(library: library, path: path)
                if let winner = winners[library.name] {
                    listing.shadowed.append(ShadowedStyle(module: module, shadowedBy: winner))
                } else {
                    winners[library.name] = path
                    listing.found.append(module)
                }
            case let .failure(error):
                listing.failed.append((path, error))
            }
        }
        return listing
    }

    /// The lines `modal-demo --list-styles` prints, fields separated by one TAB, no field
    /// containing a TAB or newline:
    ///
    ///     NAME<TAB>PATH<TAB>DESCRIPTION               one per style, in search order
    ///     # shadowed<TAB>PATH<TAB>NAME<TAB>WINNER     a later library with a name already found;
    ///                                                 WINNER is the path --style NAME loads
    ///     # failed<TAB>PATH<TAB>REASON                a candidate that did not load
    ///                                                 (`StyleLoadError.reason`)
    ///
    /// Styles come first, then shadowed, then failed lines, so `cut -f1` up to the first `#`
    /// line gives the usable names.
    public func listingLines() -> [String] {
        let listing = list()
        func clean(_ s: String) -> String { StyleLoadError.oneLine(s) }
        return listing.found.map { "\(clean($0.name))\t\(clean($0.path))\t\(clean($0.summary))" }
            + listing.shadowed.map { "# shadowed\t\(clean($0.module.path))\t\(clean($0.module.name))\t\(clean($0.shadowedBy))" }
            + listing.failed.map { "# failed\t\(clean($0.path))\t\(clean($0.error.reason))" }
    }
}
