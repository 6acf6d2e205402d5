import ModalKit
import XCTest

/// Records every hook call, in order. Frame: inset 20/110 like inset-centered.
final class RecordingStyle: PresentationStyle {
    var calls: [String] = []
    var transitionDuration: Double
    init(duration: Double = 1.0) { transitionDuration = duration }
    var timingCurve: TimingCurve { .linear }
    func frameOfPresentedView(in b: Rect) -> Rect {
        Rect(x: 20, y: 110, width: b.width - 40, height: b.height - 220)
    }
    func dimmingAppearance(at progress: Double) -> DimmingAppearance {
        DimmingAppearance(color: .black, alpha: 0.5 * progress)
    }
    func presentationTransitionWillBegin() { calls.append("presentationWillBegin") }
    func presentationTransitionDidEnd(completed: Bool) { calls.append("presentationDidEnd(\(completed))") }
    func dismissalTransitionWillBegin() { calls.append("dismissalWillBegin") }
    func dismissalTransitionDidEnd(completed: Bool) { calls.append("dismissalDidEnd(\(completed))") }
    func containerViewWillLayoutSubviews(containerBounds: Rect) { calls.append("willLayout(\(containerBounds.size))") }
    func containerViewDidLayoutSubviews(containerBounds: Rect) { calls.append("didLayout(\(containerBounds.size))") }
}

/// The controller's state changes, in order (`onStateChange`).
final class StateBox { var states: [PresentationState] = [] }
