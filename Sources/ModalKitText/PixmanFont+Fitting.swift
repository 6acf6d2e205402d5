// Fitting text to a width: tail truncation with an ellipsis and word wrapping, over the font's
// shaped and cached measurements (ModalKitText.swift), in buffer pixels.

extension PixmanFont {
    // MARK: Fitting a width

    /// `text` as it fits `maxWidth` buffer pixels on one line: itself when ``width(of:)`` ≤
    /// `maxWidth`; otherwise its longest prefix of whole grapheme clusters (trailing spaces
    /// dropped) followed by `ellipsis`, whose width is ≤ `maxWidth` (UIKit's and Pango's tail
    /// truncation); "" when not even `ellipsis` fits.
    public func truncated(_ text: String, toWidth maxWidth: Int, ellipsis: String = "…") -> String {
        guard measure(text) > maxWidth else { return text }
        return fitted(FitKey(text: TextKey(text), width: maxWidth, lines: -1, ellipsis: TextKey(ellipsis))) {
            [ellipsized(Array(text), toWidth: maxWidth, ellipsis: ellipsis)]
        }[0]
    }

    /// The longest prefix of `clusters` (trailing spaces dropped) + `ellipsis` that fits, always
    /// ending in `ellipsis`; "" when not even `ellipsis` fits.
    private func ellipsized(_ clusters: [Character], toWidth maxWidth: Int, ellipsis: String) -> String {
        let ellipsisWidth = measure(ellipsis)
        guard ellipsisWidth <= maxWidth else { return "" }
        var count = longestFittingPrefix(clusters, width: maxWidth - ellipsisWidth)
        while count > 0 {
            let prefix = String(clusters[..<count]).trimmingTrailingSpaces
            if prefix.isEmpty { break }
            // Shaping across the cut (kerning against the ellipsis, a contextual form) can widen
            // the estimate: one cluster fewer until it fits.
            let candidate = prefix + ellipsis
            if measure(candidate) <= maxWidth { return candidate }
            count -= 1
        }
        return ellipsis
    }

    /// The most leading clusters whose glyphs' advances (in `text` shaped whole) sum to at most
    /// `width` pixels: an estimate from one shaping, exact unless shaping changes at the cut.
    private func longestFittingPrefix(_ clusters: [Character], width: Int) -> Int {
        let line = shape(String(clusters))
        var scalarEnd: [Int] = []   // scalar offset after each cluster
        var offset = 0
        for c in clusters { offset += c.unicodeScalars.count; scalarEnd.append(offset) }
        var advances = [Int](repeating: 0, count: clusters.count)
        for placed in line.glyphs {
            // The cluster whose scalar range holds the glyph's cluster offset.
            var lo = 0, hi = clusters.count - 1
            while lo < hi { let mid = (lo + hi) / 2; if scalarEnd[mid] > placed.cluster { hi = mid } else { lo = mid + 1 } }
            advances[lo] += Int(placed.glyph.pointee.advance.x)
        }
        var sum = 0, count = 0
        while count < clusters.count, sum + advances[count] <= width { sum += advances[count]; count += 1 }
        return count
    }

    /// `text` broken into lines of at most `maxWidth` buffer pixels each as this font draws them:
    /// at line feeds, then greedily at spaces (the spaces at a break dropped); a word wider than a
    /// line is broken between grapheme clusters (at least one cluster per line). With
    /// `maximumLines` > 0, the text after that many lines is cut and the last line ends in "…"
    /// (``truncated(_:toWidth:ellipsis:)``), as a label's `numberOfLines`. An empty paragraph is an
    /// empty line; "" gives no lines.
    public func wrapped(_ text: String, toWidth maxWidth: Int, maximumLines: Int = 0) -> [String] {
        guard !text.isEmpty else { return [] }
        return fitted(FitKey(text: TextKey(text), width: maxWidth, lines: max(0, maximumLines), ellipsis: TextKey(""))) {
            wrap(text, toWidth: maxWidth, maximumLines: maximumLines)
        }
    }

    private func wrap(_ text: String, toWidth maxWidth: Int, maximumLines: Int) -> [String] {
        var lines: [String] = []
        paragraphs: for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if measure(candidate) <= maxWidth { line = candidate; continue }
                if !line.isEmpty { lines.append(line) }
                // The word alone: broken at clusters while wider than a line.
                var rest = Array(word)
                while measure(String(rest)) > maxWidth, rest.count > 1 {
                    var count = max(1, longestFittingPrefix(rest, width: maxWidth))
                    // The estimate is from the word shaped whole; the piece alone can be wider (a
                    // joined letter at the cut takes its final form): one cluster fewer until it fits.
                    while count > 1, measure(String(rest[..<count])) > maxWidth { count -= 1 }
                    lines.append(String(rest[..<count]))
                    rest.removeFirst(count)
                }
                line = String(rest)
            }
            lines.append(line)
        }
        guard maximumLines > 0, lines.count > maximumLines else { return lines }
        // The last kept line takes the rest of the text, truncated (an ellipsis even when the rest
        // would fit: text was cut).
        let kept = lines[..<(maximumLines - 1)]
        let rest = lines[(maximumLines - 1)...].filter { !$0.isEmpty }.joined(separator: " ")
        return Array(kept) + [ellipsized(Array(rest), toWidth: maxWidth, ellipsis: "…")]
    }
}
