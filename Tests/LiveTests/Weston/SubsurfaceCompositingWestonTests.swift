// The sub-surface backend (`--compositing subsurface`) under headless weston: a whole run with
// no protocol error, and every transition frame presented once, in order (`wp_presentation`).
// (Its pixels against the pixman backend, under sway: SubsurfaceCompositingTests.)
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class SubsurfaceCompositingWestonTests: CompositorTestCase {
    // MARK: protocol

    /// A whole run under weston: no xdg-decoration, so the client's title bar is a sub-surface too,
    /// below the layers; headless weston has no seat, so the run presents and dismisses by itself.
    func testNoProtocolErrorOverAWholeRunUnderWeston() throws {
        let weston = try startWeston()
        var env = weston.clientEnvironment
        env["WAYLAND_DEBUG"] = "1"
        let demo = try startDemo(["--size", "400x300", "--log-events", "--compositing", "subsurface", "--autoplay"], environment: env)
        guard expectEvent(demo, "dismissed") != nil else { return }
        XCTAssertTrue(demo.isRunning, demo.diagnostics())
        demo.stop()
        assertSubsurfaceProtocolLog(demo)
    }

    // MARK: presentation timing

    /// Every frame committed during a 0.35 s presentation under headless weston at 60 Hz
    /// (`repaint-window=16`, see HeadlessWeston) is reported presented by `wp_presentation`, once,
    /// at strictly increasing times at least one refresh apart (the client commits once per frame
    /// callback, so the compositor never drops one). The count and the largest gap are printed as
    /// figures (article "Performance"): how many frames a loaded machine manages is a measurement,
    /// not a pass/fail criterion. Headless sway 1.7 sends no presentation feedback but a first
    /// `discarded` (wlroots 0.15's headless output reports no presentation times).
    func testEveryTransitionFrameIsPresentedOnceInOrder() throws {
        let weston = try startWeston(repaintWindow: 16)
        let demo = try startDemo(["--size", "400x300", "--log-events", "--compositing", "subsurface", "--autoplay"],
                                 environment: weston.clientEnvironment)
        guard expectEvent(demo, "dismissed") != nil else { return }
        usleep(200_000)   // the last feedback events
        let lines = demo.stdoutLines
        guard let start = lines.firstIndex(of: "presenting"), let end = lines.firstIndex(of: "presented") else {
            return XCTFail("no presenting/presented events: \(lines.prefix(20))")
        }
        // The frames from the first after `presenting` to the one that shows the end state (the
        // `presented` event is logged while that frame is composed, before its `frame` line).
        let last = lines[end...].firstIndex { DemoProcess.firstWord($0) == "frame" } ?? end
        let numbers = lines[start...last].filter { DemoProcess.firstWord($0) == "frame" }.compactMap { Int($0.split(separator: " ")[1]) }
        XCTAssertGreaterThanOrEqual(numbers.count, 2, "\(lines.prefix(60))")
        var timeOf: [Int: [Double]] = [:]
        for l in lines where DemoProcess.firstWord(l) == "presented-time" {
            let w = l.split(separator: " ")
            guard w.count == 3, let n = Int(w[1]), let t = Double(w[2]) else { continue }
            timeOf[n, default: []].append(t)
        }
        let times = numbers.compactMap { timeOf[$0] }
        XCTAssertEqual(times.map(\.count), numbers.map { _ in 1 },
                       "one presented time per committed frame \(numbers): \(timeOf)")
        let ordered = times.compactMap(\.first)
        let gaps = zip(ordered.dropFirst(), ordered).map { $0 - $1 }
        // Not two frames in one refresh of the 60 Hz output (headless weston's timer runs a
        // little slower than the 16.67 ms it reports, never faster).
        XCTAssertGreaterThanOrEqual(gaps.min() ?? 1, 1.0 / 60 - 0.0005, "gaps between presented frames: \(gaps)")
        print("presentation at 60 Hz: \(ordered.count) frames presented during a 0.35 s transition, largest gap \(String(format: "%.1f", (gaps.max() ?? 0) * 1000)) ms")
    }
}
