// The visual order of a line: a minimal reading of the Unicode Bidirectional Algorithm (UAX #9),
// enough to put right-to-left words where a reader expects them. fcft shapes one run at a time
// in one direction (HarfBuzz guesses it from the run's script), so a line of mixed direction is
// split here into directional runs first. What this covers, on grapheme clusters:
//
// - Bidi classes from the first non-mark code point of each cluster: strong right-to-left for the
//   Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic blocks and their presentation forms
//   (U+0590–U+08FF, U+FB1D–U+FDFF, U+FE70–U+FEFF, U+10800–U+10FFF, U+1E800–U+1EFFF) and
//   RLM/ALM; strong left-to-right for every other letter and LRM; numbers for decimal digits; every
//   other cluster (spaces, punctuation, symbols, emoji) neutral.
// - The paragraph direction from the first strong cluster (P2/P3; left-to-right when none).
// - Numbers after left-to-right text (or at the start of a left-to-right paragraph) are
//   left-to-right (W7); others stay numbers, shown left to right inside right-to-left text (I1/I2).
// - Neutrals between two clusters of the same direction take it, otherwise the paragraph's
//   (N1/N2, a number counting as right-to-left).
// - Levels 0–2 and the reversal of runs from the highest level down (L2).
//
// Not covered (the full algorithm, as in FriBidi, is not a dependency): explicit embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069 are treated as neutrals), the weak types
// ES/ET/CS/AN/NSM beyond the above, and mirrored glyphs (L4: "(" stays "(" in right-to-left text).

/// A cluster's bidi class, as this minimal algorithm sees it.
enum BidiClass: Equatable {
    case leftToRight, rightToLeft, number, neutral

    /// The class of a grapheme cluster: that of its first code point that is neither a mark nor
    /// an invisible format character (ZWJ, variation selectors' neighbours), LRM/RLM/ALM excepted.
    init(_ cluster: Character) {
        for scalar in cluster.unicodeScalars {
            let v = scalar.value
            let directionalMark = v == 0x200E || v == 0x200F || v == 0x061C
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            case .format where !directionalMark: continue
            default: self = BidiClass(scalar); return
            }
        }
        self = .neutral
    }

    init(_ scalar: Unicode.Scalar) {
        let v = scalar.value
        if v == 0x200F || v == 0x061C { self = .rightToLeft; return }
        if v == 0x200E { self = .leftToRight; return }
        let props = scalar.properties
        if props.generalCategory == .decimalNumber { self = .number; return }
        guard props.isAlphabetic else { self = .neutral; return }
        let rightToLeftBlock = (0x0590...0x08FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
            || (0x10800...0x10FFF).contains(v) || (0x1E800...0x1EFFF).contains(v)
        self = rightToLeftBlock ? .rightToLeft : .leftToRight
    }
}

/// One directional run of a line: clusters `clusters` (indices into the line's clusters, logical
/// order), drawn right to left when `isRightToLeft`.
struct BidiRun: Equatable {
    var clusters: Range<Int>
    var isRightToLeft: Bool
}

enum Bidi {
    /// Whether the paragraph of these classes reads right to left (its first strong class, P2/P3).
    static func isRightToLeftParagraph(_ classes: [BidiClass]) -> Bool {
        for c in classes {
            if c == .leftToRight { return false }
            if c == .rightToLeft { return true }
        }
        return false
    }

    /// The embedding level of each cluster (0 left to right, 1 right to left, 2 left to right
    /// inside right-to-left text), by the rules above.
    static func levels(_ classes: [BidiClass]) -> [Int] {
        var resolved: [BidiClass] = [], levels: [Int] = []
        Bidi.levels(classes, resolved: &resolved, into: &levels)
        return levels
    }

    /// ``levels(_:)`` into `levels`, with `resolved` as working storage (both emptied first, their
    /// storage reused: no allocation once they have grown).
    static func levels(_ classes: [BidiClass], resolved: inout [BidiClass], into levels: inout [Int]) {
        let paragraphRTL = isRightToLeftParagraph(classes)
        resolved.removeAll(keepingCapacity: true)
        resolved.append(contentsOf: classes)
        // W7: a number whose previous strong class (or the paragraph, if none) is L becomes L.
        var lastStrong: BidiClass = paragraphRTL ? .rightToLeft : .leftToRight
        for i in resolved.indices {
            switch resolved[i] {
            case .leftToRight, .rightToLeft: lastStrong = resolved[i]
            case .number where lastStrong == .leftToRight: resolved[i] = .leftToRight
            default: break
            }
        }
        // N1/N2: neutrals between equal directions take that direction, else the paragraph's.
        func direction(_ c: BidiClass) -> Bool { c != .leftToRight }   // true: right to left (numbers count as R)
        var i = 0
        while i < resolved.count {
            guard resolved[i] == .neutral else { i += 1; continue }
            var end = i
            while end < resolved.count, resolved[end] == .neutral { end += 1 }
            let before = i > 0 ? direction(resolved[i - 1]) : paragraphRTL
            let after = end < resolved.count ? direction(resolved[end]) : paragraphRTL
            let rtl = before == after ? before : paragraphRTL
            for k in i..<end { resolved[k] = rtl ? .rightToLeft : .leftToRight }
            i = end
        }
        // I1/I2.
        levels.removeAll(keepingCapacity: true)
        for c in resolved {
            switch (paragraphRTL, c) {
            case (false, .leftToRight): levels.append(0)
            case (false, .rightToLeft): levels.append(1)
            case (false, _): levels.append(2)
            case (true, .rightToLeft): levels.append(1)
            case (true, _): levels.append(2)
            }
        }
    }

    /// The line's directional runs in visual order, left to right (L2: from the highest level
    /// down to the lowest odd one, every maximal sequence of runs at that level or higher is
    /// reversed).
    static func visualRuns(_ classes: [BidiClass]) -> [BidiRun] {
        var runs: [LeveledRun] = []
        visualRuns(levels: levels(classes), into: &runs)
        return runs.map { BidiRun(clusters: $0.clusters, isRightToLeft: $0.level % 2 == 1) }
    }

    /// ``visualRuns(_:)`` of clusters at `levels`, into `runs` (emptied first, its storage
    /// reused), each with its level.
    static func visualRuns(levels: [Int], into runs: inout [LeveledRun]) {
        runs.removeAll(keepingCapacity: true)
        guard !levels.isEmpty else { return }
        var start = 0
        var highest = 0, lowestOdd = Int.max
        for i in 1...levels.count where i == levels.count || levels[i] != levels[start] {
            let level = levels[start]
            runs.append(LeveledRun(clusters: start..<i, level: level))
            highest = max(highest, level)
            if level % 2 == 1 { lowestOdd = min(lowestOdd, level) }
            start = i
        }
        if lowestOdd == Int.max { lowestOdd = highest + 1 }
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < runs.count {
                guard runs[i].level >= level else { i += 1; continue }
                var end = i
                while end < runs.count, runs[end].level >= level { end += 1 }
                runs[i..<end].reverse()
                i = end
            }
            level -= 1
        }
    }
}

/// The direction a paragraph reads in, from its first strong character (the Unicode Bidirectional
/// Algorithm's rules P2 and P3, UAX #9): right to left when that character is Hebrew, Arabic,
/// Syriac, Thaana, N'Ko or another right-to-left script (or RLM/ALM), left to right when it is any
/// other letter (or LRM) or when the text has no strong character (digits, punctuation, emoji
/// only). A list row or a label of natural alignment is aligned to the paragraph's start: the
/// right edge for a right-to-left paragraph (GTK's and UIKit's natural text alignment).
public enum ParagraphDirection: Sendable, Equatable {
    /// Left to right (Latin, CJK, Cyrillic, …; and text without a strong character).
    case leftToRight
    /// Right to left (Arabic, Hebrew, …).
    case rightToLeft

    /// The direction of the paragraph `text` (its first line's, when it has several).
    public init(of text: String) {
        for cluster in text {
            if cluster.isNewline { break }
            switch BidiClass(cluster) {
            case .leftToRight: self = .leftToRight; return
            case .rightToLeft: self = .rightToLeft; return
            case .number, .neutral: continue
            }
        }
        self = .leftToRight
    }
}
