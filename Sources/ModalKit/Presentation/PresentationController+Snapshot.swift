extension PresentationController {
    /// The snapshot at `now` (monotonic seconds), the live frame: nothing shown while dismissed;
    /// else the style at `progress(at: now)`, or, while reducing motion, the cross-fade at `now`.
    /// Does not advance the state (call `update(now:)` first).
    public func snapshot(at now: Double) -> PresentationSnapshot {
        guard state != .dismissed else { return .unpresented(containerBounds: containerBounds) }
        let corners = displayedCorners(at: now)
        let frame = displayedFrame(at: now)
        var snap: PresentationSnapshot
        if let offset = draggedOffset(at: now), let layout = detentLayout {
            var context = transitionContext
            context.isInteractive = true
            let rest = layout.offsets[min(currentDetent, layout.offsets.count - 1)]
            snap = .make(style: style, context: context, presentedFrame: frame,
                         corners: corners.style, progress: layout.dimProgress(at: offset),
                         reducedMotionAlpha: nil, placement: .dragged(layout.translation(of: offset - rest)))
            snap.setExtension(max(0, rest - offset), toward: layout.direction)
        } else {
            snap = .make(style: style, context: transitionContext, presentedFrame: frame,
                         corners: corners.style, progress: progress(at: now),
                         reducedMotionAlpha: isReducingMotion ? fade.fraction(at: now) : nil,
                         placement: restingPlacement)
        }
        snap.bottomCornerRadius = corners.bottomRadius
        return snap
    }

    /// The snapshot at linear time fraction `fraction` (0...1, clamped; non-finite = 0) of a
    /// presentation (`.present`) or dismissal (`.dismiss`) in the current container bounds, the
    /// offline frame (`modal-demo render`): eased progress = the phase's curve at `fraction`
    /// (`PresentationController.timing`: a dismissal playing the presentation backwards takes the
    /// curve at `1 − fraction`, one with its own curve `1 − curve(fraction)`); with `reducesMotion` the cross-fade at `fraction · duration` seconds into the
    /// phase (`ReducedMotion.presentedAlpha(phase:fraction:duration:)`). Changes no state and calls
    /// no hook beyond the style's geometry and appearance.
    public func snapshot(phase: TransitionPhase, fraction: Double) -> PresentationSnapshot {
        snapshot(phase: phase, fraction: fraction, detent: nil)
    }

    /// ``snapshot(phase:fraction:)`` with the presented view coming to rest at `detent`
    /// (declaration index; nil: the smallest detent, as a presentation does): at progress 1 it
    /// rests there, resized to it (``DetentLayout/restingFrame(_:of:)``) — `render --detent N`.
    /// `detent` is ignored for a style without a drag gesture; one out of range is the smallest.
    public func snapshot(phase: TransitionPhase, fraction: Double, detent: Int?) -> PresentationSnapshot {
        let p = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        let u = phase == .present ? p : 1 - p
        let bounds = containerBounds
        let context = TransitionContext(phase: phase, isInteractive: false, sourceRect: sourceRect,
                                        containerBounds: bounds)
        let timing = PresentationController.timing(style: style, phase: phase, sourceRect: sourceRect,
                                                   containerBounds: bounds)
        var mapping = Transition(duration: timing.duration, curve: timing.curve)
        mapping.runsFromPresentedEnd = timing.runsFromPresentedEnd
        let layout = LayoutContext(containerBounds: bounds)
        let frame = style.frameOfPresentedView(LayoutContext(containerBounds: bounds, preferredContentSize: contentSizing))
        let rest = PresentationController.restingShape(style: style, frame: frame, bounds: bounds, detent: detent,
                                                       contentSizing: contentSizing)
        return .make(style: style, context: context, presentedFrame: rest.frame,
                     corners: style.cornerStyle(layout),
                     progress: mapping.progress(atFraction: u),
                     reducedMotionAlpha: reducesMotion
                        ? ReducedMotion.presentedAlpha(phase: phase, fraction: p, duration: timing.duration)
                        : nil,
                     placement: rest.placement)
    }

    /// The snapshot with the presented view dragged to `offset` points toward dismissal from its
    /// frame (0 = at the frame; a drag's displayed offset, e.g. a detent's), in the current
    /// container bounds, the offline frame of a drag; nil for a style without a drag gesture.
    /// Changes no state.
    public func snapshot(dragOffset offset: Double) -> PresentationSnapshot? {
        let bounds = containerBounds
        let layoutContext = LayoutContext(containerBounds: bounds)
        let frame = style.frameOfPresentedView(LayoutContext(containerBounds: bounds, preferredContentSize: contentSizing))
        let interaction = style.interaction(layoutContext)
        guard case let .drag(direction) = interaction.dismissGesture else { return nil }
        let layout = DetentLayout(interaction, direction: direction, frame: frame, containerBounds: bounds,
                                  contentLength: PresentationController.contentLength(contentSizing, along: direction, frame: frame))
        let context = TransitionContext(phase: .present, isInteractive: true, sourceRect: sourceRect,
                                        containerBounds: bounds)
        // Dragged from the smallest detent, where a presentation rests: its resized frame moves.
        let rest = layout.offsets[layout.initialDetent]
        var snap = PresentationSnapshot.make(
            style: style, context: context, presentedFrame: layout.restingFrame(layout.initialDetent, of: frame),
            corners: style.cornerStyle(layoutContext), progress: layout.dimProgress(at: offset),
            reducedMotionAlpha: nil, placement: .dragged(layout.translation(of: offset - rest)))
        snap.setExtension(max(0, rest - offset), toward: direction)
        return snap
    }
}
