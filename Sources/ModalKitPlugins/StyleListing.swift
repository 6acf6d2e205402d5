import Glibc
import ModalKitStyle

/// A style library found, with what it declares and where that was read from.
public struct StyleMetadata: Hashable, Sendable {
    /// Where a declaration was read from.
    public enum Source: Hashable, Sendable {
        /// The library's ELF note (`StyleNote`): read from the file, nothing of the library ran.
        case note
        /// The descriptor its entry returned: a library without a note (built before ModalKit
        /// wrote one), loaded to read it — its constructors and entry ran.
        case descriptor
    }

    /// The library file, as found on the search path or as given.
    public let path: String
    /// What the library declares: name, summary, ABI version and options.
    public let declaration: StyleDeclaration
    /// Where ``declaration`` was read from.
    public let source: Source

    /// Metadata of the library at `path`.
    public init(path: String, declaration: StyleDeclaration, source: Source) {
        self.path = path; self.declaration = declaration; self.source = source
    }

    /// The style's name (`--style NAME`).
    public var name: String { declaration.name }
    /// Its one-line summary.
    public var summary: String { declaration.summary }
    /// The style ABI the library was built against.
    public var abiVersion: StyleABIVersion { declaration.abiVersion }
    /// Its options, in the style's order.
    public var options: [StyleOption] { declaration.options }
}

/// Everything found on a search path (`StyleLoader.list()`), each library once, by kind. Reading
/// it ran no code of any library.
public struct StyleListing {
    /// One library per style name, the first on the search path, in search order.
    public var found: [StyleMetadata] = []
    /// Later libraries declaring a name already found.
    public var shadowed: [ShadowedStyle] = []
    /// Paths of libraries without a style note (ABI 1.0 and 1.1 libraries, C plugins writing
    /// none), in search order: nothing of them was read but their ELF headers, and they are
    /// loaded only when named by their path (`--style PATH`).
    public var withoutNote: [String] = []
    /// Candidates not trusted (`StyleTrust`): nothing of them was read or run.
    public var refused: [RefusedStyleLibrary] = []
    /// Candidates that could not be read or loaded, with why.
    public var failed: [FailedStyleLibrary] = []

    /// An empty listing.
    public init() {}
}

/// A style hidden by another of the same name earlier on the search path.
public struct ShadowedStyle: Hashable, Sendable {
    /// The hidden library.
    public let style: StyleMetadata
    /// The path of the library that wins (`--style NAME` loads that one).
    public let shadowedBy: String

    /// `style`, hidden by the library at `shadowedBy`.
    public init(style: StyleMetadata, shadowedBy: String) { self.style = style; self.shadowedBy = shadowedBy }
}

/// A candidate library the trust rule refuses.
public struct RefusedStyleLibrary: Hashable, Sendable {
    /// The library file.
    public let path: String
    /// The rule it breaks (``StyleTrust``).
    public let violation: StyleTrustViolation

    /// The library at `path`, refused for `violation`.
    public init(path: String, violation: StyleTrustViolation) { self.path = path; self.violation = violation }
}

/// A candidate library that could not be read or loaded.
public struct FailedStyleLibrary: Hashable, Sendable {
    /// The library file.
    public let path: String
    /// Why it could not be read or loaded.
    public let error: StyleLoadError

    /// The library at `path`, which failed with `error`.
    public init(path: String, error: StyleLoadError) { self.path = path; self.error = error }
}
