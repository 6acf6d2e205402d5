import XCTest
@testable import ModalKitDemo
import ModalKit

/// The demo's words fitted to their boxes (`DemoLook.Texts`): a long card title, long button
/// labels and a long header draw no pixel outside their boxes, end in "…", and their accessible
/// frames stay inside the dialog (the card's frame) and the window, in points; the labels stay
/// whole. At scale 1 and 2 (a card of 220 × 320 points: content 188 pt wide, buttons stacked
/// 188 pt wide, labels 8 pt from their ends).
final class DemoTextFittingTests: XCTestCase {
    private let long = DemoLook.Texts(
        title: "ModalKit presents custom modals on Wayland", subtitle: "Custom modal presentation, shaped and fitted",
        buttonTitle: "Present a card with a long label",
        cardTitle: "A modal card whose title is much longer than the card",
        cardBody: "Focus stays here until it is dismissed. " + String(repeating: "Lorem ipsum dolor sit amet. ", count: 12),
        presentAnotherTitle: "Present another card on top of this one", closeTitle: "Close this card and go back to the window")
    private let cardSize = Size(width: 220, height: 320)

    /// Whether `outer` holds all of `inner` (points; 1e-9 for rounding of pixels / scale).
    private func encloses(_ outer: Rect, _ inner: Rect) -> Bool {
        inner.minX >= outer.minX - 1e-9 && inner.maxX <= outer.maxX + 1e-9 && inner.minY >= outer.minY - 1e-9
            && inner.maxY <= outer.maxY + 1e-9
    }

    /// The first pixel of `image` in `columns` × `rows` (buffer pixels) that is not `color`, or nil.
    private func firstOther(_ image: Image, columns: Range<Int>, rows: Range<Int>, _ color: UInt32) -> (Int, Int)? {
        for y in rows { for x in columns where image.pixel(x: x, y: y) != color { return (x, y) } }
        return nil
    }

    func testALongCardTitleAndLabelsStayInsideTheCard() throws {
        for scale in [1.0, 2.0] {
            let fonts = try FontSet(scale: scale)
            let w = Int(cardSize.width * scale), h = Int(cardSize.height * scale)
            let image = try Image(width: w, height: h)
            DemoLook.drawPresentedView(into: image.pixmanImage, size: cardSize, scale: scale, fonts: fonts,
                                       close: ButtonAppearance(), texts: long)
            let text = DemoLook.CardText(size: cardSize, scale: scale, fonts: fonts, texts: long)
            XCTAssertTrue(text.title.hasSuffix("…"), text.title)
            XCTAssertLessThanOrEqual(fonts.label.width(of: text.title), text.contentWidth)
            // Right of the content (the card's right padding), the title's and body's rows stay white.
            let white = DemoLook.cardBackground.argb32
            let textTop = text.titleBaseline - fonts.label.ascent
            let textBottom = text.firstBaseline + (text.lines.count - 1) * text.linePitch + fonts.body.descent
            if let (x, y) = firstOther(image, columns: (text.left + text.contentWidth)..<w, rows: textTop..<textBottom, white) {
                XCTFail("scale \(scale): ink at (\(x), \(y)), right of the card's content")
            }
            // The body's lines fit above the buttons with the gap, the last cut with "…".
            let frames = DemoLook.cardButtonFrames(in: cardSize)
            let buttonsTop = Int((min(frames.presentAnother.minY, frames.close.minY) * scale).rounded())
            XCTAssertLessThanOrEqual(textBottom, buttonsTop - Int((DemoLook.cardTextButtonGap * scale).rounded()))
            XCTAssertTrue(text.lines.last?.hasSuffix("…") == true)
            for line in text.lines { XCTAssertLessThanOrEqual(fonts.body.width(of: line), text.contentWidth, line) }
            // Each label: nothing but the button's fill in the 8 pt at each end of the button's middle rows.
            for (frame, fill, label) in [(frames.close, DemoLook.accent, text.close),
                                         (frames.presentAnother, DemoLook.secondaryFill, text.presentAnother)] {
                XCTAssertTrue(label.hasSuffix("…"), label)
                let px = frame.scaled(by: scale).snappedToPixels
                let inset = Int((DemoLook.cardButtonLabelInset * scale).rounded())
                let rows = Int(px.midY) - fonts.body.ascent / 2..<Int(px.midY) + fonts.body.ascent / 2
                for columns in [Int(px.minX) + 1..<Int(px.minX) + inset, Int(px.maxX) - inset..<Int(px.maxX) - 1] {
                    if let (x, y) = firstOther(image, columns: columns, rows: rows, fill.argb32) {
                        XCTFail("scale \(scale): \(label) inks (\(x), \(y)), outside its button's label box")
                    }
                }
            }
            // Accessibility: every element inside the dialog (card coordinates), labels whole.
            let card = DemoLook.cardAccessibility(size: cardSize, scale: scale, fonts: fonts, focused: nil, texts: long)
            XCTAssertEqual(card.label, long.cardTitle)
            XCTAssertEqual(card.children.map(\.label), [long.cardTitle, long.cardBody, long.presentAnotherTitle, long.closeTitle])
            let content = Rect(x: DemoLook.cardPadding, y: 0, width: cardSize.width - 2 * DemoLook.cardPadding,
                               height: cardSize.height)
            for child in card.children {
                XCTAssertTrue(encloses(content, child.frame), "scale \(scale): \(child.identifier) at \(child.frame)")
            }
            XCTAssertEqual(card.children[0].frame.width, Double(fonts.label.width(of: text.title)) / scale, accuracy: 1e-9)
        }
    }

    /// The demo's own card title ("A modal card", 20 pt) in a card 100 pt wide: cut to the 68 pt
    /// of content with "…", its accessible frame inside; at the usual width it is whole.
    func testTheDemosTitleIsCutOnlyWhenTheCardIsNarrow() throws {
        let fonts = try FontSet(scale: 1)
        let narrow = DemoLook.CardText(size: Size(width: 100, height: 300), scale: 1, fonts: fonts, texts: .standard)
        XCTAssertTrue(narrow.title.hasSuffix("…"))
        XCTAssertTrue(DemoLook.cardTitle.hasPrefix(narrow.title.dropLast()))
        XCTAssertLessThanOrEqual(fonts.label.width(of: narrow.title), 68)
        let card = DemoLook.cardAccessibility(size: Size(width: 100, height: 300), scale: 1, fonts: fonts, focused: nil)
        XCTAssertLessThanOrEqual(card.children[0].frame.maxX, 100 - DemoLook.cardPadding)
        let wide = DemoLook.CardText(size: Size(width: 440, height: 580), scale: 1, fonts: fonts, texts: .standard)
        XCTAssertEqual(wide.title, DemoLook.cardTitle)
        XCTAssertEqual(wide.lines, [DemoLook.cardBody])
        XCTAssertEqual(wide.close, DemoLook.closeTitle)
        XCTAssertEqual(wide.presentAnother, DemoLook.presentAnotherTitle)
    }

    /// A long header, hint and button label in a window 240 pt wide: each within its margins (20 pt
    /// for the header, 16 pt for the hint, 12 pt inside the button), frames in points inside the
    /// window.
    func testALongHeaderAndHintStayInsideTheWindow() throws {
        for scale in [1.0, 2.0] {
            let size = Size(width: 240, height: 500)
            let fonts = try FontSet(scale: scale)
            let hint = "Esc or a tap outside dismisses, and so does a swipe down"
            let text = DemoLook.PresentingText(size: size, scale: scale, fonts: fonts, texts: long, hint: hint)
            let width = Int(240 * scale)
            XCTAssertLessThanOrEqual(text.left + fonts.title.width(of: text.title), width - text.left)
            XCTAssertLessThanOrEqual(text.left + fonts.body.width(of: text.subtitle), width - text.left)
            XCTAssertLessThanOrEqual(fonts.button.width(of: text.buttonTitle), Int(text.button.width) - 2 * Int((12 * scale).rounded()))
            XCTAssertLessThanOrEqual(fonts.caption.width(of: text.hint), width - 2 * Int((16 * scale).rounded()))
            for t in [text.title, text.subtitle, text.buttonTitle, text.hint] { XCTAssertTrue(t.hasSuffix("…"), t) }
            let view = DemoLook.presentingAccessibility(size: size, scale: scale, fonts: fonts, hint: hint, texts: long)
            XCTAssertEqual(view.children.map(\.label), [long.title, long.subtitle, long.buttonTitle, hint])
            let inside = Rect(size: size).insetBy(dx: 16, dy: 0)
            for child in view.children {
                XCTAssertTrue(encloses(inside, child.frame), "scale \(scale): \(child.identifier) at \(child.frame)")
            }
        }
    }
}
