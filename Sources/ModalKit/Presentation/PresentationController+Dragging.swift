// Interaction: a drag holding the presented view, its release, the settling spring toward a
// detent or dismissal, and the motion handed back to the clock when the drag gesture goes away.

extension PresentationController {
    // MARK: Dragging (interactive transitions)

    /// The offset the drag or its spring puts the view at, at `now`; nil when the clock places it.
    func draggedOffset(at now: Double) -> Double? {
        switch motion {
        case .clock: return nil
        case let .tracking(offset): return offset
        case let .settling(spring, _): return spring.position(at: now)
        }
    }

    func currentVelocity(at now: Double) -> Double {
        if case let .settling(spring, _) = motion { return spring.velocity(at: now) }
        return 0
    }

    /// Where the presented view is at `now` along the drag axis, points toward dismissal from its
    /// frame (the drag's or spring's offset, or the clock's transform projected on the axis); nil
    /// when the style declares no drag or nothing is presented.
    public func dragOffset(at now: Double) -> Double? {
        guard state != .dismissed, let layout = detentLayout else { return nil }
        if let o = draggedOffset(at: now) { return o }
        // The clock moves the view from its resting frame, which is offset by the detent's offset.
        return layout.offsets[min(currentDetent, layout.offsets.count - 1)]
            + layout.offset(of: snapshot(at: now).presentedTransform.translation)
    }

    /// Whether the presented view can be dragged (a drag gesture declared, something presented).
    public var isDraggable: Bool { state != .dismissed && detentLayout != nil }

    /// A drag takes hold of the presented view at `now`, where it is (a running transition or
    /// spring stops there: UIKit's interruptible animations). No state changes, no hooks.
    /// - Returns: the offset it holds the view at, points; nil when not draggable.
    @discardableResult
    public func beginDrag(now: Double) -> Double? {
        update(now: now)
        guard let offset = dragOffset(at: now) else { return nil }
        transition.stop(now: now)
        motion = .tracking(offset: offset)
        return offset
    }

    /// The drag's finger puts the view at `raw` points toward dismissal from its frame; the view
    /// shows there, rubber-banded past the largest detent and — when dismissal is refused —
    /// past the smallest detent (``DetentLayout/displayedOffset(raw:dismissible:)``).
    /// - Returns: the displayed offset (nil when no drag holds the view).
    @discardableResult
    public func drag(toRawOffset raw: Double) -> Double? {
        guard isTracking, let layout = detentLayout else { return nil }
        let shown = layout.displayedOffset(raw: raw, dismissible: interaction.isDismissible)
        motion = .tracking(offset: shown)
        return shown
    }

    /// The outcome of a drag's release.
    public struct DragRelease: Hashable, Sendable {
        /// Where the spring takes the view.
        public var target: DetentLayout.Target
        /// The release would have dismissed a presentation that refuses it (report a close attempt).
        public var refusedDismissal: Bool
    }

    /// Releases the drag at `now` with the finger at `raw` (points toward dismissal, unbanded) and
    /// moving at `velocity` (points per second, + toward dismissal): the target is the nearest of
    /// the detents and the dismissed position to the projected position
    /// (``DetentLayout/target(releasedAt:velocity:)``); a refused dismissal goes to the nearest
    /// detent instead. A critically damped spring starting at `velocity` takes the view from where
    /// it shows to the target. Heading for dismissal, the state becomes `dismissing` (hooks as for
    /// `dismiss`); heading for a detent from `dismissing`, `presenting`.
    /// - Returns: nil when no drag holds the view.
    @discardableResult
    public func endDrag(rawOffset raw: Double, velocity: Double, now: Double) -> DragRelease? {
        guard isTracking, let layout = detentLayout else { return nil }
        var target = layout.target(releasedAt: raw, velocity: velocity)
        var refused = false
        if target == .dismissed && !interaction.isDismissible {
            refused = true
            target = .detent(layout.nearestDetent(to: DragPhysics.projectedPosition(raw, velocity: velocity)))
        }
        settle(toward: target, velocity: velocity, now: now)
        return DragRelease(target: target, refusedDismissal: refused)
    }

    /// Moves a view resting at a detent (presented, no drag holding it) to detent `i` (declaration
    /// index) with the settling spring, from rest (UIKit: `animateChanges` setting the sheet's
    /// `selectedDetentIdentifier`; a scroll toward expansion does it, ``ScrollArbitration``).
    /// - Returns: false when it is not resting there (or `i` is out of range or already its detent).
    @discardableResult
    public func animate(toDetent i: Int, now: Double) -> Bool {
        update(now: now)
        guard state == .presented, !isTracking, !isAnimating, let layout = detentLayout,
              i >= 0, i < layout.offsets.count, i != currentDetent else { return false }
        settle(toward: .detent(i), velocity: 0, now: now)
        return true
    }

    /// The detent a view resting at ``currentDetent`` grows to next: the one with the largest
    /// offset smaller than the current one's (the next larger size), or nil at the largest.
    public var nextLargerDetent: Int? {
        guard let layout = detentLayout, currentDetent < layout.offsets.count else { return nil }
        let here = layout.offsets[currentDetent]
        var best: Int?
        for (i, o) in layout.offsets.enumerated() where o < here - 0.5 {
            if best == nil || o > layout.offsets[best!] { best = i }
        }
        return best
    }

    /// A press caught the view and ended without becoming a drag: it resumes toward where it
    /// was heading (the smallest detent while presenting, away while dismissing, its spring's
    /// target while settling), from rest.
    public func resumeAfterCatch(now: Double) {
        guard isTracking, let layout = detentLayout else { return }
        settle(toward: state == .dismissing ? .dismissed
                   : (state == .presenting ? .detent(layout.initialDetent) : .detent(currentDetent)),
               velocity: 0, now: now)
    }

    /// Starts the settling spring from where the view is now toward `target`, with the state
    /// changes and hooks that heading there implies.
    func settle(toward target: DetentLayout.Target, velocity: Double, now: Double) {
        guard let layout = detentLayout, let from = dragOffset(at: now) else { return }
        switch (target, state) {
        case (.dismissed, .presented):
            style.dismissalTransitionWillBegin()
            setState(.dismissing)
        case (.dismissed, .presenting):
            style.presentationTransitionDidEnd(false)
            style.dismissalTransitionWillBegin()
            setState(.dismissing)
        case (.detent, .dismissing):
            style.dismissalTransitionDidEnd(false)
            style.presentationTransitionWillBegin()
            setState(.presenting)
        default:
            break
        }
        motion = .settling(CriticalSpring(from: from, velocity: velocity, to: layout.offset(of: target), at: now),
                           target)
        update(now: now)
    }

    /// The drag gesture went away with a layout (an adaptive style's sheet became a card) while a
    /// drag or its spring held the view: the transition's clock takes the view over where it is —
    /// the progress of its offset between the detent it rests at (1) and the dismissed position (0)
    /// — and runs on toward where the state heads (presenting, dismissing; presented stays at 1), so
    /// the presentation goes on as a clock transition (a `present` reverses a dismissal again).
    /// No state changes, no hooks.
    func handMotionToClock(from layout: DetentLayout, now: Double) {
        guard let offset = draggedOffset(at: now) else { return }
        motion = .clock
        let rest = layout.offsets[min(currentDetent, layout.offsets.count - 1)]
        let span = layout.dismissedOffset - rest
        let p = span != 0 ? min(max(1 - (offset - rest) / span, 0), 1) : 1
        switch state {
        case .presenting, .dismissing:
            let direction: Transition.Direction = state == .presenting ? .forward : .backward
            transition.set(fraction: transition.fraction(nearestProgress: p), direction: direction)
            transition.run(direction, now: now)
            fade.set(fraction: p, direction: direction)
            fade.run(direction, now: now)
        case .presented:
            transition.set(fraction: 1, direction: .forward)
            fade.set(fraction: 1, direction: .forward)
        case .dismissed:
            break
        }
    }

    /// The style's frame resized to detent `i` (the frame itself without a drag gesture).
    func layout(detentFrameOf i: Int) -> Rect {
        detentLayout.map { $0.restingFrame(min(i, $0.offsets.count - 1), of: styleFrame) } ?? styleFrame
    }

    func finishSettling(_ target: DetentLayout.Target) {
        motion = .clock
        switch target {
        case let .detent(i):
            currentDetent = i
            presentedViewFrame = layout(detentFrameOf: i)
            transition.set(fraction: 1, direction: .forward)
            fade.set(fraction: 1, direction: .forward)
            if state == .presenting {
                style.presentationTransitionDidEnd(true)
                setState(.presented)
            }
            onDetentSettled(i)
        case .dismissed:
            transition.set(fraction: 0, direction: .backward)
            fade.set(fraction: 0, direction: .backward)
            style.dismissalTransitionDidEnd(true)
            dimmingViewFrame = nil
            setState(.dismissed)
        }
    }
}
