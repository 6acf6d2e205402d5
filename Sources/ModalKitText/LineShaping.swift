import CModalKitFcft

// Laying out one line: grapheme clusters, their bidi classes and directional runs in visual order,
// each run shaped in the font's mode (`TextShaping`). In the text-run mode a line is put together
// from words — each stretch of clusters between spaces, each space, and each right-to-left piece —
// shaped by fcft one word at a time and kept in the font's word cache, as browsers' word caches
// do (Chromium's `ShapeCache`, Firefox's `gfxShapedWord`): fcft gives every text run freshly
// rasterised glyphs, so a line shaped whole costs a run and all of its glyph images each time its
// text changes, where a line of cached words costs none. A key typed into a field reshapes only
// the word it changed; a pasted page of repeated words shapes each word once.
//
// What word-by-word shaping gives up is what crosses a space: kerning of a glyph against a space
// and ligatures through one. Our fonts have neither (DejaVu Sans, the default: no kerning pair of a
// space with any Latin letter, digit or punctuation; HarfBuzz gives every pair the same advances
// either way), and the browsers make the same trade. Nothing else changes: a right-to-left run was
// already shaped piece by piece (each stretch of strong right-to-left clusters, each neutral alone).
//
// Everything here works in storage the font keeps (`LineScratch`) and in the line it fills, so
// laying out a line whose words are cached allocates nothing once that storage has grown.

/// A glyph of a shaped line: fcft's glyph (owned by the font's cache, or by one of the text runs
/// of a word the line keeps) and where it goes.
struct PlacedGlyph {
    let glyph: UnsafePointer<fcft_glyph>
    /// The pen position from the line's (or the word's) origin, buffer pixels.
    let penX: Int
    /// The offset of the cluster's first code point in the line's (or the word's) code points.
    let cluster: Int
}

/// Glyphs placed from an origin, and the advance width they span.
class GlyphRow {
    var glyphs: [PlacedGlyph] = []
    var width = 0
}

/// A line shaped once: its glyphs in visual order, its advance width, and the words whose text
/// runs own those glyphs (kept alive as long as the line).
final class ShapedLine: GlyphRow {
    var words: [ShapedWord] = []

    /// Emptied for another text, its storage kept.
    func reset() {
        glyphs.removeAll(keepingCapacity: true)
        words.removeAll(keepingCapacity: true)
        width = 0
    }
}

/// One word shaped by fcft's text runs (the text-run mode): its code points and direction (the
/// cache's key), its glyphs from its own origin, and the runs that own them.
final class ShapedWord: GlyphRow {
    let scalars: [UInt32]
    let rightToLeft: Bool
    var runs: [UnsafeMutablePointer<fcft_text_run>] = []
    /// Another cached word of the same hash.
    var next: ShapedWord?

    init(scalars: [UInt32], rightToLeft: Bool) {
        self.scalars = scalars
        self.rightToLeft = rightToLeft
    }

    deinit { for run in runs { modalkit_fcft.text_run_destroy(run) } }

    func matches(_ text: UnsafeBufferPointer<UInt32>, _ range: Range<Int>, rightToLeft rtl: Bool) -> Bool {
        guard rtl == rightToLeft, scalars.count == range.count else { return false }
        var k = 0
        for i in range {
            if scalars[k] != text[i] { return false }
            k += 1
        }
        return true
    }
}

/// A directional run with its bidi level, while the runs are being reordered.
struct LeveledRun {
    var clusters: Range<Int>
    var level: Int
}

/// Working storage a font reuses for each line it lays out.
struct LineScratch {
    /// The line's code points, the offset of each cluster's first one (and the end), and each
    /// cluster's bidi class.
    var scalars: [UInt32] = []
    var starts: [Int] = []
    var classes: [BidiClass] = []
    /// Bidi resolution: resolved classes, levels, runs in visual order.
    var resolved: [BidiClass] = []
    var levels: [Int] = []
    var runs: [LeveledRun] = []
    /// The pieces of one right-to-left run.
    var pieces: [Range<Int>] = []
    /// Each cluster's leftmost and rightmost glyph edge (caret layout).
    var low: [Int] = [], high: [Int] = []

    /// Loads `text`: code points, cluster starts and classes.
    mutating func load(_ text: String) {
        scalars.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        classes.removeAll(keepingCapacity: true)
        for c in text {
            starts.append(scalars.count)
            for u in c.unicodeScalars { scalars.append(u.value) }
            classes.append(BidiClass(c))
        }
        starts.append(scalars.count)
    }
}

extension PixmanFont {
    /// The most words a font keeps shaped; the cache is emptied when it is full (lines that use
    /// its words keep them).
    public static let shapedWordCacheLimit = 2048

    /// `text` laid out into a new line.
    func shape(_ text: String) -> ShapedLine {
        let line = ShapedLine()
        shape(text, into: line)
        return line
    }

    /// `text` laid out into `line` (emptied first, its storage reused).
    func shape(_ text: String, into line: ShapedLine) {
        shapeCount += 1
        line.reset()
        guard !text.isEmpty else { return }
        var s = scratch
        scratch = LineScratch()   // `s` is the only owner of the storage while it is used
        defer { scratch = s }
        s.load(text)
        Bidi.levels(s.classes, resolved: &s.resolved, into: &s.levels)
        Bidi.visualRuns(levels: s.levels, into: &s.runs)
        let starts = s.starts, classes = s.classes, runs = s.runs
        var pieces = s.pieces
        s.pieces = []
        defer { s.pieces = pieces }
        s.scalars.withUnsafeBufferPointer { scalars in
            var layout = Layout(font: self, text: scalars, line: line)
            for run in runs {
                let clusters = run.clusters
                guard run.level % 2 == 1 else {
                    layout.append(clusters, rightToLeft: false, starts: starts)
                    continue
                }
                // A right-to-left run goes to fcft in pieces, placed right to left: each stretch of
                // strong right-to-left clusters (one script: fcft shapes it as one HarfBuzz run,
                // in visual order) and each other cluster alone. fcft would otherwise shape the
                // stretches between spaces (script Common) each in its own run but in logical order.
                pieces.removeAll(keepingCapacity: true)
                var i = clusters.lowerBound
                while i < clusters.upperBound {
                    var end = i + 1
                    if classes[i] == .rightToLeft {
                        while end < clusters.upperBound, classes[end] == .rightToLeft { end += 1 }
                    }
                    pieces.append(i..<end)
                    i = end
                }
                for piece in pieces.reversed() { layout.append(piece, rightToLeft: true, starts: starts) }
            }
        }
    }

    /// The cached word of `text[range]` in that direction, shaped and kept when not there.
    fileprivate func word(_ text: UnsafeBufferPointer<UInt32>, _ range: Range<Int>, clusters: Int,
                          rightToLeft: Bool, starts: [Int], firstCluster: Int) -> ShapedWord {
        var hasher = Hasher()
        hasher.combine(rightToLeft)
        hasher.combine(range.count)
        for i in range { hasher.combine(text[i]) }
        let key = hasher.finalize()
        var candidate = words[key]
        while let c = candidate {
            if c.matches(text, range, rightToLeft: rightToLeft) { return c }
            candidate = c.next
        }
        let word = ShapedWord(scalars: Array(text[range]), rightToLeft: rightToLeft)
        wordShapeCount += 1
        word.scalars.withUnsafeBufferPointer { own in
            var builder = WordBuilder(font: self, text: own, word: word)
            builder.build(clusters: clusters, starts: starts, firstCluster: firstCluster, offset: range.lowerBound)
        }
        if words.count >= PixmanFont.shapedWordCacheLimit || cachedWordGlyphs > PixmanFont.shapedGlyphCacheLimit {
            words.removeAll(keepingCapacity: true)
            cachedWordGlyphs = 0
        }
        word.next = words[key]
        words[key] = word
        cachedWordGlyphs += word.glyphs.count
        return word
    }

    /// Places glyphs in a row (a line or a word) from its origin, moving the pen: the glyph path
    /// shared by a line's grapheme and code-point modes and a word's fallbacks.
    private struct Pen {
        let font: PixmanFont
        /// The code points the clusters' offsets index.
        let text: UnsafeBufferPointer<UInt32>
        let row: GlyphRow
        var x = 0
        /// The code point of the last glyph placed (the left side of the next kerning pair); nil
        /// after a text run (HarfBuzz kerns text runs itself).
        var previous: UInt32?

        init(font: PixmanFont, text: UnsafeBufferPointer<UInt32>, row: GlyphRow) {
            self.font = font
            self.text = text
            self.row = row
        }

        mutating func place(_ glyph: UnsafePointer<fcft_glyph>, cluster: Int) {
            row.glyphs.append(PlacedGlyph(glyph: glyph, penX: x, cluster: cluster))
            x += Int(glyph.pointee.advance.x)
            row.width = x
        }

        /// The pen moved by the kerning between the previous glyph's code point and `next`.
        mutating func kern(before next: UInt32) {
            var kx = 0, ky = 0
            if font.kerning, let p = previous, modalkit_fcft.kerning(font.font, p, next, &kx, &ky) { x += kx }
            previous = next
        }

        /// One cluster (the code points `range`) shaped alone (`fcft_rasterize_grapheme_utf32`,
        /// cached by fcft), kerned against the glyph before; its code points one by one when fcft
        /// gives no grapheme.
        mutating func appendGrapheme(_ range: Range<Int>) {
            guard let grapheme = modalkit_fcft.rasterize_grapheme_utf32(font.font, range.count, text.baseAddress! + range.lowerBound,
                                                                       FCFT_SUBPIXEL_NONE) else {
                return appendCodePoints(range)
            }
            kern(before: text[range.lowerBound])
            for i in 0..<grapheme.pointee.count {
                if let g = grapheme.pointee.glyphs[i] { place(g, cluster: range.lowerBound) }
            }
        }

        /// Each code point of one cluster (the code points `range`), kerned pairwise.
        mutating func appendCodePoints(_ range: Range<Int>) {
            for offset in range {
                guard let g = modalkit_fcft.rasterize_char_utf32(font.font, text[offset], FCFT_SUBPIXEL_NONE) else { continue }
                kern(before: text[offset])
                place(g, cluster: range.lowerBound)
            }
        }
    }

    /// Appends shaped clusters to a line.
    private struct Layout {
        var pen: Pen
        let line: ShapedLine

        init(font: PixmanFont, text: UnsafeBufferPointer<UInt32>, line: ShapedLine) {
            pen = Pen(font: font, text: text, row: line)
            self.line = line
        }

        /// Clusters `clusters` (logical order) drawn left to right or right to left.
        mutating func append(_ clusters: Range<Int>, rightToLeft: Bool, starts: [Int]) {
            switch pen.font.shaping {
            case .textRun:
                if rightToLeft {
                    appendWord(clusters, rightToLeft: true, starts: starts)
                    return
                }
                // Left to right: word by word, each space its own word.
                var i = clusters.lowerBound
                while i < clusters.upperBound {
                    var end = i + 1
                    if !isSpace(i, starts) {
                        while end < clusters.upperBound, !isSpace(end, starts) { end += 1 }
                    }
                    appendWord(i..<end, rightToLeft: false, starts: starts)
                    i = end
                }
            case .grapheme:
                if rightToLeft {
                    for c in clusters.reversed() { pen.appendGrapheme(starts[c]..<starts[c + 1]) }
                } else {
                    for c in clusters { pen.appendGrapheme(starts[c]..<starts[c + 1]) }
                }
            case .codePoint:
                if rightToLeft {
                    for c in clusters.reversed() { pen.appendCodePoints(starts[c]..<starts[c + 1]) }
                } else {
                    for c in clusters { pen.appendCodePoints(starts[c]..<starts[c + 1]) }
                }
            }
        }

        func isSpace(_ cluster: Int, _ starts: [Int]) -> Bool {
            starts[cluster + 1] - starts[cluster] == 1 && pen.text[starts[cluster]] == 0x20
        }

        /// The cached word of the clusters, its glyphs placed from the pen.
        mutating func appendWord(_ clusters: Range<Int>, rightToLeft: Bool, starts: [Int]) {
            let start = starts[clusters.lowerBound], end = starts[clusters.upperBound]
            guard end > start else { return }
            let word = pen.font.word(pen.text, start..<end, clusters: clusters.count, rightToLeft: rightToLeft, starts: starts,
                                     firstCluster: clusters.lowerBound)
            line.words.append(word)
            for g in word.glyphs {
                line.glyphs.append(PlacedGlyph(glyph: g.glyph, penX: pen.x + g.penX, cluster: start + g.cluster))
            }
            pen.x += word.width
            line.width = pen.x
            pen.previous = nil
        }
    }

    /// Shapes one word with fcft's text runs into its own glyph list.
    private struct WordBuilder {
        var pen: Pen
        let word: ShapedWord

        init(font: PixmanFont, text: UnsafeBufferPointer<UInt32>, word: ShapedWord) {
            pen = Pen(font: font, text: text, row: word)
            self.word = word
        }

        /// The word's clusters (`clusters` of them; `starts[firstCluster...]` minus `offset` are
        /// their starts in the word's code points), as one text run; when fcft gives none, or a
        /// right-to-left stretch comes back in more than one HarfBuzz run, cluster by cluster.
        mutating func build(clusters: Int, starts: [Int], firstCluster: Int, offset: Int) {
            func start(_ k: Int) -> Int { starts[firstCluster + k] - offset }
            if appendTextRun(0..<pen.text.count, checkOrder: word.rightToLeft && clusters > 1) { return }
            if word.rightToLeft {
                for k in (0..<clusters).reversed() where !appendTextRun(start(k)..<start(k + 1), checkOrder: false) {
                    pen.appendGrapheme(start(k)..<start(k + 1))
                }
            } else {
                for k in 0..<clusters { pen.appendGrapheme(start(k)..<start(k + 1)) }
            }
        }

        /// fcft's text run of the code points `range`; false (nothing placed) when fcft returned
        /// none, or when `checkOrder` and its glyphs' clusters are not in descending order.
        mutating func appendTextRun(_ range: Range<Int>, checkOrder: Bool) -> Bool {
            guard !range.isEmpty,
                  let run = modalkit_fcft.rasterize_text_run_utf32(pen.font.font, range.count, pen.text.baseAddress! + range.lowerBound,
                                                                   FCFT_SUBPIXEL_NONE) else { return false }
            let r = run.pointee
            if checkOrder {
                for i in 1..<max(1, r.count) where r.cluster[i] > r.cluster[i - 1] {
                    modalkit_fcft.text_run_destroy(run)
                    return false
                }
            }
            word.runs.append(run)
            for i in 0..<r.count {
                guard let g = r.glyphs[i] else { continue }
                pen.place(g, cluster: range.lowerBound + Int(r.cluster[i]))
            }
            pen.previous = nil
            return true
        }
    }
}
