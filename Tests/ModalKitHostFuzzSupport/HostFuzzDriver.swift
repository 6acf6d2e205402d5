import CModalKitPixman
import Foundation
import ModalKit

/// Runs a ``FuzzCase`` against a ``PresentationHost`` and checks, after every step, what must hold
/// whatever the input:
///
/// - stack: at most one presented content per level, each once; never more levels than
///   presentations began; every level below the top presented; the top not dismissed; nothing
///   presented at level 0;
/// - geometry: no NaN or infinity in any level's frame (rectangles, transforms, alphas, radii,
///   gradient, shadow), the dim's alpha within 0…the style's `dim-alpha`, in the snapshot and the
///   layer frame (its byte and its gradient's stops);
/// - events, as they happen: per level presenting → presented → dismissing → dismissed, with the
///   reversals the controller documents (presenting ↔ dismissing); levels numbered from 1 in
///   stack order (a presentation begins only at the top, over a presented level; a dismissal ends
///   at the top); no event for a level not in the stack; every drag-began ended by its
///   drag-ended before the next (a finite velocity), a detent index among the detents of a level
///   in the stack, a close attempt only for a style that refuses dismissal;
/// - the app's and the user's requests: Escape (unused by the content) and `dismiss` dismiss the
///   top level while it is presenting or presented (a refusing style reports a close attempt
///   instead); `present` over a presented top level begins a new level;
/// - frames: damage inside the buffer; a frame drawn with damage and buffer age into a reused
///   buffer equals the same frame painted whole (``PresentationHost/renderOffline(_:presented:into:)``
///   of the same snapshots); the layer backend's presenting layer likewise, when the harness can
///   paint the presenting view itself; `presentingLayerNeedsRender` false means no damage; a
///   frame drawn while `needsRedraw` was false is the frame before, pixel for pixel.
///
/// The checks read the host at the `now` of its last call (never advancing it further), so a
/// clock step alone changes nothing they see.
///
/// Subclasses drive the host through their app (the host directly, or the demo scene), report
/// state and gesture events to ``levelStateChanged(_:level:)`` and ``interaction(_:)``, and add
/// their own checks in ``checkAfterStep(_:)``.
open class HostFuzzDriver {
    public let config: FuzzConfig
    public let verbose: Bool
    /// The clock, seconds (moved by `advance` steps).
    public private(set) var now = 1000.0
    /// The latest `now` passed to the host: the checks read the state at this time, so they never
    /// advance the host beyond what the steps did.
    public private(set) var hostNow = 1000.0
    public private(set) var failure: FuzzFailure?
    public private(set) var stepIndex = -1
    /// The last requested container size and scale (as given, before the host clamps them).
    public private(set) var requestedSize = Size(width: 1, height: 1)
    public private(set) var requestedScale = 1.0

    // State tracked from the events.
    var eventStates: [Int: PresentationState] = [:]
    /// Levels whose presentation began (dismissed → presenting), over the run.
    public private(set) var levelsBegun = 0
    var dragOpen = false
    public private(set) var closeAttempts = 0
    var presentingEvents: [Int] = []  // levels that began presenting during the current step

    // Pointer and touch positions, container points.
    public private(set) var pointer: Point?
    var touches: [Int32: Point] = [:]

    /// How the window drew its last frame (a layer frame resets what `needsRedraw` tracks for
    /// the pixman frames).
    enum WindowFrame { case none, render, layers }
    var lastWindowFrame = WindowFrame.none

    // Window buffers and reference images.
    let buffers = BufferPool()
    public private(set) var renders = 0, pixelChecks = 0, skippedRenders = 0
    /// Frames drawn while the host said it needed no redraw, compared with the frame before.
    public private(set) var idleFrames = 0
    /// The most levels the stack held after a step.
    public private(set) var deepestStack = 0

    /// The spec of each style object made for this run (by identity).
    var specs: [ObjectIdentifier: FuzzStyleSpec] = [:]

    public init(config: FuzzConfig, verbose: Bool) {
        self.config = config
        self.verbose = verbose
    }

    // MARK: To provide

    /// The host under test.
    open var host: PresentationHost { fatalError("override") }
    open func deliver(_ input: PresentationInput, now: Double) { host.handle(input, now: now) }
    open func layout(_ size: Size, scale: Double) { host.layout(containerSize: size, scale: scale) }
    open func present(content: Int, style: Int?, now: Double) {}
    open func dismiss(now: Double) { host.dismiss(now: now) }
    open func setReducesMotion(_ on: Bool) { host.reducesMotion = on }
    /// A window's frame: ``PresentationHost/update(now:)``, then the pure query.
    open func renderFrame(into target: PixelBuffer, now: Double, age: Int) -> [PixelRect] {
        host.update(now: now)
        return host.render(into: target, bufferAge: age)
    }
    /// Whether the last ``composedLayerFrame()``'s level 1 draws the presenting view receded
    /// (``LayerFrame/presentingRect``), which the presenting layer then shows.
    public private(set) var presentingRecedes = false
    /// A layer backend's frame: ``PresentationHost/update(now:)``, then ``composedLayerFrame()``.
    open func layerFrame(now: Double) -> LayerFrame {
        host.update(now: now)
        return composedLayerFrame()
    }
    /// The queries a layer backend makes for a frame (LayerComposer): every level's frame, bottom
    /// to top — level 1's also says how the presenting layer is drawn; returns the top one.
    public func composedLayerFrame() -> LayerFrame {
        presentingRecedes = false
        var top = LayerFrame()
        for level in 0..<host.layerLevelCount {
            top = host.layerFrame(level: level)
            if level == 0 { presentingRecedes = top.presentingRect != nil }
        }
        return top
    }
    /// Control `index` (0...2) in container points, or nil (a `control` point then aims at the
    /// presented view).
    open func controlRect(_ index: Int) -> Rect? { nil }
    /// Whether the top content uses Escape itself (then the host must not dismiss).
    open func topContentUsesEscape() -> Bool { false }
    /// Paints the presenting view alone at the host's pixel size into `image` (what the layer
    /// backend's presenting layer shows while nothing recedes it); false when the harness cannot.
    open func paintPresentingReference(into image: OpaquePointer) -> Bool { false }
    /// A key is about to reach the host, whose state is brought to the step's time (the level
    /// that will get it is the top one now).
    open func willDeliverKey(_ key: PresentationKey, pressed: Bool) {}
    /// The harness's own checks after `step`.
    open func checkAfterStep(_ step: FuzzStep) {}
    /// A line about the harness's state for verbose runs.
    open var stateSummary: String { "" }

    // MARK: Helpers for subclasses

    /// Records the first failure of the run (later ones are consequences).
    public func fail(_ kind: String, _ message: @autoclosure () -> String) {
        guard failure == nil else { return }
        failure = FuzzFailure(kind: kind, message: message(), step: stepIndex)
    }

    /// Registers `style`, made from `spec`, so checks find a level's spec from its style.
    public func register(_ style: PresentationStyle, spec: FuzzStyleSpec) {
        specs[ObjectIdentifier(style as AnyObject)] = spec
    }

    /// The spec of `level`'s style (1...levelCount), or nil.
    public func spec(level: Int) -> FuzzStyleSpec? {
        host.style(level: level).flatMap { specs[ObjectIdentifier($0 as AnyObject)] }
    }

    // MARK: Running

    /// Runs `steps` (after laying out and configuring the host); returns the first failure.
    public func run(_ steps: [FuzzStep]) -> FuzzFailure? {
        requestedSize = Size(width: config.width, height: config.height)
        requestedScale = config.scale
        layout(requestedSize, scale: requestedScale)
        setReducesMotion(config.reducesMotion)
        checkAll(nil)
        for (i, step) in steps.enumerated() {
            stepIndex = i
            FuzzCrashReport.setStep(i)
            presentingEvents.removeAll()
            perform(step)
            // A clock step calls nothing: the state the checks read (at `hostNow`) is unchanged.
            if failure == nil, !step.isClockOnly { checkAll(step) }
            if verbose {
                print(String(format: "%4d  ", i) + "\(step)  →  t=\(fmt(hostNow - 1000, 4)) levels \(host.levelCount) "
                      + (1...max(1, host.levelCount)).map { "\(host.state(level: $0))" }.joined(separator: "/")
                      + (stateSummary.isEmpty ? "" : "  " + stateSummary))
                fflush(stdout)  // a trap in the next step must not lose the lines so far
            }
            if let f = failure { return f }
        }
        return nil
    }

    func perform(_ step: FuzzStep) {
        switch step {
        case let .pointerMotion(p):
            let q = resolve(p, from: pointer)
            pointer = q
            input(.pointerMotion(q))
        case let .pointerButton(pressed):
            input(.pointerButton(pressed: pressed))
        case .pointerLeave:
            pointer = nil
            input(.pointerLeave)
        case let .touchDown(id, p):
            let q = resolve(p, from: touches[id] ?? pointer)
            touches[id] = q
            input(.touchDown(id: id, q))
        case let .touchMotion(id, p):
            let q = resolve(p, from: touches[id] ?? pointer)
            touches[id] = q
            input(.touchMotion(id: id, q))
        case let .touchUp(id):
            input(.touchUp(id: id))
            touches[id] = nil
        case .touchCancel:
            input(.touchCancel)
            touches.removeAll()
        case let .key(key, pressed):
            keyStep(key, pressed: pressed)
        case let .resize(w, h):
            requestedSize = Size(width: w, height: h)
            layout(requestedSize, scale: requestedScale)
        case let .scale(s):
            requestedScale = s
            layout(requestedSize, scale: requestedScale)
        case let .advance(dt):
            now += dt
        case let .present(content, style):
            presentStep(content: content, style: style)
        case .dismiss:
            dismissStep()
        case let .reducedMotion(on):
            setReducesMotion(on)
        case let .render(buffer, fresh):
            renderStep(buffer: buffer, fresh: fresh)
        case .layerFrame:
            hostNow = now
            lastWindowFrame = .layers
            check(layerFrame: layerFrame(now: now))
        case let .renderPresentingLayer(buffer, fresh):
            presentingLayerStep(buffer: buffer, fresh: fresh)
        }
    }

    func input(_ i: PresentationInput) {
        hostNow = now
        deliver(i, now: now)
    }

    /// `p` in container points now.
    func resolve(_ p: FuzzPoint, from last: Point?) -> Point {
        let size = host.containerSize
        let container = Rect(size: size)
        func within(_ r: Rect, _ fx: Double, _ fy: Double) -> Point {
            Point(x: r.minX + fx * r.width, y: r.minY + fy * r.height)
        }
        let top = host.levelCount > 0 ? host.presentedViewRect(at: hostNow, level: host.levelCount) : nil
        switch p {
        case let .container(fx, fy): return within(container, fx, fy)
        case let .presented(fx, fy): return within(top ?? container, fx, fy)
        case let .control(i, fx, fy): return within(controlRect(i) ?? top ?? container, fx, fy)
        case let .delta(dx, dy):
            let from = last ?? Point(x: size.width / 2, y: size.height / 2)
            return Point(x: from.x + dx, y: from.y + dy)
        }
    }

    // MARK: Requests and their expected effect

    /// Brings the host to `now` first, so the state the expectation starts from is the one the
    /// request meets.
    private func settle() {
        hostNow = now
        host.update(now: now)
    }

    func keyStep(_ key: PresentationKey, pressed: Bool) {
        settle()
        let n = host.levelCount
        let state = host.state(level: n)
        let spec = spec(level: n)
        let usesEscape = topContentUsesEscape()
        let attempts = closeAttempts
        willDeliverKey(key, pressed: pressed)
        input(.key(key, pressed: pressed))
        guard failure == nil, pressed, key == .escape, n >= 1, state == .presenting || state == .presented,
              !usesEscape, let spec else { return }
        if spec.isDismissible {
            if host.levelCount >= n && host.state(level: n) != .dismissing {
                fail("escape", "Escape at level \(n) (\(state)) left it \(host.state(level: n)) instead of dismissing it (\(spec))")
            }
        } else if closeAttempts == attempts {
            fail("escape", "Escape at level \(n) of a style that refuses dismissal reported no close attempt (\(spec))")
        }
    }

    func dismissStep() {
        settle()
        let n = host.levelCount
        let state = host.state(level: n)
        dismiss(now: now)
        guard failure == nil, n >= 1, state == .presenting || state == .presented else { return }
        if host.levelCount >= n && host.state(level: n) != .dismissing {
            fail("dismiss", "dismiss at level \(n) (\(state)) left it \(host.state(level: n))")
        }
    }

    func presentStep(content: Int, style: Int?) {
        settle()
        let n = host.levelCount
        let top = host.state(level: n)
        present(content: content, style: style, now: now)
        // A new level over a presented top (or level 1 over nothing) begins presenting at once,
        // unless the app refused (the content is in the stack already): the harness says so by
        // returning without presenting; only the stack's order is checked here.
        if let level = presentingEvents.first(where: { $0 > n }), level != n + 1 {
            fail("stack", "a presentation over \(n) levels (top \(top)) began at level \(level)")
        }
    }

    // MARK: Events

    /// A state event of `level` (1 = the first presentation), as the host reports it.
    public func levelStateChanged(_ state: PresentationState, level: Int) {
        let before = eventStates[level] ?? .dismissed
        let legal: Bool
        switch (before, state) {
        case (.dismissed, .presenting), (.presenting, .presented), (.presenting, .dismissing),
             (.presented, .dismissing), (.dismissing, .dismissed), (.dismissing, .presenting):
            legal = true
        default:
            legal = false
        }
        if !legal { fail("event-order", "level \(level): \(before) → \(state)") }
        eventStates[level] = state
        let n = host.levelCount
        guard level >= 1 else { return fail("event-level", "an event for level \(level)") }
        switch state {
        case .presenting where before == .dismissed:
            levelsBegun += 1
            presentingEvents.append(level)
            if level != n { fail("event-level", "level \(level) began presenting with \(n) levels in the stack") }
            if level > 1, eventStates[level - 1] != .presented || host.state(level: level - 1) != .presented {
                fail("event-level", "level \(level) began presenting over level \(level - 1) \(host.state(level: level - 1))")
            }
        case .dismissed:
            if level != n + 1 { fail("event-level", "level \(level) dismissed with \(n) levels left in the stack") }
            if let above = eventStates[level + 1], above != .dismissed {
                fail("event-level", "level \(level) dismissed under level \(level + 1) \(above)")
            }
        default:
            if level > n { fail("event-level", "\(state) for level \(level), not in the stack of \(n)") }
            else if host.state(level: level) != state {
                fail("event-level", "\(state) for level \(level), whose state is \(host.state(level: level))")
            }
        }
    }

    /// `level`'s state as its events last said (dismissed before any).
    public func eventState(level: Int) -> PresentationState { eventStates[level] ?? .dismissed }

    /// A gesture event of the host.
    public func interaction(_ event: PresentationInteractionEvent) {
        let n = host.levelCount
        switch event {
        case .dragBegan:
            if dragOpen { fail("interaction", "drag-began while a drag is open") }
            dragOpen = true
        case let .dragEnded(v):
            if !dragOpen { fail("interaction", "drag-ended without drag-began") }
            if !v.isFinite { fail("non-finite", "drag-ended velocity \(v)") }
            dragOpen = false
        case let .detent(number):
            // A covered level's spring may still settle under a level presented over it meanwhile
            // (the event carries no level): the number (from 1) of a detent of some level in the stack.
            let count = (1...max(1, n)).map { spec(level: $0)?.options["detents"].map { $0.split(separator: ",").count } ?? 1 }.max() ?? 1
            if number < 1 || number > count { fail("interaction", "detent \(number) of at most \(count) (\(n) levels)") }
        case .closeAttempt:
            closeAttempts += 1
            if let s = spec(level: n), s.isDismissible { fail("interaction", "close attempt on level \(n), dismissible (\(s))") }
        }
    }

    // MARK: Checks

    func checkAll(_ step: FuzzStep?) {
        checkStack()
        if failure == nil { checkLevels() }
        if failure == nil, let step { checkAfterStep(step) }
    }

    func checkStack() {
        let h = host
        let n = h.levelCount
        deepestStack = max(deepestStack, n)
        if n > levelsBegun { fail("stack", "\(n) levels after \(levelsBegun) presentations began") }
        if n == 0 {
            if h.state != .dismissed || h.presentedContent != nil || h.isModalLayerActive {
                fail("stack", "no level but state \(h.state), modal layer \(h.isModalLayerActive)")
            }
            return
        }
        if !h.isModalLayerActive { fail("stack", "\(n) levels but the modal layer is not active") }
        var seen = Set<ObjectIdentifier>()
        for k in 1...n {
            guard let c = h.presentedContent(level: k) else { return fail("stack", "level \(k) of \(n) has no content") }
            if !seen.insert(ObjectIdentifier(c)).inserted { fail("stack", "level \(k)'s content is also a lower level's") }
            let s = h.state(level: k)
            if k < n && s != .presented { fail("stack", "level \(k) below the top is \(s)") }
            if k == n && (s == .dismissed || s != h.state) { fail("stack", "top level \(k) is \(s), host state \(h.state)") }
        }
    }

    func checkLevels() {
        var k = 1
        while k <= max(1, host.levelCount) {
            guard let snap = host.snapshot(level: k, at: hostNow) else { break }
            check(snap, level: k)  // its presentedRect is presentedViewRect(at:level:), what input hits
            if failure != nil { return }
            k += 1
        }
    }

    func check(_ s: PresentationSnapshot, level k: Int) {
        let inStack = k <= host.levelCount
        if s.isModalLayerShown != inStack {
            fail("stack", "level \(k) snapshot shows the modal layer: \(s.isModalLayerShown), in the stack: \(inStack)")
        }
        var bad: [String] = []
        func rect(_ name: String, _ r: Rect) { if !r.isFinite { bad.append("\(name) \(r)") } }
        func number(_ name: String, _ v: Double) { if !v.isFinite { bad.append("\(name) \(v)") } }
        func transform(_ name: String, _ t: ViewTransform) {
            number(name + ".translation.x", t.translation.x); number(name + ".translation.y", t.translation.y)
            number(name + ".scaleX", t.scaleX); number(name + ".scaleY", t.scaleY)
            number(name + ".anchor.x", t.anchor.x); number(name + ".anchor.y", t.anchor.y)
            number(name + ".alpha", t.alpha)
        }
        rect("containerBounds", s.containerBounds)
        rect("presentedFrame", s.presentedFrame)
        rect("presentedRect", s.presentedRect)
        transform("presentedTransform", s.presentedTransform)
        number("corner radius", s.corners.radius)
        if let b = s.bottomCornerRadius { number("bottom corner radius", b) }
        number("dim alpha", s.dim.alpha)
        if let g = s.dim.gradient { gradient("dim gradient", g, &bad) }
        transform("presentingAppearance", s.presentingAppearance.transform)
        number("presenting corner radius", s.presentingAppearance.cornerRadius)
        if let sh = s.chrome.shadow {
            number("shadow offset x", sh.offset.x); number("shadow offset y", sh.offset.y); number("shadow blur", sh.blurRadius)
        }
        if !bad.isEmpty { return fail("non-finite", "level \(k): " + bad.joined(separator: ", ")) }
        if inStack, let spec = spec(level: k) {
            if s.dim.alpha < 0 || s.dim.alpha > spec.dimAlpha + 1e-9 {
                fail("dim-alpha", "level \(k) dim alpha \(s.dim.alpha) outside 0…\(spec.dimAlpha) (\(spec))")
            }
        }
    }

    func gradient(_ name: String, _ g: LinearGradient, _ bad: inout [String]) {
        for v in [g.start.x, g.start.y, g.end.x, g.end.y] where !v.isFinite { bad.append("\(name) \(g.start)–\(g.end)") }
        for i in 0..<g.count {
            let c = g[i].color
            for v in [g[i].location, c.red, c.green, c.blue, c.alpha] where !v.isFinite { bad.append("\(name) stop \(i)") }
        }
    }

    /// A layer frame (the top level's alone, ``PresentationHost/layerFrame()``).
    func check(layerFrame f: LayerFrame) {
        let (pw, ph) = host.pixelSize
        if f.width != pw || f.height != ph { fail("layer-frame", "frame \(f.width)x\(f.height), pixel size \(pw)x\(ph)") }
        let n = host.levelCount
        guard n >= 1, let spec = spec(level: n) else {
            if f.dim != 0 || f.dimGradient != nil || f.hasPresentedView { fail("layer-frame", "a dim or a card with nothing presented") }
            return
        }
        let maxByte = UInt32((min(max(spec.dimAlpha, 0), 1) * 255).rounded())
        if f.dim >> 24 > maxByte { fail("dim-alpha", "layer frame dim \(String(f.dim, radix: 16)) above alpha \(spec.dimAlpha) (\(spec))") }
        if let g = f.dimGradient {
            var bad: [String] = []
            gradient("layer dim gradient", g, &bad)
            if !bad.isEmpty { fail("non-finite", bad.joined(separator: ", ")) }
            for i in 0..<g.count where g[i].color.alpha > spec.dimAlpha + 1e-9 {
                fail("dim-alpha", "layer frame gradient stop \(i) alpha \(g[i].color.alpha) above \(spec.dimAlpha) (\(spec))")
            }
        }
        if f.presentedAlpha > 255 || !f.presentedCornerRadius.isFinite || !f.presentingCornerRadius.isFinite {
            fail("layer-frame", "card alpha \(f.presentedAlpha), radii \(f.presentedCornerRadius) \(f.presentingCornerRadius)")
        }
        if f.hasPresentedView && (f.presentedSourceWidth <= 0 || f.presentedSourceHeight <= 0) {
            fail("layer-frame", "card \(f.presentedRect) from a cache of \(f.presentedSourceWidth)x\(f.presentedSourceHeight)")
        }
        // The presented layer's own buffer, as the sub-surface backend draws it (whole scales).
        let s = host.scale
        if f.hasPresentedView, s >= 1, s == s.rounded(), s <= 8,
           let placement = PresentedLayerPlacement(frame: f, bufferScale: Int(s), containerWidth: pw / Int(s),
                                                   containerHeight: ph / Int(s)),
           placement.bufferWidth > 0, placement.bufferHeight > 0,
           placement.bufferWidth <= 1 << 21, placement.bufferHeight <= 1 << 21,   // no overflow below
           placement.bufferWidth * placement.bufferHeight <= 1 << 21,
           let image = try? Image(width: placement.bufferWidth, height: placement.bufferHeight) {
            host.drawPresentedLayer(f, into: image.pixelBuffer, presentedOffset: (placement.presentedOffsetX, placement.presentedOffsetY))
        }
    }

    /// Whether frames of this pixel size are drawn: a buffer of at most ~1.5 megapixels (a
    /// container huge along one side and thin along the other still is, beyond the 32767-pixel
    /// cache limit; one huge along both is not: no window buffer is that large).
    func renderable(_ w: Int, _ h: Int) -> Bool {
        w >= 1 && h >= 1 && w <= 1 << 22 && h <= 1 << 22 && w * h <= 1_500_000
    }

    func renderStep(buffer index: Int, fresh: Bool) {
        hostNow = now
        let (pw, ph) = host.pixelSize
        guard renderable(pw, ph) else {
            skippedRenders += 1
            host.update(now: now)
            buffers.forgetReference()
            return
        }
        let b = buffers.buffer(index, width: pw, height: ph)
        let age = fresh ? 0 : buffers.age(index)
        // A host that says it needs no redraw (the window then sleeps) must draw the same frame
        // again (pixels; its damage may be larger, e.g. after an offline frame of a stack).
        let idle = !host.needsRedraw && lastWindowFrame == .render
        let damage = renderFrame(into: b.pixelBuffer, now: now, age: age)
        buffers.drawn(index)
        renders += 1
        lastWindowFrame = .render
        check(damage: damage, width: pw, height: ph, what: "render")
        guard failure == nil, pw <= 32767, ph <= 32767 else { buffers.forgetReference(); return }
        // The same frame painted whole, from the same snapshots and caches (not recorded).
        let n = host.levelCount
        var snapshots: [PresentationSnapshot] = []
        for k in 1...max(1, n) {
            guard let s = host.snapshot(level: k, at: hostNow) else { return buffers.forgetReference() }
            snapshots.append(s)
        }
        // An event handler changed the stack meanwhile.
        guard host.levelCount == n else { return buffers.forgetReference() }
        let contents = n == 0 ? [] : (1...n).compactMap { host.presentedContent(level: $0) }
        let reference = buffers.reference(width: pw, height: ph)
        host.renderOffline(snapshots, presented: contents, into: reference.pixelBuffer)
        pixelChecks += 1
        compare(b, reference, what: "render into buffer \(index) at age \(age)", damage: damage)
        if idle, failure == nil, let previous = buffers.previousReference, previous.width == pw, previous.height == ph {
            idleFrames += 1
            guard let d = reference.firstDifference(from: previous) else { return }
            fail("redraw", "needsRedraw was false, yet the frame changed at (\(d.x), \(d.y)): "
                 + "\(String(d.got, radix: 16)), before \(String(d.expected, radix: 16)) (\(host.levelCount) levels)")
        }
    }

    func presentingLayerStep(buffer index: Int, fresh: Bool) {
        hostNow = now
        lastWindowFrame = .layers
        let f = layerFrame(now: now)
        check(layerFrame: f)
        let (pw, ph) = host.pixelSize
        guard failure == nil, renderable(pw, ph) else { skippedRenders += 1; return }
        let needs = host.presentingLayerNeedsRender
        let b = buffers.buffer(index, width: pw, height: ph)
        let age = fresh ? 0 : buffers.age(index)
        let damage = host.renderPresentingLayer(into: b.pixelBuffer, bufferAge: age)
        buffers.drawn(index)
        renders += 1
        check(damage: damage, width: pw, height: ph, what: "presenting layer")
        if !needs && !damage.isEmpty {
            fail("damage", "presentingLayerNeedsRender was false, the presenting layer damaged \(damage)")
        }
        guard failure == nil, pw <= 32767, ph <= 32767, let image = try? Image(width: pw, height: ph) else { return }
        // The harness paints the presenting view as it is; while a style recedes it (level 1's
        // `presentingRect`: scaled, corners clipped, faded over black) the layer holds that look,
        // checked against the same frame painted whole below.
        if !presentingRecedes, paintPresentingReference(into: image.pixmanImage) {
            pixelChecks += 1
            compare(b, WindowBuffer(image), what: "presenting layer into buffer \(index) at age \(age)", damage: damage)
            return
        }
        // No reference of the harness's own: the same frame again into a new buffer (a fourth
        // window buffer, age 0), painted whole — nothing changed since, so nothing needs a render.
        if host.presentingLayerNeedsRender {
            return fail("damage", "presentingLayerNeedsRender right after renderPresentingLayer")
        }
        let whole = WindowBuffer(image)
        whole.fill(0xDEAD_BEEF)
        let again = host.renderPresentingLayer(into: whole.pixelBuffer, bufferAge: 0)
        buffers.drawnElsewhere()
        if !again.isEmpty { fail("damage", "the presenting layer drawn again, unchanged, damaged \(again)") }
        pixelChecks += 1
        compare(b, whole, what: "presenting layer into buffer \(index) at age \(age)", damage: damage)
    }

    func check(damage: [PixelRect], width: Int, height: Int, what: String) {
        let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        for r in damage where r.isEmpty || r.intersection(bounds) != r {
            return fail("damage", "\(what) damage \(r) outside the \(width)x\(height) buffer (all: \(damage))")
        }
    }

    func compare(_ a: WindowBuffer, _ b: WindowBuffer, what: String, damage: [PixelRect]) {
        guard let d = a.firstDifference(from: b) else { return }
        fail("pixels", "\(what): pixel (\(d.x), \(d.y)) is \(String(d.got, radix: 16)), painted whole "
             + "\(String(d.expected, radix: 16)) (\(d.count) pixels differ; damage \(damage); "
             + "\(host.levelCount) levels)")
    }
}

extension FuzzStep {
    var isClockOnly: Bool { if case .advance = self { return true } else { return false } }
}

extension Rect {
    var isFinite: Bool { minX.isFinite && minY.isFinite && width.isFinite && height.isFinite }
}

/// A window's buffers (wl_shm style): three, each with the age Wayland's buffer age gives — how
/// many frames ago its contents were drawn (0: new, or of another size).
final class BufferPool {
    private var slots: [WindowBuffer?] = [nil, nil, nil]
    private var drawnAt: [Int] = [0, 0, 0]
    private var frame = 0
    private var referenceBuffer: WindowBuffer?
    /// The last frame's reference (painted whole), nil when the last frame had none.
    private(set) var previousReference: WindowBuffer?

    func buffer(_ i: Int, width: Int, height: Int) -> WindowBuffer {
        if let b = slots[i], b.width == width, b.height == height { return b }
        let b = WindowBuffer(width: width, height: height)
        slots[i] = b
        drawnAt[i] = 0
        return b
    }

    func age(_ i: Int) -> Int { drawnAt[i] == 0 ? 0 : frame - drawnAt[i] + 1 }

    func drawn(_ i: Int) {
        frame += 1
        drawnAt[i] = frame
    }

    /// A frame drawn into a buffer outside the pool (the pool's buffers age by one).
    func drawnElsewhere() { frame += 1 }

    /// A buffer for the frame painted whole, filled with a pattern no frame draws; the one of the
    /// frame before becomes ``previousReference``.
    func reference(width: Int, height: Int) -> WindowBuffer {
        swap(&referenceBuffer, &previousReference)
        if let r = referenceBuffer, r.width == width, r.height == height {
            r.fill(0xDEAD_BEEF)
            return r
        }
        let r = WindowBuffer(width: width, height: height)
        referenceBuffer = r
        return r
    }

    /// The last frame has no reference.
    func forgetReference() {
        referenceBuffer = nil
        previousReference = nil
    }
}

/// Pixels of a window buffer (stride 4 × width), new ones filled with a pattern no frame draws.
final class WindowBuffer {
    let width: Int, height: Int
    let data: UnsafeMutableRawPointer
    private let owner: Image?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        data = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 16)
        owner = nil
        fill(0xDEAD_BEEF)
    }

    init(_ image: Image) {
        width = image.width
        height = image.height
        data = image.pixelBuffer.data
        owner = image
    }

    deinit { if owner == nil { data.deallocate() } }

    var pixelBuffer: PixelBuffer { PixelBuffer(data: data, width: width, height: height, stride: width * 4) }

    func fill(_ v: UInt32) {
        pixman_fill(data.bindMemory(to: UInt32.self, capacity: width * height), Int32(width), 32, 0, 0,
                    Int32(width), Int32(height), v)
    }

    func firstDifference(from other: WindowBuffer) -> (x: Int, y: Int, got: UInt32, expected: UInt32, count: Int)? {
        guard memcmp(data, other.data, width * height * 4) != 0 else { return nil }
        let a = data.bindMemory(to: UInt32.self, capacity: width * height)
        let b = other.data.bindMemory(to: UInt32.self, capacity: width * height)
        var first: (Int, Int, UInt32, UInt32)?
        var count = 0
        for i in 0..<(width * height) where a[i] != b[i] {
            count += 1
            if first == nil { first = (i % width, i / width, a[i], b[i]) }
        }
        guard let f = first else { return nil }
        return (f.0, f.1, f.2, f.3, count)
    }
}
