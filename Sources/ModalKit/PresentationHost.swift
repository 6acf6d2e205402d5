import CPixman

/// What of a content's pixels changed since it last drew (UIKit: `setNeedsDisplay()` /
/// `setNeedsDisplay(_:)`).
public enum ContentInvalidation: Hashable, Sendable {
    /// Nothing: the host keeps its cached pixels.
    case none
    /// Only this area changed, points in the content's own coordinates (the content still redraws
    /// everything when asked; the host damages only this area of the frame).
    case area(Rect)
    /// Everything changed.
    case all
}

/// A key the host routes (the window maps keysyms to these).
public enum PresentationKey: Hashable, Sendable {
    /// Escape: dismisses the presented view unless the presented content uses it (UIKit:
    /// `accessibilityPerformEscape`, ⌘. on iPad keyboards).
    case escape
    /// Return, KP_Enter or space: activates the focused control.
    case activate
    /// Tab / Shift-Tab: moves focus within the content that has it.
    case tab, backTab
}

/// Input delivered to a ``PresentationHost``. Positions are container points (the window's
/// surface-local logical coordinates).
public enum PresentationInput: Hashable, Sendable {
    /// The pointer is at this point (also when it enters the container).
    case pointerMotion(Point)
    /// The primary pointer button (BTN_LEFT) went down or up at the last motion position.
    case pointerButton(pressed: Bool)
    /// The pointer left the window: a pointer press in progress ends without a tap.
    case pointerLeave
    /// A touch point `id` went down here (`id`: the compositor's, unique while the point is down).
    /// Only the first touch point makes a press; others are ignored until it ends.
    case touchDown(id: Int32, Point)
    /// Touch point `id` moved here.
    case touchMotion(id: Int32, Point)
    /// Touch point `id` was lifted where it last was.
    case touchUp(id: Int32)
    /// The compositor took the touch sequence over (e.g. for a gesture): no tap happens.
    case touchCancel
    /// Key presses; releases (`pressed: false`) are ignored.
    case key(PresentationKey, pressed: Bool)
}

/// Input a content receives, positions in the content's own points (origin at its top-left,
/// unscaled by the presented view's transform). One press (pointer button or first touch) at a time.
public enum ContentInput: Hashable, Sendable {
    /// The pointer hovers at this point (nil: it left, or a modal layer covers this content).
    case hover(Point?)
    /// A press began here (the content was hit at press time; it gets the rest of the press).
    case press(Point)
    /// The press moved here (may be outside the content).
    case drag(Point)
    /// The press ended here: a tap if the content decides the point still hits what was pressed.
    case release(Point)
    /// The press ended without a tap (pointer left the window, touch cancelled).
    case cancel
    /// A key press while this content has keyboard focus.
    case key(PresentationKey)
}

/// App content shown by a ``PresentationHost``: the presenting view (UIKit: the root view
/// controller's view) or a presented view (`presentedViewController.view`). Main-thread only.
public protocol PresentationContent: AnyObject {
    /// What changed since the last ``draw(into:size:scale:)`` (UIKit's `setNeedsDisplay`). The
    /// host reads it before each frame and redraws the content's cache only when it is not `.none`.
    var invalidation: ContentInvalidation { get }
    /// Draws everything (replacing every pixel) into `image`: a pixman `PIXMAN_a8r8g8b8` image,
    /// premultiplied ARGB, of `size` points × `scale` buffer pixels per point (each side points ×
    /// scale rounded; `scale` > 0, whole or fractional; the exact pixel size is
    /// `Draw.pixelSize(of: image)` — draw nothing outside it). Afterwards `invalidation` must be `.none`.
    /// The host clips a presented view's corners itself. UIKit: `draw(_:)`.
    ///
    /// A presented content under a style whose chrome has a background colour finds `image`
    /// already filled with that colour (UIKit: the view's `backgroundColor` is painted before
    /// `draw(_:)`): a content that draws only its foreground (OVER) lets it show; one that fills
    /// every pixel hides it. Without a background colour the image holds the previous pixels and the
    /// content must paint every pixel (1.0). The border and the grabber are drawn over the content.
    func draw(into image: OpaquePointer, size: Size, scale: Double)
    /// Input that lands on this content at `now` (monotonic seconds). Returns whether it was used
    /// (a key not used by a presented content falls back to the host: Escape dismisses).
    func handle(_ input: ContentInput, now: Double) -> Bool
    /// The content's size changed, points (UIKit: `layoutSubviews` after a `bounds` change): the
    /// presenting content gets the container's size, a presented content its frame's size — before
    /// input reaches it and before it draws. Default: nothing.
    func didLayout(size: Size)
}

extension PresentationContent {
    public func didLayout(size: Size) {}
}

/// One presented view controller's worth of state: its content and the cache of its pixels.
/// (The host keeps these in a list so that stacked levels can be added without a new API.)
private final class PresentedLevel {
    let content: any PresentationContent
    var cache: Image?
    var key: PresentedKey?
    var version = 0
    init(content: any PresentationContent) { self.content = content }
}

private struct PresentedKey: Equatable {
    var width: Int, height: Int, scale: Double, radius: Double, corners: CornerMask
    /// The chrome baked into the cache (background, border, grabber; the shadow is drawn apart).
    var chrome: PresentedViewChrome
}

/// The presentation host over one container (UIKit: the window's root view plus the
/// `UIPresentationController` machinery): owns the presenting content, the presented content of
/// the current presentation, the layer tree (presenting view, dimming view, presented view), their
/// pixel caches, input routing and rendering with damage.
///
/// - Layout: ``layout(containerSize:scale:)`` — points and buffer pixels per point.
/// - Time: every entry point takes `now`, seconds of `CLOCK_MONOTONIC`; the host never reads a clock.
/// - Frames: ``snapshot(at:)`` is the frame's value (``PresentationSnapshot``);
///   ``render(into:now:bufferAge:)`` draws it with the pixman ``Renderer``; a compositor-layer
///   backend could consume the same snapshot.
/// - Input routing (UIKit's modal presentation): while the modal layer is up (presenting,
///   presented or dismissing) all pointer and touch input goes to it — a press on the presented
///   view goes to its content, a tap (press and release) on the dimming view dismisses if the
///   style's `shouldDismiss(onTapAt:in:)` agrees, and nothing reaches the presenting content;
///   keys go to the presented content (focus is trapped in it) and an Escape it does not use
///   dismisses. Otherwise all input goes to the presenting content. The target of a press is
///   chosen at press time, so one click gives at most one action.
/// - Events: ``onStateChange`` gets every state change (presenting, presented, dismissing,
///   dismissed), synchronously, in order.
public final class PresentationHost {
    /// The controller of the (one) presentation level: state, transition, container geometry.
    /// Not public: its `present`, `dismiss` and `layout` would bypass the host's presented contents
    /// and caches; apps use the host's own members (``style``, ``state``, ``reducesMotion``,
    /// ``presentedViewFrame``, ``snapshot(phase:fraction:)`` …).
    let controller: PresentationController
    /// The presenting content (drawn at the container's size).
    public let presentingContent: any PresentationContent
    /// Called after each state change, with the new state: synchronously, in order, from within the
    /// call that caused it (`present`, `dismiss`, `handle`, `update`, `snapshot(at:)`, `render`).
    public var onStateChange: (PresentationState) -> Void = { _ in }

    /// The container's size of the last `layout`, points (1 × 1 before the first).
    public private(set) var containerSize = Size(width: 1, height: 1)
    /// The scale of the last `layout`: buffer pixels per point (> 0, whole or fractional).
    public private(set) var scale = 1.0
    /// The buffer size `render` draws: ``containerSize`` at ``scale``, each side ``pixelLength(_:scale:)``.
    public var pixelSize: (width: Int, height: Int) { containerSize.pixelSize(scale: scale) }

    private var levels: [PresentedLevel] = []
    /// The last dismissed level, kept so that presenting again (the same content, or another of
    /// the same size) reuses its cache instead of allocating one.
    private var spareLevel: PresentedLevel?
    private let renderer = Renderer()
    private var presentingCache: Image?
    private var presentingKey: (width: Int, height: Int, scale: Double)?
    private var presentingVersion = 0
    private var pendingPresentingDamage = PixelRect.zero
    private var dirty = true
    /// The presenting-view-only renderer of a layer backend (``renderPresentingLayer(into:bufferAge:)``).
    private let presentingRenderer = Renderer()
    private let layerPainter = LayerPainter()
    /// Which renderer drew the window's buffers last (true: the presenting-view-only one): on a
    /// switch the other one's damage history is stale, so its next frame repaints everything.
    private var lastRenderWasLayer = false
    /// The `now` of the latest call (for content callbacks made from state changes).
    private var lastNow = 0.0

    private enum PressTarget { case presenting, dim, presented, nothing }
    private enum PressSource: Equatable { case pointer, touch(Int32) }
    private var pointer: Point?
    private var touchPoint: Point?
    private var press: (target: PressTarget, source: PressSource)?

    /// A host for `style` over `presenting`, nothing presented; call `layout` before rendering.
    public init(style: any PresentationStyle, presenting: any PresentationContent) {
        self.controller = PresentationController(style: style)
        self.presentingContent = presenting
        controller.onStateChange = { [unowned self] state in
            self.dirty = true
            if state == .presenting, let pr = self.press, pr.target == .presenting {
                // The modal layer came up during a press on the presenting content: it ends, no tap.
                self.press = (.nothing, pr.source)
                self.use(self.presentingContent.handle(.cancel, now: self.lastNow))
            }
            if state == .presenting { self.use(self.presentingContent.handle(.hover(nil), now: self.lastNow)) }
            if state == .dismissed {
                self.retireLevels()
                // The presenting content is in front again: it sees the pointer where it is.
                if self.press == nil, let p = self.pointer {
                    self.use(self.presentingContent.handle(.hover(p), now: self.lastNow))
                }
            }
            self.onStateChange(state)
        }
    }

    // MARK: State

    /// The presentation style (UIKit: the presented view controller's `presentationController`,
    /// asked for frames, chrome and timing).
    public var style: any PresentationStyle { controller.style }
    /// Whether transitions reduce motion (UIKit: `UIAccessibility.isReduceMotionEnabled`): the
    /// presented view cross-fades at its frame over `ReducedMotion`'s fade instead of moving, while
    /// the dim fades as usual. Read when a transition starts or reverses; a running one finishes as
    /// it started. ``snapshot(phase:fraction:)`` uses it at once.
    public var reducesMotion: Bool {
        get { controller.reducesMotion }
        set { controller.reducesMotion = newValue }
    }
    /// The presentation state of the top level.
    public var state: PresentationState { controller.state }
    /// True while a transition runs.
    public var isAnimating: Bool { controller.isAnimating }
    /// Whether the modal layer is up (input is captured by it).
    public var isModalLayerActive: Bool { controller.isModalLayerActive }
    /// The presented content of the current presentation (nil when dismissed).
    public var presentedContent: (any PresentationContent)? { levels.last?.content }
    /// The presented view's frame in the container, points: the style's `frameOfPresentedView(in:)`
    /// for the last layout (UIKit: `frameOfPresentedViewInContainerView`); meaningful while not
    /// ``PresentationState/dismissed`` (then the last presentation's).
    public var presentedViewFrame: Rect { controller.presentedViewFrame }
    /// Where the presented view is on screen at `now` (monotonic seconds), points: its frame under
    /// the style's transform at that moment (under reduced motion, its frame); nil when dismissed.
    /// What input hit-tests against.
    public func presentedViewRect(at now: Double) -> Rect? { controller.effectivePresentedViewRect(at: now) }
    /// The transition's linear time fraction at `now` (monotonic seconds): 0 dismissed … 1
    /// presented, moving at 1 / ``transitionDuration`` per second while a transition runs (the
    /// eased progress is the style's curve at this fraction).
    public func fraction(at now: Double) -> Double { controller.fraction(at: now) }
    /// The duration of the current (or last) transition from 0 to 1, seconds (the style's
    /// `transitionDuration` when it started; UIKit: `transitionDuration(using:)`).
    public var transitionDuration: Double { controller.transition.duration }
    /// True while animating, after a change not rendered yet, or when a content is invalidated.
    public var needsRedraw: Bool {
        dirty || controller.isAnimating || presentingContent.invalidation != .none
            || (levels.last.map { $0.content.invalidation != .none } ?? false)
    }

    // MARK: Layout

    /// Sets the container size (points, each side ≥ 1) and the scale (buffer pixels per point;
    /// not a positive finite number means 1). Any time, also mid-transition.
    public func layout(containerSize size: Size, scale: Double) {
        containerSize = Size(width: max(1, size.width), height: max(1, size.height))
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        controller.layout(containerBounds: Rect(size: containerSize))
        presentingContent.didLayout(size: containerSize)
        if let level = levels.last { level.content.didLayout(size: controller.presentedViewFrame.size) }
        dirty = true
    }

    /// Replaces the style while no transition runs (``PresentationController/replaceStyle(_:)``);
    /// a presented view takes the new style's frame and corners at once.
    /// - Returns: false (nothing changed) while a transition runs.
    @discardableResult
    public func replaceStyle(_ style: any PresentationStyle) -> Bool {
        guard controller.replaceStyle(style) else { return false }
        layout(containerSize: containerSize, scale: scale)
        return true
    }

    // MARK: Transitions

    /// Presents `content` with the host's style (UIKit: `present(_:animated:)`). Ignored (false)
    /// while a presentation is up, except that presenting the content being dismissed reverses
    /// the dismissal.
    @discardableResult
    public func present(_ content: any PresentationContent, now: Double) -> Bool {
        lastNow = now
        controller.update(now: now)
        if let top = levels.last {
            guard top.content === content, controller.state == .dismissing else { return false }
        } else {
            levels.append(makeLevel(content))
        }
        dirty = true
        let changed = controller.present(now: now)
        levels.last?.content.didLayout(size: controller.presentedViewFrame.size)
        return changed
    }

    /// Dismisses the current presentation (UIKit: `dismiss(animated:)`); ignored (false) while
    /// dismissing or dismissed, reverses a running presentation.
    @discardableResult
    public func dismiss(now: Double) -> Bool {
        lastNow = now
        controller.update(now: now)
        dirty = true
        return controller.dismiss(now: now)
    }

    /// Advances the transitions to `now` (completions, events).
    public func update(now: Double) {
        lastNow = now
        controller.update(now: now)
    }

    // MARK: Input

    /// Routes one input event at `now` (see the type's routing rules).
    public func handle(_ input: PresentationInput, now: Double) {
        lastNow = now
        controller.update(now: now)
        switch input {
        case let .pointerMotion(p):
            pointer = p
            if let pr = press, pr.source == .pointer {
                deliverDrag(p, to: pr.target, now: now)
            } else if !controller.isModalLayerActive {
                use(presentingContent.handle(.hover(p), now: now))
            } else if let level = levels.last {
                use(level.content.handle(.hover(toPresented(p, now: now)), now: now))
            }
        case let .pointerButton(pressed):
            if pressed {
                if let p = pointer { beginPress(at: p, source: .pointer, now: now) }
            } else if let pr = press, pr.source == .pointer {
                endPress(at: pointer, now: now)
            }
        case .pointerLeave:
            // A leave ends the pointer's press without a tap: the release may never come to this
            // surface (sway sends none when the window is hidden while the button is held).
            pointer = nil
            if let pr = press, pr.source == .pointer {
                press = nil
                deliver(.cancel, to: pr.target, now: now)
            }
            use(presentingContent.handle(.hover(nil), now: now))
            if let level = levels.last { use(level.content.handle(.hover(nil), now: now)) }
        case let .touchDown(id, p):
            if press == nil {
                touchPoint = p
                beginPress(at: p, source: .touch(id), now: now)
            }
        case let .touchMotion(id, p):
            if let pr = press, pr.source == .touch(id) {
                touchPoint = p
                deliverDrag(p, to: pr.target, now: now)
            }
        case let .touchUp(id):
            if let pr = press, pr.source == .touch(id) {
                endPress(at: touchPoint, now: now)
                touchPoint = nil
            }
        case .touchCancel:
            if let pr = press, case .touch = pr.source {
                press = nil
                deliver(.cancel, to: pr.target, now: now)
            }
            touchPoint = nil
        case let .key(key, pressed):
            guard pressed else { return }
            if controller.isModalLayerActive {
                let used = levels.last.map { $0.content.handle(.key(key), now: now) } ?? false
                use(used)
                if !used && key == .escape { dismiss(now: now) }
            } else {
                use(presentingContent.handle(.key(key), now: now))
            }
        }
    }

    private func use(_ used: Bool) { if used { dirty = true } }

    /// A container point in the presented content's own points, under its current transform.
    private func toPresented(_ p: Point, now: Double) -> Point {
        let snap = controller.snapshot(at: now)
        let r = snap.presentedRect
        let t = snap.presentedTransform
        let kx = t.scaleX > 0 ? t.scaleX : 1, ky = t.scaleY > 0 ? t.scaleY : 1
        return Point(x: (p.x - r.minX) / kx, y: (p.y - r.minY) / ky)
    }

    private func deliver(_ input: ContentInput, to target: PressTarget, now: Double) {
        switch target {
        case .presenting: use(presentingContent.handle(input, now: now))
        case .presented: if let level = levels.last { use(level.content.handle(input, now: now)) }
        case .dim, .nothing: break
        }
    }

    private func deliverDrag(_ p: Point, to target: PressTarget, now: Double) {
        deliver(.drag(target == .presented ? toPresented(p, now: now) : p), to: target, now: now)
    }

    private func beginPress(at p: Point, source: PressSource, now: Double) {
        guard press == nil else { return }  // one press at a time (pointer or first touch)
        let target: PressTarget
        if controller.isModalLayerActive {
            let rect = controller.effectivePresentedViewRect(at: now) ?? .zero
            target = rect.contains(p) ? .presented : .dim
        } else {
            target = .presenting
        }
        press = (target, source)
        switch target {
        case .presenting: use(presentingContent.handle(.press(p), now: now))
        case .presented: if let level = levels.last { use(level.content.handle(.press(toPresented(p, now: now)), now: now)) }
        case .dim, .nothing: break
        }
    }

    private func endPress(at p: Point?, now: Double) {
        guard let pr = press else { return }
        press = nil
        guard let p = p else { deliver(.cancel, to: pr.target, now: now); return }
        switch pr.target {
        case .presenting:
            // The modal may have come up meanwhile (a key): then the press is cancelled.
            deliver(controller.isModalLayerActive ? .cancel : .release(p), to: .presenting, now: now)
        case .presented:
            deliver(.release(toPresented(p, now: now)), to: .presented, now: now)
        case .dim:
            // A tap on the dimming view: press and release both outside the presented view.
            guard controller.state == .presenting || controller.state == .presented else { return }
            if controller.tapOnDimDismisses(at: p, progress: controller.progress(at: now)) { dismiss(now: now) }
        case .nothing:
            break
        }
    }

    // MARK: Rendering

    /// The frame at `now` (after advancing the transitions to it): see ``PresentationSnapshot``.
    public func snapshot(at now: Double) -> PresentationSnapshot {
        lastNow = now
        controller.update(now: now)
        return controller.snapshot(at: now)
    }

    /// The frame at linear time fraction `fraction` (0...1, clamped) of a presentation (`.present`) or
    /// a dismissal (`.dismiss`, = a presentation at 1 − fraction) in the current container, offline:
    /// by the same geometry function as ``snapshot(at:)``, without changing any state (for
    /// ``renderOffline(_:presented:into:)``, e.g. `modal-demo render`). Under ``reducesMotion`` the
    /// cross-fade `fraction × duration` seconds into the phase.
    public func snapshot(phase: TransitionPhase, fraction: Double) -> PresentationSnapshot {
        controller.snapshot(phase: phase, fraction: fraction)
    }

    /// Renders the frame for `now` (monotonic seconds, after advancing the transitions to it) into
    /// `target` (``pixelSize`` buffer pixels, premultiplied ARGB8888). A content cache that cannot
    /// be allocated (no memory) leaves that layer out of the frame; nothing throws.
    /// - Parameter bufferAge: 0 = the target's contents are undefined (everything is painted);
    ///   n ≥ 1 = it holds the frame rendered n `render` calls ago (only what changed is painted).
    /// - Returns: the damage relative to the previous frame, buffer pixels (for
    ///   `wl_surface.damage_buffer`); reused by the next call, do not keep it.
    /// Cost: caches are redrawn only when their content said it changed or their size/scale
    /// changed; after warm-up a frame allocates nothing.
    @discardableResult
    public func render(into target: PixelBuffer, now: Double, bufferAge: Int) -> [PixelRect] {
        if lastRenderWasLayer { renderer.reset() }
        lastRenderWasLayer = false
        let frame = layerFrame(for: snapshot(at: now))
        let damage = renderer.render(frame, presenting: presentingCache?.pixmanImage,
                                     presented: levels.last?.cache?.pixmanImage,
                                     presentingDamage: pendingPresentingDamage, into: target,
                                     bufferAge: bufferAge, record: true)
        pendingPresentingDamage = .zero
        dirty = false
        return damage
    }

    /// Renders `snapshot` (e.g. ``snapshot(phase:fraction:)``) offscreen into
    /// `target` (``pixelSize``) from the same caches and compositor as `render`, without touching
    /// the live frame history. With nothing presented, `presented` is drawn into the presented cache
    /// for the picture (not presented: no state change, no event).
    public func renderOffline(_ snapshot: PresentationSnapshot, presented content: (any PresentationContent)?,
                              into target: PixelBuffer) {
        if levels.isEmpty, let c = content {
            levels.append(makeLevel(c))
            c.didLayout(size: snapshot.presentedFrame.size)
        }
        let frame = layerFrame(for: snapshot)
        renderer.render(frame, presenting: presentingCache?.pixmanImage, presented: levels.last?.cache?.pixmanImage,
                        presentingDamage: .zero, into: target, bufferAge: 0, record: false)
        if controller.state == .dismissed { retireLevels() }
    }

    private func makeLevel(_ content: any PresentationContent) -> PresentedLevel {
        if let spare = spareLevel {
            spareLevel = nil
            if spare.content === content { return spare }
            let level = PresentedLevel(content: content)
            level.cache = spare.cache  // same pixels size → no allocation; the key forces a redraw
            level.version = spare.version + 1
            return level
        }
        return PresentedLevel(content: content)
    }

    private func retireLevels() {
        if let last = levels.last { spareLevel = last }
        levels.removeAll(keepingCapacity: true)
    }

    /// Buffer pixels repainted by the last `render` or `renderOffline` (for benchmarks).
    public var lastPaintedPixelCount: Int { renderer.lastPaintedPixels }

    // MARK: Layer backends

    /// Snap the presented view's position to whole points (then × scale, rounded) in every frame
    /// this host renders or resolves, live or offline: the unit of `wl_subsurface.set_position`, so a
    /// backend that moves the presented view as a sub-surface and the pixman renderer draw it at the
    /// same pixel. Default false (position = points × scale rounded). No effect at scale 1.
    public var snapsPositionsToPoints = false

    /// The frame at `now` resolved to buffer pixels (``PresentationSnapshot/layerFrame(scale:)``,
    /// positions snapped per ``snapsPositionsToPoints``), with both caches brought up to date and their
    /// versions set: what a backend that composes the layers itself shows (the presenting view
    /// through ``renderPresentingLayer(into:bufferAge:)``, the dim as one colour, the presented view
    /// through ``drawPresentedLayer(_:into:)`` at `card`). Advances the transitions to `now`.
    public func layerFrame(at now: Double) -> LayerFrame {
        let f = layerFrame(for: snapshot(at: now))
        dirty = false
        return f
    }

    /// Renders only the presenting view (no dim, no presented view) into `target` (``pixelSize``),
    /// with damage and buffer age as ``render(into:now:bufferAge:)``: the window's own buffer under
    /// layers the compositor composes. Call after ``layerFrame(at:)`` of the same frame. Returns an
    /// empty list when nothing changed since the last call (then nothing needs attaching).
    @discardableResult
    public func renderPresentingLayer(into target: PixelBuffer, bufferAge: Int) -> [PixelRect] {
        if !lastRenderWasLayer { presentingRenderer.reset() }
        lastRenderWasLayer = true
        var f = LayerFrame()
        (f.width, f.height) = pixelSize
        f.presentingVersion = presentingVersion
        let damage = presentingRenderer.render(f, presenting: presentingCache?.pixmanImage, presented: nil,
                                               presentingDamage: pendingPresentingDamage, into: target,
                                               bufferAge: bufferAge, record: true)
        pendingPresentingDamage = .zero
        return damage
    }

    /// Whether the presenting view changed since the last ``renderPresentingLayer(into:bufferAge:)``
    /// (or a frame was rendered by ``render(into:now:bufferAge:)`` since, whose buffer holds more than
    /// the presenting view). Call after ``layerFrame(at:)`` of the same frame.
    public var presentingLayerNeedsRender: Bool {
        !lastRenderWasLayer || !pendingPresentingDamage.isEmpty
            || presentingRenderer.lastFrame.map { $0.presentingVersion != presentingVersion
                || ($0.width, $0.height) != pixelSize } ?? true
    }

    /// Draws the presented view of `frame` (from ``layerFrame(at:)``) into `target`, the buffer of a
    /// layer showing it at `frame.card`'s origin: `frame.card`'s size in its top-left corner, every
    /// other pixel transparent (so `target` may be padded, e.g. to whole points). Opaque and unscaled,
    /// that is the cache as it is (draw it once per ``LayerFrame/cardVersion`` and size); with an
    /// alpha below 255 or a scale it is the cache at that alpha and scale, drawn by pixman as
    /// ``render(into:now:bufferAge:)`` would (a compositor without `wp_alpha_modifier_v1` cannot
    /// fade a surface). Nothing is drawn without a presented view.
    public func drawPresentedLayer(_ frame: LayerFrame, into target: PixelBuffer) {
        guard frame.hasCard, let cache = levels.last?.cache else { return }
        layerPainter.draw(frame, cache: cache.pixmanImage, into: target)
    }

    /// The snapshot resolved to pixels, with the caches brought up to date.
    private func layerFrame(for snap: PresentationSnapshot) -> LayerFrame {
        var f = snap.layerFrame(scale: scale)
        if snapsPositionsToPoints, f.hasCard {
            let shown = snap.presentedRect
            f.card.x = Int((shown.minX.rounded() * scale).rounded())
            f.card.y = Int((shown.minY.rounded() * scale).rounded())
        }
        updatePresentingCache(width: f.width, height: f.height)
        f.presentingVersion = presentingVersion
        guard f.hasCard, let level = levels.last else {
            f.card = .zero
            return f
        }
        let radius = snap.presentedCornerRadius(scale: scale)
        var chrome = snap.chrome
        chrome.shadow = nil
        updatePresentedCache(level, PresentedKey(width: f.cardSourceWidth, height: f.cardSourceHeight, scale: scale,
                                                 radius: radius, corners: radius > 0 ? snap.corners.corners : [],
                                                 chrome: chrome),
                             size: snap.presentedFrame.size)
        f.cardVersion = level.version
        return f
    }

    private func updatePresentingCache(width: Int, height: Int) {
        let sameSize = presentingKey.map { $0.width == width && $0.height == height && $0.scale == scale } ?? false
        let inval = presentingContent.invalidation
        if sameSize && inval == .none { return }
        if presentingCache?.width != width || presentingCache?.height != height {
            presentingCache = try? Image(width: width, height: height)
        }
        presentingKey = (width, height, scale)
        guard let cache = presentingCache else { return }
        presentingContent.draw(into: cache.pixmanImage, size: containerSize, scale: scale)
        if sameSize, case let .area(r) = inval {
            let s = r.scaled(by: scale)
            let px = PixelRect(x: Int(s.minX.rounded(.down)), y: Int(s.minY.rounded(.down)),
                               width: Int(s.maxX.rounded(.up)) - Int(s.minX.rounded(.down)),
                               height: Int(s.maxY.rounded(.up)) - Int(s.minY.rounded(.down)))
            pendingPresentingDamage = pendingPresentingDamage.union(px)
        } else {
            presentingVersion += 1
        }
    }

    private func updatePresentedCache(_ level: PresentedLevel, _ key: PresentedKey, size: Size) {
        guard key != level.key || level.content.invalidation != .none else { return }
        if level.cache?.width != key.width || level.cache?.height != key.height {
            level.cache = try? Image(width: key.width, height: key.height)
        }
        level.key = key
        guard let cache = level.cache else { return }
        let image = cache.pixmanImage
        if let background = key.chrome.backgroundColor {
            Draw.fill(image, width: key.width, height: key.height, color: background)
        }
        level.content.draw(into: image, size: size, scale: key.scale)
        Self.drawChrome(key.chrome, into: image, width: key.width, height: key.height, scale: key.scale,
                        radius: key.radius, corners: key.corners)
        Draw.clipCorners(image, width: key.width, height: key.height, radius: key.radius, corners: key.corners)
        level.version += 1
    }

    /// The chrome the host draws over a presented content (buffer pixels, `width × height`, corner
    /// `radius` in pixels): the border inside the rounded edge (CALayer's `borderWidth`, drawn over
    /// the content), then the grabber — ``PresentedViewChrome/grabberSize`` with fully rounded ends,
    /// centred, ``PresentedViewChrome/grabberTopInset`` below the top edge (UIKit's sheet grabber).
    /// The background is filled before the content draws (see ``PresentationContent``).
    static func drawChrome(_ chrome: PresentedViewChrome, into image: OpaquePointer, width: Int, height: Int,
                           scale: Double, radius: Double, corners: CornerMask) {
        let w = Double(width), h = Double(height)
        if let border = chrome.border, border.width > 0, border.color.alpha > 0 {
            let bw = min(border.width * scale, w / 2, h / 2)
            Draw.fillRoundedRect(image, x: 0, y: 0, width: w, height: h, radius: radius, corners: corners,
                                 color: border.color, ring: (inset: bw, radius: max(0, radius - bw)))
        }
        if let grabber = chrome.grabber, grabber.alpha > 0 {
            let gw = PresentedViewChrome.grabberSize.width * scale, gh = PresentedViewChrome.grabberSize.height * scale
            Draw.fillRoundedRect(image, x: (w - gw) / 2, y: PresentedViewChrome.grabberTopInset * scale,
                                 width: gw, height: gh, radius: gh / 2, color: grabber)
        }
    }
}
