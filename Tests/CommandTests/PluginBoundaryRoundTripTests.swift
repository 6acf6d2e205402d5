// Style ABI 1.1 across the plugin boundary (modalkit_style.h): everything a Swift style can say
// crosses the C table and comes back equal; a genuine 1.0 plugin (built in the test from the 1.0
// header kept in Fixtures/abi-1.0) loads into this 1.1 host and draws exactly what it drew before;
// a 1.0 host refuses a 1.1 plugin with the one-line newer-minor message; broken values from plugin
// code are repaired at the boundary and each kind is reported once.
import Foundation
import ModalKitTestHarness
import XCTest
import CModalKitStyle
import ModalKitDemo
@testable import ModalKit
@testable import ModalKitPlugins

/// A style that sets every hook of style ABI 1.1 to values that differ from the defaults, and
/// records the contexts it is given.
enum ExpressiveStyle: LoadablePresentationStyle {
    static let name = "expressive"
    static let summary = "every 1.1 capability"
    static let options: [StyleOption] = []
    nonisolated(unsafe) static var contexts: [TransitionContext] = []

    static let gradient = try! LinearGradient(
        start: Point(x: 1, y: 2), end: Point(x: 3, y: 400),
        stops: [GradientStop(location: 0, color: .clear),
                GradientStop(location: 0.25, color: Color(premultipliedRed: 0.1, green: 0.1, blue: 0.2, alpha: 0.5)),
                GradientStop(location: 1, color: .black)])
    static let chrome = PresentedViewChrome(
        backgroundColor: Color(rgb: 0x336699), border: Border(width: 1.5, color: Color(rgb: 0x112233)),
        shadow: Shadow(color: Color.black.multipliedAlpha(by: 0.3), offset: Point(x: -2, y: 6), blurRadius: 12),
        grabber: PresentedViewChrome.grabberColor)
    static let interactionValue = InteractionDeclaration(dismissGesture: .drag(.left),
                                                         detents: [.fraction(0.5), .points(600)],
                                                         largestUndimmedDetent: 0, isDismissible: false)

    static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let style = PresentationStyle()
        style.frameOfPresentedView = { _ in Rect(x: 10, y: 20, width: 100, height: 50) }
        style.transitionDuration = { c in
            contexts.append(c)
            return c.phase == .dismiss ? 0.2 : 0.4
        }
        style.timingCurve = { c in c.phase == .dismiss ? .cubicBezier(0.42, 0, 1, 1) : .easeOut }
        style.dimmingAppearance = { progress, c in
            contexts.append(c)
            return DimmingAppearance(gradient: gradient, alpha: 0.4 * progress)
        }
        style.presentedViewTransform = { progress, _, c in
            contexts.append(c)
            let s = c.sourceRect ?? .zero
            return ViewTransform(translation: Point(x: s.minX, y: s.minY), scaleX: progress, scaleY: 1 - progress / 2,
                                 anchor: Point(x: 0, y: 1), alpha: 0.75)
        }
        style.chrome = { _ in chrome }
        style.presentingViewAppearance = { progress, _ in
            PresentingViewAppearance(transform: ViewTransform(scale: 1 - 0.08 * progress), cornerRadius: 10 * progress)
        }
        style.interaction = { _ in interactionValue }
        return style
    }
}

final class PluginBoundaryRoundTripTests: XCTestCase {
    typealias Support = PluginTestSupport

    private func module<S: LoadablePresentationStyle>(_ type: S.Type) throws -> StyleModule {
        StyleModule(library: try PluginLibrary.adopt(exportStyle(type), path: "in-process").get(), path: "in-process")
    }

    private func loader(_ dirs: String...) -> StyleLoader { StyleLoader(searchPath: dirs) }

    // MARK: Swift → C → Swift

    func testEveryCapabilityCrossesTheTableUnchanged() throws {
        let style = try module(ExpressiveStyle.self).makeStyle()
        let bounds = Rect(x: 0, y: 0, width: 400, height: 800)
        let source = Rect(x: 112, y: 375, width: 176, height: 50)
        let present = TransitionContext(phase: .present, isInteractive: false, sourceRect: source, containerBounds: bounds)
        let dismiss = TransitionContext(phase: .dismiss, isInteractive: true, sourceRect: nil, containerBounds: bounds)
        ExpressiveStyle.contexts = []

        XCTAssertEqual(style.transitionDuration(present), 0.4)
        XCTAssertEqual(style.transitionDuration(dismiss), 0.2)
        XCTAssertEqual(style.timingCurve(present), .easeOut)
        XCTAssertEqual(style.timingCurve(dismiss), .cubicBezier(0.42, 0, 1, 1))
        XCTAssertEqual(style.dimmingAppearance(0.5, present),
                       DimmingAppearance(gradient: ExpressiveStyle.gradient, alpha: 0.2))
        let frame = Rect(x: 10, y: 20, width: 100, height: 50)
        XCTAssertEqual(style.presentedViewTransform(0.5, frame, present),
                       ViewTransform(translation: Point(x: 112, y: 375), scaleX: 0.5, scaleY: 0.75,
                                     anchor: Point(x: 0, y: 1), alpha: 0.75))
        XCTAssertEqual(style.chrome(layoutContext(bounds)), ExpressiveStyle.chrome)
        XCTAssertEqual(style.presentingViewAppearance(1, present),
                       PresentingViewAppearance(transform: ViewTransform(scale: 0.92), cornerRadius: 10))
        XCTAssertEqual(style.interaction(layoutContext(bounds)), ExpressiveStyle.interactionValue)
        // The contexts arrive as they were sent: phase, interactive, source rectangle or none, bounds.
        XCTAssertEqual(ExpressiveStyle.contexts, [present, dismiss, present, present])
        // The 1.0 entries are exported too, answered by the same hooks (for 1.0 callers): the
        // presentation's duration, and the gradient dim as one colour, its last stop's.
        let plugin = try XCTUnwrap(style.pluginInstance)
        XCTAssertEqual(plugin.table.transition_duration!(plugin.instance), 0.4)
        let dim10 = plugin.table.dimming_appearance!(plugin.instance, 0.5)
        XCTAssertEqual(DimmingAppearance(dim10), DimmingAppearance(color: .black, alpha: 0.2))
    }

    /// A style that sets no hook still exports every 1.1 entry, and they give the defaults (1.0
    /// pixels).
    func testDefaultsCrossTheTableAsDefaults() throws {
        let style = try module(MinimalStyle11.self).makeStyle()
        let bounds = Rect(x: 0, y: 0, width: 100, height: 200)
        let context = TransitionContext(phase: .dismiss, containerBounds: bounds)
        XCTAssertEqual(style.chrome(layoutContext(bounds)), PresentedViewChrome.none)
        XCTAssertEqual(style.presentingViewAppearance(1, context), PresentingViewAppearance.identity)
        XCTAssertEqual(style.interaction(layoutContext(bounds)), InteractionDeclaration.standard)
        XCTAssertEqual(style.transitionDuration(context), 0.35)
        XCTAssertEqual(style.timingCurve(context), .easeInOut)
        XCTAssertEqual(style.presentedViewTransform(0, bounds, context), ViewTransform(translation: Point(x: 0, y: 200)),
                       "cover-vertical: from below the bottom edge")
    }

    /// A style scaling x only, about the left edge (anchor (0, 0.5)), through the C table: the
    /// left edge stays where the frame's is, the width follows the scale — in the geometry and in
    /// the pixels drawn by the demo's renderer (scale 1 and 2).
    func testScaleAboutTheLeftEdgeKeepsTheLeftEdgeThroughTheTable() throws {
        let style = try module(LeftEdgeStyle.self).makeStyle(options: ["curve": "linear"])
        let bounds = Rect(x: 0, y: 0, width: 400, height: 800)
        let controller = PresentationController(style: style)
        controller.layout(containerBounds: bounds)
        for p in [0.0, 0.25, 0.5, 1] {
            let shown = controller.snapshot(phase: .present, fraction: p).presentedRect
            XCTAssertEqual(shown.minX, 50, accuracy: 1e-9, "left edge at \(p)")
            XCTAssertEqual(shown.width, 300 * (0.5 + 0.5 * p), accuracy: 1e-9)
            XCTAssertEqual(shown.minY, 300, accuracy: 1e-9)
            XCTAssertEqual(shown.height, 200, accuracy: 1e-9, "y unscaled")
        }
        let scene = try DemoScene(style: style)
        for s in [1, 2] {
            scene.layout(containerSize: bounds.size, scale: s)
            let image = try Image(width: 400 * s, height: 800 * s)
            scene.renderSnapshot(into: image.pixelBuffer, phase: .present, fraction: 0)
            // x 50…200 pt shown (scale 0.5 about the left edge), white in the card's empty middle row.
            XCTAssertNotEqual(image.pixel(x: 50 * s - 1, y: 400 * s), 0xFFFF_FFFF, "left of the left edge, scale \(s)")
            XCTAssertEqual(image.pixel(x: 50 * s, y: 400 * s), 0xFFFF_FFFF, "the left edge column, scale \(s)")
            XCTAssertEqual(image.pixel(x: 200 * s - 1, y: 400 * s), 0xFFFF_FFFF, "the right edge column, scale \(s)")
            XCTAssertNotEqual(image.pixel(x: 200 * s, y: 400 * s), 0xFFFF_FFFF, "right of it, scale \(s)")
        }
    }

    // MARK: A 1.0 plugin in the 1.1 host

    /// The fixture plugin built against the 1.0 header as it shipped: the host sees ABI 1.0, a
    /// descriptor that ends before the 1.1 fields, and gives it the defaults for everything 1.1.
    func testA10PluginBinaryLoadsWithTheDefaults() throws {
        let dir = try Support.temporaryDirectory(self, "abi10")
        let old = try Support.compileFixture("libModalKitStyleOld.so", in: dir, headers: Support.abi10HeaderDirectory)
        let module = try loader(dir).load(old.library)
        XCTAssertEqual(module.abiVersion, StyleABIVersion(major: 1, minor: 0))
        let head = UnsafeRawPointer(module.library.descriptor)
        XCTAssertEqual(head.load(fromByteOffset: 4, as: UInt32.self), 0, "abi_minor")
        XCTAssertEqual(Int(head.load(fromByteOffset: 8, as: UInt32.self)), Int(modalkit_style_descriptor_min_size(0)),
                       "struct_size: the descriptor ends where 1.0 ends")
        XCTAssertNil(module.library.table.chrome, "fields past struct_size read as NULL")
        XCTAssertNil(module.library.table.interaction)

        let style = try module.makeStyle(options: ["inset": "30"])
        let bounds = Rect(x: 0, y: 0, width: 200, height: 100)
        let frame = style.frameOfPresentedView(layoutContext(bounds))
        let present = TransitionContext(phase: .present, sourceRect: Rect(x: 1, y: 2, width: 3, height: 4),
                                        containerBounds: bounds)
        let dismiss = TransitionContext(phase: .dismiss, containerBounds: bounds)
        XCTAssertEqual(style.dimmingAppearance(0.5, present), DimmingAppearance(color: .black, alpha: 0.15))
        XCTAssertNil(style.dimmingAppearance(0.5, present).gradient)
        XCTAssertEqual(style.presentedViewTransform(0.25, frame, present),
                       ViewTransform(translation: Point(x: 0, y: 0.75 * (100 - 30))), "cover-vertical, the 1.0 default")
        XCTAssertEqual(style.transitionDuration(dismiss), 0.25, "the 1.0 duration in both phases")
        XCTAssertEqual(style.timingCurve(dismiss), .linear)
        XCTAssertEqual(style.chrome(layoutContext(bounds)), PresentedViewChrome.none)
        XCTAssertEqual(style.presentingViewAppearance(1, present), PresentingViewAppearance.identity)
        XCTAssertEqual(style.interaction(layoutContext(bounds)), InteractionDeclaration.standard)
    }

    /// `modal-demo render` draws the 1.0 binary exactly as the same source built against the 1.1
    /// header (which sets no 1.1 entry either), and those pixels are the 1.0 rules: the card
    /// inset 10 pt, white, over black at 0.3 × progress (linear).
    func testA10PluginBinaryRendersThe10Pixels() throws {
        let dir = try Support.temporaryDirectory(self, "abi10render")
        let old = try Support.compileFixture("libModalKitStyleOld.so", in: dir, headers: Support.abi10HeaderDirectory)
        let new = try Support.compileFixture("libModalKitStyleNew.so", in: dir)
        func render(_ library: String, _ progress: String, phase: String = "present", scale: String = "1") throws -> Image {
            let output = dir + "/\((library as NSString).lastPathComponent)-\(phase)-\(progress)-\(scale).png"
            let r = try PluginCLITests.demo(["render", "--style", library, "--size", "200x300", "--scale", scale,
                                             "--phase", phase, "--progress", progress, "--output", output])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stderr, "", "nothing repaired, nothing reported")
            return try Image(pngFile: output)
        }
        for scale in ["1", "2"] {
            let s = Int(scale)!
            for (phase, progress) in [("present", "1"), ("present", "0.5"), ("dismiss", "0.3")] {
                let a = try render(old.library, progress, phase: phase, scale: scale)
                let b = try render(new.library, progress, phase: phase, scale: scale)
                XCTAssertEqual(a.width, 200 * s)
                var same = true
                for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { same = false } }
                XCTAssertTrue(same, "1.0 and 1.1 builds draw the same \(phase) \(progress) at scale \(scale)")
            }
            let background = try render(old.library, "0", scale: scale)
            let presented = try render(old.library, "1", scale: scale)
            // Inside the card (inset 10 pt, corner radius 4): white.
            XCTAssertEqual(presented.pixel(x: 12 * s, y: 150 * s), 0xFFFF_FFFF, "the card's left column")
            // Outside it: the background under black 0.3.
            for (x, y) in [(5, 5), (5 * s, 150 * s), (195 * s, 295 * s)] {
                let base = background.pixel(x: x, y: y).argbComponents, got = presented.pixel(x: x, y: y).argbComponents
                for (g, b) in [(got.r, base.r), (got.g, base.g), (got.b, base.b)] {
                    XCTAssertEqual(Double(g), Double(b) * 0.7, accuracy: 1, "(\(x),\(y)) dimmed by black 0.3")
                }
            }
        }
    }

    // MARK: Version checks

    /// The 1.1 host takes a 1.0 plugin; a 1.0 host (the same check with host 1.0) refuses a 1.1
    /// plugin with the newer-minor line, before its entry could run.
    func testVersionCheckBothWays() throws {
        let size10 = Int(modalkit_style_descriptor_min_size(0))
        let size11 = Int(modalkit_style_descriptor_min_size(1))
        XCTAssertEqual(size10, 16 + 8 * 20)
        XCTAssertEqual(size11 + 8, Int(modalkit_style_descriptor_min_size(2)), "1.2 appended one function pointer")
        let plugin10 = modalkit_style_abi_version_t(major: 1, minor: 0, descriptor_size: UInt32(size10), reserved: 0)
        let plugin11 = modalkit_style_abi_version_t(major: 1, minor: 1, descriptor_size: UInt32(size11), reserved: 0)
        let host10 = StyleABIVersion(major: 1, minor: 0), host11 = StyleABIVersion(major: 1, minor: 1)
        XCTAssertGreaterThanOrEqual(StyleABIVersion.current.minor, host11.minor)

        XCTAssertEqual(try PluginLibrary.checkVersion(plugin10, host: host11, path: "/p.so").get(), size10)
        XCTAssertEqual(try PluginLibrary.checkVersion(plugin11, host: host11, path: "/p.so").get(), size11)
        let refused = PluginLibrary.checkVersion(plugin11, host: host10, path: "/p.so")
        guard case let .failure(error) = refused else { return XCTFail("a 1.0 host must refuse a 1.1 plugin") }
        XCTAssertEqual(error, .newerMinor(path: "/p.so", plugin: host11, host: host10))
        XCTAssertEqual(error.description,
                       StyleLoadError.newerMinor(path: "/p.so", plugin: host11, host: host10).description)
        XCTAssertFalse(error.description.contains("\n"))
        XCTAssertTrue(error.description.hasPrefix("/p.so: "), error.description)
        XCTAssertTrue(error.description.contains("ABI 1.1") && error.description.contains("ABI 1.0"), error.description)
        // A 1.0 plugin too small for 1.0 stays refused.
        let short = modalkit_style_abi_version_t(major: 1, minor: 0, descriptor_size: 100, reserved: 0)
        XCTAssertEqual(PluginLibrary.checkVersion(short, host: host11, path: "/p.so").failureValue,
                       .badStructSize(path: "/p.so", size: 100, minimum: size10, version: host10))
    }

    // MARK: Broken values from plugin code

    /// Gradient stops out of order, outside 0...1 and 9 of them, a negative blur, NaN in the
    /// chrome, the transform and the presenting view, an unknown drag direction: repaired, and
    /// each function's problems reported once however often it is called.
    func testBrokenValuesAreRepairedAndReportedOnce() throws {
        let dir = try Support.temporaryDirectory(self, "bad11")
        let bad = try Support.compileFixture("libModalKitStyleBad11.so", in: dir, defines: ["FIXTURE_BAD_11"])
        var lines: [String] = []
        let lock = NSLock()
        let previous = PluginDiagnostics.setSink { line in lock.lock(); lines.append(line); lock.unlock() }
        defer { PluginDiagnostics.setSink(previous) }
        let style = try loader(dir).load(bad.library).makeStyle()
        let bounds = Rect(x: 0, y: 0, width: 200, height: 100)
        let context = TransitionContext(phase: .present, containerBounds: bounds)

        for _ in 0..<3 {
            let dim = style.dimmingAppearance(1, context)
            guard let g = dim.gradient else { return XCTFail("a gradient dim") }
            XCTAssertEqual(g.count, 8, "cut to the 8 the ABI holds")
            XCTAssertEqual((0..<g.count).map { g[$0].location }, [0.5, 0.5, 0.5, 0.7, 1, 1, 1, 1],
                           "clamped to 0...1 and made non-decreasing")
            XCTAssertEqual(g.end, Point(x: 0, y: 0), "NaN is 0")
            let chrome = style.chrome(layoutContext(bounds))
            XCTAssertEqual(chrome.shadow?.blurRadius, 0, "a negative blur is none")
            XCTAssertEqual(chrome.backgroundColor, Color(premultipliedRed: 0, green: 0, blue: 0, alpha: 1))
            XCTAssertEqual(style.presentedViewTransform(1, bounds, context),
                           ViewTransform(translation: Point(x: 0, y: 5), scaleX: 2, scaleY: 1, anchor: Point(x: 0.5, y: 0),
                                         alpha: 1), "NaN parts are the identity's")
            XCTAssertEqual(style.presentingViewAppearance(1, context).cornerRadius, 0)
            XCTAssertEqual(style.interaction(layoutContext(bounds)).dismissGesture, .none, "an unknown direction is no gesture")
        }
        XCTAssertEqual(lines.count, 5, "one line per function with problems, not per call: \(lines)")
        for (function, words) in [("dimming_in_context", ["NaN", "gradient stops", "out of order", "out of range"]),
                                  ("chrome", ["NaN", "out of range"]),
                                  ("presented_view_transform_in_context", ["NaN"]),
                                  ("presenting_view_appearance", ["NaN"]),
                                  ("interaction", ["unknown kind or direction"])] {
            let line = lines.first { $0.contains("): \(function) returned") }
            XCTAssertNotNil(line, "\(function) reported: \(lines)")
            for w in words { XCTAssertTrue(line?.contains(w) ?? false, "'\(line ?? "")' mentions '\(w)'") }
            XCTAssertTrue(line?.hasPrefix("style 'c-fixture' (\(bad.library)): ") ?? false, line ?? "")
            XCTAssertTrue(line?.hasSuffix("; reported once") ?? false, line ?? "")
        }
    }

    /// The same plugin through `modal-demo render`: a picture (exit 0), never a crash, and the
    /// repairs on stderr once each.
    func testBrokenValuesRenderAndAreReportedOnceOnStderr() throws {
        let dir = try Support.temporaryDirectory(self, "bad11render")
        let bad = try Support.compileFixture("libModalKitStyleBad11.so", in: dir, defines: ["FIXTURE_BAD_11"])
        let output = dir + "/out.png"
        let r = try PluginCLITests.demo(["render", "--style", bad.library, "--size", "200x300", "--progress", "0.5",
                                         "--output", output])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output))
        XCTAssertFalse(r.stderrLines.isEmpty)
        XCTAssertEqual(Set(r.stderrLines).count, r.stderrLines.count, "each line once: \(r.stderr)")
        for line in r.stderrLines {
            XCTAssertTrue(line.hasPrefix("modal-demo: style 'c-fixture' (\(bad.library)): "), line)
        }
        XCTAssertTrue(r.stderrLines.contains { $0.contains("dimming_in_context returned") }, r.stderr)
    }
}

/// A 300×200 card at (50, 300), x scaled 0.5 → 1 about its left edge, y unscaled, opaque, no dim.
private enum LeftEdgeStyle: LoadablePresentationStyle {
    static let name = "left-edge"
    static let summary = "scales x only about the left edge"
    static let options: [StyleOption] = [.curve()]
    static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let style = PresentationStyle(timingCurve: try options.curve())
        style.frameOfPresentedView = { _ in Rect(x: 50, y: 300, width: 300, height: 200) }
        style.dimmingAppearance = { _, _ in DimmingAppearance(color: .black, alpha: 0.3) }
        style.presentedViewTransform = { progress, _, _ in
            ViewTransform(scaleX: 0.5 + 0.5 * progress, scaleY: 1, anchor: Point(x: 0, y: 0.5))
        }
        return style
    }
}

/// Sets only the frame (the defaults for everything else).
private enum MinimalStyle11: LoadablePresentationStyle {
    static let name = "minimal11"
    static let summary = "defaults"
    static let options: [StyleOption] = []
    static func makeStyle(options: StyleOptions) throws -> PresentationStyle { PresentationStyle() }
}

extension Result {
    var failureValue: Failure? { if case let .failure(e) = self { return e } else { return nil } }
}
