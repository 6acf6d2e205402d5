import CModalKitWaylandClient

/// The client's end of one compositor connection, a `wl_display`: `wl_display_disconnect` in
/// `deinit`, which frees the display; a proxy made on it must not be used or destroyed after that
/// (libwayland: `wl_proxy_destroy` locks the display's mutex and edits its object map).
///
/// The ownership rule of this module (docs/design.md, rules from the field, 18): every
/// object that wraps a proxy made on the display (a global, a `wl_surface`, a `wl_buffer`, a frame
/// callback, an input device, a `wl_cursor_theme` …) holds this object in a stored property, and
/// destroys its proxy in its own `deinit`. Swift releases an object's stored properties only after its `deinit` has run, so
/// each proxy is destroyed while the display is still connected, and the display disconnects
/// after the last of them, whichever order ARC releases the wrappers in. That order is no
/// contract: an optimized build releases a local right after its last use rather than at the end
/// of its scope, so a ``Window`` can hold the last reference to its connection and release it
/// before its own buffers. ``WaylandConnection`` is one more holder, not the owner: an object an
/// app keeps after dropping its connection keeps the socket open until it goes.
/// smithay-client-toolkit follows the same rule (each of its objects holds the `Connection`).
///
/// Nothing dispatches on the display once ``WaylandConnection`` is gone: requests made after that
/// (a late `wl_buffer.destroy`) are queued and dropped with the socket.
final class Display {
    /// The `wl_display`; valid for this object's lifetime.
    let pointer: OpaquePointer

    /// Takes ownership of a connected display (from `wl_display_connect`).
    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { wl_display_disconnect(pointer) }
}
