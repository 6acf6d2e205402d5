import Glibc

/// The dimming view's look at one moment: a fill (one colour, or a linear gradient) and the
/// view's alpha. The rendered dim covers the whole container bounds and is the fill × `alpha`:
/// `color.multipliedAlpha(by: alpha)` for a solid fill; for a gradient every stop's colour × `alpha`.
public struct DimmingAppearance: Hashable, Sendable {
    /// The dimming view's background colour, premultiplied (black for both built-in styles).
    /// Ignored when `gradient` is set.
    public var color: Color
    /// The dimming view's `alpha`, 0...1 (UIKit's `UIView.alpha`).
    public var alpha: Double
    /// A linear gradient fill instead of `color` (CAGradientLayer as the dimming view), or nil.
    public var gradient: LinearGradient?
    /// A solid dim of `color` at `alpha` (0...1).
    public init(color: Color, alpha: Double) { self.color = color; self.alpha = alpha; self.gradient = nil }
    /// A gradient dim: `gradient` × `alpha`.
    public init(gradient: LinearGradient, alpha: Double) {
        self.color = .clear; self.alpha = alpha; self.gradient = gradient
    }
    /// No dim: clear, alpha 0.
    public static let none = DimmingAppearance(color: .clear, alpha: 0)
}
