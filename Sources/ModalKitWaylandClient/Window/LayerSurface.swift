import CModalKitWaylandClient
import CModalKitWaylandProtocols

/// What a ``Window`` with the layer-surface role asks for (wlr-layer-shell-unstable-v1): the
/// `zwlr_layer_surface_v1` role instead of an xdg-shell toplevel, where the compositor offers
/// `zwlr_layer_shell_v1` (``WaylandConnection/offersLayerShell``; sway, KWin, not mutter or weston).
///
/// A system-modal overlay (swaynag, fuzzel, wlogout): the overlay layer, anchored to all four
/// edges with size 0 × 0, so the compositor sends the output's size in `configure`; exclusive zone
/// −1 (drawn over panels, moved by none); keyboard interactivity exclusive (the surface takes all
/// keyboard input while it is mapped).
public struct LayerSurfaceOptions: Sendable {
    /// `zwlr_layer_shell_v1.layer`: background 0, bottom 1, top 2, overlay 3.
    public var layer: UInt32 = 3
    /// The `namespace` of `get_layer_surface`: what the surface is for (compositors' rules match it).
    public var namespace: String
    /// `set_exclusive_zone`: −1 (default) is drawn over exclusive zones and moves nothing.
    public var exclusiveZone: Int32 = -1
    /// `set_keyboard_interactivity`: 0 none, 1 exclusive (default), 2 on demand (since v4).
    public var keyboardInteractivity: UInt32 = 1
    /// The output of `get_layer_surface`: the registry name of a `wl_output`
    /// (``WaylandConnection/outputNames``), or nil (default) for the compositor's choice (the
    /// focused output: sway, KWin). A name no longer advertised is the compositor's choice too.
    public var output: UInt32?

    /// An overlay-layer surface over the whole output named `namespace`, with exclusive keyboard.
    public init(namespace: String) { self.namespace = namespace }
}

/// `zwlr_layer_shell_v1`: makes layer surfaces. Optional global. Owns its proxy (v3+ sends
/// `destroy`; earlier versions have no destructor request and only the proxy goes).
final class LayerShell {
    let proxy: OpaquePointer
    let version: UInt32
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display

    init(proxy: OpaquePointer, version: UInt32, display: Display) {
        self.proxy = proxy
        self.version = version
        self.display = display
    }

    deinit {
        if version >= 3 { zwlr_layer_shell_v1_destroy(proxy) } else { wl_proxy_destroy(proxy) }
    }

    /// `get_layer_surface` for `surface` on `output` (a `wl_output` proxy; nil: the compositor's
    /// choice, the focused output on sway and KWin), with `options` set before the first commit
    /// (as the protocol requires): size 0 × 0, anchored to all edges.
    func layerSurface(for surface: Surface, options: LayerSurfaceOptions, output: OpaquePointer?) -> LayerSurface {
        let proxy = zwlr_layer_shell_v1_get_layer_surface(self.proxy, surface.proxy, output, options.layer, options.namespace)!
        let layerSurface = LayerSurface(proxy: proxy, display: display)
        let all = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
            | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue
        zwlr_layer_surface_v1_set_size(proxy, 0, 0)
        zwlr_layer_surface_v1_set_anchor(proxy, all)
        zwlr_layer_surface_v1_set_exclusive_zone(proxy, options.exclusiveZone)
        let interactivity = options.keyboardInteractivity == 2 && version < 4 ? 1 : options.keyboardInteractivity
        zwlr_layer_surface_v1_set_keyboard_interactivity(proxy, interactivity)
        return layerSurface
    }
}

/// `zwlr_layer_surface_v1`: the layer role of a window's surface. `configure(serial, width,
/// height)` gives the size (points) to ack and draw; `closed` says the surface will not be shown
/// again (its output went, the compositor chose): the window closes.
/// Owns its proxy (destroyed in `deinit`, before its surface).
final class LayerSurface {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    /// `configure(serial, width, height)`.
    var onConfigure: ((_ serial: UInt32, _ width: UInt32, _ height: UInt32) -> Void)?
    /// `closed`.
    var onClosed: (() -> Void)?

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
        zwlr_layer_surface_v1_add_listener(proxy, LayerSurface.listener, userData(self))
    }

    deinit { zwlr_layer_surface_v1_destroy(proxy) }

    func ackConfigure(serial: UInt32) { zwlr_layer_surface_v1_ack_configure(proxy, serial) }

    private static let listener = listenerTable(zwlr_layer_surface_v1_listener(
        configure: { data, _, serial, width, height in
            withOwner(data, as: LayerSurface.self) { $0.onConfigure?(serial, width, height) }
        },
        closed: { data, _ in
            withOwner(data, as: LayerSurface.self) { $0.onClosed?() }
        }))
}
