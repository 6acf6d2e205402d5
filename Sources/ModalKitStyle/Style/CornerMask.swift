import Glibc

/// Which corners of the presented view are rounded (UIKit's `CACornerMask`).
public struct CornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The top-left corner.
    public static let topLeft = CornerMask(rawValue: 1)
    /// The top-right corner.
    public static let topRight = CornerMask(rawValue: 2)
    /// The bottom-left corner.
    public static let bottomLeft = CornerMask(rawValue: 4)
    /// The bottom-right corner.
    public static let bottomRight = CornerMask(rawValue: 8)
    /// All four corners.
    public static let all: CornerMask = [.topLeft, .topRight, .bottomLeft, .bottomRight]
    /// The two top corners (a bottom sheet's).
    public static let top: CornerMask = [.topLeft, .topRight]
}
