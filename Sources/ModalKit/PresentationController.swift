/// Where a presentation is in its life cycle (UIKit: a presented view controller's
/// `isBeingPresented` / `isBeingDismissed`, and whether it is on screen at all).
public enum PresentationState: String, Hashable, Sendable {
    /// Nothing presented; no chrome in the container.
    case dismissed
    /// The presentation transition is running (u heading to 1).
    case presenting
    /// Fully presented, at rest.
    case presented
    /// The dismissal transition is running (u heading to 0).
    case dismissing
}

/// Drives one `PresentationStyle` through `dismissed → presenting → presented → dismissing →
/// dismissed`, the way UIKit drives a `UIPresentationController`, and owns the container's view
/// geometry: the dimming view (container bounds, while the chrome is installed) and the presented
/// view (the style's frame, re-applied on every layout, plus the style's transform at the current
/// progress).
///
/// Rules (UIKit's `UIPresentationController` behaviour):
/// - `present` while `presenting`/`presented` is ignored (a double activation gives one modal);
///   during `dismissing` it reverses from the current position: `dismissalTransitionDidEnd(completed:
///   false)`, then `presentationTransitionWillBegin()`.
/// - `dismiss` while `dismissing`/`dismissed` is ignored; during `presenting` it reverses:
///   `presentationTransitionDidEnd(completed: false)`, then `dismissalTransitionWillBegin()`.
/// - The chrome (dimming view) is installed when a presentation begins and removed only when a
///   dismissal *completes* (`dismissalTransitionDidEnd(completed: true)`).
/// - `layout(containerBounds:)` at any time, also mid-transition, calls
///   `containerViewWillLayoutSubviews`, re-applies the container bounds to the dimming view and the
///   style's `frameOfPresentedView(in:)` to the presented view, then `containerViewDidLayoutSubviews`.
///
/// - Reduced motion (`reducesMotion`, see `ReducedMotion`): the presented view stays at its final
///   place and cross-fades over `min(0.2 s, duration)` while the dim fades as usual. The flag is
///   read when a transition starts (or reverses); a change meanwhile applies from the next one.
///
/// Time is passed in (`now`, monotonic seconds); nothing here reads a clock.
public final class PresentationController {
    /// The style this controller drives; asked for frames, chrome and timing on every call.
    /// Replaced only between transitions (`replaceStyle(_:)`).
    public private(set) var style: any PresentationStyle
    /// Where the presentation is in its life cycle; changes are reported to `onStateChange`.
    public private(set) var state: PresentationState = .dismissed
    /// The transition's clock-independent state (linear time fraction and direction).
    public private(set) var transition: Transition
    /// The container view's bounds, points.
    public private(set) var containerBounds: Rect = .zero
    /// The dimming view's frame (always the container bounds) while the chrome is installed;
    /// `nil` when no dimming view is in the container.
    public private(set) var dimmingViewFrame: Rect?
    /// The presented view's frame, points: the style's `frameOfPresentedView(in:)` for the last
    /// layout (valid while not `dismissed`).
    public private(set) var presentedViewFrame: Rect = .zero
    /// The presented view's corner clip for the last layout.
    public private(set) var presentedCornerStyle: CornerStyle = .square
    /// Called after each state change, with the new state.
    public var onStateChange: (PresentationState) -> Void = { _ in }
    /// Whether transitions should reduce motion (UIKit: `UIAccessibility.isReduceMotionEnabled`):
    /// the presented view cross-fades at its final place instead of moving (`ReducedMotion`).
    /// Read at the start of each transition; a running transition finishes as it started.
    public var reducesMotion = false
    /// Whether the current (or last) transition reduces motion: `reducesMotion` as it was when
    /// that transition started or reversed.
    public private(set) var isReducingMotion = false
    /// The presented view's cross-fade under reduced motion: a linear transition of
    /// `ReducedMotion.fadeDuration(forTransitionDuration:)` seconds whose fraction is the alpha.
    /// It runs alongside `transition` in every transition, so that switching `reducesMotion` on
    /// between transitions finds it where the presentation is (0 dismissed, 1 presented).
    public private(set) var fade: Transition
    /// The rectangle of the control that started the presentation, container points, or nil
    /// (part of the ``TransitionContext`` every style hook receives).
    public var sourceRect: Rect?

    /// The context of the current (or, at rest, the last) transition: dismissing while
    /// `dismissing`, presenting otherwise.
    public var transitionContext: TransitionContext {
        TransitionContext(phase: state == .dismissing ? .dismiss : .present, isInteractive: false,
                          sourceRect: sourceRect, containerBounds: containerBounds)
    }

    /// A controller at rest, `dismissed`, with empty container bounds until `layout(containerBounds:)`.
    public init(style: any PresentationStyle) {
        self.style = style
        self.transition = Transition(duration: style.transitionDuration, curve: style.timingCurve)
        self.fade = Transition(duration: ReducedMotion.fadeDuration(forTransitionDuration: style.transitionDuration),
                               curve: .linear)
    }

    /// Whether the dimming view is in the container (from the start of a presentation until a
    /// dismissal completes).
    public var isChromeInstalled: Bool { dimmingViewFrame != nil }

    /// Whether a transition is running.
    public var isAnimating: Bool { state == .presenting || state == .dismissing }

    /// Whether the modal layer (dimming view + presented view) is in front and takes all input.
    public var isModalLayerActive: Bool { state != .dismissed }

    // MARK: Layout

    /// Applies new container bounds (points). Outside a presentation only the bounds are stored;
    /// during one, the style's layout hooks run and the frames are re-applied, as UIKit does on a
    /// container layout.
    public func layout(containerBounds bounds: Rect) {
        containerBounds = bounds
        guard state != .dismissed else { return }
        layoutSubviews()
    }

    private func layoutSubviews() {
        style.containerViewWillLayoutSubviews(containerBounds: containerBounds)
        dimmingViewFrame = containerBounds
        presentedViewFrame = style.frameOfPresentedView(in: containerBounds)
        presentedCornerStyle = style.cornerStyle(forPresentedViewIn: containerBounds)
        style.containerViewDidLayoutSubviews(containerBounds: containerBounds)
    }

    /// Replaces the style while no transition runs (a style reloaded from its plugin file): when
    /// something is presented, the new style's frame and corners apply at once (as after a
    /// container layout, with its layout hooks); its duration and curve apply from the next
    /// transition. A running transition finishes with the style it started with.
    /// - Returns: false (nothing changed) while a transition runs.
    @discardableResult
    public func replaceStyle(_ newStyle: any PresentationStyle) -> Bool {
        guard !isAnimating else { return false }
        style = newStyle
        if state != .dismissed { layoutSubviews() }
        return true
    }

    // MARK: Transitions

    /// Starts a presentation at `now`, or reverses a running dismissal.
    /// - Returns: whether anything changed (false when already presenting or presented).
    @discardableResult
    public func present(now: Double) -> Bool {
        switch state {
        case .presenting, .presented:
            return false
        case .dismissed:
            style.presentationTransitionWillBegin()
            layoutSubviews()  // installs the dimming view and applies the frame
        case .dismissing:
            style.dismissalTransitionDidEnd(completed: false)  // the chrome stays
            style.presentationTransitionWillBegin()
        }
        refreshTiming()
        transition.run(.forward, now: now)
        fade.run(.forward, now: now)
        setState(.presenting)
        update(now: now)
        return true
    }

    /// Starts a dismissal at `now`, or reverses a running presentation from its current position.
    /// - Returns: whether anything changed (false when already dismissing or dismissed).
    @discardableResult
    public func dismiss(now: Double) -> Bool {
        switch state {
        case .dismissed, .dismissing:
            return false
        case .presenting:
            style.presentationTransitionDidEnd(completed: false)
            style.dismissalTransitionWillBegin()
        case .presented:
            style.dismissalTransitionWillBegin()
        }
        refreshTiming()
        transition.run(.backward, now: now)
        fade.run(.backward, now: now)
        setState(.dismissing)
        update(now: now)
        return true
    }

    /// Advances to `now`: completes a transition whose end has been reached (calling the
    /// `…DidEnd(completed: true)` hook, removing the chrome after a dismissal).
    public func update(now: Double) {
        guard isAnimating, transition.isFinished(at: now) else { return }
        transition.stop(now: now)
        // The fade is never longer than the transition (F ≤ D): it has ended too; put it at the end
        // exactly, so that the next transition starts from 0 or 1.
        fade.set(fraction: state == .presenting ? 1 : 0, direction: state == .presenting ? .forward : .backward)
        if state == .presenting {
            style.presentationTransitionDidEnd(completed: true)
            setState(.presented)
        } else {
            style.dismissalTransitionDidEnd(completed: true)
            dimmingViewFrame = nil
            setState(.dismissed)
        }
    }

    private func refreshTiming() {
        transition.duration = max(0, style.transitionDuration)
        transition.curve = style.timingCurve
        fade.duration = ReducedMotion.fadeDuration(forTransitionDuration: transition.duration)
        isReducingMotion = reducesMotion
    }

    private func setState(_ s: PresentationState) {
        state = s
        onStateChange(s)
    }

    // MARK: Geometry at a moment

    /// Linear time fraction at `now` (0 dismissed … 1 presented).
    public func fraction(at now: Double) -> Double { transition.fraction(at: now) }

    /// Eased progress at `now`; the value the style's appearance methods receive.
    public func progress(at now: Double) -> Double { transition.progress(at: now) }

    /// The dimming view's appearance at eased `progress` (`.none` when the chrome is not installed).
    /// The style is asked at `progress` clamped to 0...1: a spring curve's overshoot moves the
    /// presented view past its frame, but the dim never gets darker than its presented alpha (nor
    /// lighter than clear).
    public func dimmingAppearance(progress: Double) -> DimmingAppearance {
        isChromeInstalled ? style.dimmingAppearance(at: min(max(progress, 0), 1)) : .none
    }

    /// The presented view's transform at eased `progress`, relative to `presentedViewFrame`.
    public func presentedViewTransform(progress: Double) -> ViewTransform {
        style.presentedViewTransform(at: progress, frame: presentedViewFrame, in: containerBounds)
    }

    /// Where the presented view is on screen at eased `progress`, points: its frame translated by
    /// the transform, then scaled about its centre (`nil` when dismissed).
    public func presentedViewRect(progress: Double) -> Rect? {
        guard state != .dismissed else { return nil }
        return PresentationController.apply(presentedViewTransform(progress: progress), to: presentedViewFrame)
    }

    /// The presented view's transform at `now` as drawn, relative to `presentedViewFrame`: the
    /// style's transform at `progress(at: now)`, or, while reducing motion, its final place with
    /// the cross-fade's alpha (`ReducedMotion`). The one place the window, hit-testing and
    /// benchmarks get the presented view's geometry from.
    public func effectivePresentedViewTransform(at now: Double) -> ViewTransform {
        guard isReducingMotion else { return presentedViewTransform(progress: progress(at: now)) }
        return ReducedMotion.presentedViewTransform(style: style, alpha: fade.fraction(at: now),
                                                    frame: presentedViewFrame, in: containerBounds)
    }

    /// Where the presented view is on screen at `now`, points, as drawn
    /// (`effectivePresentedViewTransform(at:)` applied to its frame; `nil` when dismissed).
    public func effectivePresentedViewRect(at now: Double) -> Rect? {
        guard state != .dismissed else { return nil }
        return PresentationController.apply(effectivePresentedViewTransform(at: now), to: presentedViewFrame)
    }

    /// Where `frame` (points) shows under `t`: moved by `t.translation`, then scaled by
    /// `t.scaleX`/`t.scaleY` about the anchor point `t.anchor` (unit coordinates of the moved frame,
    /// Core Animation's `anchorPoint`), points; `t.alpha` does not change the rectangle.
    public static func apply(_ t: ViewTransform, to frame: Rect) -> Rect {
        let moved = frame.offsetBy(dx: t.translation.x, dy: t.translation.y)
        guard !t.isUnscaled else { return moved }
        let ax = moved.minX + t.anchor.x * moved.width, ay = moved.minY + t.anchor.y * moved.height
        return Rect(x: ax + (moved.minX - ax) * t.scaleX, y: ay + (moved.minY - ay) * t.scaleY,
                    width: moved.width * t.scaleX, height: moved.height * t.scaleY)
    }
}
