// Geometry in points (logical coordinates, the units of UIKit and of Wayland's surface-local
// coordinates). Buffer pixels are points × a scale — an integer (`wl_output.scale`) or a fraction
// (a compositor's fractional scale, e.g. 1.5); conversion is explicit through `scaled(by:)` and
// `pixelLength(_:scale:)` so no value is ever ambiguous about its unit.

/// A length in points × `scale`, in whole buffer pixels: rounded half away from zero — the rule
/// Wayland's fractional-scale protocol gives for a window's buffer size (100 × 50 points at 1.5 →
/// 150 × 75 pixels; 101 points → 151.5 → 152). A product within 1e-9 of a half counts as a half,
/// so a scale of n/120 held as a `Double` rounds exactly as the fraction does. At least 1 for a
/// positive length; exact (points × scale) for whole numbers.
///
/// - Parameters:
///   - points: a length in points (≥ 0).
///   - scale: buffer pixels per point (> 0).
public func pixelLength(_ points: Double, scale: Double) -> Int {
    let exact = points * scale
    let whole = exact.rounded(.down)
    let rounded = abs(exact - whole - 0.5) < 1e-9 ? whole + 1 : exact.rounded()
    return points > 0 ? max(1, Int(rounded)) : Int(rounded)
}

/// A point in the container's coordinate space, in points. Origin top-left, y grows downwards.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }
}

/// A size in points. Never negative once it has passed through `Rect`'s initialisers.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)x\(height)" }

    /// The buffer size in pixels at `scale`: each side ``pixelLength(_:scale:)``.
    public func pixelSize(scale: Double) -> (width: Int, height: Int) {
        (pixelLength(width, scale: scale), pixelLength(height, scale: scale))
    }
}

/// An axis-aligned rectangle in points (UIKit's `CGRect`), origin at its top-left corner.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.origin = Point(x: x, y: y)
        self.size = Size(width: width, height: height)
    }
    /// The rectangle at the origin with the given size: a container's bounds.
    public init(size: Size) { self.init(origin: .zero, size: size) }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// Whether `p` lies inside, counting the top and left edges but not the bottom and right
    /// ones (so adjacent rectangles never both contain a point).
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// This rectangle moved by (dx, dy) points.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// This rectangle with each edge moved inwards by the given amounts (negative grows it).
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }

    /// The rectangle in buffer pixels for an integer output scale.
    public func scaled(by scale: Int) -> Rect {
        scaled(by: Double(scale))
    }

    /// The rectangle in buffer pixels (not rounded) for a scale that may be fractional.
    public func scaled(by scale: Double) -> Rect {
        Rect(x: minX * scale, y: minY * scale, width: width * scale, height: height * scale)
    }

    /// Each edge moved to the nearest whole number (halves away from zero): a pixel rectangle
    /// whose edges are sharp. Unchanged when the edges already are whole.
    public var snappedToPixels: Rect {
        let x0 = minX.rounded(), y0 = minY.rounded()
        return Rect(x: x0, y: y0, width: maxX.rounded() - x0, height: maxY.rounded() - y0)
    }

    /// The overlap of two rectangles, `.zero` when they do not overlap (touching edges do not).
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        if x1 <= x0 || y1 <= y0 { return .zero }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle containing both (an empty operand is ignored).
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    public var description: String { "(\(minX), \(minY), \(width), \(height))" }
}

/// A colour with premultiplied alpha, components in 0...1 (pixman's and `WL_SHM_FORMAT_ARGB8888`'s
/// convention: each colour component is already multiplied by `alpha`).
public struct Color: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
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

    public static let clear = Color(premultipliedRed: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
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
