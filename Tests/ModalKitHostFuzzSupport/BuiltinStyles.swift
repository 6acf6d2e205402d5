import ModalKitAdaptiveStyle
import ModalKitAlertStyle
import ModalKitBottomSheetStyle
import ModalKitInsetCenteredStyle
import ModalKit
import ModalKitPopoverStyle
/// The real built-in styles for the fuzz tests: the style types the plugins ship (`Plugins/…`),
/// created in process with their options as on the command line (`--style-option`).
public enum BuiltinStyles {
    /// The names of the built-in styles.
    public static let names = ["inset-centered", "bottom-sheet", "popover", "adaptive", "alert"]

    /// A new instance of built-in style `name` with `options` (keys and values as on the command line).
    /// - Throws: `StyleOptionError` for an unknown key or a bad value, as the plugins do;
    ///   ``UnknownBuiltinStyle`` for a name that is not a built-in style.
    public static func make(_ name: String, options: [String: String] = [:]) throws -> PresentationStyle {
        let type = try styleType(name)
        return try type.makeStyle(options: StyleOptions(options, declared: type.options))
    }

    /// The keys built-in style `name` declares, in its order.
    /// - Throws: ``UnknownBuiltinStyle`` for a name that is not a built-in style.
    public static func declaredKeys(_ name: String) throws -> [String] { try styleType(name).options.map(\.key) }

    /// The default the style declares for `key` (its option table), or nil.
    public static func declaredDefault(_ name: String, _ key: String) -> String? {
        (try? styleType(name))?.options.first { $0.key == key }?.defaultValue
    }

    static func styleType(_ name: String) throws -> any LoadablePresentationStyle.Type {
        switch name {
        case InsetCenteredStyle.name: return InsetCenteredStyle.self
        case BottomSheetStyle.name: return BottomSheetStyle.self
        case PopoverStyle.name: return PopoverStyle.self
        case AdaptiveStyle.name: return AdaptiveStyle.self
        case AlertStyle.name: return AlertStyle.self
        default: throw UnknownBuiltinStyle(name: name)
        }
    }
}

/// The two built-in styles the unit tests check every geometry and pixel rule on (`allCases`), by
/// name: the real style types, created in process like ``BuiltinStyles/make(_:options:)``.
public enum BuiltinStyle: String, CaseIterable {
    case insetCentered = "inset-centered"
    case bottomSheet = "bottom-sheet"

    /// The style with its declared defaults overridden by `options` (keys and values as
    /// `--style-option` gives them).
    /// - Throws: `StyleOptionError` for an unknown key or a bad value, as the plugins do.
    public func make(options: [String: String] = [:]) throws -> PresentationStyle {
        try BuiltinStyles.make(rawValue, options: options)
    }
}

/// A name that is not one of the built-in styles.
public struct UnknownBuiltinStyle: Error, CustomStringConvertible {
    public var name: String
    public var description: String { "\(name) is not a built-in style (\(BuiltinStyles.names.joined(separator: ", ")))" }
}
