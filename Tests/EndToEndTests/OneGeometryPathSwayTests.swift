// One geometry path, proven against the live window: under headless sway, `modal-demo --pause-at F`
// stops a presentation at linear fraction F, and the screenshot of the window equals
// `modal-demo render --progress F` of the same size (±2 per channel), for every built-in style and
// for inset-centered with a spring that overshoots, at F = 0, 0.1 … 1. The dim is the style's
// alpha at the eased progress clamped to 0...1 — never darker than its presented alpha (0.5, 0.4),
// also where the spring carries the card past its frame.
import Foundation
import ModalKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class OneGeometryPathSwayTests: CompositorTestCase {
    private struct Case {
        let style: String
        let options: [String]
        let curve: TimingCurve
        /// The black dim's alpha when presented (docs/design.md: inset 0.5, sheet 0.4).
        let dimAlpha: Double
        var label: String { ([style] + options).joined(separator: " ") }
    }

    private static let easeInOut = TimingCurve(parsing: "ease-in-out")!
    private let cases = [
        Case(style: "inset-centered", options: [], curve: OneGeometryPathSwayTests.easeInOut, dimAlpha: 0.5),
        Case(style: "bottom-sheet", options: [], curve: OneGeometryPathSwayTests.easeInOut, dimAlpha: 0.4),
        Case(style: "inset-centered", options: ["--style-option", "curve=spring(300,10)"],
             curve: TimingCurve(parsing: "spring(300,10)")!, dimAlpha: 0.5),
    ]
    private let fractions = (0...10).map { Double($0) / 10 }
    /// The window: 400 × 600 points = pixels (scale 1).
    private let width = 400, height = 600
    private var directory = ""

    override func setUpWithError() throws {
        directory = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-pause-at")
    }

    override func tearDown() {
        removeTree(directory)
        super.tearDown()
    }

    /// `modal-demo render` of the case at `fraction`, 400 × 600 at scale 1.
    private func render(_ c: Case, _ fraction: Double) throws -> RGBImage {
        let png = directory + "/\(UUID().uuidString).png"
        defer { unlink(png) }
        let r = try ChildProcess.run([DemoProcess.executablePath, "render", "--style", c.style] + c.options
                                     + ["--size", "\(width)x\(height)", "--progress", String(fraction), "--output", png],
                                     environment: harnessEnvironment(["MODALKIT_REDUCED_MOTION": nil]), timeout: 60)
        guard r.status == .exited(0) else {
            throw HarnessError("modal-demo render failed (\(r.status)): \(r.stderr)")
        }
        return try RGBImage.loadPNG(path: png)
    }

    /// Where only the dim covers the presenting view at every fraction (window pixels): inset-centered's
    /// card spans x 20…W−20 and moves only vertically; bottom-sheet's sheet never rises above H/2.
    private func dimOnly(_ c: Case) -> [PixelBox] {
        if c.style == "bottom-sheet" { return [PixelBox(x: 0, y: 0, width: width, height: height / 2 - 2)] }
        return [PixelBox(x: 0, y: 0, width: 18, height: height), PixelBox(x: width - 18, y: 0, width: 18, height: height)]
    }

    func testTheLiveFrameAtEveryTenthEqualsRenderAndTheDimNeverPassesItsAlpha() throws {
        let sway = try startSway(windowWidth: width, windowHeight: height)
        let vnc = try startVNC(sway)
        let started = monotonicNow()
        for c in cases {
            let base = try render(c, 0)   // dim 0, nothing presented in view: the presenting view
            for f in fractions {
                let what = "\(c.label) --pause-at \(f)"
                let (demo, window) = try launchDemo(["--style", c.style] + c.options + ["--pause-at", String(f)], in: sway)
                XCTAssertEqual(window.rect, sway.windowArea, what)
                let mark = demo.mark()
                try vnc.key("enter")
                // F = 1 is the end of the presentation: nothing to pause.
                guard expectEvent(demo, f < 1 ? "paused" : "presented", since: mark, what) != nil else { return }
                let live = try sway.stableScreenshot().cropped(to: window.rect)
                let rendered = try render(c, f)
                let diff = differences(live, rendered, tolerance: 2)
                XCTAssertEqual(diff, [], "\(what): the live window vs render --progress \(f)")
                if !diff.isEmpty { keep(live, "live-\(f)"); keep(rendered, "render-\(f)") }

                // The dim: the presenting view × (1 − alpha), alpha = dim-alpha × the eased progress
                // clamped to 0...1 (so never past dim-alpha, whatever the spring does).
                let eased = c.curve.value(at: f)
                let alpha = c.dimAlpha * min(max(eased, 0), 1)
                for region in dimOnly(c) {
                    XCTAssertEqual(dimMismatches(shot: live, reference: base, region: region, dimAlpha: alpha, tolerance: 2), [],
                                   "\(what): the dim at eased progress \(eased) is black at \(alpha) (\(region))")
                    var darker: [String] = []
                    for y in region.y..<(region.y + region.height) {
                        for x in region.x..<(region.x + region.width) where darker.count < 3 {
                            let floor = base[x, y].dimmed(byBlackAlpha: c.dimAlpha)
                            let p = live[x, y]
                            if Int(p.r) < Int(floor.r) - 1 || Int(p.g) < Int(floor.g) - 1 || Int(p.b) < Int(floor.b) - 1 {
                                darker.append("(\(x), \(y)) \(p) darker than \(floor)")
                            }
                        }
                    }
                    XCTAssertEqual(darker, [], "\(what): never darker than dim-alpha \(c.dimAlpha)")
                }
                // Paused, the window draws nothing more; Escape still dismisses from the pause.
                if f == 0.5 {
                    let frames = demo.events("frame").count
                    usleep(200_000)
                    XCTAssertEqual(demo.events("frame").count, frames, "\(what): no frames while paused")
                    let esc = demo.mark()
                    try vnc.key("esc")
                    expectEvent(demo, "dismissed", since: esc, "\(what): Escape dismisses from the pause")
                }
                demo.stop()
            }
        }
        print("OneGeometryPathSwayTests: \(cases.count * fractions.count) live frames in \(String(format: "%.1f", monotonicNow() - started)) s")
    }
}
