import CModalKitWaylandClient
import CModalKitWaylandProtocols

/// `xdg_toplevel`: the window role. Its `configure` only announces a size and states, applied
/// when the following `xdg_surface.configure` is acked (see ``ConfigureState``).
/// Owns its proxy (destroyed in `deinit`; destroy any decoration object first).
final class XdgToplevel {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    /// `configure(width, height, states)`: points (0 = client decides), `xdg_toplevel.state` values.
    var onConfigure: ((_ width: Int32, _ height: Int32, _ states: [UInt32]) -> Void)?
    /// `configure_bounds(width, height)` (v4+): the size the window should not exceed, 0 = unknown.
    var onConfigureBounds: ((_ width: Int32, _ height: Int32) -> Void)?
    /// `close`: the user asked to close the window (e.g. the title bar button, `swaymsg kill`).
    var onClose: (() -> Void)?

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
        xdg_toplevel_add_listener(proxy, XdgToplevel.listener, userData(self))
    }

    deinit { xdg_toplevel_destroy(proxy) }

    func setTitle(_ title: String) { xdg_toplevel_set_title(proxy, title) }
    func setAppID(_ appID: String) { xdg_toplevel_set_app_id(proxy, appID) }

    /// Starts an interactive move (xdg-shell): `serial` must be that of the user action that
    /// caused it (a pointer button press or touch down on the client-side title bar).
    func move(seat: OpaquePointer, serial: UInt32) { xdg_toplevel_move(proxy, seat, serial) }
    /// Starts an interactive resize from `edge` (xdg-shell): `serial` is that of the press or
    /// touch down on a resize border. The compositor then sends configures with the new sizes
    /// (state `resizing`).
    func resize(seat: OpaquePointer, serial: UInt32, edge: ResizeEdge) {
        xdg_toplevel_resize(proxy, seat, serial, edge.rawValue)
    }
    /// `set_min_size` in window-geometry points (xdg-shell; double-buffered, applied at commit;
    /// 0 = no minimum).
    func setMinSize(width: Int, height: Int) { xdg_toplevel_set_min_size(proxy, Int32(width), Int32(height)) }
    func setMaximized() { xdg_toplevel_set_maximized(proxy) }
    func unsetMaximized() { xdg_toplevel_unset_maximized(proxy) }
    /// The compositor's window menu at (x, y), points relative to the window's main surface.
    func showWindowMenu(seat: OpaquePointer, serial: UInt32, x: Int, y: Int) {
        xdg_toplevel_show_window_menu(proxy, seat, serial, Int32(x), Int32(y))
    }

    private static let listener = listenerTable(xdg_toplevel_listener(
        configure: { data, _, width, height, states in
            withOwner(data, as: XdgToplevel.self) { $0.onConfigure?(width, height, uint32Values(of: states)) }
        },
        close: { data, _ in
            withOwner(data, as: XdgToplevel.self) { $0.onClose?() }
        },
        configure_bounds: { data, _, width, height in
            owner(data, as: XdgToplevel.self).onConfigureBounds?(width, height)
        },
        wm_capabilities: { _, _, _ in
            // Window-menu/maximize/fullscreen/minimize capabilities: this client offers none of
            // those actions itself, so there is nothing to hide.
        }))
}
