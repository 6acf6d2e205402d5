/// The scroll position of one scrollable area of a content, points (UIScrollView's
/// `contentOffset` within `contentSize` and `bounds`): a content keeps one, applies each
/// ``ContentInput/scroll(_:)`` with ``scroll(by:)``, answers ``PresentationContent/canScroll(toward:)``
/// with ``canScroll(toward:)``, and draws its document moved up and left by ``offset``. Keys
/// (Page Up/Down, Home/End, arrows) scroll through ``scroll(by:)`` and ``scrollToEdge(_:)``.
/// The offset always stays within 0 … ``maximumOffset`` (no rubber band: inside a sheet the sheet
/// moves instead, UIKit's rule).
public struct ScrollPosition: Hashable, Sendable {
    /// Where the visible region's top-left is in the document, points (0 … ``maximumOffset``).
    public private(set) var offset = Point.zero
    /// The document's size, points.
    public var contentSize: Size { didSet { clamp() } }
    /// The visible region's size, points (the content's size).
    public var viewportSize: Size { didSet { clamp() } }

    /// A position at the document's top-left.
    public init(contentSize: Size = Size(width: 0, height: 0), viewportSize: Size = Size(width: 0, height: 0)) {
        self.contentSize = contentSize
        self.viewportSize = viewportSize
    }

    /// The largest offset along each axis: the document's size less the viewport's, at least 0.
    public var maximumOffset: Point {
        Point(x: max(0, contentSize.width - viewportSize.width), y: max(0, contentSize.height - viewportSize.height))
    }

    /// Whether there is more of the document beyond `edge` (more than half a point: a scroll
    /// toward it would move).
    public func canScroll(toward edge: ScrollEdge) -> Bool {
        let m = maximumOffset
        switch edge {
        case .top: return offset.y > 0.5
        case .bottom: return offset.y < m.y - 0.5
        case .left: return offset.x > 0.5
        case .right: return offset.x < m.x - 0.5
        }
    }

    /// Scrolls by `delta` (points, ``ScrollInput/delta``'s sign: +y shows more of what is below),
    /// stopping at the edges. Returns whether the offset changed.
    @discardableResult
    public mutating func scroll(by delta: Point) -> Bool {
        let before = offset
        offset = Point(x: offset.x + delta.x, y: offset.y + delta.y)
        clamp()
        return offset != before
    }

    /// Scrolls to `edge` (Home: `.top`, End: `.bottom`). Returns whether the offset changed.
    @discardableResult
    public mutating func scrollToEdge(_ edge: ScrollEdge) -> Bool {
        let before = offset, m = maximumOffset
        switch edge {
        case .top: offset.y = 0
        case .bottom: offset.y = m.y
        case .left: offset.x = 0
        case .right: offset.x = m.x
        }
        return offset != before
    }

    /// Scrolls so that `rect` (document points) is visible, moving as little as possible (UIKit's
    /// `scrollRectToVisible`). Returns whether the offset changed.
    @discardableResult
    public mutating func scrollToVisible(_ rect: Rect) -> Bool {
        let before = offset
        if rect.maxY > offset.y + viewportSize.height { offset.y = rect.maxY - viewportSize.height }
        if rect.minY < offset.y { offset.y = rect.minY }
        if rect.maxX > offset.x + viewportSize.width { offset.x = rect.maxX - viewportSize.width }
        if rect.minX < offset.x { offset.x = rect.minX }
        clamp()
        return offset != before
    }

    private mutating func clamp() {
        let m = maximumOffset
        offset = Point(x: min(max(offset.x, 0), m.x), y: min(max(offset.y, 0), m.y))
    }
}
