import CModalKitPixman
import ModalKit
import ModalKitText

/// How a piece of text looks: its size in points, its weight and its colour. A font of this style
/// at a draw scale has `points × scale` pixels, rounded half away from zero (fcft sizes fonts in
/// whole pixels): 17 pt at scale 1.5 is 26 px.
public struct TextStyle: Hashable, Sendable {
    /// The em size, points.
    public var points: Double
    /// Bold (fontconfig's `weight=bold`) or regular.
    public var isBold: Bool
    /// The text's colour, premultiplied.
    public var color: Color

    /// - Parameters:
    ///   - points: the em size, points (> 0).
    ///   - isBold: bold rather than regular.
    ///   - color: the text's colour.
    public init(points: Double, isBold: Bool = false, color: Color = TextStyle.primaryColor) {
        self.points = points
        self.isBold = isBold
        self.color = color
    }

    /// The fontconfig pattern of the style's font: `sans-serif`, or `sans-serif:weight=bold`.
    /// fontconfig falls back per character to a font that has it (CJK, Arabic, emoji), when one is installed.
    public var pattern: String { isBold ? "sans-serif:weight=bold" : "sans-serif" }

    /// Near-black text on light backgrounds (libadwaita's `window_fg_color` at 80 %).
    public static let primaryColor = Color(rgb: 0x1E1E1E)
    /// Grey secondary text: a list row's detail (UIKit's `secondaryLabel` on white).
    public static let secondaryColor = Color(rgb: 0x6E6E73)

    /// An alert's title: 17 pt bold (UIKit's alert title; libadwaita's heading).
    public static let title = TextStyle(points: 17, isBold: true)
    /// Running text: an alert's message, 15 pt.
    public static let body = TextStyle(points: 15)
    /// A button's label: 15 pt bold.
    public static let button = TextStyle(points: 15, isBold: true)
    /// A list row's title: 17 pt (UIKit's table cell body text).
    public static let row = TextStyle(points: 17)
    /// A list row's detail: 15 pt grey.
    public static let detail = TextStyle(points: 15, color: TextStyle.secondaryColor)

    /// The style's font at `scale` buffer pixels per point, made on first use and kept for the
    /// process (main thread only); nil when fontconfig/fcft cannot provide it (no font installed,
    /// fcft missing), in which case text measures 0 and draws nothing.
    public func font(scale: Double) -> PixmanFont? {
        FontCache.font(pattern: pattern, points: points, scale: scale)
    }

    /// Makes `font` the font of every text style whose ``pattern`` is `pattern` at the font's
    /// `PixmanFont.pixelSize`, in place of one made on first use: an app that loads its fonts
    /// ahead (on a thread while its window connects, as foot does) hands them over, so its content
    /// draws with those very faces and loads none again. The font must have been made with
    /// `pattern`, kerning on and the default shaping (as ``font(scale:)`` makes them), and be
    /// used on the main thread from now on. Kept for the process. Main thread only.
    public static func provide(_ font: PixmanFont, pattern: String) {
        FontCache.provide(font, pattern: pattern)
    }
}

/// The fonts text styles use, by pattern and pixel size. Main thread only (as content is).
enum FontCache {
    /// A font asked for: its pattern and pixel size (hashed as they are: no string built per lookup).
    private struct Key: Hashable {
        let pattern: String
        let size: Int
    }
    private static var fonts: [Key: PixmanFont] = [:]
    private static var unavailable: Set<Key> = []

    static func font(pattern: String, points: Double, scale: Double) -> PixmanFont? {
        let pixels = (points * scale).rounded(.toNearestOrAwayFromZero)
        let size = pixels.isFinite ? Int(max(1, min(pixels, 4096))) : 1
        let key = Key(pattern: pattern, size: size)
        if let font = fonts[key] { return font }
        if unavailable.contains(key) { return nil }
        guard let font = try? PixmanFont(pattern: pattern, pixelSize: size) else {
            unavailable.insert(key)
            return nil
        }
        fonts[key] = font
        return font
    }

    static func provide(_ font: PixmanFont, pattern: String) {
        let key = Key(pattern: pattern, size: font.pixelSize)
        fonts[key] = font
        unavailable.remove(key)
    }
}

/// Fills the whole-pixel box `x, y, width, height` (buffer pixels, clipped to the image) with the
/// opaque `color`, replacing what was there (no anti-aliasing, no allocation).
func fillBox(_ image: OpaquePointer, x: Int, y: Int, width: Int, height: Int, color: Color) {
    let size = Draw.pixelSize(of: image)
    var box = pixman_box32_t(x1: Int32(max(0, x)), y1: Int32(max(0, y)),
                             x2: Int32(min(size.width, x + width)), y2: Int32(min(size.height, y + height)))
    guard box.x2 > box.x1, box.y2 > box.y1 else { return }
    var pc = color.pixmanColor
    _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &pc, 1, &box)
}

/// A length in points as whole buffer pixels at `scale` (rounded to nearest).
@inline(__always)
func px(_ points: Double, _ scale: Double) -> Int { Int((points * scale).rounded()) }
