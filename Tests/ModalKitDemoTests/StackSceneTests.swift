import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// Stacked presentations in the demo scene (an app on `PresentationHost`): the card's Present
/// another presents the next level with the next level's style; each level has its own dim over
/// everything below; only the top level takes input; a dim tap or Escape dismisses only the top
/// level; focus returns to the control that presented it; layout and scale apply to every level;
/// the frames drawn with damage equal a full repaint.
///
/// Level 1 inset-centered (card 20…380 × 110…690 in 400 × 800, dim 0.5), level 2 bottom-sheet
/// (400 × 400 at y 400, dim 0.4), 0.35 s each.
final class StackSceneTests: XCTestCase {
    private let d = 0.35

    final class LevelBox { var events: [String] = [] }

    private func scene(_ styles: [BuiltinStyle] = [.insetCentered, .bottomSheet], width: Int = 400, height: Int = 800,
                       scale: Double = 1) throws -> (DemoScene, LevelBox) {
        let box = LevelBox()
        let s = try DemoScene(styleForLevel: { level in try! styles[min(level, styles.count) - 1].make() }) { e, level in
            box.events.append(level > 1 ? "\(e.rawValue) \(level)" : e.rawValue)
        }
        s.layout(containerSize: Size(width: Double(width), height: Double(height)), scale: scale)
        return (s, box)
    }

    private func key(_ s: DemoScene, _ k: PresentationKey, _ t: Double) { s.handle(.key(k, pressed: true), now: t) }
    private func settle(_ s: DemoScene, _ t: Double) { s.handle(.pointerMotion(Point(x: 1, y: 1)), now: t) }

    /// Return presents level 1; Tab + Return on Present another presents level 2.
    private func twoLevels() throws -> (DemoScene, LevelBox) {
        let (s, box) = try scene()
        key(s, .activate, 0)
        settle(s, 1)
        key(s, .tab, 1.1)
        key(s, .activate, 1.2)
        settle(s, 2)
        XCTAssertEqual(box.events, ["activated", "presenting", "presented", "presenting 2", "presented 2"])
        XCTAssertEqual(s.levelCount, 2)
        return (s, box)
    }

    func testPresentAnotherPresentsTheNextLevelEscapeDismissesOnlyTheTopAndFocusReturns() throws {
        let (s, box) = try twoLevels()
        XCTAssertEqual(s.presentedViewRect(at: 2, level: 2), Rect(x: 0, y: 400, width: 400, height: 400),
                       "level 2 has its own style: the bottom sheet")
        XCTAssertEqual(s.presentedViewRect(at: 2, level: 1), Rect(x: 20, y: 110, width: 360, height: 580))
        box.events = []
        key(s, .escape, 3)
        settle(s, 4)
        XCTAssertEqual(box.events, ["dismissing 2", "dismissed 2"])
        XCTAssertEqual(s.levelCount, 1)
        XCTAssertEqual(s.state, .presented, "level 1 still presented")
        XCTAssertEqual(s.cardButtonAppearances(level: 1)?.presentAnother.showsFocusRing, true,
                       "focus is back on the Present another that presented level 2")
        box.events = []
        key(s, .activate, 4.1)
        settle(s, 5)
        XCTAssertEqual(box.events, ["presenting 2", "presented 2"], "Return on the refocused Present another")
        key(s, .escape, 5.1)
        settle(s, 6)
        key(s, .escape, 6.1)
        settle(s, 7)
        XCTAssertEqual(Array(box.events.suffix(4)), ["dismissing 2", "dismissed 2", "dismissing", "dismissed"])
        XCTAssertEqual(s.levelCount, 0)
        XCTAssertEqual(s.focus, .presentButton)
    }

    /// Focus is in the top card only: the covered card shows no focus ring (as the Present button
    /// shows none under a card), and shows it again on its control when it is the top again.
    func testACoveredCardShowsNoFocusRing() throws {
        let (s, _) = try twoLevels()
        XCTAssertEqual(s.cardButtonAppearances(level: 1)?.presentAnother, ButtonAppearance(), "card 1 is covered")
        key(s, .tab, 2.1)
        XCTAssertEqual(s.cardButtonAppearances(level: 2)?.presentAnother.showsFocusRing, true)
        XCTAssertEqual(s.cardButtonAppearances(level: 1)?.presentAnother.showsFocusRing, false)
        XCTAssertEqual(s.buttonAppearance.showsFocusRing, false)
        key(s, .escape, 2.2)
        settle(s, 3)
        XCTAssertEqual(s.cardButtonAppearances(level: 1)?.presentAnother.showsFocusRing, true, "in front again")
    }

    func testOnlyTheTopLevelTakesInputAndADimTapDismissesOnlyIt() throws {
        let (s, box) = try twoLevels()
        box.events = []
        // Card 1's Close (276…364 × 638…674) lies under the sheet: a click there hits the sheet's
        // empty area (level 2's Close is at 296…384 × 748…784): nothing happens.
        s.handle(.pointerMotion(Point(x: 300, y: 656)), now: 3)
        s.handle(.pointerButton(pressed: true), now: 3)
        s.handle(.pointerButton(pressed: false), now: 3.01)
        settle(s, 3.5)
        XCTAssertEqual(box.events, [], "no input reaches level 1 while level 2 is up")
        // A tap on card 1 above the sheet is a tap on level 2's dim: level 2 is dismissed, not level 1.
        s.handle(.touchDown(id: 1, Point(x: 200, y: 200)), now: 4)
        s.handle(.touchUp(id: 1), now: 4.02)
        settle(s, 5)
        XCTAssertEqual(box.events, ["dismissing 2", "dismissed 2"])
        XCTAssertEqual(s.state, .presented)
        // Level 2's Close by a click, from a new level 2.
        box.events = []
        s.handle(.pointerMotion(Point(x: 191, y: 656)), now: 5.1)  // card 1's Present another
        s.handle(.pointerButton(pressed: true), now: 5.1)
        s.handle(.pointerButton(pressed: false), now: 5.11)
        settle(s, 6)
        XCTAssertEqual(box.events, ["presenting 2", "presented 2"], "a click on Present another")
        s.handle(.pointerMotion(Point(x: 340, y: 766)), now: 6.1)
        s.handle(.pointerButton(pressed: true), now: 6.1)
        s.handle(.pointerButton(pressed: false), now: 6.11)
        settle(s, 7)
        XCTAssertEqual(Array(box.events.suffix(3)), ["close 2", "dismissing 2", "dismissed 2"])
        XCTAssertEqual(s.cardButtonAppearances(level: 1)?.presentAnother.showsFocusRing, false,
                       "pointer use shows no ring, but focus is on Present another: Return presents again")
        box.events = []
        key(s, .activate, 7.1)
        XCTAssertEqual(box.events, ["presenting 2"])
    }

    /// A drag down on level 2's sheet dismisses level 2 only; level 1 stays presented.
    func testADragDismissesOnlyTheTopLevel() throws {
        let (s, box) = try twoLevels()
        box.events = []
        s.handle(.pointerMotion(Point(x: 200, y: 450)), now: 3)
        s.handle(.pointerButton(pressed: true), now: 3)
        for k in 1...6 { s.handle(.pointerMotion(Point(x: 200, y: 450 + 40 * Double(k))), now: 3 + 0.01 * Double(k)) }
        s.handle(.pointerButton(pressed: false), now: 3.07)
        settle(s, 5)
        XCTAssertEqual(box.events.filter { !$0.hasPrefix("drag") }, ["dismissing 2", "dismissed 2"])
        XCTAssertEqual(s.levelCount, 1)
        XCTAssertEqual(s.state, .presented)
    }

    /// Pixels of two presented levels: where both dims cover the background it is background × 0.5
    /// × 0.6; card 1 under the second dim is white × 0.6; the sheet is white.
    func testTwoDimsComposeOverEverythingBelow() throws {
        let (s, _) = try twoLevels()
        let (bg, _) = try scene()
        let a = try Image(width: 400, height: 800), b = try Image(width: 400, height: 800)
        s.render(into: a.pixelBuffer, now: 3, bufferAge: 0)
        bg.render(into: b.pixelBuffer, now: 0, bufferAge: 0)
        for (x, y) in [(200, 50), (10, 300), (395, 380), (5, 105)] {
            XCTAssertPixel(a.pixel(x: x, y: y), scaledPixel(scaledPixel(b.pixel(x: x, y: y), by: 0.5), by: 0.6),
                           "(\(x), \(y)): background × 0.5 × 0.6")
        }
        XCTAssertPixel(a.pixel(x: 200, y: 300), 0xFF999999, "card 1's white × 0.6")
        XCTAssertPixel(a.pixel(x: 200, y: 600), 0xFFFFFFFF, "the sheet, undimmed")
        XCTAssertPixel(a.pixel(x: 0, y: 799), 0xFFFFFFFF, "the sheet's square bottom corner")
    }

    /// Every frame of a level-2 presentation and dismissal drawn into one buffer with buffer age 1
    /// (only the damage repainted) equals a full repaint of the same moment.
    func testDamagedFramesEqualFullRepaintsThroughTheStack() throws {
        let (s, _) = try scene()
        let (r, _) = try scene()
        let live = try Image(width: 400, height: 800), full = try Image(width: 400, height: 800)
        var t = 0.0
        func step(_ dt: Double) {
            t += dt
            s.render(into: live.pixelBuffer, now: t, bufferAge: 1)
            r.render(into: full.pixelBuffer, now: t, bufferAge: 0)
            for y in stride(from: 0, to: 800, by: 3) {
                for x in stride(from: 0, to: 400, by: 3) where live.pixel(x: x, y: y) != full.pixel(x: x, y: y) {
                    XCTFail("t = \(t): (\(x), \(y)) \(hex(live.pixel(x: x, y: y))) != \(hex(full.pixel(x: x, y: y)))")
                    return
                }
            }
        }
        s.render(into: live.pixelBuffer, now: 0, bufferAge: 0)
        for scene in [s, r] { key(scene, .activate, 0.01) }
        for _ in 0..<10 { step(0.05) }
        for scene in [s, r] { key(scene, .tab, t); key(scene, .activate, t) }
        for _ in 0..<10 { step(0.05) }
        for scene in [s, r] { key(scene, .escape, t) }
        for _ in 0..<10 { step(0.05) }
        XCTAssertEqual(s.levelCount, 1)
        for scene in [s, r] { key(scene, .escape, t) }
        for _ in 0..<10 { step(0.05) }
        XCTAssertEqual(s.levelCount, 0)
    }

    /// A resize and a scale change with two levels presented reframe both: the frame equals the
    /// offline render of the stack at the new size and scale.
    func testLayoutAndScaleApplyToEveryLevel() throws {
        let (s, _) = try twoLevels()
        s.layout(containerSize: Size(width: 600, height: 500), scale: 1.5)
        XCTAssertEqual(s.presentedViewRect(at: 3, level: 1), Rect(x: 20, y: 110, width: 560, height: 280))
        XCTAssertEqual(s.presentedViewRect(at: 3, level: 2), Rect(x: 0, y: 250, width: 600, height: 250))
        let (w, h) = s.pixelSize
        XCTAssertEqual(w, 900); XCTAssertEqual(h, 750)
        let live = try Image(width: w, height: h), offline = try Image(width: w, height: h)
        s.render(into: live.pixelBuffer, now: 3, bufferAge: 0)
        let (r, _) = try scene(width: 600, height: 500, scale: 1.5)
        r.renderStackSnapshot(into: offline.pixelBuffer, levels: 2, phase: .present, fraction: 1)
        var mismatches = 0
        for y in 0..<h { for x in 0..<w where live.pixel(x: x, y: y) != offline.pixel(x: x, y: y) { mismatches += 1 } }
        XCTAssertEqual(mismatches, 0, "live two-level frame after the resize = render of the stack")
    }

    /// Four levels (the last style repeats), then all dismissed one by one.
    func testFourLevels() throws {
        let (s, box) = try scene([.insetCentered, .bottomSheet])
        key(s, .activate, 0)
        settle(s, 1)
        var t = 1.0
        for _ in 2...4 {
            key(s, .tab, t); key(s, .activate, t)
            t += 1
            settle(s, t)
        }
        XCTAssertEqual(s.levelCount, 4)
        XCTAssertEqual(box.events.filter { $0.hasPrefix("presented") }, ["presented", "presented 2", "presented 3", "presented 4"])
        XCTAssertEqual(s.presentedViewRect(at: t, level: 4), Rect(x: 0, y: 400, width: 400, height: 400))
        let img = try Image(width: 400, height: 800)
        s.render(into: img.pixelBuffer, now: t, bufferAge: 0)
        // Above every card: the background under dims 0.5, 0.6, 0.6, 0.6.
        let (bg, _) = try scene()
        let b = try Image(width: 400, height: 800)
        bg.render(into: b.pixelBuffer, now: 0, bufferAge: 0)
        XCTAssertPixel(img.pixel(x: 200, y: 50), scaledPixel(b.pixel(x: 200, y: 50), by: 0.5 * 0.6 * 0.6 * 0.6), tolerance: 3)
        for _ in 1...4 {
            key(s, .escape, t)
            t += 1
            settle(s, t)
        }
        XCTAssertEqual(s.levelCount, 0)
        XCTAssertEqual(box.events.filter { $0.hasPrefix("dismissed") }, ["dismissed 4", "dismissed 3", "dismissed 2", "dismissed"])
    }
}
