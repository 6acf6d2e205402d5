import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// The card fits its content in narrow cards: its buttons sit side by side (Present another 150 pt,
/// a 10 pt gap, Close 88 pt, 16 pt padding on both sides: a 280 pt row) when the card is at least
/// 280 pt wide, and stack, each as wide as the card's content, Close above Present another,
/// when it is narrower (libadwaita's AdwAlertDialog stacks its responses when they do not fit side
/// by side); the body text wraps within the 16 pt padding.
///
/// inset-centered in W × 600 pt: the card is 20…W−20 × 110…490 pt (380 pt tall), so its buttons'
/// bottom row is at y = 380 − 16 − 36 = 328 in the card.
final class CardLayoutTests: XCTestCase {
    private func presented(width: Int) throws -> SceneFixture {
        let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: width, height: 600)
        f.scene.present(now: 0)
        f.scene.handle(.pointerMotion(Point(x: 1, y: 1)), now: 1)  // completes the transition
        XCTAssertEqual(f.scene.state, .presented)
        return f
    }

    private func assertInsideCardPadding(_ r: Rect, cardWidth: Double, _ what: String,
                                         file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThanOrEqual(r.minX, 16, what, file: file, line: line)
        XCTAssertLessThanOrEqual(r.maxX, cardWidth - 16, what, file: file, line: line)
        XCTAssertGreaterThanOrEqual(r.minY, 16, what, file: file, line: line)
        XCTAssertLessThanOrEqual(r.maxY, 380 - 16, what, file: file, line: line)
    }

    func testButtonsSideBySideIn480AndIn320() throws {
        // 480: card 440 pt. Close at 440 − 16 − 88 = 336, Present another 10 pt to its left at 176.
        var b = try presented(width: 480).scene.cardButtonFrames()
        XCTAssertEqual(b.close, Rect(x: 336, y: 328, width: 88, height: 36))
        XCTAssertEqual(b.presentAnother, Rect(x: 176, y: 328, width: 150, height: 36))
        assertInsideCardPadding(b.close, cardWidth: 440, "480: Close")
        assertInsideCardPadding(b.presentAnother, cardWidth: 440, "480: Present another")
        // 320: card 280 pt, exactly the row: Close at 176, Present another at 16.
        b = try presented(width: 320).scene.cardButtonFrames()
        XCTAssertEqual(b.close, Rect(x: 176, y: 328, width: 88, height: 36))
        XCTAssertEqual(b.presentAnother, Rect(x: 16, y: 328, width: 150, height: 36))
        assertInsideCardPadding(b.close, cardWidth: 280, "320: Close")
        assertInsideCardPadding(b.presentAnother, cardWidth: 280, "320: Present another")
    }

    func testButtonsStackInANarrowerCard() throws {
        // 300: card 260 pt < 280: both 260 − 32 = 228 pt wide, Present another at the bottom
        // (y 328), Close 10 pt above it (y 282).
        let f = try presented(width: 300)
        let b = f.scene.cardButtonFrames()
        XCTAssertEqual(b.presentAnother, Rect(x: 16, y: 328, width: 228, height: 36))
        XCTAssertEqual(b.close, Rect(x: 16, y: 282, width: 228, height: 36))
        assertInsideCardPadding(b.close, cardWidth: 260, "300: Close")
        assertInsideCardPadding(b.presentAnother, cardWidth: 260, "300: Present another")
        // The stacked Close is where a tap closes: its centre in the window is (20 + 130, 110 + 300).
        f.scene.handle(.pointerMotion(Point(x: 150, y: 410)), now: 2)
        f.scene.handle(.pointerButton(pressed: true), now: 2)
        f.scene.handle(.pointerButton(pressed: false), now: 2.01)
        XCTAssertEqual(f.recorded, [.presenting, .presented, .close, .dismissing])
    }

    /// Pixels at progress 1 (scale 1, window pixels = points): the buttons' fills are where their
    /// rectangles say — Close accent 0x0A6CFF, Present another its tint 0xE6F0FF — and nothing is drawn
    /// in the card's 16 pt right padding (no text or button runs into the edge): there the card is
    /// white from 12 pt below its top to 12 pt above its bottom (clear of the 10 pt corners).
    func testPixelsFitTheCardAt320And300And480() throws {
        let accent: UInt32 = 0xFF0A_6CFF, tint: UInt32 = 0xFFE6_F0FF
        for width in [320, 300, 480] {
            let f = try presented(width: width)
            let image = try f.snapshot(.present, 1)
            let cardMaxX = width - 20
            let b = f.scene.cardButtonFrames()
            for (r, colour, name) in [(b.close, accent, "Close"), (b.presentAnother, tint, "Present another")] {
                // Just inside the left and right ends (clear of the 8 pt corners and the label), at mid-height.
                let y = 110 + Int(r.midY)
                XCTAssertPixel(image.pixel(x: 20 + Int(r.minX) + 2, y: y), colour, tolerance: 0, "\(width): \(name) left end")
                XCTAssertPixel(image.pixel(x: 20 + Int(r.maxX) - 3, y: y), colour, tolerance: 0, "\(width): \(name) right end")
            }
            var drawn: [String] = []
            for y in (110 + 12)..<(490 - 12) {
                for x in (cardMaxX - 16)..<cardMaxX where image.pixel(x: x, y: y) != cardWhite {
                    if drawn.count < 5 { drawn.append("(\(x), \(y)) \(hex(image.pixel(x: x, y: y)))") }
                }
            }
            XCTAssertEqual(drawn, [], "\(width): the card's right padding is white")
        }
    }
}
