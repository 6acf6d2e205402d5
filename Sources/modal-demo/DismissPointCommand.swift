import ModalKitDemo
import ModalKit

/// `modal-demo dismiss-point`: "X Y" (whole points in the window content's coordinates) where a
/// tap on the dim dismisses the selected style's modal once presented in a window of the
/// requested size (`--size`, default 480x800), or "none" when the style offers no such point.
/// Asked through the style's own hooks (``PresentationController/dismissingTapPoint(style:containerSize:)``),
/// so a script that taps there fails only when the style breaks its own promise.
/// A bad style exits 2 with one line, as for the window.
func dismissPointLine(_ options: RunOptions) -> String {
    let style = makeStyle(options.selection)
    let size = Size(width: Double(options.width), height: Double(options.height))
    guard let p = PresentationController.dismissingTapPoint(style: style, containerSize: size) else { return "none" }
    return "\(Int(p.x)) \(Int(p.y))"
}
