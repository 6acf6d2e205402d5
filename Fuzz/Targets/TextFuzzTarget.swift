import CModalKitPixman
import ModalKitText

/// Text from anywhere (a label, a list row, a title from the command line) through ModalKitText:
/// the first bytes pick the width, the line limit, the font (DejaVu Sans at 13 px, each shaping
/// fcft offers) and where the text is drawn; the rest is the text, decoded as UTF-8 with bytes
/// that are not replaced (as `String(decoding:as:)` does with what a program reads). The text is
/// shaped, measured, wrapped, truncated and drawn into a small image, partly outside it.
enum TextFuzzTarget {
    /// One font per shaping level fcft offers here, made at the first input.
    private static let fonts: [PixmanFont] = {
        TextShaping.allCases.filter { $0 <= TextShaping.available }.map { shaping in
            do {
                return try PixmanFont(pattern: "DejaVu Sans", pixelSize: 13, shaping: shaping)
            } catch {
                fatalError("modalkit-fuzz: no font: \(error)")
            }
        }
    }()

    private static let image: OpaquePointer = pixman_image_create_bits(PIXMAN_a8r8g8b8, 48, 24, nil, 0)

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let width = Int(input.byte()) * 2
        let limits = input.byte()
        let font = fonts[Int(limits >> 4) % fonts.count]
        let x = Int(Int8(bitPattern: input.byte())), baseline = Int(Int8(bitPattern: input.byte()))
        let text = String(decoding: input.rest, as: UTF8.self)

        let glyphs = font.glyphs(of: text)
        let scalars = text.unicodeScalars.count
        for g in glyphs { precondition(g.cluster >= 0 && g.cluster < scalars, "a cluster outside the text: \(g.cluster) of \(scalars)") }
        _ = font.width(of: text)
        let lines = font.wrapped(text, toWidth: width, maximumLines: Int(limits & 7))
        if limits & 7 != 0 { precondition(lines.count <= Int(limits & 7), "\(lines.count) lines, at most \(limits & 7) asked") }
        for line in lines where line.count > 1 {
            precondition(font.width(of: line) <= width, "a line of \(font.width(of: line)) px wrapped to \(width): \(line.debugDescription)")
        }
        _ = font.truncated(text, toWidth: width)
        let color = Color(rgb: 0x20_4080)
        font.draw(text, into: image, x: x, baseline: baseline, color: color)
        for (i, line) in lines.prefix(3).enumerated() {
            font.draw(line, into: image, x: x, baseline: baseline + i * 15, color: color)
        }
        font.drawCentered(text, into: image, centerX: Double(x), centerY: Double(baseline), color: color)
    }
}
