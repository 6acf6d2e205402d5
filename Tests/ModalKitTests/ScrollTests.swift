import ModalKitHostFuzzSupport
import ModalKit
import XCTest

/// Scrolling content: the kinetic curve, the arbitration between a sheet's drag and its content's
/// scroll (UIKit's sheet holding a scroll view), and the routing of scrolls. Synthetic input at
/// exact times: the bottom sheet with detents 0.5 and 0.9 in a 480 × 800 container — its frame
/// y 80…800 (720 pt, the largest detent), resting at the smaller detent with its top at y 400
/// (offset 320), at the larger with its top at 80 (offset 0) — holding a list 1760 pt tall
/// (40 rows of 44 pt).
final class ScrollTests: XCTestCase {
    /// A list: a ``ScrollPosition`` over a document 1760 pt tall, its viewport the content's size.
    final class List: PresentationContent {
        var invalidation: ContentInvalidation = .all
        var position = ScrollPosition(contentSize: Size(width: 480, height: 1760))
        var inputs: [ContentInput] = []
        func draw(into image: OpaquePointer, size: Size, scale: Double) { invalidation = .none }
        func didLayout(size: Size) { position.viewportSize = size }
        func handle(_ input: ContentInput, now: Double) -> Bool {
            inputs.append(input)
            if case let .scroll(s) = input {
                let moved = position.scroll(by: s.delta)
                if moved { invalidation = .all }
                return moved
            }
            return true
        }
        func canScroll(toward edge: ScrollEdge) -> Bool { position.canScroll(toward: edge) }
        var scrolls: [ScrollInput] { inputs.compactMap { if case let .scroll(s) = $0 { return s } else { return nil } } }
        var cancels: Int { inputs.filter { $0 == .cancel }.count }
    }

    private var host: PresentationHost!
    private var list: List!
    private var presenting: List!

    /// The sheet presented at rest at t = 1 at its smaller detent (`expands`: the style's
    /// `scrolling-expands` option, its declaration's prefersScrollingExpandsWhenScrolledToEdge).
    private func present(expands: Bool = true) throws {
        let style = try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5,0.9",
                                                                "scrolling-expands": expands ? "true" : "false"])
        presenting = List()
        list = List()
        host = PresentationHost(style: style, presenting: presenting)
        host.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        host.present(list, now: 0)
        host.update(now: 1)
        XCTAssertEqual(host.state, .presented)
        XCTAssertEqual(top(1), 400, accuracy: 1e-9)
    }

    private func top(_ now: Double) -> Double { host.presentedViewRect(at: now)?.minY ?? .nan }

    /// Drags the pointer's primary button from (240, `y0`) through `ys`, 10 ms apart from `t0`;
    /// returns the time of the last motion.
    @discardableResult
    private func drag(from y0: Double, through ys: [Double], t0: Double, release: Bool = true) -> Double {
        host.handle(.pointerMotion(Point(x: 240, y: y0)), now: t0)
        host.handle(.pointerButton(pressed: true), now: t0)
        var t = t0
        for y in ys {
            t += 0.01
            host.handle(.pointerMotion(Point(x: 240, y: y)), now: t)
        }
        if release { host.handle(.pointerButton(pressed: false), now: t) }
        return t
    }

    private func wheel(_ dy: Double, at p: Point, now: Double) {
        host.handle(.pointerMotion(p), now: now)
        host.handle(.pointerScroll(ScrollInput(delta: Point(x: 0, y: dy), steps120Y: dy > 0 ? 120 : -120, source: .wheel)),
                    now: now)
    }

    /// Brings the sheet to its larger detent by a wheel step (rule: a scroll toward expansion grows it).
    private func expand() {
        wheel(15, at: Point(x: 240, y: 600), now: 2)
        host.update(now: 4)
        XCTAssertEqual(top(4), 80, accuracy: 1e-9)
    }

    // MARK: The kinetic curve

    func testKineticCurveIsUIScrollViewsNormalDeceleration() {
        // v(t) = v₀·0.998^(1000t), x(t) = v₀·(0.998^(1000t) − 1)/(1000·ln 0.998), v₀ = 1000 pt/s.
        let k = KineticScroll(velocity: Point(x: 0, y: 1000), at: 2)
        XCTAssertEqual(k.velocity(at: 2.1).y, 818.5668, accuracy: 1e-4)
        XCTAssertEqual(k.offset(at: 2.1).y, 90.6259, accuracy: 1e-4)
        XCTAssertEqual(k.offset(at: 2.5).y, 315.9280, accuracy: 1e-4)
        XCTAssertEqual(k.offset(at: 3.0).y, 432.0351, accuracy: 1e-4)
        XCTAssertEqual(k.totalOffset.y, 499.4998, accuracy: 1e-4)
        XCTAssertEqual(k.offset(at: 1.5).y, 0)   // before the release: not moved
        // Over once under 0.5 pt remain: |v| < 0.5·1000·|ln 0.998| = 1.0010 pt/s, after 3.4499 s.
        XCTAssertEqual(k.restSpeed, 1.0010, accuracy: 1e-4)
        XCTAssertEqual(k.duration, 3.4499, accuracy: 1e-4)
        XCTAssertFalse(k.isFinished(at: 5.44))
        XCTAssertTrue(k.isFinished(at: 5.46))
        XCTAssertFalse(KineticScroll(velocity: Point(x: 0.6, y: 0.6), at: 0).moves)   // 0.85 pt/s: no glide
        XCTAssertEqual(KineticScroll(velocity: Point(x: -300, y: 0), at: 0).offset(at: 0.1).x, -27.1878, accuracy: 1e-4)
    }

    // MARK: Arbitration, the rule

    func testArbitrationRule() {
        func owner(_ d: Double, back: Bool, forward: Bool, below: Bool, expands: Bool = true, caught: Bool = false)
            -> ScrollArbitration.Owner {
            ScrollArbitration.owner(towardDismissal: d, canScrollBack: back, canScrollForward: forward,
                                    belowLargestDetent: below, expandsWhenScrolledToEdge: expands, caught: caught)
        }
        // Toward dismissal: the content while it is not at its top, else the sheet.
        XCTAssertEqual(owner(9, back: true, forward: true, below: false), .content)
        XCTAssertEqual(owner(9, back: false, forward: true, below: false), .sheet)
        XCTAssertEqual(owner(9, back: false, forward: true, below: true), .sheet)
        // Toward expansion below the largest detent: the sheet first (unless turned off).
        XCTAssertEqual(owner(-9, back: false, forward: true, below: true), .sheet)
        XCTAssertEqual(owner(-9, back: false, forward: true, below: true, expands: false), .content)
        // At the largest detent: the content while it can scroll, else the sheet (rubber band).
        XCTAssertEqual(owner(-9, back: false, forward: true, below: false), .content)
        XCTAssertEqual(owner(-9, back: true, forward: false, below: false), .sheet)
        // A sheet caught moving stays the sheet's.
        XCTAssertEqual(owner(9, back: true, forward: true, below: false, caught: true), .sheet)
        XCTAssertEqual(ScrollArbitration.edge(towardDismissal: .down), .top)
        XCTAssertEqual(ScrollArbitration.edge(towardExpansion: .down), .bottom)
        XCTAssertEqual(ScrollArbitration.edge(towardDismissal: .up), .bottom)
    }

    // MARK: Arbitration in the host

    func testUpwardDragAtTheSmallerDetentExpandsTheSheetNotTheList() throws {
        try present()
        drag(from: 600, through: [590, 580, 550, 500], t0: 2, release: false)
        XCTAssertEqual(top(2.04), 300, accuracy: 1e-9)   // the sheet follows the finger: 400 − 100
        XCTAssertEqual(list.position.offset.y, 0)
        XCTAssertEqual(list.cancels, 1)                  // the sheet took the press over
        XCTAssertTrue(list.scrolls.isEmpty)              // no scroll of the list while the sheet moves
    }

    func testUpwardDragWithExpandingOffScrollsTheList() throws {
        try present(expands: false)
        drag(from: 600, through: [590, 580, 550, 500], t0: 2, release: false)
        XCTAssertEqual(top(2.04), 400, accuracy: 1e-9)   // the sheet stays
        // The list follows the finger from where the drag was recognised (y 590): 90 pt.
        XCTAssertEqual(list.position.offset.y, 90, accuracy: 1e-9)
        let pressed = list.inputs.drop { $0 != .press(Point(x: 240, y: 200)) }
        XCTAssertEqual(pressed.dropFirst().first, .cancel)   // the press is cancelled before it scrolls
        XCTAssertEqual(list.scrolls.first?.source, .pointerDrag)
    }

    func testTheSheetReachingItsLargestDetentHandsTheRestToTheList() throws {
        try present()
        // From y 600 up to 200: the sheet grows by 320 (arriving when the finger is at 280),
        // then the list scrolls by the remaining 80.
        drag(from: 600, through: [590, 500, 400, 300, 250, 200], t0: 2, release: false)
        XCTAssertEqual(top(2.06), 80, accuracy: 1e-9)
        XCTAssertEqual(list.position.offset.y, 80, accuracy: 1e-9)
        host.handle(.pointerButton(pressed: false), now: 2.06)
        host.update(now: 3)
        XCTAssertEqual(top(3), 80, accuracy: 1e-9)   // at rest at the larger detent
    }

    func testDownwardDragWithTheListAtItsTopMovesTheSheet() throws {
        try present()
        expand()
        drag(from: 300, through: [310, 320, 350, 400], t0: 5, release: false)
        XCTAssertEqual(top(5.04), 180, accuracy: 1e-9)   // 80 + 100
        XCTAssertEqual(list.position.offset.y, 0)
        XCTAssertTrue(list.scrolls.isEmpty)
    }

    func testDownwardDragOnAScrolledListScrollsItThenHandsOverToTheSheet() throws {
        try present()
        expand()
        wheel(50, at: Point(x: 240, y: 300), now: 5)
        XCTAssertEqual(list.position.offset.y, 50, accuracy: 1e-9)
        // Down from 300: recognised at 310 (the list's); the motion to 370 brings it back to its
        // top (it stops there), and the sheet follows the finger from there: 370 → 400.
        drag(from: 300, through: [310, 330, 350, 370, 400], t0: 6, release: false)
        XCTAssertEqual(list.position.offset.y, 0, accuracy: 1e-9)
        XCTAssertEqual(top(6.05), 80 + 30, accuracy: 1e-9)
        XCTAssertEqual(list.scrolls.last?.phase, .ended)   // its scroll ended as the sheet took over
        host.handle(.pointerButton(pressed: false), now: 6.05)
        XCTAssertNil(host.scrollDecelerationVelocity)       // a handed-over pan does not decelerate the list
    }

    func testUpwardDragAtTheLargestDetentScrollsTheList() throws {
        try present()
        expand()
        drag(from: 600, through: [590, 560, 500], t0: 5, release: false)
        XCTAssertEqual(top(5.03), 80, accuracy: 1e-9)
        XCTAssertEqual(list.position.offset.y, 90, accuracy: 1e-9)
    }

    // MARK: Wheel and touchpad

    func testWheelAtTheSmallerDetentExpandsFirstThenScrolls() throws {
        try present()
        wheel(15, at: Point(x: 240, y: 600), now: 2)
        XCTAssertEqual(list.position.offset.y, 0)          // the sheet grows instead
        wheel(15, at: Point(x: 240, y: 600), now: 2.1)      // while it settles: used up by it
        XCTAssertEqual(list.position.offset.y, 0)
        host.update(now: 4)
        XCTAssertEqual(top(4), 80, accuracy: 1e-9)
        wheel(15, at: Point(x: 240, y: 600), now: 4)
        XCTAssertEqual(list.position.offset.y, 15, accuracy: 1e-9)
        wheel(-30, at: Point(x: 240, y: 600), now: 4.1)     // toward the top: stops at it
        XCTAssertEqual(list.position.offset.y, 0, accuracy: 1e-9)
        XCTAssertEqual(top(4.1), 80, accuracy: 1e-9)        // a scroll never moves the sheet toward dismissal
    }

    func testWheelWithExpandingOffScrollsAtTheSmallerDetent() throws {
        try present(expands: false)
        wheel(15, at: Point(x: 240, y: 600), now: 2)
        XCTAssertEqual(list.position.offset.y, 15, accuracy: 1e-9)
        XCTAssertEqual(top(3), 400, accuracy: 1e-9)
    }

    func testScrollOverTheDimReachesNothingBeneath() throws {
        try present()
        wheel(15, at: Point(x: 240, y: 200), now: 2)   // above the sheet: its dim
        XCTAssertTrue(presenting.scrolls.isEmpty)
        XCTAssertTrue(list.scrolls.isEmpty)
        XCTAssertEqual(top(3), 400, accuracy: 1e-9)
    }

    func testScrollWithNothingPresentedReachesThePresentingContent() throws {
        presenting = List()
        host = PresentationHost(style: try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5,0.9"]), presenting: presenting)
        host.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        wheel(30, at: Point(x: 240, y: 200), now: 1)
        XCTAssertEqual(presenting.position.offset.y, 30, accuracy: 1e-9)
        XCTAssertEqual(presenting.scrolls.first?.location, Point(x: 240, y: 200))
        XCTAssertEqual(presenting.scrolls.first?.steps120Y, 120)
    }

    func testTouchpadStopDeceleratesAlongTheCurve() throws {
        try present()
        expand()
        host.handle(.pointerMotion(Point(x: 240, y: 400)), now: 5)
        // 10 pt every 10 ms for 100 ms: 1000 pt/s, then the fingers lift (axis_stop).
        for i in 1...10 {
            host.handle(.pointerScroll(ScrollInput(delta: Point(x: 0, y: 10), source: .finger)), now: 5 + Double(i) * 0.01)
        }
        XCTAssertEqual(list.position.offset.y, 100, accuracy: 1e-9)
        host.handle(.pointerScroll(ScrollInput(delta: .zero, source: .finger, phase: .ended)), now: 5.1)
        XCTAssertEqual(host.scrollDecelerationVelocity?.y ?? 0, 1000, accuracy: 1e-6)
        XCTAssertTrue(host.isAnimating)
        host.update(now: 5.2)
        XCTAssertEqual(list.position.offset.y, 100 + 90.6259, accuracy: 1e-4)
        XCTAssertEqual(list.scrolls.last?.phase, .momentum)
        host.update(now: 6.1)
        XCTAssertEqual(list.position.offset.y, 100 + 432.0351, accuracy: 1e-4)
        host.update(now: 9)
        XCTAssertEqual(list.position.offset.y, 100 + 499.4998, accuracy: 0.5)
        XCTAssertEqual(list.scrolls.last?.phase, .momentumEnded)
        XCTAssertFalse(host.isAnimating)
    }

    func testDecelerationStopsAtTheEdgeAndOnAPress() throws {
        try present()
        expand()
        host.handle(.pointerMotion(Point(x: 240, y: 400)), now: 5)
        for i in 1...10 {
            host.handle(.pointerScroll(ScrollInput(delta: Point(x: 0, y: 100), source: .finger)), now: 5 + Double(i) * 0.01)
        }
        host.handle(.pointerScroll(ScrollInput(delta: .zero, source: .finger, phase: .ended)), now: 5.1)
        // 10 000 pt/s would glide 4995 pt: the list's bottom (1760 − 720 = 1040) ends it.
        host.update(now: 6)
        XCTAssertEqual(list.position.offset.y, 1040, accuracy: 1e-9)
        XCTAssertEqual(list.scrolls.last?.phase, .momentumEnded)
        XCTAssertFalse(host.isAnimating)
        // A press during a deceleration stops it where it is.
        wheel(-500, at: Point(x: 240, y: 400), now: 7)
        for i in 1...10 {
            host.handle(.pointerScroll(ScrollInput(delta: Point(x: 0, y: -10), source: .finger)), now: 7 + Double(i) * 0.01)
        }
        host.handle(.pointerScroll(ScrollInput(delta: .zero, source: .finger, phase: .ended)), now: 7.1)
        host.update(now: 7.2)
        let stopped = list.position.offset.y
        XCTAssertEqual(stopped, 540 - 100 - 90.6259, accuracy: 1e-4)
        host.handle(.pointerButton(pressed: true), now: 7.2)
        host.update(now: 8)
        XCTAssertEqual(list.position.offset.y, stopped)
        XCTAssertEqual(list.scrolls.last?.phase, .momentumEnded)
    }

    // MARK: Touch

    func testTouchPanScrollsTheContentAndDecelerates() throws {
        presenting = List()
        presenting.didLayout(size: Size(width: 480, height: 800))
        host = PresentationHost(style: try BuiltinStyle.bottomSheet.make(), presenting: presenting)
        host.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        host.handle(.touchDown(id: 3, Point(x: 200, y: 700)), now: 1)
        // Up 10 pt every 10 ms: recognised at 690 (8 pt), then the list follows: 1000 pt/s.
        var t = 1.0
        for i in 1...11 {
            t += 0.01
            host.handle(.touchMotion(id: 3, Point(x: 200, y: 700 - Double(i) * 10)), now: t)
        }
        XCTAssertEqual(presenting.position.offset.y, 100, accuracy: 1e-9)   // 690 → 590
        XCTAssertEqual(presenting.cancels, 1)
        XCTAssertEqual(presenting.scrolls.first?.source, .touch)
        host.handle(.touchUp(id: 3), now: t)
        XCTAssertEqual(presenting.scrolls.last?.phase, .ended)
        host.update(now: t + 0.1)
        XCTAssertEqual(presenting.position.offset.y, 100 + 90.6259, accuracy: 1e-4)
        XCTAssertFalse(presenting.inputs.contains { if case .release = $0 { return true } else { return false } })
    }

    func testATouchThatStaysWithinTheThresholdIsATap() throws {
        presenting = List()
        presenting.didLayout(size: Size(width: 480, height: 800))
        host = PresentationHost(style: try BuiltinStyle.bottomSheet.make(), presenting: presenting)
        host.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        host.handle(.touchDown(id: 1, Point(x: 200, y: 700)), now: 1)
        host.handle(.touchMotion(id: 1, Point(x: 200, y: 695)), now: 1.01)
        host.handle(.touchUp(id: 1), now: 1.02)
        XCTAssertEqual(presenting.inputs, [.press(Point(x: 200, y: 700)), .drag(Point(x: 200, y: 695)),
                                           .release(Point(x: 200, y: 695))])
    }
}
