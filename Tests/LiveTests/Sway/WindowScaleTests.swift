// Output scale (wl_output.scale, wl_surface.set_buffer_scale): on an output of integer scale 2 the
// surface uses buffer scale 2 — buffers twice the logical size, drawn at that resolution (not
// upscaled by the compositor).
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class WindowScaleTests: CompositorTestCase {
    func testOnAScaleTwoOutputTheWindowIsDrawnAtTwiceItsLogicalSize() throws {
        let sway = try startSway(windowWidth: 400, windowHeight: 300, scale: 2)
        let (demo, window) = try launchDemo([], in: sway)
        XCTAssertEqual(demo.events("configure").last, "configure 400x300", "configure sizes are logical (points)")
        let shot = try sway.stableScreenshot()
        keep(shot, "scale-2")
        XCTAssertEqual(shot.width, sway.width * 2, "grim captures the scale-2 output at its pixel size")
        let live = shot.cropped(to: PixelBox(x: window.rect.x * 2, y: window.rect.y * 2,
                                             width: window.rect.width * 2, height: window.rect.height * 2))

        // What the window must show: `render` at 400x300 points, scale 2 (800x600 pixels).
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-scale")
        defer { removeTree(dir) }
        let png = dir + "/scale2.png"
        let r = try ChildProcess.run([try DemoProcess.executablePath, "render", "--size", "400x300", "--scale", "2",
                                      "--progress", "0", "--output", png],
                                     environment: harnessEnvironment([:]), timeout: 60)
        guard r.status == .exited(0) else { return XCTFail("render failed (\(r.status)): \(r.stderr)") }
        let rendered = try RGBImage.loadPNG(path: png)
        keep(rendered, "render-scale-2")
        XCTAssertEqual(differences(live, rendered, tolerance: 2), [],
                       "the scale-2 window equals render --scale 2 (a scale-1 buffer upscaled would blur the text)")

        // And it is not what a scale-1 buffer looks like: render at scale 1, doubled, differs.
        let png1 = dir + "/scale1.png"
        let r1 = try ChildProcess.run([try DemoProcess.executablePath, "render", "--size", "400x300", "--scale", "1",
                                       "--progress", "0", "--output", png1],
                                      environment: harnessEnvironment([:]), timeout: 60)
        guard r1.status == .exited(0) else { return XCTFail("render failed (\(r1.status)): \(r1.stderr)") }
        let small = try RGBImage.loadPNG(path: png1)
        XCTAssertEqual(small.width * 2, live.width)
        var doubled = [UInt8](repeating: 0, count: live.width * live.height * 3)
        for y in 0..<live.height {
            for x in 0..<live.width {
                let p = small[x / 2, y / 2]
                let i = (y * live.width + x) * 3
                doubled[i] = p.r; doubled[i + 1] = p.g; doubled[i + 2] = p.b
            }
        }
        XCTAssertFalse(differences(live, RGBImage(width: live.width, height: live.height, bytes: doubled), tolerance: 2).isEmpty,
                       "a scale-1 frame doubled must not pass for the scale-2 window")
    }
}
