import ModalKitText
import XCTest
@testable import ModalKitWaylandClient
@testable import ModalKitWaylandDecorations

/// The title on the client-side bar, as drawn (``TitleBar/paint(_:stride:layout:title:activated:closeHovered:font:)``,
/// into memory): a title wider than the room between the margins (8 pt each side of the space left
/// of the close button) ends in "…" after the longest prefix of whole grapheme clusters that fits
/// with it (UIKit's and Pango's tail truncation, GNOME's title bars), instead of being clipped.
final class TitleBarTitleTests: XCTestCase {
    private static let background = TitleBar.Colors.activeBackground

    /// The bar's pixels (premultiplied ARGB) for `title`, `layout`'s buffer size.
    private func paint(_ title: String, _ layout: TitleBarLayout) -> [UInt32] {
        var pixels = [UInt32](repeating: 0, count: layout.bufferWidth * layout.bufferHeight)
        var font: PixmanFont?
        pixels.withUnsafeMutableBytes { bytes in
            TitleBar.paint(bytes.baseAddress!, stride: layout.bufferWidth * 4, layout: layout, title: title,
                           activated: true, closeHovered: false, font: &font)
        }
        return pixels
    }

    /// Columns and rows (buffer pixels) where the title left ink: anything but the background left
    /// of the close button and above the separator line.
    private func ink(_ pixels: [UInt32], _ layout: TitleBarLayout) -> [(x: Int, y: Int)] {
        let right = layout.closeButtonPixels?.x ?? layout.bufferWidth
        var found: [(x: Int, y: Int)] = []
        for y in 0..<(layout.bufferHeight - 1) {
            for x in 0..<right where pixels[y * layout.bufferWidth + x] != Self.background { found.append((x, y)) }
        }
        return found
    }

    private func check(scale: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let layout = TitleBarLayout(width: 200, scale: scale)
        let title = String(repeating: "H", count: 60)
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: Int((14 * scale).rounded()), kerning: false)
        let margin = Int((8 * scale).rounded())
        let textRight = try XCTUnwrap(layout.closeButtonPixels, file: file, line: line).x
        let room = textRight - 2 * margin
        XCTAssertGreaterThan(font.width(of: title), room, "the title is wider than the bar's room", file: file, line: line)
        // The longest prefix of whole clusters that fits with "…".
        var kept = 0
        while font.width(of: String(repeating: "H", count: kept + 1) + "…") <= room { kept += 1 }
        XCTAssertGreaterThan(kept, 0, file: file, line: line)
        let expected = String(repeating: "H", count: kept) + "…"

        let drawn = paint(title, layout)
        let differing = zip(drawn, paint(expected, layout)).filter { $0 != $1 }.count
        XCTAssertEqual(differing, 0, "pixels unlike \(kept) H and an ellipsis, for \(title.count) H", file: file, line: line)
        let marks = ink(drawn, layout)
        let lastColumn = try XCTUnwrap(marks.map(\.x).max(), "the title left ink", file: file, line: line)
        XCTAssertLessThan(lastColumn, textRight - margin, "within the right margin, not clipped at it", file: file, line: line)
        XCTAssertGreaterThanOrEqual(marks.map(\.x).min() ?? 0, margin, file: file, line: line)
        // It ends in three dots on the baseline: the columns of the ellipsis glyph's ink at the end
        // hold ink no taller than a third of the letters' (an H is ink from baseline to cap height).
        let ellipsisInk = try XCTUnwrap(font.glyphs(of: "…").first, file: file, line: line).inkWidth
        let ellipsisStart = lastColumn + 1 - ellipsisInk
        let tail = marks.filter { $0.x >= ellipsisStart }, letters = marks.filter { $0.x < ellipsisStart }
        let tailHeight = (tail.map(\.y).max() ?? 0) - (tail.map(\.y).min() ?? 0) + 1
        let letterHeight = (letters.map(\.y).max() ?? 0) - (letters.map(\.y).min() ?? 0) + 1
        XCTAssertLessThanOrEqual(3 * tailHeight, letterHeight,
                                 "the last \(ellipsisInk) columns are dots (\(tailHeight) rows), not letters (\(letterHeight) rows)",
                                 file: file, line: line)
    }

    func testALongTitleEndsInAnEllipsisAtScaleOne() throws { try check(scale: 1) }
    func testALongTitleEndsInAnEllipsisAtScaleTwo() throws { try check(scale: 2) }
    func testALongTitleEndsInAnEllipsisAtAFractionalScale() throws { try check(scale: 1.5) }

    /// A title that fits is drawn whole and centred: its pixels are those of the same bar before
    /// truncation existed (nothing to cut), the ink centred on the bar within a pixel of rounding.
    func testATitleThatFitsIsDrawnWholeAndCentred() throws {
        let layout = TitleBarLayout(width: 400, scale: 1)
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 14, kerning: false)
        let title = "ModalKit"
        let marks = ink(paint(title, layout), layout)
        let first = try XCTUnwrap(marks.map(\.x).min()), last = try XCTUnwrap(marks.map(\.x).max())
        let left = (layout.bufferWidth - font.width(of: title)) / 2
        XCTAssertGreaterThanOrEqual(first, left - 1, "the pen starts at the centred position (ink may start a bearing later)")
        XCTAssertLessThanOrEqual(last, left + font.width(of: title), "and ends within its advance")
        XCTAssertEqual(font.truncated(title, toWidth: 400 - 28 - 16), title)
    }
}
