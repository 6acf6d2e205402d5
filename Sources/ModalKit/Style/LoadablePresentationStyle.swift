import Glibc

/// A style that can be selected by name and built as a plugin (`exportStyle(_:)`): its name,
/// its one-line summary, its options, and how it is created from them.
public protocol LoadablePresentationStyle: PresentationStyle {
    /// The name users pass to `--style`, lower-case with dashes, e.g. `inset-centered`.
    static var name: String { get }
    /// One line for `--list-styles`.
    static var summary: String { get }
    /// The options the style accepts, with defaults. Keys outside this list are rejected before
    /// `init(options:)` is called.
    static var options: [StyleOption] { get }

    /// Creates the style from its options (defaults already filled in).
    /// - Throws: `StyleOptionError.badValue` for a value out of range or that does not parse.
    init(options: StyleOptions) throws
}
