import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// `SceneFontLoad` loads the scene's fonts on a thread while a window connects and makes its first
/// frame (the scene waits for them at its first text): a scene made with it must draw exactly what
/// a scene that loaded its fonts itself draws (the same faces at the same pixel sizes), presented
/// and not, at scale 1 (the load's) and at another scale (a set made after the load ends).
final class SceneFontLoadTests: XCTestCase {
    private func frame(_ scene: DemoScene, presented: Bool, scale: Double = 1) throws -> [UInt32] {
        scene.layout(containerSize: Size(width: 240, height: 180), scale: scale)
        let image = try Image(width: Int(240 * scale), height: Int(180 * scale))
        if presented {
            scene.renderSnapshot(into: image.pixelBuffer, phase: .present, fraction: 1)
        } else {
            scene.render(into: image.pixelBuffer, now: 0, bufferAge: 0)
        }
        var pixels: [UInt32] = []
        for y in 0..<image.height { for x in 0..<image.width { pixels.append(image.pixel(x: x, y: y)) } }
        return pixels
    }

    private func scene(on load: SceneFontLoad) -> DemoScene {
        DemoScene(styleForLevel: { _ in try! BuiltinStyle.insetCentered.make() }, fonts: load,
                  onFontFailure: { error in fatalError("the test machine has no fonts: \(error)") }) { _, _ in }
    }

    func testASceneOnFontsLoadedOnAThreadDrawsWhatAnyOtherDraws() throws {
        for (presented, scale) in [(false, 1.0), (true, 1.0), (false, 2.0), (true, 1.5)] {
            let own = try DemoScene(style: try BuiltinStyle.insetCentered.make())
            let threaded = scene(on: SceneFontLoad())
            let a = try frame(own, presented: presented, scale: scale), b = try frame(threaded, presented: presented, scale: scale)
            XCTAssertEqual(a.count, b.count)
            XCTAssertTrue(a == b, "presented \(presented), scale \(scale): \(zip(a, b).filter { $0 != $1 }.count) pixels differ")
            // The title (dark text) is drawn: not a blank frame that would equal any other blank one.
            XCTAssertGreaterThan(Set(b).count, 20)
        }
    }

    /// Cancelled before use: the thread has ended and a scene can still be made on it (the fonts
    /// are loaded then); cancelling twice is harmless.
    func testCancelJoinsAndTheLoadStaysUsable() throws {
        let load = SceneFontLoad()
        load.cancel()
        load.cancel()
        let scene = scene(on: load)
        XCTAssertEqual(try frame(scene, presented: false), try frame(DemoScene(style: try BuiltinStyle.insetCentered.make()), presented: false))
    }
}
