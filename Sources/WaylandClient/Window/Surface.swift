import CWaylandClient

/// `wl_surface`. Owns its proxy and destroys it in `deinit`.
///
/// Reports `enter`/`leave` (the outputs the surface is on, which decide the buffer scale).
final class Surface {
    let proxy: OpaquePointer
    let version: UInt32
    /// `wl_surface.enter(output)` / `wl_surface.leave(output)`: the `wl_output` proxy.
    var onEnter: ((OpaquePointer) -> Void)?
    var onLeave: ((OpaquePointer) -> Void)?

    init(proxy: OpaquePointer) {
        self.proxy = proxy
        version = wl_proxy_get_version(proxy)
        wl_surface_add_listener(proxy, Surface.listener, userData(self))
    }

    deinit { wl_surface_destroy(proxy) }

    /// `set_buffer_scale` (wl_surface v3+; a no-op before, where the scale is always 1).
    /// Double-buffered: applies at the next commit, whose buffer must be a multiple of `scale`.
    func setBufferScale(_ scale: Int) {
        if version >= 3 { wl_surface_set_buffer_scale(proxy, Int32(scale)) }
    }

    /// Damages a rectangle in buffer pixels: `damage_buffer` (v4+), or before v4 `damage` in
    /// surface-local points, rounded outwards.
    func damageBuffer(x: Int, y: Int, width: Int, height: Int, scale: Int) {
        if version >= 4 {
            wl_surface_damage_buffer(proxy, Int32(x), Int32(y), Int32(width), Int32(height))
        } else {
            let s = max(1, scale)
            let x0 = x / s, y0 = y / s
            let x1 = (x + width + s - 1) / s, y1 = (y + height + s - 1) / s
            wl_surface_damage(proxy, Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0))
        }
    }

    /// As above for `scale` buffer pixels per point, which may be fractional (a buffer stretched
    /// by `wp_viewport`): before v4 the points are rounded outwards from pixels ÷ scale.
    func damageBuffer(x: Int, y: Int, width: Int, height: Int, scale: Double) {
        if version >= 4 || scale == scale.rounded() {
            damageBuffer(x: x, y: y, width: width, height: height, scale: Int(max(1, scale)))
        } else {
            let s = max(scale, 1.0 / 120)
            let x0 = Int((Double(x) / s).rounded(.down)), y0 = Int((Double(y) / s).rounded(.down))
            let x1 = Int((Double(x + width) / s).rounded(.up)), y1 = Int((Double(y + height) / s).rounded(.up))
            wl_surface_damage(proxy, Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0))
        }
    }

    func attach(_ buffer: OpaquePointer?) { wl_surface_attach(proxy, buffer, 0, 0) }
    func commit() { wl_surface_commit(proxy) }

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
