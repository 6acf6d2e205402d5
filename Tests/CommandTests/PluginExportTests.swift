// `exportStyle` (the plugin side: style authors write no C) round-tripped through the host wrapper
// in one process: every `PresentationStyle` requirement crosses the C table with its arguments and
// result intact. The dlopen path is covered by PluginLoaderTests with the built-in libraries.
import Foundation
import EndToEndHarness
import XCTest
import CModalKitStyle
@testable import ModalKit

/// A style that records every call and answers with values derived from its arguments, so a
/// dropped or swapped argument shows.
private final class RecordingStyle: LoadablePresentationStyle {
    static let name = "recording"
    static let summary = "records calls\tacross the ABI"
    static let options = [StyleOption(key: "offset", summary: "points", defaultValue: "7"), .duration(default: "0.5")]
    static var calls: [String] = []

    let offset: Double
    let transitionDuration: Double
    init(options: StyleOptions) throws {
        offset = try options.double("offset", in: 0...100)
        transitionDuration = try options.duration()
    }
    deinit { RecordingStyle.calls.append("deinit") }

    var timingCurve: TimingCurve { .cubicBezier(0.1, 0.2, 0.3, 1.4) }
    func frameOfPresentedView(in b: Rect) -> Rect { Rect(x: b.minX + offset, y: b.minY + 2 * offset, width: b.width / 2, height: b.height / 3) }
    func cornerStyle(forPresentedViewIn b: Rect) -> CornerStyle { CornerStyle(radius: b.width / 100, corners: [.bottomLeft, .topRight]) }
    func dimmingAppearance(at p: Double) -> DimmingAppearance {
        DimmingAppearance(color: Color(premultipliedRed: 0.1, green: 0.2, blue: 0.3, alpha: 0.4), alpha: p / 2)
    }
    func presentedViewTransform(at p: Double, frame: Rect, in b: Rect) -> ViewTransform {
        ViewTransform(translation: Point(x: frame.minX * p, y: b.height - p), scale: 0.9 + 0.1 * p, alpha: p)
    }
    func shouldDismiss(onTapAt point: Point, in b: Rect) -> Bool { point.x > b.width / 2 }
    func presentationTransitionWillBegin() { RecordingStyle.calls.append("presentationWillBegin") }
    func presentationTransitionDidEnd(completed: Bool) { RecordingStyle.calls.append("presentationDidEnd(\(completed))") }
    func dismissalTransitionWillBegin() { RecordingStyle.calls.append("dismissalWillBegin") }
    func dismissalTransitionDidEnd(completed: Bool) { RecordingStyle.calls.append("dismissalDidEnd(\(completed))") }
    func containerViewWillLayoutSubviews(containerBounds: Rect) { RecordingStyle.calls.append("willLayout \(containerBounds)") }
    func containerViewDidLayoutSubviews(containerBounds: Rect) { RecordingStyle.calls.append("didLayout \(containerBounds)") }
}

/// Implements only the two requirements without defaults.
private final class MinimalStyle: LoadablePresentationStyle {
    static let name = "minimal"
    static let summary = "defaults"
    static let options: [StyleOption] = []
    init(options: StyleOptions) throws {}
    func frameOfPresentedView(in b: Rect) -> Rect { b.insetBy(dx: 10, dy: 10) }
    func dimmingAppearance(at p: Double) -> DimmingAppearance { .none }
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
        XCTAssertEqual(m.abiVersion, StyleABIVersion(major: 1, minor: 1))
    }

    func testEveryRequirementCrossesTheTable() throws {
        let style = try module(RecordingStyle.self).makeStyle(options: ["offset": "3"])
        let bounds = Rect(x: 0, y: 0, width: 300, height: 600)
        XCTAssertEqual(style.transitionDuration, 0.5)
        XCTAssertEqual(style.timingCurve, .cubicBezier(0.1, 0.2, 0.3, 1.4))
        XCTAssertEqual(style.frameOfPresentedView(in: bounds), Rect(x: 3, y: 6, width: 150, height: 200))
        XCTAssertEqual(style.cornerStyle(forPresentedViewIn: bounds), CornerStyle(radius: 3, corners: [.bottomLeft, .topRight]))
        XCTAssertEqual(style.dimmingAppearance(at: 0.5),
                       DimmingAppearance(color: Color(premultipliedRed: 0.1, green: 0.2, blue: 0.3, alpha: 0.4), alpha: 0.25))
        let frame = Rect(x: 40, y: 50, width: 10, height: 10)
        XCTAssertEqual(style.presentedViewTransform(at: 0.5, frame: frame, in: bounds),
                       ViewTransform(translation: Point(x: 20, y: 599.5), scale: 0.9 + 0.1 * 0.5, alpha: 0.5))
        XCTAssertTrue(style.shouldDismiss(onTapAt: Point(x: 151, y: 0), in: bounds))
        XCTAssertFalse(style.shouldDismiss(onTapAt: Point(x: 149, y: 0), in: bounds))

        RecordingStyle.calls = []
        style.presentationTransitionWillBegin()
        style.presentationTransitionDidEnd(completed: false)
        style.dismissalTransitionWillBegin()
        style.dismissalTransitionDidEnd(completed: true)
        style.containerViewWillLayoutSubviews(containerBounds: bounds)
        style.containerViewDidLayoutSubviews(containerBounds: Rect(x: 0, y: 0, width: 1, height: 2))
        XCTAssertEqual(RecordingStyle.calls, [
            "presentationWillBegin", "presentationDidEnd(false)", "dismissalWillBegin", "dismissalDidEnd(true)",
            "willLayout \(bounds)", "didLayout \(Rect(x: 0, y: 0, width: 1, height: 2))"])
    }

    func testReleasingTheHostStyleDestroysThePluginInstance() throws {
        let m = try module(RecordingStyle.self)
        RecordingStyle.calls = []
        do { _ = try m.makeStyle(options: [:]) }
        XCTAssertEqual(RecordingStyle.calls, ["deinit"])
    }

    func testProtocolDefaultsSurviveTheRoundTrip() throws {
        let style = try module(MinimalStyle.self).makeStyle()
        let bounds = Rect(x: 0, y: 0, width: 100, height: 200)
        let frame = style.frameOfPresentedView(in: bounds)
        XCTAssertEqual(style.transitionDuration, 0.35)
        XCTAssertEqual(style.timingCurve, .easeInOut)
        XCTAssertEqual(style.cornerStyle(forPresentedViewIn: bounds), .square)
        XCTAssertEqual(style.presentedViewTransform(at: 0, frame: frame, in: bounds).translation.y, 190)
        XCTAssertTrue(style.shouldDismiss(onTapAt: .zero, in: bounds))
    }

    func testInitErrorsComeBackAsOneLineListingTheKeys() throws {
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
            XCTAssertEqual("\(error)", "in-process: style 'recording' has no option 'offsett' "
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
