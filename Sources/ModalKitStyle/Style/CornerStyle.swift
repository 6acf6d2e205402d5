import Glibc

/// The presented view's shape: corner radius in points, and which corners it applies to.
/// Content is clipped to it (UIKit's `layer.cornerRadius` + `masksToBounds`).
public struct CornerStyle: Hashable, Sendable {
    /// Corner radius in points; clamped to half the shorter side when drawn (Core Animation's rule).
    public var radius: Double
    /// The corners the radius applies to; the others stay square.
    public var corners: CornerMask
    /// Corners of `radius` points on `corners`.
    public init(radius: Double, corners: CornerMask = .all) { self.radius = radius; self.corners = corners }
    /// No rounded corner.
    public static let square = CornerStyle(radius: 0, corners: [])
    /// The radius of the top corners (0 when neither is rounded), points.
    public var topRadius: Double { corners.isDisjoint(with: .top) ? 0 : radius }
    /// The radius of the bottom corners (0 when neither is rounded), points.
    public var bottomRadius: Double { corners.isDisjoint(with: [.bottomLeft, .bottomRight]) ? 0 : radius }
}
