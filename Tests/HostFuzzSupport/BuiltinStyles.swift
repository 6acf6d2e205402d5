import Foundation
import ModalKit

/// The real built-in styles for the fuzz tests, loaded in process through ``StyleLoader`` from the
/// products directory (`swift build` puts `libModalKitStyle*.so` next to the test binary), so the
/// tests drive the very code `modal-demo --style NAME` runs, through the plugin ABI.
///
/// ``make(_:options:)`` is the one place a style is made: when the built-in styles become plain
/// library targets, its body becomes a direct initialiser call.
public enum BuiltinStyles {
    /// The names of the built-in styles.
    public static let names = ["inset-centered", "bottom-sheet", "popover", "adaptive"]

    /// A new instance of built-in style `name` with `options` (keys and values as on the command line).
    /// - Throws: `StyleLoadError` when the plugin is not built or rejects the options.
    public static func make(_ name: String, options: [String: String] = [:]) throws -> any PresentationStyle {
        try module(name).makeStyle(options: options)
    }

    /// The default the style declares for `key` (its option table), or nil.
    public static func declaredDefault(_ name: String, _ key: String) -> String? {
        (try? module(name))?.options.first { $0.key == key }?.defaultValue
    }

    /// The directory of the running test binary: SwiftPM's products directory.
    public static var productsDirectory: String {
        let exe = StyleLoader.currentExecutablePath() ?? CommandLine.arguments[0]
        return (exe as NSString).deletingLastPathComponent
    }

    private static var modules: [String: StyleModule] = [:]

    static func module(_ name: String) throws -> StyleModule {
        if let m = modules[name] { return m }
        do {
            let m = try StyleLoader(searchPath: [productsDirectory]).load(name)
            modules[name] = m
            return m
        } catch {
            throw BuiltinStyleUnavailable(name: name, directory: productsDirectory, reason: "\(error)")
        }
    }
}

/// A built-in style plugin that is not in the products directory (`swift build` first).
public struct BuiltinStyleUnavailable: Error, CustomStringConvertible {
    public var name: String, directory: String, reason: String
    public var description: String {
        "the built-in style \(name) is not built in \(directory) (run `swift build` first): \(reason)"
    }
}
