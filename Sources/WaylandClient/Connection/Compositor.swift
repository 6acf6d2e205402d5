import CWaylandClient

/// `wl_compositor`: makes surfaces. Owns its proxy (destroyed in `deinit`).
final class Compositor {
    let proxy: OpaquePointer
    /// The bound version; every `wl_surface` made here has it.
    let version: UInt32

    init(proxy: OpaquePointer, version: UInt32) {
        self.proxy = proxy
        self.version = version
    }

    deinit { wl_compositor_destroy(proxy) }

    func createSurface() -> Surface { Surface(proxy: wl_compositor_create_surface(proxy)) }
}
