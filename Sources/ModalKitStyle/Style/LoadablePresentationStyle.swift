import Glibc

/// A style that can be selected by name and built as a plugin (``exportStyle(_:)``): its name, its
/// one-line summary, its options, and how a ``PresentationStyle`` is made from them. Conform a
/// caseless `enum` (it is never instantiated):
///
/// ```swift
/// public enum FadeStyle: LoadablePresentationStyle {
///     public static let name = "fade"
///     public static let summary = "full-window view that fades in"
///     public static let options: [StyleOption] = [.duration()]
///     public static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
///         let style = PresentationStyle(transitionDuration: try options.duration())
///         style.presentedViewTransform = { progress, _, _ in ViewTransform(alpha: progress) }
///         return style
///     }
/// }
/// ```
///
/// Every requirement is required: a misspelled one leaves the type not conforming, a compile
/// error naming the missing member.
public protocol LoadablePresentationStyle {
    /// The name users pass to `--style`, lower-case with dashes, e.g. `inset-centered`.
    static var name: String { get }
    /// One line for `--list-styles`.
    static var summary: String { get }
    /// The options the style accepts, with defaults. Keys outside this list are rejected before
    /// ``makeStyle(options:)`` is called.
    static var options: [StyleOption] { get }

    /// Creates a style instance from its options (defaults already filled in); called once per
    /// presentation level that uses the style.
    /// - Throws: `StyleOptionError.badValue` for a value out of range or that does not parse
    ///   (its one line is what `modal-demo` prints, exit status 2).
    static func makeStyle(options: StyleOptions) throws -> PresentationStyle
}
