@testable import ModalKitDemo
import ModalKit
import XCTest

/// The presenting view draws its button's shadow and fill before it asks for the fonts (a window's
/// first frame draws them while the fonts load), yet its pixels are exactly those of drawing in
/// the order background, title, subtitle, button, label, focus ring, hint — in windows where the
/// header's text is far above the button and in windows so small that it reaches the button's
/// shadow (then the header and the button are drawn again in that order).
final class PresentingDrawOrderTests: XCTestCase {
    private static let fonts: [Double: FontSet] = {
        var sets: [Double: FontSet] = [:]
        for scale in [1.0, 1.5, 2.0] { sets[scale] = try! FontSet(scale: scale) }
        return sets
    }()

    private func pixels(size: Size, scale: Double, button: ButtonAppearance, texts: DemoLook.Texts,
                        buttonFirst: Bool) throws -> [UInt32] {
        let image = try Image(width: Int((size.width * scale).rounded(.up)), height: Int((size.height * scale).rounded(.up)))
        DemoLook.drawPresentingView(into: image.pixmanImage, size: size, scale: scale, fonts: PresentingDrawOrderTests.fonts[scale]!,
                                    button: button, hint: DemoLook.hint, texts: texts, buttonFirst: buttonFirst)
        var out: [UInt32] = []
        out.reserveCapacity(image.width * image.height)
        for y in 0..<image.height { for x in 0..<image.width { out.append(image.pixel(x: x, y: y)) } }
        return out
    }

    func testThePixelsAreThoseOfTheHeaderFirstOrder() throws {
        var tall = DemoLook.Texts.standard
        tall.title = "Ågÿ ModalKit ÅÉÎ"
        var pressed = ButtonAppearance()
        pressed.isPressed = true
        var focused = ButtonAppearance()
        focused.showsFocusRing = true
        focused.isHovered = true
        let sizes = [Size(width: 800, height: 600), Size(width: 390, height: 844), Size(width: 240, height: 180),
                     Size(width: 220, height: 140), Size(width: 200, height: 110), Size(width: 160, height: 80)]
        for size in sizes {
            for scale in [1.0, 1.5, 2.0] {
                for button in [ButtonAppearance(), pressed, focused] {
                    for texts in [DemoLook.Texts.standard, tall] {
                        let reference = try pixels(size: size, scale: scale, button: button, texts: texts, buttonFirst: false)
                        let drawn = try pixels(size: size, scale: scale, button: button, texts: texts, buttonFirst: true)
                        XCTAssertTrue(drawn == reference, "\(size) at \(scale), \(button), \(texts.title): "
                                      + "\(zip(drawn, reference).filter { $0 != $1 }.count) pixels differ")
                    }
                }
            }
        }
        // Both paths are taken: at 160 × 80 the button's top is above the title's baseline (24 pt
        // + the ascent), so the header's ink shares rows with the button (drawn again); at 800 × 600
        // the button's shadow starts below the subtitle's line.
        XCTAssertLessThan(DemoLook.buttonFrame(in: Rect(size: Size(width: 160, height: 80))).minY, 24)
        XCTAssertGreaterThan(DemoLook.buttonFrame(in: Rect(size: Size(width: 800, height: 600))).minY - 3, 24 + 26 + 2 * 34)
    }
}
