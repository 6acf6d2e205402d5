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
//                       color: Color(rgb: 0x202020))

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
/// alpha) as pixman's colour (16 bits per channel: each 8-bit value × 0x101, so 0xFF → 0xFFFF), for
/// this package's modules that fill with pixman directly (the title bar).
package func pixmanColor(_ argb: UInt32) -> pixman_color_t {
    func channel(_ shift: UInt32) -> UInt16 { UInt16((argb >> shift) & 0xFF) * 0x101 }
    return pixman_color_t(red: channel(16), green: channel(8), blue: channel(0), alpha: channel(24))
}

/// `color` as pixman's 16-bit-per-channel premultiplied colour: each component clamped to 0...1,
/// × 65535, rounded (so a `Color` made from a byte `b` gives `b × 0x101`, as ``pixmanColor(_:)``).
func pixmanColor(_ color: Color) -> pixman_color_t {
    func c(_ v: Double) -> UInt16 { UInt16((min(max(v, 0), 1) * 65535).rounded()) }
    return pixman_color_t(red: c(color.red), green: c(color.green), blue: c(color.blue), alpha: c(color.alpha))
}

/// How a font turns text into glyphs (``PixmanFont/shaping``): the best its fcft build offers
/// (`fcft_capabilities()`), or a lower one asked for. Every mode draws a line in visual order
/// (right-to-left runs by a minimal bidi split: see `Bidi.swift`) and measures it as it draws it.
public enum TextShaping: Int, Comparable, Sendable, CaseIterable {
    /// One glyph per code point (`fcft_rasterize_char_utf32`), kerned pairwise (`fcft_kerning`):
    /// no ligatures or contextual forms, a combining mark placed by its own glyph metrics, an emoji
    /// sequence as its separate code points. What fcft built without HarfBuzz offers.
    case codePoint
    /// Each grapheme cluster shaped alone by HarfBuzz (`fcft_rasterize_grapheme_utf32`): emoji
    /// sequences and combining marks as the font composes them, kerning between clusters pairwise;
    /// nothing contextual across clusters (Arabic letters do not join). fcft with HarfBuzz, without
    /// utf8proc.
    case grapheme
    /// Runs shaped whole by HarfBuzz (`fcft_rasterize_text_run_utf32`, which splits a run into
    /// graphemes with utf8proc and shapes each stretch of one script and one font): kerning,
    /// ligatures, Arabic joining, marks positioned by the font's GPOS table, emoji sequences in
    /// colour. fcft with HarfBuzz and utf8proc, as Debian builds it.
    case textRun

    public static func < (a: TextShaping, b: TextShaping) -> Bool { a.rawValue < b.rawValue }

    /// The best mode the loaded fcft offers (`fcft_capabilities()`); `.codePoint` when fcft is not
    /// loaded.
    public static var available: TextShaping {
        guard fcftFailure == nil else { return .codePoint }
        let caps = modalkit_fcft.capabilities().rawValue
        if caps & FCFT_CAPABILITY_TEXT_RUN_SHAPING.rawValue != 0 { return .textRun }
        if caps & FCFT_CAPABILITY_GRAPHEME_SHAPING.rawValue != 0 { return .grapheme }
        return .codePoint
    }
}

/// One glyph of a shaped line, in visual order (left to right), buffer pixels. A line's origin is
/// the left end of its baseline.
public struct ShapedGlyph: Equatable, Sendable {
    /// The glyph's origin (pen position) from the line's origin, x, buffer pixels.
    public var penX: Int
    /// How far the pen moves from this glyph's origin to the next one's (the line's width after the
    /// last), x, buffer pixels: the glyph's advance, with the kerning before the next glyph in the
    /// grapheme and code-point modes; 0 for a combining mark the font positions over its base.
    public var advance: Int
    /// The offset, in `text.unicodeScalars`, of the first code point of the cluster the glyph
    /// belongs to (HarfBuzz's cluster, as fcft reports it).
    public var cluster: Int
    /// The glyph image's left edge from the pen position (x, buffer pixels, right positive) and its
    /// top edge from the baseline (y, buffer pixels, down positive: negative above the baseline),
    /// and its size; zero for a glyph without an image (a space).
    public var inkX: Int, inkY: Int, inkWidth: Int, inkHeight: Int
    /// Whether the glyph is a colour image (`PIXMAN_a8r8g8b8`, e.g. an emoji), drawn as it is
    /// rather than as a mask of the text colour.
    public var isColor: Bool
}

/// One fcft font at one pixel size. Glyphs are rasterised without subpixel rendering (grayscale
/// `PIXMAN_a8` masks; colour glyphs such as emoji come as `PIXMAN_a8r8g8b8`).
///
/// Text is shaped (``TextShaping``) and laid out in visual order; ``width(of:)`` is the sum of the
/// advances ``draw(_:into:x:baseline:color:)`` moves the pen by. Shaped lines are cached per font
/// (at most ``shapedLineCacheLimit`` lines and ``shapedGlyphCacheLimit`` glyphs, the oldest
/// dropped first), so drawing the same text every frame shapes it once. In the text-run mode a line
/// is put together from words shaped one at a time (each stretch between spaces, each space, each
/// right-to-left piece) and cached apart from the lines (at most ``shapedWordCacheLimit`` words and
/// ``shapedGlyphCacheLimit`` glyph images: fcft gives each text run its own rasterised glyphs), so a
/// changed line (a text field typed into) reshapes only its changed words. Words are shaped without
/// their neighbours, as browsers' word caches do: kerning against a space and ligatures through one
/// are not applied. A font is used by one thread at a time.
public final class PixmanFont {
    let font: UnsafeMutablePointer<fcft_font>
    /// The em size asked for, buffer pixels (at least 1).
    public let pixelSize: Int
    /// Whether the font's kerning moves a glyph against the one before it (HarfBuzz's `kern`
    /// feature when shaping runs; `fcft_kerning` pairs otherwise).
    public let kerning: Bool
    /// How this font shapes text: the mode asked for, at most ``TextShaping/available``.
    public let shaping: TextShaping

    /// The most shaped lines a font keeps.
    public static let shapedLineCacheLimit = 128
    /// The most glyphs, summed over its shaped lines, a font keeps; and the most glyph images
    /// (about 1 KiB each at 20 px), summed over its shaped words.
    public static let shapedGlyphCacheLimit = 4096

    /// - Parameters:
    ///   - pattern: a fontconfig pattern, e.g. `sans-serif` or `sans-serif:weight=bold`.
    ///   - pixelSize: the em size in buffer pixels (values below 1 mean 1; fcft sizes fonts in whole
    ///     pixels, so a caller with points × a fractional scale rounds first).
    ///   - kerning: apply the font's kerning between neighbouring characters.
    ///   - shaping: the shaping mode; nil (the default) or a mode fcft does not offer means the best
    ///     it offers (``TextShaping/available``).
    /// - Throws: `FontError.textLibraryUnavailable` when fcft cannot be loaded or started,
    ///   `FontError.fontUnavailable` when fontconfig/fcft cannot provide the font.
    public init(pattern: String, pixelSize: Int, kerning: Bool = true, shaping: TextShaping? = nil) throws {
        if let fcftFailure { throw fcftFailure }
        let size = max(1, pixelSize)
        // HarfBuzz applies the font's features (fontconfig's `fontfeatures`, which fcft reads);
        // without kerning, `kern` is turned off there.
        let attributes = kerning ? "pixelsize=\(size)" : "pixelsize=\(size):fontfeatures=-kern"
        let made: UnsafeMutablePointer<fcft_font>? = pattern.withCString { name in
            var names: [UnsafePointer<CChar>?] = [name]
            return names.withUnsafeMutableBufferPointer { buf in
                modalkit_fcft.from_name(1, buf.baseAddress!, attributes)
            }
        }
        guard let made else { throw FontError.fontUnavailable(pattern: pattern) }
        self.font = made
        self.pixelSize = size
        self.kerning = kerning
        self.shaping = min(shaping ?? .textRun, TextShaping.available)
    }

    /// Loads and initialises fcft now instead of at the first font (a program that makes its fonts
    /// on several threads lets one thread start it while the others wait for it; fcft is started
    /// once per process either way).
    /// - Throws: `FontError.textLibraryUnavailable`, as the first font would.
    package static func loadTextLibrary() throws {
        if let fcftFailure { throw fcftFailure }
    }

    /// A font of `points` points at `scale` buffer pixels per point (a content's draw scale): the
    /// pixel size is `points × scale` rounded half away from zero (fcft sizes fonts in whole
    /// pixels), at least 1.
    /// - Throws: as ``init(pattern:pixelSize:kerning:shaping:)``.
    public convenience init(pattern: String, points: Double, scale: Double, kerning: Bool = true,
                            shaping: TextShaping? = nil) throws {
        let pixels = (points * scale).rounded(.toNearestOrAwayFromZero)
        try self.init(pattern: pattern, pixelSize: pixels.isFinite ? Int(max(1, min(pixels, 4096))) : 1, kerning: kerning,
                      shaping: shaping)
    }

    deinit {
        if let solid {
            pixman_image_unref(solid.image)
            solid.pixel.deallocate()
        }
        cache.removeAll()   // destroys the text runs (which outlive no font data) before the font
        lastMeasured = nil
        words.removeAll()
        modalkit_fcft.destroy(font)
    }

    /// Distance from the baseline up to the top of the line box, buffer pixels.
    public var ascent: Int { Int(font.pointee.ascent) }
    /// Distance from the baseline down to the bottom of the line box, buffer pixels (positive).
    public var descent: Int { Int(font.pointee.descent) }

    // MARK: Shaping

    private var cache: [TextKey: ShapedLine] = [:]
    private var cacheOrder: [TextKey] = []
    private var cachedGlyphs = 0
    /// Widths of lines measured but not kept (candidates of truncation and wrapping), and the
    /// results of fitting (text, width, line limit → lines): each at most `fitCacheLimit`, cleared
    /// when full, so a view fitting the same words every frame shapes them once.
    private var widths: [TextKey: Int] = [:]
    private var fits: [FitKey: [String]] = [:]
    private static let fitCacheLimit = 512
    /// The text colour's source: a repeating 1×1 image whose pixel each draw sets (no allocation
    /// per draw or per colour).
    private var solid: (pixel: UnsafeMutablePointer<UInt32>, image: OpaquePointer)?

    /// The line ``measure(_:)`` shaped last (its width is in `widths`), kept until the next measure:
    /// a text measured and then drawn as it is — ``truncated(_:toWidth:ellipsis:)`` of a text that
    /// fits, the usual case — is shaped once (its glyphs rasterised once), not twice.
    private var lastMeasured: (key: TextKey, line: ShapedLine)?
    /// How many lines this font has shaped through fcft (the tests count the work a draw does).
    var shapeCount = 0

    /// Words shaped by fcft's text runs (the text-run mode), by a hash of their code points and
    /// direction (words of one hash chain through `ShapedWord.next`), and the glyphs they hold:
    /// at most ``shapedWordCacheLimit`` words and ``shapedGlyphCacheLimit`` glyphs, emptied when
    /// full. See LineShaping.swift.
    var words: [Int: ShapedWord] = [:]
    var cachedWordGlyphs = 0
    /// How many words this font has shaped through fcft (the tests count the work a line costs).
    var wordShapeCount = 0
    /// The working storage of the line being laid out.
    var scratch = LineScratch()

    /// `text` shaped, from the cache (shaped and kept when not there).
    func shaped(_ text: String) -> ShapedLine {
        let key = TextKey(text)
        if let hit = cache[key] { return hit }
        let line: ShapedLine
        if let measured = lastMeasured, measured.key == key {
            line = measured.line
            lastMeasured = nil
        } else {
            line = shape(text)
        }
        cache[key] = line
        cacheOrder.append(key)
        cachedGlyphs += line.glyphs.count
        while cacheOrder.count > 1,
              cache.count > PixmanFont.shapedLineCacheLimit || cachedGlyphs > PixmanFont.shapedGlyphCacheLimit {
            if let old = cache.removeValue(forKey: cacheOrder.removeFirst()) { cachedGlyphs -= old.glyphs.count }
        }
        return line
    }

    /// The glyphs `text` is drawn with, in visual order, and where.
    public func glyphs(of text: String) -> [ShapedGlyph] {
        let line = shaped(text)
        return line.glyphs.indices.map { i in
            let placed = line.glyphs[i]
            let g = placed.glyph.pointee
            let hasInk = g.pix != nil
            let next = i + 1 < line.glyphs.count ? line.glyphs[i + 1].penX : line.width
            return ShapedGlyph(penX: placed.penX, advance: next - placed.penX, cluster: placed.cluster,
                               inkX: hasInk ? Int(g.x) : 0, inkY: hasInk ? -Int(g.y) : 0,
                               inkWidth: hasInk ? Int(g.width) : 0, inkHeight: hasInk ? Int(g.height) : 0,
                               isColor: hasInk && pixman_image_get_format(g.pix) == PIXMAN_a8r8g8b8)
        }
    }

    /// How far below the baseline `text`'s lowest inked row ends (exclusive; buffer pixels, down
    /// positive, negative when all ink is above the baseline); nil when no glyph has ink. From the
    /// cached line: no allocation once `text` was drawn or measured.
    package func inkBottom(of text: String) -> Int? {
        var bottom: Int?
        for placed in shaped(text).glyphs {
            let g = placed.glyph.pointee
            guard g.pix != nil, g.height > 0 else { continue }
            bottom = max(bottom ?? Int.min, -Int(g.y) + Int(g.height))
        }
        return bottom
    }

    /// The advance width of `text` as it is drawn (shaped, kerning included when on): the sum of
    /// its glyphs' advances, buffer pixels.
    public func width(of text: String) -> Int { shaped(text).width }

    /// The advance width of `text` without keeping its shape (a candidate line being measured).
    func measure(_ text: String) -> Int {
        let key = TextKey(text)
        if let hit = cache[key]?.width ?? widths[key] { return hit }
        let line = shape(text)
        lastMeasured = (key, line)
        if widths.count >= PixmanFont.fitCacheLimit { widths.removeAll(keepingCapacity: true) }
        widths[key] = line.width
        return line.width
    }

    /// A fitting's result from the cache, or `make`'s (then kept).
    func fitted(_ key: FitKey, _ make: () -> [String]) -> [String] {
        if let hit = fits[key] { return hit }
        let lines = make()
        if fits.count >= PixmanFont.fitCacheLimit { fits.removeAll(keepingCapacity: true) }
        fits[key] = lines
        return lines
    }

    // MARK: Drawing

    /// Draws `text` OVER `image` (a `pixman_image_t *`, `PIXMAN_a8r8g8b8`: what a content's
    /// `draw(into:size:scale:)` is handed) with its origin at `x` and its baseline at `baseline`,
    /// buffer pixels. Grayscale glyphs are composited as masks of a solid `color` (premultiplied,
    /// taken at pixman's 16 bits per channel); colour glyphs as they are, not tinted. The image's
    /// clip region, if any, applies.
    public func draw(_ text: String, into image: OpaquePointer, x: Int, baseline: Int, color: Color) {
        draw(shaped(text), into: image, x: x, baseline: baseline, color: pixmanColor(color))
    }

    /// Draws `text` centred horizontally on `centerX` and vertically on `centerY` (the middle of
    /// the ascent–descent box), buffer pixels; the origin and baseline are rounded to whole pixels
    /// (halves away from zero).
    public func drawCentered(_ text: String, into image: OpaquePointer, centerX: Double, centerY: Double,
                             color: Color) {
        let line = shaped(text)
        let x = Int((centerX - Double(line.width) / 2).rounded())
        let baseline = Int((centerY + Double(ascent - descent) / 2).rounded())
        draw(line, into: image, x: x, baseline: baseline, color: pixmanColor(color))
    }

    func draw(_ line: ShapedLine, into dst: OpaquePointer, x: Int, baseline: Int, color: Color) {
        draw(line, into: dst, x: x, baseline: baseline, color: pixmanColor(color))
    }

    private func draw(_ line: ShapedLine, into dst: OpaquePointer, x: Int, baseline: Int, color: pixman_color_t) {
        guard !line.glyphs.isEmpty else { return }
        if solid == nil {
            let pixel = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
            guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, 1, 1, pixel, 4) else {
                pixel.deallocate()
                return
            }
            pixman_image_set_repeat(image, PIXMAN_REPEAT_NORMAL)
            solid = (pixel, image)
        }
        guard let (pixel, solid) = solid else { return }
        // The 8-bit colour pixman gives a solid fill of `color` for an 8-bit destination (the top
        // 8 bits of each channel): the same pixels as `pixman_image_create_solid_fill`, with no
        // image made per colour.
        pixel.pointee = UInt32(color.alpha >> 8) << 24 | UInt32(color.red >> 8) << 16 | UInt32(color.green >> 8) << 8
            | UInt32(color.blue >> 8)
        for placed in line.glyphs {
            let g = placed.glyph.pointee
            guard let pix = g.pix else { continue }
            let gx = Int32(x + placed.penX + Int(g.x)), gy = Int32(baseline - Int(g.y))
            if pixman_image_get_format(pix) == PIXMAN_a8r8g8b8 {   // colour glyph (emoji)
                pixman_image_composite32(PIXMAN_OP_OVER, pix, nil, dst, 0, 0, 0, 0, gx, gy, g.width, g.height)
            } else {
                pixman_image_composite32(PIXMAN_OP_OVER, solid, pix, dst, 0, 0, 0, 0, gx, gy, g.width, g.height)
            }
        }
    }
}

/// A string as a cache key: its exact code points (UTF-8), not Swift's canonical equivalence —
/// "e" + U+0301 and "é" are different keys (their clusters differ), and hashing needs no
/// normalisation (no allocation).
struct TextKey: Hashable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (a: TextKey, b: TextKey) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
    func hash(into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        for byte in text.utf8 { hasher.combine(byte) }
    }
}

/// A fitting asked for: text, width (pixels), line limit (-1: truncation) and ellipsis.
struct FitKey: Hashable {
    let text: TextKey, width: Int, lines: Int, ellipsis: TextKey
}

extension String {
    /// Without its trailing spaces.
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
