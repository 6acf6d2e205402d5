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
        font.draw("modal", into: canvas.image, x: 20, baseline: 40, color: pixmanColor(0xFF00_0000))
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
        font.draw("modal modal", into: canvas.image, x: 20, baseline: 40, color: pixmanColor(0xFF00_0000))
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
        font.drawCentered("Present", into: centred.image, centerX: 80, centerY: 30, color: pixmanColor(0xFF0A_6CFF))
        let x = Int((80 - Double(font.width(of: "Present")) / 2).rounded())
        let baseline = Int((30 + Double(font.ascent - font.descent) / 2).rounded())
        font.draw("Present", into: placed.image, x: x, baseline: baseline, color: pixmanColor(0xFF0A_6CFF))
        XCTAssertNotNil(centred.inked)
        for y in 0..<60 { for x in 0..<160 where centred.pixel(x, y) != placed.pixel(x, y) {
            return XCTFail("(\(x), \(y)) differs")
        } }
    }
}
