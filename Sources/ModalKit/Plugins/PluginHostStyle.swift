// The host side of one style instance: a `PresentationStyle` whose every call goes through
// the plugin's C function table (modalkit_style.h). No Swift type crosses the boundary.
import CModalKitStyle

/// A style created by a plugin's `create`, seen by the engine as any other `PresentationStyle`.
/// An optional function the plugin left NULL falls back to the protocol extension's default
/// (UIKit's behaviour). Values from the plugin are sanitised so a buggy plugin cannot hang the
/// engine: a non-finite or negative duration becomes the default 0.35 s, one above 600 s is cut to
/// 600 s, an unknown curve becomes ease-in-out, and every other value is clamped or repaired by
/// ``BoundaryCheck`` (NaN → the neutral value, colours to 0...1, gradients to 2...8 ordered stops,
/// a negative blur to 0); each kind of repair is reported once on stderr (``PluginDiagnostics``).
/// A 1.0 plugin has no 1.1 entries: the 1.0 entries and the protocol's defaults stand in, so it
/// draws what it drew on a 1.0 host. Destroys its instance in `deinit`; keeps the library (never
/// unloaded) alive.
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

    /// Reports what `check` found in `function`'s values (once per kind; nothing when clean).
    @inline(__always)
    private func finish(_ check: BoundaryCheck, _ function: StaticString) {
        if !check.issues.isEmpty {
            PluginDiagnostics.report(check.issues, function: function, style: library.name, path: library.path)
        }
    }

    /// A duration from the plugin: 0...600 s; NaN, ∞ or a negative value is the default 0.35 s.
    private func checkedDuration(_ d: Double, _ function: StaticString) -> Double {
        guard d.isFinite, d >= 0 else {
            finish(BoundaryCheck(issues: d.isFinite ? .outOfRange : .nonFinite), function)
            return ProtocolDefaults.shared.transitionDuration
        }
        if d > 600 { finish(BoundaryCheck(issues: .outOfRange), function) }
        return min(d, 600)
    }

    private func checkedCurve(_ c: modalkit_timing_curve, _ function: StaticString) -> TimingCurve {
        if let curve = TimingCurve(c) { return curve }
        finish(BoundaryCheck(issues: .outOfRange), function)
        return ProtocolDefaults.shared.timingCurve
    }

    var transitionDuration: Double {
        guard let f = table.transition_duration else { return ProtocolDefaults.shared.transitionDuration }
        return checkedDuration(f(instance), "transition_duration")
    }

    var timingCurve: TimingCurve {
        guard let f = table.timing_curve else { return ProtocolDefaults.shared.timingCurve }
        return checkedCurve(f(instance), "timing_curve")
    }

    func frameOfPresentedView(in containerBounds: Rect) -> Rect {
        var check = BoundaryCheck()
        let r = check.rect(table.frame_of_presented_view!(instance, modalkit_rect(containerBounds)))
        finish(check, "frame_of_presented_view")
        return r
    }

    func cornerStyle(forPresentedViewIn containerBounds: Rect) -> CornerStyle {
        guard let f = table.corner_style else {
            return ProtocolDefaults.shared.cornerStyle(forPresentedViewIn: containerBounds)
        }
        let c = f(instance, modalkit_rect(containerBounds))
        var check = BoundaryCheck()
        let style = CornerStyle(radius: check.length(c.radius), corners: CornerMask(rawValue: c.corners).intersection(.all))
        finish(check, "corner_style")
        return style
    }

    func dimmingAppearance(at progress: Double) -> DimmingAppearance {
        let d = table.dimming_appearance!(instance, progress)
        var check = BoundaryCheck()
        let dim = DimmingAppearance(color: check.color(d.color), alpha: check.unit(d.alpha))
        finish(check, "dimming_appearance")
        return dim
    }

    func presentedViewTransform(at progress: Double, frame: Rect, in containerBounds: Rect) -> ViewTransform {
        guard let f = table.presented_view_transform else {
            return ProtocolDefaults.shared.presentedViewTransform(at: progress, frame: frame, in: containerBounds)
        }
        let t = f(instance, progress, modalkit_rect(frame), modalkit_rect(containerBounds))
        var check = BoundaryCheck()
        let transform = ViewTransform(translation: Point(x: check.coordinate(t.translate_x), y: check.coordinate(t.translate_y)),
                                      scale: check.value(t.scale, ifNaN: 1, in: 0...1000),
                                      alpha: check.value(t.alpha, ifNaN: 1, in: 0...1))
        finish(check, "presented_view_transform")
        return transform
    }

    func shouldDismiss(onTapAt point: Point, in containerBounds: Rect) -> Bool {
        guard let f = table.should_dismiss_on_tap else {
            return ProtocolDefaults.shared.shouldDismiss(onTapAt: point, in: containerBounds)
        }
        return f(instance, modalkit_point(point), modalkit_rect(containerBounds))
    }

    // MARK: ABI 1.1 (a 1.0 plugin's table has these NULL: the 1.0 entries and defaults apply)

    func transitionDuration(for context: TransitionContext) -> Double {
        guard let f = table.transition_duration_in_context else { return transitionDuration }
        var c = modalkit_transition_context(context)
        return checkedDuration(f(instance, &c), "transition_duration_in_context")
    }

    func timingCurve(for context: TransitionContext) -> TimingCurve {
        guard let f = table.timing_curve_in_context else { return timingCurve }
        var c = modalkit_transition_context(context)
        return checkedCurve(f(instance, &c), "timing_curve_in_context")
    }

    func dimmingAppearance(at progress: Double, context: TransitionContext) -> DimmingAppearance {
        guard let f = table.dimming_in_context else { return dimmingAppearance(at: progress) }
        var c = modalkit_transition_context(context)
        var out = modalkit_dimming_fill()
        f(instance, progress, &c, &out)
        var check = BoundaryCheck()
        let dim = DimmingAppearance(out, check: &check)
        finish(check, "dimming_in_context")
        return dim
    }

    func presentedViewTransform(at progress: Double, frame: Rect, context: TransitionContext) -> ViewTransform {
        guard let f = table.presented_view_transform_in_context else {
            return presentedViewTransform(at: progress, frame: frame, in: context.containerBounds)
        }
        var c = modalkit_transition_context(context)
        var check = BoundaryCheck()
        let t = check.transform(f(instance, progress, modalkit_rect(frame), &c))
        finish(check, "presented_view_transform_in_context")
        return t
    }

    func chrome(forPresentedViewIn containerBounds: Rect) -> PresentedViewChrome {
        guard let f = table.chrome else { return .none }
        var out = modalkit_chrome()
        f(instance, modalkit_rect(containerBounds), &out)
        var check = BoundaryCheck()
        let chrome = PresentedViewChrome(out, check: &check)
        finish(check, "chrome")
        return chrome
    }

    func presentingViewAppearance(at progress: Double, context: TransitionContext) -> PresentingViewAppearance {
        guard let f = table.presenting_view_appearance else { return .identity }
        var c = modalkit_transition_context(context)
        var check = BoundaryCheck()
        let a = PresentingViewAppearance(f(instance, progress, &c), check: &check)
        finish(check, "presenting_view_appearance")
        return a
    }

    var interaction: InteractionDeclaration {
        guard let f = table.interaction else { return .standard }
        var out = modalkit_interaction()
        out.largest_undimmed_detent = -1
        out.is_dismissible = true
        f(instance, &out)
        var check = BoundaryCheck()
        let i = InteractionDeclaration(out, check: &check)
        finish(check, "interaction")
        return i
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
