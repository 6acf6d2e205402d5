import AdaptiveStyle
import BottomSheetStyle
import InsetCenteredStyle
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

/// The built-in styles by name — the real style types (`Plugins/…`), created in process with
/// their options as on the command line (`--style-option`), so every test here checks the styles
/// the plugins ship.
enum BuiltinStyle: String, CaseIterable {
    case insetCentered = "inset-centered"
    case bottomSheet = "bottom-sheet"

    /// The style with its declared defaults overridden by `options`.
    /// - Throws: `StyleOptionError` for an unknown key or a bad value, as the plugins do.
    func make(options: [String: String] = [:]) throws -> any PresentationStyle {
        switch self {
        case .insetCentered: return try InsetCenteredStyle(options: StyleOptions(options, declared: InsetCenteredStyle.options))
        case .bottomSheet: return try BottomSheetStyle(options: StyleOptions(options, declared: BottomSheetStyle.options))
        }
    }
}

extension AdaptiveStyle {
    /// The adaptive style with its declared defaults overridden by `options`.
    static func make(_ options: [String: String] = [:]) throws -> AdaptiveStyle {
        try AdaptiveStyle(options: StyleOptions(options, declared: AdaptiveStyle.options))
    }
}
