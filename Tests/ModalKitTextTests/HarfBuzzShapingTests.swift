import CModalKitPixman
import Foundation
import ModalKitText
import XCTest

/// ModalKitText's shaped glyphs against HarfBuzz's own shaping of the same text, font file and size:
/// `hb-shape` (Debian's libharfbuzz-bin) run here, on the file fontconfig resolves for the font's
/// pattern (`fc-match`), as fcft does.
///
/// The conversion: fcft creates its HarfBuzz font with `hb_ft_font_create_referenced` on the
/// FreeType face at the pixel size (unhinted advances, positions in 26.6 fixed point: 1/64 pixel),
/// so `hb-shape --font-funcs=ft --font-ppem=N --font-size=64N` gives the same numbers in 26.6.
/// fcft turns each glyph's `x_advance` into whole pixels as `(int)(x_advance / 64.0)` (toward
/// zero, glyph by glyph), so a pen position is the sum of the truncated advances before it, and a
/// glyph's image moves by its `x_offset` as `(int)(bitmap_left + x_offset / 64.0)` (fcft.c,
/// `rasterize_partial_run`).
final class HarfBuzzShapingTests: XCTestCase {
    /// One glyph of hb-shape's JSON output: cluster (code-point index), advance and offsets, 26.6.
    struct HBGlyph: Decodable {
        let g: Int, cl: Int, ax: Int, dx: Int, dy: Int
    }

    /// Why a tool the comparison needs gave no answer (scripts/test installs libharfbuzz-bin,
    /// fontconfig and fonts-noto-color-emoji, so this is a failure, not a skip).
    struct ToolFailure: Error, CustomStringConvertible { let description: String }

    /// Output of `command` (on PATH); the process is waited for at most 10 s, then killed.
    /// - Throws: `ToolFailure` when it cannot run, does not finish or exits non-zero.
    static func output(_ command: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate(); process.waitUntilExit(); throw ToolFailure(description: "\(command) did not finish in 10 s") }
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(command) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The font file fontconfig resolves for `pattern` (what fcft opens as the primary font).
    static func fontFile(_ pattern: String) throws -> String {
        try output("fc-match", ["-f", "%{file}", pattern])
    }

    /// HarfBuzz's shaping of `text` with `file` at `pixels` ppem, 26.6 (see the class comment).
    static func hbShape(_ text: String, file: String, pixels: Int) throws -> [HBGlyph] {
        let json = try output("hb-shape", ["--font-funcs=ft", "--font-ppem=\(pixels)", "--font-size=\(64 * pixels)",
                                           "--no-glyph-names", "--output-format=json", file, text])
        return try JSONDecoder().decode([HBGlyph].self, from: Data(json.utf8))
    }

    /// fcft's whole-pixel advance of a 26.6 advance (toward zero).
    static func pixels(_ v: Int) -> Int { Int(Double(v) / 64) }

    /// Asserts that `font` lays `text` out as HarfBuzz does: the same glyphs' clusters in the same
    /// (visual) order, each advance HarfBuzz's truncated to whole pixels, each pen position the sum
    /// of those before it, and the width their sum. `expected` is HarfBuzz's glyphs in visual
    /// order (several hb-shape runs joined, clusters already moved to offsets in `text`).
    func assertShaped(_ text: String, font: PixmanFont, as expected: [HBGlyph], advanceTolerance: Int = 0,
                      file: StaticString = #filePath, line: UInt = #line) {
        let glyphs = font.glyphs(of: text)
        XCTAssertEqual(glyphs.map(\.cluster), expected.map(\.cl), "clusters of \(text)", file: file, line: line)
        guard glyphs.count == expected.count else { return }
        var pen = 0
        for (glyph, hb) in zip(glyphs, expected) {
            XCTAssertEqual(Double(glyph.advance), Double(Self.pixels(hb.ax)), accuracy: Double(advanceTolerance),
                           "advance of cluster \(hb.cl) in \(text)", file: file, line: line)
            XCTAssertEqual(glyph.penX, pen, "pen position of cluster \(hb.cl) in \(text)", file: file, line: line)
            pen += glyph.advance
        }
        XCTAssertEqual(font.width(of: text), pen, "width of \(text)", file: file, line: line)
    }

    private func font(_ pattern: String = "sans-serif", pixels: Int = 20) throws -> PixmanFont {
        let font = try PixmanFont(pattern: pattern, pixelSize: pixels)
        guard font.shaping == .textRun else { throw XCTSkip("this fcft cannot shape text runs") }
        return font
    }

    /// Latin with kerning pairs (A–V, A–T, W–a): HarfBuzz's kerned advances, and a width less
    /// than the unkerned one.
    func testLatinWithKerningAsHarfBuzzShapesIt() throws {
        let text = "AVATAR Wave"
        for (pattern, pixels) in [("sans-serif", 20), ("sans-serif:weight=bold", 34)] {
            let font = try font(pattern, pixels: pixels)
            assertShaped(text, font: font, as: try Self.hbShape(text, file: try Self.fontFile(pattern), pixels: pixels))
            let unkerned = try PixmanFont(pattern: pattern, pixelSize: pixels, kerning: false)
            XCTAssertLessThan(font.width(of: text), unkerned.width(of: text))
        }
    }

    /// A base with a combining mark that has no precomposed form (q + U+0301, x + U+0323 U+0301):
    /// HarfBuzz's glyphs (the marks in the base's cluster, zero advance), and the mark's image moved
    /// by HarfBuzz's `x_offset` from where the mark's glyph alone sits.
    func testCombiningMarksAsHarfBuzzPositionsThem() throws {
        let font = try font()
        let file = try Self.fontFile("sans-serif")
        for text in ["q\u{301}", "x\u{323}\u{301}", "e\u{301}"] {
            let hb = try Self.hbShape(text, file: file, pixels: 20)
            assertShaped(text, font: font, as: hb)
            let glyphs = font.glyphs(of: text)
            guard glyphs.count == hb.count, hb.count > 1 else { continue }
            let codePoints = try PixmanFont(pattern: "sans-serif", pixelSize: 20, shaping: .codePoint)
            for (i, mark) in text.unicodeScalars.enumerated().dropFirst() {
                let alone = codePoints.glyphs(of: String(mark))[0]
                XCTAssertEqual(glyphs[i].inkX, Int(Double(alone.inkX) + Double(hb[i].dx) / 64),
                               "mark U+\(String(mark.value, radix: 16)) of \(text): x")
                XCTAssertEqual(glyphs[i].inkY, -Int(Double(-alone.inkY) + Double(hb[i].dy) / 64),
                               "mark U+\(String(mark.value, radix: 16)) of \(text): y")
            }
        }
        // "e" + U+0301 becomes HarfBuzz's one precomposed glyph (é): one glyph, as wide as "é".
        XCTAssertEqual(font.glyphs(of: "e\u{301}").count, 1)
        XCTAssertEqual(font.width(of: "e\u{301}"), font.width(of: "\u{E9}"))
    }

    /// Hebrew and Arabic (right to left, Arabic letters joined): HarfBuzz's glyphs of the whole
    /// line in its visual order — the first logical character's glyph last (rightmost).
    func testRightToLeftTextAsHarfBuzzShapesIt() throws {
        let font = try font()
        let file = try Self.fontFile("sans-serif")
        for text in ["שלום עולם", "מרחבא בכם", "مرحبا بالعالم", "שׁלום"] {
            let hb = try Self.hbShape(text, file: file, pixels: 20)
            XCTAssertEqual(hb.last?.cl, 0, "hb-shape guessed right to left for \(text)")
            assertShaped(text, font: font, as: hb)
        }
    }

    /// A left-to-right line with a Hebrew word: the Latin run as HarfBuzz shapes it, then the Hebrew
    /// word as HarfBuzz shapes it alone (right to left), its clusters after the Latin ones.
    func testMixedDirectionsAreRunsInVisualOrder() throws {
        let font = try font()
        let file = try Self.fontFile("sans-serif")
        let latin = try Self.hbShape("Shalom ", file: file, pixels: 20)
        let hebrew = try Self.hbShape("שלום", file: file, pixels: 20).map { HBGlyph(g: $0.g, cl: $0.cl + 7, ax: $0.ax, dx: $0.dx, dy: $0.dy) }
        assertShaped("Shalom שלום", font: font, as: latin + hebrew)
        XCTAssertEqual(font.glyphs(of: "Shalom שלום").map(\.cluster), [0, 1, 2, 3, 4, 5, 6, 10, 9, 8, 7])
        // A right-to-left line with a Latin word: the Hebrew words right to left around it, the
        // Latin word read left to right.
        XCTAssertEqual(font.glyphs(of: "שלום abc עולם").map(\.cluster), [12, 11, 10, 9, 8, 5, 6, 7, 4, 3, 2, 1, 0])
    }

    /// An emoji ZWJ sequence (woman + ZWJ + laptop: "woman technologist") is one colour glyph of
    /// Noto Color Emoji, as HarfBuzz composes it, with HarfBuzz's advance (±1 pixel: fcft shapes a
    /// bitmap font at its strike size and scales the advance by pixel size / strike size, where
    /// hb-shape scales the font first).
    func testEmojiZWJSequenceIsOneColourGlyph() throws {
        let font = try font()
        let text = "\u{1F469}\u{200D}\u{1F4BB}"
        let emojiFile = try Self.output("fc-list", [":charset=1f469 200d 1f4bb", "file"])
            .split(separator: "\n").first.map { String($0.split(separator: ":")[0]) }
        guard let emojiFile else { throw ToolFailure(description: "no colour emoji font (fonts-noto-color-emoji)") }
        let hb = try Self.hbShape(text, file: emojiFile, pixels: 20)
        XCTAssertEqual(hb.count, 1, "HarfBuzz composes the sequence into one glyph")
        assertShaped(text, font: font, as: hb, advanceTolerance: 1)
        XCTAssertEqual(font.glyphs(of: text).map(\.isColor), [true])
    }
}
