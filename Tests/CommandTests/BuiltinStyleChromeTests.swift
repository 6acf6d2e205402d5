// The built-in styles on style ABI 1.1, loaded through the plugin loader as a user's `--style`
// loads them: bottom-sheet's dim=solid|gradient, grabber and shadow; inset-centered's shadow and
// background; the popover growing from the Present button; their defaults unchanged; bad option
// values refused with exit 2 and one line.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
@testable import ModalKit
@testable import ModalKitPlugins

final class BuiltinStyleChromeTests: XCTestCase {
    typealias Support = PluginTestSupport

    private func style(_ name: String, _ options: [String: String] = [:]) throws -> PresentationStyle {
        try StyleLoader(searchPath: [Support.stylesDirectory()]).load(name).makeStyle(options: options)
    }

    private let bounds = Rect(x: 0, y: 0, width: 400, height: 800)
    private func context(_ phase: TransitionPhase = .present, source: Rect? = nil) -> TransitionContext {
        TransitionContext(phase: phase, sourceRect: source, containerBounds: bounds)
    }

    // MARK: bottom-sheet

    func testBottomSheetDefaultsAreThe10Look() throws {
        let sheet = try style("bottom-sheet")
        XCTAssertEqual(sheet.dimmingAppearance(1, context()), DimmingAppearance(color: .black, alpha: 0.4))
        XCTAssertEqual(sheet.chrome(layoutContext(bounds)), PresentedViewChrome.none, "no grabber, no shadow")
        XCTAssertEqual(sheet.presentingViewAppearance(1, context()), PresentingViewAppearance.identity)
        XCTAssertEqual(sheet.interaction(layoutContext(bounds)), InteractionDeclaration(dismissGesture: .drag(.down)))
        XCTAssertEqual(sheet.transitionDuration(context(.dismiss)), 0.35)
        XCTAssertEqual(sheet.timingCurve(context(.dismiss)), .easeInOut)
    }

    /// dim=gradient at 400×800 (sheet 0.5 → its top edge at y = 400): clear at y = 0 rising
    /// linearly to black at y = 400 and black below, × dim-alpha × progress.
    func testBottomSheetGradientDimRunsFromTheTopEdgeToTheSheetsTop() throws {
        let sheet = try style("bottom-sheet", ["dim": "gradient"])
        let dim = sheet.dimmingAppearance(1, context())
        XCTAssertEqual(dim, DimmingAppearance(gradient: LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 0, y: 400),
                                                                       from: .clear, to: .black), alpha: 0.4))
        XCTAssertEqual(sheet.dimmingAppearance(0.5, context()).alpha, 0.2)
        let tall = try style("bottom-sheet", ["dim": "gradient", "height": "600", "dim-alpha": "0.3"])
        let g = tall.dimmingAppearance(1, context()).gradient
        XCTAssertEqual(g?.end, Point(x: 0, y: 200), "a 600 pt sheet's top edge")
        XCTAssertEqual(tall.dimmingAppearance(1, context()).alpha, 0.3)
    }

    func testBottomSheetGrabberAndShadow() throws {
        XCTAssertEqual(try style("bottom-sheet", ["grabber": "on"]).chrome(layoutContext(bounds)),
                       PresentedViewChrome(grabber: PresentedViewChrome.grabberColor))
        XCTAssertNil(try style("bottom-sheet", ["grabber": "auto"]).chrome(layoutContext(bounds)).grabber,
                     "auto: one detent, no grabber")
        XCTAssertNil(try style("bottom-sheet", ["grabber": "off"]).chrome(layoutContext(bounds)).grabber)
        XCTAssertEqual(try style("bottom-sheet", ["shadow": "soft"]).chrome(layoutContext(bounds)),
                       PresentedViewChrome(shadow: Shadow(color: Color(premultipliedRed: 0, green: 0, blue: 0, alpha: 0.25),
                                                          offset: Point(x: 0, y: 4), blurRadius: 16)))
        XCTAssertEqual(PresentedViewChrome.grabberColor,
                       Color(red: 60.0 / 255, green: 60.0 / 255, blue: 67.0 / 255, alpha: 0.3))
    }

    func testBottomSheetRecede() throws {
        let sheet = try style("bottom-sheet", ["recede": "on"])
        XCTAssertEqual(sheet.presentingViewAppearance(1, context()),
                       PresentingViewAppearance(transform: ViewTransform(scale: 0.92), cornerRadius: 10))
        XCTAssertEqual(sheet.presentingViewAppearance(0.5, context()),
                       PresentingViewAppearance(transform: ViewTransform(scale: 0.96), cornerRadius: 5))
        XCTAssertEqual(try style("bottom-sheet", ["recede": "off"]).presentingViewAppearance(1, context()),
                       PresentingViewAppearance.identity)
    }

    // MARK: inset-centered

    func testInsetCenteredDefaultsShadowAndBackground() throws {
        XCTAssertEqual(try style("inset-centered").chrome(layoutContext(bounds)), PresentedViewChrome.none)
        XCTAssertEqual(try style("inset-centered").interaction(layoutContext(bounds)), InteractionDeclaration(dismissGesture: .drag(.down)))
        XCTAssertEqual(try style("inset-centered", ["shadow": "soft", "background": "#1E90fF"]).chrome(layoutContext(bounds)),
                       PresentedViewChrome(backgroundColor: Color(rgb: 0x1E90FF), shadow: .soft))
        XCTAssertEqual(try style("inset-centered", ["background": "none"]).chrome(layoutContext(bounds)).backgroundColor, nil)
        XCTAssertEqual(try style("inset-centered", ["border": "#0A6CFF"]).chrome(layoutContext(bounds)).border,
                       Border(width: 1, color: Color(rgb: 0x0A6CFF)))
    }

    // MARK: Bad option values: exit 2, one line naming the key and what is accepted

    func testBadChromeOptionValuesAreExit2WithOneLine() throws {
        let dir = try Support.temporaryDirectory(self, "badopt11")
        let output = dir + "/out.png"
        for (style, option, expected) in [
            ("bottom-sheet", "dim=wavy", "expected one of solid, gradient"),
            ("bottom-sheet", "grabber=maybe", "expected one of auto, on, off"),
            ("bottom-sheet", "shadow=hard", "expected one of none, soft"),
            ("inset-centered", "shadow=", "expected one of none, soft"),
            ("inset-centered", "background=#12345", "expected #RRGGBB, #RRGGBBAA or none"),
            ("inset-centered", "background=red", "expected #RRGGBB, #RRGGBBAA or none"),
            ("inset-centered", "background=#12345G", "expected #RRGGBB, #RRGGBBAA or none"),
            ("inset-centered", "border=blue", "expected #RRGGBB, #RRGGBBAA or none"),
            ("bottom-sheet", "recede=yes", "expected one of off, on"),
            ("popover", "dismiss-duration=-1", "dismiss-duration"),
            ("popover", "width=0", "width"),
        ] {
            let r = try PluginCLITests.demo(["render", "--style", style, "--style-option", option, "--size", "100x100",
                                             "--progress", "1", "--output", output])
            XCTAssertEqual(r.status, 2, "\(style) \(option): \(r.stderr)")
            XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
            let key = String(option.prefix { $0 != "=" })
            XCTAssertTrue(r.stderr.contains("style option '\(key)'") && r.stderr.contains(expected), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        }
    }

    // MARK: popover

    func testPopoverFrameTimingAndInteraction() throws {
        let popover = try style("popover")
        XCTAssertEqual(popover.frameOfPresentedView(layoutContext(bounds)), Rect(x: 40, y: 290, width: 320, height: 220))
        XCTAssertEqual(popover.frameOfPresentedView(layoutContext(Rect(x: 0, y: 0, width: 300, height: 200))),
                       Rect(x: 0, y: 0, width: 300, height: 200), "at most the container")
        XCTAssertEqual(popover.transitionDuration(context(.present)), 0.35)
        XCTAssertEqual(popover.timingCurve(context(.present)), .easeOut)
        XCTAssertEqual(popover.transitionDuration(context(.dismiss)), 0.2)
        XCTAssertEqual(popover.timingCurve(context(.dismiss)), .cubicBezier(0.42, 0, 1, 1), "CSS ease-in")
        XCTAssertTrue(popover.shouldDismissOnTap(Point(x: 5, y: 5), layoutContext(bounds)), "a tap on the dim dismisses")
        XCTAssertEqual(popover.interaction(layoutContext(bounds)), InteractionDeclaration.standard)
        XCTAssertEqual(popover.chrome(layoutContext(bounds)), PresentedViewChrome(backgroundColor: .white), "opaque")
        XCTAssertEqual(popover.dimmingAppearance(1, context()), DimmingAppearance(color: .black, alpha: 0.2))
    }

    /// `dismissible` is on every built-in style: false refuses taps, Escape and drags. The
    /// adaptive style keeps it in both shapes (its drag follows the shape: down as a sheet,
    /// none as a card — libadwaita's breakpoint, 450 pt wide).
    func testEveryBuiltinStyleTakesDismissible() throws {
        for name in ["inset-centered", "bottom-sheet", "popover", "adaptive", "alert"] {
            XCTAssertTrue(try style(name).interaction(layoutContext(bounds)).isDismissible, name)
            let refusing = try style(name, ["dismissible": "false"])
            refusing.containerViewWillLayoutSubviews(layoutContext(bounds))
            XCTAssertFalse(refusing.interaction(layoutContext(bounds)).isDismissible, name)
        }
        // As a layout asks (the layout callback, then the interaction in the same bounds).
        let adaptive = try style("adaptive", ["dismissible": "false"])
        adaptive.containerViewWillLayoutSubviews(layoutContext(bounds))
        XCTAssertEqual(adaptive.interaction(layoutContext(bounds)),
                       InteractionDeclaration(dismissGesture: .drag(.down), isDismissible: false))
        let wide = Rect(x: 0, y: 0, width: 1000, height: 700)
        adaptive.containerViewWillLayoutSubviews(layoutContext(wide))
        XCTAssertEqual(adaptive.interaction(layoutContext(wide)), InteractionDeclaration(dismissGesture: .none, isDismissible: false))
    }

    /// From the source rectangle at progress 0 to the centred card at 1, every edge moving
    /// monotonically (straight) in between: a translation and a scale per axis about the top-left.
    func testPopoverGrowsFromTheSourceRectangle() throws {
        let popover = try style("popover")
        let frame = popover.frameOfPresentedView(layoutContext(bounds))
        let scene = try DemoScene(style: popover)
        scene.layout(containerSize: bounds.size, scale: 1)
        let button = scene.buttonFrame
        XCTAssertEqual(button, Rect(x: 112, y: 375, width: 176, height: 50), "the demo's Present button at 400×800")
        func shown(_ p: Double, _ source: Rect? = button) -> Rect {
            PresentationController.apply(popover.presentedViewTransform(p, frame, context(source: source)),
                                         to: frame)
        }
        func close(_ a: Rect, _ b: Rect, file: StaticString = #filePath, line: UInt = #line) {
            for (x, y) in [(a.minX, b.minX), (a.minY, b.minY), (a.width, b.width), (a.height, b.height)] {
                XCTAssertEqual(x, y, accuracy: 1e-9, "\(a) vs \(b)", file: file, line: line)
            }
        }
        close(shown(0), button)
        close(shown(1), frame)
        close(shown(0.5), Rect(x: 76, y: 332.5, width: 248, height: 135))
        XCTAssertEqual(popover.presentedViewTransform(0.5, frame, context(source: button)).anchor,
                       Point(x: 0, y: 0))
        var last = shown(0)
        for i in 1...100 {
            let r = shown(Double(i) / 100)
            XCTAssertLessThanOrEqual(r.minX, last.minX); XCTAssertLessThanOrEqual(r.minY, last.minY)
            XCTAssertGreaterThanOrEqual(r.maxX, last.maxX); XCTAssertGreaterThanOrEqual(r.maxY, last.maxY)
            last = r
        }
        // Without a source rectangle it grows from its own centre.
        close(shown(0, nil), Rect(x: 200, y: 400, width: 0, height: 0))
    }

    /// The engine runs the popover's own timings: ease-out over 0.35 s presenting; the dismissal
    /// over 0.2 s with ease-in from the presented end (progress = 1 − ease-in(t)); a presentation
    /// reversed half-way continues from the progress it had.
    func testPopoverPhasesRunTheirOwnDurationAndCurve() throws {
        let controller = PresentationController(style: try style("popover"))
        controller.layout(containerBounds: bounds)
        controller.sourceRect = Rect(x: 112, y: 375, width: 176, height: 50)
        controller.present(now: 10)
        XCTAssertEqual(controller.transitionContext.phase, .present)
        XCTAssertEqual(controller.progress(at: 10 + 0.35 * 0.3), TimingCurve.easeOut.value(at: 0.3), accuracy: 1e-9)
        controller.update(now: 10.35)
        XCTAssertEqual(controller.state, .presented)

        controller.dismiss(now: 20)
        XCTAssertEqual(controller.transitionContext.phase, .dismiss)
        let easeIn = TimingCurve.cubicBezier(0.42, 0, 1, 1)
        for t in [0.1, 0.25, 0.5, 0.9] {
            XCTAssertEqual(controller.progress(at: 20 + 0.2 * t), 1 - easeIn.value(at: t), accuracy: 1e-9, "t = \(t)")
        }
        XCTAssertLessThan(1 - controller.progress(at: 20.02), (controller.progress(at: 20.18) - 0) / 4,
                          "ease-in: the first tenth moves far less than the last")
        controller.update(now: 20.1999)
        XCTAssertEqual(controller.state, .dismissing)
        controller.update(now: 20.2)
        XCTAssertEqual(controller.state, .dismissed, "0.2 s, not 0.35")

        // Reversal: presenting, then dismissing half-way; then presenting again mid-dismissal.
        controller.present(now: 30)
        let before = controller.progress(at: 30.1)
        controller.dismiss(now: 30.1)
        XCTAssertEqual(controller.progress(at: 30.1), before, accuracy: 1e-6, "no jump into the dismissal")
        XCTAssertLessThan(controller.progress(at: 30.15), before, "and it heads back")
        let mid = controller.progress(at: 30.15)
        controller.present(now: 30.15)
        XCTAssertEqual(controller.progress(at: 30.15), mid, accuracy: 1e-6, "no jump back into the presentation")
        XCTAssertGreaterThan(controller.progress(at: 30.2), mid)
    }

    /// The offline frame (`render --phase dismiss`) uses the same mapping as the live one.
    func testPopoverOfflineDismissalMatchesTheLiveOne() throws {
        let controller = PresentationController(style: try style("popover"))
        controller.layout(containerBounds: bounds)
        controller.sourceRect = Rect(x: 112, y: 375, width: 176, height: 50)
        let easeIn = TimingCurve.cubicBezier(0.42, 0, 1, 1)
        let frame = Rect(x: 40, y: 290, width: 320, height: 220)
        let snap = controller.snapshot(phase: .dismiss, fraction: 0.5)
        let p = 1 - easeIn.value(at: 0.5)
        XCTAssertEqual(snap.presentedRect.minX, 112 + (40 - 112) * p, accuracy: 1e-9)
        XCTAssertEqual(snap.presentedRect.width, 176 + (320 - 176) * p, accuracy: 1e-9)
        XCTAssertEqual(snap.dim.alpha, 0.2 * p, accuracy: 1e-9)
        XCTAssertEqual(controller.snapshot(phase: .present, fraction: 1).presentedRect, frame)
    }

    /// A style whose dismissal curve equals its presentation's (every 1.0 style) still plays the
    /// presentation backwards: dismissal time fraction P draws the presentation's frame at 1 − P.
    func testSameCurveDismissalStillPlaysThePresentationBackwards() throws {
        let sheet = try style("bottom-sheet", ["curve": "ease-out"])
        let controller = PresentationController(style: sheet)
        controller.layout(containerBounds: bounds)
        for p in [0.1, 0.3, 0.8] {
            XCTAssertEqual(controller.snapshot(phase: .dismiss, fraction: p), controller.snapshot(phase: .present, fraction: 1 - p))
        }
        controller.present(now: 0)
        controller.update(now: 1)
        controller.dismiss(now: 2)
        XCTAssertEqual(controller.progress(at: 2 + 0.35 * 0.3), TimingCurve.easeOut.value(at: 0.7), accuracy: 1e-9)
    }
}
