import CModalKitStyle
import Glibc
import ModalKitStyle

/// A loaded, version-checked style library: what `--style` selects. Creating styles from it goes
/// through the plugin's C function table.
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
    /// Where the loader read the declaration before loading it: the library's note, or (a
    /// library without one) its descriptor.
    public let metadataSource: StyleMetadata.Source
    /// Libraries later on the search path that declare the same name, which this one shadows
    /// (a name lookup; empty for a path). Only those whose note says so are known: a library
    /// without a note after the chosen one is not loaded to ask.
    public let shadowed: [String]

    let library: PluginLibrary

    init(library: PluginLibrary, path: String, metadataSource: StyleMetadata.Source = .descriptor, shadowed: [String] = []) {
        self.library = library
        self.name = library.name
        self.summary = library.summary
        self.path = path
        self.options = library.options
        self.abiVersion = library.version
        self.metadataSource = metadataSource
        self.shadowed = shadowed
    }

    /// Name, summary, ABI and options.
    public var declaration: StyleDeclaration {
        StyleDeclaration(name: name, summary: summary, abiVersion: abiVersion, options: options)
    }

    /// Creates a style instance with `given` options: the style's own settings by key, each value
    /// a string — from code exactly as on the command line (`--style-option KEY=VALUE`). Every key
    /// the style declares is in ``options`` with its default, its unit and what it accepts
    /// (`modal-demo --describe-style NAME` prints them); a key left out takes its default. The
    /// built-in styles share `duration` (seconds), `curve` (`ease-in-out`, `linear`,
    /// `cubic-bezier(…)`, `spring(…)`), and the interactive ones `detents`, `undimmed-detent`,
    /// `dismissible` (article "Built-in styles"). A bottom sheet with two detents:
    ///
    /// ```swift
    /// let module = try StyleLoader(searchPath: StyleLoader.defaultSearchPath()).load("bottom-sheet")
    /// let sheet = try module.makeStyle(options: ["detents": "0.5,0.9"])
    /// ```
    ///
    /// Keys are checked against ``options`` here, before any plugin code runs; then the plugin's
    /// `create` checks the values (`makeStyle(options:)`). Each call makes a new style object (a style
    /// object's hooks see one presentation at a time: give each level of a stack its own).
    /// - Parameter given: option keys and values, as strings.
    /// - Throws: `StyleLoadError.unknownOption` for an undeclared key (the first in sorted
    ///   order), `StyleLoadError.optionsRejected` with the plugin's one-line message when
    ///   `create` fails (e.g. a bad value); both list the style's keys.
    public func makeStyle(options given: [String: String] = [:]) throws -> PresentationStyle {
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
        // The plugin's `create` runs here: the host's signal handlers are put back after it, as
        // after loading (`SignalDispositions`).
        let signals = SignalDispositions()
        defer {
            let changed = signals.restore()
            if !changed.isEmpty {
                PluginDiagnostics.note("style library \(path) changed the handlers of \(changed.joined(separator: ", ")) "
                                       + "in create(); the host's are restored")
            }
        }
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
        return PluginHostStyle.make(library: library, instance: instance)
    }
}
