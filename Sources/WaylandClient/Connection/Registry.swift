import CWaylandClient
import CWaylandProtocols

/// The highest version of each global this client implements. The registry binds
/// `min(offered, supported)` (wl_registry.bind: binding a version the compositor does not offer is
/// a protocol error; binding one newer than our listeners know would crash on unknown events).
/// Children (wl_surface, wl_pointer, xdg_toplevel …) inherit the version of the object that made them.
enum SupportedVersion {
    /// v3 set_buffer_scale, v4 damage_buffer, v5 offset (v6 adds events libwayland 1.21 has no listener slots for).
    static let compositor: UInt32 = 5
    static let shm: UInt32 = 1
    /// v5 release requests, v7 keymap must be mapped MAP_PRIVATE, v8 axis_value120.
    static let seat: UInt32 = 8
    /// v2 scale + done, v3 release, v4 name + description.
    static let output: UInt32 = 4
    /// v4 configure_bounds, v5 wm_capabilities.
    static let xdgWmBase: UInt32 = 5
    static let decorationManager: UInt32 = 1
    static let subcompositor: UInt32 = 1
    static let viewporter: UInt32 = 1
    static let fractionalScaleManager: UInt32 = 1
}

/// `wl_registry`: announces the compositor's globals and binds them.
///
/// Owns its proxy and destroys it in `deinit`. Events go to ``onGlobal`` / ``onGlobalRemove``.
final class Registry {
    let proxy: OpaquePointer
    /// `wl_registry.global(name, interface, version)`.
    var onGlobal: ((_ name: UInt32, _ interface: String, _ version: UInt32) -> Void)?
    /// `wl_registry.global_remove(name)`.
    var onGlobalRemove: ((_ name: UInt32) -> Void)?

    init(display: OpaquePointer) {
        proxy = wl_display_get_registry(display)
        wl_registry_add_listener(proxy, Registry.listener, userData(self))
    }

    deinit { wl_registry_destroy(proxy) }

    /// Binds global `name` at `min(offered, supported)`.
    /// - Returns: the new proxy and the version bound.
    func bind(name: UInt32, interface: UnsafePointer<wl_interface>, offered: UInt32,
              supported: UInt32) -> (proxy: OpaquePointer, version: UInt32) {
        let version = min(offered, supported)
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
