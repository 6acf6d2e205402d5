import ModalKit
@testable import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// The sub-surface backend's policy (`LayerComposer`, docs/design.md "Compositor-side composition"),
/// over recording layers: a presented view at rest is a solid dim plus its own image, drawn once and
/// moved; an alpha is drawn per frame; held buffers ask again. (Stacks and a receding presenting
/// view: StackLayerComposerTests.)
final class LayerComposerTests: LayerComposerTestCase {

    func testAPresentedViewAtRestIsASolidDimAndItsOwnImageDrawnOnce() throws {
        let h = host()
        let frame = try RecordingFrame(width: 400, height: 600)
        h.present(card, now: 0)
        h.update(now: 1)   // presented
        var r = composer.compose(h, into: frame, width: 400, height: 600)
        XCTAssertEqual(r.backend, .subsurface)
        XCTAssertTrue(r.changed)
        XCTAssertFalse(r.needsRetry)
        XCTAssertEqual(layers.count, 2, "dim below, presented view above")
        // Black at alpha 0.5, premultiplied: 0x80000000, over the whole container.
        XCTAssertEqual(layers[0].shown, .solid(0x8000_0000, x: 0, y: 0, width: 400, height: 600))
        XCTAssertEqual(layers[1].shown, .image(x: 20, y: 110, visible: [0, 0, 360, 380], scale: 1))
        XCTAssertEqual(layers[1].images.last?.pixel(x: 0, y: 0), 0xFFFF_8C00, "the card's pixels in its own buffer")
        XCTAssertEqual(frame.base.pixel(x: 200, y: 300), 0xFF1E_40AF, "the window's buffer: the presenting view alone")
        XCTAssertEqual(r.paintedPixels, 400 * 600 + 360 * 380)

        frame.next()
        r = composer.compose(h, into: frame, width: 400, height: 600)
        XCTAssertFalse(r.changed, "nothing moved")
        XCTAssertEqual(layers[1].drawn, 1, "the image is drawn once")
        XCTAssertEqual(frame.baseDrawn, 0, "the window's buffer is not drawn again")
        XCTAssertEqual(r.paintedPixels, 0)
    }

    func testAPresentedViewWithAnAlphaIsDrawnEveryFrame() throws {
        let style = insetStyle(halfAlpha: true)
        let h = host(style)
        let frame = try RecordingFrame(width: 400, height: 600)
        h.present(card, now: 0)
        for (i, t) in [0.1, 0.2].enumerated() {
            h.update(now: t)
            frame.next()
            let r = composer.compose(h, into: frame, width: 400, height: 600)
            XCTAssertEqual(r.backend, .subsurfacePixmanPresented, "t = \(t)")
            XCTAssertEqual(layers[1].drawn, i + 1, "drawn again at t = \(t)")
        }
        // Half alpha over nothing: the card's orange at alpha 128, premultiplied (round-half-away).
        XCTAssertEqual(layers[1].images.last?.pixel(x: 0, y: 0), 0x8080_4600)
    }

    func testHeldBuffersAskForAnotherFrame() throws {
        let h = host()
        let frame = try RecordingFrame(width: 400, height: 600)
        h.present(card, now: 0)
        h.update(now: 1)
        _ = composer.compose(h, into: frame, width: 400, height: 600)
        layers[1].holdsEveryBuffer = true
        layers[1].hide()   // the image went away (released while hidden): it must be drawn again
        frame.next()
        let r = composer.compose(h, into: frame, width: 400, height: 600)
        XCTAssertTrue(r.needsRetry)
    }

    func testTheDismissedViewUncoversTheWindowsBuffer() throws {
        let h = host()
        let frame = try RecordingFrame(width: 400, height: 600)
        h.present(card, now: 0)
        h.update(now: 1)
        _ = composer.compose(h, into: frame, width: 400, height: 600)
        h.dismiss(now: 1)
        h.update(now: 2)   // dismissed
        frame.next()
        let r = composer.compose(h, into: frame, width: 400, height: 600)
        XCTAssertTrue(r.changed)
        XCTAssertTrue(layers.allSatisfy { !$0.isShown })
        // sway 1.7 repaints nothing under an unmapped sub-surface: the whole container is damaged.
        XCTAssertEqual(frame.baseDamage.last, PixelRect(x: 0, y: 0, width: 400, height: 600))
    }
}
