import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// Damage (only what changed, in buffer pixels: docs/design.md, frame pipeline) and buffer age, PNG
/// output.
final class RendererTests: XCTestCase {
    private let d = 0.35

    func testIdleFramesHaveNoDamage() throws {
        let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: 400, height: 800)
        let img = try f.newImage()
        XCTAssertEqual(f.render(now: 0, into: img), [PixelRect(x: 0, y: 0, width: 400, height: 800)])
        XCTAssertFalse(f.scene.needsRedraw)
        XCTAssertEqual(f.render(now: 0.5, age: 1, into: img), [], "idle, dismissed")
        f.scene.present(now: 1)
        XCTAssertTrue(f.scene.needsRedraw)
        _ = f.render(now: 1 + d, age: 1, into: img)
        XCTAssertEqual(f.scene.state, .presented)
        XCTAssertFalse(f.scene.needsRedraw)
        XCTAssertEqual(f.render(now: 5, age: 1, into: img), [], "idle, presented")
    }

    func testTransitionFramesDamageTheWindowWhileTheDimChanges() throws {
        let f = try SceneFixture(try BuiltinStyle.bottomSheet.make(), width: 400, height: 800, scale: 2)
        let img = try f.newImage()
        _ = f.render(now: 0, into: img)
        f.scene.present(now: 0)
        XCTAssertEqual(f.render(now: 0.1, age: 1, into: img), [PixelRect(x: 0, y: 0, width: 800, height: 1600)])
    }

    func testHoverDamagesOnlyAroundTheButton() throws {
        let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: 400, height: 800)
        let img = try f.newImage()
        _ = f.render(now: 0, into: img)
        f.scene.handle(.pointerMotion(Point(x: 200, y: 400)), now: 0.1)
        let damage = f.render(now: 0.1, age: 1, into: img)
        XCTAssertEqual(damage.count, 1)
        let r = damage.first ?? .zero
        let button = f.scene.buttonFrame  // 176 × 50 points
        XCTAssertTrue(r.contains(x: Int(button.minX), y: Int(button.minY)))
        XCTAssertTrue(r.contains(x: Int(button.maxX) - 1, y: Int(button.maxY) - 1))
        XCTAssertLessThan(r.area, 400 * 800 / 10, "hover repaints the button, not the window")
    }

    /// Rendering into a ring of three buffers with their ages gives exactly the pixels of a full
    /// repaint, frame after frame, through a transition, hover changes and idle frames.
    func testBufferAgeRepaintsEverythingChangedSinceTheBufferWasDrawn() throws {
        for style in BuiltinStyle.allCases {
            let live = try SceneFixture(try style.make(), width: 300, height: 500)
            let reference = try SceneFixture(try style.make(), width: 300, height: 500)
            let buffers = try (0..<3).map { _ in try live.newImage() }
            var lastUse = [Int](repeating: -1, count: 3)
            var frame = 0
            func step(_ t: Double, _ input: SceneInput? = nil, present: Bool = false, file: StaticString = #filePath,
                      line: UInt = #line) throws {
                for f in [live, reference] {
                    if let input { f.scene.handle(input, now: t) }
                    if present { f.scene.present(now: t) }
                }
                let i = frame % 3
                let age = lastUse[i] < 0 ? 0 : frame - lastUse[i]
                _ = live.render(now: t, age: age, into: buffers[i])
                lastUse[i] = frame
                frame += 1
                let full = try reference.newImage()
                _ = reference.render(now: t, age: 0, into: full)
                XCTAssertTrue(samePixels(buffers[i], full), "\(style) frame \(frame - 1) at \(t), age \(age)",
                              file: file, line: line)
            }
            try step(0)
            try step(0.1, .pointerMotion(Point(x: 150, y: 250)))  // hover
            try step(0.2, .pointerMotion(Point(x: 10, y: 10)))    // unhover
            try step(0.3)
            try step(0.4, present: true)
            for k in 1...8 { try step(0.4 + Double(k) * 0.05) }   // transition, then presented
            try step(1.5, .key(.escape, pressed: true))
            for k in 1...8 { try step(1.5 + Double(k) * 0.05) }   // dismissal
            try step(2.5, .pointerMotion(Point(x: 150, y: 250)))
            try step(2.6)
            try step(2.7, .pointerMotion(Point(x: 1, y: 1)))
            try step(2.8)
        }
    }

    func testPNGRoundTrip() throws {
        let f = try SceneFixture(try BuiltinStyle.insetCentered.make(), width: 200, height: 300, scale: 2)
        let img = try f.snapshot(.present, 0.5)
        let path = NSTemporaryDirectory() + "modalkit-roundtrip-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try img.writePNG(to: path)
        let back = try Image(pngFile: path)
        XCTAssertTrue(samePixels(img, back), "opaque frame survives PNG exactly")
        XCTAssertThrowsError(try img.writePNG(to: "/nonexistent-dir/x.png")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent-dir/x.png"), "\(error)")
        }
        XCTAssertThrowsError(try Image(width: 0, height: 10))
    }

    func testPNGUnpremultipliesTranslucentPixels() throws {
        let img = try Image(width: 1, height: 1)
        img.pixelBuffer.data.storeBytes(of: UInt32(0x80_40_20_00), as: UInt32.self)  // 50 % alpha, premultiplied
        let path = NSTemporaryDirectory() + "modalkit-alpha-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try img.writePNG(to: path)
        // Straight RGBA in the file: red = 0x40 × 255 / 0x80 ≈ 0x80; reading back premultiplies again.
        XCTAssertPixel(try Image(pngFile: path).pixel(x: 0, y: 0), 0x80_40_20_00, tolerance: 1)
    }
}
