import CFcft
import CPixman
import Foundation

/// Why the demo scene could not be set up.
public enum SceneError: Error, Equatable, CustomStringConvertible {
    /// fcft/fontconfig found no font for the pattern (e.g. no fonts installed, or no fontconfig
    /// configuration). `pattern` is the fontconfig pattern that was asked for.
    case fontUnavailable(pattern: String)
    /// `fcft_init` failed.
    case textLibraryUnavailable

    public var description: String {
        switch self {
        case let .fontUnavailable(pattern):
            return "cannot load font '\(pattern)' through fontconfig (is a font such as fonts-dejavu-core installed?)"
        case .textLibraryUnavailable:
            return "cannot initialise fcft (text rendering library)"
        }
    }
}

/// fcft must be initialised once per process before any font is created (fcft.h). Swift runs a
/// global's initialiser exactly once, lazily, thread-safely. fcft's own logging is off: a font that
/// cannot be loaded surfaces as one `SceneError` line instead of fcft's extra "err:" line.
private let fcftInitialized: Bool = fcft_init(FCFT_LOG_COLORIZE_NEVER, false, FCFT_LOG_CLASS_NONE)

/// One fcft font at one pixel size (pixel size = points × scale, rounded to a whole pixel).
final class Font {
    let font: UnsafeMutablePointer<fcft_font>

    /// - Parameters:
    ///   - pattern: a fontconfig pattern, e.g. `sans-serif` or `sans-serif:weight=bold`.
    ///   - pixelSize: the em size in buffer pixels.
    /// - Throws: `SceneError.fontUnavailable` when fontconfig/fcft cannot provide it.
    init(pattern: String, pixelSize: Int) throws {
        guard fcftInitialized else { throw SceneError.textLibraryUnavailable }
        let made: UnsafeMutablePointer<fcft_font>? = pattern.withCString { name in
            var names: [UnsafePointer<CChar>?] = [name]
            return names.withUnsafeMutableBufferPointer { buf in
                fcft_from_name(1, buf.baseAddress!, "pixelsize=\(max(1, pixelSize))")
            }
        }
        guard let made else { throw SceneError.fontUnavailable(pattern: pattern) }
        self.font = made
    }

    deinit { fcft_destroy(font) }

    var ascent: Int { Int(font.pointee.ascent) }
    var descent: Int { Int(font.pointee.descent) }

    /// A shaped string: each glyph with the kerning (x, buffer pixels) applied before it.
    private typealias GlyphRun = [(glyph: UnsafePointer<fcft_glyph>, kern: Int)]

    private func glyphs(_ text: String) -> GlyphRun {
        var out: GlyphRun = []
        var previous: UInt32?
        for scalar in text.unicodeScalars {
            guard let g = fcft_rasterize_char_utf32(font, scalar.value, FCFT_SUBPIXEL_NONE) else { continue }
            var kx = 0, ky = 0
            if let p = previous, !fcft_kerning(font, p, scalar.value, &kx, &ky) { kx = 0 }
            out.append((g, kx))
            previous = scalar.value
        }
        return out
    }

    /// The advance width of a shaped string, buffer pixels.
    private func width(of run: GlyphRun) -> Int {
        run.reduce(0) { $0 + $1.kern + Int($1.glyph.pointee.advance.x) }
    }

    /// Draws `text` with its baseline at `baseline` and its origin at `x` (buffer pixels), OVER `dst`.
    /// Grayscale glyphs (`PIXMAN_a8`) are composited as masks of a solid `color`; colour glyphs
    /// (`PIXMAN_a8r8g8b8`, e.g. emoji) are composited as they are.
    func draw(_ text: String, into dst: OpaquePointer, x: Int, baseline: Int, color: Color) {
        draw(glyphs(text), into: dst, x: x, baseline: baseline, color: color)
    }

    private func draw(_ run: GlyphRun, into dst: OpaquePointer, x: Int, baseline: Int, color: Color) {
        var pc = color.pixmanColor
        guard let solid = pixman_image_create_solid_fill(&pc) else { return }
        defer { pixman_image_unref(solid) }
        var pen = x
        for (glyph, kern) in run {
            pen += kern
            let g = glyph.pointee
            if let pix = g.pix {
                let gx = Int32(pen + Int(g.x)), gy = Int32(baseline - Int(g.y))
                if pixman_image_get_format(pix) == PIXMAN_a8r8g8b8 {
                    pixman_image_composite32(PIXMAN_OP_OVER, pix, nil, dst, 0, 0, 0, 0, gx, gy,
                                             g.width, g.height)
                } else {
                    pixman_image_composite32(PIXMAN_OP_OVER, solid, pix, dst, 0, 0, 0, 0, gx, gy,
                                             g.width, g.height)
                }
            }
            pen += Int(g.advance.x)
        }
    }

    /// Draws `text` centred horizontally on `centerX` and vertically on `centerY` (the middle of the
    /// ascent–descent box), buffer pixels.
    func drawCentered(_ text: String, into dst: OpaquePointer, centerX: Double, centerY: Double, color: Color) {
        let run = glyphs(text)
        let x = Int((centerX - Double(width(of: run)) / 2).rounded())
        let baseline = Int((centerY + Double(ascent - descent) / 2).rounded())
        draw(run, into: dst, x: x, baseline: baseline, color: color)
    }
}

/// The fonts of one scene, by role, at one scale. Re-created when the scale changes.
final class FontSet {
    let scale: Double
    let title: Font
    let body: Font
    let button: Font
    let caption: Font
    let label: Font

    /// Point sizes (Apple HIG text styles: title = large title 34, body = subheadline 15, button =
    /// headline 17, caption = footnote 13, label = title 3 20).
    static let titlePoints = 34, bodyPoints = 15, buttonPoints = 17, captionPoints = 13, labelPoints = 20
    static let regular = "sans-serif", bold = "sans-serif:weight=bold"

    /// - Throws: `SceneError.fontUnavailable` for the first font that cannot be loaded.
    /// Each font's pixel size is its point size × `scale` rounded to the nearest whole pixel
    /// (halves up; fcft sizes fonts in whole pixels): exact at a whole scale, e.g. 17 pt at 1.5 → 26 px.
    init(scale: Double) throws {
        self.scale = scale
        func px(_ points: Int) -> Int { pixelLength(Double(points), scale: scale) }
        title = try Font(pattern: FontSet.bold, pixelSize: px(FontSet.titlePoints))
        body = try Font(pattern: FontSet.regular, pixelSize: px(FontSet.bodyPoints))
        button = try Font(pattern: FontSet.bold, pixelSize: px(FontSet.buttonPoints))
        caption = try Font(pattern: FontSet.regular, pixelSize: px(FontSet.captionPoints))
        label = try Font(pattern: FontSet.regular, pixelSize: px(FontSet.labelPoints))
    }

    /// The pixel size of `points` at this set's scale (the rule above).
    func pixelSize(points: Int) -> Int { pixelLength(Double(points), scale: scale) }
}
