import ModalKit
import ModalKitText

/// Text of one style, wrapped to a width: the piece every other content piece is made of (UIKit's
/// `UILabel` with `numberOfLines`, GTK's `GtkLabel` with wrapping). A value: lay it out, draw it.
///
/// Natural alignment puts each line at the paragraph's start (`ParagraphDirection`, from the
/// first strong character, Unicode bidi P2/P3): the left edge of the frame for left-to-right text,
/// the right edge for Arabic or Hebrew. Layout is in points, measured with the style's font at
/// scale 1; drawing uses the font at the draw scale, lines at whole buffer pixels.
public struct Label: Hashable, Sendable {
    /// Where lines sit across the frame.
    public enum Alignment: Hashable, Sendable {
        /// At the paragraph's start: left for left-to-right text, right for right-to-left text.
        case natural
        /// Centred (an alert's title and message, libadwaita's and UIKit's alerts).
        case center
    }

    /// One laid-out line at a draw scale, buffer pixels from the image's origin.
    public struct Line: Hashable, Sendable {
        /// The line's text.
        public var text: String
        /// The pen's start: the left end of the line's baseline, buffer pixels.
        public var x: Int
        /// The baseline, buffer pixels.
        public var baseline: Int
        /// The line's advance width, buffer pixels (its right end is `x + width`).
        public var width: Int
    }

    /// The text (may be empty: the label is then 0 points tall).
    public var text: String
    /// Its size, weight and colour.
    public var style: TextStyle
    /// Where lines sit across the frame.
    public var alignment: Alignment
    /// At most this many lines, the last ending in "…" when cut; 0: as many as the text needs.
    public var maximumLines: Int
    /// The distance from one line's baseline to the next, points (CSS `line-height`, UIKit's
    /// `NSParagraphStyle.minimumLineHeight` = `maximumLineHeight`), drawn as that many points ×
    /// scale rounded to whole buffer pixels; nil: the font's line box, its ascent + descent at the
    /// draw scale.
    public var lineHeight: Double?

    /// - Parameters:
    ///   - text: the text.
    ///   - style: its look (default ``TextStyle/body``).
    ///   - alignment: natural (default) or centred.
    ///   - maximumLines: the line limit, 0 (default) for none.
    ///   - lineHeight: points from baseline to baseline, nil (default) for the font's line box.
    public init(_ text: String, style: TextStyle = .body, alignment: Alignment = .natural, maximumLines: Int = 0,
                lineHeight: Double? = nil) {
        self.text = text
        self.style = style
        self.alignment = alignment
        self.maximumLines = maximumLines
        self.lineHeight = lineHeight
    }

    /// The text's paragraph direction (first strong character).
    public var direction: ParagraphDirection { ParagraphDirection(of: text) }

    /// The height the label needs at `width` points, at scale 1: the first line's box (the font's
    /// ascent + descent) and ``lineHeight`` (or that box again) for each further wrapped line,
    /// points; 0 for empty text or without a font.
    public func height(fittingWidth width: Double) -> Double {
        guard !text.isEmpty, let font = style.font(scale: 1) else { return 0 }
        let count = wrapped(font, width: width, scale: 1).count
        return count == 0 ? 0 : Double(font.ascent + font.descent + (count - 1) * linePitch(font, scale: 1))
    }

    /// Buffer pixels from one baseline to the next at `scale`.
    private func linePitch(_ font: PixmanFont, scale: Double) -> Int {
        lineHeight.map { px($0, scale) } ?? font.ascent + font.descent
    }

    /// The width of the text on one line, points (at scale 1).
    public var naturalWidth: Double {
        guard let font = style.font(scale: 1) else { return 0 }
        return Double(font.width(of: text))
    }

    /// The lines as drawn in `frame` (points) at `scale`: wrapped at the frame's width, the first
    /// line's box (ascent + descent) at the frame's top, the next baselines ``lineHeight`` (or
    /// that box) apart, each line placed by ``alignment``.
    public func lines(in frame: Rect, scale: Double) -> [Line] {
        var lines: [Line] = []
        forEachLine(in: frame, scale: scale) { line, _ in lines.append(line) }
        return lines
    }

    /// Each line of ``lines(in:scale:)`` with the font it is drawn in, without collecting them (the
    /// wrapped lines come from the font's cache: no allocation once fitted).
    private func forEachLine(in frame: Rect, scale: Double, _ body: (Line, PixmanFont) -> Void) {
        guard !text.isEmpty, let font = style.font(scale: scale) else { return }
        let lineHeight = linePitch(font, scale: scale)
        let left = px(frame.minX, scale), right = px(frame.maxX, scale), top = px(frame.minY, scale)
        let rightToLeft = direction == .rightToLeft
        for (i, text) in wrapped(font, width: frame.width, scale: scale).enumerated() {
            let w = font.width(of: text)
            let x: Int
            switch alignment {
            case .natural: x = rightToLeft ? right - w : left
            case .center: x = Int((Double(left + right - w) / 2).rounded(.down))
            }
            body(Line(text: text, x: x, baseline: top + i * lineHeight + font.ascent, width: w), font)
        }
    }

    /// Draws the label OVER `image` (a pixman `PIXMAN_a8r8g8b8` image) in `frame`, points, at
    /// `scale` buffer pixels per point.
    public func draw(into image: OpaquePointer, frame: Rect, scale: Double) {
        let color = style.color
        forEachLine(in: frame, scale: scale) { line, font in
            font.draw(line.text, into: image, x: line.x, baseline: line.baseline, color: color)
        }
    }

    private func wrapped(_ font: PixmanFont, width: Double, scale: Double) -> [String] {
        font.wrapped(text, toWidth: max(1, Int((width * scale).rounded(.down))), maximumLines: max(0, maximumLines))
    }
}
