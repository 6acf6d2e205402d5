// The sub-surface backend (`--compositing subsurface`: the presenting view in the window's buffer,
// the dim and the presented view as synchronized sub-surfaces the compositor composes) against
// the pixman backend, live under headless sway: the same pixels at the same frame, at scale 1 and
// 2, for both built-in styles, also after a resize mid-transition.
//
// "The same frame": a running transition cannot be screenshotted at an exact progress, so the
// demo's test hook MODALKIT_PAUSE_AT=F holds the presentation at linear time fraction F once it
// gets there (the frame time is clamped to start + F × duration); each backend is run to F in
// turn and the screenshot taken once the picture is stable.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class SubsurfaceCompositingTests: CompositorTestCase {
    private let fractions = [0.25, 0.5, 0.75, 1.0]

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

    /// For each fraction: the screenshot of the held frame under each backend; they must agree
    /// within 2 per channel everywhere (the pointer is parked off the output, so no cursor shows),
    /// and differ from the unpresented window (the dim shows).
    private func compareBackends(style: String, scale: Int, fractions: [Double]? = nil, resize: Bool = false,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let sway = try startSway(windowWidth: 400, windowHeight: 500, scale: scale)
        let vnc = try startVNC(sway)
        for f in fractions ?? self.fractions {
            var shots: [String: RGBImage] = [:]
            for backend in ["subsurface", "pixman"] {
                let (demo, _) = try launchDemo(["--style", style, "--duration", "4", "--compositing", backend], in: sway,
                                               environment: ["MODALKIT_PAUSE_AT": String(f)], file: file, line: line)
                try vnc.park()
                let before = try sway.stableScreenshot()
                let mark = demo.mark()
                try vnc.key("enter")
                guard expectEvent(demo, "presenting", since: mark, file: file, line: line) != nil else { return }
                if resize {
                    // Mid-transition (held at f), the tiled window shrinks: a larger outer gap.
                    _ = waitUntil(timeout: 10, interval: 0.05) { demo.events("frame", since: mark).count >= 3 }
                    let m = demo.mark()
                    _ = try sway.swaymsg(["gaps outer all set 50"])
                    guard expectEvent(demo, "configure", since: m, file: file, line: line) != nil else { return }
                }
                // Held at f: the picture stops changing once the transition got there (4 s × f).
                let shot = try sway.stableScreenshot(timeout: 4 * f + 5, interval: 0.3)
                keep(shot, "\(style)-x\(scale)-\(f)-\(backend)")
                let frames = demo.events("frame", since: mark)
                XCTAssertFalse(frames.isEmpty, "frames were committed", file: file, line: line)
                let expected = backend == "subsurface" ? "backend=subsurface" : "backend=pixman"
                XCTAssertTrue(frames.allSatisfy { $0.contains(expected) }, "every frame by \(backend): \(frames.prefix(5))",
                              file: file, line: line)
                XCTAssertGreaterThan(differences(shot, before, tolerance: 8, limit: 1).count, 0,
                                     "the dim shows at \(f) (\(backend))", file: file, line: line)
                shots[backend] = shot
                demo.stop()
                if resize { _ = try sway.swaymsg(["gaps outer all set 20"]) }
            }
            if let a = shots["subsurface"], let b = shots["pixman"] {
                let bad = differences(a, b, tolerance: 2)
                XCTAssertEqual(bad, [], "\(style) at scale \(scale), fraction \(f)\(resize ? ", resized" : ""): sub-surface vs pixman",
                               file: file, line: line)
            }
        }
    }
}
