import CModalKitWaylandClient

/// The `wl_callback` of `wl_surface.frame`: "a good time to start drawing a new frame".
///
/// Requested with a commit; `done` fires once, when the compositor shows that commit (it may never
/// fire while the surface is hidden: compositors send hidden windows none, so nothing may wait
/// on it but drawing).
/// Owns its proxy and destroys it in `deinit`.
final class FrameCallback {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    private let onDone: (_ timeMilliseconds: UInt32) -> Void

    /// Requests a frame callback for the next commit of `surface`.
    init(surface: Surface, onDone: @escaping (UInt32) -> Void) {
        proxy = wl_surface_frame(surface.proxy)
        display = surface.display
        self.onDone = onDone
        wl_callback_add_listener(proxy, FrameCallback.listener, userData(self))
    }

    deinit { wl_callback_destroy(proxy) }

    private static let listener = listenerTable(wl_callback_listener(
        done: { data, _, time in
            withOwner(data, as: FrameCallback.self) { $0.onDone(time) }
        }))
}
