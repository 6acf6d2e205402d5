// modal-bench --text: drawing a shaped line through ModalKitText, in each shaping mode.
import CModalKitPixman
import Foundation
import ModalKitBenchSupport
import ModalKitClock
import ModalKitText

/// The lines drawn: the demo's body font (sans-serif, 15 px at scale 1) and title font (bold, 34 px).
private let textLines: [(name: String, pattern: String, pixels: Int, text: String)] = [
    ("latin", "sans-serif", 15, "Focus stays here until it is dismissed."),
    ("title", "sans-serif:weight=bold", 34, "AVATAR Wave ModalKit"),
    ("mark", "sans-serif", 15, "Q\u{301}ue\u{301} x\u{323}\u{301} q\u{301}"),
    ("hebrew", "sans-serif", 15, "שלום עולם, מה שלומך היום"),
    ("arabic", "sans-serif", 15, "مرحبا بالعالم، كيف حالك اليوم"),
    ("emoji", "sans-serif", 15, "Team \u{1F469}\u{200D}\u{1F4BB}\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} ok"),
]

/// Times `body` `count` times, one sample each, in microseconds.
private func microseconds(_ count: Int, _ body: (Int) -> Void) -> [Double] {
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for i in 0..<count {
        let t0 = monotonicSeconds()
        body(i)
        samples.append((monotonicSeconds() - t0) * 1e6)
    }
    return samples
}

func runText(runs: Int) -> Never {
    let draws = runs * 100
    print("modal-bench — shaped text (ModalKitText)")
    print("machine  \(Machine.cpuModel), \(Machine.onlineCores) cores, \(Machine.kernel)")
    print("build    pixman \(Machine.pixmanVersion), \(Machine.buildConfiguration)")
    print("load     \(Machine.loadAverage) (1/5/15-minute load average at start)")
    print("method   each line drawn OVER a 600×80 a8r8g8b8 image by PixmanFont.draw, \(draws) times per mode after")
    print("         10 warm-up draws: 'cached' draws the same line (shaped once, then from the font's cache);")
    print("         'new' draws a line not drawn before (the line + a different number each time: shaped, then")
    print("         drawn — what every draw cost before shaped lines were cached). Modes: code-point (one glyph")
    print("         per code point, kerned pairs: the drawing before text runs), grapheme, text-run (HarfBuzz).")
    print("         Allocations: malloc & co. in the whole process, per cached draw. Width: width(of:), px.")
    print("         fcft offers: \(TextShaping.available)")
    guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, 600, 80, nil, 0) else {
        fail("cannot make a 600×80 image", status: 1)
    }
    defer { pixman_image_unref(image) }
    let color = Color(argb32: 0xFF20_2020)
    var table = TextTable([("line", .left), ("mode", .left), ("glyphs", .right), ("width", .right),
                           ("cached µs", .right), ("new µs", .right), ("allocs/cached draw", .right)])
    for line in textLines {
        for mode in TextShaping.allCases {
            let font: PixmanFont
            do { font = try PixmanFont(pattern: line.pattern, pixelSize: line.pixels, shaping: mode) } catch {
                fail("\(error)", status: 1)
            }
            for _ in 0..<10 { font.draw(line.text, into: image, x: 4, baseline: 50, color: color) }
            let allocations0 = AllocationCounter.count
            let cached = microseconds(draws) { _ in font.draw(line.text, into: image, x: 4, baseline: 50, color: color) }
            let allocations = AllocationCounter.count - allocations0
            let fresh = (0..<draws).map { "\(line.text) \($0)" }
            let new = microseconds(draws) { i in font.draw(fresh[i], into: image, x: 4, baseline: 50, color: color) }
            table.append([line.name, "\(mode)", "\(font.glyphs(of: line.text).count)", "\(font.width(of: line.text))",
                       String(format: "%.2f", Statistics.median(cached) ?? 0),
                       String(format: "%.2f", Statistics.median(new) ?? 0),
                       String(format: "%.2f", Double(allocations) / Double(draws))])
        }
    }
    print("")
    for l in table.lines { print(l) }
    exit(0)
}
