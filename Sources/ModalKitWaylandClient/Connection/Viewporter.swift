import CModalKitWaylandClient
import CModalKitWaylandProtocols

/// `wp_viewporter` (optional): bound when offered. The resize borders use it to stretch one 1×1
/// transparent buffer over each border surface (ModalKitWaylandDecorations' resize borders); a backend that hands the layers
/// to the compositor (docs/design.md, frame pipeline) could do the same for a 1×1 dim buffer
/// stretched to the container. With fractional-scale-v1 the window and its title bar use it to show
/// buffers of round(points × scale) pixels at their size in points (``SurfaceScale``). Owns its
/// proxy.
package final class Viewporter {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
    }

    deinit { wp_viewporter_destroy(proxy) }

    /// A viewport for `surface` (wp_viewporter: at most one per surface, else `viewport_exists`).
    package func viewport(for surface: Surface) -> Viewport {
        Viewport(proxy: wp_viewporter_get_viewport(proxy, surface.proxy), display: display)
    }
}

/// `wp_viewport`: crops and scales its surface. Owns its proxy; destroy it before its surface.
package final class Viewport {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
    }

    deinit { wp_viewport_destroy(proxy) }

    /// The surface's size in points, whatever its buffer's size and scale (double-buffered: applied
    /// at the surface's commit). wp_viewport: both positive.
    package func setDestination(width: Int, height: Int) {
        wp_viewport_set_destination(proxy, Int32(width), Int32(height))
    }

    /// The part of the buffer shown, in surface-local coordinates before the viewport (after
    /// `buffer_scale`), as `wl_fixed` (1/256); nil unsets it (the whole buffer). Double-buffered.
    func setSource(_ rect: (x: Double, y: Double, width: Double, height: Double)?) {
        if let r = rect {
            wp_viewport_set_source(proxy, wl_fixed_from_double(r.x), wl_fixed_from_double(r.y),
                                   wl_fixed_from_double(r.width), wl_fixed_from_double(r.height))
        } else {
            let unset = wl_fixed_from_int(-1)
            wp_viewport_set_source(proxy, unset, unset, unset, unset)
        }
    }
}
