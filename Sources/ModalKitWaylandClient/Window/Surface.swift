import CModalKitWaylandClient

/// `wl_surface`. Owns its proxy and destroys it in `deinit`.
///
/// Reports `enter`/`leave` (the outputs the surface is on, which decide the buffer scale).
package final class Surface {
    package let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    let version: UInt32
    /// `wl_surface.enter(output)` / `wl_surface.leave(output)`: the `wl_output` proxy.
    var onEnter: ((OpaquePointer) -> Void)?
    var onLeave: ((OpaquePointer) -> Void)?

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
        version = wl_proxy_get_version(proxy)
        wl_surface_add_listener(proxy, Surface.listener, userData(self))
    }

    deinit { wl_surface_destroy(proxy) }

    /// `set_buffer_scale` (wl_surface v3; the connection binds wl_compositor ≥ 4).
    /// Double-buffered: applies at the next commit, whose buffer must be a multiple of `scale`.
    package func setBufferScale(_ scale: Int) {
        wl_surface_set_buffer_scale(proxy, Int32(scale))
    }

    /// `damage_buffer` (wl_surface v4; the connection binds wl_compositor ≥ 4): a rectangle in
    /// buffer pixels, whatever the buffer scale or viewport.
    package func damageBuffer(_ rect: PixelRect) {
        wl_surface_damage_buffer(proxy, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
    }

    package func attach(_ buffer: OpaquePointer?) { wl_surface_attach(proxy, buffer, 0, 0) }

    /// `set_input_region` with an empty region (double-buffered): pointer and touch input passes
    /// through this surface to whatever is below it (wl_surface: input outside the input region
    /// goes to the surface below).
    func setEmptyInputRegion(compositor: Compositor) {
        let region = wl_compositor_create_region(compositor.proxy)
        wl_surface_set_input_region(proxy, region)
        wl_region_destroy(region)
    }
    package func commit() { wl_surface_commit(proxy) }

    private static let listener = listenerTable(wl_surface_listener(
        enter: { data, _, output in
            guard let output else { return }
            withOwner(data, as: Surface.self) { $0.onEnter?(output) }
        },
        leave: { data, _, output in
            guard let output else { return }
            withOwner(data, as: Surface.self) { $0.onLeave?(output) }
        }))
}
