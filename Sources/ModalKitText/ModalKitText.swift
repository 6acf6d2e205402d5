import CModalKitFcft
import CModalKitPixman

// Text drawn with fcft onto pixman images: the one glyph path shared by the window's title bar
// (ModalKitWaylandClient), the demo's button, title and card (ModalKitDemo), and an app's own content (the
// `ModalKitText` library product). Units are buffer pixels throughout; images are `PIXMAN_a8r8g8b8`
// (premultiplied ARGB). In a `PresentationContent.draw(into:size:scale:)`, make the font at the
// content's scale (`PixmanFont(pattern:points:scale:)`) and multiply positions by `scale`:
//
//     let font = try PixmanFont(pattern: "sans-serif", points: 15, scale: scale)
//     font.drawCentered("Row 1", into: image, centerX: 100 * scale, centerY: 22 * scale,
//                       color: pixmanColor(0xFF20_2020))

/// Why a font could not be made.
public enum FontError: Error, Equatable, CustomStringConvertible {
    /// fcft could not be loaded (`reason`: the dynamic loader's message) or `fcft_init` failed
    /// (`reason` nil).
    case textLibraryUnavailable(reason: String?)
    /// fcft/fontconfig found no font for the pattern (no fonts installed, or no fontconfig
    /// configuration). `pattern` is the fontconfig pattern that was asked for.
    case fontUnavailable(pattern: String)

    public var description: String {
        switch self {
        case let .textLibraryUnavailable(reason?):
            return "cannot load fcft (text rendering library): \(reason)"
        case .textLibraryUnavailable(nil):
            return "cannot initialise fcft (text rendering library)"
        case let .fontUnavailable(pattern):
            return "cannot load font '\(pattern)' through fontconfig (is a font such as fonts-dejavu-core installed?)"
        }
    }
}

/// fcft is loaded when the first font is made (`dlopen`: nothing links it, so a program that draws
/// no text maps none of its chain of libraries) and initialised once per process before any font
/// is created (fcft.h). Swift runs a global's initialiser exactly once, lazily, thread-safely.
/// fcft's own logging is off: a font that cannot be loaded surfaces as one `FontError` (or a
/// missing title) instead of fcft's "err:" line. Nil when ready, else why not.
private let fcftFailure: FontError? = {
    guard modalkit_fcft_load() != 0 else {
        return .textLibraryUnavailable(reason: modalkit_fcft_load_error().map { String(cString: $0) })
    }
    return modalkit_fcft.`init`(FCFT_LOG_COLORIZE_NEVER, false, FCFT_LOG_CLASS_NONE) ? nil : .textLibraryUnavailable(reason: nil)
}()

/// A premultiplied ARGB word (`0xAARRGGBB`, 8 bits per channel, colour already multiplied by
/// alpha) as pixman's colour (16 bits per channel: each 8-bit value × 0x101, so 0xFF → 0xFFFF).
public func pixmanColor(_ argb: UInt32) -> pixman_color_t {
    func channel(_ shift: UInt32) -> UInt16 { UInt16((argb >> shift) & 0xFF) * 0x101 }
    return pixman_color_t(red: channel(16), green: channel(8), blue: channel(0), alpha: channel(24))
}

/// One fcft font at one pixel size. Glyphs are rasterised without subpixel rendering (grayscale
/// `PIXMAN_a8` masks; colour glyphs such as emoji come as `PIXMAN_a8r8g8b8`) and cached by fcft.
public final class PixmanFont {
    private let font: UnsafeMutablePointer<fcft_font>
    /// The em size asked for, buffer pixels (at least 1).
    public let pixelSize: Int
    /// Whether the font's kerning pairs move a glyph against the one before it.
    public let kerning: Bool

    /// - Parameters:
    ///   - pattern: a fontconfig pattern, e.g. `sans-serif` or `sans-serif:weight=bold`.
    ///   - pixelSize: the em size in buffer pixels (values below 1 mean 1; fcft sizes fonts in whole
    ///     pixels, so a caller with points × a fractional scale rounds first).
    ///   - kerning: apply the font's kerning between neighbouring characters.
    /// - Throws: `FontError.textLibraryUnavailable` when fcft cannot be loaded or started,
    ///   `FontError.fontUnavailable` when fontconfig/fcft cannot provide the font.
    public init(pattern: String, pixelSize: Int, kerning: Bool = true) throws {
        if let fcftFailure { throw fcftFailure }
        let size = max(1, pixelSize)
        let made: UnsafeMutablePointer<fcft_font>? = pattern.withCString { name in
            var names: [UnsafePointer<CChar>?] = [name]
            return names.withUnsafeMutableBufferPointer { buf in
                modalkit_fcft.from_name(1, buf.baseAddress!, "pixelsize=\(size)")
            }
        }
        guard let made else { throw FontError.fontUnavailable(pattern: pattern) }
        self.font = made
        self.pixelSize = size
        self.kerning = kerning
    }

    /// A font of `points` points at `scale` buffer pixels per point (a content's draw scale): the
    /// pixel size is `points × scale` rounded half away from zero (fcft sizes fonts in whole
    /// pixels), at least 1.
    /// - Throws: as ``init(pattern:pixelSize:kerning:)``.
    public convenience init(pattern: String, points: Double, scale: Double, kerning: Bool = true) throws {
        let pixels = (points * scale).rounded(.toNearestOrAwayFromZero)
        try self.init(pattern: pattern, pixelSize: pixels.isFinite ? Int(max(1, min(pixels, 4096))) : 1, kerning: kerning)
    }

    deinit { modalkit_fcft.destroy(font) }

    /// Distance from the baseline up to the top of the line box, buffer pixels.
    public var ascent: Int { Int(font.pointee.ascent) }
    /// Distance from the baseline down to the bottom of the line box, buffer pixels (positive).
    public var descent: Int { Int(font.pointee.descent) }

    /// A shaped string: each glyph with the kerning (x, buffer pixels) applied before it.
    private typealias GlyphRun = [(glyph: UnsafePointer<fcft_glyph>, kern: Int)]

    private func glyphs(_ text: String) -> GlyphRun {
        var out: GlyphRun = []
        var previous: UInt32?
        for scalar in text.unicodeScalars {
            guard let g = modalkit_fcft.rasterize_char_utf32(font, scalar.value, FCFT_SUBPIXEL_NONE) else { continue }
            var kx = 0, ky = 0
            if kerning, let p = previous, !modalkit_fcft.kerning(font, p, scalar.value, &kx, &ky) { kx = 0 }
            out.append((g, kerning ? kx : 0))
            previous = scalar.value
        }
        return out
    }

    private func width(of run: GlyphRun) -> Int {
        run.reduce(0) { $0 + $1.kern + Int($1.glyph.pointee.advance.x) }
    }

    /// The advance width of `text` (kerning included when on), buffer pixels.
    public func width(of text: String) -> Int { width(of: glyphs(text)) }

    /// Draws `text` OVER `image` (a `pixman_image_t *`, `PIXMAN_a8r8g8b8`) with its origin at `x` and
    /// its baseline at `baseline`, buffer pixels. Grayscale glyphs are composited as masks of a solid
    /// `color` (pixman's premultiplied 16-bit colour, e.g. ``pixmanColor(_:)``); colour glyphs as
    /// they are. The image's clip region, if any, applies.
    public func draw(_ text: String, into image: OpaquePointer, x: Int, baseline: Int, color: pixman_color_t) {
        draw(glyphs(text), into: image, x: x, baseline: baseline, color: color)
    }

    /// Draws `text` centred horizontally on `centerX` and vertically on `centerY` (the middle of
    /// the ascent–descent box), buffer pixels; the origin and baseline are rounded to whole pixels
    /// (halves away from zero).
    public func drawCentered(_ text: String, into image: OpaquePointer, centerX: Double, centerY: Double,
                             color: pixman_color_t) {
        let run = glyphs(text)
        let x = Int((centerX - Double(width(of: run)) / 2).rounded())
        let baseline = Int((centerY + Double(ascent - descent) / 2).rounded())
        draw(run, into: image, x: x, baseline: baseline, color: color)
    }

    private func draw(_ run: GlyphRun, into dst: OpaquePointer, x: Int, baseline: Int, color: pixman_color_t) {
        var pc = color
        guard let solid = pixman_image_create_solid_fill(&pc) else { return }
        defer { pixman_image_unref(solid) }
        var pen = x
        for (glyph, kern) in run {
            pen += kern
            let g = glyph.pointee
            if let pix = g.pix {
                let gx = Int32(pen + Int(g.x)), gy = Int32(baseline - Int(g.y))
                if pixman_image_get_format(pix) == PIXMAN_a8r8g8b8 {   // colour glyph (emoji)
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
}
