// The sub-surface backend (`--compositing subsurface`: the presenting view in the window's buffer,
// the dim and the presented view as synchronized sub-surfaces the compositor composes) against
// the pixman backend, live under headless sway: the same pixels at the same frame, at scale 1 and
// 2, for both built-in styles, also after a resize mid-transition. (The same backend under weston:
// SubsurfaceCompositingWestonTests.)
//
// "The same frame": a running transition cannot be screenshotted at an exact progress, so
// `--pause-at F` holds the presentation at linear time fraction F (the `paused` event; F = 1 is
// the end, `presented`); each backend is run to F in turn and the screenshot taken once the
// picture is stable. The held frame is F's at any duration (the scene clock stands at exactly F's
// time, as `render --progress F` draws it), so the transitions are short: nothing waits on a clock.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class SubsurfaceCompositingTests: CompositorTestCase {
    private let fractions = [0.25, 0.5, 0.75, 1.0]
    /// The transition's duration, seconds: F is reached within 0.3 F s of `presenting`.
    private let duration = "0.3"

    func testInsetCenteredSubsurfaceEqualsPixmanAtScaleOne() throws {
        try compareBackends(style: "inset-centered", scale: 1)
    }

    func testBottomSheetSubsurfaceEqualsPixmanAtScaleOne() throws {
        try compareBackends(style: "bottom-sheet", scale: 1)
    }

    func testInsetCenteredSubsurfaceEqualsPixmanAtScaleTwo() throws {
        try compareBackends(style: "inset-centered", scale: 2)
    }

    func testBottomSheetSubsurfaceEqualsPixmanAtScaleTwo() throws {
        try compareBackends(style: "bottom-sheet", scale: 2)
    }

    func testSubsurfaceEqualsPixmanAfterAResizeMidTransition() throws {
        try compareBackends(style: "inset-centered", scale: 1, fractions: [0.5], resize: true)
        try compareBackends(style: "bottom-sheet", scale: 2, fractions: [0.5], resize: true)
    }

    // A vertical gradient dim (the bottom sheet's `dim=gradient`, its alpha animated with the
    // transition) is a strip of row colours stretched over the container: still sub-surfaces.

    func testBottomSheetGradientDimSubsurfaceEqualsPixmanAtScaleOne() throws {
        try compareBackends(style: "bottom-sheet", options: ["dim=gradient"], scale: 1)
    }

    func testBottomSheetGradientDimSubsurfaceEqualsPixmanAtScaleTwo() throws {
        try compareBackends(style: "bottom-sheet", options: ["dim=gradient"], scale: 2)
    }

    // A drop shadow (and a border) is drawn into the presented view's own buffer, which grows by
    // the shadow's extent: still sub-surfaces.

    func testBottomSheetShadowSubsurfaceEqualsPixmanAtScaleOne() throws {
        try compareBackends(style: "bottom-sheet", options: ["shadow=soft"], scale: 1)
    }

    func testInsetCenteredShadowAndBorderSubsurfaceEqualsPixmanAtScaleTwo() throws {
        try compareBackends(style: "inset-centered", options: ["shadow=soft", "border=#FF2080"], scale: 2)
    }

    func testBottomSheetGradientDimAndShadowSubsurfaceEqualsPixmanAtScaleTwo() throws {
        try compareBackends(style: "bottom-sheet", options: ["dim=gradient", "shadow=soft"], scale: 2, fractions: [0.5, 1.0])
    }

    /// For each fraction: the screenshot of the held frame under each backend; they must agree
    /// within 2 per channel everywhere (the pointer is parked off the output, so no cursor shows),
    /// and differ from the unpresented window (the dim shows).
    private func compareBackends(style: String, options: [String] = [], scale: Int, fractions: [Double]? = nil,
                                 resize: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        let styleArgs = ["--style", style] + options.flatMap { ["--style-option", $0] }
        let name = ([style] + options).joined(separator: "-")
        let sway = try startSway(windowWidth: 400, windowHeight: 500, scale: scale)
        let vnc = try startVNC(sway)
        // The window before the presentation, the same picture for every run here: taken once.
        var before: RGBImage?
        for f in fractions ?? self.fractions {
            var shots: [String: RGBImage] = [:]
            for backend in ["subsurface", "pixman"] {
                let (demo, _) = try launchDemo(styleArgs + ["--duration", duration, "--compositing", backend,
                                                "--pause-at", String(f)], in: sway, file: file, line: line)
                try vnc.park()
                if before == nil { before = try sway.stableScreenshot(timeout: 5, interval: 0.1) }
                let mark = demo.mark()
                try vnc.key("enter")
                guard expectEvent(demo, "presenting", since: mark, file: file, line: line) != nil else { return }
                guard expectEvent(demo, f < 1 ? "paused" : "presented", since: mark,
                                  file: file, line: line) != nil else { return }
                if resize {
                    // Mid-transition (held at f), the tiled window shrinks: a larger outer gap.
                    let m = demo.mark()
                    _ = try sway.swaymsg(["gaps outer all set 50"])
                    guard expectEvent(demo, "configure", since: m, file: file, line: line) != nil else { return }
                    // …and the demo draws the held frame again at the new size (held or presented,
                    // it draws nothing else, so any frame since the mark is that one).
                    guard expectEvent(demo, "frame", since: m, file: file, line: line) != nil else { return }
                }
                let shot = try sway.stableScreenshot(timeout: 5, interval: 0.1)
                keep(shot, "\(name)-x\(scale)-\(f)-\(backend)")
                let frames = demo.events("frame", since: mark)
                XCTAssertFalse(frames.isEmpty, "frames were committed", file: file, line: line)
                let expected = backend == "subsurface" ? "backend=subsurface" : "backend=pixman"
                XCTAssertTrue(frames.allSatisfy { $0.contains(expected) }, "every frame by \(backend): \(frames.prefix(5))",
                              file: file, line: line)
                XCTAssertGreaterThan(differences(shot, before!, tolerance: 8, limit: 1).count, 0,
                                     "the dim shows at \(f) (\(backend))", file: file, line: line)
                shots[backend] = shot
                demo.stop()
                if resize { _ = try sway.swaymsg(["gaps outer all set 20"]) }
            }
            if let a = shots["subsurface"], let b = shots["pixman"] {
                let bad = differences(a, b, tolerance: 2)
                XCTAssertEqual(bad, [], "\(name) at scale \(scale), fraction \(f)\(resize ? ", resized" : ""): sub-surface vs pixman",
                               file: file, line: line)
            }
        }
    }

    // MARK: protocol

    /// A whole run (first frame, presentation, dismissal, close) with WAYLAND_DEBUG=1 under sway:
    /// the log shows the sub-surfaces being made and used, and no protocol error.
    func testNoProtocolErrorOverAWholeRunUnderSway() throws {
        let sway = try startSway(windowWidth: 400, windowHeight: 500)
        let (demo, _) = try launchDemo(["--compositing", "subsurface", "--autoplay"], in: sway,
                                       environment: ["WAYLAND_DEBUG": "1"])
        guard expectEvent(demo, "dismissed") != nil else { return }
        _ = try sway.swaymsg(["[pid=\(demo.pid)] kill"])   // xdg_toplevel.close: the demo exits 0
        XCTAssertEqual(demo.waitForExit(timeout: eventTimeout), .exited(0), demo.diagnostics())
        assertSubsurfaceProtocolLog(demo)
    }

    // MARK: client CPU per frame

    // Both backends' frame lines carry `backend=` and `cpu=`; the medians are printed as figures
    // (article "Performance" — speed is measured and reported, not asserted in a test).
    func testFrameLinesCarryBackendAndClientCPUAt1080p() throws {
        try compareCPU(width: 1920, height: 1080)
    }

    func testFrameLinesCarryBackendAndClientCPUAt4K() throws {
        try compareCPU(width: 3840, height: 2160)
    }

    /// The median `cpu=` of the transition frames (thread CPU time from frame start to commit) of
    /// both backends of the installed release build (what users run: a debug build spends most of a
    /// sub-surface frame in unoptimised Swift), in the same sway, one after the other: a present and a
    /// dismiss of 1 s each.
    private func compareCPU(width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let sway = try startSway(windowWidth: width, windowHeight: height)
        var medians: [String: Double] = [:]
        for backend in ["subsurface", "pixman"] {
            let (demo, _) = try launchDemo(["--compositing", backend, "--duration", "1", "--autoplay"], in: sway,
                                           file: file, line: line)
            guard expectEvent(demo, "dismissed", timeout: 30, file: file, line: line) != nil else { return }
            let lines = demo.stdoutLines
            guard let start = lines.firstIndex(of: "presenting"), let end = lines.lastIndex(of: "dismissed") else { return }
            let frameLines = lines[start..<end].filter { DemoProcess.firstWord($0) == "frame" }
            let cpu = frameLines.compactMap { l -> Double? in
                guard let field = l.split(separator: " ").first(where: { $0.hasPrefix("cpu=") }),
                      let v = Double(field.dropFirst(4)), v.isFinite, v >= 0 else { return nil }
                return v
            }.sorted()
            XCTAssertEqual(cpu.count, frameLines.count, "\(backend): every frame line has cpu=MS: \(frameLines.prefix(5))",
                           file: file, line: line)
            XCTAssertTrue(frameLines.allSatisfy { $0.split(separator: " ").contains("backend=\(backend)") },
                          "\(backend): every transition frame composed by it: \(frameLines.prefix(5))", file: file, line: line)
            XCTAssertGreaterThanOrEqual(cpu.count, 2, "\(backend): transition frames with cpu=", file: file, line: line)
            guard !cpu.isEmpty else { return }
            medians[backend] = cpu.count % 2 == 1 ? cpu[cpu.count / 2] : (cpu[cpu.count / 2 - 1] + cpu[cpu.count / 2]) / 2
            print("\(width)x\(height) \(backend): median cpu \(medians[backend]!) ms over \(cpu.count) frames, p99 \(cpu[min(cpu.count - 1, Int((0.99 * Double(cpu.count)).rounded(.up)) - 1)]) ms")
            demo.stop()
        }
        if let sub = medians["subsurface"], let pix = medians["pixman"], pix > 0 {
            print("\(width)x\(height): sub-surface / pixman median CPU per frame = \(String(format: "%.4f", sub / pix))")
        }
    }
}
