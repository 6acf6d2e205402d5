// The plugin side of the style ABI: turns a Swift `LoadablePresentationStyle` into the C
// descriptor of modalkit_style.h, so style authors write no C (docs/design.md, plugin boundary).
import CModalKitStyle
import Glibc
import ModalKitSystemSupport

/// Builds the C descriptor (`modalkit_style_descriptor`, see `modalkit_style.h`) for a style
/// type, for a plugin's entry function to return:
///
/// ```swift
/// @_cdecl("modalkit_style_entry")
/// public func modalkitStyleEntry() -> UnsafeRawPointer { exportStyle(FadeScaleStyle.self) }
/// ```
///
/// The descriptor is built once per type and kept alive for the life of the process (the host never
/// unloads a plugin: docs/design.md, plugin boundary); later calls return the same pointer. Its
/// functions call into `S` through `Unmanaged` references: `create` runs `S.makeStyle(options:)`
/// with the declared defaults overlaid by the host's key/value pairs; an error thrown there (its
/// `description`, e.g. `StyleOptionError`'s one line) is copied into the host's error buffer,
/// truncated to fit and NUL-terminated.
///
/// Every function of the descriptor is filled from the style's one set of hooks, so the host sees
/// the style exactly as it is written, defaults included. The ABI 1.0 entries that carry less than
/// the hook takes (no transition context, no container bounds) are answered with what the instance
/// was last told: the container bounds of the host's last layout call and the phase of its last
/// transition callback (present until a dismissal begins); a gradient dim is given to the 1.0
/// `dimming_appearance` as its last stop's colour. A 1.1 host calls the 1.1 entries instead; only
/// a caller that reads the 1.0 entries of a 1.1 descriptor sees the difference.
///
/// The descriptor carries the ABI this ModalKit was built with (`StyleABIVersion.current`);
/// the matching data symbol `modalkit_style_abi_version` comes from ModalKit's C target.
///
/// - Returns: a `const modalkit_style_descriptor *`, as an untyped pointer so that plugins need
///   not import the C module.
public func exportStyle<S: LoadablePresentationStyle>(_ type: S.Type) -> UnsafeRawPointer {
    StyleExport.descriptor(for: S.self)
}

/// What a descriptor's `plugin_data` points at: the type, erased, so that the non-capturing C
/// functions can reach it from the descriptor the host passes back to `create`.
package final class ExportedStyleType {
    package let options: [StyleOption]
    package let make: (StyleOptions) throws -> PresentationStyle
    package init(options: [StyleOption], make: @escaping (StyleOptions) throws -> PresentationStyle) {
        self.options = options; self.make = make
    }
}

/// What a `modalkit_style *` points at: one style instance, and what the host last told it (for
/// the 1.0 entries, which carry no context).
package final class ExportedStyleInstance {
    package let style: PresentationStyle
    /// The container bounds of the host's last call that carried them (a layout asks the frame
    /// first), points.
    package var containerBounds = Rect.zero
    /// Dismiss from `dismissal_transition_will_begin` until the next presentation begins.
    package var phase = TransitionPhase.present
    package init(_ style: PresentationStyle) { self.style = style }

    /// The layout context of a call that carries the container bounds (remembered).
    package func layout(_ bounds: modalkit_rect) -> LayoutContext {
        containerBounds = Rect(bounds)
        return LayoutContext(containerBounds: containerBounds)
    }
    /// The layout context of a call that carries none: the last bounds.
    package var lastLayout: LayoutContext { LayoutContext(containerBounds: containerBounds) }
    /// The transition context of a 1.0 call, which carries none: the last phase and bounds, no
    /// source rectangle, not interactive.
    package var lastTransition: TransitionContext { TransitionContext(phase: phase, containerBounds: containerBounds) }
}

package enum StyleExport {
    private static let lock = Lock()
    /// Built descriptors by style type; never freed (the host may call them until exit).
    private static var descriptors: [ObjectIdentifier: UnsafeMutablePointer<modalkit_style_descriptor>] = [:]

    package static func descriptor<S: LoadablePresentationStyle>(for type: S.Type) -> UnsafeRawPointer {
        lock.lock(); defer { lock.unlock() }
        if let d = descriptors[ObjectIdentifier(type)] { return UnsafeRawPointer(d) }
        let d = UnsafeMutablePointer<modalkit_style_descriptor>.allocate(capacity: 1)
        d.initialize(to: makeDescriptor(
            name: S.name, summary: S.summary, options: S.options,
            make: { try S.makeStyle(options: $0) }))
        descriptors[ObjectIdentifier(type)] = d
        return UnsafeRawPointer(d)
    }

    /// A descriptor whose strings and option table are copied to C memory that is never freed.
    package static func makeDescriptor(name: String, summary: String, options: [StyleOption],
                               make: @escaping (StyleOptions) throws -> PresentationStyle)
        -> modalkit_style_descriptor
    {
        let table = UnsafeMutablePointer<modalkit_style_option>.allocate(capacity: max(options.count, 1))
        for (i, option) in options.enumerated() {
            (table + i).initialize(to: modalkit_style_option(option))
        }
        let exported = ExportedStyleType(options: options, make: make)

        var d = modalkit_style_descriptor()
        d.abi_major = UInt32(MODALKIT_STYLE_ABI_MAJOR)
        d.abi_minor = UInt32(MODALKIT_STYLE_ABI_MINOR)
        d.struct_size = UInt32(MemoryLayout<modalkit_style_descriptor>.size)
        d.option_size = UInt32(MemoryLayout<modalkit_style_option>.size)
        d.name = permanentCString(name)
        d.description = permanentCString(summary)
        d.option_count = options.count
        d.options = UnsafePointer(table)
        d.plugin_data = Unmanaged.passRetained(exported).toOpaque()

        d.create = { descriptor, keys, values, count, errorBuffer, errorLength in
            guard let descriptor, let data = descriptor.pointee.plugin_data else { return nil }
            let exported = Unmanaged<ExportedStyleType>.fromOpaque(data).takeUnretainedValue()
            var given: [String: String] = [:]
            for i in 0..<count {
                guard let key = keys?[i], let value = values?[i] else { continue }
                given[String(cString: key)] = String(cString: value)
            }
            do {
                let options = try StyleOptions(given, declared: exported.options)
                let style = try exported.make(options)
                return OpaquePointer(Unmanaged.passRetained(ExportedStyleInstance(style)).toOpaque())
            } catch {
                StyleExport.copyMessage(String(describing: error), into: errorBuffer, length: errorLength)
                return nil
            }
        }
        d.destroy = { instance in
            guard let instance else { return }
            Unmanaged<ExportedStyleInstance>.fromOpaque(UnsafeRawPointer(instance)).release()
        }

        // ABI 1.0: layout entries (they carry the container bounds).
        d.frame_of_presented_view = { instance, bounds in
            let i = StyleExport.instance(instance)
            return modalkit_rect(i.style.frameOfPresentedView(i.layout(bounds)))
        }
        d.corner_style = { instance, bounds in
            let i = StyleExport.instance(instance)
            return modalkit_corner_style(i.style.cornerStyle(i.layout(bounds)))
        }
        d.should_dismiss_on_tap = { instance, point, bounds in
            let i = StyleExport.instance(instance)
            return i.style.shouldDismissOnTap(Point(point), i.layout(bounds))
        }
        d.container_view_will_layout = { instance, bounds in
            let i = StyleExport.instance(instance)
            i.style.containerViewWillLayoutSubviews(i.layout(bounds))
        }
        d.container_view_did_layout = { instance, bounds in
            let i = StyleExport.instance(instance)
            i.style.containerViewDidLayoutSubviews(i.layout(bounds))
        }
        // ABI 1.0: transition entries without a context (the last phase and bounds stand in).
        d.transition_duration = { instance in
            let i = StyleExport.instance(instance)
            return i.style.transitionDuration(i.lastTransition)
        }
        d.timing_curve = { instance in
            let i = StyleExport.instance(instance)
            return modalkit_timing_curve(i.style.timingCurve(i.lastTransition))
        }
        d.dimming_appearance = { instance, progress in
            // 1.0 has a solid dim only: a gradient is given as its last stop's colour (the full dim).
            let i = StyleExport.instance(instance)
            var dim = i.style.dimmingAppearance(progress, i.lastTransition)
            if let g = dim.gradient { dim = DimmingAppearance(color: g[g.count - 1].color, alpha: dim.alpha) }
            return modalkit_dimming(dim)
        }
        d.presented_view_transform = { instance, progress, frame, bounds in
            let i = StyleExport.instance(instance)
            let context = TransitionContext(phase: i.phase, containerBounds: i.layout(bounds).containerBounds)
            return modalkit_view_transform(i.style.presentedViewTransform(progress, Rect(frame), context))
        }
        // ABI 1.0: the transition callbacks (they set the phase the 1.0 entries are answered in).
        d.presentation_transition_will_begin = { instance in
            let i = StyleExport.instance(instance)
            i.phase = .present
            i.style.presentationTransitionWillBegin()
        }
        d.presentation_transition_did_end = { StyleExport.instance($0).style.presentationTransitionDidEnd($1) }
        d.dismissal_transition_will_begin = { instance in
            let i = StyleExport.instance(instance)
            i.phase = .dismiss
            i.style.dismissalTransitionWillBegin()
        }
        d.dismissal_transition_did_end = { StyleExport.instance($0).style.dismissalTransitionDidEnd($1) }
        // ABI 1.1: with a transition context, or written through out-parameters.
        d.transition_duration_in_context = { instance, context in
            StyleExport.instance(instance).style.transitionDuration(TransitionContext(context!.pointee))
        }
        d.timing_curve_in_context = { instance, context in
            modalkit_timing_curve(StyleExport.instance(instance).style.timingCurve(TransitionContext(context!.pointee)))
        }
        d.dimming_in_context = { instance, progress, context, out in
            out!.pointee = modalkit_dimming_fill(StyleExport.instance(instance).style.dimmingAppearance(
                progress, TransitionContext(context!.pointee)))
        }
        d.presented_view_transform_in_context = { instance, progress, frame, context in
            modalkit_anchored_transform(StyleExport.instance(instance).style.presentedViewTransform(
                progress, Rect(frame), TransitionContext(context!.pointee)))
        }
        d.chrome = { instance, bounds, out in
            let i = StyleExport.instance(instance)
            out!.pointee = modalkit_chrome(i.style.chrome(i.layout(bounds)))
        }
        d.presenting_view_appearance = { instance, progress, context in
            modalkit_presenting_appearance(StyleExport.instance(instance).style.presentingViewAppearance(
                progress, TransitionContext(context!.pointee)))
        }
        // 1.1's interaction entry carries no bounds: the host asks it during a layout (after
        // container_view_will_layout and the frame), so the last bounds are that layout's.
        d.interaction = { instance, out in
            let i = StyleExport.instance(instance)
            out!.pointee = modalkit_interaction(i.style.interaction(i.lastLayout))
        }
        // ABI 1.2: the frame with a layout context, whose preferred_content_size asks the host's
        // content (a function pointer and the context itself: nothing of Swift crosses).
        d.frame_in_context = { instance, context in
            let i = StyleExport.instance(instance)
            let c = context!
            let bounds = i.layout(c.pointee.container_bounds).containerBounds
            let ask = c.pointee.preferred_content_size
            let layout = LayoutContext(containerBounds: bounds, preferredContentSize: ask.map { f in
                { width in
                    var out = modalkit_size()
                    return f(c, width, &out) ? Size(width: out.width, height: out.height) : nil
                }
            })
            return modalkit_rect(i.style.frameOfPresentedView(layout))
        }
        // ABI 1.3: the interaction's scroll preference, asked with the interaction (same layout).
        d.prefers_scrolling_expands_when_scrolled_to_edge = { instance in
            let i = StyleExport.instance(instance)
            return i.style.interaction(i.lastLayout).prefersScrollingExpandsWhenScrolledToEdge
        }
        return d
    }

    /// The instance behind a pointer from `create` (the host never passes NULL).
    package static func instance(_ instance: OpaquePointer?) -> ExportedStyleInstance {
        Unmanaged<ExportedStyleInstance>.fromOpaque(UnsafeRawPointer(instance!)).takeUnretainedValue()
    }

    /// A NUL-terminated copy that lives until the process exits.
    package static func permanentCString(_ s: String) -> UnsafePointer<CChar> {
        UnsafePointer(strdup(s)!)
    }

    /// Copies `message` as one line into a C buffer of `length` bytes, truncated on a UTF-8
    /// character boundary and always NUL-terminated (nothing is written when `length == 0`).
    package static func copyMessage(_ message: String, into buffer: UnsafeMutablePointer<CChar>?, length: Int) {
        guard let buffer, length > 0 else { return }
        let line = StyleDeclaration.oneLine(message)
        var bytes: [UInt8] = []
        for scalar in line.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if bytes.count + encoded.count > length - 1 { break }
            bytes += encoded
        }
        for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
        buffer[bytes.count] = 0
    }
}

extension modalkit_style_option {
    /// The C record of a declaration (ABI 1.1: with its unit and accepted values); its strings
    /// are permanent copies.
    package init(_ option: StyleOption) {
        self.init()
        key = StyleExport.permanentCString(option.key)
        description = StyleExport.permanentCString(option.summary)
        default_value = StyleExport.permanentCString(option.defaultValue)
        unit = option.unit.isEmpty ? nil : StyleExport.permanentCString(option.unit)
        switch option.accepted {
        case let .text(s):
            kind = MODALKIT_OPTION_TEXT
            accepted = s.isEmpty ? nil : StyleExport.permanentCString(s)
        case let .number(range):
            kind = MODALKIT_OPTION_NUMBER
            minimum = range.lowerBound; maximum = range.upperBound
        case let .choice(values):
            kind = MODALKIT_OPTION_CHOICE
            let words = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(values.count, 1))
            for (i, v) in values.enumerated() { (words + i).initialize(to: StyleExport.permanentCString(v)) }
            choices = UnsafePointer(words)
            choice_count = values.count
        case .color:
            kind = MODALKIT_OPTION_COLOR
        case .curve:
            kind = MODALKIT_OPTION_CURVE
        }
    }
}
