/// The presented view's chrome, drawn by the host around and over the app's content.
public struct PresentedViewChrome: Hashable, Sendable {
    /// The view's background colour (premultiplied), filled under the content; nil = the content
    /// paints every pixel itself (1.0 behaviour).
    public var backgroundColor: Color?
    /// A border inside the view's edge, or nil.
    public var border: Border?
    /// A drop shadow outside the view, or nil.
    public var shadow: Shadow?
    /// The grabber's colour (premultiplied), or nil for none. The grabber is UIKit's sheet grabber:
    /// a 36×5 pt bar with fully rounded ends, centred horizontally, its top 5 pt below the view's
    /// top edge, drawn over the content.
    public var grabber: Color?

    /// Chrome of these parts; each left nil is not drawn.
    public init(backgroundColor: Color? = nil, border: Border? = nil, shadow: Shadow? = nil, grabber: Color? = nil) {
        self.backgroundColor = backgroundColor; self.border = border; self.shadow = shadow; self.grabber = grabber
    }
    /// No chrome: the content alone, clipped to the corners.
    public static let none = PresentedViewChrome()

    /// The grabber's size, points (UIKit's sheet grabber).
    public static let grabberSize = Size(width: 36, height: 5)
    /// The grabber's distance from the presented view's top edge, points (UIKit's sheet).
    public static let grabberTopInset = 5.0
}
