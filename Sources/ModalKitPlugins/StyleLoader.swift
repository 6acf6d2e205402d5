// The host side of style plugins: finding libraries on the style path, loading one by name or
// path, listing them, and creating styles with options (docs/design.md, plugin boundary).
import CModalKitStyle
import Glibc
import ModalKitStyle
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
///   any library; `load(_:)` opens exactly the library chosen. Every check reads one open
///   descriptor of the file, and `dlopen` loads that open file (`/proc/self/fd/N`): the file
///   checked is the file loaded, or it is refused as changed since it was checked.
/// - A library without a note (ABI 1.0 and 1.1 libraries, a C plugin writing none) declares no
///   name that can be read without running it: listing names it in `StyleListing.withoutNote`,
///   a name lookup skips it, and it loads only when named by its path.
/// - A library whose `DT_RUNPATH`/`DT_RPATH` has `$ORIGIN` entries and that needs a library not
///   loaded yet loads only when every directory those entries name passes the trust rule (the
///   dynamic loader would load code from there).
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

    /// A candidate as far as it can be known without loading it, and the open file the checks
    /// read (`OpenedLibrary`), which is what a load maps.
    enum Inspection {
        /// It carries a note: its declaration (ABI already checked against this host's).
        case noted(StyleDeclaration, OpenedLibrary)
        /// A complete shared object for this machine without a note.
        case withoutNote(OpenedLibrary)

        var file: OpenedLibrary {
            switch self {
            case let .noted(_, file), let .withoutNote(file): return file
            }
        }
    }

    /// The checks made on the file before any of it is loaded, in order, all on one open
    /// descriptor (`OpenedLibrary`): it exists and is a regular file; the trust rule holds
    /// (`scope`; the file's owner and mode from `fstat`); it is a complete ELF shared object for
    /// this machine; every directory its `$ORIGIN` entries name passes the trust rule when it
    /// needs a library not loaded yet; its note, if any, reads and declares an ABI this host speaks.
    static func inspect(_ path: String, scope: StyleTrust.Scope) -> Result<Inspection, StyleLoadError> {
        let file: OpenedLibrary
        switch OpenedLibrary.open(path) {
        case let .success(f): file = f
        case let .failure(e): return .failure(e)
        }
        if let violation = StyleTrust.check(realPath: file.realPath, status: file.status, scope: scope) {
            return .failure(.refused(path: path, violation: violation))
        }
        return inspect(file, path: path)
    }

    /// The checks after the trust rule's on the file itself (see `inspect(_:scope:)`).
    static func inspect(_ file: OpenedLibrary, path: String) -> Result<Inspection, StyleLoadError> {
        let elf: ELFFile
        switch readELF(file.fd, path: path) {
        case let .success(e): elf = e
        case let .failure(e): return .failure(e)
        }
        file.elf = elf
        if let refusal = originRefusal(file, path: path) { return .failure(refusal) }
        guard let payload = elf.styleNotePayload else { return .success(.withoutNote(file)) }
        let declaration: StyleDeclaration
        do { declaration = try StyleNote.declaration(fromPayload: payload) } catch {
            return .failure(.badNote(path: path, problem: error as? StyleNoteProblem ?? .missingField("?")))
        }
        // The version, read from the note: a library this host cannot take is not loaded.
        let host = StyleABIVersion.current
        guard declaration.abiVersion.major == host.major else {
            return .failure(.abiMismatch(path: path, plugin: declaration.abiVersion, host: host))
        }
        guard declaration.abiVersion.minor <= host.minor else {
            return .failure(.newerMinor(path: path, plugin: declaration.abiVersion, host: host))
        }
        return .success(.noted(declaration, file))
    }

    /// Whether the dynamic loader would look in a directory an `$ORIGIN` entry of the library's
    /// `DT_RUNPATH`/`DT_RPATH` names (it needs a library not loaded in this process yet: one
    /// loaded already is matched by name and never looked for), and that directory, or one
    /// above it, fails the trust rule.
    static func originRefusal(_ file: OpenedLibrary, path: String) -> StyleLoadError? {
        guard let dynamic = file.elf?.dynamic, !dynamic.originEntries.isEmpty,
              dynamic.needed.contains(where: { !isLoaded($0) }) else { return nil }
        let origin = PathName.deletingLastComponent(file.realPath)
        for entry in dynamic.originEntries {
            var directory = entry.replacingAll("${ORIGIN}", with: origin).replacingAll("$ORIGIN", with: origin)
            // The directory as it is now; one that does not exist is judged by the nearest one
            // above it that does (whoever may write there may make it).
            var resolved: UnsafeMutablePointer<CChar>? = nil
            while true {
                resolved = realpath(directory, nil)
                if resolved != nil || directory == "/" || directory.isEmpty { break }
                directory = PathName.deletingLastComponent(directory)
            }
            guard let resolved else { continue }
            let real = String(cString: resolved)
            free(resolved)
            if let violation = StyleTrust.checkDirectory(real) {
                return .originRefused(path: path, entry: entry, violation: violation)
            }
        }
        return nil
    }

    /// Whether a library of that name is loaded in this process (`dlopen(RTLD_NOLOAD)` matches
    /// names and sonames of what is loaded; it loads nothing).
    static func isLoaded(_ name: String) -> Bool {
        guard let handle = dlopen(name, RTLD_LAZY | RTLD_NOLOAD) else { return false }
        dlclose(handle)   // RTLD_NOLOAD counted one more reference
        return true
    }

    /// The file's ELF checks, as load errors.
    static func readELF(_ fd: Int32, path: String) -> Result<ELFFile, StyleLoadError> {
        switch ELFFile.inspect(fd: fd) {
        case let .failure(.problem(problem)):
            return .failure(.malformedELF(path: path, problem: problem))
        case let .failure(.foreign(identity)):
            let host = ELFIdentity.host.map(\.description) ?? "unknown"
            return .failure(.wrongMachine(path: path, library: identity.description, host: host))
        case .failure(.duplicateNote):
            return .failure(.badNote(path: path, problem: .duplicateNote))
        case let .success(file):
            return .success(file)
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

    /// The metadata of an inspected candidate: from its note, or, for a library without one
    /// (named by its path: only then is one loaded), by loading it (the library stays loaded,
    /// cached, for a later `load`).
    private static func metadata(_ path: String, _ inspection: Inspection) -> Result<StyleMetadata, StyleLoadError> {
        switch inspection {
        case let .noted(declaration, _):
            return .success(StyleMetadata(path: path, declaration: declaration, source: .note))
        case let .withoutNote(file):
            return PluginLibrary.open(path, file: file, note: nil).map {
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
    /// notes only: no code of any library runs for a name — a library without a note is skipped
    /// (it declares no name that could be read) — and for a path only that of a library without
    /// a note, which is loaded to read its descriptor.
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
            case let .failure(.refused(_, violation)), let .failure(.originRefused(_, _, violation)):
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
                if case .withoutNote = inspection { continue }   // never loaded to ask: only by its path
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
        StyleLoader.afterChecks?(path)
        let library: PluginLibrary
        switch inspection {
        case let .noted(declaration, file): library = try PluginLibrary.open(path, file: file, note: declaration).get()
        case let .withoutNote(file): library = try PluginLibrary.open(path, file: file, note: nil).get()
        }
        return StyleModule(library: library, path: path, metadataSource: lookup.metadata.source, shadowed: lookup.shadowed)
    }

    /// Tests only: called with the path between the checks and `dlopen` (a file swapped there).
    nonisolated(unsafe) static var afterChecks: ((String) -> Void)?

    /// Loads a private copy of the library at `path` (a path, as `--style PATH`), a new object
    /// each call however often the file at `path` was loaded before: what `modal-demo --watch`
    /// reloads with. The file at `path` itself is never mapped, so rewriting it in place cannot
    /// change code that runs.
    /// - Throws: `StyleLoadError` about `path`.
    public static func loadPrivateCopy(_ path: String) throws -> StyleModule {
        // The checks of a library named by path, on the open file; then its bytes are copied from
        // that descriptor and the copy is checked again (a file written in place meanwhile is
        // refused), and loaded with the original's directory as its `$ORIGIN`.
        let original = try OpenedLibrary.open(path).get()
        if let violation = StyleTrust.check(realPath: original.realPath, status: original.status, scope: .file) {
            throw StyleLoadError.refused(path: path, violation: violation)
        }
        _ = try inspect(original, path: path).get()
        afterChecks?(path)
        let copy = try original.privateCopy().get()
        let inspection = try inspect(copy, path: path).get()
        let note: StyleDeclaration?
        switch inspection {
        case let .noted(declaration, _): note = declaration
        case .withoutNote: note = nil
        }
        let library = try PluginLibrary.open(path, file: copy, note: note, cached: false).get()
        return StyleModule(library: library, path: path, metadataSource: note == nil ? .descriptor : .note)
    }

    /// Where private directories for loading are made, in order: `XDG_RUNTIME_DIR` (the user's
    /// own, on tmpfs), the user's cache directory (`XDG_CACHE_HOME`, else `HOME/.cache`; XDG Base
    /// Directory), the temporary directory (`TMPDIR`, else `/tmp`). A place that is unset, missing
    /// or not writable is skipped: a session whose runtime directory is not this user's (a root
    /// shell in another user's session, a check run without one) still loads.
    static func privateDirectoryBases(environment: [String: String] = ProcessEnvironment.current) -> [String] {
        func set(_ key: String) -> String? { environment[key].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        var bases: [String] = []
        if let runtime = set("XDG_RUNTIME_DIR") { bases.append(runtime) }
        if let cache = set("XDG_CACHE_HOME") ?? set("HOME").map({ $0 + "/.cache" }) { bases.append(cache) }
        bases.append(set("TMPDIR") ?? "/tmp")
        return bases
    }

    /// A new private directory (mode 0700, mkdtemp(3)) in the first of
    /// ``privateDirectoryBases(environment:)`` that takes one.
    static func makePrivateDirectory(for path: String) throws -> String {
        let bases = privateDirectoryBases()
        for base in bases {
            var template = Array("\(base)/modalkit-style-XXXXXX".utf8CString)
            if let made = mkdtemp(&template) { return String(cString: made) }
        }
        throw StyleLoadError.loadFailed(path: path, message: "cannot make a private directory to load it from "
                                        + "(tried \(bases.joined(separator: ", ")))")
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

    /// Every candidate on the search path, by kind, read and never loaded: libraries with a note
    /// by their note; those without one are only named (`StyleListing.withoutNote`).
    public func list() -> StyleListing {
        var listing = StyleListing()
        var winners: [String: String] = [:]
        for path in candidatePaths() {
            let inspected = StyleLoader.inspect(path, scope: .fileAndDirectories)
            if case .success(.withoutNote) = inspected {
                listing.withoutNote.append(path)
                continue
            }
            switch inspected.flatMap({ StyleLoader.metadata(path, $0) }) {
            case let .success(metadata):
                if let winner = winners[metadata.name] {
                    listing.shadowed.append(ShadowedStyle(style: metadata, shadowedBy: winner))
                } else {
                    winners[metadata.name] = path
                    listing.found.append(metadata)
                }
            case let .failure(.refused(_, violation)), let .failure(.originRefused(_, _, violation)):
                listing.refused.append(RefusedStyleLibrary(path: path, violation: violation))
            case let .failure(error):
                listing.failed.append(FailedStyleLibrary(path: path, error: error))
            }
        }
        return listing
    }
}
