import ModalKit
import ModalKitPlugins

/// A presentation style, chosen by name (a style library found and loaded through ModalKit's
/// `StyleLoader`) or given as an object. A string literal is a name: `"bottom-sheet"`.
///
/// Names are searched in `MODALKIT_STYLE_PATH`, then next to the executable; an argument containing
/// a `/` is a path (`StyleLoader/defaultSearchPath(environment:executablePath:)`; article "Built-in styles").
/// Options are the style's own (`modal-demo --describe-style NAME` lists them), as strings, the same
/// as `--style-option KEY=VALUE`: e.g. `["detents": "0.5,0.9"]` for `bottom-sheet`.
public enum StyleChoice: ExpressibleByStringLiteral {
    /// The style library `name` (or at a path), created with `options`.
    case named(String, options: [String: String] = [:])
    /// A style object: one made in the app (a type conforming to `PresentationStyle`) or loaded before.
    case object(PresentationStyle)

    public init(stringLiteral name: String) { self = .named(name) }

    /// The style: the object, or a new one from the named library with the options.
    /// - Throws: `StyleLoadError` when the library is not found, does not load or has an
    ///   incompatible ABI; `StyleOptionError` for an unknown option or a bad value.
    public func makeStyle() throws -> PresentationStyle {
        switch self {
        case let .object(style):
            return style
        case let .named(name, options):
            return try StyleLoader(searchPath: StyleLoader.defaultSearchPath()).load(name).makeStyle(options: options)
        }
    }
}
