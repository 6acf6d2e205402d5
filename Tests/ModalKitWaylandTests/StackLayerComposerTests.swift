import ModalKit
@testable import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// The sub-surface backend with a stack and with a receding presenting view (docs/design.md,
/// "Compositor-side composition"): per level a dim layer and a presented view's layer, stacked
/// bottom to top as `render` composes them; the presenting view drawn into the window's buffer
/// as `render` draws it while covered (scaled into its rectangle, black around it).
final class StackLayerComposerTests: LayerComposerTestCase {

    func testAStackOfTwoIsTwoLayersPerLevel() throws {
        let h = host()
        let frame = try RecordingFrame(width: 400, height: 600)
        h.present(card, now: 0)
        h.update(now: 1)
        XCTAssertEqual(composer.compose(h, into: frame, width: 400, height: 600).backend, .subsurface)
        XCTAssertEqual(layers.count, 2)
        XCTAssertTrue(h.present(Solid(0x00FF00), now: 1))
        h.update(now: 2)
        frame.next()
        let r = composer.compose(h, into: frame, width: 400, height: 600)
        XCTAssertEqual(r.backend, .subsurface)
        XCTAssertEqual(layers.count, 4, "level 2's dim and presented view above level 1's")
        // Each level's dim (black × 0.5) over the container, each presented view at (20, 110).
        XCTAssertEqual(layers[0].shown, .solid(0x8000_0000, x: 0, y: 0, width: 400, height: 600))
        XCTAssertEqual(layers[1].shown, .image(x: 20, y: 110, visible: [0, 0, 360, 380], scale: 1))
        XCTAssertEqual(layers[2].shown, .solid(0x8000_0000, x: 0, y: 0, width: 400, height: 600))
        XCTAssertEqual(layers[3].shown, .image(x: 20, y: 110, visible: [0, 0, 360, 380], scale: 1))
        XCTAssertEqual(layers[1].images.last?.pixel(x: 10, y: 10), 0xFFFF_8C00, "level 1's view")
        XCTAssertEqual(layers[3].images.last?.pixel(x: 10, y: 10), 0xFF00_FF00, "level 2's view")
        XCTAssertEqual(frame.baseDrawn, 0, "the presenting view did not change: the window's buffer is kept")

        // Level 2 dismissed: its layers hide, level 1's stay.
        h.dismiss(now: 2)
        h.update(now: 4)
        frame.next()
        XCTAssertEqual(composer.compose(h, into: frame, width: 400, height: 600).backend, .subsurface)
        XCTAssertEqual(h.levelCount, 1)
        XCTAssertFalse(layers[2].isShown)
        XCTAssertFalse(layers[3].isShown)
        XCTAssertEqual(layers[1].shown, .image(x: 20, y: 110, visible: [0, 0, 360, 380], scale: 1))
        XCTAssertEqual(frame.baseDamage.map { [$0.x, $0.y, $0.width, $0.height] }, [[0, 0, 400, 600]],
                       "the uncovered window's buffer is damaged")
    }

    func testARecedingPresentingViewIsDrawnIntoTheWindowsBufferUnderTheLayers() throws {
        let h = host(insetStyle(recedes: true))
        let frame = try RecordingFrame(width: 400, height: 600)
        h.present(card, now: 0)
        h.update(now: 1)   // presented: the presenting view at 0.9 about the centre
        let r = composer.compose(h, into: frame, width: 400, height: 600)
        XCTAssertEqual(r.backend, .subsurface)
        XCTAssertEqual(layers[0].shown, .solid(0x8000_0000, x: 0, y: 0, width: 400, height: 600))
        XCTAssertEqual(layers[1].shown, .image(x: 20, y: 110, visible: [0, 0, 360, 380], scale: 1))
        // 400 × 600 at 0.9 about the centre: (20, 30), 360 × 540; black around it.
        XCTAssertEqual(frame.base.pixel(x: 10, y: 10), 0xFF00_0000)
        XCTAssertEqual(frame.base.pixel(x: 390, y: 590), 0xFF00_0000)
        XCTAssertEqual(frame.base.pixel(x: 200, y: 300), 0xFF1E_40AF)
        XCTAssertEqual(frame.base.pixel(x: 25, y: 300), 0xFF1E_40AF)
        XCTAssertEqual(frame.base.pixel(x: 15, y: 300), 0xFF00_0000)
    }

    /// A stack of two receding levels mid-way through level 2's presentation, and level 1 alone
    /// mid-way: the window's buffer with the layers laid over it (OVER, as a compositor composes
    /// them) equals `render`'s frame within 2 per channel.
    func testTheLayersOverTheWindowsBufferEqualRender() throws {
        let h = host(insetStyle(recedes: true))
        let frame = try RecordingFrame(width: 400, height: 600)
        h.present(card, now: 0)
        h.update(now: 0.1)
        try assertLayersEqualRender(h, frame, "level 1 mid-way")
        h.update(now: 10)
        XCTAssertTrue(h.present(Solid(0x00FF00), now: 10))
        for t in [10.05, 10.1, 10.2, 20] {
            h.update(now: t)
            frame.next()
            try assertLayersEqualRender(h, frame, "level 2 at \(t)")
        }
        XCTAssertEqual(layers.count, 4)
    }

    private func assertLayersEqualRender(_ h: PresentationHost, _ frame: RecordingFrame, _ what: String,
                                         file: StaticString = #filePath, line: UInt = #line) throws {
        let r = composer.compose(h, into: frame, width: 400, height: 600)
        XCTAssertNotEqual(r.backend, .pixman, what, file: file, line: line)
        let flat = try Image(width: 400, height: 600)
        let base = frame.base.pixelBuffer, out = flat.pixelBuffer
        for y in 0..<600 { for x in 0..<400 { out.setPixel(x: x, y: y, base.pixel(x: x, y: y)) } }
        for l in layers {
            switch l.shown {
            case let .solid(c, x, y, w, hh):
                for py in y..<(y + hh) { for px in x..<(x + w) { out.setPixel(x: px, y: py, over(c, out.pixel(x: px, y: py))) } }
            case let .image(x, y, v, _):
                let img = try XCTUnwrap(l.images.last).pixelBuffer
                for py in v[1]..<(v[1] + v[3]) {
                    for px in v[0]..<(v[0] + v[2]) {
                        out.setPixel(x: x + px, y: y + py, over(img.pixel(x: px, y: py), out.pixel(x: x + px, y: y + py)))
                    }
                }
            case .stretched, nil:
                break
            }
        }
        let expected = try Image(width: 400, height: 600)
        h.render(into: expected.pixelBuffer, bufferAge: 0)
        var bad = 0, first = ""
        for y in 0..<600 {
            for x in 0..<400 {
                let a = out.pixel(x: x, y: y), b = expected.pixel(x: x, y: y)
                let far = [0, 8, 16, 24].contains { (shift: Int) -> Bool in
                    let ca = Int((a >> UInt32(shift)) & 0xFF), cb = Int((b >> UInt32(shift)) & 0xFF)
                    return abs(ca - cb) > 2
                }
                if far { if bad == 0 { first = "(\(x), \(y)): \(String(a, radix: 16)) vs \(String(b, radix: 16))" }; bad += 1 }
            }
        }
        XCTAssertEqual(bad, 0, "\(what): pixels differing from render, first \(first)", file: file, line: line)
    }

    /// Premultiplied `src` OVER `dst`.
    private func over(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let ia = 255 - (src >> 24)
        var out: UInt32 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            let s: UInt32 = (src >> shift) & 0xFF, d: UInt32 = (dst >> shift) & 0xFF
            let c: UInt32 = min(255, s + (d * ia + 127) / 255)
            out |= c << shift
        }
        return out
    }
}

private extension PixelBuffer {
    func setPixel(x: Int, y: Int, _ v: UInt32) {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        data.storeBytes(of: v, toByteOffset: y * stride + x * 4, as: UInt32.self)
    }
}
