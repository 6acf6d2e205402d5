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
