// What `modal-demo render`/`preview`/`dismiss-point` draw and say for the alert (content-sized,
// scale and fade), a sheet resting at a detent (resized: `--detent N`), and a sheet pulled past its
// top detent (the rubber band keeps the sheet under the window's bottom rows). Pixels from the
// installed release build, values from the spec.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKit

final class ExpressivenessRenderTests: XCTestCase {
    private var dir = ""
    override func setUpWithError() throws { dir = try PluginTestSupport.temporaryDirectory(self, "expressive") }

    private func render(_ arguments: [String], _ name: String) throws -> Image {
        let output = dir + "/" + name + ".png"
        let r = try PluginCLITests.demo(["render"] + arguments + ["--output", output])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try Image(pngFile: output)
    }

    private func same(_ a: Image, _ b: Image) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false } }
        return true
    }

    /// The rows of column `x` whose pixel is `colour`, first and last.
    private func span(_ image: Image, x: Int, colour: UInt32) -> ClosedRange<Int>? {
        let rows = (0..<image.height).filter { image.pixel(x: x, y: $0) == colour }
        return rows.first.map { $0...rows.last! }
    }

    // MARK: The alert

    /// Presented in 390 × 844: 270 pt wide (x 60…329), centred; as tall as the demo card needs at
    /// 270 pt (more than the 150 pt the style falls back to: its body wraps and its buttons
    /// stack), centred vertically; over black 0.2.
    func testTheAlertIs270PointsWideCentredAndAsTallAsItsContent() throws {
        for s in [1, 2] {
            let scale = String(s)
            let shown = try render(["--style", "alert", "--size", "390x844", "--scale", scale, "--progress", "1"], "alert-\(s)")
            let bare = try render(["--style", "alert", "--size", "390x844", "--scale", scale, "--progress", "0"], "bare-\(s)")
            // The card's middle row: white from x 60 to 329 pt (corners aside).
            let rows = try XCTUnwrap(span(shown, x: 100 * s, colour: 0xFFFF_FFFF), "white card in column 100 pt")
            let top = Double(rows.lowerBound) / Double(s), bottom = Double(rows.upperBound + 1) / Double(s)
            XCTAssertEqual(top + bottom, 844, accuracy: 1, "centred vertically: \(top)…\(bottom)")
            XCTAssertGreaterThan(bottom - top, 150, "as tall as its content, not the 150 pt fallback")
            let mid = (rows.lowerBound + rows.upperBound) / 2
            XCTAssertEqual(shown.pixel(x: 60 * s + 1, y: mid), 0xFFFF_FFFF, "left edge at 60 pt")
            XCTAssertEqual(shown.pixel(x: 330 * s - 2, y: mid), 0xFFFF_FFFF, "right edge at 330 pt")
            for x in [60 * s - 1, 330 * s] {
                let got = shown.pixel(x: x, y: mid).argbComponents, base = bare.pixel(x: x, y: mid).argbComponents
                XCTAssertEqual(Double(got.g), Double(base.g) * 0.8, accuracy: 1, "outside the card: black 0.2 at x \(x)")
            }
            // The Close button (accent blue) is inside the card.
            let accent = (rows.lowerBound..<rows.upperBound).contains { shown.pixel(x: 195 * s, y: $0) == 0xFF0A_6CFF }
            XCTAssertTrue(accent, "the buttons are inside the card")
        }
    }

    /// In a 390 × 200 container the card is 200 − 40 = 160 pt tall (y 20…180): never taller.
    func testTheAlertIsNeverTallerThanTheContainerLess40() throws {
        let shown = try render(["--style", "alert", "--size", "390x200", "--progress", "1"], "short")
        let rows = try XCTUnwrap(span(shown, x: 100, colour: 0xFFFF_FFFF))
        XCTAssertEqual(rows, 20...179)
    }

    /// Half-way through the presentation (linear fraction 0.5 → ease-out progress p): the card is
    /// 1.2 − 0.2p times its size about its centre, at alpha p over the dim at 0.2p.
    func testTheAlertHalfWayIsScaledAndHalfFaded() throws {
        let p = TimingCurve.easeOut.value(at: 0.5)
        let shown = try render(["--style", "alert", "--size", "390x844", "--progress", "0.5"], "half")
        let bare = try render(["--style", "alert", "--size", "390x844", "--progress", "0"], "half-bare")
        let full = try render(["--style", "alert", "--size", "390x844", "--progress", "1"], "half-full")
        let rows = try XCTUnwrap(span(full, x: 100, colour: 0xFFFF_FFFF))
        let y = rows.lowerBound + 3
        // A white pixel of the card: bare × (1 − 0.2p) under the card at alpha p.
        let base = bare.pixel(x: 300, y: y).argbComponents, got = shown.pixel(x: 300, y: y).argbComponents
        let dimmed = Double(base.g) * (1 - 0.2 * p)
        XCTAssertEqual(Double(got.g), dimmed * (1 - p) + 255 * p, accuracy: 2)
        // Its width: 270 × (1.2 − 0.2p), centred on x 195: the first column that differs from the dim.
        let width = 270 * (1.2 - 0.2 * p)
        let left = (0..<390).first { x in
            let a = shown.pixel(x: x, y: 422).argbComponents, b = bare.pixel(x: x, y: 422).argbComponents
            return abs(Double(a.g) - Double(b.g) * (1 - 0.2 * p)) > 2
        }
        XCTAssertEqual(Double(try XCTUnwrap(left)), 195 - width / 2, accuracy: 1.5)
    }

    func testADimTapDoesNotDismissTheAlert() throws {
        let r = try PluginCLITests.demo(["dismiss-point", "--style", "alert"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "none\n")
    }

    // MARK: Resting at a detent

    private let sheet = ["--style", "bottom-sheet", "--style-option", "detents=0.5,1", "--size", "390x844"]

    /// At rest at detent 1 (0.5) the sheet equals, pixel for pixel, a plain sheet of height 0.5
    /// with a grabber; at detent 2 (1.0) it is the whole window with its buttons inside it.
    func testRestingAtADetentIsThatTall() throws {
        for scale in ["1", "2"] {
            let half = try render(sheet + ["--detent", "1", "--scale", scale], "detent1-\(scale)")
            let plain = try render(["--style", "bottom-sheet", "--style-option", "height=0.5", "--style-option", "grabber=on",
                                    "--size", "390x844", "--scale", scale, "--progress", "1"], "plain-\(scale)")
            XCTAssertTrue(same(half, plain), "detent 0.5 = height 0.5 with the grabber, scale \(scale)")
        }
        let full = try render(sheet + ["--detent", "2"], "detent2")
        XCTAssertEqual(full.pixel(x: 195, y: 2), 0xFFFF_FFFF, "the sheet reaches the top")
        // Close sits 16 pt from the bottom-right corner (36 pt tall): inside the window.
        XCTAssertEqual(full.pixel(x: 390 - 16 - 44, y: 844 - 16 - 6), 0xFF0A_6CFF, "Close is inside the window")
        // --detent with --progress: that frame of a presentation coming to rest at detent 2.
        let start = try render(sheet + ["--detent", "2", "--progress", "0"], "detent2-0")
        XCTAssertNotEqual(start.pixel(x: 195, y: 2), 0xFFFF_FFFF, "at progress 0 the sheet is below the window")
    }

    func testADetentTheStyleLacksIsAUsageErrorNamingItsDetents() throws {
        let out = dir + "/never.png"
        let r = try PluginCLITests.demo(["render"] + sheet + ["--detent", "3", "--output", out])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderrLines, ["modal-demo: --detent 3: style 'bottom-sheet' has detents 1 (0.5 of the height), 2 (1 of the height)"])
        let none = try PluginCLITests.demo(["render", "--style", "inset-centered", "--size", "390x844", "--detent", "1",
                                            "--output", out])
        XCTAssertEqual(none.status, 2)
        XCTAssertEqual(none.stderrLines.count, 1)
        XCTAssertTrue(none.stderr.contains("style 'inset-centered' has no detents"), none.stderr)
        let preview = try PluginCLITests.demo(["preview"] + sheet + ["--detent", "5", "--output", dir + "/p.webp"])
        XCTAssertEqual(preview.status, 2)
        XCTAssertTrue(preview.stderr.contains("has detents 1 (0.5 of the height), 2 (1 of the height)"), preview.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let zero = try PluginCLITests.demo(["render"] + sheet + ["--detent", "0", "--output", out])
        XCTAssertEqual(zero.status, 2)
    }

    /// `preview --detent 2 --strip N`: the presented frames rest at detent 2, as `render --detent 2`.
    func testPreviewRestsAtTheDetent() throws {
        let strip = dir + "/strip.png"
        let r = try PluginCLITests.demo(["preview"] + sheet + ["--detent", "2", "--strip", "3", "--output", strip])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try Image(pngFile: strip)
        let rest = try render(sheet + ["--detent", "2"], "rest2")
        let slots = (0..<3).filter { slot in
            (0..<844).allSatisfy { y in stride(from: 0, to: 390, by: 7).allSatisfy {
                image.pixel(x: slot * 390 + $0, y: y) == rest.pixel(x: $0, y: y) } }
        }
        XCTAssertFalse(slots.isEmpty, "one frame of the strip is the sheet resting at detent 2")
    }

    // MARK: Rubber band

    /// `render --drag -120`: pulled up past its only detent, the sheet's background extends below
    /// its bottom edge: the bottom rows are the sheet's white, not the dimmed presenting view.
    func testPulledUpPastTheTopTheBottomRowsAreTheSheet() throws {
        for scale in ["1", "2"] {
            let s = Int(scale)!
            let pulled = try render(["--style", "bottom-sheet", "--size", "390x844", "--scale", scale, "--drag", "-120"],
                                    "pulled-\(scale)")
            for y in [844 * s - 1, 844 * s - 30 * s, 600 * s] {
                XCTAssertEqual(pulled.pixel(x: 100 * s, y: y), 0xFFFF_FFFF, "row \(y) is the sheet at scale \(scale)")
            }
            XCTAssertNotEqual(pulled.pixel(x: 100 * s, y: 300 * s), 0xFFFF_FFFF, "above the sheet: the dim")
        }
    }
}
