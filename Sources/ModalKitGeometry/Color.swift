/// A colour with premultiplied alpha, components in 0...1 (pixman's and `WL_SHM_FORMAT_ARGB8888`'s
/// convention: each colour component is already multiplied by `alpha`).
public struct Color: Hashable, Sendable {
    /// Red, premultiplied by ``alpha``, 0...1.
    public var red: Double
    /// Green, premultiplied by ``alpha``, 0...1.
    public var green: Double
    /// Blue, premultiplied by ``alpha``, 0...1.
    public var blue: Double
    /// Opacity, 0 (transparent) ... 1 (opaque).
    public var alpha: Double

    /// A colour from premultiplied components.
    public init(premultipliedRed red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A colour from straight (unpremultiplied) components, as designers and UIKit's `UIColor` give them.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.init(premultipliedRed: red * alpha, green: green * alpha, blue: blue * alpha, alpha: alpha)
    }

    /// An opaque colour from a 0xRRGGBB value.
    public init(rgb: UInt32) {
        self.init(red: Double((rgb >> 16) & 0xff) / 255, green: Double((rgb >> 8) & 0xff) / 255,
                  blue: Double(rgb & 0xff) / 255)
    }

    /// A colour from a 32-bit premultiplied ARGB word (`0xAARRGGBB`, `PIXMAN_a8r8g8b8`: each colour
    /// byte already multiplied by alpha), each byte ÷ 255; ``argb32`` gives the word back.
    public init(argb32: UInt32) {
        func c(_ shift: UInt32) -> Double { Double((argb32 >> shift) & 0xff) / 255 }
        self.init(premultipliedRed: c(16), green: c(8), blue: c(0), alpha: c(24))
    }

    /// Transparent: all four components 0.
    public static let clear = Color(premultipliedRed: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)

    /// This colour with its opacity multiplied by `factor` (UIKit's `withAlphaComponent` on a
    /// view's alpha): all four premultiplied components scale together.
    public func multipliedAlpha(by factor: Double) -> Color {
        Color(premultipliedRed: red * factor, green: green * factor, blue: blue * factor, alpha: alpha * factor)
    }

    /// The 32-bit premultiplied ARGB value (`PIXMAN_a8r8g8b8`), each component rounded.
    public var argb32: UInt32 {
        func c(_ v: Double) -> UInt32 { v.isNaN ? 0 : UInt32((min(max(v, 0), 1) * 255).rounded()) }
        return c(alpha) << 24 | c(red) << 16 | c(green) << 8 | c(blue)
    }
}
