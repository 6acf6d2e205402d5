// `exportStyle` (the plugin side: style authors write no C) round-tripped through the host wrapper
// in one process: every `PresentationStyle` hook crosses the C table with its arguments and result
// intact, and the 1.0 entries answer from the same hooks. The dlopen path is covered by
// PluginLoaderTests with the built-in libraries.
import Foundation
import ModalKitTestHarness
import XCTest
import CModalKitStyle
@testable import ModalKit
@testable import ModalKitPlugins

/// A style that records every callback and answers with values derived from its arguments, so a
/// dropped or swapped argument shows.
private enum RecordingStyle: LoadablePresentationStyle {
    static let name = "recording"
    static let summary = "records calls\tacross the ABI"
    static let options = [StyleOption(key: "offset", summary: "points", defaultValue: "7"), .duration(default: "0.5")]
    nonisolated(unsafe) static var calls: [String] = []

    /// Appends "deinit" to `calls` when the style is released.
    final class Lifetime { deinit { RecordingStyle.calls.append("deinit") } }

    static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let offset = try options.double("offset", in: 0...100)
        let style = PresentationStyle(transitionDuration: try options.duration(), timingCurve: .cubicBezier(0.1, 0.2, 0.3, 1.4))
        let lifetime = Lifetime()
        style.frameOfPresentedView = { c in
            _ = lifetime
            let b = c.containerBounds
            return Rect(x: b.minX + offset, y: b.minY + 2 * offset, width: b.width / 2, height: b.height / 3)
        }
        style.cornerStyle = { c in CornerStyle(radius: c.containerBounds.width / 100, corners: [.bottomLeft, .topRight]) }
        style.dimmingAppearance = { p, c in
            DimmingAppearance(color: Color(premultipliedRed: 0.1, green: 0.2, blue: 0.3, alpha: 0.4),
                              alpha: c.phase == .dismiss ? p / 4 : p / 2)
        }
        style.presentedViewTransform = { p, frame, c in
            ViewTransform(translation: Point(x: frame.minX * p, y: c.containerBounds.height - p), scale: 0.9 + 0.1 * p, alpha: p)
        }
        style.shouldDismissOnTap = { point, c in point.x > c.containerBounds.width / 2 }
        style.presentationTransitionWillBegin = { RecordingStyle.calls.append("presentationWillBegin") }
        style.presentationTransitionDidEnd = { RecordingStyle.calls.append("presentationDidEnd(\($0))") }
        style.dismissalTransitionWillBegin = { RecordingStyle.calls.append("dismissalWillBegin") }
        style.dismissalTransitionDidEnd = { RecordingStyle.calls.append("dismissalDidEnd(\($0))") }
        style.containerViewWillLayoutSubviews = { RecordingStyle.calls.append("willLayout \($0.containerBounds)") }
        style.containerViewDidLayoutSubviews = { RecordingStyle.calls.append("didLayout \($0.containerBounds)") }
        return style
    }
}

/// Sets no hook: every one at its default.
private enum MinimalStyle: LoadablePresentationStyle {
    static let name = "minimal"
    static let summary = "defaults"
    static let options: [StyleOption] = []
    static func makeStyle(options: StyleOptions) throws -> PresentationStyle { PresentationStyle() }
}

final class PluginExportTests: XCTestCase {
    private func module<S: LoadablePresentationStyle>(_ type: S.Type) throws -> StyleModule {
        StyleModule(library: try PluginLibrary.adopt(exportStyle(type), path: "in-process").get(), path: "in-process")
    }

    func testDescriptorIsBuiltOnceAndCarriesTheCurrentABI() throws {
        let d = exportStyle(RecordingStyle.self)
        XCTAssertEqual(d, exportStyle(RecordingStyle.self))
        XCTAssertNotEqual(d, exportStyle(MinimalStyle.self))
        let m = try module(RecordingStyle.self)
        XCTAssertEqual(m.name, "recording")
        XCTAssertEqual(m.summary, "records calls across the ABI", "tabs become spaces: one listing field")
        XCTAssertEqual(m.options, RecordingStyle.options)
        XCTAssertEqual(m.abiVersion, StyleABIVersion(major: 1, minor: 3))
    }

    func testEveryHookCrossesTheTable() throws {
        let style = try module(RecordingStyle.self).makeStyle(options: ["offset": "3"])
        let bounds = Rect(x: 0, y: 0, width: 300, height: 600), layout = layoutContext(bounds)
        let present = TransitionContext(phase: .present, containerBounds: bounds)
        let dismiss = TransitionContext(phase: .dismiss, containerBounds: bounds)
        XCTAssertEqual(style.transitionDuration(present), 0.5)
        XCTAssertEqual(style.timingCurve(dismiss), .cubicBezier(0.1, 0.2, 0.3, 1.4))
        XCTAssertEqual(style.frameOfPresentedView(layout), Rect(x: 3, y: 6, width: 150, height: 200))
        XCTAssertEqual(style.cornerStyle(layout), CornerStyle(radius: 3, corners: [.bottomLeft, .topRight]))
        let color = Color(premultipliedRed: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        XCTAssertEqual(style.dimmingAppearance(0.5, present), DimmingAppearance(color: color, alpha: 0.25))
        XCTAssertEqual(style.dimmingAppearance(0.5, dismiss), DimmingAppearance(color: color, alpha: 0.125), "the phase crosses")
        let frame = Rect(x: 40, y: 50, width: 10, height: 10)
        XCTAssertEqual(style.presentedViewTransform(0.5, frame, present),
                       ViewTransform(translation: Point(x: 20, y: 599.5), scale: 0.9 + 0.1 * 0.5, alpha: 0.5))
        XCTAssertTrue(style.shouldDismissOnTap(Point(x: 151, y: 0), layout))
        XCTAssertFalse(style.shouldDismissOnTap(Point(x: 149, y: 0), layout))

        RecordingStyle.calls = []
        style.presentationTransitionWillBegin()
        style.presentationTransitionDidEnd(false)
        style.dismissalTransitionWillBegin()
        style.dismissalTransitionDidEnd(true)
        style.containerViewWillLayoutSubviews(layout)
        style.containerViewDidLayoutSubviews(layoutContext(Rect(x: 0, y: 0, width: 1, height: 2)))
        XCTAssertEqual(RecordingStyle.calls, [
            "presentationWillBegin", "presentationDidEnd(false)", "dismissalWillBegin", "dismissalDidEnd(true)",
            "willLayout \(bounds)", "didLayout \(Rect(x: 0, y: 0, width: 1, height: 2))"])
    }

    /// The ABI 1.0 entries of the descriptor are filled from the same hooks: those without a
    /// context are answered in the phase of the last transition callback and the bounds of the
    /// last call that carried them (what a caller of the 1.0 entries reads).
    func testThe10EntriesAnswerFromTheSameHooks() throws {
        let m = try module(RecordingStyle.self)
        let table = m.library.table
        let style = try m.makeStyle(options: ["offset": "3"])
        let instance = try XCTUnwrap(style.pluginInstance).instance
        let bounds = modalkit_rect(x: 0, y: 0, width: 300, height: 600)
        XCTAssertEqual(table.transition_duration!(instance), 0.5)
        XCTAssertEqual(TimingCurve(table.timing_curve!(instance)), .cubicBezier(0.1, 0.2, 0.3, 1.4))
        XCTAssertEqual(Rect(table.frame_of_presented_view!(instance, bounds)), Rect(x: 3, y: 6, width: 150, height: 200))
        XCTAssertEqual(table.dimming_appearance!(instance, 0.5).alpha, 0.25, "presenting")
        table.dismissal_transition_will_begin!(instance)
        XCTAssertEqual(table.dimming_appearance!(instance, 0.5).alpha, 0.125, "dismissing")
        table.presentation_transition_will_begin!(instance)
        XCTAssertEqual(table.dimming_appearance!(instance, 0.5).alpha, 0.25, "presenting again")
        let t = table.presented_view_transform!(instance, 0.5, modalkit_rect(x: 40, y: 50, width: 10, height: 10), bounds)
        XCTAssertEqual(ViewTransform(t), ViewTransform(translation: Point(x: 20, y: 599.5), scale: 0.9 + 0.1 * 0.5, alpha: 0.5))
        XCTAssertTrue(table.should_dismiss_on_tap!(instance, modalkit_point(x: 151, y: 0), bounds))
    }

    /// 1.1's `interaction` entry carries no bounds: it is answered for the bounds of the layout
    /// that asks (the host calls the layout callback and the frame first).
    func testTheInteractionIsAnsweredForTheLayoutThatAsks() throws {
        let style = try module(AdaptiveInProcess.self).makeStyle()
        let narrow = layoutContext(Rect(x: 0, y: 0, width: 400, height: 800))
        let wide = layoutContext(Rect(x: 0, y: 0, width: 1000, height: 700))
        style.containerViewWillLayoutSubviews(wide)
        XCTAssertEqual(style.interaction(wide).dismissGesture, .none)
        style.containerViewWillLayoutSubviews(narrow)
        XCTAssertEqual(style.interaction(narrow).dismissGesture, .drag(.down))
        _ = style.frameOfPresentedView(wide)
        XCTAssertEqual(style.interaction(wide).dismissGesture, .none)
        // Through a controller, as the host lays out.
        let controller = PresentationController(style: style)
        controller.layout(containerBounds: narrow.containerBounds)
        controller.present(now: 0)
        XCTAssertEqual(controller.interaction.dismissGesture, .drag(.down))
        controller.layout(containerBounds: wide.containerBounds)
        XCTAssertEqual(controller.interaction.dismissGesture, .none)
    }

    func testReleasingTheStyleDestroysThePluginInstance() throws {
        let m = try module(RecordingStyle.self)
        RecordingStyle.calls = []
        do { _ = try m.makeStyle(options: [:]) }
        XCTAssertEqual(RecordingStyle.calls, ["deinit"])
    }

    func testDefaultsSurviveTheRoundTrip() throws {
        let style = try module(MinimalStyle.self).makeStyle()
        let bounds = Rect(x: 0, y: 0, width: 100, height: 200), layout = layoutContext(bounds)
        let context = TransitionContext(phase: .present, containerBounds: bounds)
        let frame = style.frameOfPresentedView(layout)
        XCTAssertEqual(frame, bounds, "UIKit's default frame: the container")
        XCTAssertEqual(style.transitionDuration(context), 0.35)
        XCTAssertEqual(style.timingCurve(context), .easeInOut)
        XCTAssertEqual(style.cornerStyle(layout), .square)
        XCTAssertEqual(style.dimmingAppearance(1, context), .none)
        XCTAssertEqual(style.presentedViewTransform(0, frame, context).translation.y, 200, "cover-vertical")
        XCTAssertTrue(style.shouldDismissOnTap(.zero, layout))
    }

    func testMakeStyleErrorsComeBackAsOneLineListingTheKeys() throws {
        let m = try module(RecordingStyle.self)
        XCTAssertThrowsError(try m.makeStyle(options: ["offset": "200"])) { error in
            XCTAssertEqual(error as? StyleLoadError, .optionsRejected(
                path: "in-process", style: "recording",
                message: "bad value '200' for style option 'offset' (expected a number from 0.0 to 100.0)",
                known: RecordingStyle.options))
            XCTAssertEqual("\(error)", "in-process: style 'recording': bad value '200' for style option 'offset' "
                           + "(expected a number from 0.0 to 100.0) (offset (points))")
        }
        XCTAssertThrowsError(try m.makeStyle(options: ["offsett": "1"])) { error in
            XCTAssertEqual("\(error)", "in-process: style 'recording' has no option 'offsett'; did you mean 'offset'? "
                           + "(options: offset (points), duration (transition duration, seconds))")
        }
    }

    func testErrorMessagesAreTruncatedToTheBufferOnACharacterBoundary() {
        var buffer = [CChar](repeating: 0x7F, count: 6)
        StyleExport.copyMessage("ab\u{e9}\u{e9}x", into: &buffer, length: 6)  // a b é(2) é(2) x
        XCTAssertEqual(String(cString: buffer), "ab\u{e9}", "5 bytes fit, the second é would not")
        StyleExport.copyMessage("one\ntwo", into: &buffer, length: 6)
        XCTAssertEqual(String(cString: buffer), "one t")
        var one: [CChar] = [0x41]
        StyleExport.copyMessage("xyz", into: &one, length: 1)
        XCTAssertEqual(one, [0])
    }

    func testTimingCurvesSurviveTheCEncoding() {
        for curve: TimingCurve in [.linear, .easeInOut, .easeOut, .cubicBezier(0.2, -0.5, 0.8, 1.5), .spring(stiffness: 170, damping: 26)] {
            XCTAssertEqual(TimingCurve(modalkit_timing_curve(curve)), curve)
        }
        var bad = modalkit_timing_curve(.linear)
        bad.kind = 99
        XCTAssertNil(TimingCurve(bad))
    }
}

/// The adaptive style's interaction rule (a drag down at most 450 pt wide), exported in process.
private enum AdaptiveInProcess: LoadablePresentationStyle {
    static let name = "adaptive-in-process"
    static let summary = "a drag down when narrow"
    static let options: [StyleOption] = []
    static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let style = PresentationStyle()
        style.interaction = { c in InteractionDeclaration(dismissGesture: c.containerBounds.width <= 450 ? .drag(.down) : .none) }
        return style
    }
}
