import CModalKitStyle
import Foundation

/// Everything found on a search path: what `--list-styles` prints.
public struct StyleListing {
    /// One module per style name, the first on the search path, in search order.
    public var found: [StyleModule] = []
    /// Later libraries declaring a name already found.
    public var shadowed: [ShadowedStyle] = []
    /// Candidate files that could not be loaded, with why.
    public var failed: [(path: String, error: StyleLoadError)] = []
}

/// A style hidden by another of the same name earlier on the search path.
public struct ShadowedStyle {
    /// The hidden library.
    public let module: StyleModule
    /// The path of the library that wins (`--style NAME` loads that one).
    public let shadowedBy: String
}
