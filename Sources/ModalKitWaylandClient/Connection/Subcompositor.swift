import CModalKitWaylandClient
import CModalKitWaylandProtocols

/// `wl_subcompositor`: turns a `wl_surface` into a subsurface of another (used for the client-side
/// title bar). Optional global; without it the window has no client-side decorations.
/// Owns its proxy (destroyed in `deinit`).
package final class Subcompositor {
    package let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
    }

    deinit { wl_subcompositor_destroy(proxy) }

    /// Makes `surface` a subsurface of `parent`. wl_subcompositor: a new subsurface is in
    /// synchronized mode, placed at (0, 0), on top of its parent's stack.
    package func subsurface(_ surface: Surface, parent: Surface) -> Subsurface {
        Subsurface(proxy: wl_subcompositor_get_subsurface(proxy, surface.proxy, parent.proxy), display: display)
    }
}

/// `wl_subsurface`: the role of a surface stacked on a parent.
///
/// Synchronized (the default, kept here): the subsurface's commits are cached and applied
/// together with the parent's next commit (wl_subsurface), so a title bar commit made just
/// before the parent's commit appears in the same frame as the content — foot's practice.
/// `set_position` is parent state too (applied at the parent's commit).
/// Owns its proxy; destroy it before its surface (then the surface is unmapped at once).
package final class Subsurface {
    package let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
    }

    deinit { wl_subsurface_destroy(proxy) }

    /// Position in the parent's surface-local points.
    package func setPosition(x: Int, y: Int) { wl_subsurface_set_position(proxy, Int32(x), Int32(y)) }
}
