import ModalKit

/// A replacement of level 1's style waiting for the running transition to end
/// (``PresentationWindow/replaceStyle(_:completion:)``): a later request replaces a waiting one;
/// it is applied (``PresentationScene/replaceStyle(_:)``) at the request when no transition runs,
/// else after the frame that ends the running one.
struct StyleSwap {
    private var waiting: (style: PresentationStyle, completion: (() -> Void)?)?

    /// Whether a replacement waits.
    var isWaiting: Bool { waiting != nil }

    /// `style` is to replace level 1's, then `completion` runs; replaces a replacement still waiting.
    mutating func request(_ style: PresentationStyle, completion: (() -> Void)?) {
        waiting = (style, completion)
    }

    /// Applies the waiting replacement to `scene` when no transition runs and the scene takes it.
    /// - Returns: nil when nothing was applied (nothing waits, a transition runs, or the scene
    ///   refused); else what to run once the caller has asked for the frame that shows the new
    ///   style: the request's completion, or nothing (the completion may request another swap).
    mutating func apply(to scene: PresentationScene) -> (() -> Void)? {
        guard let w = waiting, !scene.isAnimating, scene.replaceStyle(w.style) else { return nil }
        waiting = nil
        return w.completion ?? {}
    }
}
