import ModalKitHostFuzzSupport
import ModalKit
import XCTest

/// `PresentationHost` stacks at the library level: one controller per level with its own style,
/// state events per level, input only to the top level, and a covered level drawn with the
/// "presenting view while covered" look of the level above (UIKit's page sheet over a sheet).
///
/// 400 × 600, scale 1. Level 1: RecordingStyle (1 s linear, card 20…380 × 110…490, dim 0.5).
/// Level 2: `Receding` (1 s linear, a sheet 400 × 200 at the bottom, dim 0.4, covering the level
/// below with scale 1 − 0.1·progress about its top centre).
final class StackHostTests: XCTestCase {
    final class Solid: PresentationContent {
        var invalidation: ContentInvalidation = .all
        var inputs: [ContentInput] = []
        let colour: Color
        init(_ c: Color) { colour = c }
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: colour)
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool {
            inputs.append(input)
            if case .key = input { return false }  // keys unused: Escape dismisses
            return true
        }
    }

    /// 1 s linear; a 200 pt sheet at the bottom over black 0.4 × progress; the view it covers
    /// scaled 1 − 0.1 × progress about its top centre.
    static func receding() -> PresentationStyle {
        let style = PresentationStyle(transitionDuration: 1, timingCurve: .linear)
        style.frameOfPresentedView = { c in
            Rect(x: 0, y: c.containerBounds.maxY - 200, width: c.containerBounds.width, height: 200)
        }
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.4 * progress) }
        style.presentingViewAppearance = { progress, _ in
            let k = 1 - 0.1 * progress
            return PresentingViewAppearance(transform: ViewTransform(scaleX: k, scaleY: k, anchor: Point(x: 0.5, y: 0)))
        }
        return style
    }

    private func stack() -> (PresentationHost, Solid, Solid, Solid, [String]) {
        let root = Solid(Color(rgb: 0x806040)), one = Solid(.white), two = Solid(Color(rgb: 0x2050A0))
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        XCTAssertTrue(host.present(one, now: 0))
        XCTAssertFalse(host.present(two, style: Self.receding(), now: 0.5), "not over a level that is still presenting")
        host.update(now: 1)
        XCTAssertTrue(host.present(two, style: Self.receding(), now: 1))
        host.update(now: 2)
        return (host, root, one, two, [])
    }

    func testEventsPerLevelAndOnlyTheTopTakesInput() {
        let root = Solid(Color(rgb: 0x806040)), one = Solid(.white), two = Solid(Color(rgb: 0x2050A0))
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        var level1: [PresentationState] = [], all: [String] = []
        host.onStateChange = { level1.append($0) }
        host.onLevelStateChange = { all.append("\($0.rawValue) \($1)") }
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        host.present(one, now: 0)
        host.update(now: 1)
        host.present(two, style: Self.receding(), now: 1)
        host.update(now: 2)
        XCTAssertEqual(host.levelCount, 2)
        XCTAssertEqual(host.presentedViewFrame(level: 2), Rect(x: 0, y: 400, width: 400, height: 200))
        one.inputs = []
        host.handle(.pointerMotion(Point(x: 200, y: 300)), now: 2.1)   // over card 1, under dim 2
        host.handle(.pointerButton(pressed: true), now: 2.1)
        XCTAssertEqual(one.inputs, [], "level 1 gets nothing while level 2 is up")
        host.handle(.pointerButton(pressed: false), now: 2.15)       // a tap on dim 2
        host.update(now: 3.2)
        XCTAssertEqual(host.levelCount, 1)
        XCTAssertEqual(host.state, .presented)
        XCTAssertEqual(one.inputs.last, .hover(Point(x: 180, y: 190)), "level 1 in front again sees the pointer")
        host.handle(.key(.escape, pressed: true), now: 3.3)
        host.update(now: 4.4)
        XCTAssertEqual(level1, [.presenting, .presented, .dismissing, .dismissed])
        XCTAssertEqual(all, ["presenting 1", "presented 1", "presenting 2", "presented 2", "dismissing 2", "dismissed 2",
                             "dismissing 1", "dismissed 1"])
    }

    /// A press on level 2's view whose dismissal completes before the release (Escape meanwhile):
    /// level 2's content gets `.cancel` as the level leaves the stack, and level 1, in front again,
    /// gets nothing of that press — no release in its points (a tap it never saw pressed).
    func testAPressOnALevelThatLeavesTheStackReachesNoLevelBelow() {
        let (host, _, one, two, _) = stack()
        one.inputs = []
        host.handle(.pointerMotion(Point(x: 200, y: 500)), now: 2)  // on the sheet (level 2)
        host.handle(.pointerButton(pressed: true), now: 2)
        host.handle(.key(.escape, pressed: true), now: 2.1)  // level 2 dismissing, gone at 3.1
        host.handle(.pointerButton(pressed: false), now: 3.5)
        XCTAssertEqual(host.levelCount, 1)
        XCTAssertEqual(two.inputs, [.focus(nil), .hover(Point(x: 200, y: 100)), .press(Point(x: 200, y: 100)), .key(.escape), .cancel],
                       "focus moved onto level 2 as it was presented; then the press, Escape and the cancel")
        XCTAssertEqual(one.inputs, [], "level 1 sees nothing of the press")
        XCTAssertEqual(host.state(level: 1), .presented)
    }

    /// A press on level 1's dim, then level 2 presented over it (by the app) before the release:
    /// the press ends there, so its release is no tap on level 2's dim (which would dismiss a
    /// level the press never saw).
    func testADimPressCoveredByANewLevelDismissesNothing() {
        let root = Solid(Color(rgb: 0x806040)), one = Solid(.white), two = Solid(Color(rgb: 0x2050A0))
        let host = PresentationHost(style: RecordingStyle().style, presenting: root)
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        host.present(one, now: 0)
        host.update(now: 1)
        host.handle(.pointerMotion(Point(x: 200, y: 50)), now: 1.1)  // above card 1: its dim
        host.handle(.pointerButton(pressed: true), now: 1.1)
        XCTAssertTrue(host.present(two, style: Self.receding(), now: 1.2))
        host.handle(.pointerButton(pressed: false), now: 1.3)  // above the sheet: level 2's dim
        host.update(now: 2.5)
        XCTAssertEqual(host.levelCount, 2)
        XCTAssertEqual(host.state(level: 2), .presented, "no tap dismissed level 2")
        XCTAssertEqual(host.state(level: 1), .presented)
    }

    /// A press on level 2's view while it is dismissing, then the app presents it again (a
    /// reversal): the press stays on level 2 (still in front) and ends there with its release;
    /// level 1 gets nothing.
    func testAPressOnTheTopLevelSurvivesItsReversal() throws {
        let (host, _, one, two, _) = stack()
        host.dismiss(now: 2)
        one.inputs = []
        two.inputs = []
        let r = try XCTUnwrap(host.presentedViewRect(at: 2.2, level: 2))
        host.handle(.pointerMotion(Point(x: 200, y: r.midY)), now: 2.2)
        host.handle(.pointerButton(pressed: true), now: 2.2)
        XCTAssertTrue(host.present(two, style: Self.receding(), now: 2.3))
        host.handle(.pointerButton(pressed: false), now: 2.4)
        let y = r.midY - r.minY, atRelease = try XCTUnwrap(host.presentedViewRect(at: 2.4, level: 2))
        XCTAssertEqual(two.inputs, [.hover(Point(x: 200, y: y)), .press(Point(x: 200, y: y)),
                                    .release(Point(x: 200, y: r.midY - atRelease.minY))])
        XCTAssertEqual(one.inputs.filter { $0 != .hover(nil) }, [], "level 1 is covered all along")
    }

    /// A drag holding level 1's sheet when the app presents level 2 over it: the drag ends (released
    /// at rest: drag-ended 0) and the sheet goes back to where it rested, presented; the rest of the
    /// press reaches nothing (UIKit cancels a pan gesture whose view a presentation covers).
    func testADragOnALevelThatGetsCoveredEndsAndTheSheetGoesBack() throws {
        let sheet = try BuiltinStyle.bottomSheet.make()
        let root = Solid(Color(rgb: 0x806040)), one = Solid(.white), two = Solid(Color(rgb: 0x2050A0))
        let host = PresentationHost(style: sheet, presenting: root)
        var events: [String] = []
        host.onInteraction = { events.append($0.logLine) }
        host.onLevelStateChange = { events.append("\($0.rawValue) \($1)") }
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        host.present(one, now: 0)
        host.update(now: 1)
        events = []
        host.handle(.pointerMotion(Point(x: 200, y: 400)), now: 1)  // the sheet: y 300…600
        host.handle(.pointerButton(pressed: true), now: 1)
        host.handle(.pointerMotion(Point(x: 200, y: 450)), now: 1.05)
        host.handle(.pointerMotion(Point(x: 200, y: 500)), now: 1.1)
        XCTAssertEqual(events, ["drag-began"])
        XCTAssertTrue(host.present(two, style: Self.receding(), now: 1.1))
        XCTAssertEqual(events, ["drag-began", "drag-ended 0.0", "presenting 2"])
        XCTAssertEqual(one.inputs.last, .hover(nil))
        host.handle(.pointerMotion(Point(x: 200, y: 590)), now: 1.2)
        host.handle(.pointerButton(pressed: false), now: 1.3)
        host.update(now: 3)
        XCTAssertEqual(host.state(level: 1), .presented)
        XCTAssertEqual(host.presentedViewRect(at: 3, level: 1), Rect(x: 0, y: 300, width: 400, height: 300),
                       "level 1's sheet back at its frame")
        XCTAssertEqual(Array(events.suffix(2)), ["detent 1", "presented 2"])
        XCTAssertEqual(one.inputs.last, .hover(nil), "the rest of the press reaches nothing")
    }

    /// Level 1's card recedes under level 2 (scale 0.9 about its top centre when level 2 is
    /// presented, 0.95 half-way), while the dims stay over the whole container.
    func testACoveredLevelShowsTheLevelAbovesPresentingViewLook() throws {
        let (host, _, _, _, _) = stack()
        let img = try Image(width: 400, height: 600)
        host.render(into: img.pixelBuffer, now: 2, bufferAge: 0)
        // Card 1 was 20…380 × 110…490; at scale 0.9 about (200, 110): 38…362 × 110…452.
        let root = 0xFF806040 as UInt32
        func dimmed(_ p: UInt32, _ f: Double) -> UInt32 {
            let c = p.argbComponents
            func s(_ v: Int) -> UInt32 { UInt32((Double(v) * f).rounded()) }
            return 0xFF00_0000 | s(c.r) << 16 | s(c.g) << 8 | s(c.b)
        }
        func close(_ a: UInt32, _ b: UInt32, _ what: String) {
            let x = a.argbComponents, y = b.argbComponents
            XCTAssert(abs(x.r - y.r) <= 2 && abs(x.g - y.g) <= 2 && abs(x.b - y.b) <= 2, "\(what): \(String(a, radix: 16)) vs \(String(b, radix: 16))")
        }
        close(img.pixel(x: 30, y: 300), dimmed(root, 0.5 * 0.6), "x = 30: outside the receded card, both dims")
        close(img.pixel(x: 42, y: 300), dimmed(0xFFFFFFFF, 0.6), "x = 42: the receded card under dim 2")
        close(img.pixel(x: 370, y: 300), dimmed(root, 0.5 * 0.6), "x = 370: right of the receded card (362)")
        close(img.pixel(x: 200, y: 500), 0xFF2050A0, "the sheet")
        // Half-way through level 2's dismissal: scale 0.95 → card 29…371.
        host.dismiss(now: 3)
        host.render(into: img.pixelBuffer, now: 3.5, bufferAge: 1)
        close(img.pixel(x: 25, y: 300), dimmed(root, 0.5 * 0.8), "x = 25: outside the card at scale 0.95, dim 2 at 0.2")
        close(img.pixel(x: 33, y: 300), dimmed(0xFFFFFFFF, 0.8), "x = 33: the card at 0.95")
        host.render(into: img.pixelBuffer, now: 4.1, bufferAge: 1)
        XCTAssertEqual(host.levelCount, 1)
        close(img.pixel(x: 25, y: 300), 0xFFFFFFFF, "level 2 gone: card 1 at its frame again")
    }
}
