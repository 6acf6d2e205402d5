// Examples/ColourRows — the app a new developer writes from README and the API reference: a window
// of three coloured, named rows (text through the ModalKitText product) where a row presents a
// bottom sheet with detents 0.5 and 0.9 — built as its own SwiftPM package in release and run
// under headless sway with real pointer input: the rows and their names on screen, a tap on a row
// presents a sheet of its colour resting at half the window's height over the dim, a drag up
// rests it on the 0.9 detent, Escape dismisses and closing the window ends the app with status 0.
// The code is at most 60 lines of Swift, and the article "Presenting from your app" shows it as it is.
import Foundation
import ModalKitTestHarness
import XCTest

final class ColourRowsExampleTests: CompositorTestCase {
    typealias Support = PluginTestSupport
    private static let source = "/Examples/ColourRows/Sources/ColourRows/main.swift"

    /// The article "Presenting from your app" (ModalKitWayland.docc) shows the example's whole code.
    func testTheAppIsAtMost60LinesAndTheArticleShowsItAsItIs() throws {
        let code = try String(contentsOfFile: Support.packageRoot + Self.source, encoding: .utf8)
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).dropLast()   // the final newline
        XCTAssertLessThanOrEqual(lines.count, 60, "Examples/ColourRows is \(lines.count) lines of Swift")
        let article = try String(contentsOfFile: Support.packageRoot + "/Sources/ModalKitWayland/ModalKitWayland.docc/PresentingFromYourApp.md",
                                 encoding: .utf8)
        guard let section = article.range(of: "### Rows that present a sheet, with text") else { return XCTFail("no such section") }
        XCTAssertTrue(article[section.upperBound...].contains("```swift\n" + code + "```"),
                      "the article's code block differs from Examples/ColourRows/Sources/ColourRows/main.swift")
    }

    /// vncdo commands: a press at (`x`, `y0`), moves 10 px at a time to `y1` with 30 ms between them,
    /// held still 0.25 s (no release velocity: the sheet rests on the nearest detent), released.
    private func drag(x: Int, from y0: Int, to y1: Int) -> [String] {
        var c = ["move", String(x), String(y0), "mousedown", "1"]
        for y in stride(from: y0 - 10, through: y1, by: -10) { c += ["pause", "0.03", "move", String(x), String(y)] }
        return c + ["pause", "0.25", "mouseup", "1"]
    }

    private func assertPixel(_ shot: RGBImage, _ x: Int, _ y: Int, _ expected: RGB, tolerance: Int = 0, _ what: String,
                             line: UInt = #line) {
        XCTAssertLessThanOrEqual(shot[x, y].distance(to: expected), tolerance, "\(what) at (\(x), \(y)): \(shot[x, y])",
                                 line: line)
    }

    func testARowTapPresentsASheetOfItsColourAndADragUpRestsItOnTheLargerDetent() throws {
        // `swift build -c release` in the scratch directory the examples share (ExamplePackages); in
        // scripts/test, CommandTests' ExampleBuildTests has built it by the time this runs.
        let executable = try ExamplePackages.product(package: "ColourRows", file: "colour-rows", for: self)
        let sway = try startSway()   // one tiled 800×600 window at scale 1
        let vnc = try startVNC(sway)
        // "bottom-sheet" by name, from the installed styles (the loader's search path).
        var environment = sway.clientEnvironment
        environment["MODALKIT_STYLE_PATH"] = try InstalledProducts.stylesDirectory()
        let app = try ChildProcess([executable], environment: environment)
        addTeardownBlock { app.stop() }
        let window = try sway.waitForWindow(pid: app.pid, timeout: eventTimeout)
        let (x0, y0) = (window.rect.x, window.rect.y)
        let red = RGB(0xC0, 0x39, 0x2B), green = RGB(0x1E, 0x84, 0x49), blue = RGB(0x1F, 0x4E, 0x99)
        let white = RGB(255, 255, 255)

        // The rows: 64 pt each from the top, white below; each name in white from x = 16 pt.
        let rows = try sway.stableScreenshot()
        keep(rows, "rows")
        assertPixel(rows, x0 + 700, y0 + 32, red, "row 0")
        assertPixel(rows, x0 + 700, y0 + 96, green, "row 1")
        assertPixel(rows, x0 + 700, y0 + 160, blue, "row 2")
        assertPixel(rows, x0 + 700, y0 + 300, white, "below the rows")
        // Text: pixels of the name's white ink in row 0's left part (the red has green 0x39), none
        // in its right part.
        func ink(_ xs: Range<Int>, _ ys: Range<Int>) -> Int {
            xs.reduce(0) { n, x in n + ys.filter { rows[x0 + x, y0 + $0].g >= 200 }.count }
        }
        XCTAssertGreaterThan(ink(16..<120, 8..<56), 25, "the name 'Red' is drawn")
        XCTAssertEqual(ink(300..<800, 0..<64), 0, "nothing but the row's colour right of its name")

        // A tap on row 1 presents a sheet of its colour: 0.9 × 600 = 540 pt tall, resting on the
        // first detent, 0.5 × 600: its top at 300 pt; its content a 200 pt green row, white below.
        try vnc.click(x: x0 + 400, y: y0 + 96)
        XCTAssertNotNil(app.stdout.wait(timeout: eventTimeout) { $0.contains("presented") ? true : nil },
                        "presented: \(app.stdout.lines)")
        try vnc.park()
        let sheet = try sway.stableScreenshot()
        keep(sheet, "sheet at 0.5")
        assertPixel(sheet, x0 + 700, y0 + 400, green, "the sheet's row")
        assertPixel(sheet, x0 + 700, y0 + 550, white, "the sheet below its row")
        // bottom-sheet's dim: black at alpha 0.4 over the whole container: × 0.6, ±1 for rounding.
        assertPixel(sheet, x0 + 700, y0 + 32, RGB(115, 34, 26), tolerance: 1, "row 0 under the dim")
        assertPixel(sheet, x0 + 700, y0 + 250, RGB(153, 153, 153), tolerance: 1, "white under the dim")

        // A slow drag up by 240 pt (0.4 × 600), held still: the sheet rests on detent 2 (0.9), its
        // top at 60 pt.
        try vnc.send(drag(x: x0 + 400, from: y0 + 350, to: y0 + 110))
        XCTAssertNotNil(app.stdout.wait(timeout: eventTimeout) { $0.contains("detent 2") ? true : nil },
                        "detent 2: \(app.stdout.lines)")
        try vnc.park()
        let tall = try sway.stableScreenshot()
        keep(tall, "sheet at 0.9")
        assertPixel(tall, x0 + 700, y0 + 100, green, "the sheet's row at the larger detent")
        assertPixel(tall, x0 + 700, y0 + 30, RGB(115, 34, 26), tolerance: 1, "row 0 under the dim above the sheet")
        XCTAssertFalse(app.stdout.lines.contains("dismissing"), "the drag did not dismiss: \(app.stdout.lines)")

        try vnc.key("esc")
        XCTAssertNotNil(app.stdout.wait(timeout: eventTimeout) { $0.contains("dismissed") ? true : nil },
                        "dismissed: \(app.stdout.lines)")
        _ = try sway.swaymsg(["[pid=\(app.pid)] kill"])
        XCTAssertEqual(app.waitForExit(timeout: eventTimeout), .exited(0), "closed: \(app.diagnostics())")
    }
}
