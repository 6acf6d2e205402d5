import ModalKit
import ModalKitText
import ModalKitContent
import XCTest

/// ModalKitContent's `List`: selection, keys, type-ahead, scrolling by the host's inputs, rows of
/// any script aligned by paragraph direction, accessibility; points and pixels from its documentation.
final class ListTests: XCTestCase {
    let cities = ["Amsterdam", "Berlin", "Bern", "東京", "القاهرة", "🇺🇦 Kyiv", "Zürich"].map { ListRow($0) }

    private func list(_ mode: ListSelectionMode = .single, rows: [ListRow]? = nil, height: Double = 200) -> List {
        let l = List(rows: rows ?? cities, title: "Cities", selectionMode: mode)
        l.didLayout(size: Size(width: 320, height: height))
        return l
    }

    func testATapSelectsOneRowInSingleModeAndTogglesInMultiple() {
        let l = list()
        var chosen: [Int] = []
        l.onChoose = { row, _ in chosen.append(row) }
        // Row 2 spans 88...132 pt.
        _ = l.handle(.press(Point(x: 50, y: 100)), now: 1)
        _ = l.handle(.release(Point(x: 60, y: 110)), now: 1)
        _ = l.handle(.press(Point(x: 50, y: 10)), now: 2)
        _ = l.handle(.release(Point(x: 50, y: 10)), now: 2)
        XCTAssertEqual(chosen, [2, 0])
        XCTAssertEqual(l.selectedRows, [0])
        _ = l.handle(.press(Point(x: 50, y: 10)), now: 3)
        _ = l.handle(.release(Point(x: 50, y: 60)), now: 3)
        XCTAssertEqual(chosen, [2, 0], "a press that ends on another row chooses nothing")

        let m = list(.multiple)
        for y in [10.0, 100, 10] {
            _ = m.handle(.press(Point(x: 50, y: y)), now: 1)
            _ = m.handle(.release(Point(x: 50, y: y)), now: 1)
        }
        XCTAssertEqual(m.selectedRows, [2])
    }

    /// Down / Up move the cursor (scrolling it into view), Return chooses it.
    func testArrowsMoveTheCursorAndReturnChoosesIt() {
        let l = list(height: 100)   // two and a bit rows visible
        var chosen: [Int] = []
        l.onChoose = { row, _ in chosen.append(row) }
        XCTAssertFalse(l.handle(.key(.activate), now: 0), "no cursor yet: Return goes on")
        for _ in 0..<4 { XCTAssertTrue(l.handle(key(KeyInput.Keysym.down), now: 1)) }
        XCTAssertEqual(l.cursorRow, 3)
        // Row 3 ends at 176 pt: scrolled so that it ends at the viewport's bottom, 176 − 100.
        XCTAssertEqual(l.position.offset.y, 76)
        XCTAssertTrue(l.handle(key(KeyInput.Keysym.up), now: 1))
        XCTAssertTrue(l.handle(key(KeyInput.Keysym.up, .release), now: 1))
        XCTAssertEqual(l.cursorRow, 2)
        XCTAssertTrue(l.handle(.key(.activate), now: 2))
        XCTAssertEqual(chosen, [2])
        XCTAssertEqual(l.selectedRows, [2])
        XCTAssertFalse(l.handle(.key(.escape), now: 2), "Escape is the host's: it dismisses")
        XCTAssertEqual(l.accessibilityElement?.focusedDescendant?.identifier, "row-3")
    }

    /// Letters typed within a second add up; after a pause a new search starts; no match keeps the cursor.
    func testTypeAheadMovesToTheFirstMatchingRow() {
        let l = list()
        XCTAssertTrue(l.handle(key(0x62, text: "b"), now: 1))
        XCTAssertEqual(l.cursorRow, 1, "Berlin")
        _ = l.handle(key(0x65, text: "E"), now: 1.3)
        _ = l.handle(key(0x72, text: "r"), now: 1.6)
        XCTAssertEqual(l.cursorRow, 1)
        _ = l.handle(key(0x6e, text: "n"), now: 1.9)
        XCTAssertEqual(l.cursorRow, 2, "Bern")
        _ = l.handle(key(0x7a, text: "z"), now: 3.5)
        XCTAssertEqual(l.cursorRow, 6, "Zürich: a new search after a pause")
        _ = l.handle(key(0x71, text: "q"), now: 5)
        XCTAssertEqual(l.cursorRow, 6, "no match: the cursor stays")
        XCTAssertEqual(l.firstRow(matching: "東"), 3)
        XCTAssertFalse(l.handle(key(KeyInput.Keysym.escape), now: 6), "not typed text")
    }

    /// The wheel, touch pans and the keys scroll by the host's inputs; canScroll gives UIKit's sheet rule.
    func testScrollingByEveryInputAndTheSheetRule() {
        let rows = (1...40).map { ListRow("Row \($0)") }
        let l = list(rows: rows, height: 400)
        var offsets: [Double] = []
        l.onScroll = { offset, _ in offsets.append(offset) }
        XCTAssertFalse(l.canScroll(toward: .top), "at the top a drag down moves the sheet")
        XCTAssertTrue(l.canScroll(toward: .bottom))
        XCTAssertTrue(l.handle(.scroll(ScrollInput(delta: Point(x: 0, y: 30), source: .wheel)), now: 1))
        XCTAssertTrue(l.handle(.scroll(ScrollInput(delta: Point(x: 0, y: 20), source: .touch)), now: 1))
        XCTAssertEqual(offsets, [30, 50])
        XCTAssertTrue(l.canScroll(toward: .top))
        _ = l.handle(key(KeyInput.Keysym.pageDown), now: 2)
        XCTAssertEqual(l.position.offset.y, 50 + 400 - 44)
        _ = l.handle(key(KeyInput.Keysym.end), now: 2)
        XCTAssertEqual(l.position.offset.y, 40 * 44 - 400)
        XCTAssertFalse(l.handle(.scroll(ScrollInput(delta: Point(x: 0, y: 5), source: .wheel)), now: 3), "at the end")
        _ = l.handle(key(KeyInput.Keysym.home), now: 2)
        XCTAssertEqual(l.position.offset.y, 0)
        l.arrowKeysScroll = true
        _ = l.handle(key(KeyInput.Keysym.down), now: 2)
        XCTAssertEqual(l.position.offset.y, 44)
        XCTAssertNil(l.cursorRow)
    }

    /// Unicode bidi P2/P3: a row whose first strong character is Arabic ends at the right inset
    /// (320 − 20 = 300 pt; 600 px at scale 2); a Latin or CJK row starts at the left inset.
    func testRightToLeftRowsEndAtTheRightInset() {
        XCTAssertEqual(ParagraphDirection(of: "القاهرة"), .rightToLeft)
        XCTAssertEqual(ParagraphDirection(of: "🇺🇦 Kyiv"), .leftToRight)
        XCTAssertEqual(ParagraphDirection(of: "123 שלום"), .rightToLeft, "digits are not strong")
        XCTAssertEqual(ParagraphDirection(of: "東京"), .leftToRight)
        let l = list()
        for scale in [1.0, 2.0] {
            let arabic = l.titlePlacement(ofRow: 4, scale: scale)
            XCTAssertGreaterThan(arabic.width, 0, "a font with Arabic is installed")
            XCTAssertEqual(arabic.x + arabic.width, Int(300 * scale))
            XCTAssertEqual(l.titlePlacement(ofRow: 3, scale: scale).x, Int(20 * scale))
            XCTAssertEqual(l.titlePlacement(ofRow: 0, scale: scale).x, Int(20 * scale))
        }
        // Pixels: the Arabic row's ink lies in the right half and ends within its last glyph's
        // side bearing of 300 pt; Tokyo's CJK ink starts right of 20 pt (a CJK font is installed).
        let img = render(l, size: Size(width: 320, height: 400))
        func ink(row: Int) -> [Int] {
            (0..<320).filter { x in (row * 44 + 8..<row * 44 + 36).contains { y in img.pixel(x: x, y: y) != 0xFFFF_FFFF } }
        }
        let arabicInk = ink(row: 4)
        XCTAssertGreaterThan(arabicInk.min() ?? 0, 160)
        XCTAssertTrue((296...299).contains(arabicInk.max() ?? 0), "\(arabicInk.max() ?? -1)")
        let tokyo = ink(row: 3)
        XCTAssertTrue((20...22).contains(tokyo.min() ?? 0), "\(tokyo.min() ?? -1)")
        XCTAssertGreaterThan(tokyo.count, 20, "two CJK glyphs drawn, not empty boxes only")
    }

    func testAccessibilityAListOfListItemsWithTheSelectedState() {
        let l = list()
        _ = l.handle(.activate("row-2"), now: 1)
        let root = l.accessibilityElement!
        XCTAssertEqual(root.role, .dialog)
        XCTAssertEqual(root.label, "Cities")
        let listElement = root.children[0]
        XCTAssertEqual(listElement.role, .list)
        // 200 pt shows rows 1–5 (the fifth from 176 pt).
        XCTAssertEqual(listElement.children.map(\.identifier), ["row-1", "row-2", "row-3", "row-4", "row-5"])
        XCTAssertEqual(Set(listElement.children.map(\.role)), [.listItem])
        XCTAssertEqual(listElement.children[1].label, "Berlin")
        XCTAssertTrue(listElement.children[1].states.contains(.selected))
        XCTAssertFalse(listElement.children[0].states.contains(.selected))
        XCTAssertEqual(listElement.children[1].frame, Rect(x: 0, y: 44, width: 320, height: 44))
        XCTAssertFalse(l.handle(.activate("row-99"), now: 1))
    }

    /// Pixels: the selected row's fill, the separator's one pixel row from the 20 pt inset.
    func testPixelsOfSelectionAndSeparators() {
        let l = list()
        l.select([1])
        let img = render(l, size: Size(width: 320, height: 200))
        XCTAssertEqual(img.pixel(x: 5, y: 50), 0xFFE8_F0FE, "row 2 selected")
        XCTAssertEqual(img.pixel(x: 5, y: 20), 0xFFFF_FFFF)
        XCTAssertEqual(img.pixel(x: 25, y: 43), 0xFFE5_E5EA, "row 1's separator, its last pixel row")
        XCTAssertEqual(img.pixel(x: 15, y: 43), 0xFFFF_FFFF, "separators start at the inset")
    }
}
