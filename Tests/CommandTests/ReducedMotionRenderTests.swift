// `modal-demo render --reduced-motion` and MODALKIT_REDUCED_MOTION: the presented view at its
// frame with the cross-fade's alpha at P·D seconds into the phase (F = min(0.2 s, D)), the dim as
// without reduced motion; a bad MODALKIT_REDUCED_MOTION is one stderr line and exit status 2.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class ReducedMotionRenderTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-rm-render")
    }

    override func tearDown() {
        removeTree(directory)
        super.tearDown()
    }

    /// Renders inset-centered at 400×800, scale 1, and loads the PNG.
    private func render(_ extra: [String], progress: Double, environment: [String: String?] = [:],
                        file: StaticString = #filePath, line: UInt = #line) throws -> RGBImage {
        let output = directory + "/\(UUID().uuidString).png"
        let r = try PluginCLITests.demo(["render", "--size", "400x800", "--progress", String(progress), "--output", output] + extra,
                                        environment: ["MODALKIT_REDUCED_MOTION": nil].merging(environment) { $1 })
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr, "", file: file, line: line)
        return try RGBImage.loadPNG(path: output)
    }

    /// ease-in-out, cubic-bezier(0.42, 0, 0.58, 1), at time fraction `u` (bisection on x).
    private func easeInOut(_ u: Double) -> Double {
        func bez(_ t: Double, _ a: Double, _ b: Double) -> Double { 3 * a * t * (1 - t) * (1 - t) + 3 * b * t * t * (1 - t) + t * t * t }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if bez(mid, 0.42, 0.58) < u { lo = mid } else { hi = mid }
        }
        return bez((lo + hi) / 2, 0, 1)
    }

    private func blend(_ top: RGB, over under: RGB, alpha a: Double) -> RGB {
        func ch(_ t: UInt8, _ u: UInt8) -> UInt8 { UInt8((Double(t) * a + Double(u) * (1 - a)).rounded()) }
        return RGB(ch(top.r, under.r), ch(top.g, under.g), ch(top.b, under.b))
    }

    func testRenderReducedMotionFadesTheCardAtItsFrame() throws {
        let base = try render(["--reduced-motion"], progress: 0)   // dim 0, card alpha 0: the presenting view
        let card = try render([], progress: 1)                      // the card at its frame over the 0.5 dim
        // (phase, P, card alpha): D = 0.35 s, F = 0.2 s, t = P·D.
        let cases: [(String, Double, Double)] = [("present", 0.25, 0.4375), ("present", 0.5, 0.875), ("present", 0.75, 1),
                                                 ("dismiss", 0.25, 0.5625), ("dismiss", 0.75, 0)]
        for (phase, p, alpha) in cases {
            let what = "--phase \(phase) --progress \(p)"
            let img = try render(["--reduced-motion", "--phase", phase], progress: p)
            let dim = 0.5 * easeInOut(phase == "present" ? p : 1 - p)
            // Inside the frame (20/110 inset), clear of the corners and the label.
            for (x, y) in [(40, 130), (360, 130), (40, 670), (360, 670), (200, 200)] {
                let under = base[x, y].dimmed(byBlackAlpha: dim)
                let over = card[x, y]   // opaque card pixel
                assertPixel(img, x, y, near: blend(over, over: under, alpha: alpha), tolerance: 2, "\(what): inside the frame")
            }
            // Outside the frame: the dim alone, as without reduced motion.
            XCTAssertEqual(dimMismatches(shot: img, reference: base, region: PixelBox(x: 0, y: 0, width: 400, height: 106), dimAlpha: dim), [], what)
            XCTAssertEqual(dimMismatches(shot: img, reference: base, region: PixelBox(x: 0, y: 694, width: 400, height: 106), dimAlpha: dim), [], what)
            XCTAssertEqual(dimMismatches(shot: img, reference: base, region: PixelBox(x: 0, y: 106, width: 18, height: 588), dimAlpha: dim), [], what)
        }
        // Without reduced motion the card at P = 0.25 is still below y = 110 + 300: dim there.
        let sliding = try render([], progress: 0.25)
        assertPixel(sliding, 200, 200, near: base[200, 200].dimmed(byBlackAlpha: 0.5 * easeInOut(0.25)), "no --reduced-motion: the card slides")
    }

    func testEnvironmentVariableEqualsTheFlag() throws {
        let flag = try render(["--reduced-motion"], progress: 0.25)
        let env = try render([], progress: 0.25, environment: ["MODALKIT_REDUCED_MOTION": "1"])
        XCTAssertEqual(differences(flag, env, tolerance: 0), [])
        let off = try render([], progress: 0.25, environment: ["MODALKIT_REDUCED_MOTION": "0"])
        XCTAssertFalse(differences(flag, off, tolerance: 0).isEmpty, "0 does not reduce motion")
        let empty = try render([], progress: 0.25, environment: ["MODALKIT_REDUCED_MOTION": ""])
        XCTAssertEqual(differences(off, empty, tolerance: 0), [], "empty is unset")
    }

    func testBadEnvironmentValueOrFlagValueIsOneLineAndStatusTwo() throws {
        let output = directory + "/never.png"
        for (args, env, mentions) in [
            (["render", "--size", "100x100", "--progress", "1", "--output", output], "yes", "MODALKIT_REDUCED_MOTION"),
            ([], "2", "MODALKIT_REDUCED_MOTION"),
            (["--reduced-motion"], "true", "'true'"),
            (["--reduced-motion=1"], "1", "--reduced-motion"),
        ] {
            let r = try PluginCLITests.demo(args, environment: ["MODALKIT_REDUCED_MOTION": env])
            XCTAssertEqual(r.status, 2, "\(args) MODALKIT_REDUCED_MOTION=\(env): \(r.stderr)")
            XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("modal-demo: ") && r.stderr.contains(mentions), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        // --help, --version and --list-styles do not look at it.
        XCTAssertEqual(try PluginCLITests.demo(["--version"], environment: ["MODALKIT_REDUCED_MOTION": "yes"]).status, 0)
    }
}
