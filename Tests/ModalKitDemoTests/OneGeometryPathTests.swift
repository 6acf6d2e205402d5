import ModalKitHostFuzzSupport
import XCTest
import ModalKitDemo
import ModalKit

/// The live frame (the window, driven by real times) and the offline frame (`modal-demo render`,
/// a phase and a linear fraction) come from one function
/// (`PresentationSnapshot.make`): at every tenth of a transition they give the same snapshot and
/// the same pixels, for every built-in style, with a spring curve that overshoots
/// (`spring(300,10)`: stiffness 300, damping 10 — underdamped, so the eased progress passes 1),
/// and the dim never gets darker than its presented alpha (inset-centered 0.5, bottom-sheet 0.4).
final class OneGeometryPathTests: XCTestCase {
    let fractions = (0...10).map { Double($0) / 10 }

    private func check(_ styleCase: BuiltinStyle, reducesMotion: Bool) throws {
        let style = try styleCase.make(options: ["curve": "spring(300,10)"])
        let presentedDim = style.dimmingAppearance(1, presentContext).alpha
        XCTAssertTrue(fractions.contains { style.timingCurve(presentContext).value(at: $0) > 1.01 },
                      "\(styleCase.rawValue): the curve overshoots at one of the tested fractions")
        let d = style.transitionDuration(presentContext)
        for phase in [TransitionPhase.present, .dismiss] {
            for p in fractions {
                // Live: a fresh scene presented at t = 0 (and, for a dismissal, dismissed at t = 2d
                // once presented), rendered at the time that is fraction p into the phase.
                let live = try DemoScene(style: try styleCase.make(options: ["curve": "spring(300,10)"]))
                live.reducesMotion = reducesMotion
                live.layout(containerSize: Size(width: 400, height: 600), scale: 1)
                live.present(now: 0)
                var start = 0.0
                if phase == .dismiss {
                    start = 2 * d
                    let first = try Image(width: 400, height: 600)  // kept alive through the render
                    withExtendedLifetime(first) { _ = live.render(into: first.pixelBuffer, now: start, bufferAge: 0) }
                    XCTAssertEqual(live.state, .presented)
                    live.dismiss(now: start)
                }
                let now = start + p * d
                live.update(now: now)   // the window's frame: update, then the pure queries
                let liveSnap = live.host.snapshot(at: now)
                let liveImage = try Image(width: 400, height: 600)
                live.render(into: liveImage.pixelBuffer, now: now, bufferAge: 0)

                let offline = try DemoScene(style: try styleCase.make(options: ["curve": "spring(300,10)"]))
                offline.reducesMotion = reducesMotion
                offline.layout(containerSize: Size(width: 400, height: 600), scale: 1)
                let offSnap = offline.host.snapshot(phase: phase, fraction: p)
                let offImage = try Image(width: 400, height: 600)
                offline.renderSnapshot(into: offImage.pixelBuffer, phase: phase, fraction: p)

                let what = "\(styleCase.rawValue) \(phase) p=\(p) reduced=\(reducesMotion)"
                if p == 1 && phase == .dismiss {
                    // The dismissal has completed: the live frame shows no modal layer; the
                    // offline frame shows its last moment (dim 0, the view at its start place).
                    XCTAssertFalse(liveSnap.isModalLayerShown, what)
                    XCTAssertEqual(offSnap.dim.alpha, 0, accuracy: 1e-12, what)
                } else {
                    assertClose(liveSnap, offSnap, what)
                    var differ = 0
                    for y in 0..<600 { for x in 0..<400 where liveImage.pixel(x: x, y: y) != offImage.pixel(x: x, y: y) { differ += 1 } }
                    XCTAssertEqual(differ, 0, "\(what): pixels")
                }
                XCTAssertLessThanOrEqual(liveSnap.dim.alpha, presentedDim + 1e-12, what)
                XCTAssertLessThanOrEqual(offSnap.dim.alpha, presentedDim + 1e-12, what)
                XCTAssertGreaterThanOrEqual(offSnap.dim.alpha, 0, what)
            }
        }
    }

    /// Equal up to the last bits of `now − start` divided by the duration (the live fraction is
    /// computed from times, the offline one given).
    private func assertClose(_ a: PresentationSnapshot, _ b: PresentationSnapshot, _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let e = 1e-9
        XCTAssertEqual(a.isModalLayerShown, b.isModalLayerShown, what, file: file, line: line)
        XCTAssertEqual(a.containerBounds, b.containerBounds, what, file: file, line: line)
        XCTAssertEqual(a.presentedFrame, b.presentedFrame, what, file: file, line: line)
        XCTAssertEqual(a.corners, b.corners, what, file: file, line: line)
        XCTAssertEqual(a.dim.color, b.dim.color, what, file: file, line: line)
        XCTAssertEqual(a.dim.alpha, b.dim.alpha, accuracy: e, what, file: file, line: line)
        XCTAssertEqual(a.presentedTransform.translation.x, b.presentedTransform.translation.x, accuracy: e, what, file: file, line: line)
        XCTAssertEqual(a.presentedTransform.translation.y, b.presentedTransform.translation.y, accuracy: e, what, file: file, line: line)
        XCTAssertEqual(a.presentedTransform.scale, b.presentedTransform.scale, accuracy: e, what, file: file, line: line)
        XCTAssertEqual(a.presentedTransform.alpha, b.presentedTransform.alpha, accuracy: e, what, file: file, line: line)
    }

    func testLiveEqualsOfflineForEveryBuiltinStyleWithAnOvershootingSpring() throws {
        for style in BuiltinStyle.allCases { try check(style, reducesMotion: false) }
    }

    func testLiveEqualsOfflineUnderReducedMotion() throws {
        for style in BuiltinStyle.allCases { try check(style, reducesMotion: true) }
    }

    /// At an overshooting fraction the presented view is past its frame (the spring is drawn) while
    /// the dim is exactly its presented alpha: inset-centered's 0.5, as a pixel of the background.
    func testOvershootMovesTheCardButTheDimStaysAtItsPresentedAlpha() throws {
        let style = try BuiltinStyle.insetCentered.make(options: ["curve": "spring(300,10)"])
        let p = fractions.first { style.timingCurve(presentContext).value(at: $0) > 1.01 }!
        let scene = try DemoScene(style: style)
        scene.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        let snap = scene.host.snapshot(phase: .present, fraction: p)
        XCTAssertEqual(snap.dim.alpha, 0.5, accuracy: 1e-12)
        XCTAssertLessThan(snap.presentedRect.minY, snap.presentedFrame.minY, "the card overshoots upwards, past its frame")
    }
}

