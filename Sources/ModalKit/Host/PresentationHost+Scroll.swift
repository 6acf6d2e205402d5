// Scrolling: pointer scrolls to the content under the pointer, touch (and a sheet's pointer) pans
// of contents that can scroll, the arbitration between a sheet's drag and its content's scroll
// (``ScrollArbitration``), and the kinetic deceleration after a touchpad's fingers or a pan's
// finger lift (``KineticScroll``).

/// The host's scrolling state (fixed storage: a scroll frame allocates nothing).
struct HostScrolling {
    /// What a scroll goes to: the presenting content, or a level's presented content (while it is
    /// the top level).
    enum Target {
        case presenting
        case level(PresentedLevel)

        func isSame(as other: Target?) -> Bool {
            switch (self, other) {
            case (.presenting, .presenting?): return true
            case let (.level(a), .level(b)?): return a === b
            default: return false
            }
        }
    }

    /// A touchpad gesture (source finger) under way: its content.
    var fingerTarget: Target?
    /// The document position the gesture (touchpad or pan) moved the content by so far, points,
    /// sampled for its release velocity.
    var position = Point.zero
    var trackerX = VelocityTracker()
    var trackerY = VelocityTracker()

    /// The press is a pan of its content (recognised past ``DragPhysics/dragThreshold``).
    var panning = false
    /// A touch press on a content without a sheet's drag: it may become a pan.
    var panCandidate = false
    var panSource = ScrollSource.touch
    /// Where the press began, and the pan's last point, container points.
    var panStart = Point.zero
    var panLast = Point.zero

    /// The deceleration running, its content, what of it was delivered, its source and location.
    var kinetic: KineticScroll?
    var kineticTarget: Target?
    var kineticDelivered = Point.zero
    var kineticSource = ScrollSource.finger
    var kineticLocation = Point.zero

    /// A scroll toward expansion moved this level's sheet to a larger detent: scrolls toward
    /// expansion are used up by it until the sheet rests.
    weak var expanding: PresentedLevel?

    /// Starts sampling a gesture afresh (its first sample is its first ``track(_:at:)``).
    mutating func startTracking() {
        position = .zero
        trackerX.reset(); trackerY.reset()
    }

    mutating func track(_ delta: Point, at now: Double) {
        position = Point(x: position.x + delta.x, y: position.y + delta.y)
        trackerX.add(position.x, at: now)
        trackerY.add(position.y, at: now)
    }

    func velocity(at now: Double) -> Point { Point(x: trackerX.velocity(at: now), y: trackerY.velocity(at: now)) }
}

extension PresentationHost {
    /// The content a scroll for `target` reaches now: the presenting content while nothing modal
    /// covers it (or input passes through to it), a level's content while it is the top level.
    func scrollContent(_ target: HostScrolling.Target) -> (any PresentationContent)? {
        switch target {
        case .presenting: return levels.isEmpty || passesInputThrough ? presentingContent : nil
        case let .level(level): return levels.last === level ? level.content : nil
        }
    }

    /// A container point in `target`'s content's points.
    func scrollLocation(_ p: Point, in target: HostScrolling.Target, now: Double) -> Point {
        if case let .level(level) = target { return toPresented(p, level: level, now: now) }
        return p
    }

    /// Whether the content can scroll the way `delta` (document points) heads, along its
    /// larger component.
    func canScroll(_ content: any PresentationContent, by delta: Point) -> Bool {
        let edge = abs(delta.y) >= abs(delta.x) ? ScrollEdge.toward(dy: delta.y) : ScrollEdge.toward(dx: delta.x)
        guard let edge else { return false }
        return content.canScroll(toward: edge)
    }

    /// ``PresentationInput/pointerScroll(_:)``: to the content under the pointer (the top level's
    /// presented view, or the presenting content where input passes through; nothing on a dim).
    /// Toward expansion on a sheet resting below its largest detent (and
    /// `InteractionDeclaration/prefersScrollingExpandsWhenScrolledToEdge`) the sheet grows to its
    /// next detent instead. A touchpad's `axis_stop` starts the deceleration.
    func handlePointerScroll(_ scroll: ScrollInput, from seat: InputSeat, now: Double) {
        guard let p = pointers[seat] else { return }
        if scroll.phase == .changed { stopKinetic(now: now) }
        let target: HostScrolling.Target
        if let top = levels.last {
            if top.controller.effectivePresentedViewRect(at: now)?.contains(p) ?? false {
                target = .level(top)
            } else if passesInputThrough {
                target = .presenting
            } else {
                return   // on a dimming view: nothing beneath a modal scrolls
            }
        } else {
            target = .presenting
        }
        guard let content = scrollContent(target) else { return }
        var input = scroll
        input.location = scrollLocation(p, in: target, now: now)
        if scroll.phase == .changed, case let .level(level) = target, expandSheet(level, by: scroll.delta, now: now) {
            return
        }
        switch scroll.phase {
        case .changed:
            // A touchpad gesture is its seat's: another seat's scrolls meanwhile reach their
            // content without counting toward its velocity.
            if scroll.source == .finger, scrolling.fingerTarget == nil || fingerScrollSeat == seat {
                if !target.isSame(as: scrolling.fingerTarget) {
                    scrolling.fingerTarget = target
                    fingerScrollSeat = seat
                    scrolling.startTracking()
                }
                scrolling.track(scroll.delta, at: now)
            }
            use(content.handle(.scroll(input), now: now))
        case .ended:
            guard fingerScrollSeat == seat, target.isSame(as: scrolling.fingerTarget) else { return }
            scrolling.fingerTarget = nil
            use(content.handle(.scroll(input), now: now))
            startKinetic(target, velocity: scrolling.velocity(at: now), source: scroll.source,
                         location: input.location, now: now)
        case .momentum, .momentumEnded:
            break   // the host's own phases: not input
        }
    }

    /// A scroll by `delta` (document points) toward expansion on `level`'s sheet resting below its
    /// largest detent grows the sheet to its next detent (and the scrolls after it, until the
    /// sheet rests, are used up by it). Returns whether the scroll was used so.
    func expandSheet(_ level: PresentedLevel, by delta: Point, now: Double) -> Bool {
        let controller = level.controller
        guard let layout = controller.detentLayout, controller.interaction.prefersScrollingExpandsWhenScrolledToEdge
        else { return false }
        // A document moving along the axis toward dismissal shows what is beyond the far edge: the
        // way a finger moving toward expansion scrolls (a bottom sheet's wheel turned down).
        let along = delta.x * layout.axis.x + delta.y * layout.axis.y   // + toward expansion
        guard along > 0 else { return false }
        if scrolling.expanding === level {
            if controller.isAnimating { return true }
            scrolling.expanding = nil
        }
        guard let next = controller.nextLargerDetent, controller.animate(toDetent: next, now: now) else { return false }
        scrolling.expanding = level
        dirty = true
        return true
    }

    /// Starts decelerating `target`'s content from `velocity` (document points per second), if it
    /// is fast enough to glide.
    func startKinetic(_ target: HostScrolling.Target, velocity: Point, source: ScrollSource, location: Point,
                      now: Double) {
        let k = KineticScroll(velocity: velocity, at: now)
        guard k.moves else { return }
        scrolling.kinetic = k
        scrolling.kineticTarget = target
        scrolling.kineticDelivered = .zero
        scrolling.kineticSource = source
        scrolling.kineticLocation = location
        dirty = true
    }

    /// Ends a deceleration under way (its content gets ``ScrollPhase/momentumEnded``).
    func stopKinetic(now: Double) {
        guard scrolling.kinetic != nil, let target = scrolling.kineticTarget else { return }
        scrolling.kinetic = nil
        scrolling.kineticTarget = nil
        if let content = scrollContent(target) {
            use(content.handle(.scroll(ScrollInput(delta: .zero, source: scrolling.kineticSource, phase: .momentumEnded,
                                                   location: scrolling.kineticLocation)), now: now))
        }
    }

    /// Advances the deceleration to `now`: the content scrolls by what the curve moved since the
    /// last step; over once the curve rests, the content's edge is reached or the content does not
    /// use it, or its content is no longer in front.
    func advanceKinetic(now: Double) {
        guard let k = scrolling.kinetic, let target = scrolling.kineticTarget else { return }
        guard let content = scrollContent(target) else {
            scrolling.kinetic = nil
            scrolling.kineticTarget = nil
            return
        }
        let offset = k.offset(at: now)
        let delta = Point(x: offset.x - scrolling.kineticDelivered.x, y: offset.y - scrolling.kineticDelivered.y)
        scrolling.kineticDelivered = offset
        var used = true
        if delta != .zero {
            used = content.handle(.scroll(ScrollInput(delta: delta, source: scrolling.kineticSource, phase: .momentum,
                                                      location: scrolling.kineticLocation)), now: now)
            use(used)
        }
        if !used || k.isFinished(at: now) || !canScroll(content, by: k.velocity) { stopKinetic(now: now) }
    }

    /// Whether a deceleration runs (the host animates: frames keep coming).
    var isDecelerating: Bool { scrolling.kinetic != nil }

    /// The velocity the running deceleration of a content's scroll started from, document points
    /// per second (``ScrollInput/delta``'s sign); nil while none runs.
    public var scrollDecelerationVelocity: Point? { scrolling.kinetic?.velocity }

    // MARK: Pans

    /// A press began at `p` on `target`: a deceleration stops (UIScrollView: a touch stops it), and a
    /// touch press on a content without a sheet's drag may become a pan.
    func beginScrollPress(at p: Point, target: PressTarget, source: PressSource, now: Double) {
        stopKinetic(now: now)
        scrolling.panning = false
        scrolling.panStart = p
        scrolling.panLast = p
        scrolling.panSource = source.isPointer ? .pointerDrag : .touch
        let sheet = target == .presented && (levels.last?.drag.isActive ?? false)
        scrolling.panCandidate = !source.isPointer && !sheet && (target == .presenting || target == .presented)
    }

    /// The scroll target of the press in progress.
    var pressScrollTarget: HostScrolling.Target? {
        guard let pr = press else { return nil }
        switch pr.target {
        case .presenting: return .presenting
        case .presented: return levels.last.map { .level($0) }
        case .dim, .nothing: return nil
        }
    }

    /// A touch press without a sheet's drag moved to `p`: past ``DragPhysics/dragThreshold`` the way
    /// its content can scroll, it becomes a pan (the content's press is cancelled). Returns
    /// whether the press is a pan now (`p` was used).
    func recognisePan(at p: Point, now: Double) -> Bool {
        guard scrolling.panCandidate, let target = pressScrollTarget, let content = scrollContent(target) else { return false }
        let dx = p.x - scrolling.panStart.x, dy = p.y - scrolling.panStart.y
        guard (dx * dx + dy * dy).squareRoot() >= DragPhysics.dragThreshold else { return false }
        scrolling.panCandidate = false
        guard canScroll(content, by: Point(x: -dx, y: -dy)) else { return false }
        beginPan(at: p, now: now)
        use(content.handle(.cancel, now: now))
        return true
    }

    /// The press is a pan from `p` on: the content follows the finger from here (no jump by the
    /// threshold it moved first).
    func beginPan(at p: Point, now: Double) {
        scrolling.panning = true
        scrolling.panCandidate = false
        scrolling.panLast = p
        scrolling.startTracking()
        scrolling.track(.zero, at: now)   // the finger is here, moving, when the pan starts
    }

    /// The pan's finger moved to `p`: its content scrolls by the motion (the document follows the
    /// finger). On a sheet, a motion toward dismissal with the content at its edge that way hands
    /// the rest of the press to the sheet's drag (UIKit: the sheet follows once the scroll view is
    /// at its top); the content's scroll ends there (``ScrollPhase/ended``, no deceleration).
    func panStep(to p: Point, now: Double) {
        guard let target = pressScrollTarget, let content = scrollContent(target) else { return }
        let move = Point(x: p.x - scrolling.panLast.x, y: p.y - scrolling.panLast.y)
        if case let .level(level) = target, let layout = level.controller.detentLayout, level.drag.isActive {
            let towardDismissal = move.x * layout.axis.x + move.y * layout.axis.y
            if towardDismissal > 0, !content.canScroll(toward: ScrollArbitration.edge(towardDismissal: layout.direction)) {
                endPan(now: now, decelerates: false)
                guard let offset = level.controller.beginDrag(now: now) else { return }
                level.drag.isDragging = true
                level.drag.start = scrolling.panLast
                level.drag.startOffset = offset
                level.drag.raw = offset
                level.drag.tracker.reset()
                level.drag.tracker.add(offset, at: now)
                onInteraction(.dragBegan)
                deliverDrag(p, to: .presented, now: now)
                return
            }
        }
        scrolling.panLast = p
        guard move != .zero else { return }
        let delta = Point(x: -move.x, y: -move.y)
        scrolling.track(delta, at: now)
        use(content.handle(.scroll(ScrollInput(delta: delta, source: scrolling.panSource,
                                               location: scrollLocation(p, in: target, now: now))), now: now))
    }

    /// The pan's press ended: its content's scroll ends (``ScrollPhase/ended``) and, when
    /// `decelerates` and the finger moved fast enough, the deceleration starts.
    func endPan(now: Double, decelerates: Bool) {
        guard scrolling.panning else { return }
        scrolling.panning = false
        guard let target = pressScrollTarget ?? scrolling.kineticTarget, let content = scrollContent(target) else { return }
        let location = scrollLocation(scrolling.panLast, in: target, now: now)
        use(content.handle(.scroll(ScrollInput(delta: .zero, source: scrolling.panSource, phase: .ended,
                                               location: location)), now: now))
        if decelerates {
            startKinetic(target, velocity: scrolling.velocity(at: now), source: scrolling.panSource, location: location,
                         now: now)
        }
    }
}
