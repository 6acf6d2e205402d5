import CModalKitPixman
import ModalKitHostFuzzSupport
import ModalKit
import XCTest

/// `PresentationHost` under random input: seeded sequences (``FuzzGenerator``; 500 in a debug
/// build, 1500 in release, any number with `MODALKIT_FUZZ_RUNS`) of
/// pointer, touch and key events, resizes, scale changes, clock jumps, presentations (also from a
/// presented level, also from inside the contents' input handlers and the host's events),
/// dismissals and frames, over the real built-in styles with random options, checked after every
/// step (``HostFuzzDriver``) and, as the input arrives, by the contents themselves: keys reach only
/// the top level's content (the presenting content when nothing is presented); presses, hovers
/// and drags reach only the top level (or, through an undimmed detent, the presenting content);
/// each content sees whole presses (press, drags, then one release or cancel), and one whose
/// level leaves the stack mid-press gets its cancel.
///
/// A failure prints its seed, a one-line replay command and the sequence shrunk to what still
/// fails; a trap prints the seed and step before the process dies.
final class HostFuzzTests: XCTestCase {
    func testRandomSequencesKeepTheHostsInvariants() throws {
        _ = try BuiltinStyles.make("inset-centered")  // a clear error when the plugins are not built
        let runner = FuzzRunner(filter: "HostFuzzTests", runs: (debug: 500, release: 1500))
        var renders = 0, checks = 0, skipped = 0, draws = 0, idle = 0
        var depths: [Int: Int] = [:]
        var setupError: Error?
        let outcome = runner.run { c, verbose in
            let harness: HostFuzzHarness
            do { harness = try HostFuzzHarness(c.config, verbose: verbose) } catch {
                setupError = error
                return FuzzFailure(kind: "setup", message: "\(error)", step: -1)
            }
            let f = harness.run(c.steps)
            renders += harness.renders
            checks += harness.pixelChecks
            skipped += harness.skippedRenders
            idle += harness.idleFrames
            depths[harness.deepestStack, default: 0] += 1
            draws += harness.probes.dropFirst().reduce(0) { $0 + $1.draws }
            return f
        }
        print("HostFuzzTests: \(outcome.runs) sequences, \(outcome.steps) steps, \(renders) frames "
              + "(\(checks) compared with a whole repaint, \(idle) idle ones with the frame before, \(skipped) too large "
              + "to draw), \(draws) presented caches drawn; sequences by deepest stack: "
              + depths.keys.sorted().map { "\($0): \(depths[$0]!)" }.joined(separator: ", "))
        if let setupError { throw setupError }
        if let report = outcome.report { XCTFail(report) }
    }
}

/// The host with ``Probe`` contents: a presenting one and four to present, whose input handlers
/// present and dismiss as an app's buttons do.
final class HostFuzzHarness: HostFuzzDriver {
    let theHost: PresentationHost
    let presenting: Probe
    /// The presenting content (0) and the ones to present (1...4).
    var probes: [Probe] = []
    /// The style objects of the slots (one per slot, shared by the levels that use it, as the
    /// host's own style is shared by every level presented with `style: nil`).
    var styles: [PresentationStyle] = []
    var level1States: [PresentationState] = []
    /// `present` calls the app made (steps and the contents' handlers).
    var presentCalls = 0

    override var host: PresentationHost { theHost }

    init(_ config: FuzzConfig, verbose: Bool) throws {
        let styles = try config.styles.map { try BuiltinStyles.make($0.name, options: $0.options) }
        presenting = Probe(id: 0)
        theHost = PresentationHost(style: styles[0], presenting: presenting)
        self.styles = styles
        super.init(config: config, verbose: verbose)
        for (style, spec) in zip(styles, config.styles) { register(style, spec: spec) }
        probes = (0...4).map { $0 == 0 ? presenting : Probe(id: $0) }
        for p in probes { p.harness = self }
        theHost.onStateChange = { [unowned self] state in self.level1States.append(state) }
        theHost.onLevelStateChange = { [unowned self] state, level in
            if level == 1 {
                if self.level1States != [state] {
                    self.fail("event-order", "level 1 \(state) reported to onLevelStateChange after \(self.level1States) to onStateChange")
                }
                self.level1States.removeAll()
            }
            self.levelStateChanged(state, level: level)
            if state == .presented, config.dismissOnPresented, level == self.theHost.levelCount {
                self.theHost.dismiss(now: self.hostNow)
            }
        }
        theHost.onInteraction = { [unowned self] event in self.interaction(event) }
    }

    // MARK: Driving

    override func present(content: Int, style: Int?, now: Double) {
        appPresent(probes[content], style: style, now: now)
    }

    /// The app presents `probe` (over the top level with the style of `slot`, nil: the host's).
    func appPresent(_ probe: Probe, style slot: Int?, now: Double) {
        presentCalls += 1
        let n = host.levelCount
        let top = host.state(level: n)
        let inStack = (1...max(1, n)).contains { host.presentedContent(level: $0) === probe }
        let before = levelsBegun
        let accepted = host.present(probe, style: slot.map { styles[$0] }, now: now)
        // Over nothing or a presented top level, a content not in the stack begins a new level;
        // the top level's own content being dismissed reverses; anything else is refused.
        let expected = !inStack && (n == 0 || top == .presented) || (inStack && host.presentedContent(level: n) === probe
                                                                         && top == .dismissing)
        if accepted != expected {
            fail("present", "present(\(probe.name)) over \(n) levels (top \(top)) returned \(accepted)")
        }
        if accepted && !inStack && levelsBegun != before + 1 {
            fail("present", "present(\(probe.name)) accepted but no level began presenting")
        }
    }

    override func controlRect(_ index: Int) -> Rect? {
        let size = host.containerSize
        switch index {
        case 0: return Probe.buttonZone(in: Rect(size: size))
        default:
            let n = host.levelCount
            guard n >= 1, let r = host.presentedViewRect(at: hostNow, level: n) else { return nil }
            return index == 1 ? Probe.anotherZone(in: r) : Probe.closeZone(in: r)
        }
    }

    override func topContentUsesEscape() -> Bool {
        guard let p = host.presentedContent as? Probe else { return false }
        return config.escapeUsed[p.id]
    }

    override func paintPresentingReference(into image: OpaquePointer) -> Bool {
        presenting.paint(into: image, size: host.containerSize, scale: host.scale)
        return true
    }

    override func checkAfterStep(_ step: FuzzStep) {
        if host.levelCount > presentCalls { fail("stack", "\(host.levelCount) levels after \(presentCalls) present calls") }
        // A content out of the stack has no press left open (its press was cancelled).
        for p in probes.dropFirst() where p.pressOpen {
            let n = host.levelCount
            if !(1...max(1, n)).contains(where: { host.presentedContent(level: $0) === p }) {
                fail("press-sequence", "\(p.name) left the stack with its press open")
            }
        }
    }

    override var stateSummary: String {
        probes.filter(\.pressOpen).map { "\($0.name) pressed" }.joined(separator: ", ")
    }

    // MARK: Routing, as the contents receive input

    /// Checks `input` delivered to `probe` against the routing rules, and whether it is used.
    func received(_ input: ContentInput, by probe: Probe, now: Double) {
        let n = host.levelCount
        let top = n == 0 ? presenting : host.presentedContent as? Probe
        let isTop = probe === top
        // One level resting at a detent its style leaves undimmed: pointer and touch input outside
        // the sheet reach the presenting content (UIKit's largestUndimmedDetentIdentifier).
        let passesThrough = probe === presenting && n == 1 && host.state(level: 1) == .presented
            && (spec(level: 1)?.hasUndimmedDetent ?? false)
        let who = "\(probe.name) (\(n) levels, top \(top?.name ?? "none") \(host.state(level: n)))"
        switch input {
        case let .key(k):
            if !isTop { fail("routing", "key \(k) reached \(who)") }
        case let .keyboard(k):
            if !isTop { fail("routing", "keyboard \(k) reached \(who)") }
        case let .press(p):
            if !isTop && !passesThrough { fail("routing", "a press at \(p) reached \(who)") }
            if probe.pressOpen { fail("press-sequence", "a second press reached \(who)") }
            if !p.x.isFinite || !p.y.isFinite { fail("non-finite", "press at \(p) to \(who)") }
        case let .hover(p):
            if let p, !isTop && !passesThrough { fail("routing", "hover at \(p) reached \(who)") }
        case let .drag(p):
            if !probe.pressOpen { fail("press-sequence", "a drag to \(p) without a press reached \(who)") }
        case let .release(p):
            if !probe.pressOpen { fail("press-sequence", "a release at \(p) without a press reached \(who)") }
        case .cancel:
            if !probe.pressOpen { fail("press-sequence", "a cancel without a press reached \(who)") }
        case let .scroll(scroll):
            // Scrolls reach the content under the pointer, never one beneath a modal layer.
            if !isTop && !passesThrough { fail("routing", "a scroll by \(scroll.delta) reached \(who)") }
        case let .focus(id):
            // Focus moves onto a level as it is presented, and assistive technology moves it within
            // the top level only.
            if !isTop { fail("routing", "focus on \(id ?? "the content") reached \(who)") }
        case let .activate(id):
            if !isTop { fail("routing", "an activation of \(id) reached \(who)") }
        case let .editText(id, _):
            if !isTop { fail("routing", "a text edit of \(id) reached \(who)") }
        case .textInput:
            // The probes have no text field: an input method's update reaches none of them.
            fail("routing", "a text-input update reached \(who), which has no focused text field")
        }
    }
}

/// A content that records what it is, draws a colour of its own (a hover square on the presenting
/// one, invalidated by area), and acts like an app's controls: Return presents (from the
/// presenting content: content 1; from a presented one: the next, over it), a tap in its
/// top-left quarter presents the next, a tap in its bottom-right quarter dismisses, Tab changes
/// its look; Escape is used by the contents the configuration says.
final class Probe: PresentationContent {
    let id: Int
    weak var harness: HostFuzzHarness!
    private(set) var invalidation: ContentInvalidation = .all
    private(set) var pressOpen = false
    private var pressPoint: Point?
    private var hover: Point?
    private var version = 0
    private var size = Size(width: 1, height: 1)

    init(id: Int) { self.id = id }

    var name: String { id == 0 ? "presenting" : "content \(id)" }

    static func buttonZone(in b: Rect) -> Rect {
        Rect(x: b.minX + 0.4 * b.width, y: b.minY + 0.4 * b.height, width: 0.2 * b.width, height: 0.2 * b.height)
    }
    static func anotherZone(in b: Rect) -> Rect { Rect(x: b.minX, y: b.minY, width: b.width / 2, height: b.height / 2) }
    static func closeZone(in b: Rect) -> Rect {
        Rect(x: b.midX, y: b.midY, width: b.width / 2, height: b.height / 2)
    }

    // MARK: Drawing

    private static let square = 10.0

    private func hoverRect(_ p: Point?) -> Rect? {
        p.map { Rect(x: $0.x - Probe.square / 2, y: $0.y - Probe.square / 2, width: Probe.square, height: Probe.square) }
    }

    private func invalidate(_ area: Rect?) {
        guard let area else { invalidation = .all; return }
        switch invalidation {
        case .all: break
        case .none: invalidation = .area(area)
        case let .area(r): invalidation = .area(r.union(area))
        }
    }

    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        paint(into: image, size: size, scale: scale)
        invalidation = .none
        draws += 1
    }
    /// How often the host drew this content into its cache.
    private(set) var draws = 0

    /// The pixels `draw` gives for the current state (no state change).
    func paint(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        let base: UInt32 = [0xFF80_6040, 0xFFFF_FFFF, 0xFF20_50A0, 0xFF40_A060, 0xFFA0_3070][id]
        fill(image, PixelRect(x: 0, y: 0, width: px.width, height: px.height), base ^ UInt32(version & 0xF) << 4)
        if id == 0, let r = hoverRect(hover) {
            // Exactly the pixels the host damages for this area: its edges outward to whole pixels.
            let x0 = Int((r.minX * scale).rounded(.down)), y0 = Int((r.minY * scale).rounded(.down))
            let x1 = Int((r.maxX * scale).rounded(.up)), y1 = Int((r.maxY * scale).rounded(.up))
            fill(image, PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), 0xFFE0_2020)
        }
    }

    private func fill(_ image: OpaquePointer, _ r: PixelRect, _ argb: UInt32) {
        let px = Draw.pixelSize(of: image)
        let c = r.intersection(PixelRect(x: 0, y: 0, width: px.width, height: px.height))
        guard !c.isEmpty else { return }
        var color = pixman_color_t(red: UInt16((argb >> 16) & 0xFF) * 257, green: UInt16((argb >> 8) & 0xFF) * 257,
                                   blue: UInt16(argb & 0xFF) * 257, alpha: UInt16(argb >> 24) * 257)
        var box = pixman_box32_t(x1: Int32(c.x), y1: Int32(c.y), x2: Int32(c.maxX), y2: Int32(c.maxY))
        pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &color, 1, &box)
    }

    func didLayout(size: Size) {
        if size != self.size { invalidation = .all }
        self.size = size
    }

    // MARK: Input

    func handle(_ input: ContentInput, now: Double) -> Bool {
        harness.received(input, by: self, now: now)
        switch input {
        case let .hover(p):
            if p != hover {
                // The presenting content shows a square where the pointer hovers (damaging only
                // where it was and is now); a presented one does not (its look changes with Tab).
                if id == 0 {
                    let old = hoverRect(hover), new = hoverRect(p)
                    if let area = old.map({ o in new.map { o.union($0) } ?? o }) ?? new { invalidate(area) }
                }
                hover = p
            }
            return false  // a change of look says so through `invalidation`; nothing else to redraw
        case let .press(p):
            pressOpen = true
            pressPoint = p
            return true
        case .drag, .scroll, .textInput, .editText:
            return false
        case let .release(p):
            let start = pressPoint
            pressOpen = false
            pressPoint = nil
            guard let start else { return true }
            let bounds = Rect(size: size)
            if id == 0 {
                let zone = Probe.buttonZone(in: bounds)
                if zone.contains(start) && zone.contains(p) { harness.appPresent(harness.probes[1], style: nil, now: now) }
            } else {
                let another = Probe.anotherZone(in: bounds), close = Probe.closeZone(in: bounds)
                if another.contains(start) && another.contains(p) { presentNext(now: now) }
                if close.contains(start) && close.contains(p) { harness.host.dismiss(now: now) }
            }
            return true
        case .cancel:
            pressOpen = false
            pressPoint = nil
            return true
        case .keyboard:
            return false  // its meaning (.key) is what the probe uses
        case let .key(k):
            switch k {
            case .activate:
                if id == 0 { harness.appPresent(harness.probes[1], style: nil, now: now) } else { presentNext(now: now) }
                return true
            case .tab, .backTab:
                version += 1
                invalidation = .all
                return true
            case .escape:
                return harness.config.escapeUsed[id]
            }
        case .focus, .activate:
            return false   // no accessible elements of its own
        }
    }

    /// Presents the next content over this one (as a card's "Present another").
    private func presentNext(now: Double) {
        let next = harness.probes[id % 4 + 1]
        harness.appPresent(next, style: 1 + (id + version) % 3, now: now)
    }
}
