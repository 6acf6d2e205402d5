// The plugin side of the style ABI: turns a Swift `LoadablePresentationStyle` into the C
// descriptor of modalkit_style.h, so style authors write no C (docs/design.md, plugin boundary).
import CModalKitStyle
import Glibc
import SystemSupport

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
/// functions call into `S` through `Unmanaged` references: `create` runs `S.init(options:)` with
/// the declared defaults overlaid by the host's key/value pairs; an error thrown there (its
/// `description`, e.g. `StyleOptionError`'s one line) is copied into the host's error buffer,
/// truncated to fit and NUL-terminated. Every `PresentationStyle` requirement is exported, so the
/// host sees the style exactly as the type implements it, defaults included.
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
final class ExportedStyleType {
    let options: [StyleOption]
    let make: (StyleOptions) throws -> any PresentationStyle
    init(options: [StyleOption], make: @escaping (StyleOptions) throws -> any PresentationStyle) {
        self.options = options; self.make = make
    }
}

/// What a `modalkit_style *` points at: one retained style instance.
final class ExportedStyleInstance {
    let style: any PresentationStyle
    init(_ style: any PresentationStyle) { self.style = style }
}

enum StyleExport {
    private static let lock = Lock()
    /// Built descriptors by style type; never freed (the host may call them until exit).
    private static var descriptors: [ObjectIdentifier: UnsafeMutablePointer<modalkit_style_descriptor>] = [:]

    static func descriptor<S: LoadablePresentationStyle>(for type: S.Type) -> UnsafeRawPointer {
        lock.lock(); defer { lock.unlock() }
        if let d = descriptors[ObjectIdentifier(type)] { return UnsafeRawPointer(d) }
        let d = UnsafeMutablePointer<modalkit_style_descriptor>.allocate(capacity: 1)
        d.initialize(to: makeDescriptor(
            name: S.name, summary: S.summary, options: S.options,
            make: { try S(options: $0) }))
        descriptors[ObjectIdentifier(type)] = d
        return UnsafeRawPointer(d)
    }

    /// A descriptor whose strings and option table are copied to C memory that is never freed.
    static func makeDescriptor(name: String, summary: String, options: [StyleOption],
                               make: @escaping (StyleOptions) throws -> any PresentationStyle)
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
        d.transition_duration = { StyleExport.style(of: $0).transitionDuration }
        d.timing_curve = { modalkit_timing_curve(StyleExport.style(of: $0).timingCurve) }
        d.frame_of_presented_view = { modalkit_rect(StyleExport.style(of: $0).frameOfPresentedView(in: Rect($1))) }
        d.corner_style = { modalkit_corner_style(StyleExport.style(of: $0).cornerStyle(forPresentedViewIn: Rect($1))) }
        d.dimming_appearance = { modalkit_dimming(StyleExport.style(of: $0).dimmingAppearance(at: $1)) }
        d.presented_view_transform = { instance, progress, frame, bounds in
            modalkit_view_transform(StyleExport.style(of: instance).presentedViewTransform(
                at: progress, frame: Rect(frame), in: Rect(bounds)))
        }
        d.should_dismiss_on_tap = { StyleExport.style(of: $0).shouldDismiss(onTapAt: Point($1), in: Rect($2)) }
        d.presentation_transition_will_begin = { StyleExport.style(of: $0).presentationTransitionWillBegin() }
        d.presentation_transition_did_end = { StyleExport.style(of: $0).presentationTransitionDidEnd(completed: $1) }
        d.dismissal_transition_will_begin = { StyleExport.style(of: $0).dismissalTransitionWillBegin() }
        d.dismissal_transition_did_end = { StyleExport.style(of: $0).dismissalTransitionDidEnd(completed: $1) }
        d.container_view_will_layout = { StyleExport.style(of: $0).containerViewWillLayoutSubviews(containerBounds: Rect($1)) }
        d.container_view_did_layout = { StyleExport.style(of: $0).containerViewDidLayoutSubviews(containerBounds: Rect($1)) }
        // ABI 1.1
        d.transition_duration_in_context = { instance, context in
            StyleExport.style(of: instance).transitionDuration(for: TransitionContext(context!.pointee))
        }
        d.timing_curve_in_context = { instance, context in
            modalkit_timing_curve(StyleExport.style(of: instance).timingCurve(for: TransitionContext(context!.pointee)))
        }
        d.dimming_in_context = { instance, progress, context, out in
            out!.pointee = modalkit_dimming_fill(StyleExport.style(of: instance).dimmingAppearance(
                at: progress, context: TransitionContext(context!.pointee)))
        }
        d.presented_view_transform_in_context = { instance, progress, frame, context in
            modalkit_anchored_transform(StyleExport.style(of: instance).presentedViewTransform(
                at: progress, frame: Rect(frame), context: TransitionContext(context!.pointee)))
        }
        d.chrome = { instance, bounds, out in
            out!.pointee = modalkit_chrome(StyleExport.style(of: instance).chrome(forPresentedViewIn: Rect(bounds)))
        }
        d.presenting_view_appearance = { instance, progress, context in
            modalkit_presenting_appearance(StyleExport.style(of: instance).presentingViewAppearance(
                at: progress, context: TransitionContext(context!.pointee)))
        }
        d.interaction = { instance, out in
            out!.pointee = modalkit_interaction(StyleExport.style(of: instance).interaction)
        }
        return d
    }

    /// The style behind an instance pointer from `create` (the host never passes NULL).
    static func style(of instance: OpaquePointer?) -> any PresentationStyle {
        Unmanaged<ExportedStyleInstance>.fromOpaque(UnsafeRawPointer(instance!)).takeUnretainedValue().style
    }

    /// A NUL-terminated copy that lives until the process exits.
    static func permanentCString(_ s: String) -> UnsafePointer<CChar> {
        UnsafePointer(strdup(s)!)
    }

    /// Copies `message` as one line into a C buffer of `length` bytes, truncated on a UTF-8
    /// character boundary and always NUL-terminated (nothing is written when `length == 0`).
    static func copyMessage(_ message: String, into buffer: UnsafeMutablePointer<CChar>?, length: Int) {
        guard let buffer, length > 0 else { return }
        let line = StyleLoadError.oneLine(message)
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
    init(_ option: StyleOption) {
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
