import ModalKit
import ModalKitContent
import ModalKitText
import XCTest

/// A button of an app's own look (`ButtonStyle`): its fills at rest, under the pointer and
/// pressed, edges on whole pixels at a fractional scale, a focus ring with a gap, its fitted
/// label; a label's baseline-to-baseline height; fonts handed to the text styles.
final class ButtonStyleTests: XCTestCase {
    private let rest = Color(rgb: 0xE6F0FF), hovered = Color(rgb: 0xD6E6FF), pressed = Color(rgb: 0xC2DAFF)

    /// The colour of the pixel at (`x`, `y`) after drawing `button` (no label: nothing but the
    /// field) in `frame` at `scale` over white.
    private func pixel(_ button: Button, frame: Rect, scale: Double = 1, at x: Int, _ y: Int,
                       hover: Bool = false, press: Bool = false, focus: Bool = false) -> UInt32 {
        let image = TestImage(width: 200, height: 120)
        Draw.fill(image.image, width: 200, height: 120, color: Color(rgb: 0xFFFFFF))
        button.draw(into: image.image, frame: frame, scale: scale, isHovered: hover, isPressed: press, isFocused: focus)
        return image.pixel(x: x, y: y)
    }

    func testAnOwnStyleShowsItsRestHoveredAndPressedFills() {
        let b = Button("", style: ButtonStyle(fill: rest, hoveredFill: hovered, pressedFill: pressed))
        let frame = Rect(x: 10, y: 10, width: 100, height: 36)
        // The left end at mid-height, clear of the 10 pt corners.
        XCTAssertEqual(pixel(b, frame: frame, at: 12, 28), 0xFFE6_F0FF, "at rest")
        XCTAssertEqual(pixel(b, frame: frame, at: 12, 28, hover: true), 0xFFD6_E6FF, "hovered")
        XCTAssertEqual(pixel(b, frame: frame, at: 12, 28, hover: true, press: true), 0xFFC2_DAFF, "pressed wins over hovered")
        XCTAssertEqual(pixel(b, frame: frame, at: 12, 28, press: true), 0xFFC2_DAFF, "pressed")
        // Disabled: the rest fill at half opacity over white, whatever the pointer does.
        var disabled = b
        disabled.isEnabled = false
        let faded = pixel(disabled, frame: frame, at: 12, 28, hover: true, press: true)
        for (shift, channel) in [(16, 0xE6), (8, 0xF0), (0, 0xFF)] {
            XCTAssertEqual(Double((faded >> UInt32(shift)) & 0xFF), (Double(channel) + 255) / 2, accuracy: 1)
        }
        // Without a hovered fill, hovering changes nothing; the built-in looks have none (libadwaita's
        // colours: suggested #3584E4).
        let plain = Button("", style: ButtonStyle(fill: rest, pressedFill: pressed))
        XCTAssertEqual(pixel(plain, frame: frame, at: 12, 28, hover: true), 0xFFE6_F0FF)
        XCTAssertEqual(pixel(Button("", appearance: .suggested), frame: frame, at: 12, 28, hover: true), 0xFF35_84E4)
        XCTAssertEqual(Button("", appearance: .destructive).style, ButtonStyle(appearance: .destructive))
    }

    /// x 10.3 … 110.3 pt at scale 1.5 is 15.45 … 165.45 px: snapped, columns 15 … 164 are the whole
    /// fill and 14 and 165 untouched; as it falls, column 15 is only partly covered.
    func testSnappedEdgesAreWholePixelsAtAFractionalScale() {
        let frame = Rect(x: 10.3, y: 10, width: 100, height: 40)
        let snapped = Button("", style: ButtonStyle(fill: rest, pressedFill: pressed, snapsToPixels: true))
        let y = 45   // mid-height: (10 + 20) × 1.5
        XCTAssertEqual(pixel(snapped, frame: frame, scale: 1.5, at: 15, y), 0xFFE6_F0FF)
        XCTAssertEqual(pixel(snapped, frame: frame, scale: 1.5, at: 164, y), 0xFFE6_F0FF)
        XCTAssertEqual(pixel(snapped, frame: frame, scale: 1.5, at: 14, y), 0xFFFF_FFFF)
        XCTAssertEqual(pixel(snapped, frame: frame, scale: 1.5, at: 165, y), 0xFFFF_FFFF)
        let falling = Button("", style: ButtonStyle(fill: rest, pressedFill: pressed))
        let edge = pixel(falling, frame: frame, scale: 1.5, at: 15, y)
        XCTAssertNotEqual(edge, 0xFFE6_F0FF, "anti-aliased")
        XCTAssertNotEqual(edge, 0xFFFF_FFFF, "anti-aliased")
    }

    /// A ring 3 pt outside the field, 2 pt wide, opaque red: left of the field at x = 20 the gap
    /// (17 … 20) stays white, the ring (15 … 17) is red, and beyond it white again.
    func testTheFocusRingKeepsItsGap() {
        let style = ButtonStyle(fill: rest, pressedFill: pressed, cornerRadius: 8, focusRingGap: 3, focusRingWidth: 2,
                                focusRingColor: Color(rgb: 0xFF0000), snapsToPixels: true)
        let b = Button("", style: style)
        let frame = Rect(x: 20, y: 20, width: 100, height: 40)
        XCTAssertEqual(pixel(b, frame: frame, at: 18, 40, focus: true), 0xFFFF_FFFF, "the gap")
        XCTAssertEqual(pixel(b, frame: frame, at: 16, 40, focus: true), 0xFFFF_0000, "the ring")
        XCTAssertEqual(pixel(b, frame: frame, at: 14, 40, focus: true), 0xFFFF_FFFF, "outside the ring")
        XCTAssertEqual(pixel(b, frame: frame, at: 16, 40), 0xFFFF_FFFF, "no ring without focus")
    }

    /// The label fits between the insets (8 pt each side of a 100 pt button: 84 pt at scale 1,
    /// 2 × round(8 × 1.5) = 24 px less than the 150 px field at 1.5), cut with "…"; a short one is whole.
    func testTheFittedTitleKeepsTheInsets() throws {
        let label = TextStyle(points: 15)
        let style = ButtonStyle(fill: rest, pressedFill: pressed, label: label, labelInset: 8, snapsToPixels: true)
        let frame = Rect(x: 0, y: 0, width: 100, height: 36)
        let long = Button("Close this card and go back to the window", style: style)
        for (scale, room) in [(1.0, 84), (1.5, 126)] {
            let font = try XCTUnwrap(label.font(scale: scale))
            let fitted = long.fittedTitle(in: frame, scale: scale)
            XCTAssertTrue(fitted.hasSuffix("…"), fitted)
            XCTAssertLessThanOrEqual(font.width(of: fitted), room)
            XCTAssertGreaterThan(font.width(of: fitted + "x"), room - font.width(of: "…") - font.width(of: "x"))
        }
        XCTAssertEqual(Button("Close", style: style).fittedTitle(in: frame, scale: 1.5), "Close")
    }

    /// 20 pt between baselines: 20 px at scale 1, 25 at 1.25, 30 at 1.5; the height is the first
    /// line's box plus 20 pt a further line.
    func testALabelsLineHeightSetsItsBaselines() throws {
        let label = Label("one two three four five six seven", style: .body, lineHeight: 20)
        for (scale, pitch) in [(1.0, 20), (1.25, 25), (1.5, 30)] {
            let lines = label.lines(in: Rect(x: 0, y: 0, width: 60, height: 200), scale: scale)
            XCTAssertGreaterThan(lines.count, 2)
            for i in 1..<lines.count { XCTAssertEqual(lines[i].baseline - lines[i - 1].baseline, pitch, "scale \(scale)") }
        }
        let font = try XCTUnwrap(TextStyle.body.font(scale: 1))
        let count = label.lines(in: Rect(x: 0, y: 0, width: 60, height: 200), scale: 1).count
        XCTAssertEqual(label.height(fittingWidth: 60), Double(font.ascent + font.descent + (count - 1) * 20))
    }

    /// A font handed over is the one the text styles of its pattern and size use from then on.
    func testAProvidedFontIsTheOneTheStylesUse() throws {
        let font = try PixmanFont(pattern: "sans-serif", pixelSize: 23)
        TextStyle.provide(font, pattern: "sans-serif")
        XCTAssertTrue(TextStyle(points: 23).font(scale: 1) === font)
        XCTAssertTrue(TextStyle(points: 11.5).font(scale: 2) === font)
        XCTAssertFalse(TextStyle(points: 23, isBold: true).font(scale: 1) === font, "another pattern")
    }
}
