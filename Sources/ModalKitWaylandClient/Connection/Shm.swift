import CModalKitWaylandClient

/// `wl_shm`: shared-memory buffers. Owns its proxy (destroyed in `deinit`).
///
/// ARGB8888, the only format this client draws in, is always supported (wl_shm spec), so it does
/// not listen for the `format` events.
package final class Shm {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    let version: UInt32

    init(proxy: OpaquePointer, version: UInt32, display: Display) {
        self.proxy = proxy
        self.version = version
        self.display = display
    }

    deinit { wl_shm_destroy(proxy) }
}
