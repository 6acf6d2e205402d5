import CModalKitWaylandClient
import CModalKitWaylandProtocols

/// The versions of one global this client binds: at least ``minimum`` (what the client calls
/// unconditionally needs it), at most ``supported`` (the newest whose events the client's
/// listeners know). The registry binds `min(offered, supported)` (wl_registry.bind: binding a
/// version the compositor does not offer is a protocol error; binding one newer than the
/// listeners know would crash on unknown events). Children (wl_surface, wl_pointer,
/// xdg_toplevel …) inherit the version of the object that made them.
struct GlobalVersion: Equatable, Sendable {
    /// The interface name, as `wl_registry.global` announces it.
    let interface: String
    /// The oldest version the client works with.
    let minimum: UInt32
    /// The newest version the client implements (≥ ``minimum``).
    let supported: UInt32
    /// What needs ``minimum`` (the request or event and the protocol's `since`), for the error
    /// message; nil when the minimum is 1.
    let neededFor: String?
    /// Whether the client cannot work without it (``WaylandConnection`` throws when it is absent
    /// or too old); an optional one offered below ``minimum`` is ignored, as if absent.
    let isRequired: Bool

    /// The version to bind when the compositor offers `offered`: `min(offered, supported)`, or
    /// nil when `offered` is below ``minimum`` (the global must not be used).
    func bindVersion(offered: UInt32) -> UInt32? {
        offered >= minimum ? min(offered, supported) : nil
    }

    /// The one-line error for a required global offered at `offered` < ``minimum``.
    func tooOldError(offered: UInt32) -> WaylandError {
        .globalTooOld(interface: interface, offered: offered, needed: minimum, neededFor: neededFor)
    }
}

/// Every global this client binds, with the versions it needs and implements. The minimums
/// follow from what the client calls without checking the bound version (the `since`
/// attributes of wayland.xml and the protocol XMLs); everything newer is used only when bound.
enum GlobalVersions {
    /// v4: `wl_surface.damage_buffer` (since 4; every frame's damage is in buffer pixels), which
    /// also brings `set_buffer_scale` (since 3). Up to v5 (`offset`; v6 adds events libwayland
    /// 1.21 has no listener slots for).
    static let compositor = GlobalVersion(interface: "wl_compositor", minimum: 4, supported: 5,
                                          neededFor: "wl_surface.damage_buffer", isRequired: true)
    /// v1: `create_pool` (the formats need no listener: ARGB8888 is always supported).
    static let shm = GlobalVersion(interface: "wl_shm", minimum: 1, supported: 1, neededFor: nil, isRequired: true)
    /// v1 has everything called (get_xdg_surface, get_toplevel, move, resize, set_min_size,
    /// set_maximized, show_window_menu, set_window_geometry); v4 configure_bounds and
    /// v5 wm_capabilities are events used when bound.
    static let xdgWmBase = GlobalVersion(interface: "xdg_wm_base", minimum: 1, supported: 5, neededFor: nil,
                                         isRequired: true)
    /// v1 get_pointer/get_keyboard/get_touch; used when bound: v3 device release, v4 repeat_info,
    /// v5 wl_pointer.frame, axis_source/axis_stop/axis_discrete and wl_seat.release, v7 keymap mapped
    /// MAP_PRIVATE, v8 axis_value120. Not v9 (axis_relative_direction): libwayland 1.21 has no
    /// listener slot for it.
    static let seat = GlobalVersion(interface: "wl_seat", minimum: 1, supported: 8, neededFor: nil, isRequired: false)
    /// v1 (no `scale` before v2: such an output counts as scale 1); used when bound: v2 scale and
    /// done, v3 release, v4 name and description.
    static let output = GlobalVersion(interface: "wl_output", minimum: 1, supported: 4, neededFor: nil, isRequired: false)
    static let decorationManager = GlobalVersion(interface: "zxdg_decoration_manager_v1", minimum: 1, supported: 1,
                                                 neededFor: nil, isRequired: false)
    static let subcompositor = GlobalVersion(interface: "wl_subcompositor", minimum: 1, supported: 1, neededFor: nil,
                                             isRequired: false)
    static let viewporter = GlobalVersion(interface: "wp_viewporter", minimum: 1, supported: 1, neededFor: nil,
                                          isRequired: false)
    static let fractionalScaleManager = GlobalVersion(interface: "wp_fractional_scale_manager_v1", minimum: 1,
                                                      supported: 1, neededFor: nil, isRequired: false)
    /// v1: `feedback` with its `presented`/`discarded` events (presentation-time, stable).
    static let presentation = GlobalVersion(interface: "wp_presentation", minimum: 1, supported: 1, neededFor: nil,
                                            isRequired: false)

    /// v1 has everything called (get_layer_surface, set_size, set_anchor, set_exclusive_zone,
    /// set_keyboard_interactivity, ack_configure); used when bound: v3 `destroy`, v4 on-demand keyboard.
    static let layerShell = GlobalVersion(interface: "zwlr_layer_shell_v1", minimum: 1, supported: 4, neededFor: nil,
                                          isRequired: false)

    /// v1: text-input-unstable-v3 (enable, surrounding text, content type, cursor rectangle, commit).
    static let textInputManager = GlobalVersion(interface: "zwp_text_input_manager_v3", minimum: 1, supported: 1,
                                                neededFor: nil, isRequired: false)
    /// v1 has the clipboard (data source, offer, set_selection); up to v3, whose drag-and-drop
    /// events the listeners ignore (v2: `wl_data_device.release`).
    static let dataDeviceManager = GlobalVersion(interface: "wl_data_device_manager", minimum: 1, supported: 3,
                                                 neededFor: nil, isRequired: false)
    /// v1: primary-selection-unstable-v1.
    static let primarySelectionManager = GlobalVersion(interface: "zwp_primary_selection_device_manager_v1", minimum: 1,
                                                       supported: 1, neededFor: nil, isRequired: false)

    static let all: [GlobalVersion] = [compositor, shm, xdgWmBase, seat, output, decorationManager, subcompositor,
                                       viewporter, fractionalScaleManager, presentation, textInputManager,
                                       dataDeviceManager, primarySelectionManager, layerShell]
}

/// `wl_registry`: announces the compositor's globals and binds them.
///
/// Owns its proxy and destroys it in `deinit`. Events go to ``onGlobal`` / ``onGlobalRemove``.
final class Registry {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    /// `wl_registry.global(name, interface, version)`.
    var onGlobal: ((_ name: UInt32, _ interface: String, _ version: UInt32) -> Void)?
    /// `wl_registry.global_remove(name)`.
    var onGlobalRemove: ((_ name: UInt32) -> Void)?

    init(display: Display) {
        self.display = display
        proxy = wl_display_get_registry(display.pointer)
        wl_registry_add_listener(proxy, Registry.listener, userData(self))
    }

    deinit { wl_registry_destroy(proxy) }

    /// Binds global `name` at `versions.bindVersion(offered:)`.
    /// - Returns: the new proxy and the version bound; nil (nothing bound) when `offered` is
    ///   below `versions.minimum`.
    func bind(name: UInt32, interface: UnsafePointer<wl_interface>, offered: UInt32,
              versions: GlobalVersion) -> (proxy: OpaquePointer, version: UInt32)? {
        guard let version = versions.bindVersion(offered: offered) else { return nil }
        let raw = wl_registry_bind(proxy, name, interface, version)!
        return (OpaquePointer(raw), version)
    }

    private static let listener = listenerTable(wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let interface else { return }
            owner(data, as: Registry.self).onGlobal?(name, String(cString: interface), version)
        },
        global_remove: { data, _, name in
            owner(data, as: Registry.self).onGlobalRemove?(name)
        }))
}
