import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// `--content list`: level 1 presents 40 rows of 44 pt that scroll (the wheel through the host's
/// input path, `render --scroll`), drawn inside the sheet.
final class ListContentTests: XCTestCase {
    func testContentAndScrollOnTheCommandLine() throws {
        guard case let .run(run) = try parseCommandLine(["--content", "list"]) else { return XCTFail("not run") }
        XCTAssertEqual(run.content, .list)
        guard case let .run(card) = try parseCommandLine([]) else { return XCTFail("not run") }
        XCTAssertEqual(card.content, .card)
        let base = ["render", "--size", "390x844", "--output", "o.png"]
        guard case let .render(r) = try parseCommandLine(base + ["--content=list", "--scroll", "300"]) else {
            return XCTFail("not render")
        }
        XCTAssertEqual(r.content, .list)
        XCTAssertEqual(r.scroll, 300)
        func refused(_ args: [String], _ message: String) {
            XCTAssertThrowsError(try parseCommandLine(args)) { XCTAssertEqual(($0 as? UsageError)?.description, message) }
        }
        refused(["--content", "rows"], "--content expects card, list, alert or form, got 'rows'")
        refused(base + ["--scroll", "300"], "render --scroll needs --content list (the card does not scroll)")
        refused(base + ["--content", "list", "--scroll", "-1"], "--scroll expects points from 0 to 100000, got '-1'")
        refused(base + ["--content", "list", "--scroll", "10", "--progress", "1"],
                "render takes --scroll alone, without --progress, --drag or --detent")
        refused(["--scroll", "10"], "unknown option '--scroll' (see --help)")
    }

    func testTheWheelGrowsTheSheetFirstThenScrollsTheListDrawnInsideIt() throws {
        let scene = try DemoScene(style: try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5,0.9"]))
        scene.presentsList = true
        var lines: [(offset: Double, top: Double)] = []
        scene.onListScroll = { offset, top in lines.append((offset, top)) }
        scene.layout(containerSize: Size(width: 390, height: 844), scale: 1)
        let image = try Image(width: 390, height: 844)
        scene.renderScroll(into: image.pixelBuffer, distance: 300)
        XCTAssertEqual(scene.listScrollOffset, 300)
        // The first step grew the sheet from 0.5 to 0.9 of 844 (top 84.4, drawn from 84); the
        // twenty steps after it scrolled 15 pt each with the sheet there.
        XCTAssertEqual(lines.count, 20)
        XCTAssertEqual(lines.map(\.offset), (1...20).map { Double($0) * 15 })
        for line in lines { XCTAssertEqual(line.top, 84.4, accuracy: 1e-9) }
        let x = 100, top = 84
        XCTAssertEqual(image.pixel(x: x, y: top - 1) == 0xFFFFFFFF, false, "the dim above the sheet")
        XCTAssertEqual(image.pixel(x: x, y: top), 0xFFFFFFFF)
        // Row 7 (from 264 pt) ends 8 pt into the view: its separator is its last pixel row, 7 pt
        // below the top; row 8's is 44 pt further.
        XCTAssertEqual(image.pixel(x: x, y: top + 7), 0xFFE5E5EA)
        XCTAssertEqual(image.pixel(x: x, y: top + 8), 0xFFFFFFFF)
        XCTAssertEqual(image.pixel(x: x, y: top + 51), 0xFFE5E5EA)
        XCTAssertEqual(image.pixel(x: 10, y: top + 7), 0xFFFFFFFF, "separators start at the 20 pt inset")
    }

    /// GTK's and UIKit's list keys: Page Down / Up by a viewport less one row, Home / End to the
    /// ends, Down / Up by one row (44 pt); repeats move too, releases do not; Escape still dismisses.
    func testScrollKeysMoveTheFocusedList() throws {
        var events: [SceneEvent] = []
        let scene = try DemoScene(style: try BuiltinStyle.bottomSheet.make(options: ["detents": "0.9"])) { events.append($0) }
        scene.presentsList = true
        scene.layout(containerSize: Size(width: 390, height: 844), scale: 1)
        scene.present(now: 0)
        scene.update(now: 10)
        var t = 10.0
        func key(_ keysym: UInt32, _ phase: KeyInput.Phase = .press) {
            t += 0.1
            scene.handle(.keyboard(KeyInput(keysym: keysym, phase: phase)), now: t)
            scene.update(now: t)
        }
        // The sheet at 0.9 of 844 pt: a viewport of 759.6 pt over 40 × 44 = 1760 pt of rows.
        let viewport = 844 * 0.9, end = 1760 - 844 * 0.9
        key(KeyInput.Keysym.pageDown)
        XCTAssertEqual(scene.listScrollOffset, viewport - 44, accuracy: 1e-9)
        key(KeyInput.Keysym.pageDown, .release)
        XCTAssertEqual(scene.listScrollOffset, viewport - 44, accuracy: 1e-9, "a release does not move")
        key(KeyInput.Keysym.pageUp)
        XCTAssertEqual(scene.listScrollOffset, 0)
        key(KeyInput.Keysym.down)
        key(KeyInput.Keysym.down, .repeat)
        XCTAssertEqual(scene.listScrollOffset, 88)
        key(KeyInput.Keysym.up)
        XCTAssertEqual(scene.listScrollOffset, 44)
        key(KeyInput.Keysym.end)
        XCTAssertEqual(scene.listScrollOffset, end, accuracy: 1e-9)
        key(KeyInput.Keysym.pageDown)
        XCTAssertEqual(scene.listScrollOffset, end, accuracy: 1e-9, "no further than the last row")
        key(KeyInput.Keysym.home)
        XCTAssertEqual(scene.listScrollOffset, 0)
        XCTAssertEqual(events, [.presenting, .presented])
        key(KeyInput.Keysym.escape)
        XCTAssertEqual(events, [.presenting, .presented, .dismissing], "Escape is not a list key: the host dismisses")
    }
}
