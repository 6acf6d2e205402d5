import ModalKit
import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// A style of the inset-centered reference (docs/design.md): frame inset 20 × 110, black dim 0.5 ×
/// progress; optionally a receding presenting view, or a presented view at half alpha mid-way.
func insetStyle(recedes: Bool = false, halfAlpha: Bool = false) -> PresentationStyle {
    let style = PresentationStyle()
    style.frameOfPresentedView = { c in
        Rect(x: 20, y: 110, width: c.containerBounds.width - 40, height: c.containerBounds.height - 220)
    }
    style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.5 * progress) }
    style.presentedViewTransform = { progress, _, _ in halfAlpha && progress < 1 ? ViewTransform(alpha: 0.5) : .identity }
    style.presentingViewAppearance = { progress, _ in
        recedes ? PresentingViewAppearance(transform: ViewTransform(scale: 1 - 0.1 * progress)) : .identity
    }
    return style
}

/// Content of one opaque colour.
final class Solid: PresentationContent {
    let color: Color
    private(set) var invalidation = ContentInvalidation.all
    init(_ rgb: UInt32) { color = Color(rgb: rgb) }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: color)
        invalidation = .none
    }
    func handle(_ input: ContentInput, now: Double) -> Bool { false }
}

/// A layer that records what it was asked to show; its images are real memory.
final class RecordingLayer: CompositedLayer {
    enum Shown: Equatable {
        case solid(UInt32, x: Int, y: Int, width: Int, height: Int)
        case image(x: Int, y: Int, visible: [Int], scale: Double)
        case stretched(source: [Int], width: Int, height: Int)
    }
    var images: [Image] = []
    var shown: Shown?
    var holdsEveryBuffer = false
    var isShown: Bool { shown != nil }
    private(set) var hasImage = false
    var drawn = 0

    func imageTarget(width: Int, height: Int) throws -> DrawTarget? {
        guard !holdsEveryBuffer else { return nil }
        let image = try Image(width: width, height: height)
        images.append(image)
        drawn += 1
        hasImage = true
        let b = image.pixelBuffer
        return DrawTarget(data: b.data, width: width, height: height, stride: b.stride, scale: 1, age: 0, time: 0)
    }
    func showSolid(color: UInt32, x: Int, y: Int, width: Int, height: Int) throws {
        shown = .solid(color, x: x, y: y, width: width, height: height)
    }
    func showImage(x: Int, y: Int, visible: Rect, scale: Double) {
        shown = .image(x: x, y: y, visible: [visible.minX, visible.minY, visible.width, visible.height].map { Int($0) }, scale: scale)
    }
    func showStretchedImage(source: PixelRect, x: Int, y: Int, width: Int, height: Int) {
        shown = .stretched(source: [source.x, source.y, source.width, source.height], width: width, height: height)
    }
    func hide() {
        shown = nil
        hasImage = false
    }
}

/// The window's buffer, offscreen.
final class RecordingFrame: ComposedFrame {
    let base: Image
    var bufferScale: Int
    var scale: Double
    var mustDrawBase = true
    var baseDamage: [PixelRect] = []
    var baseDrawn = 0

    /// `bufferScale` 0 is the fractional path at `scale`.
    init(width: Int, height: Int, bufferScale: Int = 1, scale: Double? = nil) throws {
        base = try Image(width: width, height: height)
        self.bufferScale = bufferScale
        self.scale = scale ?? Double(max(1, bufferScale))
    }

    func baseTarget() throws -> DrawTarget? {
        baseDrawn += 1
        let b = base.pixelBuffer
        return DrawTarget(data: b.data, width: b.width, height: b.height, stride: b.stride, scale: 1, age: 0, time: 0)
    }

    /// The next frame: nothing drawn yet, no damage.
    func next() {
        mustDrawBase = false
        baseDamage = []
        baseDrawn = 0
    }
}

/// A composer over recording layers, and a host of the inset-centered reference in 400 × 600
/// points at scale 1 over a blue root, presenting an orange card.
class LayerComposerTestCase: XCTestCase {
    var layers: [RecordingLayer] = []
    lazy var composer = LayerComposer { [unowned self] in
        let l = RecordingLayer()
        layers.append(l)
        return l
    }
    let root = Solid(0x1E40AF), card = Solid(0xFF8C00)

    func host(_ style: PresentationStyle = insetStyle()) -> PresentationHost {
        let h = PresentationHost(style: style, presenting: root)
        h.layout(containerSize: Size(width: 400, height: 600), scale: 1)
        return h
    }
}
