// Drives a DemoScene through present + dismiss at 60 Hz the way modal-demo's window does, but
// offscreen: synthetic frame times, three buffers round-robin with their buffer ages, and for
// sub-surface frames the window's own policy (ModalKitWayland's LayerComposer) over offscreen layers.
import ModalKitBenchSupport
import ModalKitDemo
import ModalKit
import ModalKitWayland
import ModalKitWaylandClient

/// One rendered frame.
struct FrameSample {
    /// Wall time of `DemoScene.render`, seconds.
    var seconds: Double
    /// Sum of the areas of the damage rectangles `render` returned (what goes to
    /// `wl_surface.damage_buffer`), buffer pixels.
    var damagedPixels: Int
    /// Pixels the renderer repainted: the damage plus, for buffer age n, the damage of the n − 1
    /// frames before (`DemoScene.lastPaintedPixelCount`).
    var paintedPixels: Int
    /// Heap allocations (and bytes requested) in the whole process during `render`.
    var allocations: UInt64
    var allocatedBytes: UInt64
    /// CPU time of the thread over the same window, seconds.
    var cpuSeconds: Double = 0
}

/// Why a benchmark could not run (exit status 1).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}

final class SceneDriver {
    /// Frames per second of the simulated display.
    static let frameRate = 60.0
    /// No transition of a sane style takes this many frames (10 minutes at 60 Hz); reaching it
    /// means the style never finishes (a plugin bug), reported instead of hanging.
    static let frameLimit = 36_000
    static let bufferCount = 3

    let scene: DemoScene
    let size: BenchSize
    /// How frames are made: `.pixman` renders the whole frame (`DemoScene.render`); `.subsurface`
    /// does the client's share of a sub-surface frame only, through modal-demo's own policy
    /// (``LayerComposer``) over offscreen layers: the frame's layer values, the presenting view only
    /// when it changed, the presented view's own buffer only when its content or size changed (or
    /// per frame for an alpha or a scale), and the whole frame by pixman where the layers cannot
    /// show it (a stack, a receding presenting view, a diagonal gradient dim); the compositor's
    /// share (blending the layers) is not the client's work.
    let compositing: BenchCompositing
    private let composer: LayerComposer
    private let composed = OffscreenFrame()
    private let buffers: [Image]
    private let targets: [PixelBuffer]
    private var ring = BufferRing(count: SceneDriver.bufferCount)
    /// The time of the last frame, seconds (synthetic monotonic clock).
    private(set) var now = 0.0
    /// Heap allocations made by `present`/`dismiss` calls (outside frames) so far.
    private(set) var transitionCallAllocations: UInt64 = 0

    /// A scene for `style` at `size` points, scale 1, with one frame rendered (the presenting view,
    /// dismissed) into the first buffer.
    /// - Throws: `SceneError` (no font), `ImageError` (no memory for the buffers).
    init(style: PresentationStyle, size: BenchSize, compositing: BenchCompositing = .pixman,
         content: PresentedContentChoice = .card) throws {
        scene = try DemoScene(style: style)
        scene.presentsList = content == .list
        self.size = size
        self.compositing = compositing
        composer = LayerComposer { OffscreenLayer() }
        scene.layout(containerSize: Size(width: Double(size.width), height: Double(size.height)), scale: 1)
        buffers = try (0..<SceneDriver.bufferCount).map { _ in try Image(width: size.width, height: size.height) }
        targets = buffers.map(\.pixelBuffer)
        _ = frame(at: 0)
        // The scene creates its layer caches itself and draws nothing when that fails (no memory):
        // an empty frame would make the figures meaningless. The presenting view is opaque.
        guard targets[0].pixel(x: 0, y: 0) >> 24 == 0xff else {
            throw BenchFailure(description: "the scene drew nothing at \(size) (out of memory for its layer caches?)")
        }
    }

    /// Renders the frame for time `t` into the next buffer of the ring, timing it and counting the
    /// allocations it makes. Inside the timed window there is only `DemoScene.render`; `input`
    /// (the input events that arrived since the last frame) runs before it, inside the counted
    /// window but outside the timed one.
    @inline(never)
    func frame(at t: Double, input: () -> Void = {}) -> FrameSample {
        let (index, age) = ring.next()
        let target = targets[index]
        let allocations0 = AllocationCounter.count, bytes0 = AllocationCounter.bytes
        input()
        let cpu0 = threadCPUSeconds()
        let start = monotonicSeconds()
        var damaged = 0, painted = 0
        scene.update(now: t)
        if compositing == .pixman {
            let damage = scene.render(into: target, bufferAge: age)
            for r in damage { damaged += r.area }
            painted = scene.lastPaintedPixelCount
        } else {
            composed.begin(target, age: age, mustDrawBase: t == 0)
            let result = composer.compose(scene.host, into: composed, width: size.width, height: size.height)
            for r in composed.baseDamage { damaged += r.width * r.height }
            painted = result.paintedPixels
        }
        let end = monotonicSeconds()
        let cpu1 = threadCPUSeconds()
        let allocations1 = AllocationCounter.count, bytes1 = AllocationCounter.bytes
        now = t
        return FrameSample(seconds: end - start, damagedPixels: damaged, paintedPixels: painted,
                           allocations: allocations1 - allocations0, allocatedBytes: bytes1 - bytes0,
                           cpuSeconds: cpu1 - cpu0)
    }

    /// Starts a presentation (`present: true`) or a dismissal at the current time and renders
    /// every frame at t = start + k/60, k = 1, 2, …, until the transition has finished (the last
    /// frame shows the end state), passing each to `body`.
    /// - Throws: `BenchFailure` when the transition does not end within `frameLimit` frames.
    func transition(present: Bool, another: Bool = false, _ body: (FrameSample) -> Void) throws {
        let start = now
        let before = AllocationCounter.count
        if another { scene.presentAnother(now: start) } else if present { scene.present(now: start) } else { scene.dismiss(now: start) }
        transitionCallAllocations += AllocationCounter.count - before
        var k = 0
        repeat {
            k += 1
            guard k <= SceneDriver.frameLimit else {
                throw BenchFailure(description: "the transition did not finish within \(SceneDriver.frameLimit) frames")
            }
            body(frame(at: start + Double(k) / SceneDriver.frameRate))
        } while scene.isAnimating
    }

    /// Pointer motion events per frame in a scripted drag: a 180 Hz pointer under a 60 Hz
    /// display, so each frame coalesces three motions (the host takes each at once; the window
    /// draws once per frame callback).
    static let motionsPerFrame = 3

    /// A scripted pointer drag on the presented view (which must be presented and at rest): press
    /// at its centre, move down by `fraction` of its travel to the dismissed position (from its top
    /// to the container's bottom edge) over 0.5 s (30 frames, three motions
    /// each), hold still for 10 frames (the release velocity falls to 0), release, and render every
    /// frame until the spring has settled (back on its detent, or dismissed). Each frame's sample
    /// counts the allocations of its input events and its render.
    func drag(fraction: Double, _ body: (FrameSample) -> Void) throws {
        guard let rect = scene.host.presentedViewRect(at: now) else {
            throw BenchFailure(description: "scripted drag: nothing presented")
        }
        // Both built-in styles are dragged down: the travel to the dismissed position is from the
        // view's top to the container's bottom edge.
        let x = rect.midX, y0 = rect.midY, distance = (scene.containerSize.height - rect.minY) * fraction
        let frames = 30, dt = 1 / SceneDriver.frameRate
        let before = AllocationCounter.count
        scene.handle(.pointerMotion(Point(x: x, y: y0)), now: now)
        scene.handle(.pointerButton(pressed: true), now: now)
        transitionCallAllocations += AllocationCounter.count - before
        var t = now
        for k in 1...frames {
            let t0 = t
            t += dt
            body(frame(at: t) {
                for j in 1...SceneDriver.motionsPerFrame {
                    let step = Double((k - 1) * SceneDriver.motionsPerFrame + j)
                    let y = y0 + distance * step / Double(frames * SceneDriver.motionsPerFrame)
                    scene.handle(.pointerMotion(Point(x: x, y: y)), now: t0 + dt * Double(j) / Double(SceneDriver.motionsPerFrame))
                }
            })
        }
        for _ in 0..<10 {
            t += dt
            body(frame(at: t))
        }
        var k = 0
        let release = t
        body(frame(at: release + dt) { scene.handle(.pointerButton(pressed: false), now: release) })
        t = release + dt
        try framesWhileAnimating(time: &t, frames: &k, failure: "the drag's spring did not settle", body)
    }

    /// Renders a frame every 1/60 s after `time` until the scene stops animating, counting them
    /// in `frames`.
    /// - Throws: `BenchFailure` "`failure` within N frames" once `frames` passes the limit.
    private func framesWhileAnimating(time t: inout Double, frames k: inout Int, failure: String,
                                      _ body: (FrameSample) -> Void) throws {
        while scene.isAnimating {
            k += 1
            guard k <= SceneDriver.frameLimit else {
                throw BenchFailure(description: "\(failure) within \(SceneDriver.frameLimit) frames")
            }
            t += 1 / SceneDriver.frameRate
            body(frame(at: t))
        }
    }

    /// A scripted scroll of the presented list (``DemoScene/presentsList``; presented and at rest):
    /// the pointer at the view's centre, touchpad fingers scrolling 2 pt per axis event, three
    /// events per frame for 30 frames (360 pt/s), lifted (`axis_stop`): every frame until the
    /// deceleration rests; then the wheel up by 15 pt a frame until the list is at its top. Each
    /// frame's sample counts the allocations of its input events and its render.
    func scroll(_ body: (FrameSample) -> Void) throws {
        guard let rect = scene.host.presentedViewRect(at: now) else {
            throw BenchFailure(description: "scripted scroll: nothing presented")
        }
        let p = Point(x: rect.midX, y: rect.midY), dt = 1 / SceneDriver.frameRate
        let before = AllocationCounter.count
        scene.handle(.pointerMotion(p), now: now)
        transitionCallAllocations += AllocationCounter.count - before
        var t = now
        for _ in 1...30 {
            let t0 = t
            t += dt
            body(frame(at: t) {
                for j in 1...SceneDriver.motionsPerFrame {
                    scene.handle(.pointerScroll(ScrollInput(delta: Point(x: 0, y: 2), source: .finger)),
                                 now: t0 + dt * Double(j) / Double(SceneDriver.motionsPerFrame))
                }
            })
        }
        let lift = t
        t += dt
        body(frame(at: t) { scene.handle(.pointerScroll(ScrollInput(delta: .zero, source: .finger, phase: .ended)), now: lift) })
        var k = 0
        try framesWhileAnimating(time: &t, frames: &k, failure: "the deceleration did not rest", body)
        guard scene.listScrollOffset > 90 else {
            throw BenchFailure(description: "scripted scroll: the list scrolled \(scene.listScrollOffset) pt, not past the fingers' 90")
        }
        while scene.listScrollOffset > 0 {
            k += 1
            guard k <= SceneDriver.frameLimit else { throw BenchFailure(description: "the wheel did not bring the list back") }
            let t0 = t
            t += dt
            body(frame(at: t) {
                scene.handle(.pointerScroll(ScrollInput(delta: Point(x: 0, y: -15), steps120Y: -120, source: .wheel)), now: t0)
            })
        }
    }

    /// One present, a scripted scroll, a dismiss: the scroll frames only are passed to `body`.
    func scrollCycle(_ body: (FrameSample) -> Void) throws {
        try transition(present: true) { _ in }
        try scroll(body)
        try transition(present: false) { _ in }
    }

    /// One present, a 40 % drag (springs back), a 70 % drag (dismisses): the drag frames only are
    /// passed to `body`.
    func dragCycle(_ body: (FrameSample) -> Void) throws {
        try transition(present: true) { _ in }
        try drag(fraction: 0.4, body)
        try drag(fraction: 0.7, body)
        guard scene.state == .dismissed else {
            throw BenchFailure(description: "scripted drag: a 70 % drag left the style \(scene.state.rawValue)")
        }
    }

    /// One present + dismiss; with `levels` > 1 a stack: level 1 presented, each next level over
    /// the top one (the card's Present another), then every level dismissed from the top.
    func cycle(levels: Int = 1, _ body: (FrameSample) -> Void) throws {
        try transition(present: true, body)
        if levels > 1 { for _ in 2...levels { try transition(present: true, another: true, body) } }
        for _ in 1...max(1, levels) { try transition(present: false, body) }
    }
}

/// A sub-surface layer offscreen (``CompositedLayer``): its images in a ring of
/// ``SceneDriver/bufferCount`` buffers used round-robin like the window's (the compositor may hold
/// the one shown), made anew for a new size; showing and hiding only change its state.
final class OffscreenLayer: CompositedLayer {
    /// Two rings, as the window's layer has two pools: a layer alternating between two image
    /// sizes (a gradient dim's strip) keeps both.
    private var rings: [[Image]] = [[], []]
    private var lastRing = 0
    private var ring = 0
    private(set) var isShown = false
    private(set) var hasImage = false

    func imageTarget(width: Int, height: Int) throws -> DrawTarget? {
        func fits(_ r: [Image]) -> Bool { r.first.map { $0.width == width && $0.height == height } ?? false }
        let r = fits(rings[0]) ? 0 : fits(rings[1]) ? 1 : 1 - lastRing
        if !fits(rings[r]) {
            rings[r] = (0..<SceneDriver.bufferCount).compactMap { _ in try? Image(width: width, height: height) }
        }
        lastRing = r
        let buffers = rings[r]
        guard !buffers.isEmpty else { return nil }
        ring = (ring + 1) % buffers.count
        hasImage = true
        let b = buffers[ring].pixelBuffer
        return DrawTarget(data: b.data, width: b.width, height: b.height, stride: b.stride, scale: 1, age: 0, time: 0)
    }

    func showSolid(color: UInt32, x: Int, y: Int, width: Int, height: Int) throws { isShown = true }

    func showImage(x: Int, y: Int, visible: Rect, scale: Double) {
        isShown = hasImage && visible.width > 0 && visible.height > 0
    }

    func showStretchedImage(source: PixelRect, x: Int, y: Int, width: Int, height: Int) {
        isShown = hasImage
    }

    func hide() {
        isShown = false
        hasImage = false
    }
}

/// The window's buffer of a sub-surface frame offscreen (``ComposedFrame``): the ring's buffer
/// for this frame, at scale 1.
final class OffscreenFrame: ComposedFrame {
    private var target: DrawTarget?
    private(set) var mustDrawBase = true
    let bufferScale = 1
    let scale = 1.0
    var baseDamage: [PixelRect] = { var a = [PixelRect](); a.reserveCapacity(16); return a }()

    /// The next frame draws into `buffer` of age `age` (the window's first frame must draw it).
    func begin(_ buffer: PixelBuffer, age: Int, mustDrawBase: Bool) {
        target = DrawTarget(data: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride,
                            scale: 1, age: age, time: 0)
        self.mustDrawBase = mustDrawBase
        baseDamage.removeAll(keepingCapacity: true)
    }

    func baseTarget() throws -> DrawTarget? { target }
}
