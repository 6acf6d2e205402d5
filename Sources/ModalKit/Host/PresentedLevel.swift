/// One presented view controller's worth of state: its controller, its content and the cache of
/// its pixels, and — while a level above covers it — the image of everything up to it.
final class PresentedLevel {
    var content: any PresentationContent
    var controller: PresentationController { didSet { askContentForSize() } }
    var cache: Image?
    var key: PresentedKey?
    var version = 0
    /// The number of the presentation this level shows (``AccessibilitySnapshot/Level/presentation``),
    /// given by the host each time it appends the level; 0 before.
    var presentation = 0
    /// Everything up to this level (presenting view, dims and presented views below, this level's dim and
    /// presented view), composed by its own renderer into an image of the container's pixel size; drawn only
    /// while a level above covers this one, repainting only what changed.
    var covered: Image?
    var coveredRenderer = Renderer()
    var coveredFresh = true
    /// The press on this level's view that may become (or is) a drag.
    var drag = LevelDrag()
    init(content: any PresentationContent, controller: PresentationController) {
        self.content = content
        self.controller = controller
        askContentForSize()
    }

    /// The controller's style asks this level's content (whichever it holds then) for its
    /// preferred size (``PresentationContent/preferredContentSize(fittingWidth:)``).
    private func askContentForSize() {
        controller.contentSizing = { [unowned self] width in self.content.preferredContentSize(fittingWidth: width) }
    }
}

/// A press on a presented view, on its way to being a drag (per level, so each presentation of a
/// stack keeps its own). Fixed storage: a drag frame allocates nothing.
struct LevelDrag {
    /// A press on the draggable view is in progress.
    var isActive = false
    /// It moved ``DragPhysics/dragThreshold`` along the axis: the view follows it.
    var isDragging = false
    /// The press caught a moving view (the controller holds it since the press).
    var caught = false
    /// Where the press began, container points, and the view's offset then, points.
    var start = Point.zero
    var startOffset = 0.0
    /// The finger's offset now (unbanded), points toward dismissal.
    var raw = 0.0
    var tracker = VelocityTracker()
}

struct PresentedKey: Equatable {
    var width: Int, height: Int, scale: Double, radius: Double, corners: CornerMask, bottomRadius: Double
    /// The chrome baked into the cache (background, border, grabber; the shadow is drawn apart).
    var chrome: PresentedViewChrome
}

/// The content of level 1 before its first presentation: nothing to draw, no input.
final class NoContent: PresentationContent {
    var invalidation: ContentInvalidation { .none }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {}
    func handle(_ input: ContentInput, now: Double) -> Bool { false }
}
