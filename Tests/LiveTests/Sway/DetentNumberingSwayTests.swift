// One detent numbering, proven against the live window: under headless sway a bottom sheet with
// detents 0.5 and 0.9 (480 × 800 window) is dragged with a real pointer (wayvnc + vncdo) onto its
// larger detent and back; the `detent N` event each drag logs names the picture: the window equals
// `modal-demo render --detent N` of the same size (±2 per channel), N from 1 for the smallest.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class DetentNumberingSwayTests: CompositorTestCase {
    private let width = 480, height = 800
    private let options = ["--style", "bottom-sheet", "--style-option", "detents=0.5,0.9"]
    private var directory = ""

    override func setUpWithError() throws {
        directory = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-detent")
    }

    override func tearDown() {
        removeTree(directory)
        super.tearDown()
    }

    /// `modal-demo render --detent number` of the window's size.
    private func rendered(detent number: Int) throws -> RGBImage {
        let png = directory + "/detent-\(number).png"
        let r = try ChildProcess.run([try DemoProcess.executablePath, "render"] + options
                                     + ["--size", "\(width)x\(height)", "--detent", String(number), "--output", png],
                                     environment: harnessEnvironment(["MODALKIT_REDUCED_MOTION": nil]), timeout: 60)
        guard r.status == .exited(0) else { throw HarnessError("render --detent \(number) failed (\(r.status)): \(r.stderr)") }
        defer { unlink(png) }
        return try RGBImage.loadPNG(path: png)
    }

    /// A slow drag from (`x`, `y0`) by `distance` pixels (+ down), held still 0.25 s before the
    /// release (no release velocity: the sheet settles on the nearest detent), then the pointer
    /// parked off the window.
    private func drag(_ vnc: VNCInput, _ sway: HeadlessSway, x: Int, from y0: Int, by distance: Int) throws {
        var c = ["move", String(x), String(y0), "mousedown", "1"]
        for i in 1...20 { c += ["pause", "0.03", "move", String(x), String(y0 + distance * i / 20)] }
        try vnc.send(c + ["pause", "0.25", "mouseup", "1", "move", String(sway.parkingSpot.x), String(sway.parkingSpot.y)])
    }

    /// The number of the one `detent N` event since `mark`.
    private func detentNumber(_ demo: DemoProcess, since mark: Int, _ what: String) -> Int? {
        guard expectEvent(demo, "detent", since: mark, what) != nil else { return nil }
        let events = demo.events("detent", since: mark)
        XCTAssertEqual(events.count, 1, "\(what): \(events)")
        return events.first.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) }
    }

    func testTheDetentAnEventNamesIsWhatRenderDetentNDraws() throws {
        let sway = try startSway(windowWidth: width, windowHeight: height)
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(options, in: sway)
        let w = window.rect
        XCTAssertEqual(w.width, width)
        XCTAssertEqual(w.height, height)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }

        // Up from the 0.5 detent (top at 400) by 300: it settles on the larger detent, 0.9.
        mark = demo.mark()
        try drag(vnc, sway, x: w.x + width / 2, from: w.y + 500, by: -300)
        guard let up = detentNumber(demo, since: mark, "drag up to the larger detent") else { return }
        XCTAssertEqual(up, 2, "the larger of two detents is detent 2")
        var shot = try sway.stableScreenshot().cropped(to: w)
        var expected = try rendered(detent: up)
        var diff = differences(shot, expected, tolerance: 2)
        XCTAssertEqual(diff, [], "the window after `detent \(up)` vs render --detent \(up)")
        if !diff.isEmpty { keep(shot, "live-detent-\(up)"); keep(expected, "render-detent-\(up)") }

        // Down from near its top (80) by 300: back on the smaller one.
        mark = demo.mark()
        try drag(vnc, sway, x: w.x + width / 2, from: w.y + 150, by: 300)
        guard let down = detentNumber(demo, since: mark, "drag down to the smaller detent") else { return }
        XCTAssertEqual(down, 1, "the smaller of two detents is detent 1")
        shot = try sway.stableScreenshot().cropped(to: w)
        expected = try rendered(detent: down)
        diff = differences(shot, expected, tolerance: 2)
        XCTAssertEqual(diff, [], "the window after `detent \(down)` vs render --detent \(down)")
        if !diff.isEmpty { keep(shot, "live-detent-\(down)"); keep(expected, "render-detent-\(down)") }
    }
}
