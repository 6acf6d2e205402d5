/// An integer rectangle in buffer pixels (origin top left, x right, y down): the damage a
/// delegate reports for a frame, carried unchanged through the window's frame pacing to
/// `wl_surface.damage_buffer` (x, y, width, height as that request takes them).
public struct BufferRect: Equatable, Hashable, Sendable {
    /// Left edge and top edge, in buffer pixels.
    public var x: Int
    public var y: Int
    /// Size in buffer pixels (a rectangle with a side ≤ 0 is empty and ignored).
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// What a ``Window`` is asked for at creation.
public struct WindowOptions {
    /// `xdg_toplevel.set_title`.
    public var title: String
    /// `xdg_toplevel.set_app_id` (the desktop file name without `.desktop`).
    public var appID: String
    /// The size in logical points used in each dimension the compositor leaves to the client
    /// (a 0 in `xdg_toplevel.configure`), clamped to `configure_bounds` when sent. Must be ≥ 1.
    public var requestedSize: (width: Int, height: Int)

    public init(title: String = "ModalKit", appID: String = "modalkit.demo",
                requestedSize: (width: Int, height: Int) = (480, 800)) {
        self.title = title
        self.appID = appID
        self.requestedSize = requestedSize
    }
}

/// The memory to draw one frame into: a free `wl_shm` buffer (the compositor is not reading it).
///
/// Valid only during ``WindowDelegate/window(_:draw:)``; the pointer must not be kept.
public struct DrawTarget {
    /// First pixel. ARGB8888 premultiplied: 32-bit native-endian 0xAARRGGBB words
    /// (`WL_SHM_FORMAT_ARGB8888` == `PIXMAN_a8r8g8b8`).
    public var data: UnsafeMutableRawPointer
    /// Size in buffer pixels: the logical size × `scale` (on the fractional path each side rounded
    /// half away from zero, fractional-scale-v1; see ``SurfaceScale/bufferSize(width:height:)``).
    public var width: Int
    public var height: Int
    /// Bytes per row.
    public var stride: Int
    /// Buffer pixels per logical point (> 0): the integer buffer scale (1, 2, …) or, where the
    /// compositor uses fractional-scale-v1, its preferred scale n/120 (e.g. 1.5, 1.25).
    public var scale: Double
    /// Buffer age, as EGL_EXT_buffer_age: 0 = contents undefined (draw everything); n ≥ 1 = the
    /// buffer holds the frame drawn n draws ago (1 = the previous one), so only what changed
    /// since then must be redrawn. Every call of `draw` counts as a frame.
    public var age: Int
    /// The frame's time: `CLOCK_MONOTONIC` seconds (``monotonicSeconds()``), taken just before
    /// the call. Drive animations from it.
    public var time: Double

    public init(data: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, scale: Double,
                age: Int, time: Double) {
        self.data = data
        self.width = width
        self.height = height
        self.stride = stride
        self.scale = scale
        self.age = age
        self.time = time
    }
}

/// The application side of a ``Window``. All calls happen on the thread running
/// ``WaylandConnection/run()``, from inside it.
public protocol WindowDelegate: AnyObject {
    /// The window's logical content size (points, never 0) or scale changed; sent after the
    /// compositor's configure was acked (xdg-shell), for the first configure, when the surface
    /// moves to outputs of another scale, and when the compositor's fractional `preferred_scale`
    /// changes. `scale` is ``Window/pixelScale``: buffer pixels per point, a whole number on the
    /// integer path, n/120 on the fractional one. A frame is drawn right after. The content size
    /// excludes a client-side title bar (``Window/showsClientSideTitleBar``), which the window
    /// draws itself; the delegate never sees it.
    func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double)

    /// Draw the frame for `target.time` into `target`, and append to `damage` what changed
    /// relative to the previous frame, in buffer pixels.
    ///
    /// `damage` arrives empty; it is the window's own array, kept with its capacity from frame to
    /// frame, so appending to it allocates nothing once warmed up. Each rectangle becomes a
    /// `wl_surface.damage_buffer` as it is (clipped to the buffer). Left empty = nothing changed:
    /// the buffer is then not committed — unless the window must commit anyway (first frame,
    /// resize, scale change, configure ack), in which case all of it is damaged.
    func window(_ window: Window, draw target: DrawTarget, damage: inout [BufferRect])

    /// The compositor asked to close the window (`xdg_toplevel.close`). The window stays open
    /// until ``Window/close()`` is called.
    func windowDidRequestClose(_ window: Window)

    /// Pointer input over the window's content, one `wl_pointer.frame` at a time (see
    /// ``PointerFrame``). Default: ignored.
    func window(_ window: Window, pointer frame: PointerFrame)
    /// Keyboard input while the window has keyboard focus. Default: ignored.
    func window(_ window: Window, key event: KeyEvent)
    /// Touch input on the window's content, one `wl_touch.frame` at a time (see ``TouchFrame``).
    /// Default: ignored.
    func window(_ window: Window, touch frame: TouchFrame)
}

public extension WindowDelegate {
    func window(_ window: Window, pointer frame: PointerFrame) {}
    func window(_ window: Window, key event: KeyEvent) {}
    func window(_ window: Window, touch frame: TouchFrame) {}
}
