/// What a style's hooks are told about the transition they take part in (UIKit's
/// `UIViewControllerContextTransitioning`, reduced to what a style needs).
public struct TransitionContext: Hashable, Sendable {
    /// Presenting (progress runs 0 → 1) or dismissing (1 → 0).
    public var phase: TransitionPhase
    /// Whether a gesture drives the progress (a drag), rather than the clock.
    public var isInteractive: Bool
    /// The rectangle of the control that started the presentation, container points (so a style
    /// can grow from it, like a popover from its source view); nil when not known (a key press,
    /// an app call without a source).
    public var sourceRect: Rect?
    /// The container's bounds, points.
    public var containerBounds: Rect

    /// A context; see the properties for each value.
    public init(phase: TransitionPhase, isInteractive: Bool = false, sourceRect: Rect? = nil, containerBounds: Rect) {
        self.phase = phase; self.isInteractive = isInteractive
        self.sourceRect = sourceRect; self.containerBounds = containerBounds
    }
}
