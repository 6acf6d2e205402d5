import ModalKitAdaptiveStyle
import ModalKit
import XCTest

/// The shape morph of an adaptive style (the `adaptive` plugin's rule, here through its test
/// double): a layout that crosses the breakpoint while presented morphs frame and corners to the
/// other shape over 0.25 s ease-in-out, with no state change; a layout mid-morph retargets from
/// where the view shows; a plain resize snaps; the interaction declaration follows the shape.
final class AdaptiveMorphTests: XCTestCase {
    private let card1000 = Rect(x: 220, y: 140, width: 560, height: 420)   // 1000 × 700
    private let sheet400 = Rect(x: 0, y: 350, width: 400, height: 350)     // 400 × 700

    private func presented() throws -> (PresentationController, PresentationStyle, StateRecorder) {
        let style = try AdaptiveStyle.make()
        let c = PresentationController(style: style)
        let rec = StateRecorder()
        c.onStateChange = { rec.states.append($0) }
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 1000, height: 700))
        c.present(now: 0)
        c.update(now: 1)
        XCTAssertEqual(c.state, .presented)
        return (c, style, rec)
    }

    final class StateRecorder { var states: [PresentationState] = [] }

    func testBreakpointFramesAreLibadwaitas() throws {
        let s = try AdaptiveStyle.make()
        XCTAssertEqual(s.frameOfPresentedView(layout(x: 0, y: 0, width: 400, height: 800)), Rect(x: 0, y: 400, width: 400, height: 400))
        XCTAssertEqual(s.frameOfPresentedView(layout(x: 0, y: 0, width: 1000, height: 700)), card1000)
        XCTAssertEqual(s.frameOfPresentedView(layout(x: 0, y: 0, width: 450, height: 800)).width, 450, "450 wide: still a sheet")
        XCTAssertEqual(s.frameOfPresentedView(layout(x: 0, y: 0, width: 451, height: 800)).width, 403, "451: a card, W − 48")
        XCTAssertEqual(s.frameOfPresentedView(layout(x: 0, y: 0, width: 1000, height: 360)).width, 1000, "360 tall: a sheet")
    }

    func testCrossingTheBreakpointMorphsOverAQuarterSecondWithoutStateChange() throws {
        let (c, _, rec) = try presented()
        XCTAssertEqual(c.interaction.dismissGesture, .none, "the card has no drag")
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 400, height: 700))
        XCTAssertEqual(c.interaction.dismissGesture, .drag(.down), "the sheet drags down")
        XCTAssertTrue(c.isMorphing)
        XCTAssertEqual(c.presentedViewFrame, sheet400, "the target frame at once")
        c.update(now: 2)  // the morph starts at the first time after the layout
        XCTAssertEqual(c.displayedFrame(at: 2), card1000, "starts where the card was")
        let mid = c.displayedFrame(at: 2.125)  // half-way: ease-in-out(0.5) = 0.5
        XCTAssertEqual(mid.minX, 110, accuracy: 1e-9)
        XCTAssertEqual(mid.width, 480, accuracy: 1e-9)
        XCTAssertEqual(mid.minY, 245, accuracy: 1e-9)
        let corners = c.displayedCorners(at: 2.125)
        XCTAssertEqual(corners.style.radius, 12, "top corners stay 12")
        XCTAssertEqual(corners.bottomRadius ?? -1, 6, accuracy: 1e-9, "bottom corners 12 → 0 half-way")
        let snap = c.snapshot(at: 2.125)
        XCTAssertEqual(snap.presentedFrame, mid)
        XCTAssertEqual(snap.bottomCornerRadius ?? -1, 6, accuracy: 1e-9)
        c.update(now: 2.25)
        XCTAssertFalse(c.isMorphing)
        XCTAssertEqual(c.snapshot(at: 2.3).presentedFrame, sheet400)
        XCTAssertEqual(c.snapshot(at: 2.3).corners, CornerStyle(radius: 12, corners: .top))
        XCTAssertEqual(rec.states, [.presenting, .presented], "no state change, no dismissal")
    }

    func testALayoutMidMorphRetargetsFromWhereTheViewShows() throws {
        let (c, _, _) = try presented()
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 400, height: 700))
        c.update(now: 2)
        let shown = c.displayedFrame(at: 2.1)
        c.update(now: 2.1)
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 1000, height: 700))
        c.update(now: 2.1)
        XCTAssertEqual(c.displayedFrame(at: 2.1), shown, "no jump: the new morph starts where the view was")
        XCTAssertEqual(c.displayedFrame(at: 2.35), card1000)
    }

    func testAResizeThatKeepsTheShapeSnaps() throws {
        let (c, _, _) = try presented()
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 900, height: 700))
        XCTAssertFalse(c.isMorphing)
        XCTAssertEqual(c.displayedFrame(at: 1.1), Rect(x: 170, y: 140, width: 560, height: 420))
    }

    /// The drag follows the shape: on the sheet a fast drag down dismisses; after a resize to the
    /// card the same drag moves nothing (the interaction declaration is re-read on layout).
    func testTheDragFollowsTheCurrentShape() throws {
        final class Blank: PresentationContent {
            var invalidation: ContentInvalidation = .none
            func draw(into image: OpaquePointer, size: Size, scale: Double) { invalidation = .none }
            func handle(_ input: ContentInput, now: Double) -> Bool { false }
        }
        func drag(_ host: PresentationHost, x: Double, from y0: Double, by dy: Double, at t0: Double) {
            host.handle(.pointerMotion(Point(x: x, y: y0)), now: t0)
            host.handle(.pointerButton(pressed: true), now: t0)
            for k in 1...6 { host.handle(.pointerMotion(Point(x: x, y: y0 + dy * Double(k) / 6)), now: t0 + 0.01 * Double(k)) }
            host.handle(.pointerButton(pressed: false), now: t0 + 0.07)
        }
        let host = PresentationHost(style: try AdaptiveStyle.make(), presenting: Blank())
        host.layout(containerSize: Size(width: 1000, height: 700), scale: 1)
        host.present(Blank(), now: 0)
        host.update(now: 1)
        drag(host, x: 500, from: 300, by: 200, at: 1)    // inside the card (140…560)
        host.update(now: 3)
        XCTAssertEqual(host.state, .presented, "the card has no drag")
        XCTAssertEqual(host.presentedViewRect(at: 3), card1000, "and did not move")
        host.layout(containerSize: Size(width: 400, height: 700), scale: 1)
        host.update(now: 4)
        drag(host, x: 200, from: 400, by: 200, at: 4)    // inside the sheet (350…700)
        host.update(now: 6)
        XCTAssertEqual(host.state, .dismissed, "the sheet is dragged down and away")
    }

    /// A flick sends the sheet away on its spring; the window widens past the breakpoint before
    /// it is gone, so the sheet is a card without a drag gesture: the transition's clock takes the
    /// dismissal over from where the view is (no state change), so presenting the same content
    /// again reverses it as any running dismissal, and left alone it ends dismissed.
    func testALayoutThatTakesTheDragAwayHandsTheSpringsDismissalToTheClock() throws {
        final class Blank: PresentationContent {
            var invalidation: ContentInvalidation = .none
            func draw(into image: OpaquePointer, size: Size, scale: Double) { invalidation = .none }
            func handle(_ input: ContentInput, now: Double) -> Bool { false }
        }
        func flick(_ host: PresentationHost) {
            host.handle(.pointerMotion(Point(x: 200, y: 400)), now: 1)   // the sheet: 350…700
            host.handle(.pointerButton(pressed: true), now: 1)
            for k in 1...5 { host.handle(.pointerMotion(Point(x: 200, y: 400 + 30 * Double(k))), now: 1 + 0.01 * Double(k)) }
            host.handle(.pointerButton(pressed: false), now: 1.05)          // 3000 pt/s down: away
        }
        let card = Blank()
        let host = PresentationHost(style: try AdaptiveStyle.make(), presenting: Blank())
        var states: [PresentationState] = []
        host.onStateChange = { states.append($0) }
        host.layout(containerSize: Size(width: 400, height: 700), scale: 1)
        host.present(card, now: 0)
        host.update(now: 1)
        flick(host)
        XCTAssertEqual(states, [.presenting, .presented, .dismissing])
        host.layout(containerSize: Size(width: 1000, height: 700), scale: 1)  // a card: no drag
        host.update(now: 1.1)
        XCTAssertEqual(host.state, .dismissing, "still on its way out")
        XCTAssertTrue(host.present(card, now: 1.1), "presenting it again reverses the dismissal")
        host.update(now: 3)
        XCTAssertEqual(states, [.presenting, .presented, .dismissing, .presenting, .presented])
        XCTAssertEqual(host.presentedViewRect(at: 3), card1000, "the card at its frame")

        // The same, left alone: the dismissal ends on the clock.
        host.layout(containerSize: Size(width: 400, height: 700), scale: 1)
        host.update(now: 4)
        states = []
        host.handle(.pointerMotion(Point(x: 200, y: 400)), now: 4)
        host.handle(.pointerButton(pressed: true), now: 4)
        for k in 1...5 { host.handle(.pointerMotion(Point(x: 200, y: 400 + 30 * Double(k))), now: 4 + 0.01 * Double(k)) }
        host.handle(.pointerButton(pressed: false), now: 4.05)
        host.layout(containerSize: Size(width: 1000, height: 700), scale: 1)
        host.update(now: 4.1)
        XCTAssertEqual(host.state, .dismissing)
        host.update(now: 6)
        XCTAssertEqual(states, [.dismissing, .dismissed])

        // Mid-drag: the view goes back to the clock (presented: its frame) and the rest of the press,
        // a drag whose gesture is gone, reaches nothing (its content's press was cancelled).
        final class Recorder: PresentationContent {
            var invalidation: ContentInvalidation = .none
            var inputs: [ContentInput] = []
            func draw(into image: OpaquePointer, size: Size, scale: Double) { invalidation = .none }
            func handle(_ input: ContentInput, now: Double) -> Bool { inputs.append(input); return true }
        }
        let recorder = Recorder()
        var gestures: [String] = []
        host.onInteraction = { gestures.append($0.logLine) }
        host.layout(containerSize: Size(width: 400, height: 700), scale: 1)
        host.present(recorder, now: 7)
        host.update(now: 8)
        host.handle(.pointerMotion(Point(x: 200, y: 400)), now: 8)
        host.handle(.pointerButton(pressed: true), now: 8)
        host.handle(.pointerMotion(Point(x: 200, y: 450)), now: 8.05)
        XCTAssertEqual(recorder.inputs.last, .cancel, "a drag now")
        host.layout(containerSize: Size(width: 1000, height: 700), scale: 1)
        let count = recorder.inputs.count
        host.handle(.pointerMotion(Point(x: 200, y: 500)), now: 8.1)
        host.handle(.pointerButton(pressed: false), now: 8.15)
        XCTAssertEqual(recorder.inputs.count, count, "nothing more reaches the content: \(recorder.inputs)")
        XCTAssertEqual(gestures, ["drag-began", "drag-ended 0.0"])
        host.update(now: 9)
        XCTAssertEqual(host.state, .presented)
        XCTAssertEqual(host.presentedViewRect(at: 9), card1000)
    }

    /// A morph that ends between two frames (an update without a frame, as input brings): the last
    /// frame drawn shows it half-way, so the host still needs a redraw (`needsRedraw`) although
    /// nothing animates any more — as when a transition ends there.
    func testAMorphEndingOutsideAFrameLeavesARedrawToDo() throws {
        let host = PresentationHost(style: try AdaptiveStyle.make(), presenting: SolidContent())
        host.layout(containerSize: Size(width: 1000, height: 700), scale: 1)
        host.present(SolidContent(), now: 0)
        let img = try Image(width: 400, height: 700)
        host.layout(containerSize: Size(width: 400, height: 700), scale: 1)
        host.render(into: img.pixelBuffer, now: 2, bufferAge: 0)      // the morph starts
        host.render(into: img.pixelBuffer, now: 2.1, bufferAge: 1)    // half-way
        XCTAssertTrue(host.needsRedraw, "morphing")
        host.update(now: 2.3)                                          // past its 0.25 s
        XCTAssertFalse(host.isAnimating)
        XCTAssertTrue(host.needsRedraw, "the frame on screen shows the morph half-way")
        host.render(into: img.pixelBuffer, now: 2.3, bufferAge: 1)
        XCTAssertFalse(host.needsRedraw)
    }

    /// Through the host: the morph needs frames (isAnimating) and ends with the sheet's pixels.
    func testHostDrawsTheMorphAndEndsAtTheSheet() throws {
        let host = PresentationHost(style: try AdaptiveStyle.make(), presenting: SolidContent(Color(rgb: 0x808080)))
        var states: [PresentationState] = []
        host.onStateChange = { states.append($0) }
        host.layout(containerSize: Size(width: 1000, height: 700), scale: 1)
        host.present(SolidContent(.white), now: 0)
        let img = try Image(width: 1000, height: 700)
        host.render(into: img.pixelBuffer, now: 1, bufferAge: 0)
        XCTAssertFalse(host.isAnimating)
        host.layout(containerSize: Size(width: 400, height: 700), scale: 1)
        XCTAssertTrue(host.isAnimating, "the morph asks for frames")
        let small = try Image(width: 400, height: 700)
        host.render(into: small.pixelBuffer, now: 2, bufferAge: 0)
        host.render(into: small.pixelBuffer, now: 2.1, bufferAge: 1)
        host.render(into: small.pixelBuffer, now: 2.3, bufferAge: 1)
        XCTAssertFalse(host.isAnimating)
        XCTAssertEqual(small.pixel(x: 0, y: 699), 0xFFFFFFFF, "the sheet's square bottom corner")
        XCTAssertEqual(small.pixel(x: 200, y: 351), 0xFFFFFFFF, "the sheet's top at H/2")
        // Grey 0x80 under black 0.4: 0x80 × 0.6 = 76.8 → 0x4D.
        XCTAssertEqual(small.pixel(x: 200, y: 340) & 0xFF, 0x4D, "the dim above the sheet")
        XCTAssertEqual(small.pixel(x: 0, y: 350), small.pixel(x: 200, y: 340), "the top-left corner rounded (radius 12)")
        XCTAssertEqual(states, [.presenting, .presented])
    }
}
