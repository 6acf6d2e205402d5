import Foundation
import ModalKitTestHarness
import XCTest

/// `--frame-time predicted`: each frame is drawn for the time the compositor will show it,
/// predicted from `wp_presentation` feedback (the first refresh after the commit on the grid of
/// the last presented frame, `PresentationClock`). Under headless weston at 60 Hz (its output
/// reports a 16666666 ns refresh) every transition frame's logged time lies a whole number of
/// refreshes after the presented time logged last before it; with `--frame-time drawn` the frame
/// times are the clock at drawing, off that grid.
final class PredictedFrameTimeTests: CompositorTestCase {
    private let refresh = 1.0 / 60

    /// For each frame line after the first `presented N TIME`: (frame time − last presented time
    /// before it) / refresh, and how far that is from a whole number ≥ 1.
    private func gridOffsets(_ lines: [String]) -> [Double] {
        var lastPresented: Double?
        var offsets: [Double] = []
        var started = false
        for l in lines {
            let w = l.split(separator: " ")
            switch DemoProcess.firstWord(l) {
            case "presenting": started = true
            case "presented-time": if w.count == 3, let t = Double(w[2]) { lastPresented = t }
            case "frame":
                guard started, w.count >= 3, let t = Double(w[2]), let p = lastPresented else { continue }
                let k = (t - p) / refresh
                offsets.append(k < 0.5 ? 1 : abs(k - k.rounded()))
            case "presented" where w.count == 1: return offsets
            default: break
            }
        }
        return offsets
    }

    private func run(_ frameTime: String) throws -> [Double] {
        let weston = try startWeston(repaintWindow: 16)
        let demo = try startDemo(["--size", "400x300", "--log-events", "--compositing", "subsurface", "--autoplay",
                                  "--duration", "1", "--frame-time", frameTime], environment: weston.clientEnvironment)
        guard expectEvent(demo, "dismissed") != nil else { return [] }
        demo.stop()
        return gridOffsets(demo.stdoutLines)
    }

    func testPredictedFrameTimesLieOnThePresentationGrid() throws {
        let offsets = try run("predicted")
        XCTAssertGreaterThanOrEqual(offsets.count, 5, "transition frames after the first presented time")
        // Times are logged to 0.1 ms: a whole number of refreshes within 0.3 ms (0.018 refresh).
        XCTAssertEqual(offsets.filter { $0 > 0.018 }, [], "frames off the grid (in refreshes)")
    }

    /// The control: drawn times are off the grid for most frames (so the test above can fail).
    func testDrawnFrameTimesAreTheClockAtDrawing() throws {
        let offsets = try run("drawn")
        XCTAssertGreaterThanOrEqual(offsets.count, 5)
        XCTAssertGreaterThan(offsets.filter { $0 > 0.018 }.count, offsets.count / 2, "\(offsets)")
    }
}
