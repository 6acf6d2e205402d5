import CModalKitWaylandClient
import CModalKitWaylandProtocols

/// `xdg_surface`: the configure/ack handshake of a shell surface.
///
/// xdg-shell: `configure(serial)` ends a burst of role events (`xdg_toplevel.configure` …); the
/// client applies the burst, answers `ack_configure(serial)` and its next commit must reflect it.
/// Owns its proxy (destroyed in `deinit`; destroy the role object first).
final class XdgSurface {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    /// `xdg_surface.configure(serial)`.
    var onConfigure: ((UInt32) -> Void)?

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
        xdg_surface_add_listener(proxy, XdgSurface.listener, userData(self))
    }

    deinit { xdg_surface_destroy(proxy) }

    func getToplevel() -> XdgToplevel { XdgToplevel(proxy: xdg_surface_get_toplevel(proxy), display: display) }

    func ackConfigure(serial: UInt32) { xdg_surface_ack_configure(proxy, serial) }

    /// `set_window_geometry` (points, surface-local; double-buffered, applied at the next commit).
    func setWindowGeometry(x: Int, y: Int, width: Int, height: Int) {
        xdg_surface_set_window_geometry(proxy, Int32(x), Int32(y), Int32(width), Int32(height))
    }

    private static let listener = listenerTable(xdg_surface_listener(
        configure: { data, _, serial in
            withOwner(data, as: XdgSurface.self) { $0.onConfigure?(serial) }
        }))
}
