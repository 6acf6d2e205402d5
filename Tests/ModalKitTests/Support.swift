import ModalKitAdaptiveStyle
import ModalKitBottomSheetStyle
import ModalKitInsetCenteredStyle
import ModalKit
import ModalKitHostFuzzSupport
import XCTest

/// A style that records every callback, in order (`calls`). Duration `duration` (1 s), linear;
/// frame inset 20/110 like inset-centered; black dim 0.5 × progress.
final class RecordingStyle {
    private final class Log { var calls: [String] = [] }
    private let log = Log()
    let style: PresentationStyle
    var calls: [String] {
        get { log.calls }
        set { log.calls = newValue }
    }

    init(duration: Double = 1.0) {
        let style = PresentationStyle(transitionDuration: duration, timingCurve: .linear), log = log
        self.style = style
        style.frameOfPresentedView = { c in
            Rect(x: 20, y: 110, width: c.containerBounds.width - 40, height: c.containerBounds.height - 220)
        }
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.5 * progress) }
        style.presentationTransitionWillBegin = { log.calls.append("presentationWillBegin") }
        style.presentationTransitionDidEnd = { log.calls.append("presentationDidEnd(\($0))") }
        style.dismissalTransitionWillBegin = { log.calls.append("dismissalWillBegin") }
        style.dismissalTransitionDidEnd = { log.calls.append("dismissalDidEnd(\($0))") }
        style.containerViewWillLayoutSubviews = { log.calls.append("willLayout(\($0.containerBounds.size))") }
        style.containerViewDidLayoutSubviews = { log.calls.append("didLayout(\($0.containerBounds.size))") }
    }
}

/// The controller's state changes, in order (`onStateChange`).
final class StateBox { var states: [PresentationState] = [] }

extension LoadablePresentationStyle {
    /// The style with its declared defaults overridden by `options` (keys and values as
    /// `--style-option` gives them).
    static func make(_ options: [String: String] = [:]) throws -> PresentationStyle {
        try makeStyle(options: StyleOptions(options, declared: Self.options))
    }
}

/// The layout context of a container at (x, y), w × h points.
func layout(x: Double, y: Double, width: Double, height: Double) -> LayoutContext {
    LayoutContext(containerBounds: Rect(x: x, y: y, width: width, height: height))
}

/// The plainest content a host test presents, or presents over: one colour (premultiplied, opaque
/// white by default) over its whole image, drawn once per invalidation; takes every input when
/// `handlesInput`, none otherwise (the host then handles Escape and taps itself).
final class SolidContent: PresentationContent {
    var invalidation: ContentInvalidation = .all
    let colour: Color
    let handlesInput: Bool
    init(_ colour: Color = .white, handlesInput: Bool = true) {
        self.colour = colour
        self.handlesInput = handlesInput
    }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: colour)
        invalidation = .none
    }
    func handle(_ input: ContentInput, now: Double) -> Bool { handlesInput }
}
