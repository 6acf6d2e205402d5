import ModalKitHostFuzzSupport
import ModalKit
import XCTest

/// Dragging the presented view, with synthetic input at exact times (no compositor): the bottom
/// sheet in a 480 × 800 container (sheet 400 pt tall, frame y 400…800; dismissed 400 pt further).
final class InteractiveTransitionTests: XCTestCase {
    final class Content: PresentationContent {
        var invalidation: ContentInvalidation = .all
        var inputs: [ContentInput] = []
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: .white)
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool {
            inputs.append(input)
            if case .key = input { return false }  // Escape falls back to the host
            return true
        }
    }

    final class Log {
        var lines: [String] = []
    }

    /// A host with the bottom-sheet double (`options`), 480 × 800, presented and at rest at t = 1.
    private func sheet(_ options: [String: String] = [:], presented: Bool = true)
        throws -> (PresentationHost, Content, Log) {
        let style = try BuiltinStyle.bottomSheet.make(options: options)
        let card = Content()
        let host = PresentationHost(style: style, presenting: Content())
        let log = Log()
        host.onStateChange = { log.lines.append($0.rawValue) }
        host.onInteraction = { log.lines.append($0.logLine) }
        host.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        if presented {
            host.present(card, now: 0)
            host.update(now: 1)
            XCTAssertEqual(host.state, .presented)
        }
        return (host, card, log)
    }

    private func top(_ host: PresentationHost, _ now: Double) -> Double {
        host.snapshot(at: now).presentedRect.minY
    }

    /// Pointer drag from (240, y0) through `ys` at `dt` seconds apart starting at `t0`.
    private func drag(_ host: PresentationHost, from y0: Double, through ys: [Double], t0: Double, dt: Double,
                      releaseAfter pause: Double? = nil) -> Double {
        host.handle(.pointerMotion(Point(x: 240, y: y0)), now: t0)
        host.handle(.pointerButton(pressed: true), now: t0)
        var t = t0
        for y in ys {
            t += dt
            host.handle(.pointerMotion(Point(x: 240, y: y)), now: t)
        }
        if let pause = pause {
            t += pause
            host.handle(.pointerButton(pressed: false), now: t)
        }
        return t
    }

    // MARK: Formulas

    func testRubberBandIsUIScrollViewsFormula() {
        // (1 − 1/(x·0.55/d + 1))·d for d = 800: x = 100 → 51.462, x = 280 → 129.140, x = 200 → 96.703.
        XCTAssertEqual(DragPhysics.rubberBand(100, dimension: 800), 51.462, accuracy: 0.001)
        XCTAssertEqual(DragPhysics.rubberBand(280, dimension: 800), 129.140, accuracy: 0.001)
        XCTAssertEqual(DragPhysics.rubberBand(-200, dimension: 800), -96.703, accuracy: 0.001)
        XCTAssertEqual(DragPhysics.rubberBand(0, dimension: 800), 0)
    }

    func testProjectionUsesTheNormalDecelerationRate() {
        // 0.998 / (1 − 0.998) / 1000 = 0.499 s.
        XCTAssertEqual(DragPhysics.projectedPosition(100, velocity: 1000), 599, accuracy: 1e-9)
        XCTAssertEqual(DragPhysics.projectedPosition(100, velocity: -200), 0.2, accuracy: 1e-9)
    }

    func testTargetChoiceOverAGridOfPositionsAndVelocities() throws {
        // detents 0.5, 0.9 of 800: frame 720 tall at y 80; offsets 320 (detent 0) and 0 (detent 1);
        // dismissed at 720.
        let style = try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5,0.9"])
        let bounds = Rect(x: 0, y: 0, width: 480, height: 800)
        let layout = DetentLayout(style.interaction(LayoutContext(containerBounds: bounds)), direction: .down,
                                  frame: style.frameOfPresentedView(LayoutContext(containerBounds: bounds)),
                                  containerBounds: bounds)
        XCTAssertEqual(layout.offsets, [320, 0])
        XCTAssertEqual(layout.dismissedOffset, 720)
        let cases: [(Double, Double, DetentLayout.Target)] = [
            (0, 0, .detent(1)), (150, 0, .detent(1)), (170, 0, .detent(0)), (320, 0, .detent(0)),
            (500, 0, .detent(0)), (530, 0, .dismissed), (700, -100, .dismissed),
            (320, 1000, .dismissed),   // projected 819
            (320, 350, .detent(0)),    // projected 494.7
            (320, 450, .dismissed),    // projected 544.6
            (320, -400, .detent(1)),   // projected 120.4
            (320, -200, .detent(0)),   // projected 220.2
            (0, 700, .detent(0)),      // projected 349.3
            (0, 200, .detent(1)),      // projected 99.8
            (-40, -2000, .detent(1)),
        ]
        for (position, velocity, expected) in cases {
            XCTAssertEqual(layout.target(releasedAt: position, velocity: velocity), expected,
                           "position \(position), velocity \(velocity)")
        }
    }

    func testVelocityIsMeasuredOverTheLast100ms() {
        var tracker = VelocityTracker()
        tracker.add(0, at: 0)
        tracker.add(500, at: 0.5)   // outside the window at 0.65
        for i in 1...10 { tracker.add(500 + Double(i) * 6, at: 0.5 + Double(i) * 0.01) }
        XCTAssertEqual(tracker.velocity(at: 0.6), 600, accuracy: 1e-6, "60 pt over the last 100 ms")
        tracker.add(560, at: 0.8)
        XCTAssertEqual(tracker.velocity(at: 0.8), 0, "a pause longer than the window: no fling")
    }

    // MARK: Live host, synthetic input

    func testTheSheetFollowsTheFingerAfter8PointsAndTheDimFollows() throws {
        let (host, card, log) = try sheet()
        host.handle(.pointerMotion(Point(x: 240, y: 500)), now: 2)
        host.handle(.pointerButton(pressed: true), now: 2)
        host.handle(.pointerMotion(Point(x: 240, y: 505)), now: 2.01)
        XCTAssertEqual(top(host, 2.01), 400, accuracy: 0.5, "5 pt: still a press, the view stays")
        XCTAssertEqual(log.lines, ["presenting", "presented"])
        host.handle(.pointerMotion(Point(x: 240, y: 520)), now: 2.02)
        XCTAssertEqual(log.lines.last, "drag-began")
        XCTAssertEqual(card.inputs.last, .cancel, "the content's press ends when the drag begins")
        for (i, y) in stride(from: 530.0, through: 700, by: 17).enumerated() {
            let t = 2.03 + Double(i) * 0.016
            host.handle(.pointerMotion(Point(x: 240, y: y)), now: t)
            let snap = host.snapshot(at: t)
            XCTAssertEqual(snap.presentedRect.minY, 400 + (y - 500), accuracy: 0.5, "1:1 with the finger")
            XCTAssertEqual(snap.dim.alpha, 0.4 * (1 - (y - 500) / 400), accuracy: 1e-9, "dim at the same progress")
        }
        XCTAssertEqual(host.state, .presented, "a drag alone changes no state")
        XCTAssertFalse(host.isAnimating)
    }

    func testPastThePresentedPositionTheDragRubberBands() throws {
        let (host, _, _) = try sheet()
        let t = drag(host, from: 500, through: [480, 450, 400], t0: 2, dt: 0.02)
        // 100 pt up past offset 0: shows −(1 − 1/(100·0.55/800 + 1))·800 = −51.46.
        XCTAssertEqual(top(host, t), 400 - 51.462, accuracy: 0.5)
        XCTAssertEqual(host.snapshot(at: t).dim.alpha, 0.4, accuracy: 1e-9, "the dim stays full (clamped)")
    }

    func testASlowDragOf40PercentSpringsBackAnd70PercentDismisses() throws {
        let (host, _, log) = try sheet()
        // 160 pt (40 % of 400) over 0.8 s, held still 0.2 s, released.
        var t = drag(host, from: 450, through: stride(from: 460.0, through: 610, by: 10).map { $0 }, t0: 2, dt: 0.05,
                     releaseAfter: 0.2)
        XCTAssertEqual(log.lines.suffix(2), ["drag-began", "drag-ended 0.0"])
        XCTAssertTrue(host.isAnimating)
        t += 2
        host.update(now: t)
        XCTAssertEqual(top(host, t), 400, accuracy: 0.5)
        XCTAssertEqual(log.lines, ["presenting", "presented", "drag-began", "drag-ended 0.0", "detent 1"])
        XCTAssertFalse(host.isAnimating)

        let (h2, _, log2) = try sheet()
        t = drag(h2, from: 450, through: stride(from: 460.0, through: 730, by: 10).map { $0 }, t0: 2, dt: 0.05,
                 releaseAfter: 0.2)
        XCTAssertEqual(log2.lines.suffix(3), ["drag-began", "drag-ended 0.0", "dismissing"])
        h2.update(now: t + 2)
        XCTAssertEqual(log2.lines.last, "dismissed")
    }

    func testAFlickDismissesAndTheSpringStartsAtTheReleaseVelocity() throws {
        let (host, _, log) = try sheet()
        // 60 pt in 50 ms, released at once: 1200 pt/s, projected 60 + 598.8 → dismissed.
        let t = drag(host, from: 500, through: (1...10).map { 500 + Double($0) * 6 }, t0: 2, dt: 0.005,
                     releaseAfter: 0)
        XCTAssertEqual(log.lines.suffix(3), ["drag-began", "drag-ended 1200.0", "dismissing"])
        let h = 1e-4
        let v0 = (top(host, t + h) - top(host, t)) / h
        XCTAssertEqual(v0, 1200, accuracy: 24, "no jump in speed (±2 %)")
        XCTAssertEqual(top(host, t), 460, accuracy: 0.5, "the spring starts where the view was")
        host.update(now: t + 3)
        XCTAssertEqual(host.state, .dismissed)
    }

    func testACatchMidPresentationHoldsTheViewWhereItWasWithNoStateEvents() throws {
        let (host, card, log) = try sheet(presented: false)
        host.present(card, now: 0)
        let y0 = top(host, 0.175)   // half-way through the 0.35 s presentation: 600
        XCTAssertEqual(y0, 600, accuracy: 0.5)
        host.handle(.pointerMotion(Point(x: 240, y: 700)), now: 0.175)
        host.handle(.pointerButton(pressed: true), now: 0.175)
        for t in [0.175, 0.3, 1.0, 5.0] {
            host.update(now: t)
            XCTAssertEqual(top(host, t), y0, accuracy: 0.5, "held under the pointer at \(t) s")
        }
        XCTAssertEqual(log.lines, ["presenting"], "no extra state event")
        host.handle(.pointerMotion(Point(x: 240, y: 650)), now: 5.02)
        XCTAssertEqual(top(host, 5.02), y0 - 50, accuracy: 0.5, "continues as a drag")
        host.handle(.pointerMotion(Point(x: 240, y: 500)), now: 5.1)
        host.handle(.pointerButton(pressed: false), now: 5.4)
        host.update(now: 8)
        XCTAssertEqual(top(host, 8), 400, accuracy: 0.5)
        XCTAssertEqual(log.lines, ["presenting", "drag-began", "drag-ended 0.0", "presented", "detent 1"])
    }

    func testACatchDuringADismissalHoldsItAndADragBackPresentsAgain() throws {
        let (host, _, log) = try sheet()
        host.handle(.key(.escape, pressed: true), now: 2)
        let y0 = top(host, 2.175)   // half-way out: 600
        XCTAssertEqual(y0, 600, accuracy: 0.5)
        host.handle(.touchDown(id: 3, Point(x: 240, y: 700)), now: 2.175)
        host.update(now: 4)
        XCTAssertEqual(top(host, 4), y0, accuracy: 0.5, "held where it was")
        XCTAssertEqual(log.lines, ["presenting", "presented", "dismissing"], "no extra state event")
        for (i, y) in stride(from: 680.0, through: 500, by: -20).enumerated() {
            host.handle(.touchMotion(id: 3, Point(x: 240, y: y)), now: 4 + Double(i + 1) * 0.02)
        }
        XCTAssertEqual(top(host, 4.2), y0 - 200, accuracy: 0.5, "touch drags follow 1:1 too")
        host.handle(.touchUp(id: 3), now: 4.5)
        host.update(now: 7)
        XCTAssertEqual(top(host, 7), 400, accuracy: 0.5)
        XCTAssertEqual(log.lines, ["presenting", "presented", "dismissing", "drag-began", "drag-ended 0.0",
                                   "presenting", "presented", "detent 1"])
    }

    func testACatchWithoutADragResumesAndTheContentGetsItsTap() throws {
        let (host, card, log) = try sheet(presented: false)
        host.present(card, now: 0)
        let y0 = top(host, 0.1)
        XCTAssertLessThan(y0, 780)
        host.handle(.pointerMotion(Point(x: 240, y: 790)), now: 0.1)
        host.handle(.pointerButton(pressed: true), now: 0.1)
        host.handle(.pointerButton(pressed: false), now: 0.2)
        XCTAssertEqual(top(host, 0.2), y0, accuracy: 0.5)
        host.update(now: 3)
        XCTAssertEqual(top(host, 3), 400, accuracy: 0.5, "it resumes to the sheet's place")
        XCTAssertEqual(log.lines, ["presenting", "presented", "detent 1"])
        XCTAssertTrue(card.inputs.contains(where: { if case .release = $0 { return true } else { return false } }))
    }

    /// A press that catches a dismissal a fraction of a point from its end, released without a
    /// drag: the view resumes and its dismissal completes at once; the press ends with a cancel
    /// to its content (its level left the stack), not with a release nowhere, leaving it pressed.
    func testACatchThatResumesIntoTheEndOfADismissalCancelsTheContentsPress() throws {
        let (host, card, log) = try sheet(["duration": "1", "curve": "linear"], presented: false)
        host.present(card, now: 0)
        host.dismiss(now: 0.001)  // 0.4 pt up from its dismissed place
        let r = try XCTUnwrap(host.presentedViewRect(at: 0.001))
        XCTAssertEqual(r.minY, 799.6, accuracy: 1e-6)
        host.handle(.touchDown(id: 1, Point(x: 240, y: 799.8)), now: 0.001)
        guard case let .press(p)? = card.inputs.last else { return XCTFail("no press: \(card.inputs)") }
        XCTAssertEqual(p.y, 0.2, accuracy: 1e-6)
        host.handle(.touchUp(id: 1), now: 0.001)
        XCTAssertEqual(log.lines, ["presenting", "dismissing", "dismissed"])
        XCTAssertEqual(card.inputs.last, .cancel)
    }

    /// The same catch ended by the compositor (touch cancel) or by the pointer leaving the window:
    /// the content gets its cancel there too.
    func testACatchEndedWithoutAReleaseAtTheEndOfADismissalCancelsTheContentsPress() throws {
        for ending in [PresentationInput.touchCancel, .pointerLeave] {
            let (host, card, log) = try sheet(["duration": "1", "curve": "linear"], presented: false)
            host.present(card, now: 0)
            host.dismiss(now: 0.001)  // 0.4 pt up from its dismissed place
            if ending == .touchCancel {
                host.handle(.touchDown(id: 1, Point(x: 240, y: 799.8)), now: 0.001)
            } else {
                host.handle(.pointerMotion(Point(x: 240, y: 799.8)), now: 0.001)
                host.handle(.pointerButton(pressed: true), now: 0.001)
            }
            guard case .press? = card.inputs.last else { return XCTFail("no press: \(card.inputs)") }
            host.handle(ending, now: 0.001)
            XCTAssertEqual(log.lines, ["presenting", "dismissing", "dismissed"], "\(ending)")
            XCTAssertEqual(card.inputs.last, .cancel, "\(ending)")
        }
    }

    /// The app dismisses the sheet in the middle of a drag: its spring takes the view away (the
    /// finger no longer moves it), and the gesture still ends with `drag-ended` when the finger
    /// lifts — every `drag-began` has its `drag-ended` (UIKit's pan gesture ends whatever the app
    /// does with the view).
    func testADragTheAppDismissesMeanwhileStillEndsWithDragEnded() throws {
        let (host, _, log) = try sheet()
        host.handle(.pointerMotion(Point(x: 240, y: 500)), now: 2)
        host.handle(.pointerButton(pressed: true), now: 2)
        host.handle(.pointerMotion(Point(x: 240, y: 550)), now: 2.05)
        XCTAssertEqual(top(host, 2.05), 450, accuracy: 0.5)
        host.dismiss(now: 2.1)
        host.handle(.pointerMotion(Point(x: 240, y: 520)), now: 2.15)
        XCTAssertGreaterThan(top(host, 2.15), 450, "the app's spring has the view, not the finger")
        host.handle(.pointerButton(pressed: false), now: 2.2)
        host.update(now: 4)
        guard log.lines.count == 6 else { return XCTFail("\(log.lines)") }
        XCTAssertEqual(Array(log.lines.prefix(4)), ["presenting", "presented", "drag-began", "dismissing"])
        XCTAssertTrue(log.lines[4].hasPrefix("drag-ended "), "\(log.lines)")
        XCTAssertEqual(log.lines[5], "dismissed")
    }

    /// A press catches a dismissing sheet, the app dismisses it again (its spring takes the view
    /// away), then the press moves 8 pt: the drag catches the view again where the spring has it and
    /// the view follows the finger; `drag-began` and `drag-ended` as for any drag.
    func testADragAfterTheAppTookACaughtViewCatchesItAgain() throws {
        let (host, _, log) = try sheet()
        host.dismiss(now: 2)
        host.handle(.pointerMotion(Point(x: 240, y: 700)), now: 2.1)
        host.handle(.pointerButton(pressed: true), now: 2.1)
        host.dismiss(now: 2.1)
        host.handle(.pointerMotion(Point(x: 240, y: 650)), now: 2.15)
        let y = top(host, 2.15)
        host.handle(.pointerMotion(Point(x: 240, y: 630)), now: 2.2)
        XCTAssertEqual(top(host, 2.2), y - 20, accuracy: 1e-6, "the view follows the finger")
        host.handle(.pointerButton(pressed: false), now: 2.4)
        XCTAssertEqual(Array(log.lines.prefix(4)), ["presenting", "presented", "dismissing", "drag-began"])
        XCTAssertEqual(log.lines.filter { $0.hasPrefix("drag-ended ") }.count, 1, "\(log.lines)")
    }

    func testATapOnADraggableViewStillReachesItsContent() throws {
        let (host, card, log) = try sheet()
        host.handle(.pointerMotion(Point(x: 240, y: 500)), now: 2)
        host.handle(.pointerButton(pressed: true), now: 2)
        host.handle(.pointerMotion(Point(x: 243, y: 506)), now: 2.05)
        host.handle(.pointerButton(pressed: false), now: 2.1)
        XCTAssertEqual(card.inputs.suffix(3), [.press(Point(x: 240, y: 100)), .drag(Point(x: 243, y: 106)),
                                              .release(Point(x: 243, y: 106))])
        XCTAssertEqual(log.lines, ["presenting", "presented"])
        XCTAssertEqual(top(host, 2.1), 400)
    }

    func testDetentsADragUpPastTheMiddleSettlesOnTheLargest() throws {
        let (host, _, log) = try sheet(["detents": "0.5,0.9"])
        XCTAssertEqual(top(host, 1), 400, accuracy: 0.5, "presented at the smallest detent (0.5)")
        // Up 200 pt (past the middle, 160) slowly, held, released.
        let t = drag(host, from: 500, through: stride(from: 490.0, through: 300, by: -10).map { $0 }, t0: 2,
                     dt: 0.04, releaseAfter: 0.2)
        host.update(now: t + 2)
        XCTAssertEqual(top(host, t + 2), 80, accuracy: 0.5, "0.9 of 800: the top at 80")
        XCTAssertEqual(log.lines, ["presenting", "presented", "drag-began", "drag-ended 0.0", "detent 2"])
        // A dim tap above the sheet at its new place (y 40) still dismisses; at y 200 it is the sheet.
        host.handle(.touchDown(id: 1, Point(x: 240, y: 200)), now: t + 3)
        host.handle(.touchUp(id: 1), now: t + 3.05)
        XCTAssertEqual(host.state, .presented)
        host.handle(.touchDown(id: 1, Point(x: 240, y: 40)), now: t + 4)
        host.handle(.touchUp(id: 1), now: t + 4.05)
        XCTAssertEqual(host.state, .dismissing)
    }

    func testTheDimIsClearAtAndBelowTheLargestUndimmedDetent() throws {
        let (host, _, _) = try sheet(["detents": "0.5,0.9", "undimmed-detent": "0"])
        XCTAssertEqual(host.snapshot(at: 1).dim.alpha, 0, "at detent 0 (undimmed)")
        let t = drag(host, from: 500, through: stride(from: 490.0, through: 340, by: -10).map { $0 }, t0: 2, dt: 0.04)
        // Offset 320 − 160 = 160: half-way to detent 1 → half the dim.
        XCTAssertEqual(host.snapshot(at: t).dim.alpha, 0.2, accuracy: 1e-9)
    }

    /// At rest on an undimmed detent the presenting content takes taps outside the sheet (UIKit
    /// passes touches through there) and no dismissal happens; one detent up, the dim is back and
    /// a tap there dismisses as usual.
    func testAnUndimmedDetentPassesTapsOutsideTheSheetToThePresentingContent() throws {
        let style = try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5,0.9", "undimmed-detent": "0"])
        let presenting = Content(), card = Content()
        let host = PresentationHost(style: style, presenting: presenting)
        host.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        host.present(card, now: 0)
        host.update(now: 1)
        presenting.inputs.removeAll()
        card.inputs.removeAll()   // (the focus the host moved onto it)
        host.handle(.touchDown(id: 1, Point(x: 240, y: 100)), now: 2)
        host.handle(.touchUp(id: 1), now: 2.05)
        XCTAssertEqual(host.state, .presented)
        XCTAssertEqual(presenting.inputs, [.press(Point(x: 240, y: 100)), .release(Point(x: 240, y: 100))])
        XCTAssertTrue(card.inputs.isEmpty)
        // Drag up to detent 1 (dimmed): a tap above the sheet (top at 80) dismisses again.
        let t = drag(host, from: 500, through: stride(from: 480.0, through: 140, by: -20).map { $0 }, t0: 3, dt: 0.04,
                     releaseAfter: 0.2)
        host.update(now: t + 2)
        XCTAssertEqual(top(host, t + 2), 80, accuracy: 0.5)
        presenting.inputs.removeAll()
        host.handle(.touchDown(id: 1, Point(x: 240, y: 40)), now: t + 3)
        host.handle(.touchUp(id: 1), now: t + 3.05)
        XCTAssertEqual(host.state, .dismissing)
        XCTAssertTrue(presenting.inputs.allSatisfy { if case .hover = $0 { return true } else { return false } })
    }

    func testARefusingModalRubberBandsSpringsBackAndReportsEveryAttempt() throws {
        let (host, _, log) = try sheet(["dismissible": "false"])
        // 280 pt (70 %) down, slowly; shows (1 − 1/(280·0.55/800 + 1))·800 = 129.14.
        let t = drag(host, from: 450, through: stride(from: 470.0, through: 730, by: 20).map { $0 }, t0: 2, dt: 0.05)
        XCTAssertEqual(top(host, t), 400 + 129.140, accuracy: 0.5)
        host.handle(.pointerButton(pressed: false), now: t + 0.2)
        host.update(now: t + 3)
        XCTAssertEqual(top(host, t + 3), 400, accuracy: 0.5)
        XCTAssertEqual(log.lines, ["presenting", "presented", "drag-began", "drag-ended 0.0", "close-attempt", "detent 1"])
        host.handle(.key(.escape, pressed: true), now: t + 4)
        host.handle(.touchDown(id: 1, Point(x: 240, y: 100)), now: t + 5)
        host.handle(.touchUp(id: 1), now: t + 5.05)
        XCTAssertEqual(log.lines.suffix(2), ["close-attempt", "close-attempt"])
        XCTAssertFalse(log.lines.contains("dismissing"))
        // The app may still dismiss it (UIKit: isModalInPresentation refuses the user only).
        host.dismiss(now: t + 6)
        XCTAssertEqual(host.state, .dismissing)
    }

    func testEscapeStillDismissesADraggableSheet() throws {
        let (host, _, log) = try sheet(["detents": "0.5,0.9"])
        host.handle(.key(.escape, pressed: true), now: 2)
        host.update(now: 3)
        XCTAssertEqual(log.lines, ["presenting", "presented", "dismissing", "dismissed"])
    }

    func testADragOnAStyleWithoutAGestureIsAPlainPress() throws {
        let card = Content()
        let host = PresentationHost(style: RecordingStyle().style, presenting: Content())
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        host.present(card, now: 0)
        host.update(now: 2)
        var events: [PresentationInteractionEvent] = []
        host.onInteraction = { events.append($0) }
        host.handle(.pointerMotion(Point(x: 200, y: 300)), now: 3)
        host.handle(.pointerButton(pressed: true), now: 3)
        host.handle(.pointerMotion(Point(x: 200, y: 400)), now: 3.1)
        XCTAssertEqual(host.snapshot(at: 3.1).presentedRect.minY, 110)
        XCTAssertEqual(events, [])
        XCTAssertEqual(card.inputs.last, .drag(Point(x: 180, y: 290)))
    }

    func testOptionsAreCheckedWithOneClearMessage() {
        XCTAssertThrowsError(try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5,x"])) {
            XCTAssertTrue(String(describing: $0).contains("detents"))
        }
        XCTAssertThrowsError(try BuiltinStyle.bottomSheet.make(options: ["dismissible": "maybe"]))
        XCTAssertThrowsError(try BuiltinStyle.bottomSheet.make(options: ["detents": "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9"])) {
            XCTAssertTrue(String(describing: $0).contains("at most 8"), "the plugin ABI carries 8: \($0)")
        }
        XCTAssertNoThrow(try BuiltinStyle.bottomSheet.make(options: ["detents": "0.2,0.3,0.4,0.5,0.6,0.7,0.8,300"]))
        XCTAssertThrowsError(try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5", "undimmed-detent": "1"]))
        XCTAssertNoThrow(try BuiltinStyle.insetCentered.make(options: ["dismissible": "false"]))
    }
}
