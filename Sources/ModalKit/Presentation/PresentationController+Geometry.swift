// Where things are at a moment: the fraction and progress, the dim and the presented view's
// transform and rectangle at a progress or at a time, resting shapes for offline frames.

extension PresentationController {
    // MARK: Geometry at a moment

    /// Linear time fraction at `now` (0 dismissed … 1 presented).
    public func fraction(at now: Double) -> Double { transition.fraction(at: now) }

    /// Eased progress at `now`; the value the style's appearance methods receive.
    public func progress(at now: Double) -> Double { transition.progress(at: now) }

    /// The dimming view's appearance at eased `progress` (`.none` when the dimming view is not installed).
    /// The style is asked at `progress` clamped to 0...1: a spring curve's overshoot moves the
    /// presented view past its frame, but the dim never gets darker than its presented alpha (nor
    /// lighter than clear).
    public func dimmingAppearance(progress: Double) -> DimmingAppearance {
        isDimmingViewInstalled ? style.dimmingAppearance(min(max(progress, 0), 1), transitionContext) : .none
    }

    /// The presented view's transform at eased `progress`, relative to `presentedViewFrame` (the
    /// frame at the resting detent): the style's.
    public func presentedViewTransform(progress: Double) -> ViewTransform {
        style.presentedViewTransform(progress, presentedViewFrame, transitionContext)
    }

    /// The placement of a view at rest on ``currentDetent`` (the frame for a style without drag):
    /// at its resized frame, the dim × the detent's dim progress.
    var restingPlacement: PresentedPlacement {
        guard let layout = detentLayout, currentDetent < layout.offsets.count else { return .frame }
        return .resting(rest: .zero, dimFactor: layout.dimProgress(at: layout.offsets[currentDetent]))
    }

    /// The frame and placement of `style` resting at `detent` (declaration index; nil: the smallest
    /// detent, where a presentation comes to rest) for the style's `frame` in `bounds` (offline
    /// frames); the frame itself and ``PresentedPlacement/frame`` for a style without a drag gesture.
    /// A `detent` the style does not have is the smallest one.
    /// `contentSizing` answers the content's preferred size (``contentSizing``), for detents that
    /// fit the content.
    static func restingShape(style: PresentationStyle, frame: Rect, bounds: Rect, detent: Int? = nil,
                             contentSizing: ((Double) -> Size?)? = nil) -> (frame: Rect, placement: PresentedPlacement) {
        let interaction = style.interaction(LayoutContext(containerBounds: bounds))
        guard case let .drag(direction) = interaction.dismissGesture else { return (frame, .frame) }
        let layout = DetentLayout(interaction, direction: direction, frame: frame, containerBounds: bounds,
                                  contentLength: contentLength(contentSizing, along: direction, frame: frame))
        let i = detent.flatMap { $0 >= 0 && $0 < layout.offsets.count ? $0 : nil } ?? layout.initialDetent
        return (layout.restingFrame(i, of: frame),
                .resting(rest: .zero, dimFactor: layout.dimProgress(at: layout.offsets[i])))
    }

    /// The content's preferred length along a drag in `direction`, points, for a presented view
    /// whose frame is `frame`: its preferred height at the frame's width for a vertical drag, its
    /// preferred width (asked at the frame's width) for a horizontal one; nil when there is no
    /// content to ask or it does not say (`Detent/fitsContent(atMost:)` resolves from it).
    static func contentLength(_ sizing: ((Double) -> Size?)?, along direction: DragDirection, frame: Rect) -> Double? {
        guard let sizing else { return nil }
        let ask = LayoutContext(containerBounds: frame, preferredContentSize: sizing)
        guard let size = ask.preferredContentSize(fittingWidth: frame.width) else { return nil }
        return direction.isVertical ? size.height : size.width
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
        guard state != .dismissed else { return presentedViewTransform(progress: 0) }
        return snapshot(at: now).presentedTransform
    }

    /// Where the presented view is on screen at `now`, points, as drawn
    /// (`effectivePresentedViewTransform(at:)` applied to its frame; `nil` when dismissed).
    public func effectivePresentedViewRect(at now: Double) -> Rect? {
        guard state != .dismissed else { return nil }
        return PresentationController.apply(effectivePresentedViewTransform(at: now), to: displayedFrame(at: now))
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
