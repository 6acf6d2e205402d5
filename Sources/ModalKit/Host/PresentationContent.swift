/// App content shown by a ``PresentationHost``: the presenting view (UIKit: the root view
/// controller's view) or a presented view (`presentedViewController.view`). Main-thread only.
public protocol PresentationContent: AnyObject {
    /// What changed since the last ``draw(into:size:scale:)`` (UIKit's `setNeedsDisplay`). The
    /// host reads it before each frame and redraws the content's cache only when it is not `.none`.
    var invalidation: ContentInvalidation { get }
    /// Draws everything (replacing every pixel) into `image`: a pixman `PIXMAN_a8r8g8b8` image,
    /// premultiplied ARGB, of `size` points × `scale` buffer pixels per point (each side points ×
    /// scale rounded; `scale` > 0, whole or fractional; the exact pixel size is
    /// `Draw.pixelSize(of: image)` — draw nothing outside it). Afterwards `invalidation` must be `.none`.
    /// The host clips a presented view's corners itself. UIKit: `draw(_:)`.
    ///
    /// A presented content under a style whose chrome has a background colour finds `image`
    /// already filled with that colour (UIKit: the view's `backgroundColor` is painted before
    /// `draw(_:)`): a content that draws only its foreground (OVER) lets it show; one that fills
    /// every pixel hides it. Without a background colour the image holds the previous pixels and the
    /// content must paint every pixel (1.0). The border and the grabber are drawn over the content.
    func draw(into image: OpaquePointer, size: Size, scale: Double)
    /// Input that lands on this content at `now` (monotonic seconds: the time of the event that
    /// caused it — in a ModalKitWayland window the compositor's event time on the monotonic clock —
    /// so a content that presents or dismisses from here passes `now` on). Returns whether it was
    /// used (a key not used by a presented content falls back to the host: Escape dismisses).
    func handle(_ input: ContentInput, now: Double) -> Bool
    /// The content's size changed, points (UIKit: `layoutSubviews` after a `bounds` change): the
    /// presenting content gets the container's size, a presented content its frame's size — before
    /// input reaches it and before it draws. Default: nothing.
    func didLayout(size: Size)
    /// How the content describes itself to assistive technology (``AccessibilityElement``; UIKit:
    /// `accessibilityElements`, GTK: `GtkAccessible`): its root element, whose label and
    /// description name and describe the content (a presented content: the modal's title and body),
    /// whose children are its labels and controls, frames in the content's own points, the
    /// element with keyboard focus marked ``AccessibilityStates/focused``. Read when the host's
    /// ``PresentationHost/accessibilityVersion`` changed, so computing it may allocate. Requests
    /// for its elements arrive as ``ContentInput/activate(_:)`` and ``ContentInput/focus(_:)``.
    /// Default: nil (an unnamed content without elements).
    var accessibilityElement: AccessibilityElement? { get }
    /// The size the content would like when laid out `width` points wide, points: as tall as
    /// everything in it needs (UIKit: `preferredContentSize`, `systemLayoutSizeFitting(_:)` at a
    /// fixed width; libadwaita: `AdwDialog:content-width`/`content-height`). A style reads it in
    /// its frame hook (`LayoutContext/preferredContentSize(fittingWidth:)`) to size the view to
    /// its content, e.g. the alert. Asked on a container layout, never per frame. Default: nil
    /// (the content has no preference; the style uses its own size).
    func preferredContentSize(fittingWidth width: Double) -> Size?
    /// Whether the content can scroll further toward `edge` (UIScrollView: its `contentOffset` is
    /// not at that edge yet; ``ScrollPosition/canScroll(toward:)``). The host asks it, for the
    /// area under the press, when a drag starts or a scroll arrives, to decide between scrolling
    /// the content and moving its sheet (``ScrollArbitration``), and during a deceleration.
    /// Default: false (nothing scrolls: every drag on a draggable view moves the view).
    func canScroll(toward edge: ScrollEdge) -> Bool
    /// Whether arrow keys the content does not use (``ContentInput/keyboard(_:)`` returned false)
    /// move focus among its elements: Down / Right reach it as ``ContentInput/key(_:)`` with
    /// ``PresentationKey/tab``, Up / Left with ``PresentationKey/backTab`` (GTK moves focus with
    /// the arrow keys among a container's widgets; UIKit's focus system does on a keyboard). For
    /// a list or a row of buttons; a content whose arrows mean something else (a slider, a text
    /// caret, scrolling) leaves it false and handles them. Default: false.
    var arrowKeysMoveFocus: Bool { get }
    /// While one of the content's text fields has keyboard focus, its state for the platform's input
    /// method (``TextInputState``; text-input-v3 `enable`s while it is not nil and `disable`s when it
    /// becomes nil); nil when no field is focused. Read after input reaches the content, and before
    /// a frame only when ``PresentationHost/textInputVersion`` or the presented view's position
    /// changed: a content whose state changes without input (the app sets its text) must invalidate
    /// itself (``invalidation``) so that the next frame reads it. Default: nil.
    var textInputState: TextInputState? { get }
    /// The pointer's shape over `point` (the content's own points): ``CursorShape/text`` over a
    /// text field (GTK's `GtkText` sets the `text` cursor). Asked when the pointer moves over the
    /// content. Default: ``CursorShape/default``.
    func cursorShape(at point: Point) -> CursorShape
    /// When (monotonic seconds) the content's ``invalidation`` next changes with time alone, without
    /// input — a text field's caret blinking on or off — so that an idle window wakes to draw it
    /// (``PresentationHost/nextContentInvalidationTime``); nil: not before the next input. Read after
    /// input and after each frame, so it should be cheap. Default: nil.
    var nextInvalidationTime: Double? { get }
}

extension PresentationContent {
    public func didLayout(size: Size) {}
    public var accessibilityElement: AccessibilityElement? { nil }
    public func preferredContentSize(fittingWidth width: Double) -> Size? { nil }
    public func canScroll(toward edge: ScrollEdge) -> Bool { false }
    public var arrowKeysMoveFocus: Bool { false }
    public var textInputState: TextInputState? { nil }
    public func cursorShape(at point: Point) -> CursorShape { .default }
    public var nextInvalidationTime: Double? { nil }
}
