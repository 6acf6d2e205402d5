/// Where a caret stands between the characters of one shaped line, and where each character is
/// drawn: what a text field needs to place its caret, draw its selection and turn a pointer's x
/// back into a position (Pango's `pango_layout_index_to_pos` / `xy_to_index`, simplified to one line).
/// Buffer pixels from the line's origin (the left end of its baseline), as ``PixmanFont/glyphs(of:)``.
public struct CaretLayout: Equatable, Sendable {
    /// The caret's x before each character (grapheme cluster, logical order) and after the last:
    /// `text.count + 1` values. Before a character of a left-to-right run: its left edge; of a
    /// right-to-left run: its right edge (the edge where it starts reading); after the last: its end
    /// edge. A character drawn without a glyph of its own (joined into the previous one's ligature)
    /// takes the caret position before it.
    public var positions: [Int]
    /// Each character's drawn extent, from its leftmost glyph's pen position to its rightmost
    /// glyph's pen position plus advance (empty at the caret position for a character without glyphs).
    public var extents: [Range<Int>]
    /// Whether each character lies in a right-to-left run (Unicode bidi level odd).
    public var isRightToLeft: [Bool]
    /// The line's advance width.
    public var width: Int

    /// The boundary (0...characters) whose caret position is nearest to `x`.
    public func boundary(nearest x: Int) -> Int {
        var best = 0, bestDistance = Int.max
        for (i, p) in positions.enumerated() where abs(p - x) < bestDistance {
            best = i
            bestDistance = abs(p - x)
        }
        return best
    }
}

extension PixmanFont {
    /// The caret positions and character extents of `text` drawn as one line by this font
    /// (``CaretLayout``), from the glyphs ``glyphs(of:)`` places and the line's bidi levels.
    public func caretLayout(of text: String) -> CaretLayout {
        let line = EditableLine(font: self)
        line.update(text)
        return line.caret
    }

    /// `text` shaped into `line` and its caret layout into `caret`, both in their own storage
    /// (emptied first, reused: no allocation once grown, when the text's words are cached).
    func layOut(_ text: String, into line: ShapedLine, caret: inout CaretLayout) {
        shape(text, into: line)
        var s = scratch
        scratch = LineScratch()
        defer { scratch = s }
        caret.positions.removeAll(keepingCapacity: true)
        caret.extents.removeAll(keepingCapacity: true)
        caret.isRightToLeft.removeAll(keepingCapacity: true)
        caret.width = line.width
        guard !text.isEmpty else {
            caret.positions.append(0)
            return
        }
        // `shape` left the text's cluster starts, classes and levels in the scratch.
        let clusters = s.classes.count
        s.low.removeAll(keepingCapacity: true)
        s.high.removeAll(keepingCapacity: true)
        for _ in 0..<clusters {
            s.low.append(Int.max)
            s.high.append(Int.min)
        }
        let glyphs = line.glyphs
        for (i, g) in glyphs.enumerated() {
            // The cluster holding the glyph's first code point: the last start at or before it.
            var a = 0, b = clusters - 1
            while a < b {
                let m = (a + b + 1) / 2
                if s.starts[m] <= g.cluster { a = m } else { b = m - 1 }
            }
            let advance = (i + 1 < glyphs.count ? glyphs[i + 1].penX : line.width) - g.penX
            s.low[a] = min(s.low[a], g.penX)
            s.high[a] = max(s.high[a], g.penX + advance)
        }
        for level in s.levels { caret.isRightToLeft.append(level % 2 == 1) }
        for k in 0..<clusters {
            let lo = s.low[k], hi = s.high[k]
            if lo == Int.max {
                let p = caret.positions.last ?? (Bidi.isRightToLeftParagraph(s.classes) ? line.width : 0)
                caret.positions.append(p)
                caret.extents.append(p..<p)
            } else {
                caret.positions.append(caret.isRightToLeft[k] ? hi : lo)
                caret.extents.append(lo..<max(lo, hi))
            }
        }
        let last = clusters - 1
        let lo = s.low[last], hi = s.high[last]
        caret.positions.append(lo == Int.max ? caret.positions[last] : (caret.isRightToLeft[last] ? lo : hi))
    }
}

/// One line of text laid out for editing by one font: shaped and given its caret layout again for
/// each new text in the same storage, so a text field that changes with every key allocates nothing
/// for its line once the storage has grown and the words it shows are in the font's word cache.
/// Buffer pixels, as ``PixmanFont``. Used by one thread at a time, as its font.
package final class EditableLine {
    package let font: PixmanFont
    /// The caret layout of the text of the last ``update(_:)``.
    package private(set) var caret = CaretLayout(positions: [0], extents: [], isRightToLeft: [], width: 0)
    private let line = ShapedLine()
    /// The UTF-8 of the text laid out (its own copy: a caller's string stays unshared).
    private var text: [UInt8] = []

    package init(font: PixmanFont) { self.font = font }

    /// Lays out `text` unless it is the text already laid out.
    package func update(_ text: String) {
        guard !text.utf8.elementsEqual(self.text) else { return }
        self.text.removeAll(keepingCapacity: true)
        self.text.append(contentsOf: text.utf8)
        font.layOut(text, into: line, caret: &caret)
    }

    /// Draws the line OVER `image` with its origin at `x` and its baseline at `baseline`, as
    /// ``PixmanFont/draw(_:into:x:baseline:color:)`` draws its text.
    package func draw(into image: OpaquePointer, x: Int, baseline: Int, color: Color) {
        font.draw(line, into: image, x: x, baseline: baseline, color: color)
    }
}
