import CWaylandClient

/// `wl_shm`: shared-memory buffers. Owns its proxy (destroyed in `deinit`).
///
/// ARGB8888 and XRGB8888 are always supported (wl_shm spec), so this client needs nothing from
/// the `format` events beyond recording them.
final class Shm {
    let proxy: OpaquePointer
    let version: UInt32
    /// The formats announced by `wl_shm.format` (`WL_SHM_FORMAT_*` codes).
    private(set) var formats: Set<UInt32> = []

    init(proxy: OpaquePointer, version: UInt32) {
        self.proxy = proxy
        self.version = version
        wl_shm_add_listener(proxy, Shm.listener, userData(self))
    }

    deinit { wl_shm_destroy(proxy) }

    private static let listener = listenerTable(wl_shm_listener(
        format: { data, _, format in
            owner(data, as: Shm.self).formats.insert(format)
        }))
}
