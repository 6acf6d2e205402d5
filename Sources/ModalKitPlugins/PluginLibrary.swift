// The dynamic-loading layer of the style loader: dlopen, the checks made before any plugin
// code runs, the entry call, descriptor validation, and the per-real-path cache.
import CModalKitStyle
#if canImport(Glibc)
import Glibc
#endif
import ModalKitStyle
import ModalKitSystemSupport

/// One plugin library, opened, checked and entered. Never closed: the Swift runtime keeps the
/// plugin's protocol-conformance and type-metadata records registered after `dlopen`, so a
/// `dlclose` would leave the runtime pointing into unmapped memory and a later cast or metadata
/// lookup would crash (docs/design.md, plugin boundary; weston and GStreamer likewise keep modules
/// loaded).
final class PluginLibrary {
    /// The path the library was first opened by.
    let path: String
    let realPath: String
    /// The ABI the plugin was built against (`modalkit_style_abi_version`).
    let version: StyleABIVersion
    /// The plugin's own descriptor, passed back to its `create`.
    let descriptor: UnsafePointer<modalkit_style_descriptor>
    /// A copy of the descriptor's first `min(struct_size, sizeof)` bytes, the rest zero, so
    /// that fields newer than the plugin read as NULL (tables only grow at the end).
    let table: modalkit_style_descriptor
    let name: String
    let summary: String
    let options: [StyleOption]

    private init(path: String, realPath: String, version: StyleABIVersion,
                 descriptor: UnsafePointer<modalkit_style_descriptor>, table: modalkit_style_descriptor,
                 name: String, summary: String, options: [StyleOption]) {
        self.path = path; self.realPath = realPath; self.version = version
        self.descriptor = descriptor; self.table = table
        self.name = name; self.summary = summary; self.options = options
    }

    // MARK: Cache

    private static let lock = Lock()
    /// Every library opened in this process, good or bad, by real path: a second lookup (listing
    /// then loading, or the same file on two search-path entries) neither calls `dlopen` nor
    /// runs the entry again, and a bad plugin is remembered with its error (GStreamer's registry
    /// does the same).
    private static var cache: [String: Result<PluginLibrary, StyleLoadError>] = [:]

    /// How many files the cache holds (tests).
    static var cachedCount: Int { lock.lock(); defer { lock.unlock() }; return cache.count }

    /// The real path of an existing file, or the error for a path that cannot be one.
    static func realPath(of path: String) -> Result<String, StyleLoadError> {
        guard let resolved = Glibc.realpath(path, nil) else {
            let code = errno
            if code == ENOTDIR, path.hasSuffix("/") {
                // `libX.so/`: a file named as a directory (a completed path's extra slash).
                var st = stat()
                let file = String(path.reversed().drop(while: { $0 == "/" }).reversed())
                if !file.isEmpty, stat(file, &st) == 0, st.st_mode & S_IFMT == S_IFREG {
                    return .failure(.notAFile(path: path, kind: "a file named as a directory (drop the trailing '/')"))
                }
            }
            if code == ENOENT || code == ENOTDIR { return .failure(.notFound(path: path)) }
            return .failure(.loadFailed(path: path, message: String(cString: strerror(code))))
        }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// Opens (or finds in the cache) the library at `path`, which `StyleLoader` has inspected
    /// on the open `file`: a regular, trusted, complete ELF shared object for this machine. When
    /// the file carries a note, the loaded library must declare exactly what it says (`note`).
    /// - Parameter cached: false for a private copy (`StyleLoader.loadPrivateCopy`): always a new
    ///   object, not remembered under the original's real path.
    static func open(_ path: String, file: OpenedLibrary, note: StyleDeclaration?, cached: Bool = true)
        -> Result<PluginLibrary, StyleLoadError>
    {
        lock.lock(); defer { lock.unlock() }
        let key = file.realPath
        if cached, let hit = cache[key] {
            return hit.mapError { $0.withPath(path) }
        }
        var result = load(path: path, file: file)
        if let note, case let .success(library) = result,
           let mismatch = StyleNoteMismatch.first(note: note, library: library.declaration) {
            result = .failure(.noteMismatch(path: path, mismatch: mismatch))
        }
        if cached {
            // A file that changed before it was loaded was not loaded: a later try may succeed.
            if case .failure(.changedSinceChecked) = result {} else { cache[key] = result }
        }
        return result
    }

    /// What the loaded library declares: its descriptor's name, summary and options, and the ABI
    /// of its version symbol.
    var declaration: StyleDeclaration {
        StyleDeclaration(name: name, summary: summary, abiVersion: version, options: options)
    }

    // MARK: Loading

    /// `dlerror()`'s message, or `fallback` when it has none (then the result was a real NULL).
    private static func takeDLError(_ fallback: String) -> String {
        guard let e = dlerror() else { return fallback }
        return StyleLoadError.oneLine(String(cString: e))
    }

    /// nil when `symbol` (found by dlsym on `handle`) is defined in the handle's own file; else
    /// why it does not count, e.g. "defined only in /x/libModalKitStyleA.so, a library it links".
    private static func foreignDefinition(_ symbol: UnsafeMutableRawPointer, handle: UnsafeMutableRawPointer) -> String? {
        var definer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        switch modalkit_loader_symbol_is_own(handle, symbol, &definer, definer.count) {
        case 1: return nil
        case 0: return "defined only in \(StyleLoadError.oneLine(String(cString: definer))), a library it links"
        default: return "the dynamic loader cannot tell which object defines it"
        }
    }

    /// The checks after the file's own, in order. `dlopen` in step 1 runs the library's ELF
    /// constructors, as for any library (dlopen(3)); its style code runs first in the entry call,
    /// step 5, after the version checks. The host's signal handlers are saved before step 1 and
    /// put back after step 5 (`SignalDispositions`), with one line when the plugin changed them.
    private static func load(path: String, file: OpenedLibrary) -> Result<PluginLibrary, StyleLoadError> {
        let signals = SignalDispositions()
        let result = loadAndEnter(path: path, file: file)
        let changed = signals.restore()
        if !changed.isEmpty {
            PluginDiagnostics.note("style library \(path) changed the handlers of \(changed.joined(separator: ", ")) "
                                   + "when loaded; the host's are restored")
        }
        return result
    }

    private static func loadAndEnter(path: String, file: OpenedLibrary) -> Result<PluginLibrary, StyleLoadError> {
        // 1. dlopen of the open file the checks read (`/proc/self/fd/N`), unless it changed since:
        //    then nothing is loaded. RTLD_NOW: every symbol is bound now, so an unresolved one is
        //    an error here and not a crash at first call; RTLD_LOCAL: the plugin's symbols (its
        //    own copy of ModalKit among them) do not become visible to other plugins. (A file that
        //    is no ELF shared object, one for another machine and one cut short never get here.)
        //    A library that finds libraries it needs through `$ORIGIN` is loaded by a name in a
        //    stand-in for its directory (`OriginStandIn`), still from its descriptor.
        guard file.isUnchanged else { return .failure(.changedSinceChecked(path: path)) }
        var name = file.descriptorPath
        var standIn: OriginStandIn?
        if let dynamic = file.elf?.dynamic, !dynamic.originEntries.isEmpty,
           dynamic.needed.contains(where: { !StyleLoader.isLoaded($0) }) {
            switch OriginStandIn.make(for: file, entries: dynamic.originEntries) {
            case let .success(made): standIn = made; name = made.name
            case let .failure(error): return .failure(error)
            }
        }
        _ = dlerror()
        let opened = dlopen(name, RTLD_NOW | RTLD_LOCAL)
        standIn?.remove()
        guard let handle = opened else {
            var message = takeDLError("dlopen failed").replacingAll(name, with: path)
            if name != file.descriptorPath { message = message.replacingAll(file.descriptorPath, with: path) }
            if message.containsText("undefined symbol") {
                return .failure(.unresolvedSymbol(path: path, message: message))
            }
            return .failure(.loadFailed(path: path, message: message))
        }
        file.keepOpen()

        // 2. The entry and the version symbols exist (dlerror cleared before each dlsym, so a
        //    stale message from an earlier call is never reported: dlsym(3)), defined in this
        //    file itself: dlsym on a handle also searches the library's dependencies, and a
        //    library that only links a style plugin is not that style.
        _ = dlerror()
        guard let entrySymbol = dlsym(handle, StyleABI.entrySymbol) else {
            return .failure(.missingEntry(path: path, symbol: StyleABI.entrySymbol,
                                          message: takeDLError("symbol is NULL")))
        }
        if let notOwn = foreignDefinition(entrySymbol, handle: handle) {
            return .failure(.missingEntry(path: path, symbol: StyleABI.entrySymbol, message: notOwn))
        }
        _ = dlerror()
        guard let versionSymbol = dlsym(handle, StyleABI.versionSymbol) else {
            return .failure(.missingEntry(path: path, symbol: StyleABI.versionSymbol,
                                          message: takeDLError("symbol is NULL")))
        }
        if let notOwn = foreignDefinition(versionSymbol, handle: handle) {
            return .failure(.missingEntry(path: path, symbol: StyleABI.versionSymbol, message: notOwn))
        }

        // 3. The version, read as data: major equal, minor not newer (GStreamer, weston).
        // 4. The size of the descriptor it was built with covers its minor's fields.
        let raw = UnsafeRawPointer(versionSymbol).loadUnaligned(as: modalkit_style_abi_version_t.self)
        let version = StyleABIVersion(major: raw.major, minor: raw.minor)
        let minimum: Int
        switch checkVersion(raw, host: .current, path: path) {
        case let .success(m): minimum = m
        case let .failure(e): return .failure(e)
        }

        // 5. The first plugin code: the entry.
        let entry = unsafeBitCast(entrySymbol, to: modalkit_style_entry_fn.self)
        guard let descriptor = entry() else {
            return .failure(.badDescriptor(path: path, problem: .entryReturnedNull))
        }
        return validate(descriptor, version: version, minimum: minimum, path: path, realPath: file.realPath)
    }

    /// Steps 3 and 4 of loading: whether a plugin whose version symbol reads `raw` may be loaded
    /// by a host speaking `host` — the major equal, the plugin's minor not newer (GStreamer,
    /// weston) and its descriptor at least as large as its minor needs. A host knows the sizes of
    /// its own minors only; a newer minor is refused before its size is looked at.
    /// - Returns: the plugin's minimum descriptor size, bytes.
    static func checkVersion(_ raw: modalkit_style_abi_version_t, host: StyleABIVersion, path: String)
        -> Result<Int, StyleLoadError>
    {
        let version = StyleABIVersion(major: raw.major, minor: raw.minor)
        guard version.major == host.major else {
            return .failure(.abiMismatch(path: path, plugin: version, host: host))
        }
        guard version.minor <= host.minor, let minimum = StyleABI.minimumDescriptorSize(minor: version.minor) else {
            return .failure(.newerMinor(path: path, plugin: version, host: host))
        }
        guard Int(raw.descriptor_size) >= minimum else {
            return .failure(.badStructSize(path: path, size: Int(raw.descriptor_size), minimum: minimum,
                                           version: version))
        }
        return .success(minimum)
    }

    /// Wraps a descriptor made in this process (e.g. by `exportStyle`), with the same checks as
    /// for a loaded plugin but no library behind it. For tests and in-process use; not cached.
    static func adopt(_ descriptor: UnsafeRawPointer, path: String) -> Result<PluginLibrary, StyleLoadError> {
        let version = StyleABIVersion.current
        return validate(descriptor.assumingMemoryBound(to: modalkit_style_descriptor.self), version: version,
                        minimum: StyleABI.minimumDescriptorSize(minor: version.minor)!, path: path, realPath: path)
    }

    /// Checks the descriptor against the header's rules and reads its strings and options.
    private static func validate(_ descriptor: UnsafePointer<modalkit_style_descriptor>, version: StyleABIVersion,
                                 minimum: Int, path: String, realPath: String)
        -> Result<PluginLibrary, StyleLoadError>
    {
        func bad(_ problem: StyleDescriptorProblem) -> Result<PluginLibrary, StyleLoadError> {
            .failure(.badDescriptor(path: path, problem: problem))
        }
        // The three header fields are in every version; read them before trusting the size.
        let head = UnsafeRawPointer(descriptor)
        let major = head.load(fromByteOffset: 0, as: UInt32.self)
        let minor = head.load(fromByteOffset: 4, as: UInt32.self)
        let size = Int(head.load(fromByteOffset: 8, as: UInt32.self))
        guard major == version.major, minor == version.minor else {
            return bad(.versionDisagrees(descriptor: StyleABIVersion(major: major, minor: minor), symbol: version))
        }
        guard size >= minimum else {
            return .failure(.badStructSize(path: path, size: size, minimum: minimum, version: version))
        }
        var table = modalkit_style_descriptor()
        withUnsafeMutableBytes(of: &table) { dst in
            dst.copyMemory(from: UnsafeRawBufferPointer(start: head, count: min(size, dst.count)))
        }

        guard let namePointer = table.name else { return bad(.nullName) }
        let name = String(cString: namePointer)
        guard !name.isEmpty else { return bad(.declaration(.emptyName)) }
        guard !name.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            return bad(.declaration(.malformedName(name)))
        }
        guard let summaryPointer = table.description else { return bad(.nullDescription) }
        let summary = StyleLoadError.oneLine(String(cString: summaryPointer))
        guard table.create != nil, table.destroy != nil, table.frame_of_presented_view != nil,
              table.dimming_appearance != nil else {
            return bad(.missingRequiredFunction)
        }

        var options: [StyleOption] = []
        if table.option_count > 0 {
            guard table.option_count <= 1024 else { return bad(.declaration(.tooManyOptions(table.option_count))) }
            guard let base = table.options else { return bad(.nullOptions(count: table.option_count)) }
            let stride = Int(table.option_size)
            guard stride >= StyleABI.minimumOptionSize else {
                return bad(.optionSizeTooSmall(stride, minimum: StyleABI.minimumOptionSize))
            }
            // The 1.1 fields (unit, accepted values) are read only from a plugin built for 1.1 or
            // later whose entries are that long; a 1.0 plugin's entries end after default_value
            // and what follows one is the next entry, so only those three fields are read.
            let hasMetadata = version.minor >= 1 && stride >= (StyleABI.optionSize(minor: 1) ?? Int.max)
            for i in 0..<table.option_count {
                let entry = UnsafeRawPointer(base).advanced(by: i * stride)
                var o = modalkit_style_option()
                withUnsafeMutableBytes(of: &o) { dst in
                    dst.copyMemory(from: UnsafeRawBufferPointer(
                        start: entry, count: min(hasMetadata ? stride : StyleABI.minimumOptionSize, dst.count)))
                }
                guard let key = o.key.map({ String(cString: $0) }), !key.isEmpty,
                      !key.contains(where: { $0.isWhitespace || $0 == "=" }) else {
                    return bad(.declaration(.malformedKey(index: i, key: o.key.map { String(cString: $0) } ?? "")))
                }
                guard !options.contains(where: { $0.key == key }) else { return bad(.declaration(.duplicateKey(key))) }
                let summary = StyleLoadError.oneLine(o.description.map { String(cString: $0) } ?? "")
                let defaultValue = o.default_value.map { String(cString: $0) } ?? ""
                guard hasMetadata else {
                    options.append(StyleOption(key: key, summary: summary, defaultValue: defaultValue))
                    continue
                }
                switch acceptedValues(of: o, key: key) {
                case let .success(accepted):
                    options.append(StyleOption(key: key, summary: summary, defaultValue: defaultValue,
                                               unit: StyleLoadError.oneLine(o.unit.map { String(cString: $0) } ?? ""),
                                               accepted: accepted))
                case let .failure(reason):
                    return bad(reason)
                }
            }
        }
        return .success(PluginLibrary(path: path, realPath: realPath, version: version, descriptor: descriptor,
                                     table: table, name: name, summary: summary, options: options))
    }

    /// What a 1.1 option record accepts; a failure says why the record is malformed. An unknown
    /// kind (from a later minor) reads as text.
    private static func acceptedValues(of o: modalkit_style_option, key: String) -> Result<StyleOption.Accepted, StyleDescriptorProblem> {
        switch o.kind {
        case MODALKIT_OPTION_NUMBER:
            guard o.minimum.isFinite, o.maximum.isFinite, o.minimum <= o.maximum else {
                return .failure(.badRange(key: key, minimum: o.minimum, maximum: o.maximum))
            }
            return .success(.number(o.minimum...o.maximum))
        case MODALKIT_OPTION_CHOICE:
            guard o.choice_count > 0, o.choice_count <= 256, let words = o.choices else {
                return .failure(.badChoices(key: key, count: o.choice_count, isNull: o.choices == nil))
            }
            var values: [String] = []
            for i in 0..<o.choice_count {
                guard let w = words[i] else { return .failure(.nullChoice(key: key, index: i)) }
                values.append(StyleLoadError.oneLine(String(cString: w)))
            }
            return .success(.choice(values))
        case MODALKIT_OPTION_COLOR: return .success(.color)
        case MODALKIT_OPTION_CURVE: return .success(.curve)
        default:
            return .success(.text(StyleLoadError.oneLine(o.accepted.map { String(cString: $0) } ?? "")))
        }
    }
}
