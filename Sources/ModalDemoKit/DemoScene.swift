import CPixman
import ModalKit
import Foundation

/// A key the scene reacts to (the window maps keysyms to these).
public enum SceneKey: Hashable, Sendable {
    /// Escape: dismisses the presented view (UIKit: `accessibilityPerformEscape` / ⌘. on iPad keyboards).
    case escape
    /// Return, KP_Enter or space: activates the focused control.
    case activate
    /// Tab / Shift-Tab: moves focus within the layer that has it.
    case tab, backTab
}

/// Input delivered to the scene. Positions are surface-local points (the window's logical coordinates).
public enum SceneInput: Hashable, Sendable {
    case pointerMotion(Point)
    /// The primary pointer button (BTN_LEFT) went down or up at the last motion position.
    case pointerButton(pressed: Bool)
    /// The pointer left the window: a pointer press in progress ends without a tap.
    case pointerLeave
    case touchDown(id: Int32, Point)
    case touchMotion(id: Int32, Point)
    case touchUp(id: Int32)
    /// The compositor took the touch sequence over (e.g. for a gesture): no tap happens.
    case touchCancel
    /// Key presses; releases (`pressed: false`) are ignored.
    case key(SceneKey, pressed: Bool)
}

/// What the scene reports, in order, as it happens (`modal-demo --log-events` prints the raw value).
public enum SceneEvent: String, Hashable, Sendable {
    case presenting, presented, dismissing, dismissed
    /// The Present button was activated (click, tap, Return or space).
    case activated
}

/// The element with keyboard focus.
public enum SceneFocus: Hashable, Sendable {
    /// The Present button on the presenting view (when nothing is presented).
    case presentButton
    /// The presented view (focus is trapped there from the start of a presentation until its
    /// dismissal completes; it has no controls of its own, so Tab stays on it and activate does nothing).
    case presentedView
}

/// The demo's whole window content: the presenting view (background, title "ModalKit", centred
/// "Present" button with hover/pressed/focused looks), and — while presented — the dimming view and the
/// presented view (a white card with the label "modal"), driven by a `PresentationController` for one
/// style.
///
/// Units: geometry in points; `render` writes buffer pixels = points × `scale`, premultiplied ARGB.
/// The scale may be fractional (e.g. 1.5): the container is ``pixelLength(_:scale:)`` of each side;
/// a view's position and size are each its points × scale rounded half away from zero (so a view's
/// pixel size does not depend on where it is, and its cache is not redrawn as it slides); corner
/// radii are points × scale unrounded (anti-aliased); font sizes are points × scale rounded to
/// whole pixels. At a whole scale every one of these is exact.
/// Time: every entry point takes `now`, seconds of `CLOCK_MONOTONIC`; the scene never reads a clock.
///
/// Input routing (UIKit's modal presentation): while the modal layer is up (presenting, presented
/// or dismissing) all pointer and touch input goes to it — a tap on the dimming view (outside the
/// presented view's current rectangle) dismisses if the style's `shouldDismiss` agrees, a tap on
/// the presented view does nothing, and nothing reaches the Present button. A tap is press +
/// release; the target is chosen at press time, so one click gives at most one action.
public final class DemoScene {
    /// The presentation controller driving the style (state, transition, container geometry).
    public let controller: PresentationController
    private let events: (SceneEvent) -> Void

    /// Container size in points and the scale (buffer pixels per point) of the last `layout`.
    public private(set) var containerSize = Size(width: 1, height: 1)
    public private(set) var scale = 1.0

    /// The buffer size `render` draws: ``containerSize`` at ``scale``, each side
    /// ``pixelLength(_:scale:)`` (points × scale at a whole scale).
    public var pixelSize: (width: Int, height: Int) { containerSize.pixelSize(scale: scale) }

    private var fonts: FontSet
    private let renderer = Renderer()

    // Caches: the presenting view at window size, the presented view at its frame size.
    private var presentingCache: Image?
    private var presentingKey: (width: Int, height: Int, scale: Double, button: ButtonAppearance)?
    private var presentingVersion = 0
    private var pendingPresentingDamage = PixelRect.zero
    private var presentedCache: Image?
    private var presentedKey: PresentedKey?
    private var presentedVersion = 0

    private struct PresentedKey: Equatable {
        var width: Int, height: Int, scale: Double, radius: Double, corners: CornerMask
    }

    // Input state.
    private enum PressTarget { case button, dim, presentedView, nothing }
    private enum PressSource: Equatable { case pointer, touch(Int32) }
    private var pointer: Point?
    private var touchPoint: Point?
    private var press: (target: PressTarget, source: PressSource)?
    private var focusVisible = false
    private var dirty = true

    /// Creates the scene for `style`.
    /// - Parameters:
    ///   - events: called synchronously, in order, for every state change and button activation.
    /// - Throws: `SceneError.fontUnavailable` when fontconfig/fcft cannot load the sans-serif font.
    public init(style: any PresentationStyle, events: @escaping (SceneEvent) -> Void = { _ in }) throws {
        self.controller = PresentationController(style: style)
        self.events = events
        self.fonts = try FontSet(scale: 1)
        controller.onStateChange = { [unowned self] state in
            self.dirty = true
            self.events(SceneEvent(rawValue: state.rawValue)!)
        }
    }

    // MARK: State

    /// The controller's presentation state.
    public var state: PresentationState { controller.state }
    /// True while a transition runs.
    public var isAnimating: Bool { controller.isAnimating }
    /// True while animating or after a change (layout, input, state) that has not been rendered yet.
    public var needsRedraw: Bool { dirty || controller.isAnimating }

    /// The element with keyboard focus (the presented view while the modal layer is up).
    public var focus: SceneFocus { controller.isModalLayerActive ? .presentedView : .presentButton }

    /// The Present button's frame, points.
    public var buttonFrame: Rect { DemoLook.buttonFrame(in: Rect(size: containerSize)) }

    /// The Present button's current look.
    public var buttonAppearance: ButtonAppearance {
        let modal = controller.isModalLayerActive
        var a = ButtonAppearance()
        if !modal, press == nil, let p = pointer { a.isHovered = buttonFrame.contains(p) }
        if !modal, let pr = press, pr.target == .button, let p = currentPoint(of: pr.source) {
            a.isPressed = buttonFrame.contains(p)
            a.isHovered = a.isPressed
        }
        a.showsFocusRing = focusVisible && focus == .presentButton
        return a
    }

    /// Where the presented view is at `now`, points (`nil` when dismissed); under reduced motion
    /// always its frame.
    public func presentedViewRect(at now: Double) -> Rect? {
        controller.effectivePresentedViewRect(at: now)
    }

    /// Whether transitions reduce motion (`PresentationController.reducesMotion`, `ReducedMotion`):
    /// the presented view cross-fades at its frame instead of moving. Applies from the next
    /// transition; `renderSnapshot` uses it at once.
    public var reducesMotion: Bool {
        get { controller.reducesMotion }
        set { controller.reducesMotion = newValue }
    }

    // MARK: Layout

    /// Sets the container size (points, each side ≥ 1) and the scale: buffer pixels per point,
    /// whole (1, 2, …) or fractional (e.g. 1.25, 1.5); a scale that is not a positive finite number
    /// means 1. May be called at any time, also mid-transition; the next frame uses the style's
    /// frame for the new size.
    public func layout(containerSize size: Size, scale: Double) {
        let size = Size(width: max(1, size.width), height: max(1, size.height))
        let scale = scale.isFinite && scale > 0 ? scale : 1
        if scale != fonts.scale, let f = try? FontSet(scale: scale) { fonts = f }
        containerSize = size
        self.scale = scale
        controller.layout(containerBounds: Rect(size: size))
        dirty = true
    }

    /// ``layout(containerSize:scale:)`` at a whole scale (< 1 means 1).
    public func layout(containerSize size: Size, scale: Int) {
        layout(containerSize: size, scale: Double(max(1, scale)))
    }

    // MARK: Transitions

    /// Presents the modal (ignored while presenting or presented; reverses a running dismissal).
    public func present(now: Double) {
        controller.update(now: now)
        controller.present(now: now)
        dirty = true
    }

    /// Dismisses the modal (ignored while dismissing or dismissed; reverses a running presentation).
    public func dismiss(now: Double) {
        controller.update(now: now)
        controller.dismiss(now: now)
        dirty = true
    }

    private func activatePresentButton(now: Double) {
        events(.activated)
        present(now: now)
    }

    // MARK: Input

    /// Routes one input event at time `now`.
    public func handle(_ input: SceneInput, now: Double) {
        controller.update(now: now)
        let before = buttonAppearance
        switch input {
        case let .pointerMotion(p):
            pointer = p
        case let .pointerButton(pressed):
            if pressed {
                if let p = pointer { beginPress(at: p, source: .pointer, now: now) }
            } else if let pr = press, pr.source == .pointer {
                endPress(at: pointer, now: now)
            }
        case .pointerLeave:
            // A leave ends the pointer's press in progress without a tap: the release may never
            // come to this surface (sway, for one, sends none when the window is hidden while the
            // button is held), and a press left open would make the next press be ignored.
            pointer = nil
            if let pr = press, pr.source == .pointer { press = nil }
        case let .touchDown(id, p):
            if press == nil {
                touchPoint = p
                beginPress(at: p, source: .touch(id), now: now)
            }
        case let .touchMotion(id, p):
            if let pr = press, pr.source == .touch(id) { touchPoint = p }
        case let .touchUp(id):
            if let pr = press, pr.source == .touch(id) {
                endPress(at: touchPoint, now: now)
                touchPoint = nil
            }
        case .touchCancel:
            if let pr = press, case .touch = pr.source { press = nil }
            touchPoint = nil
        case let .key(key, pressed):
            if pressed { handleKey(key, now: now) }
        }
        if buttonAppearance != before { dirty = true }
    }

    private func currentPoint(of source: PressSource) -> Point? {
        switch source {
        case .pointer: return pointer
        case .touch: return touchPoint
        }
    }

    private func beginPress(at p: Point, source: PressSource, now: Double) {
        guard press == nil else { return }  // one press at a time (pointer or first touch)
        focusVisible = false
        let target: PressTarget
        if controller.isModalLayerActive {
            let rect = presentedViewRect(at: now) ?? .zero
            target = rect.contains(p) ? .presentedView : .dim
        } else {
            target = buttonFrame.contains(p) ? .button : .nothing
        }
        press = (target, source)
    }

    private func endPress(at p: Point?, now: Double) {
        guard let pr = press else { return }
        press = nil
        guard let p = p else { return }
        switch pr.target {
        case .button:
            // Activates only if the modal did not come up meanwhile and the release is on the button.
            if !controller.isModalLayerActive && buttonFrame.contains(p) { activatePresentButton(now: now) }
        case .dim:
            // A tap on the dimming view: press and release both outside the presented view.
            guard controller.state == .presenting || controller.state == .presented else { return }
            if controller.tapOnDimDismisses(at: p, progress: controller.progress(at: now)) { dismiss(now: now) }
        case .presentedView, .nothing:
            break
        }
    }

    private func handleKey(_ key: SceneKey, now: Double) {
        focusVisible = true
        switch key {
        case .escape:
            if controller.isModalLayerActive { dismiss(now: now) }
        case .activate:
            if focus == .presentButton { activatePresentButton(now: now) }
        case .tab, .backTab:
            break  // each layer has exactly one focusable element: focus stays, the ring shows
        }
    }

    // MARK: Rendering

    /// Renders the frame for `now` into `target` (size = ``pixelSize``, buffer pixels,
    /// premultiplied ARGB8888).
    ///
    /// - Parameters:
    ///   - bufferAge: 0 = the target's contents are undefined (everything is painted); n ≥ 1 = the
    ///     target holds the frame rendered n `render` calls ago (only what changed since is painted).
    /// - Returns: this frame's damage relative to the previous frame, buffer pixels, for
    ///   `wl_surface.damage_buffer`; empty when nothing changed. The array is reused by the next call:
    ///   do not keep it (keeping it makes the next frame copy it).
    ///
    /// Cost: the presenting and presented views are cached images, re-drawn only when their
    /// content, size or scale changes; a transition frame is one SRC blit of the presenting cache +
    /// one OVER fill of the dim (skipped under the presented view's opaque interior) + the
    /// presented cache. After warm-up a frame allocates nothing (modal-bench counts it). Call
    /// `layout` before the first render.
    @discardableResult
    public func render(into target: PixelBuffer, now: Double, bufferAge: Int) -> [PixelRect] {
        controller.update(now: now)
        let progress = controller.progress(at: now)
        let frame: LayerFrame
        if controller.state == .dismissed {
            frame = layerFrame(chrome: false, presentedFrame: .zero, corners: .square, dim: .none,
                               transform: .identity)
        } else {
            frame = layerFrame(chrome: true, presentedFrame: controller.presentedViewFrame,
                               corners: controller.presentedCornerStyle,
                               dim: controller.dimmingAppearance(progress: progress),
                               transform: controller.effectivePresentedViewTransform(at: now))
        }
        let damage = renderer.render(frame, presenting: presentingCache?.pixmanImage,
                                     presented: presentedCache?.pixmanImage,
                                     presentingDamage: pendingPresentingDamage, into: target,
                                     bufferAge: bufferAge, record: true)
        pendingPresentingDamage = .zero
        dirty = false
        return damage
    }

    /// Renders, offscreen, the frame at linear time fraction `progress` (0...1) of a presentation
    /// (`.present`) or of a dismissal (`.dismiss`), for the current container size and scale, into
    /// `target` (``pixelSize``). A dismissal at P is the presentation at 1 − P. Uses the same
    /// layer caches and compositor as `render`; does not change the live state, call style hooks or
    /// emit events.
    ///
    /// With `reducesMotion` the presented view is drawn at its final place with the cross-fade's
    /// alpha at `progress · duration` seconds into the phase
    /// (`ReducedMotion.presentedAlpha(phase:fraction:duration:)`; the fade starts with each phase,
    /// so there a dismissal at P is not the presentation at 1 − P), the dim as without it.
    public func renderSnapshot(into target: PixelBuffer, phase: TransitionPhase, progress: Double) {
        let p = min(max(progress.isFinite ? progress : 0, 0), 1)
        let u = phase == .present ? p : 1 - p
        let eased = controller.style.timingCurve.value(at: u)
        let style = controller.style
        let bounds = Rect(size: containerSize)
        let presentedFrame = style.frameOfPresentedView(in: bounds)
        let transform: ViewTransform
        if controller.reducesMotion {
            let alpha = ReducedMotion.presentedAlpha(phase: phase, fraction: p, duration: style.transitionDuration)
            transform = ReducedMotion.presentedViewTransform(style: style, alpha: alpha, frame: presentedFrame, in: bounds)
        } else {
            transform = style.presentedViewTransform(at: eased, frame: presentedFrame, in: bounds)
        }
        let frame = layerFrame(chrome: true, presentedFrame: presentedFrame,
                               corners: style.cornerStyle(forPresentedViewIn: bounds),
                               dim: style.dimmingAppearance(at: min(max(eased, 0), 1)),
                               transform: transform)
        renderer.render(frame, presenting: presentingCache?.pixmanImage, presented: presentedCache?.pixmanImage,
                        presentingDamage: .zero, into: target, bufferAge: 0, record: false)
    }

    /// Pixels repainted by the last `render`/`renderSnapshot` (for benchmarks).
    public var lastPaintedPixelCount: Int { renderer.lastPaintedPixels }

    /// Resolves the layer tree to buffer pixels, re-rendering a cache whose content, size or scale changed.
    private func layerFrame(chrome: Bool, presentedFrame: Rect, corners: CornerStyle, dim: DimmingAppearance,
                            transform: ViewTransform) -> LayerFrame {
        let s = scale
        var f = LayerFrame()
        (f.width, f.height) = pixelSize
        updatePresentingCache(width: f.width, height: f.height)
        f.presentingVersion = presentingVersion
        guard chrome else { return f }

        f.dim = dim.color.multipliedAlpha(by: min(max(dim.alpha, 0), 1)).argb32
        let cw = Int((presentedFrame.width * s).rounded()), ch = Int((presentedFrame.height * s).rounded())
        let alpha = UInt32((min(max(transform.alpha, 0), 1) * 255).rounded())
        guard cw > 0, ch > 0, alpha > 0, transform.scale > 0 else { return f }
        let radius = clampedRadius(corners.radius * s, width: Double(cw), height: Double(ch))
        updatePresentedCache(PresentedKey(width: cw, height: ch, scale: scale, radius: radius,
                                          corners: radius > 0 ? corners.corners : []))
        let shown = PresentationController.apply(transform, to: presentedFrame)
        let x = Int((shown.minX * s).rounded()), y = Int((shown.minY * s).rounded())
        if transform.scale == 1 {
            f.card = PixelRect(x: x, y: y, width: cw, height: ch)
        } else {
            f.card = PixelRect(x: x, y: y, width: Int((shown.width * s).rounded()),
                               height: Int((shown.height * s).rounded()))
        }
        f.cardVersion = presentedVersion
        f.cardAlpha = alpha
        f.cardSourceWidth = cw
        f.cardSourceHeight = ch
        let band = cornerBand(radius: radius)
        f.cardTopBand = corners.corners.isDisjoint(with: .top) ? 0 : band
        f.cardBottomBand = corners.corners.isDisjoint(with: [.bottomLeft, .bottomRight]) ? 0 : band
        return f
    }

    private func updatePresentingCache(width: Int, height: Int) {
        let button = buttonAppearance
        if let k = presentingKey, k.width == width, k.height == height, k.scale == scale, k.button == button {
            return
        }
        let onlyButton = presentingKey.map { $0.width == width && $0.height == height && $0.scale == scale } ?? false
        if presentingCache?.width != width || presentingCache?.height != height {
            presentingCache = try? Image(width: width, height: height)
        }
        presentingKey = (width, height, scale, button)
        guard let cache = presentingCache else { return }
        DemoLook.drawPresentingView(into: cache.pixmanImage, size: containerSize, scale: scale, fonts: fonts,
                                    button: button)
        if onlyButton {
            // Hover/press/focus: only the button's surroundings changed.
            let r = DemoLook.buttonOuterFrame(in: Rect(size: containerSize)).scaled(by: scale)
            let px = PixelRect(x: Int(floor(r.minX)), y: Int(floor(r.minY)),
                               width: Int(ceil(r.maxX)) - Int(floor(r.minX)),
                               height: Int(ceil(r.maxY)) - Int(floor(r.minY)))
            pendingPresentingDamage = pendingPresentingDamage.union(px)
        } else {
            presentingVersion += 1
        }
    }

    private func updatePresentedCache(_ key: PresentedKey) {
        guard key != presentedKey else { return }
        if presentedCache?.width != key.width || presentedCache?.height != key.height {
            presentedCache = try? Image(width: key.width, height: key.height)
        }
        presentedKey = key
        guard let cache = presentedCache else { return }
        DemoLook.drawPresentedView(into: cache.pixmanImage, scale: key.scale, fonts: fonts)
        Draw.clipCorners(cache.pixmanImage, width: key.width, height: key.height, radius: key.radius,
                         corners: key.corners)
        presentedVersion += 1
    }
}
