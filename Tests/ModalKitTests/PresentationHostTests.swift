import ModalKit
import XCTest

/// `PresentationHost` with plain contents: input reaches a content in its own points, the dim and
/// Escape fallbacks, and a cache redrawn only when its content says it changed.
final class PresentationHostTests: XCTestCase {
    /// Fills itself with one colour; records draws and input; uses what `uses` says.
    final class Recorder: PresentationContent {
        var invalidation: ContentInvalidation = .all
        var draws = 0
        var inputs: [ContentInput] = []
        var uses: (ContentInput) -> Bool = { _ in true }
        let colour: Color
        init(_ colour: Color) { self.colour = colour }
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: colour)
            draws += 1
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool {
            inputs.append(input)
            return uses(input)
        }
    }

    /// RecordingStyle (1 s linear; frame inset 20 left/right, 110 top/bottom) in 400 × 600, presented.
    private func presentedHost(style: PresentationStyle = RecordingStyle().style)
        throws -> (PresentationHost, Recorder, Recorder, StateBox) {
        let root = Recorder(Color(rgb: 0x2040A0)), card = Recorder(.white)
        let host = PresentationHost(style: style, presenting: root)
        let box = StateBox()
        host.onStateChange = { box.states.append($0) }
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        XCTAssertTrue(host.present(card, now: 0))
        XCTAssertEqual(card.inputs, [.focus(nil)], "focus moves onto the presented content")
        card.inputs.removeAll()
        host.update(now: 2)
        XCTAssertEqual(host.state, .presented)
        return (host, root, card, box)
    }

    /// At rest with nothing presented the caches go; the next frame draws the presenting view
    /// anew, repaints the whole window even into a buffer that held the last frame (age 1), and
    /// shows the same pixels; the next presentation draws its card anew. While presented or
    /// animating nothing is freed.
    func testCachesAreFreedOnlyAtRestAndTheNextFramesRepaintWhole() throws {
        let (host, root, card, _) = try presentedHost()
        let image = try Image(width: 400, height: 600)
        _ = host.render(into: image.pixelBuffer, bufferAge: 0)
        XCTAssertFalse(host.releaseCachesAtRest(), "presented")
        XCTAssertTrue(host.dismiss(now: 3))
        host.update(now: 3.5)
        XCTAssertFalse(host.releaseCachesAtRest(), "dismissing")
        host.update(now: 5)
        XCTAssertEqual(host.state, .dismissed)
        _ = host.render(into: image.pixelBuffer, bufferAge: 0)
        let rootDraws = root.draws, cardDraws = card.draws
        XCTAssertTrue(host.releaseCachesAtRest())
        XCTAssertEqual(host.render(into: image.pixelBuffer, bufferAge: 1), [PixelRect(x: 0, y: 0, width: 400, height: 600)])
        XCTAssertEqual(root.draws, rootDraws + 1, "the presenting view drawn anew")
        XCTAssertEqual(image.pixel(x: 10, y: 10), 0xFF20_40A0)
        XCTAssertEqual(image.pixel(x: 200, y: 300), 0xFF20_40A0)
        // Presenting again draws the card anew (its cache went too): white at the card's centre.
        XCTAssertTrue(host.present(card, now: 6))
        host.update(now: 8)
        _ = host.render(into: image.pixelBuffer, bufferAge: 1)
        XCTAssertEqual(card.draws, cardDraws + 1)
        XCTAssertEqual(image.pixel(x: 200, y: 300), 0xFFFF_FFFF)
    }

    func testPressOnThePresentedViewArrivesInItsOwnPoints() throws {
        let (host, root, card, _) = try presentedHost()
        root.inputs.removeAll()
        host.handle(.pointerMotion(Point(x: 120, y: 210)), now: 3)
        host.handle(.pointerButton(pressed: true), now: 3)
        host.handle(.pointerButton(pressed: false), now: 3.1)
        XCTAssertEqual(card.inputs, [.hover(Point(x: 100, y: 100)), .press(Point(x: 100, y: 100)),
                                     .release(Point(x: 100, y: 100))])
        XCTAssertEqual(root.inputs, [], "nothing reaches the presenting content while the modal layer is up")
        XCTAssertEqual(host.state, .presented)
    }

    func testATapOnTheDimDismissesOnlyWhenTheStyleAgrees() throws {
        let (host, _, card, box) = try presentedHost()
        host.handle(.touchDown(id: 1, Point(x: 200, y: 50)), now: 3)
        host.handle(.touchUp(id: 1), now: 3.1)
        XCTAssertEqual(box.states, [.presenting, .presented, .dismissing])
        XCTAssertEqual(card.inputs, [], "the dim tap is the host's")

        let refusing = RecordingStyle().style
        refusing.shouldDismissOnTap = { _, _ in false }
        let (h2, _, _, box2) = try presentedHost(style: refusing)
        h2.handle(.touchDown(id: 1, Point(x: 200, y: 50)), now: 3)
        h2.handle(.touchUp(id: 1), now: 3.1)
        XCTAssertEqual(box2.states, [.presenting, .presented])
    }

    func testKeysGoToThePresentedContentAndAnUnusedEscapeDismisses() throws {
        let (host, root, card, box) = try presentedHost()
        root.inputs.removeAll()
        card.uses = { $0 == .key(.escape) }  // e.g. a content closing its own pop-up first
        host.handle(.key(.tab, pressed: true), now: 3)
        host.handle(.key(.escape, pressed: true), now: 3.1)
        XCTAssertEqual(card.inputs, [.key(.tab), .key(.escape)])
        XCTAssertEqual(host.state, .presented, "the content used Escape")
        card.uses = { _ in false }
        host.handle(.key(.escape, pressed: true), now: 3.2)
        XCTAssertEqual(box.states, [.presenting, .presented, .dismissing])
        XCTAssertEqual(root.inputs, [], "focus is trapped in the presented content")
        host.update(now: 5)
        host.handle(.key(.activate, pressed: true), now: 5.1)
        XCTAssertEqual(root.inputs, [.key(.activate)], "after the dismissal keys reach the presenting content")
    }

    /// A press on the presented view whose dismissal completes before the release: its content
    /// gets `.cancel` as its level leaves the stack (UIKit cancels the touches of a view that leaves
    /// the window), and the release reaches nothing — not the presenting content now in front.
    func testAPressOnAViewWhoseDismissalCompletesIsCancelledThere() throws {
        let (host, root, card, box) = try presentedHost()
        host.dismiss(now: 3)  // 1 s: dismissed at 4
        let r = try XCTUnwrap(host.presentedViewRect(at: 3.1))
        host.handle(.pointerMotion(Point(x: r.midX, y: r.midY)), now: 3.1)
        host.handle(.pointerButton(pressed: true), now: 3.1)
        XCTAssertEqual(card.inputs.last, .press(Point(x: 180, y: 190)))
        root.inputs.removeAll()
        host.handle(.pointerButton(pressed: false), now: 4.5)
        XCTAssertEqual(box.states, [.presenting, .presented, .dismissing, .dismissed])
        XCTAssertEqual(card.inputs.last, .cancel, "the press ended with its level")
        XCTAssertEqual(root.inputs, [], "the rest of the press reaches nothing")
        host.handle(.pointerMotion(Point(x: 10, y: 10)), now: 4.6)
        XCTAssertEqual(root.inputs, [.hover(Point(x: 10, y: 10))], "after the press, the pointer hovers again")
    }

    /// A container side that is not a number counts as 1 point, one beyond what a configure can
    /// carry (infinite, 1e300) as 2³¹ − 1 points: the host stays usable (no trap converting it to
    /// buffer pixels), and its frames are those of the clamped size.
    func testContainerSidesThatAreNotFiniteOrTooLargeAreClamped() throws {
        let root = Recorder(Color(rgb: 0x2040A0)), card = Recorder(.white)
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: .infinity, height: .nan), scale: 2)
        XCTAssertEqual(host.containerSize, Size(width: 2147483647, height: 1))
        XCTAssertTrue(host.pixelSize == (4294967294, 2))
        host.present(card, now: 0)
        host.layout(containerSize: Size(width: 1e300, height: -.infinity), scale: 1)
        XCTAssertEqual(host.containerSize, Size(width: 2147483647, height: 1))
        let f = host.layerFrame(at: 0.5)
        XCTAssertEqual(f.width, 2147483647)
        XCTAssertEqual(f.height, 1)
        XCTAssertEqual(host.snapshot(at: 0.5).containerBounds, Rect(x: 0, y: 0, width: 2147483647, height: 1))
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        let image = try Image(width: 400, height: 600)
        host.render(into: image.pixelBuffer, now: 2, bufferAge: 0)
        XCTAssertEqual(image.pixel(x: 200, y: 300), 0xFFFFFFFF, "the card at the size laid out last")
    }

    /// A presented view too large for its cache (here 40000 pixels wide, beyond the 32767 an image
    /// may have) is left out of the frame: under it the frame shows the presenting view and the
    /// dim, not whatever the buffer held (its interior was skipped as if the card painted it).
    func testAPresentedViewTooLargeToCacheIsLeftOutOfTheFrame() throws {
        let wide = PresentationStyle(transitionDuration: 0)
        wide.frameOfPresentedView = { _ in Rect(x: -10000, y: 20, width: 20000, height: 50) }
        wide.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.5 * progress) }
        let root = Recorder(Color(rgb: 0x2040A0)), card = Recorder(.white)
        let host = PresentationHost(style: wide, presenting: root)
        host.layout(containerSize: Size(width: 100, height: 100), scale: 2)
        host.present(card, now: 0)
        let image = try Image(width: 200, height: 200)
        Draw.fill(image.pixmanImage, width: 200, height: 200, color: Color(rgb: 0xDEADBE))
        host.render(into: image.pixelBuffer, now: 1, bufferAge: 0)
        XCTAssertEqual(card.draws, 0, "no cache to draw into")
        XCTAssertEqual(image.pixel(x: 100, y: 100), 0xFF102050, "inside the card's rectangle: the root under the dim")
        XCTAssertEqual(image.pixel(x: 100, y: 10), 0xFF102050, "outside it: the same")
    }

    func testACacheIsRedrawnOnlyWhenItsContentChangedAndAnAreaDamagesOnlyThatArea() throws {
        let (host, root, card, _) = try presentedHost()
        let image = try Image(width: 400, height: 600)
        host.render(into: image.pixelBuffer, now: 3, bufferAge: 0)
        XCTAssertEqual(root.draws, 1)
        XCTAssertEqual(card.draws, 1)
        XCTAssertFalse(host.needsRedraw)
        XCTAssertEqual(host.render(into: image.pixelBuffer, now: 3.1, bufferAge: 1), [], "nothing changed: no damage")
        XCTAssertEqual(root.draws, 1)
        XCTAssertEqual(card.draws, 1)
        root.invalidation = .area(Rect(x: 10, y: 20, width: 30, height: 40))
        XCTAssertTrue(host.needsRedraw)
        XCTAssertEqual(host.render(into: image.pixelBuffer, now: 3.2, bufferAge: 1),
                       [PixelRect(x: 10, y: 20, width: 30, height: 40)])
        XCTAssertEqual(root.draws, 2)
        XCTAssertEqual(card.draws, 1)
        card.invalidation = .all
        XCTAssertEqual(host.render(into: image.pixelBuffer, now: 3.3, bufferAge: 1),
                       [PixelRect(x: 20, y: 110, width: 360, height: 380)], "the card's rectangle")
        XCTAssertEqual(card.draws, 2)
        // The frame: the card's white, the root's colour under a 0.5 black dim.
        XCTAssertEqual(image.pixel(x: 200, y: 300), 0xFFFFFFFF)
        XCTAssertEqual(image.pixel(x: 200, y: 50), 0xFF102050)
    }
}
