import ModalKitAdaptiveStyle
import ModalKitBottomSheetStyle
import ModalKitInsetCenteredStyle
import ModalKitDemo
import ModalKit
import ModalKitHostFuzzSupport
import XCTest

/// A scene laid out at W×H points and `scale`, with its events recorded.
final class SceneFixture {
    let scene: DemoScene
    let width: Int, height: Int, scale: Int

    init(_ style: PresentationStyle, width: Int, height: Int, scale: Int = 1) throws {
        self.width = width; self.height = height; self.scale = scale
        let box = EventBox()
        scene = try DemoScene(style: style) { box.events.append($0) }
        self.box = box
        scene.layout(containerSize: Size(width: Double(width), height: Double(height)), scale: scale)
    }
    private let box: EventBox
    var recorded: [SceneEvent] { box.events }

    func newImage() throws -> Image { try Image(width: width * scale, height: height * scale) }

    func snapshot(_ phase: TransitionPhase, _ progress: Double) throws -> Image {
        let image = try newImage()
        scene.renderSnapshot(into: image.pixelBuffer, phase: phase, fraction: progress)
        return image
    }

    /// The presenting view alone (nothing presented), through the live path of a fresh scene.
    func unpresented() throws -> Image {
        let image = try newImage()
        let s = try DemoScene(style: scene.style)
        s.layout(containerSize: Size(width: Double(width), height: Double(height)), scale: scale)
        s.render(into: image.pixelBuffer, now: 0, bufferAge: 0)
        return image
    }

    @discardableResult
    func render(now: Double, age: Int = 0, into image: Image) -> [PixelRect] {
        scene.render(into: image.pixelBuffer, now: now, bufferAge: age)
    }
}

final class EventBox { var events: [SceneEvent] = [] }

/// Asserts every channel of `actual` is within `tolerance` of `expected` (premultiplied ARGB).
func XCTAssertPixel(_ actual: UInt32, _ expected: UInt32, tolerance: Int = 2, _ message: @autoclosure () -> String = "",
                    file: StaticString = #filePath, line: UInt = #line) {
    XCTAssert(channelsClose(actual, expected, tolerance: tolerance),
              "pixel \(hex(actual)) != expected \(hex(expected)) ±\(tolerance) \(message())", file: file, line: line)
}

func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16, uppercase: true) }

/// `p` with all four premultiplied components multiplied by `f` (what an OVER of black at alpha
/// 1 − f does to an opaque pixel).
func scaledPixel(_ p: UInt32, by f: Double) -> UInt32 {
    let c = p.argbComponents
    func s(_ v: Int) -> UInt32 { UInt32((Double(v) * f).rounded()) }
    return UInt32(c.a) << 24 | s(c.r) << 16 | s(c.g) << 8 | s(c.b)
}

/// Whether every premultiplied ARGB channel of `a` is within `tolerance` of `b`'s.
func channelsClose(_ a: UInt32, _ b: UInt32, tolerance: Int) -> Bool {
    let x = a.argbComponents, y = b.argbComponents
    return abs(x.a - y.a) <= tolerance && abs(x.r - y.r) <= tolerance && abs(x.g - y.g) <= tolerance
        && abs(x.b - y.b) <= tolerance
}

/// Card white, the presented view's background.
let cardWhite: UInt32 = 0xFFFF_FFFF

extension LoadablePresentationStyle {
    /// The style with its declared defaults overridden by `options` (keys and values as
    /// `--style-option` gives them).
    static func make(_ options: [String: String] = [:]) throws -> PresentationStyle {
        try makeStyle(options: StyleOptions(options, declared: Self.options))
    }
}

/// The context of a presentation in an unknown container: for the hooks whose answer does not
/// depend on the container (duration, curve, a solid dim).
let presentContext = TransitionContext(phase: .present, containerBounds: .zero)
