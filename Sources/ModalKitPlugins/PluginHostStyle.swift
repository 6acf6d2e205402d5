// The host side of one style instance: a `PresentationStyle` whose every hook goes through the
// plugin's C function table (modalkit_style.h). No Swift type crosses the boundary.
import CModalKitStyle
import ModalKitStyle

/// One instance a plugin's `create` made, owned by the `PresentationStyle` that wraps it (and
/// its hooks): destroyed (`destroy`) when the style is released. Keeps the library (never
/// unloaded) alive.
final class PluginHostInstance {
    let library: PluginLibrary
    let table: modalkit_style_descriptor
    let instance: OpaquePointer

    init(library: PluginLibrary, instance: OpaquePointer) {
        self.library = library
        self.table = library.table
        self.instance = instance
    }

    deinit { table.destroy?(instance) }

    /// Reports what `check` found in `function`'s values (once per kind; nothing when clean).
    @inline(__always)
    func finish(_ check: BoundaryCheck, _ function: StaticString) {
        if !check.issues.isEmpty {
            PluginDiagnostics.report(check.issues, function: function, style: library.name, path: library.path)
        }
    }

    /// A duration from the plugin: 0...600 s; NaN, ∞ or a negative value is the default 0.35 s.
    func checkedDuration(_ d: Double, _ function: StaticString) -> Double {
        guard d.isFinite, d >= 0 else {
            finish(BoundaryCheck(issues: d.isFinite ? .outOfRange : .nonFinite), function)
            return PluginHostStyle.defaultDuration
        }
        if d > 600 { finish(BoundaryCheck(issues: .outOfRange), function) }
        return min(d, 600)
    }

    /// A curve from the plugin; an unknown kind or parameters out of range is ease-in-out.
    func checkedCurve(_ c: modalkit_timing_curve, _ function: StaticString) -> TimingCurve {
        if let curve = TimingCurve(c) { return curve }
        finish(BoundaryCheck(issues: .outOfRange), function)
        return PluginHostStyle.defaultCurve
    }
}

/// The `PresentationStyle` of a plugin instance: each hook calls the plugin's C entry, or keeps
/// the hook's default when the plugin left the entry NULL (UIKit's behaviour, as the header says).
///
/// The style ABI has versions; the Swift API has one set of hooks, so the versions are adapted
/// here (libadwaita keeps one API and adapts old behaviour inside). A 1.2 entry (the frame with a
/// layout context, so the content's preferred size reaches the plugin) is used when the plugin has
/// it; a 1.1 entry is used when the
/// plugin has it; a 1.0 plugin has none (its descriptor ends before them), and its 1.0 entries are
/// wrapped into the same hooks — the dim without a context, the transform with a uniform scale
/// about the centre given the context's container bounds, the one duration and curve for both
/// phases — so it draws what it drew on a 1.0 host.
///
/// Values from the plugin are sanitised so a buggy plugin cannot hang the engine: a non-finite or
/// negative duration becomes the default 0.35 s, one above 600 s is cut to 600 s, an unknown curve
/// becomes ease-in-out, and every other value is clamped or repaired by ``BoundaryCheck`` (NaN →
/// the neutral value, colours to 0...1, gradients to 2...8 ordered stops, a negative blur to 0);
/// each kind of repair is reported once on stderr (``PluginDiagnostics``).
enum PluginHostStyle {
    static let defaultDuration = 0.35
    static let defaultCurve = TimingCurve.easeInOut

    static func make(library: PluginLibrary, instance pointer: OpaquePointer) -> PresentationStyle {
        let plugin = PluginHostInstance(library: library, instance: pointer)
        let table = plugin.table
        let style = PresentationStyle(transitionDuration: defaultDuration, timingCurve: defaultCurve)
        style.pluginInstance = plugin

        // MARK: Layout (1.0 entries: they carry the container bounds)

        if let f = table.frame_in_context {
            // 1.2: the frame with a layout context; its preferred_content_size calls back into the
            // hook's LayoutContext, reached through host_data (valid during the call only).
            style.frameOfPresentedView = { c in
                withUnsafePointer(to: c) { layout in
                    var context = modalkit_layout_context()
                    context.struct_size = UInt32(MemoryLayout<modalkit_layout_context>.size)
                    context.container_bounds = modalkit_rect(c.containerBounds)
                    context.host_data = UnsafeMutableRawPointer(mutating: layout)
                    context.preferred_content_size = { context, width, out in
                        guard let context, let out, let data = context.pointee.host_data else { return false }
                        let layout = data.assumingMemoryBound(to: LayoutContext.self).pointee
                        guard let size = layout.preferredContentSize(fittingWidth: width) else { return false }
                        out.pointee = modalkit_size(width: size.width, height: size.height)
                        return true
                    }
                    var check = BoundaryCheck()
                    let r = check.rect(f(plugin.instance, &context))
                    plugin.finish(check, "frame_in_context")
                    return r
                }
            }
        } else if let f = table.frame_of_presented_view {
            style.frameOfPresentedView = { c in
                var check = BoundaryCheck()
                let r = check.rect(f(plugin.instance, modalkit_rect(c.containerBounds)))
                plugin.finish(check, "frame_of_presented_view")
                return r
            }
        }
        if let f = table.corner_style {
            style.cornerStyle = { c in
                let corners = f(plugin.instance, modalkit_rect(c.containerBounds))
                var check = BoundaryCheck()
                let result = CornerStyle(radius: check.length(corners.radius),
                                         corners: CornerMask(rawValue: corners.corners).intersection(.all))
                plugin.finish(check, "corner_style")
                return result
            }
        }
        if let f = table.should_dismiss_on_tap {
            style.shouldDismissOnTap = { point, c in
                f(plugin.instance, modalkit_point(point), modalkit_rect(c.containerBounds))
            }
        }
        if let f = table.container_view_will_layout {
            style.containerViewWillLayoutSubviews = { c in f(plugin.instance, modalkit_rect(c.containerBounds)) }
        }
        if let f = table.container_view_did_layout {
            style.containerViewDidLayoutSubviews = { c in f(plugin.instance, modalkit_rect(c.containerBounds)) }
        }
        // 1.1: chrome with the bounds; the interaction without (the plugin knows them from the
        // layout that asks).
        if let f = table.chrome {
            style.chrome = { c in
                var out = modalkit_chrome()
                f(plugin.instance, modalkit_rect(c.containerBounds), &out)
                var check = BoundaryCheck()
                let chrome = PresentedViewChrome(out, check: &check)
                plugin.finish(check, "chrome")
                return chrome
            }
        }
        // 1.3: whether scrolling expands the sheet, asked with the interaction (from a 1.3 plugin only).
        let minor = library.version.minor
        let expands = minor >= 3 ? table.prefers_scrolling_expands_when_scrolled_to_edge : nil
        if let f = table.interaction {
            style.interaction = { _ in
                var out = modalkit_interaction()
                out.largest_undimmed_detent = -1
                out.is_dismissible = true
                f(plugin.instance, &out)
                var check = BoundaryCheck()
                let i = InteractionDeclaration(out, minor: minor, scrollingExpands: expands.map { $0(plugin.instance) } ?? true,
                                               check: &check)
                plugin.finish(check, "interaction")
                return i
            }
        }

        // MARK: Transition (the 1.1 entry with the context, else the 1.0 entry without it)

        if let f = table.transition_duration_in_context {
            style.transitionDuration = { c in
                var context = modalkit_transition_context(c)
                return plugin.checkedDuration(f(plugin.instance, &context), "transition_duration_in_context")
            }
        } else if let f = table.transition_duration {
            style.transitionDuration = { _ in plugin.checkedDuration(f(plugin.instance), "transition_duration") }
        }
        if let f = table.timing_curve_in_context {
            style.timingCurve = { c in
                var context = modalkit_transition_context(c)
                return plugin.checkedCurve(f(plugin.instance, &context), "timing_curve_in_context")
            }
        } else if let f = table.timing_curve {
            style.timingCurve = { _ in plugin.checkedCurve(f(plugin.instance), "timing_curve") }
        }
        if let f = table.dimming_in_context {
            style.dimmingAppearance = { progress, c in
                var context = modalkit_transition_context(c)
                var out = modalkit_dimming_fill()
                f(plugin.instance, progress, &context, &out)
                var check = BoundaryCheck()
                let dim = DimmingAppearance(out, check: &check)
                plugin.finish(check, "dimming_in_context")
                return dim
            }
        } else if let f = table.dimming_appearance {
            style.dimmingAppearance = { progress, _ in
                let d = f(plugin.instance, progress)
                var check = BoundaryCheck()
                let dim = DimmingAppearance(color: check.color(d.color), alpha: check.unit(d.alpha))
                plugin.finish(check, "dimming_appearance")
                return dim
            }
        }
        if let f = table.presented_view_transform_in_context {
            style.presentedViewTransform = { progress, frame, c in
                var context = modalkit_transition_context(c)
                var check = BoundaryCheck()
                let t = check.transform(f(plugin.instance, progress, modalkit_rect(frame), &context))
                plugin.finish(check, "presented_view_transform_in_context")
                return t
            }
        } else if let f = table.presented_view_transform {
            style.presentedViewTransform = { progress, frame, c in
                let t = f(plugin.instance, progress, modalkit_rect(frame), modalkit_rect(c.containerBounds))
                var check = BoundaryCheck()
                let transform = ViewTransform(
                    translation: Point(x: check.coordinate(t.translate_x), y: check.coordinate(t.translate_y)),
                    scale: check.value(t.scale, ifNaN: 1, in: 0...1000),
                    alpha: check.value(t.alpha, ifNaN: 1, in: 0...1))
                plugin.finish(check, "presented_view_transform")
                return transform
            }
        }
        if let f = table.presenting_view_appearance {
            style.presentingViewAppearance = { progress, c in
                var context = modalkit_transition_context(c)
                var check = BoundaryCheck()
                let a = PresentingViewAppearance(f(plugin.instance, progress, &context), check: &check)
                plugin.finish(check, "presenting_view_appearance")
                return a
            }
        }

        // MARK: UIKit's callbacks (1.0)

        if let f = table.presentation_transition_will_begin {
            style.presentationTransitionWillBegin = { f(plugin.instance) }
        }
        if let f = table.presentation_transition_did_end {
            style.presentationTransitionDidEnd = { f(plugin.instance, $0) }
        }
        if let f = table.dismissal_transition_will_begin {
            style.dismissalTransitionWillBegin = { f(plugin.instance) }
        }
        if let f = table.dismissal_transition_did_end {
            style.dismissalTransitionDidEnd = { f(plugin.instance, $0) }
        }
        return style
    }
}

extension PresentationStyle {
    /// The plugin instance behind the hooks of a style a plugin made, destroyed when the style is
    /// released; nil for a style made in this process.
    var pluginInstance: PluginHostInstance? {
        get { pluginOwner as? PluginHostInstance }
        set { pluginOwner = newValue }
    }
}
