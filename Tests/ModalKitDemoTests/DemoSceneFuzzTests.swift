import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import XCTest

/// The demo's real content (``DemoScene``: the presenting view with its Present button, cards
/// with Present another and Close, focus rings after keyboard use) under the random sequences of
/// ``FuzzGenerator``, with every check of ``HostFuzzDriver`` plus focus, observed through the
/// focus rings: while a card is up, no ring shows outside the top card (not on the Present button,
/// not on a covered card) and covered cards show neither hover nor press; the top card's focus
/// moves as its Tab order says (Tab: Present another, Close; Shift-Tab backwards; from the card
/// itself Tab goes to the first, Shift-Tab to the last), and a covered card's focus is where it
/// was when it comes back to the top — so a key that reached a covered card is caught.
final class DemoSceneFuzzTests: XCTestCase {
    func testRandomSequencesKeepFocusAndTheHostsInvariants() throws {
        _ = try BuiltinStyles.make("inset-centered")  // a clear error when the plugins are not built
        let runner = FuzzRunner(filter: "DemoSceneFuzzTests", runs: (debug: 100, release: 500), profile: .scene)
        var renders = 0, checks = 0, focusChecks = 0
        var depths: [Int: Int] = [:]
        var setupError: Error?
        let outcome = runner.run { c, verbose in
            do {
                let harness = try DemoFuzzHarness(c.config, verbose: verbose)
                let f = harness.run(c.steps)
                renders += harness.renders
                checks += harness.pixelChecks
                focusChecks += harness.focusComparisons
                depths[harness.deepestStack, default: 0] += 1
                return f
            } catch {
                setupError = error
                return FuzzFailure(kind: "setup", message: "\(error)", step: -1)
            }
        }
        if let setupError { throw setupError }
        print("DemoSceneFuzzTests: \(outcome.runs) sequences, \(outcome.steps) steps, \(renders) frames "
              + "(\(checks) compared with a whole repaint), \(focusChecks) times a card's focus ring was where its Tab "
              + "order or its last place said; sequences by deepest stack: "
              + depths.keys.sorted().map { "\($0): \(depths[$0]!)" }.joined(separator: ", "))
        if let report = outcome.report { XCTFail(report) }
    }
}

/// The demo scene driven as `modal-demo` drives it: input, layout, frames through the scene, the
/// app's present and dismiss through its calls.
final class DemoFuzzHarness: HostFuzzDriver {
    private(set) var scene: DemoScene!
    override var host: PresentationHost { scene.host }

    /// What the harness knows of a card's keyboard focus.
    enum Focus: Equatable, CustomStringConvertible {
        case unknown
        /// The card itself (as a presentation starts).
        case card
        /// Present another (0) or Close (1).
        case control(Int)
        var description: String {
            switch self {
            case .unknown: return "unknown"
            case .card: return "the card"
            case let .control(i): return i == 0 ? "Present another" : "Close"
            }
        }
    }
    /// Per level: the focus its card must have.
    var focus: [Int: Focus] = [:]
    /// Whether focus rings show (after a key press, until a press or touch: `:focus-visible`).
    var focusVisible = false
    /// How often the top card's ring was compared with a known focus.
    private(set) var focusComparisons = 0

    init(_ config: FuzzConfig, verbose: Bool) throws {
        super.init(config: config, verbose: verbose)
        // The styles are made inside the scene's callback, which cannot throw: made once here first.
        for spec in config.styles { _ = try BuiltinStyles.make(spec.name, options: spec.options) }
        scene = try DemoScene(styleForLevel: { [unowned self] level in self.makeStyle(level: level) },
                              levelEvents: { [unowned self] event, level in self.sceneEvent(event, level: level) })
        scene.onInteraction = { [unowned self] event in self.interaction(event) }
    }

    /// Level n's style: slot (n − 1) mod 4 of the configuration, a new object per level (the
    /// specs were made once already, so a failure here is a broken plugin: the test stops).
    func makeStyle(level: Int) -> PresentationStyle {
        let spec = config.styles[(level - 1) % config.styles.count]
        let style: PresentationStyle
        do { style = try BuiltinStyles.make(spec.name, options: spec.options) } catch { fatalError("\(spec): \(error)") }
        register(style, spec: spec)
        return style
    }

    func sceneEvent(_ event: SceneEvent, level: Int) {
        let n = host.levelCount
        switch event {
        case .presenting, .presented, .dismissing, .dismissed:
            let state = PresentationState(rawValue: event.rawValue)!
            if state == .presenting && eventState(level: level) == .dismissed {
                focus[level] = .card  // a card is presented with focus on itself
            }
            levelStateChanged(state, level: level)
            if state == .dismissed { focus[level] = nil }
            if state == .presented, config.dismissOnPresented, level == n { scene.dismiss(now: hostNow) }
        case .activated:
            // The Present button: reachable only with nothing presented (or through an undimmed detent).
            let through = n == 1 && host.state(level: 1) == .presented && (spec(level: 1)?.hasUndimmedDetent ?? false)
            if n > 0 && !through { fail("routing", "the Present button was activated under \(n) levels") }
        case .close:
            if level != n { fail("routing", "Close of level \(level) activated with \(n) levels") }
        case .paused:
            break
        }
    }

    // MARK: Driving

    override func deliver(_ input: PresentationInput, now: Double) {
        switch input {
        case .key(_, pressed: true): focusVisible = true
        case .pointerButton(pressed: true), .touchDown: focusVisible = false
        case .pointerButton(pressed: false), .touchUp:
            // A tap on a control gives it focus: what the top card's focus is becomes unknown.
            host.update(now: now)
            if host.levelCount >= 1 { focus[host.levelCount] = .unknown }
        default: break
        }
        scene.handle(input, now: now)
    }

    override func layout(_ size: Size, scale: Double) { scene.layout(containerSize: size, scale: scale) }
    override func present(content: Int, style: Int?, now: Double) {
        if host.levelCount == 0 || content % 2 == 1 { scene.present(now: now) } else { scene.presentAnother(now: now) }
    }
    override func dismiss(now: Double) { scene.dismiss(now: now) }
    override func setReducesMotion(_ on: Bool) { scene.reducesMotion = on }
    override func renderFrame(into target: PixelBuffer, now: Double, age: Int) -> [PixelRect] {
        scene.render(into: target, now: now, bufferAge: age)
    }
    override func layerFrame(now: Double) -> LayerFrame {
        scene.update(now: now)   // the window's frame: update, then the queries
        return composedLayerFrame()
    }

    override func controlRect(_ index: Int) -> Rect? {
        if index == 0 { return scene.buttonFrame }
        let n = host.levelCount
        guard n >= 1, let shown = host.presentedViewRect(at: hostNow, level: n),
              let frame = host.presentedViewFrame(level: n), frame.width > 0, frame.height > 0 else { return nil }
        let buttons = scene.cardButtonFrames(level: n)
        let b = index == 1 ? buttons.presentAnother : buttons.close
        let kx = shown.width / frame.width, ky = shown.height / frame.height
        return Rect(x: shown.minX + b.minX * kx, y: shown.minY + b.minY * ky, width: b.width * kx, height: b.height * ky)
    }

    override func willDeliverKey(_ key: PresentationKey, pressed: Bool) {
        let n = host.levelCount
        guard pressed, n >= 1, let f = focus[n] else { return }
        // The card's Tab order: Present another, Close.
        switch (key, f) {
        case (.tab, .card): focus[n] = .control(0)
        case (.backTab, .card): focus[n] = .control(1)
        case let (.tab, .control(i)), let (.backTab, .control(i)): focus[n] = .control((i + 1) % 2)
        default: break
        }
    }

    // MARK: Focus checks

    override func checkAfterStep(_ step: FuzzStep) {
        let n = host.levelCount
        let expectedFocus: SceneFocus = n >= 1 ? .presentedView : .presentButton
        if scene.focus != expectedFocus { fail("focus", "scene focus \(scene.focus) with \(n) levels") }
        let presentRing = scene.buttonAppearance.showsFocusRing
        if presentRing != (focusVisible && n == 0) {
            fail("focus", "the Present button's focus ring \(presentRing ? "shows" : "is hidden") with \(n) levels, "
                 + "focus visible \(focusVisible)")
        }
        guard n >= 1 else { return }
        for k in 1..<n {
            guard let a = scene.cardButtonAppearances(level: k) else { continue }
            if a.presentAnother.showsFocusRing || a.close.showsFocusRing {
                fail("focus", "covered card \(k) of \(n) shows a focus ring")
            }
            if a.presentAnother.isHovered || a.presentAnother.isPressed || a.close.isHovered || a.close.isPressed {
                fail("routing", "covered card \(k) of \(n) shows hover or press: \(a)")
            }
        }
        guard let top = scene.cardButtonAppearances(level: n) else { return }
        let rings = (top.presentAnother.showsFocusRing, top.close.showsFocusRing)
        guard focusVisible else {
            if rings.0 || rings.1 { fail("focus", "card \(n) shows a focus ring while focus is not visible") }
            return
        }
        let observed: Focus
        switch rings {
        case (true, true): return fail("focus", "card \(n) shows two focus rings")
        case (true, false): observed = .control(0)
        case (false, true): observed = .control(1)
        case (false, false): observed = .card
        }
        if let expected = focus[n], expected != .unknown {
            focusComparisons += 1
            if expected != observed { fail("focus", "card \(n)'s focus is on \(observed), expected \(expected)") }
        }
        focus[n] = observed
    }

    override var stateSummary: String {
        "focus " + (1...max(1, host.levelCount)).map { "\(focus[$0] ?? .unknown)" }.joined(separator: "/")
            + (focusVisible ? " (visible)" : "")
    }
}
