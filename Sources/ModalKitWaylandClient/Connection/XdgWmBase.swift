import CModalKitWaylandClient
import CModalKitWaylandProtocols

/// `xdg_wm_base`: makes xdg surfaces and answers the compositor's liveness `ping` with `pong`
/// (xdg-shell: a client that does not answer may be marked unresponsive).
/// Owns its proxy (destroyed in `deinit`; xdg-shell requires every xdg_surface to be gone first,
/// which holds because windows keep the connection alive).
final class XdgWmBase {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    let version: UInt32

    init(proxy: OpaquePointer, version: UInt32, display: Display) {
        self.proxy = proxy
        self.version = version
        self.display = display
        xdg_wm_base_add_listener(proxy, XdgWmBase.listener, userData(self))
    }

    deinit { xdg_wm_base_destroy(proxy) }

    func createXdgSurface(for surface: Surface) -> XdgSurface {
        XdgSurface(proxy: xdg_wm_base_get_xdg_surface(proxy, surface.proxy), display: display)
    }

    private static let listener = listenerTable(xdg_wm_base_listener(
        ping: { data, _, serial in
            xdg_wm_base_pong(owner(data, as: XdgWmBase.self).proxy, serial)
        }))
}
