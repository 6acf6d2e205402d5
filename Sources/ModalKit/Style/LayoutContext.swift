/// What a style's layout hooks are told (``PresentationStyle/frameOfPresentedView``, the corners,
/// the chrome, the interaction declaration, the dim-tap hook and the layout callbacks): the
/// container the presented view is laid out in, as UIKit's presentation controller reads its
/// `containerView`. Asked on every container layout (a window resize), also mid-transition.
///
/// It is a struct of its own, apart from ``TransitionContext``, because a layout is not part of one
/// transition: it happens at rest too, and the plugin ABI gives these hooks the container's bounds
/// only. What a later style ABI tells the layout hooks (the presented content's preferred size for
/// a width, say) arrives as new members here, so the hooks' shape stays.
public struct LayoutContext {
    /// The container's bounds, points.
    public var containerBounds: Rect

    /// The context of a container with `containerBounds`, points.
    public init(containerBounds: Rect) {
        self.containerBounds = containerBounds
    }
}
