import ModalKit
@testable import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// The sub-surface backend at a fractional scale (fractional-scale-v1 with wp_viewporter): the dim
/// and the presented view stay layers, the presented view's buffer whole pixels at whole multiples
/// of the scale's alignment (2 points at 1.5), its view drawn inside it at the pixel the full
/// renderer draws it at (docs/design.md, "Compositor-side composition").
final class FractionalLayerComposerTests: XCTestCase {
    private var layers: [RecordingLayer] = []
    private lazy var composer = LayerComposer { [unowned self] in
        let l = RecordingLayer()
        layers.append(l)
        return l
    }

    func testAtOnePointFiveTheDimAndThePresentedViewAreLayers() throws {
        // 401 × 601 points at 1.5: a 602 × 902 pixel buffer (round(401 × 1.5), round(601 × 1.5)).
        let h = PresentationHost(style: insetStyle(), presenting: Solid(0x1E40AF))
        h.layout(containerSize: Size(width: 401, height: 601), scale: 1.5)
        let frame = try RecordingFrame(width: 602, height: 902, bufferScale: 0, scale: 1.5)
        h.present(Solid(0xFF8C00), now: 0)
        h.update(now: 1)
        let r = composer.compose(h, into: frame, width: 401, height: 601)
        XCTAssertEqual(r.backend, .subsurface)
        XCTAssertEqual(layers.count, 2)
        XCTAssertEqual(layers[0].shown, .solid(0x8000_0000, x: 0, y: 0, width: 401, height: 601), "dim over the points")
        // The view: 361 × 381 points at (20, 110) → pixels (30, 165), 542 × 572 (541.5 and 571.5
        // rounded half up). Its layer: from (20, 110), an even point, to the even point past its last
        // pixel (737 / 1.5 = 491.3 → 492; 572 / 1.5 = 381.3 → 382): 362 × 382 points = 543 × 573 pixels.
        XCTAssertEqual(layers[1].shown, .image(x: 20, y: 110, visible: [0, 0, 362, 382], scale: 1.5))
        let image = try XCTUnwrap(layers[1].images.last)
        XCTAssertEqual([image.width, image.height], [543, 573])
        XCTAssertEqual(image.pixel(x: 0, y: 0), 0xFFFF_8C00, "the view from the image's first pixel")
        XCTAssertEqual(image.pixel(x: 541, y: 571), 0xFFFF_8C00, "its last pixel")
        XCTAssertEqual(image.pixel(x: 542, y: 0), 0, "transparent padding right of it")
        XCTAssertEqual(image.pixel(x: 0, y: 572), 0, "and below it")
        XCTAssertEqual(frame.base.pixel(x: 300, y: 450), 0xFF1E_40AF, "the window's buffer: the presenting view alone")
    }

    func testAPlacementAtAnOddPointStartsAtTheEvenPointBefore() throws {
        var f = LayerFrame()
        (f.width, f.height) = (602, 902)
        // A view at 21 points: pixel round(31.5) = 32; its layer from 20 points (30 pixels), the view
        // 2 pixels in.
        f.presentedRect = PixelRect(x: 32, y: 32, width: 100, height: 100)
        (f.presentedSourceWidth, f.presentedSourceHeight) = (100, 100)
        var p = try XCTUnwrap(PresentedLayerPlacement(frame: f, scale: 1.5, containerWidth: 401, containerHeight: 601))
        XCTAssertEqual([p.x, p.y, p.presentedOffsetX, p.presentedOffsetY], [20, 20, 2, 2])
        // (32 + 100) / 1.5 = 88 points exactly: 68 points from 20, 102 pixels.
        XCTAssertEqual([p.bufferWidth, p.bufferHeight], [102, 102])
        // A view at −11 points: pixel round(−16.5) = −17; its layer from −12 points (−18 pixels),
        // cropped to the container by the visible rectangle.
        f.presentedRect = PixelRect(x: -17, y: 0, width: 100, height: 100)
        p = try XCTUnwrap(PresentedLayerPlacement(frame: f, scale: 1.5, containerWidth: 401, containerHeight: 601))
        XCTAssertEqual([p.x, p.presentedOffsetX], [-12, 1])
        XCTAssertEqual(p.visible, Rect(x: 12, y: 0, width: 56, height: 68))
        XCTAssertEqual(PresentedLayerPlacement.alignment(scale: 1.5), 2)
        XCTAssertEqual(PresentedLayerPlacement.alignment(scale: 1.25), 4)
        XCTAssertEqual(PresentedLayerPlacement.alignment(scale: 2), 1)
    }
}
