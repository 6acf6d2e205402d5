import ModalKitHostFuzzSupport
import ModalKit
import XCTest

/// Content-sized presentation (a content's preferred size reaching the frame hook), the alert
/// style, detents that resize the sheet, and the rubber band that keeps the sheet under the
/// window's bottom rows — in process, with synthetic input at exact times.
final class ExpressivenessTests: XCTestCase {
    /// A content of one colour that reports `preferred` (nil: no preference) and counts its layouts
    /// and draws.
    final class Sized: PresentationContent {
        var invalidation: ContentInvalidation = .all
        let colour: Color, preferred: Double?
        var layouts: [Size] = [], draws = 0, askedWidths: [Double] = []
        init(_ rgb: UInt32, preferredHeight: Double? = nil) { colour = Color(rgb: rgb); preferred = preferredHeight }
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: colour)
            draws += 1
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool { if case .key = input { return false }; return true }
        func didLayout(size: Size) { layouts.append(size) }
        func preferredContentSize(fittingWidth width: Double) -> Size? {
            askedWidths.append(width)
            return preferred.map { Size(width: width, height: $0) }
        }
    }

    // MARK: Preferred content size

    /// The frame hook is asked with the presented content's preferred size; the other layout
    /// hooks are not (nil), and a content without a preference gives nil.
    func testTheFrameHookGetsThePresentedContentsPreferredSize() throws {
        let style = PresentationStyle()
        var seen: [String: Size?] = [:]
        style.frameOfPresentedView = { c in
            seen["frame"] = c.preferredContentSize(fittingWidth: 200)
            let h = c.preferredContentSize(fittingWidth: 200)?.height ?? 50
            return Rect(x: 10, y: 20, width: 200, height: h)
        }
        style.chrome = { c in seen["chrome"] = c.preferredContentSize(fittingWidth: 200); return .none }
        let host = PresentationHost(style: style, presenting: Sized(0x000000))
        host.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        let card = Sized(0xFFFFFF, preferredHeight: 123)
        host.present(card, now: 0)
        XCTAssertEqual(host.presentedViewFrame, Rect(x: 10, y: 20, width: 200, height: 123))
        XCTAssertEqual(seen["frame"], Size(width: 200, height: 123))
        XCTAssertEqual(card.askedWidths.last, 200)
        XCTAssertEqual(card.layouts.last, Size(width: 200, height: 123), "the content is laid out at its size")
        _ = host.layerFrame(at: 0.1)
        XCTAssertEqual(seen["chrome"], .some(nil), "only the frame hook can ask")
        host.dismiss(now: 1); host.update(now: 5)
        // A content without a preference: the style's own height.
        host.present(Sized(0xFFFFFF), now: 6)
        XCTAssertEqual(host.presentedViewFrame.height, 50)
    }

    // MARK: The alert

    private let bounds = Rect(x: 0, y: 0, width: 390, height: 844)

    func testTheAlertIs270WideAsTallAsItsContentAndCentred() throws {
        let style = try BuiltinStyles.make("alert")
        func frame(_ h: Double?, _ b: Rect) -> Rect {
            style.frameOfPresentedView(LayoutContext(containerBounds: b, preferredContentSize: { w in
                XCTAssertEqual(w, 270, "asked at the alert's width")
                return h.map { Size(width: w, height: $0) }
            }))
        }
        XCTAssertEqual(frame(200, bounds), Rect(x: 60, y: 322, width: 270, height: 200))
        XCTAssertEqual(frame(nil, bounds), Rect(x: 60, y: 347, width: 270, height: 150), "no preference: 150 pt")
        // Never taller than the container less 40 pt: 844 − 40 = 804, 20 pt above and below.
        XCTAssertEqual(frame(2000, bounds), Rect(x: 60, y: 20, width: 270, height: 804))
        XCTAssertEqual(style.cornerStyle(LayoutContext(containerBounds: bounds)), CornerStyle(radius: 14, corners: .all))
    }

    func testTheAlertScalesFrom1Point2WhileFadingInAndFadesOut() throws {
        let style = try BuiltinStyles.make("alert")
        let present = TransitionContext(phase: .present, containerBounds: bounds)
        let dismiss = TransitionContext(phase: .dismiss, containerBounds: bounds)
        XCTAssertEqual(style.transitionDuration(present), 0.25)
        XCTAssertEqual(style.transitionDuration(dismiss), 0.2)
        XCTAssertEqual(style.timingCurve(present), .easeOut)
        XCTAssertEqual(style.timingCurve(dismiss), .linear)
        let f = Rect(x: 60, y: 322, width: 270, height: 200)
        XCTAssertEqual(style.presentedViewTransform(0, f, present), ViewTransform(scale: 1.2, alpha: 0))
        XCTAssertEqual(style.presentedViewTransform(0.5, f, present).scaleX, 1.1, accuracy: 1e-12)
        XCTAssertEqual(style.presentedViewTransform(0.5, f, present).alpha, 0.5, accuracy: 1e-12)
        XCTAssertEqual(style.presentedViewTransform(1, f, present), .identity)
        XCTAssertEqual(style.presentedViewTransform(0.25, f, dismiss), ViewTransform(scale: 1, alpha: 0.25))
        XCTAssertEqual(style.dimmingAppearance(0.5, present), DimmingAppearance(color: .black, alpha: 0.1))
        // On screen at progress 0.5 of the presentation: 1.1× about the centre.
        let shown = PresentationController.apply(style.presentedViewTransform(0.5, f, present), to: f)
        XCTAssertEqual(shown.width, 297, accuracy: 1e-9)
        XCTAssertEqual(shown.midX, 195, accuracy: 1e-9)
        XCTAssertEqual(shown.midY, 422, accuracy: 1e-9)
    }

    /// Through a host: a tap on the dim leaves it presented, Escape dismisses with the usual events.
    func testTheAlertIgnoresADimTapAndEscapeDismisses() throws {
        let host = PresentationHost(style: try BuiltinStyles.make("alert"), presenting: Sized(0x336699))
        var states: [String] = []
        host.onStateChange = { states.append($0.rawValue) }
        host.layout(containerSize: bounds.size, scale: 1)
        host.present(Sized(0xFFFFFF, preferredHeight: 180), now: 0)
        host.update(now: 1)
        XCTAssertEqual(host.presentedViewFrame, Rect(x: 60, y: 332, width: 270, height: 180))
        host.handle(.touchDown(id: 1, Point(x: 195, y: 60)), now: 2)
        host.handle(.touchUp(id: 1), now: 2.1)
        host.update(now: 3)
        XCTAssertEqual(host.state, .presented, "a tap on the dim does not dismiss an alert")
        host.handle(.key(.escape, pressed: true), now: 4)
        host.update(now: 4.1)
        XCTAssertEqual(host.snapshot(at: 4.1).presentedTransform.alpha, 0.5, accuracy: 1e-9, "0.1 s of a 0.2 s linear fade")
        host.update(now: 5)
        XCTAssertEqual(states, ["presenting", "presented", "dismissing", "dismissed"])
    }

    // MARK: Detents that resize

    /// A bottom sheet with detents 0.5 and 0.9 in 480 × 800, presented and at rest at t = 1.
    private func sheet(_ options: [String: String] = ["detents": "0.5,0.9"]) throws -> (PresentationHost, Sized) {
        let host = PresentationHost(style: try BuiltinStyles.make("bottom-sheet", options: options),
                                    presenting: Sized(0x0000FF))
        host.layout(containerSize: Size(width: 480, height: 800), scale: 1)
        let card = Sized(0xFFFFFF)
        host.present(card, now: 0)
        host.update(now: 1)
        XCTAssertEqual(host.state, .presented)
        return (host, card)
    }

    func testAtRestAtADetentTheSheetIsThatTallAndItsContentLaidOutThere() throws {
        let (host, card) = try sheet()
        XCTAssertEqual(host.presentedViewFrame, Rect(x: 0, y: 400, width: 480, height: 400), "0.5 of 800")
        XCTAssertEqual(card.layouts.last, Size(width: 480, height: 400))
        XCTAssertEqual(host.snapshot(at: 1).presentedRect, Rect(x: 0, y: 400, width: 480, height: 400))
        XCTAssertEqual(host.layerFrame(at: 1).presentedRect, PixelRect(x: 0, y: 400, width: 480, height: 400),
                       "the whole sheet inside the window")
    }

    /// A drag up from detent 0.5 to 0.9: every frame of the drag and of the settling spring keeps
    /// the content's layout and its pixels (no re-layout, no redraw per frame); the sheet's top
    /// follows the finger and its background fills down to the window's bottom; it settles at the
    /// new height, laid out once there.
    func testADragMovesWithoutRelayoutAndSettlesIntoTheNewHeight() throws {
        let (host, card) = try sheet()
        let image = try Image(width: 480, height: 800)
        _ = host.render(into: image.pixelBuffer, now: 1, bufferAge: 0)
        let layouts = card.layouts.count, draws = card.draws
        host.handle(.pointerMotion(Point(x: 240, y: 500)), now: 2)
        host.handle(.pointerButton(pressed: true), now: 2)
        var t = 2.0
        for y in stride(from: 490.0, through: 200, by: -10) {
            t += 0.04
            host.handle(.pointerMotion(Point(x: 240, y: y)), now: t)
            _ = host.render(into: image.pixelBuffer, now: t, bufferAge: 1)
            let snap = host.snapshot(at: t)
            XCTAssertEqual(snap.presentedRect.maxY + snap.presentedExtension, 800, accuracy: 1e-9,
                           "the sheet reaches the bottom edge at y \(y)")
        }
        XCTAssertEqual(host.snapshot(at: t).presentedRect.minY, 100, accuracy: 1e-9, "followed the finger 300 pt up")
        XCTAssertEqual(image.pixel(x: 240, y: 799), 0xFFFF_FFFF, "the bottom row is the sheet")
        XCTAssertEqual(card.layouts.count, layouts, "no re-layout during the drag")
        XCTAssertEqual(card.draws, draws, "no redraw during the drag")
        host.handle(.pointerButton(pressed: false), now: t + 0.3)
        var s = t + 0.3
        while s < t + 3 {
            s += 1.0 / 60
            _ = host.render(into: image.pixelBuffer, now: s, bufferAge: 1)
            if host.presentedViewFrame.height == 400 {
                XCTAssertEqual(card.layouts.count, layouts, "no re-layout while the spring runs")
            }
        }
        XCTAssertEqual(host.presentedViewFrame, Rect(x: 0, y: 80, width: 480, height: 720), "0.9 of 800")
        XCTAssertEqual(card.layouts.count, layouts + 1, "laid out once, at the new height")
        XCTAssertEqual(card.layouts.last, Size(width: 480, height: 720))
        XCTAssertEqual(host.snapshot(at: s).presentedExtension, 0)
    }

    /// Pulled up past the top detent the sheet rubber-bands, and its background extends below its
    /// bottom edge: the window's bottom rows are the sheet (white), never the dimmed presenting
    /// view (blue under black 0.4).
    func testRubberBandPastTheTopDetentKeepsTheSheetUnderTheBottomRows() throws {
        let (host, _) = try sheet(["detents": "0.5"])
        let image = try Image(width: 480, height: 800)
        host.handle(.pointerMotion(Point(x: 240, y: 500)), now: 2)
        host.handle(.pointerButton(pressed: true), now: 2)
        var t = 2.0
        for y in stride(from: 490.0, through: 380, by: -10) {
            t += 0.02
            host.handle(.pointerMotion(Point(x: 240, y: y)), now: t)
        }
        _ = host.render(into: image.pixelBuffer, now: t, bufferAge: 0)
        let snap = host.snapshot(at: t)
        XCTAssertLessThan(snap.presentedRect.minY, 400, "pulled up (rubber-banded)")
        XCTAssertEqual(snap.presentedRect.maxY + snap.presentedExtension, 800, accuracy: 1e-9)
        let rows: [Int] = [Int(snap.presentedRect.minY) + 20, 799 - 30, 799]
        for y in rows {
            XCTAssertEqual(image.pixel(x: 240, y: y), 0xFFFF_FFFF, "row \(y) is the sheet")
        }
        XCTAssertEqual(image.pixel(x: 240, y: Int(snap.presentedRect.minY) - 20), 0xFF00_0099,
                       "above it: blue under black 0.4 (0xFF × 0.6 = 0x99)")
    }
}
