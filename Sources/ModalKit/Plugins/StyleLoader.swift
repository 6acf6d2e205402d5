// The host side of style plugins: finding libraries on the style path, loading one by name or
// path, listing them, and creating styles with options (docs/design.md, plugin boundary).
import CModalKitStyle
import Glibc
import ModalKitSystemSupport

/// Finds and loads style plugins, the way GStreamer's and weston's module loaders do: from an
/// ordered list of directories, by file-name pattern; unlike them, a library is data until it is
/// chosen (docs/design.md, plugin metadata and trust).
///
/// - A candidate is a file named `libModalKitStyle*.so` (a SwiftPM `.dynamic` product named
///   `ModalKitStyle<Name>`); within a directory candidates are taken in byte-wise name order.
/// - Before anything is read from a candidate, the trust rule (`StyleTrust`) must hold for it and
///   its directories; then it must be a complete ELF shared object for this machine
///   (`ELFProblem`); then its declaration — name, summary, style ABI, options — is read from its
///   ELF note (`StyleNote`). Listing (`list()`) and finding a name (`find(_:)`) run no code of
///   a library that has a note; `load(_:)` opens exactly the library chosen.
/// - A library without a note (built before ModalKit wrote one) is loaded to read its
///   declaration from its descriptor, as before notes — when listing, and when finding a name
///   before a match is found — and `StyleListing.withoutNote` says which.
/// - `find("NAME")` takes the first candidate along `searchPath` that declares that name; later
///   ones with the same name are shadowed. `find("PATH")` (any argument containing `/`;
///   docs/design.md, plugin boundary) takes that file whatever its name; the trust rule then
///   checks the file alone.
/// - Each file is opened at most once per process (per real path, also across loaders), with
///   `dlopen(RTLD_NOW | RTLD_LOCAL)`, and never closed; see `StyleLoadError` for the checks.
/// - Thread-safe; loading is serialised.
public struct StyleLoader {
    /// Directories searched in order; empty and relative entries are ignored (a relative entry
    /// depends on the working directory, which someone else may choose), missing ones skipped.
    public var searchPath: [String]

    /// A loader searching `searchPath` in order (``defaultSearchPath(environment:executablePath:)``);
    /// relative entries are dropped (a style is only ever loaded from an absolute directory).
    public init(searchPath: [String]) {
        self.searchPath = searchPath.filter { $0.hasPrefix("/") }
    }

    /// A search path and the entries of `MODALKIT_STYLE_PATH` left out of it.
    public struct SearchPath: Hashable, Sendable {
        /// The directories, in order.
        public var directories: [String]
        /// Relative entries of `MODALKIT_STYLE_PATH` (`.`, `lib`), ignored: a host should say so
        /// once.
        public var ignoredRelativeEntries: [String]

        /// The directories searched, in order, and the relative entries left out.
        public init(directories: [String], ignoredRelativeEntries: [String]) {
            self.directories = directories; self.ignoredRelativeEntries = ignoredRelativeEntries
        }
    }

    /// The default search path (docs/design.md, plugin boundary):
    /// 1. each absolute entry of `MODALKIT_STYLE_PATH` (colon-separated, like `GST_PLUGIN_PATH`;
    ///    empty entries and entries too long to be a path are dropped, relative ones ignored and
    ///    returned in `ignoredRelativeEntries`);
    /// 2. the directory of the running executable (`/proc/self/exe`: the build directory, where
    ///    `swift build` puts the built-in style libraries next to `modal-demo`);
    /// 3. `<that directory>/../lib/modalkit/styles` (the install layout, `scripts/install`).
    /// - Parameters:
    ///   - environment: where `MODALKIT_STYLE_PATH` is read (default: this process's).
    ///   - executablePath: the executable (default: `/proc/self/exe` resolved).
    public static func searchPath(environment: [String: String] = ProcessEnvironment.current,
                                  executablePath: String? = nil) -> SearchPath {
        let entries = parseStylePath(environment["MODALKIT_STYLE_PATH"])
        var dirs = entries.filter { $0.hasPrefix("/") }
        if let exe = executablePath ?? currentExecutablePath() {
            let exeDir = PathName.deletingLastComponent(exe)
            dirs.append(exeDir)
            let prefix = PathName.deletingLastComponent(exeDir)
            dirs.append(PathName.appending(prefix, "lib/modalkit/styles"))
        }
        return SearchPath(directories: dirs, ignoredRelativeEntries: entries.filter { !$0.hasPrefix("/") })
    }

    /// `searchPath(environment:executablePath:).directories`.
    public static func defaultSearchPath(environment: [String: String] = ProcessEnvironment.current,
                                         executablePath: String? = nil) -> [String] {
        searchPath(environment: environment, executablePath: executablePath).directories
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
            guard let names = try? FileSystem.entries(ofDirectory: dir) else { continue }
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

    // MARK: Reading a candidate without running it

    /// A candidate as far as it can be known without loading it.
    enum Inspection {
        /// It carries a note: its declaration (ABI already checked against this host's).
        case noted(StyleDeclaration, realPath: String)
        /// A complete shared object for this machine without a note.
        case withoutNote(realPath: String)
    }

    /// The checks made on the file before any of it is loaded, in order: it exists and is a
    /// regular file; the trust rule holds (`scope`); it is a complete ELF shared object for this
    /// machine; its note, if any, reads and declares an ABI this host speaks.
    static func inspect(_ path: String, scope: StyleTrust.Scope) -> Result<Inspection, StyleLoadError> {
        let real: String
        switch PluginLibrary.realPath(of: path) {
        case let .success(r): real = r
        case let .failure(e): return .failure(e)
        }
        // Only a regular file can be a library: reading a FIFO nobody writes to blocks forever,
        // and a device is not a file.
        var info = stat()
        if stat(real, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            let kind: String
            switch info.st_mode & S_IFMT {
            case S_IFDIR: kind = "a directory"
            case S_IFIFO: kind = "a FIFO"
            case S_IFSOCK: kind = "a socket"
            case S_IFCHR, S_IFBLK: kind = "a device"
            default: kind = "no regular file"
            }
            return .failure(.notAFile(path: path, kind: kind))
        }
        if let violation = StyleTrust.check(path, scope: scope) {
            return .failure(.refused(path: path, violation: violation))
        }
        switch declaredInFile(path) {
        case let .failure(e): return .failure(e)
        case .success(nil): return .success(.withoutNote(realPath: real))
        case let .success(declaration?):
            // The version, read from the note: a library this host cannot take is not loaded.
            let host = StyleABIVersion.current
            guard declaration.abiVersion.major == host.major else {
                return .failure(.abiMismatch(path: path, plugin: declaration.abiVersion, host: host))
            }
            guard declaration.abiVersion.minor <= host.minor else {
                return .failure(.newerMinor(path: path, plugin: declaration.abiVersion, host: host))
            }
            return .success(.noted(declaration, realPath: real))
        }
    }

    /// The declaration in the file's note (nil when it has none), after checking that the file is
    /// a complete ELF shared object for this machine. Reads the file only.
    static func declaredInFile(_ path: String) -> Result<StyleDeclaration?, StyleLoadError> {
        switch ELFFile.inspect(path: path) {
        case let .failure(.problem(problem)):
            return .failure(.malformedELF(path: path, problem: problem))
        case let .failure(.foreign(identity)):
            let host = ELFIdentity.host.map(\.description) ?? "unknown"
            return .failure(.wrongMachine(path: path, library: identity.description, host: host))
        case .failure(.duplicateNote):
            return .failure(.badNote(path: path, problem: .duplicateNote))
        case let .success(file):
            guard let payload = file.styleNotePayload else { return .success(nil) }
            do {
                return .success(try StyleNote.declaration(fromPayload: payload))
            } catch {
                return .failure(.badNote(path: path, problem: error as? StyleNoteProblem ?? .missingField("?")))
            }
        }
    }

    /// The metadata of an inspected candidate: from its note, or, for a library without one,
    /// by loading it (the library stays loaded, cached, for a later `load`).
    private static func metadata(_ path: String, _ inspection: Inspection) -> Result<StyleMetadata, StyleLoadError> {
        switch inspection {
        case let .noted(declaration, _):
            return .success(StyleMetadata(path: path, declaration: declaration, source: .note))
        case let .withoutNote(real):
            return PluginLibrary.open(path, realPath: real, note: nil).map {
                StyleMetadata(path: path, declaration: $0.declaration, source: .descriptor)
            }
        }
    }

    // MARK: Finding, listing, loading

    /// A style library chosen for a name or a path, not loaded yet.
    public struct Lookup: Hashable, Sendable {
        /// The library and what it declares.
        public let metadata: StyleMetadata
        /// Later libraries on the search path declaring the same name (by their notes), which the
        /// chosen one shadows; empty for a path.
        public let shadowed: [String]
        /// How much of the path the trust rule checks: the directories too for a library found on
        /// the search path, the file alone for a path given.
        let scope: StyleTrust.Scope
    }

    /// Chooses the library for a name (searching `searchPath`) or a path (contains `/`), reading
    /// notes only: no code of a library with a note runs.
    /// - Throws: for a path, `StyleLoadError` (`notFound`, `notAFile`, `refused`, `malformedELF`,
    ///   `wrongMachine`, `badNote`, `abiMismatch`, `newerMinor`, or, for a library without a note
    ///   that had to be loaded, what loading it gives); for a name, `StyleLookupError`
    ///   (`emptyName`, `unknownName` with the names available and the libraries that failed or
    ///   were refused, `refused` when only untrusted libraries declare it).
    public func find(_ nameOrPath: String) throws -> Lookup {
        if nameOrPath.contains("/") {
            let inspection = try StyleLoader.inspect(nameOrPath, scope: .file).get()
            return Lookup(metadata: try StyleLoader.metadata(nameOrPath, inspection).get(), shadowed: [], scope: .file)
        }
        if nameOrPath.isEmpty {
            let listing = list()
            throw StyleLookupError.emptyName(available: listing.found.map(\.name), searchPath: searchPath,
                                             failed: listing.failed.count, refused: listing.refused.count)
        }
        var chosen: StyleMetadata?
        var shadowed: [String] = []
        var available: [String] = []
        var failed = 0, refused = 0
        var refusedMatch: (path: String, violation: StyleTrustViolation)?
        for path in candidatePaths() {
            switch StyleLoader.inspect(path, scope: .fileAndDirectories) {
            case let .failure(.refused(_, violation)):
                refused += 1
                // What an untrusted file declares is read (data only) to say why the name is
                // not found.
                if chosen == nil, refusedMatch == nil, case let .success(declared?) = StyleLoader.declaredInFile(path),
                   declared.name == nameOrPath {
                    refusedMatch = (path, violation)
                }
            case .failure:
                failed += 1
            case let .success(inspection):
                if case .withoutNote = inspection, chosen != nil { continue }   // not loaded to ask
                switch StyleLoader.metadata(path, inspection) {
                case .failure: failed += 1
                case let .success(metadata):
                    if metadata.name == nameOrPath {
                        if chosen == nil { chosen = metadata } else { shadowed.append(path) }
                    }
                    if !available.contains(metadata.name) { available.append(metadata.name) }
                }
            }
        }
        if let chosen { return Lookup(metadata: chosen, shadowed: shadowed, scope: .fileAndDirectories) }
        if let refusedMatch {
            throw StyleLookupError.refused(name: nameOrPath, path: refusedMatch.path, violation: refusedMatch.violation)
        }
        throw StyleLookupError.unknownName(nameOrPath, available: available, searchPath: searchPath, failed: failed,
                                           refused: refused, misnamed: misnamedLibraries(resembling: nameOrPath))
    }

    /// Loads the library `find(_:)` chose: `dlopen`, the symbol and version checks, the entry, and
    /// — for a library with a note — the check that it declares exactly what its note says.
    /// - Throws: `StyleLoadError`.
    public func load(_ lookup: Lookup) throws -> StyleModule {
        let path = lookup.metadata.path
        // Inspected again: the file may have changed since it was found, and dlopen must only
        // ever see a complete, trusted file.
        let inspection = try StyleLoader.inspect(path, scope: lookup.scope).get()
        let library: PluginLibrary
        switch inspection {
        case let .noted(declaration, real): library = try PluginLibrary.open(path, realPath: real, note: declaration).get()
        case let .withoutNote(real): library = try PluginLibrary.open(path, realPath: real, note: nil).get()
        }
        return StyleModule(library: library, path: path, metadataSource: lookup.metadata.source, shadowed: lookup.shadowed)
    }

    /// `load(find(nameOrPath))`: the one library chosen for a name or a path, loaded.
    /// - Throws: `StyleLookupError` or `StyleLoadError` (see `find(_:)` and `load(_:)`).
    public func load(_ nameOrPath: String) throws -> StyleModule {
        try load(find(nameOrPath))
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
            guard let names = try? FileSystem.entries(ofDirectory: dir) else { continue }
            for file in names.sorted() where !file.hasPrefix("libModalKitStyle")
                && (file.hasSuffix(".so") || file.containsText(".so.")) && letters(file).containsText(wanted) {
                found.append(dir.hasSuffix("/") ? dir + file : dir + "/" + file)
            }
        }
        return found
    }

    /// Every candidate on the search path, by kind. Libraries with a note are read, not loaded;
    /// libraries without one are loaded to read their declaration.
    public func list() -> StyleListing {
        var listing = StyleListing()
        var winners: [String: String] = [:]
        for path in candidatePaths() {
            switch StyleLoader.inspect(path, scope: .fileAndDirectories).flatMap({ StyleLoader.metadata(path, $0) }) {
            case let .success(metadata):
                if metadata.source == .descriptor { listing.withoutNote.append(metadata) }
                if let winner = winners[metadata.name] {
                    listing.shadowed.append(ShadowedStyle(style: metadata, shadowedBy: winner))
                } else {
                    winners[metadata.name] = path
                    listing.found.append(metadata)
                }
            case let .failure(.refused(_, violation)):
                listing.refused.append(RefusedStyleLibrary(path: path, violation: violation))
            case let .failure(error):
                listing.failed.append(FailedStyleLibrary(path: path, error: error))
            }
        }
        return listing
    }
}
