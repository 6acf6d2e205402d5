import CModalKitWaylandClient
import CModalKitWaylandProtocols

/// `zxdg_decoration_manager_v1` (xdg-decoration-unstable-v1): lets a toplevel ask the compositor
/// to draw its title bar and borders. Optional; without it the window draws its own title bar
/// (ModalKitWaylandDecorations' title bar; xdg-decoration: no manager means client-side decorations).
/// Owns its proxy (destroyed in `deinit`).
final class DecorationManager {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
    }

    deinit { zxdg_decoration_manager_v1_destroy(proxy) }

    /// Creates the decoration object of `toplevel` and asks for server-side decorations.
    /// xdg-decoration: must happen before the surface's first buffer is attached.
    func decorate(_ toplevel: XdgToplevel) -> ToplevelDecoration {
        let decoration = ToplevelDecoration(
            proxy: zxdg_decoration_manager_v1_get_toplevel_decoration(proxy, toplevel.proxy), display: display)
        decoration.requestServerSide()
        return decoration
    }
}
