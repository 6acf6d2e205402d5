import ModalKit

/// What a ``PresentationWindow`` drives: a `PresentationHost`, and whatever the app keeps on top of
/// it (UIKit: the root view controller) — its own layout at each configure, its own reaction to
/// input before the host routes it, its own clock. `PresentationHost` is a scene by itself; an app
/// that keeps state around its host (focus rings shown after keyboard use, a clock that can pause)
/// conforms its own type and forwards to the host.
///
/// The window's frame is ``update(now:)``, then the host's queries (`PresentationHost/render(into:bufferAge:)`
/// or `PresentationHost/layerFrame()`), then ``isAnimating`` decides whether another frame follows.
/// Every call is on the window's loop thread; times are monotonic seconds (`monotonicSeconds()`).
public protocol PresentationScene: AnyObject {
    /// The host whose frames the window shows.
    var host: PresentationHost { get }
    /// The container (the window's content) is `containerSize` points at `scale` buffer pixels per
    /// point: lay out the host (`PresentationHost/layout(containerSize:scale:)`) and the app's state.
    func layout(containerSize: Size, scale: Double)
    /// Route one input event at `now` (the compositor's event time on the monotonic clock; see
    /// ``InputClock``) to the host (`PresentationHost/handle(_:now:)`).
    func handle(_ input: PresentationInput, now: Double)
    /// Route one input event of `seat` (the `wl_seat` it came from) at `now` to the host
    /// (`PresentationHost/handle(_:from:now:)`, which keeps each seat's pointer, press and touch
    /// points apart). The window calls this for all pointer, touch and key input. The default
    /// calls ``handle(_:now:)``, dropping the seat: a scene that forwards to the host should
    /// implement it, or the input of several seats is routed as one seat's.
    func handle(_ input: PresentationInput, from seat: InputSeat, now: Double)
    /// Advance to `now` (`PresentationHost/update(now:)`); the frame drawn next shows this time.
    func update(now: Double)
    /// Replace the style of level 1 while no transition runs (`PresentationHost/replaceStyle(_:)`);
    /// false while one runs (the window tries again after the next frame).
    func replaceStyle(_ style: PresentationStyle) -> Bool
    /// Whether frames must follow (a transition, a spring or a morph runs).
    var isAnimating: Bool { get }
    /// Whether something changed that a frame must show.
    var needsRedraw: Bool { get }
}

extension PresentationScene {
    /// Calls ``handle(_:now:)`` (the seat is dropped): what a scene written before seats existed does.
    public func handle(_ input: PresentationInput, from seat: InputSeat, now: Double) {
        handle(input, now: now)
    }
}

extension PresentationHost: PresentationScene {
    /// The host itself.
    public var host: PresentationHost { self }
}
