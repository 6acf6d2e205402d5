import ModalKit
import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// The requests a `PresentationWindow` on the sub-surface backend sends when a transition ends,
/// over ``SubsurfaceModelCompositor`` (a compositor that applies a synchronized sub-surface's state with the
/// parent's commit and checks that a commit which unmaps a sub-surface damages what it uncovers).
/// The frames' times are scripted (``ScriptedScene``), so each run goes through the same frames:
/// the dismissal's last stretch in 1 ms steps, where the dim is already 0 while the sheet still
/// shows its last row, then no row before the dismissal ends (UIKit's
/// `dismissalTransitionDidEnd(true)`: in the frame that completes the dismissal nothing of the
/// presented view or its dim remains).
final class SubsurfaceEndStateTests: XCTestCase {
    private let width = 800, height = 600

    /// A bottom sheet: the lower half, black dim 0.4 × progress, dragged down to dismiss.
    private func sheet() -> PresentationStyle {
        let style = PresentationStyle()
        style.frameOfPresentedView = { c in
            Rect(x: 0, y: c.containerBounds.height / 2, width: c.containerBounds.width, height: c.containerBounds.height / 2)
        }
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.4 * progress) }
        style.interaction = { _ in InteractionDeclaration(dismissGesture: .drag(.down)) }
        return style
    }

    /// Frames every `step` seconds from `from` to `to` (inclusive of `from`).
    private func frames(_ from: Double, _ to: Double, step: Double) -> [Double] {
        stride(from: from, to: to, by: step).map { $0 }
    }

    /// The last 25 ms of a transition ending at `end` in 1 ms steps, then two frames after it.
    private func finish(_ end: Double) -> [Double] {
        frames(end - 0.03, end - 0.025, step: 1.0 / 60) + frames(end - 0.025, end + 0.002, step: 0.001) + [end + 0.02, end + 0.05]
    }

    /// Runs `scene` in a window over a ``SubsurfaceModelCompositor`` until its script has run, and returns
    /// the compositor (stopped) and the state events.
    private func run(_ scene: ScriptedScene, scale: Int = 1, fractional120: UInt32? = nil,
                     onLevel: @escaping (PresentationState, Int) -> Void = { _, _ in }) throws -> (SubsurfaceModelCompositor, [String]) {
        let compositor = try SubsurfaceModelCompositor(width: width, height: height, scale: scale, fractional120: fractional120)
        let connection = try compositor.connect()
        var options = PresentationWindowOptions(title: "end-state")
        options.size = (width, height)
        options.compositing = .subsurface
        options.reducedMotion = .never
        options.accessibility = false
        options.closesOnTerminationSignals = false
        let window = try PresentationWindow(scene: scene, options: options, connection: connection)
        var events: [String] = []
        scene.host.onLevelStateChange = { state, level in
            events.append(level > 1 ? "\(state.rawValue) \(level)" : state.rawValue)
            onLevel(state, level)
        }
        scene.onFinished = {
            // The frame after the script's last one is committed before this runs.
            let close = EventLoopTimer(connection: connection) { window.close() }
            close.schedule(after: 0.05)
            scene.keep = close
        }
        let guardTimer = EventLoopTimer(connection: connection) { window.close() }
        guardTimer.schedule(after: 30)
        try window.run()
        guardTimer.invalidate()
        compositor.stop()
        XCTAssertTrue(scene.finished, "the script ran (\(scene.index) of \(scene.steps.count) frames)")
        XCTAssertFalse(scene.host.isAnimating, "the host came to rest within the script")
        return (compositor, events)
    }

    /// What every run must end with: nothing of the presented levels or their dims on screen, no
    /// sub-surface state committed and never applied, and every unmapping commit damaged what it
    /// uncovered.
    private func checkEnd(_ compositor: SubsurfaceModelCompositor, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(compositor.violations, [], "\(what): \(compositor.log.suffix(24))", file: file, line: line)
        let layers = compositor.layers
        XCTAssertGreaterThanOrEqual(layers.count, 2, "\(what): the dim and the presented view were sub-surfaces", file: file, line: line)
        for l in layers {
            XCTAssertNil(l.shown, "\(what): sub-surface #\(l.id) still shows \(l.shown.map { "\($0)" } ?? "")", file: file, line: line)
            XCTAssertFalse(l.hasCached, "\(what): sub-surface #\(l.id) has a commit no parent commit applied", file: file, line: line)
        }
    }

    func testTheFrameThatEndsADismissalUnmapsTheLayersAndRepaintsUnderThem() throws {
        try dismissal(scale: 1)
    }

    func testTheSameAtScaleTwo() throws {
        try dismissal(scale: 2)
    }

    /// fractional-scale-v1 at 1.5 (n = 180): buffers of 1.5 pixels per point, each side rounded half
    /// away from zero, shown through viewports; a layer's edge can fall inside a pixel.
    func testTheSameAtTheFractionalScaleOneAndAHalf() throws {
        try dismissal(scale: 1, fractional120: 180)
    }

    private func dismissal(scale: Int, fractional120: UInt32? = nil) throws {
        let host = PresentationHost(style: sheet(), presenting: Solid(0xFF3366AA))
        let card = Solid(0xFFFFFFFF)
        // Presented at 0 (until 0.35), dismissed at 1 (until 1.35).
        let scene = ScriptedScene(host: host, steps: [(0.0, { h, t in h.present(card, now: t) })]
                                  + frames(0.02, 0.5, step: 1.0 / 60).map { ($0, nil) }
                                  + [(1.0, { h, t in h.dismiss(now: t) })]
                                  + (frames(1.02, 1.32, step: 1.0 / 60) + finish(1.35)).map { ($0, nil) })
        let (compositor, events) = try run(scene, scale: scale, fractional120: fractional120)
        XCTAssertEqual(events, ["presenting", "presented", "dismissing", "dismissed"])
        let s = compositor.pixelScale
        checkEnd(compositor, "dismissed at scale \(s)")
        // fractional-scale-v1: each side × n/120, rounded half away from zero.
        let (bw, bh) = (Int((Double(width) * s).rounded()), Int((Double(height) * s).rounded()))
        XCTAssertTrue(compositor.log.contains { $0.hasSuffix("damage_buffer(\(bw)x\(bh)+0+0)") },
                      "the window's buffers are \(s) pixels per point")
        // The presented view's sub-surface (the second, above its dim): its last request before the
        // end is a null attach and its commit, applied by a parent commit that damages its last row.
        let presented = compositor.layers[1]
        XCTAssertEqual(presented.lastAttached, 0, "the presented layer's last attach is a null buffer")
        let lines = compositor.log.filter { $0.hasPrefix("wl_surface#\(presented.id).") }.prefix { !$0.hasSuffix(".destroy") }
        XCTAssertEqual(Array(lines.suffix(2)), ["wl_surface#\(presented.id).attach(nil)", "wl_surface#\(presented.id).commit"],
                       "the presented layer's last requests before the window closes")
    }

    func testADismissalReversedAndDismissedAgainEndsTheSame() throws {
        let host = PresentationHost(style: sheet(), presenting: Solid(0xFF3366AA))
        let card = Solid(0xFFFFFFFF)
        // Dismissed at 1, presented again at 1.2 (the dismissal reverses), dismissed at 2 (until 2.35).
        let scene = ScriptedScene(host: host, steps: [(0.0, { h, t in h.present(card, now: t) })]
                                  + frames(0.02, 0.5, step: 1.0 / 60).map { ($0, nil) }
                                  + [(1.0, { h, t in h.dismiss(now: t) })]
                                  + frames(1.02, 1.2, step: 1.0 / 60).map { ($0, nil) }
                                  + [(1.2, { h, t in h.present(card, now: t) })]
                                  + frames(1.22, 1.8, step: 1.0 / 60).map { ($0, nil) }
                                  + [(2.0, { h, t in h.dismiss(now: t) })]
                                  + (frames(2.02, 2.32, step: 1.0 / 60) + finish(2.35)).map { ($0, nil) })
        let (compositor, events) = try run(scene)
        XCTAssertEqual(events, ["presenting", "presented", "dismissing", "presenting", "presented", "dismissing", "dismissed"])
        checkEnd(compositor, "dismissed after a reversed dismissal")
    }

    func testAFlickThatCarriesTheSheetAwayEndsTheSame() throws {
        let host = PresentationHost(style: sheet(), presenting: Solid(0xFF3366AA))
        let card = Solid(0xFFFFFFFF)
        // Presented; at 1 a press 150 pt into the sheet moves 200 pt down in 60 ms and lets go: its
        // spring carries it out (frames every 1 ms while it runs).
        var steps: [(Double, ((PresentationHost, Double) -> Void)?)] = [(0.0, { h, t in h.present(card, now: t) })]
        steps += frames(0.02, 0.5, step: 1.0 / 60).map { ($0, nil) }
        steps.append((1.0, { h, t in
            h.handle(.pointerMotion(Point(x: 400, y: 450)), now: t)
            h.handle(.pointerButton(pressed: true), now: t)
        }))
        for i in 1...6 {
            let y = 450 + Double(i) * 33
            steps.append((1.0 + Double(i) * 0.01, { h, t in h.handle(.pointerMotion(Point(x: 400, y: y)), now: t) }))
        }
        steps.append((1.07, { h, t in h.handle(.pointerButton(pressed: false), now: t) }))
        steps += frames(1.071, 2.5, step: 0.001).map { ($0, nil) }
        let scene = ScriptedScene(host: host, steps: steps)
        let (compositor, events) = try run(scene)
        XCTAssertEqual(events, ["presenting", "presented", "dismissing", "dismissed"])
        checkEnd(compositor, "flicked away")
    }

    /// Two sheets; when level 2 leaves, level 1's content changes (as a card whose focus ring
    /// shows again once it is in front): the frame after `dismissed 2` draws it into level 1's
    /// sub-surface and a parent commit applies it — nothing left cached.
    func testTheLevelBelowIsRedrawnAndAppliedWhenTheLevelAboveLeaves() throws {
        let host = PresentationHost(style: sheet(), presenting: Solid(0xFF3366AA))
        let below = Swatch(0xFFFFFFFF), above = Swatch(0xFFEEEEEE)
        let style = sheet()
        let scene = ScriptedScene(host: host, steps: [(0.0, { h, t in h.present(below, now: t) })]
                                  + frames(0.02, 0.5, step: 1.0 / 60).map { ($0, nil) }
                                  + [(1.0, { h, t in h.present(above, style: style, now: t) })]
                                  + frames(1.02, 1.5, step: 1.0 / 60).map { ($0, nil) }
                                  + [(2.0, { h, t in h.dismiss(now: t) })]
                                  + (frames(2.02, 2.32, step: 1.0 / 60) + finish(2.35)).map { ($0, nil) })
        let (compositor, events) = try run(scene, onLevel: { state, level in
            if state == .dismissed && level == 2 { below.change(to: 0xFFF0F0FF) }
        })
        XCTAssertEqual(events, ["presenting", "presented", "presenting 2", "presented 2", "dismissing 2", "dismissed 2"])
        XCTAssertEqual(below.drawnColor, 0xFFF0F0FF, "level 1 was drawn again after `dismissed 2`")
        XCTAssertEqual(compositor.violations, [], "\(compositor.log.suffix(24))")
        let layers = compositor.layers
        XCTAssertEqual(layers.count, 4, "two levels, a dim and a presented view each")
        guard layers.count == 4 else { return }
        for l in layers { XCTAssertFalse(l.hasCached, "sub-surface #\(l.id) has a commit no parent commit applied: \(compositor.log.suffix(16))") }
        XCTAssertEqual(layers[1].buffer, layers[1].lastAttached, "level 1's view shows the buffer drawn last")
        XCTAssertNotNil(layers[1].shown, "level 1's view shows")
        XCTAssertNil(layers[2].shown, "level 2's dim is gone")
        XCTAssertNil(layers[3].shown, "level 2's view is gone")
    }
}

/// A `PresentationScene` whose frames come at scripted times: the window's n-th frame is
/// ``PresentationHost/update(now:)`` at `steps[n].time`, after `steps[n].action` (a presentation,
/// a dismissal, input) at that time; the window's own clock is not used. It asks for frames while
/// an action is still to come, and after the last one as a window does (while the host animates
/// or needs a redraw); once the host is at rest after its last action it calls ``onFinished``.
final class ScriptedScene: PresentationScene {
    let host: PresentationHost
    let steps: [(time: Double, action: ((PresentationHost, Double) -> Void)?)]
    private(set) var index = 0
    var onFinished: () -> Void = {}
    /// Whatever the finishing step needs kept alive (a timer).
    var keep: AnyObject?
    var isDone: Bool { index >= steps.count }
    /// The host came to rest after the last action.
    private(set) var finished = false
    private var actionsAhead: Bool { steps[min(index, steps.count)...].contains { $0.action != nil } }

    init(host: PresentationHost, steps: [(Double, ((PresentationHost, Double) -> Void)?)]) {
        self.host = host
        self.steps = steps.map { (time: $0.0, action: $0.1) }
    }

    func layout(containerSize: Size, scale: Double) { host.layout(containerSize: containerSize, scale: scale) }
    func handle(_ input: PresentationInput, now: Double) {}
    func replaceStyle(_ style: PresentationStyle) -> Bool { host.replaceStyle(style) }
    var isAnimating: Bool { actionsAhead || host.isAnimating }
    var needsRedraw: Bool { actionsAhead || host.needsRedraw }

    func update(now: Double) {
        guard !isDone else { return }
        let step = steps[index]
        index += 1
        step.action?(host, step.time)
        host.update(now: step.time)
        if !finished, !actionsAhead, !host.isAnimating || isDone {
            finished = true
            onFinished()
        }
    }
}

/// Content of one opaque colour that can change (``change(to:)``) and says what it drew last.
final class Swatch: PresentationContent {
    private var color: UInt32
    private(set) var invalidation = ContentInvalidation.all
    /// The colour drawn last (`0xAARRGGBB`), nil before the first draw.
    private(set) var drawnColor: UInt32?
    init(_ argb: UInt32) { color = argb }
    func change(to argb: UInt32) {
        color = argb
        invalidation = .all
    }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: Color(rgb: color))
        drawnColor = color
        invalidation = .none
    }
    func handle(_ input: ContentInput, now: Double) -> Bool { false }
}
