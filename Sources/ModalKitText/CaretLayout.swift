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
        let clusters = Array(text)
        guard !clusters.isEmpty else { return CaretLayout(positions: [0], extents: [], isRightToLeft: [], width: 0) }
        var starts: [Int] = []
        starts.reserveCapacity(clusters.count)
        var n = 0
        for c in clusters {
            starts.append(n)
            n += c.unicodeScalars.count
        }
        var lo = [Int](repeating: Int.max, count: clusters.count), hi = [Int](repeating: Int.min, count: clusters.count)
        for g in glyphs(of: text) {
            // The cluster holding the glyph's first code point: the last start at or before it.
            var a = 0, b = starts.count - 1
            while a < b {
                let m = (a + b + 1) / 2
                if starts[m] <= g.cluster { a = m } else { b = m - 1 }
            }
            lo[a] = min(lo[a], g.penX)
            hi[a] = max(hi[a], g.penX + g.advance)
        }
        let rtl = Bidi.levels(clusters.map(BidiClass.init)).map { $0 % 2 == 1 }
        var positions: [Int] = []
        positions.reserveCapacity(clusters.count + 1)
        var extents: [Range<Int>] = []
        extents.reserveCapacity(clusters.count)
        for k in clusters.indices {
            if lo[k] == Int.max {
                let p = positions.last ?? (Bidi.isRightToLeftParagraph(clusters.map(BidiClass.init)) ? width(of: text) : 0)
                positions.append(p)
                extents.append(p..<p)
            } else {
                positions.append(rtl[k] ? hi[k] : lo[k])
                extents.append(lo[k]..<max(lo[k], hi[k]))
            }
        }
        let last = clusters.count - 1
        positions.append(lo[last] == Int.max ? positions[last] : (rtl[last] ? lo[last] : hi[last]))
        return CaretLayout(positions: positions, extents: extents, isRightToLeft: rtl, width: width(of: text))
    }
}
