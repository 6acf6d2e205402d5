import CModalKitWaylandClient

/// `wl_compositor`: makes surfaces. Owns its proxy (destroyed in `deinit`).
package final class Compositor {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    /// The bound version; every `wl_surface` made here has it.
    let version: UInt32

    init(proxy: OpaquePointer, version: UInt32, display: Display) {
        self.proxy = proxy
        self.version = version
        self.display = display
    }

    deinit { wl_compositor_destroy(proxy) }

    package func createSurface() -> Surface { Surface(proxy: wl_compositor_create_surface(proxy), display: display) }
}
