import CModalKitStyle
import Glibc

/// A version of the style-plugin C ABI (`modalkit_style.h`). Compatibility follows GStreamer
/// and weston practice: the major must be equal, the plugin's minor not newer than the host's,
/// and structs only grow at the end within one major.
public struct StyleABIVersion: Hashable, Sendable, CustomStringConvertible {
    /// The major version: a plugin loads only into a host of the same major.
    public var major: UInt32
    /// The minor version: a host loads plugins of its major built for this minor or an older one.
    public var minor: UInt32
    /// The version `major.minor`.
    public init(major: UInt32, minor: UInt32) { self.major = major; self.minor = minor }

    /// The ABI this build of ModalKit speaks, as host and as plugin
    /// (`MODALKIT_STYLE_ABI_MAJOR`.`MODALKIT_STYLE_ABI_MINOR`).
    public static let current = StyleABIVersion(major: UInt32(MODALKIT_STYLE_ABI_MAJOR),
                                                minor: UInt32(MODALKIT_STYLE_ABI_MINOR))

    /// "1.1".
    public var description: String { "\(major).\(minor)" }
}
