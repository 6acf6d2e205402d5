import Glibc

/// Where a view is drawn at one moment, relative to its frame: a translation in points, then a
/// scale per axis about an anchor point, and an opacity (0...1). Core Animation's `anchorPoint`
/// rule: the anchor is given in unit coordinates of the view (0,0 top-left, 1,1 bottom-right,
/// default 0.5,0.5 = the centre) and stays fixed while the view scales.
public struct ViewTransform: Hashable, Sendable {
    /// Offset from the frame's origin, points (applied first).
    public var translation: Point
    /// Horizontal scale about `anchor` of the translated frame; 1 = unscaled, ≤ 0 on either axis
    /// hides the view.
    public var scaleX: Double
    /// Vertical scale about `anchor`, as ``scaleX``.
    public var scaleY: Double
    /// The point that stays fixed while scaling, unit coordinates of the view (0...1 each;
    /// values outside are allowed and lie outside the view). Default: the centre (0.5, 0.5).
    public var anchor: Point
    /// Opacity 0...1 (UIKit's `UIView.alpha`); values outside are clamped when drawn.
    public var alpha: Double

    /// A uniform scale about the centre.
    public init(translation: Point = .zero, scale: Double = 1, alpha: Double = 1) {
        self.init(translation: translation, scaleX: scale, scaleY: scale, anchor: Point(x: 0.5, y: 0.5), alpha: alpha)
    }

    /// A scale per axis about `anchor` (unit coordinates of the view).
    public init(translation: Point = .zero, scaleX: Double, scaleY: Double,
                anchor: Point = Point(x: 0.5, y: 0.5), alpha: Double = 1) {
        self.translation = translation; self.scaleX = scaleX; self.scaleY = scaleY
        self.anchor = anchor; self.alpha = alpha
    }

    /// The uniform scale: reading gives `scaleX` (equal to `scaleY` for a uniform transform);
    /// setting sets both axes.
    public var scale: Double {
        get { scaleX }
        set { scaleX = newValue; scaleY = newValue }
    }

    /// Whether both axes are unscaled.
    public var isUnscaled: Bool { scaleX == 1 && scaleY == 1 }

    /// No transform: no translation, scale 1, opacity 1.
    public static let identity = ViewTransform()
}
