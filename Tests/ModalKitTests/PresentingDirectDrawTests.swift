import CModalKitPixman
@testable import ModalKit
import XCTest

/// A frame of the presenting view alone is drawn by its content straight into the window's buffer
/// (no window-sized cache, no copy); the cache is made when a frame composes something over the
/// presenting view, and copied from while it holds the current pixels (docs/design.md, start-up and
/// footprint). Either way the pixels are the same, byte for byte.
final class PresentingDirectDrawTests: XCTestCase {
    /// A gradient with an anti-aliased rounded "button" whose colour changes on hover (then it
    /// invalidates the button's area only), at any scale: pixels that differ from row to row and
    /// at fractional edges.
    final class Backdrop: PresentationContent {
        var invalidation: ContentInvalidation = .all
        var draws = 0
        var hovered = false {
            didSet { if hovered != oldValue { invalidation = .area(Backdrop.button) } }
        }
        static let button = Rect(x: 100, y: 250, width: 200, height: 60)
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.verticalGradient(image, width: px.width, height: px.height,
                                  top: Color(rgb: 0xF6F7FB), bottom: Color(rgb: 0x2040A0))
            let b = Backdrop.button.scaled(by: scale)
            Draw.fillRoundedRect(image, x: b.minX + 0.3, y: b.minY + 0.6, width: b.width, height: b.height,
                                 radius: 12.5 * scale, color: hovered ? Color(rgb: 0x2A80FF) : Color(rgb: 0x0A6CFF))
            draws += 1
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool { false }
    }

    private func host(scale: Double = 1) -> (PresentationHost, Backdrop) {
        let root = Backdrop()
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: 400, height: 600), scale: scale)
        return (host, root)
    }

    /// The presenting view drawn into a cache by another host (``PresentationHost/renderOffline(_:presented:into:)``
    /// composes from the cache), as a reference.
    private func cachedReference(scale: Double, hovered: Bool = false) throws -> Image {
        let (other, root) = host(scale: scale)
        root.hovered = hovered
        let (w, h) = other.pixelSize
        let image = try Image(width: w, height: h)
        other.renderOffline(other.snapshot(phase: .present, fraction: 0), presented: nil, into: image.pixelBuffer)
        XCTAssertNotNil(other.presentingCache, "offline frames compose from the cache")
        return image
    }

    private func assertSamePixels(_ a: Image, _ b: Image, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.width, b.width, what, file: file, line: line)
        XCTAssertEqual(a.height, b.height, what, file: file, line: line)
        guard a.width == b.width, a.height == b.height else { return }
        let pa = a.pixelBuffer, pb = b.pixelBuffer
        var differing = 0
        var first: (Int, Int)?
        for y in 0..<a.height {
            if memcmp(pa.data + y * pa.stride, pb.data + y * pb.stride, a.width * 4) == 0 { continue }
            for x in 0..<a.width where pa.pixel(x: x, y: y) != pb.pixel(x: x, y: y) {
                differing += 1
                if first == nil { first = (x, y) }
            }
        }
        XCTAssertEqual(differing, 0, "\(what): first at \(first.map { "\($0)" } ?? "-")", file: file, line: line)
    }

    func testTheFirstFrameIsDrawnStraightIntoTheBufferAndIsTheCachedFrameByteForByte() throws {
        for scale in [1.0, 1.5, 2.0] {
            let (host, root) = host(scale: scale)
            let (w, h) = host.pixelSize
            let buffer = try Image(width: w, height: h)
            let damage = host.render(into: buffer.pixelBuffer, now: 0, bufferAge: 0)
            XCTAssertEqual(damage, [PixelRect(x: 0, y: 0, width: w, height: h)], "scale \(scale)")
            XCTAssertNil(host.presentingCache, "no window-sized cache for a frame of the presenting view alone (scale \(scale))")
            XCTAssertEqual(root.draws, 1)
            XCTAssertEqual(host.lastPaintedPixelCount, w * h, "the content painted the whole buffer")
            assertSamePixels(buffer, try cachedReference(scale: scale), "scale \(scale)")
        }
    }

    func testTheLayerBackendsWindowBufferIsDrawnStraightAndIsTheCachedFrameByteForByte() throws {
        let (host, root) = host(scale: 1.5)
        let (w, h) = host.pixelSize
        let buffer = try Image(width: w, height: h)
        _ = host.layerFrame()
        XCTAssertTrue(host.presentingLayerNeedsRender)
        XCTAssertEqual(host.renderPresentingLayer(into: buffer.pixelBuffer, bufferAge: 0),
                       [PixelRect(x: 0, y: 0, width: w, height: h)])
        XCTAssertNil(host.presentingCache)
        XCTAssertEqual(root.draws, 1)
        assertSamePixels(buffer, try cachedReference(scale: 1.5), "layer backend")
        _ = host.layerFrame()
        XCTAssertFalse(host.presentingLayerNeedsRender, "drawn: nothing changed since")
    }

    /// An area invalidated: the content draws itself whole into the buffer again, the damage is the
    /// area alone, and the buffer holds what a whole repaint through the cache shows.
    func testAnAreaChangeDamagesOnlyTheAreaAndTheBufferMatchesTheCachedFrame() throws {
        let (host, root) = host()
        let a = try Image(width: 400, height: 600)
        host.render(into: a.pixelBuffer, now: 0, bufferAge: 0)
        XCTAssertEqual(host.render(into: a.pixelBuffer, now: 0.1, bufferAge: 1), [], "nothing changed")
        XCTAssertEqual(root.draws, 1, "nothing painted, nothing drawn")
        XCTAssertFalse(host.needsRedraw)
        root.hovered = true
        XCTAssertTrue(host.needsRedraw)
        XCTAssertEqual(host.render(into: a.pixelBuffer, now: 0.2, bufferAge: 1),
                       [PixelRect(x: 100, y: 250, width: 200, height: 60)])
        XCTAssertEqual(root.draws, 2)
        XCTAssertFalse(host.needsRedraw, "the content was drawn: its invalidation is reset")
        XCTAssertNil(host.presentingCache)
        assertSamePixels(a, try cachedReference(scale: 1, hovered: true), "after the hover")
    }

    /// A content that says it changed where nothing is painted (an area outside the window) is still
    /// drawn, so its invalidation is reset and the window does not ask for frames forever.
    func testAnInvalidationThatDamagesNothingIsStillDrawnOnce() throws {
        final class Offscreen: PresentationContent {
            var invalidation: ContentInvalidation = .all
            var draws = 0
            func draw(into image: OpaquePointer, size: Size, scale: Double) {
                let px = Draw.pixelSize(of: image)
                Draw.fill(image, width: px.width, height: px.height, color: Color(rgb: 0x336699))
                draws += 1
                invalidation = .none
            }
            func handle(_ input: ContentInput, now: Double) -> Bool { false }
        }
        let root = Offscreen()
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: 40, height: 30), scale: 1)
        let a = try Image(width: 40, height: 30)
        host.render(into: a.pixelBuffer, now: 0, bufferAge: 0)
        root.invalidation = .area(Rect(x: 500, y: 500, width: 10, height: 10))
        XCTAssertEqual(host.render(into: a.pixelBuffer, now: 0.1, bufferAge: 1), [])
        XCTAssertEqual(root.draws, 2)
        XCTAssertFalse(host.needsRedraw)
        XCTAssertEqual(a.pixel(x: 39, y: 29), 0xFF33_6699)
    }

    /// No cache until a presentation's frame composes over the presenting view; then it is drawn once
    /// and, once the dismissal completes, the frames copy from it (the content is not drawn again)
    /// until it no longer holds the current pixels; at rest it goes.
    func testTheCacheIsMadeForAPresentationAndCopiedFromWhileCurrent() throws {
        let (host, root) = host()
        let card = SolidContent(handlesInput: false)
        let a = try Image(width: 400, height: 600)
        host.render(into: a.pixelBuffer, now: 0, bufferAge: 0)
        XCTAssertNil(host.presentingCache)
        XCTAssertTrue(host.present(card, now: 1))
        XCTAssertNil(host.presentingCache, "presenting draws nothing by itself")
        host.render(into: a.pixelBuffer, now: 1.5, bufferAge: 1)
        XCTAssertNotNil(host.presentingCache, "the dim is composed over the cache")
        XCTAssertEqual(root.draws, 2, "the cache drawn once")
        host.render(into: a.pixelBuffer, now: 1.7, bufferAge: 1)
        XCTAssertEqual(root.draws, 2)
        XCTAssertTrue(host.dismiss(now: 2))
        host.update(now: 4)
        XCTAssertEqual(host.state, .dismissed)
        XCTAssertEqual(host.render(into: a.pixelBuffer, now: 4, bufferAge: 1), [PixelRect(x: 0, y: 0, width: 400, height: 600)])
        XCTAssertEqual(root.draws, 2, "the dismissed frame is copied from the current cache")
        assertSamePixels(a, try cachedReference(scale: 1), "after the dismissal")
        root.hovered = true
        host.render(into: a.pixelBuffer, now: 5, bufferAge: 1)
        XCTAssertEqual(root.draws, 3, "a change is drawn straight into the buffer")
        assertSamePixels(a, try cachedReference(scale: 1, hovered: true), "hovered after the dismissal")
        XCTAssertTrue(host.releaseCachesAtRest())
        XCTAssertNil(host.presentingCache)
    }
}
