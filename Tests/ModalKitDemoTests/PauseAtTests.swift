import ModalKitHostFuzzSupport
import XCTest
import ModalKitDemo
import ModalKit

/// `--pause-at F` (``DemoScene/pauseFraction``): a presentation stops at linear fraction F and
/// stays there — the live frame, however late it is drawn, is exactly `render --progress F`'s —
/// with nothing animating (no frames asked for) and one `paused` event; a dismissal runs back
/// from F on a clock that continues where it stood; F = 1 pauses nothing.
final class PauseAtTests: XCTestCase {
    private let fractions = (0...9).map { Double($0) / 10 }

    private func fixture(_ style: BuiltinStyle, _ options: [String: String] = [:], pause: Double) throws -> SceneFixture {
        let f = try SceneFixture(try style.make(options: options), width: 400, height: 600)
        f.scene.pauseFraction = pause
        return f
    }

    private func check(_ style: BuiltinStyle, _ options: [String: String] = [:], reducesMotion: Bool = false) throws {
        for p in fractions {
            let what = "\(style.rawValue) \(options) F=\(p) reduced=\(reducesMotion)"
            let f = try fixture(style, options, pause: p)
            f.scene.reducesMotion = reducesMotion
            let d = f.scene.style.transitionDuration(presentContext)
            f.scene.handle(.key(.activate, pressed: true), now: 100)   // Return on Present
            XCTAssertEqual(f.scene.state, .presenting, what)
            let live = try f.newImage()
            // Frames before, at and long after the pause all end up at F.
            f.render(now: 100 + 0.5 * p * d, into: live)
            XCTAssertEqual(f.scene.isPaused, p == 0, "\(what): paused only once F is reached")
            f.render(now: 100 + 3 * d, into: live)
            XCTAssertTrue(f.scene.isPaused, what)
            XCTAssertFalse(f.scene.isAnimating, "\(what): nothing moves while paused")
            XCTAssertEqual(f.scene.state, .presenting, what)
            f.render(now: 160, into: live)
            let offline = try f.snapshot(.present, p)
            XCTAssertTrue(samePixels(live, offline), "\(what): the paused frame is render --progress F")
            XCTAssertEqual(f.recorded, [.activated, .presenting, .paused], what)
        }
    }

    func testEveryBuiltinStylePausesExactlyAtTheFraction() throws {
        for style in BuiltinStyle.allCases { try check(style) }
    }

    func testAnOvershootingSpringPausesExactlyAtTheFraction() throws {
        try check(.insetCentered, ["curve": "spring(300,10)"])
    }

    /// Under reduced motion the cross-fade stands still too: the frame is `render --reduced-motion --progress F`.
    func testUnderReducedMotionTheCrossFadePausesAtTheFraction() throws {
        for style in BuiltinStyle.allCases { try check(style, reducesMotion: true) }
    }

    func testEscapeDismissesFromThePauseAndTheClockGoesOnWhereItStood() throws {
        let f = try fixture(.insetCentered, pause: 0.6)
        let d = 0.35
        f.scene.present(now: 10)
        let image = try f.newImage()
        f.render(now: 11, into: image)                      // paused at 0.6 (scene time 10 + 0.6 d)
        XCTAssertTrue(f.scene.isPaused)
        f.scene.handle(.key(.escape, pressed: true), now: 50)
        XCTAssertEqual(f.scene.state, .dismissing)
        XCTAssertFalse(f.scene.isPaused)
        XCTAssertTrue(f.scene.isAnimating)
        // 0.3 d later the fraction is 0.3: the dismissal's frame at 1 − 0.3 = 0.7.
        f.render(now: 50 + 0.3 * d, into: image)
        XCTAssertEqual(f.scene.host.fraction(at: 10 + 0.6 * d + 0.3 * d), 0.3, accuracy: 1e-9)
        XCTAssertTrue(samePixels(image, try f.snapshot(.dismiss, 0.7)), "dismissal at 0.7")
        f.render(now: 50 + 0.6 * d + 0.01, into: image)
        XCTAssertEqual(f.scene.state, .dismissed)
        XCTAssertEqual(f.recorded, [.presenting, .paused, .dismissing, .dismissed])
        // The next presentation pauses again.
        f.scene.present(now: 60)
        f.render(now: 61, into: image)
        XCTAssertTrue(f.scene.isPaused)
        XCTAssertTrue(samePixels(image, try f.snapshot(.present, 0.6)))
    }

    func testATapOnTheDimDismissesFromThePause() throws {
        let f = try fixture(.insetCentered, pause: 0.5)
        f.scene.present(now: 0)
        let image = try f.newImage()
        f.render(now: 1, into: image)
        XCTAssertTrue(f.scene.isPaused)
        f.scene.handle(.pointerMotion(Point(x: 200, y: 40)), now: 2)   // above the card: the dim
        f.scene.handle(.pointerButton(pressed: true), now: 2)
        f.scene.handle(.pointerButton(pressed: false), now: 2.02)
        XCTAssertEqual(f.recorded, [.presenting, .paused, .dismissing])
    }

    func testPauseAtOnePausesNothing() throws {
        let f = try fixture(.bottomSheet, pause: 1)
        f.scene.present(now: 0)
        let image = try f.newImage()
        f.render(now: 1, into: image)
        XCTAssertEqual(f.scene.state, .presented)
        XCTAssertFalse(f.scene.isPaused)
        XCTAssertEqual(f.recorded, [.presenting, .presented])
        XCTAssertTrue(samePixels(image, try f.snapshot(.present, 1)))
    }
}
