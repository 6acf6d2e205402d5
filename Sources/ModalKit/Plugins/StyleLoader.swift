// The host side of style plugins: finding libraries on the style path, loading one by name or
// path, listing them, and creating styles with options (docs/design.md, plugin boundary).
import CModalKitStyle
import Foundation

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
