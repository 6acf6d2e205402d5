import CModalKitWaylandClient
import CModalKitWaylandProtocols

/// `zxdg_toplevel_decoration_v1`: the decoration mode of one toplevel.
///
/// The compositor answers `set_mode` with `configure(mode)`, followed by an `xdg_surface.configure`
/// that the window acks as usual; it may send another `configure` at any time (xdg-decoration: the
/// mode is the compositor's choice), which the window applies at that following ack. Owns its
/// proxy; xdg-decoration requires destroying it before its `xdg_toplevel` (`orphaned` error otherwise).
final class ToplevelDecoration {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    /// The mode the compositor chose (`ZXDG_TOPLEVEL_DECORATION_V1_MODE_*`), nil until configured.
    private(set) var mode: UInt32?

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
        zxdg_toplevel_decoration_v1_add_listener(proxy, ToplevelDecoration.listener, userData(self))
    }

    deinit { zxdg_toplevel_decoration_v1_destroy(proxy) }

    func requestServerSide() {
        zxdg_toplevel_decoration_v1_set_mode(proxy, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
    }

    private static let listener = listenerTable(zxdg_toplevel_decoration_v1_listener(
        configure: { data, _, mode in
            owner(data, as: ToplevelDecoration.self).mode = mode
        }))
}
