// `modal-demo render` with a spring that overshoots: the card moves past its frame but the dim is
// the style's appearance at the eased progress clamped to 0...1, so it is exactly its presented
// alpha (inset-centered: 0.5), never the darker alpha the unclamped overshoot would give.
import Foundation
import ModalKit
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

private func half(_ v: UInt8) -> UInt8 { UInt8((Double(v) * 0.5).rounded()) }

final class SpringDimRenderTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-spring-render")
    }

    override func tearDown() {
        removeTree(directory)
        super.tearDown()
    }

    private func render(progress: Double, file: StaticString = #filePath, line: UInt = #line) throws -> RGBImage {
        let output = directory + "/\(UUID().uuidString).png"
        let r = try PluginCLITests.demo(["render", "--style", "inset-centered", "--style-option", "curve=spring(300,10)",
                                         "--size", "400x800", "--progress", String(progress), "--output", output],
                                        environment: ["MODALKIT_REDUCED_MOTION": nil])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr, "", file: file, line: line)
        return try RGBImage.loadPNG(path: output)
    }

    func testOvershootingSpringDrawsTheDimAtItsPresentedAlpha() throws {
        let curve = try XCTUnwrap(TimingCurve(parsing: "spring(300,10)"))
        // The tenth of the transition where the spring is furthest past 1.
        let p = (1...9).map { Double($0) / 10 }.max { curve.value(at: $0) < curve.value(at: $1) }!
        let eased = curve.value(at: p)
        XCTAssertGreaterThan(eased, 1.1, "spring(300,10) overshoots at P = \(p)")
        let before = try render(progress: 0)  // dim alpha 0, the card below the bottom edge
        let over = try render(progress: p)
        // Below the card (the frame ends at y = 690 pt and the overshoot lifts the card; the
        // presenting view has no text there): background × (1 − 0.5), rounded; an unclamped dim
        // (0.5 × eased) would be darker.
        for (x, y) in [(380, 780), (20, 790), (200, 795)] {
            let bg: RGB = before[x, y]
            let expected = RGB(half(bg.r), half(bg.g), half(bg.b))
            let got: RGB = over[x, y]
            let close = abs(Int(got.r) - Int(expected.r)) <= 1 && abs(Int(got.g) - Int(expected.g)) <= 1
                && abs(Int(got.b) - Int(expected.b)) <= 1
            XCTAssert(close, "(\(x), \(y)) at P = \(p) (eased \(eased)): \(got), expected \(expected) = \(bg) dimmed by 0.5")
        }
    }
}
