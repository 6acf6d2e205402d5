// Transition driving: present, dismiss, removal without a transition, the clock (`update(now:)`),
// and the timing each transition takes from the style (UIKit's `UIPresentationController` rules).

extension PresentationController {
    // MARK: Transitions

    /// Starts a presentation at `now`, or reverses a running dismissal.
    /// - Returns: whether anything changed (false when already presenting or presented).
    @discardableResult
    public func present(now: Double) -> Bool {
        lastNow = now
        if case .clock = motion {} else {
            // A drag or its spring holds the view: a present heads it for the smallest detent.
            guard state == .dismissing, let layout = detentLayout else { return false }
            settle(toward: .detent(layout.initialDetent), velocity: currentVelocity(at: now), now: now)
            return true
        }
        switch state {
        case .presenting, .presented:
            return false
        case .dismissed:
            style.presentationTransitionWillBegin()
            layoutSubviews()  // installs the dimming view and applies the frame
            currentDetent = detentLayout?.initialDetent ?? 0
            presentedViewFrame = layout(detentFrameOf: currentDetent)
        case .dismissing:
            style.dismissalTransitionDidEnd(false)  // the dimming view stays
            style.presentationTransitionWillBegin()
        }
        refreshTiming(.present, now: now)
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
        lastNow = now
        if case let .settling(_, target) = motion, target == .dismissed { return false }
        if case .clock = motion {} else {
            // A drag or its spring holds the view: the spring takes it away from where it is.
            settle(toward: .dismissed, velocity: currentVelocity(at: now), now: now)
            return true
        }
        switch state {
        case .dismissed, .dismissing:
            return false
        case .presenting:
            style.presentationTransitionDidEnd(false)
            style.dismissalTransitionWillBegin()
        case .presented:
            style.dismissalTransitionWillBegin()
        }
        refreshTiming(.dismiss, now: now)
        transition.run(.backward, now: now)
        fade.run(.backward, now: now)
        setState(.dismissing)
        update(now: now)
        return true
    }

    /// Removes the presented view at once, without a transition (UIKit removes the view
    /// controllers between the one dismissed and the top of the stack "simply … from the stack"):
    /// a running presentation ends uncompleted, a drag or spring is dropped, the style's dismissal
    /// hooks run as for a completed dismissal, and the state passes through `dismissing` to
    /// `dismissed`. Internal: ``PresentationHost/dismiss(_:now:)`` uses it for the levels above
    /// the one it dismisses.
    /// - Returns: false when already dismissed.
    @discardableResult
    func removeWithoutTransition(now: Double) -> Bool {
        lastNow = now
        guard state != .dismissed else { return false }
        motion = .clock
        switch state {
        case .presenting:
            style.presentationTransitionDidEnd(false)
            style.dismissalTransitionWillBegin()
            setState(.dismissing)
        case .presented:
            style.dismissalTransitionWillBegin()
            setState(.dismissing)
        case .dismissing, .dismissed:
            break
        }
        transition.set(fraction: 0, direction: .backward)
        fade.set(fraction: 0, direction: .backward)
        style.dismissalTransitionDidEnd(true)
        dimmingViewFrame = nil
        morph = nil
        setState(.dismissed)
        return true
    }

    /// Advances to `now`: completes a transition whose end has been reached (calling the
    /// `…DidEnd(completed: true)` hook, removing the dimming view after a dismissal).
    public func update(now: Double) {
        lastNow = now
        advanceMorph(now: now)
        switch motion {
        case .tracking:
            return
        case let .settling(spring, target):
            if spring.isSettled(at: now) { finishSettling(target) }
            return
        case .clock:
            break
        }
        guard isAnimating, transition.isFinished(at: now) else { return }
        transition.stop(now: now)
        // The fade is never longer than the transition (F ≤ D): it has ended too; put it at the end
        // exactly, so that the next transition starts from 0 or 1.
        fade.set(fraction: state == .presenting ? 1 : 0, direction: state == .presenting ? .forward : .backward)
        if state == .presenting {
            style.presentationTransitionDidEnd(true)
            setState(.presented)
        } else {
            style.dismissalTransitionDidEnd(true)
            dimmingViewFrame = nil
            morph = nil
            setState(.dismissed)
        }
    }

    /// The duration, curve and direction of the curve for a transition in `phase`
    /// (`PresentationStyle/transitionDuration`, `PresentationStyle/timingCurve`):
    /// a dismissal whose curve equals the presentation's plays the presentation backwards (1.0);
    /// one with its own curve runs it forward from the presented end
    /// (``Transition/runsFromPresentedEnd``).
    public static func timing(style: PresentationStyle, phase: TransitionPhase, sourceRect: Rect?,
                              containerBounds: Rect) -> (duration: Double, curve: TimingCurve, runsFromPresentedEnd: Bool) {
        let present = TransitionContext(phase: .present, sourceRect: sourceRect, containerBounds: containerBounds)
        let presentCurve = style.timingCurve(present)
        guard phase == .dismiss else { return (max(0, style.transitionDuration(present)), presentCurve, false) }
        let dismiss = TransitionContext(phase: .dismiss, sourceRect: sourceRect, containerBounds: containerBounds)
        let curve = style.timingCurve(dismiss)
        return (max(0, style.transitionDuration(dismiss)), curve, curve != presentCurve)
    }

    /// Takes the timing of `phase` from the style. When a running transition reverses into a
    /// phase with another curve mapping, its linear fraction is moved to where the new mapping
    /// gives the progress it had, so the view does not jump.
    private func refreshTiming(_ phase: TransitionPhase, now: Double) {
        let before = transition.progress(at: now)
        let reversing = isAnimating
        let timing = PresentationController.timing(style: style, phase: phase, sourceRect: sourceRect,
                                                   containerBounds: containerBounds)
        let changed = timing.curve != transition.curve || timing.runsFromPresentedEnd != transition.runsFromPresentedEnd
        transition.duration = timing.duration
        transition.curve = timing.curve
        transition.runsFromPresentedEnd = timing.runsFromPresentedEnd
        if reversing, changed {
            transition.stop(now: now)
            transition.set(fraction: transition.fraction(nearestProgress: before), direction: transition.direction)
        }
        fade.duration = ReducedMotion.fadeDuration(forTransitionDuration: transition.duration)
        isReducingMotion = reducesMotion
    }
}
