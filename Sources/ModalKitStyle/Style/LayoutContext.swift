/// What a style's layout hooks are told (``PresentationStyle/frameOfPresentedView``, the corners,
/// the chrome, the interaction declaration, the dim-tap hook and the layout callbacks): the
/// container the presented view is laid out in, as UIKit's presentation controller reads its
/// `containerView`. Asked on every container layout (a window resize), also mid-transition.
///
/// It is a struct of its own, apart from ``TransitionContext``, because a layout is not part of one
/// transition: it happens at rest too. What a later version tells the layout hooks arrives as new
/// members here, so the hooks' shape stays.
public struct LayoutContext {
    /// The container's bounds, points.
    public var containerBounds: Rect
    /// Answers the presented content's preferred size for a width (see ``preferredContentSize(fittingWidth:)``).
    private var contentSizing: ((Double) -> Size?)?

    /// The context of a container with `containerBounds`, points.
    /// - Parameters:
    ///   - containerBounds: points.
    ///   - preferredContentSize: the presented content's preferred size (points) for a width
    ///     (points), nil when it does not say; nil (the default) for a layout without a content.
    public init(containerBounds: Rect, preferredContentSize: ((Double) -> Size?)? = nil) {
        self.containerBounds = containerBounds
        self.contentSizing = preferredContentSize
    }

    /// The presented content's preferred size when laid out `width` points wide, points (UIKit's
    /// `preferredContentSize` and `systemLayoutSizeFitting(_:)` at a fixed width; libadwaita's
    /// `AdwDialog:content-width`/`content-height`): what `PresentationContent.preferredContentSize(fittingWidth:)`
    /// answers. Nil when the content does not say, and in every hook but
    /// ``PresentationStyle/frameOfPresentedView`` (the one hook that sizes the view; the style ABI
    /// carries it there only, from 1.2 on), so a style keeps a size of its own for that case:
    ///
    /// ```swift
    /// style.frameOfPresentedView = { c in
    ///     let h = c.preferredContentSize(fittingWidth: 270)?.height ?? 180
    ///     return Rect(x: c.containerBounds.midX - 135, y: c.containerBounds.midY - h / 2, width: 270, height: h)
    /// }
    /// ```
    public func preferredContentSize(fittingWidth width: Double) -> Size? {
        guard width.isFinite, width >= 0, let s = contentSizing?(width),
              s.width.isFinite, s.height.isFinite, s.width >= 0, s.height >= 0 else { return nil }
        return s
    }

    /// Whether this context can answer the content's preferred size (a content is laid out).
    package var hasContentSizing: Bool { contentSizing != nil }
}
