import ModalDemoKit
import ModalKit
import XCTest

/// `SceneFontLoad` loads the scene's fonts on a thread while a window connects: a scene made with
/// it must draw exactly what a scene that loaded its fonts itself draws (the same faces at the
/// same pixel sizes), presented and not.
final class SceneFontLoadTests: XCTestCase {
    private func frame(_ scene: DemoScene, presented: Bool) throws -> [UInt32] {
        scene.layout(containerSize: Size(width: 480, height: 360), scale: 1)
        let image = try Image(width: 480, height: 360)
        if presented {
            scene.renderSnapshot(into: image.pixelBuffer, phase: .present, fraction: 1)
        } else {
            scene.render(into: image.pixelBuffer, now: 0, bufferAge: 0)
        }
        var pixels: [UInt32] = []
        for y in 0..<360 { for x in 0..<480 { pixels.append(image.pixel(x: x, y: y)) } }
        return pixels
    }

    func testASceneOnFontsLoadedOnAThreadDrawsWhatAnyOtherDraws() throws {
        for presented in [false, true] {
            let own = try DemoScene(style: try BuiltinStyle.insetCentered.make())
            let threaded = try DemoScene(styleForLevel: { _ in try! BuiltinStyle.insetCentered.make() }, fonts: SceneFontLoad()) { _, _ in }
            let a = try frame(own, presented: presented), b = try frame(threaded, presented: presented)
            XCTAssertEqual(a.count, b.count)
            XCTAssertTrue(a == b, "presented \(presented): \(zip(a, b).filter { $0 != $1 }.count) pixels differ")
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
        let scene = try DemoScene(styleForLevel: { _ in try! BuiltinStyle.insetCentered.make() }, fonts: load) { _, _ in }
        XCTAssertEqual(try frame(scene, presented: false), try frame(DemoScene(style: try BuiltinStyle.insetCentered.make()), presented: false))
    }
}
