import CModalKitPixman
import ModalKitText
import XCTest

/// ModalKitText, the one glyph path of the title bar and the demo: pixman's 16-bit colour from a
/// premultiplied ARGB word, and text drawn OVER an `a8r8g8b8` image where the metrics say, inside
/// the image's clip.
final class ModalKitTextTests: XCTestCase {
    /// Each 8-bit channel becomes 16 bits as c × 0x101 (0xFF → 0xFFFF, 0x80 → 0x8080).
    func testPixmanColorWidensEveryChannel() {
        let c = pixmanColor(0x8040_2010)
        XCTAssertEqual(c.alpha, 0x8080)
        XCTAssertEqual(c.red, 0x4040)
        XCTAssertEqual(c.green, 0x2020)
        XCTAssertEqual(c.blue, 0x1010)
        let white = pixmanColor(0xFFFF_FFFF)
        XCTAssertEqual([white.alpha, white.red, white.green, white.blue], [0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF])
    }

    /// A `Color` from a premultiplied ARGB word holds each byte ÷ 255, premultiplied as given, and
    /// gives the word back; text drawn in it covers a pixel with exactly that word.
    func testAColourFromAnARGBWordIsThatWord() throws {
        let c = Color(argb32: 0x8040_2010)
        XCTAssertEqual([c.alpha, c.red, c.green, c.blue], [128.0 / 255, 64.0 / 255, 32.0 / 255, 16.0 / 255])
        XCTAssertEqual(c.argb32, 0x8040_2010)
        let canvas = Canvas(width: 60, height: 60)
        let font = try PixmanFont(pattern: "DejaVu Sans", pixelSize: 48)
        font.draw("l", into: canvas.image, x: 20, baseline: 50, color: Color(argb32: 0xFF0A_6CFF))
        let covered = (0..<60).flatMap { y in (0..<60).map { canvas.pixel($0, y) } }.filter { $0 == 0xFF0A_6CFF }
        XCTAssertGreaterThan(covered.count, 20, "the stem's inner pixels are the word itself")
    }

    /// A white image of `width × height` pixels, its pixels readable.
    private final class Canvas {
        let width: Int, height: Int
        let image: OpaquePointer
        init(width: Int, height: Int) {
            self.width = width; self.height = height
            image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), nil, 0)!
            var white = pixmanColor(0xFFFF_FFFF)
            var box = pixman_box32_t(x1: 0, y1: 0, x2: Int32(width), y2: Int32(height))
            _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &white, 1, &box)
        }
        deinit { pixman_image_unref(image) }
        func pixel(_ x: Int, _ y: Int) -> UInt32 {
            pixman_image_get_data(image)![y * Int(pixman_image_get_stride(image)) / 4 + x]
        }
        /// Columns and rows of the pixels that are no longer white.
        var inked: (xs: ClosedRange<Int>, ys: ClosedRange<Int>)? {
            var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
            for y in 0..<height { for x in 0..<width where pixel(x, y) != 0xFFFF_FFFF {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            } }
            return minX <= maxX ? (minX...maxX, minY...maxY) : nil
        }
    }

    /// A content's font in points at its draw scale: points × scale rounded half away from zero
    /// (15 pt at 1.5 = 22.5 → 23 pixels; at 1.25 = 18.75 → 19), at least 1 pixel.
    func testAFontInPointsTakesTheContentsScale() throws {
        XCTAssertEqual(try PixmanFont(pattern: "sans-serif", points: 15, scale: 1).pixelSize, 15)
        XCTAssertEqual(try PixmanFont(pattern: "sans-serif", points: 15, scale: 1.5).pixelSize, 23)
        XCTAssertEqual(try PixmanFont(pattern: "sans-serif", points: 15, scale: 1.25).pixelSize, 19)
        XCTAssertEqual(try PixmanFont(pattern: "sans-serif", points: 0.1, scale: 1).pixelSize, 1)
        XCTAssertEqual(try PixmanFont(pattern: "sans-serif", points: 15, scale: .nan).pixelSize, 1)
    }

    /// "modal" in black at (20, baseline 40): ink only between the origin and origin + advance
    /// width, between the line's ascent and descent; the pixels stay opaque (OVER on opaque).
    func testTextInksInsideItsAdvanceAndLineBox() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 20)
        XCTAssertEqual(font.pixelSize, 20)
        XCTAssertGreaterThan(font.ascent, 0)
        XCTAssertGreaterThan(font.descent, 0)
        let canvas = Canvas(width: 200, height: 80)
        font.draw("modal", into: canvas.image, x: 20, baseline: 40, color: Color(argb32: 0xFF00_0000))
        guard let ink = canvas.inked else { return XCTFail("nothing drawn") }
        XCTAssertGreaterThanOrEqual(ink.xs.lowerBound, 20)
        XCTAssertLessThan(ink.xs.upperBound, 20 + font.width(of: "modal"))
        XCTAssertGreaterThanOrEqual(ink.ys.lowerBound, 40 - font.ascent)
        XCTAssertLessThan(ink.ys.upperBound, 40 + font.descent)
        for y in ink.ys { for x in ink.xs { XCTAssertEqual(canvas.pixel(x, y) >> 24, 0xFF) } }
        XCTAssertEqual(font.width(of: ""), 0)
    }

    /// The image's clip region bounds the text (the title bar clips a long title before its close button).
    func testTheClipRegionBoundsTheText() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 20, kerning: false)
        let canvas = Canvas(width: 200, height: 80)
        var clip = pixman_region32_t()
        pixman_region32_init_rect(&clip, 30, 0, 20, 80)
        pixman_image_set_clip_region32(canvas.image, &clip)
        font.draw("modal modal", into: canvas.image, x: 20, baseline: 40, color: Color(argb32: 0xFF00_0000))
        pixman_image_set_clip_region32(canvas.image, nil)
        pixman_region32_fini(&clip)
        guard let ink = canvas.inked else { return XCTFail("nothing drawn inside the clip") }
        XCTAssertGreaterThanOrEqual(ink.xs.lowerBound, 30)
        XCTAssertLessThan(ink.xs.upperBound, 50)
    }

    /// `drawCentered` puts the advance box's middle on the centre (rounded to whole pixels) and the
    /// ascent–descent box's middle on the centre line: the same pixels as `draw` at that origin.
    func testDrawCenteredIsDrawAtTheRoundedOrigin() throws {
        let font = try PixmanFont(pattern: "sans-serif:weight=bold", pixelSize: 17)
        let centred = Canvas(width: 160, height: 60), placed = Canvas(width: 160, height: 60)
        font.drawCentered("Present", into: centred.image, centerX: 80, centerY: 30, color: Color(argb32: 0xFF0A_6CFF))
        let x = Int((80 - Double(font.width(of: "Present")) / 2).rounded())
        let baseline = Int((30 + Double(font.ascent - font.descent) / 2).rounded())
        font.draw("Present", into: placed.image, x: x, baseline: baseline, color: Color(argb32: 0xFF0A_6CFF))
        XCTAssertNotNil(centred.inked)
        for y in 0..<60 { for x in 0..<160 where centred.pixel(x, y) != placed.pixel(x, y) {
            return XCTFail("(\(x), \(y)) differs")
        } }
    }

    // MARK: Shaped text

    /// Inked columns and rows of `canvas` within columns `xs`.
    private func ink(_ canvas: Canvas, columns xs: Range<Int>) -> (xs: ClosedRange<Int>, ys: ClosedRange<Int>)? {
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for y in 0..<canvas.height { for x in xs where canvas.pixel(x, y) != 0xFFFF_FFFF {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        } }
        return minX <= maxX ? (minX...maxX, minY...maxY) : nil
    }

    /// "Q" + U+0301 (no precomposed form): the acute is drawn over the Q, as the font's mark
    /// positioning puts it — every pixel it adds is above the Q's ink (not at lowercase height,
    /// cutting into the Q) and its middle is over the middle half of the Q (not beside it) — and the
    /// line is as wide as "Q" alone.
    func testACombiningMarkIsDrawnOverItsBase() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 40)
        let base = Canvas(width: 120, height: 90), marked = Canvas(width: 120, height: 90)
        font.draw("Q", into: base.image, x: 20, baseline: 60, color: Color(argb32: 0xFF00_0000))
        font.draw("Q\u{301}", into: marked.image, x: 20, baseline: 60, color: Color(argb32: 0xFF00_0000))
        XCTAssertEqual(font.width(of: "Q\u{301}"), font.width(of: "Q"))
        guard let q = base.inked else { return XCTFail("nothing drawn") }
        var markXs: [Int] = [], markYs: [Int] = []
        for y in 0..<marked.height { for x in 0..<marked.width where marked.pixel(x, y) != base.pixel(x, y) {
            markXs.append(x); markYs.append(y)
        } }
        guard let top = markYs.min(), let bottom = markYs.max(), let left = markXs.min(), let right = markXs.max() else {
            return XCTFail("no acute drawn")
        }
        XCTAssertLessThan(bottom, q.ys.lowerBound, "the acute (rows \(top)...\(bottom)) is above the Q (from row \(q.ys.lowerBound))")
        let middle = Double(left + right) / 2, quarter = Double(q.xs.count) / 4
        XCTAssertGreaterThanOrEqual(middle, Double(q.xs.lowerBound) + quarter)
        XCTAssertLessThanOrEqual(middle, Double(q.xs.upperBound) - quarter)
    }

    /// "שלום" (shin, lamed, vav, final mem; read right to left): the first logical letter, shin,
    /// is drawn rightmost — the ink of the line's rightmost glyph matches shin drawn alone there.
    func testARightToLeftStringsFirstCharacterIsDrawnRightmost() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 30)
        let glyphs = font.glyphs(of: "שלום")
        XCTAssertEqual(glyphs.map(\.cluster), [3, 2, 1, 0])
        let line = Canvas(width: 160, height: 60), shin = Canvas(width: 160, height: 60)
        font.draw("שלום", into: line.image, x: 10, baseline: 40, color: Color(argb32: 0xFF00_0000))
        font.draw("ש", into: shin.image, x: 10 + glyphs[3].penX, baseline: 40, color: Color(argb32: 0xFF00_0000))
        guard let lineInk = line.inked, let shinInk = shin.inked else { return XCTFail("nothing drawn") }
        XCTAssertEqual(lineInk.xs.upperBound, shinInk.xs.upperBound, "shin ends the line on the right")
        for y in 0..<60 { for x in (10 + glyphs[3].penX)..<(10 + font.width(of: "שלום")) where shin.pixel(x, y) != line.pixel(x, y) {
            return XCTFail("(\(x), \(y)) is not shin's")
        } }
    }

    /// A colour emoji (U+1F600, Noto Color Emoji) is drawn in its own colours, not as a mask of
    /// the text colour: drawn in black, many of its pixels are coloured (channels differ by more
    /// than 64), and the same with a blue text colour.
    func testAColourEmojiKeepsItsColours() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 40)
        XCTAssertEqual(font.glyphs(of: "\u{1F600}").map(\.isColor), [true])
        var pixels: [[UInt32]] = []
        for color: UInt32 in [0xFF00_0000, 0xFF00_00FF] {
            let canvas = Canvas(width: 80, height: 80)
            font.draw("\u{1F600}", into: canvas.image, x: 10, baseline: 55, color: Color(argb32: color))
            var coloured = 0
            var all: [UInt32] = []
            for y in 0..<80 { for x in 0..<80 {
                let p = canvas.pixel(x, y)
                all.append(p)
                let r = Int(p >> 16 & 0xFF), g = Int(p >> 8 & 0xFF), b = Int(p & 0xFF)
                if max(r, g, b) - min(r, g, b) > 64 { coloured += 1 }
            } }
            XCTAssertGreaterThan(coloured, 200, "coloured pixels")
            pixels.append(all)
        }
        XCTAssertEqual(pixels[0], pixels[1], "the text colour does not tint a colour glyph")
    }

    /// Truncation: a line that fits is itself; one that does not is whole grapheme clusters + "…",
    /// at most the width, the longest such (one cluster more would not fit); an emoji ZWJ sequence
    /// or a base with its mark is never split; "" when not even "…" fits.
    func testTruncationEndsInAnEllipsisWithinTheWidth() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 20)
        XCTAssertEqual(font.truncated("Close", toWidth: font.width(of: "Close")), "Close")
        let text = "Present another card with a long title"
        for width in [30, 57, 90, 141, 200] {
            let t = font.truncated(text, toWidth: width)
            XCTAssertTrue(t.hasSuffix("…"), t)
            XCTAssertLessThanOrEqual(font.width(of: t), width, t)
            let kept = t.dropLast()
            XCTAssertTrue(text.hasPrefix(kept), t)
            // One more cluster (after the kept text and the spaces dropped before the ellipsis) does not fit.
            var longer = String(text.prefix(kept.count))
            while text.count > longer.count, text[text.index(text.startIndex, offsetBy: longer.count)] == " " { longer.append(" ") }
            longer = String(text.prefix(longer.count + 1)) + "…"
            XCTAssertGreaterThan(font.width(of: longer), width, "\(t) is the longest")
        }
        XCTAssertEqual(font.truncated(text, toWidth: font.width(of: "…") - 1), "")
        let clusters = "\u{1F469}\u{200D}\u{1F4BB}q\u{301}\u{1F469}\u{200D}\u{1F4BB}q\u{301}"
        for width in 1...font.width(of: clusters) {
            let t = font.truncated(clusters, toWidth: width)
            XCTAssertLessThanOrEqual(font.width(of: t), width)
            XCTAssertTrue(Array(clusters).starts(with: Array(t.dropLast(t.hasSuffix("…") ? 1 : 0))), "cut inside a cluster: \(t)")
        }
    }

    /// Wrapping: lines break at spaces, each at most the width; a word wider than a line breaks at
    /// grapheme clusters; the words come back in order; line feeds break; `maximumLines` cuts with
    /// an ellipsis.
    func testWrappingBreaksAtWordsWithinTheWidth() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 15)
        let text = "Focus stays here until it is dismissed, even with Donaudampfschifffahrtsgesellschaft"
        for width in [60, 100, 180, 400] {
            let lines = font.wrapped(text, toWidth: width)
            for line in lines { XCTAssertLessThanOrEqual(font.width(of: line), width, line) }
            XCTAssertEqual(lines.joined().filter { $0 != " " }, text.filter { $0 != " " })
            // Greedy: the next line's first word would not fit on the line before.
            for (line, next) in zip(lines, lines.dropFirst()) where !line.contains("Donau") || line.hasSuffix("Donau") == false {
                guard let word = next.split(separator: " ").first, text.contains(line + " " + word) else { continue }
                XCTAssertGreaterThan(font.width(of: line + " " + word), width)
            }
        }
        let narrow = font.wrapped("Donaudampfschifffahrtsgesellschaft", toWidth: 60)
        XCTAssertGreaterThan(narrow.count, 2)
        XCTAssertEqual(narrow.joined(), "Donaudampfschifffahrtsgesellschaft")
        XCTAssertEqual(font.wrapped("one\n\ntwo", toWidth: 200), ["one", "", "two"])
        XCTAssertEqual(font.wrapped("", toWidth: 200), [])
        let two = font.wrapped(text, toWidth: 100, maximumLines: 2)
        XCTAssertEqual(two.count, 2)
        XCTAssertEqual(two[0], font.wrapped(text, toWidth: 100)[0])
        XCTAssertTrue(two[1].hasSuffix("…"))
        XCTAssertLessThanOrEqual(font.width(of: two[1]), 100)
    }

    /// A joined script's word broken across lines: each piece is measured as it is drawn, alone —
    /// an Arabic letter at the cut takes its final form, wider than its joined form in the whole
    /// word (the fuzzer's "اعال" at 16 px came out 22 px wide).
    func testAJoinedWordBrokenAcrossLinesFitsPieceByPiece() throws {
        let word = "اعالم", words = "بالعالم اعالم مرحبا"
        for shaping in TextShaping.allCases where shaping <= TextShaping.available {
            for size in [13, 15] {
                let font = try PixmanFont(pattern: "DejaVu Sans", pixelSize: size, shaping: shaping)
                for width in 1...font.width(of: words) {
                    for text in [word, words] {
                        let lines = font.wrapped(text, toWidth: width)
                        for line in lines where line.count > 1 {
                            XCTAssertLessThanOrEqual(font.width(of: line), width, "\(shaping) \(size) px: \(line) of \(text)")
                        }
                        XCTAssertEqual(lines.joined().filter { $0 != " " }, text.filter { $0 != " " })
                    }
                }
            }
        }
    }

    /// Every shaping mode lays out what it draws: `width(of:)` is the sum of the glyphs' advances,
    /// each glyph's pen position the sum before it; the modes fcft lacks fall back to what it has.
    func testEveryShapingModeMeasuresWhatItDraws() throws {
        for mode in TextShaping.allCases {
            let font = try PixmanFont(pattern: "sans-serif", pixelSize: 20, shaping: mode)
            XCTAssertEqual(font.shaping, min(mode, TextShaping.available))
            for text in ["AVATAR Wave", "q\u{301}", "שלום עולם", "\u{1F469}\u{200D}\u{1F4BB} ok"] {
                let glyphs = font.glyphs(of: text)
                var pen = 0
                for g in glyphs { XCTAssertEqual(g.penX, pen, "\(mode) \(text)"); pen += g.advance }
                XCTAssertEqual(font.width(of: text), pen, "\(mode) \(text)")
                // The first logical cluster of the Hebrew line is drawn last (rightmost) in every mode.
                if text.hasPrefix("ש") { XCTAssertEqual(glyphs.last?.cluster, 0, "\(mode)") }
            }
        }
        XCTAssertEqual(TextShaping.available, .textRun, "Debian's fcft shapes text runs")
    }
}
