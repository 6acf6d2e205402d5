// The host side of one style instance: a `PresentationStyle` whose every call goes through
// the plugin's C function table (modalkit_style.h). No Swift type crosses the boundary.
import CModalKitStyle

/// A style created by a plugin's `create`, seen by the engine as any other `PresentationStyle`.
/// An optional function the plugin left NULL falls back to the protocol extension's default
/// (UIKit's behaviour). Values from the plugin are sanitised so a buggy plugin cannot hang the
/// engine: a non-finite or negative duration becomes the default 0.35 s, one above 600 s is cut to
/// 600 s, and an unknown curve becomes ease-in-out. Destroys its instance in `deinit`; keeps the library (never unloaded) alive.
final class PluginHostStyle: PresentationStyle {
    let library: PluginLibrary
    private let table: modalkit_style_descriptor
    private let instance: OpaquePointer

    init(library: PluginLibrary, instance: OpaquePointer) {
        self.library = library
        self.table = library.table
        self.instance = instance
    }

    deinit { table.destroy?(instance) }

    var transitionDuration: Double {
        guard let f = table.transition_duration else { return ProtocolDefaults.shared.transitionDuration }
        let d = f(instance)
        return d.isFinite && d >= 0 ? min(d, 600) : ProtocolDefaults.shared.transitionDuration
    }

    var timingCurve: TimingCurve {
        guard let f = table.timing_curve else { return ProtocolDefaults.shared.timingCurve }
        return TimingCurve(f(instance)) ?? ProtocolDefaults.shared.timingCurve
    }

    func frameOfPresentedView(in containerBounds: Rect) -> Rect {
        Rect(table.frame_of_presented_view!(instance, modalkit_rect(containerBounds)))
    }

    func cornerStyle(forPresentedViewIn containerBounds: Rect) -> CornerStyle {
        guard let f = table.corner_style else {
            return ProtocolDefaults.shared.cornerStyle(forPresentedViewIn: containerBounds)
        }
        return CornerStyle(f(instance, modalkit_rect(containerBounds)))
    }

    func dimmingAppearance(at progress: Double) -> DimmingAppearance {
        DimmingAppearance(table.dimming_appearance!(instance, progress))
    }

    func presentedViewTransform(at progress: Double, frame: Rect, in containerBounds: Rect) -> ViewTransform {
        guard let f = table.presented_view_transform else {
            return ProtocolDefaults.shared.presentedViewTransform(at: progress, frame: frame, in: containerBounds)
        }
        return ViewTransform(f(instance, progress, modalkit_rect(frame), modalkit_rect(containerBounds)))
    }

    func shouldDismiss(onTapAt point: Point, in containerBounds: Rect) -> Bool {
        guard let f = table.should_dismiss_on_tap else {
            return ProtocolDefaults.shared.shouldDismiss(onTapAt: point, in: containerBounds)
        }
        return f(instance, modalkit_point(point), modalkit_rect(containerBounds))
    }

    func presentationTransitionWillBegin() { table.presentation_transition_will_begin?(instance) }
    func presentationTransitionDidEnd(completed: Bool) { table.presentation_transition_did_end?(instance, completed) }
    func dismissalTransitionWillBegin() { table.dismissal_transition_will_begin?(instance) }
    func dismissalTransitionDidEnd(completed: Bool) { table.dismissal_transition_did_end?(instance, completed) }
    func containerViewWillLayoutSubviews(containerBounds: Rect) {
        table.container_view_will_layout?(instance, modalkit_rect(containerBounds))
    }
    func containerViewDidLayoutSubviews(containerBounds: Rect) {
        table.container_view_did_layout?(instance, modalkit_rect(containerBounds))
    }
}

/// A style that implements only the requirements without defaults, so that the protocol
/// extension's defaults can be asked for in one place instead of being copied here.
private final class ProtocolDefaults: PresentationStyle {
    static let shared = ProtocolDefaults()
    func frameOfPresentedView(in containerBounds: Rect) -> Rect { containerBounds }
    func dimmingAppearance(at progress: Double) -> DimmingAppearance { .none }
}
