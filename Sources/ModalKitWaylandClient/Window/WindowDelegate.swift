/// What a ``Window`` is asked for at creation.
public struct WindowOptions {
    /// `xdg_toplevel.set_title`: what the compositor shows in its title bar, task switcher and
    /// window list, and the client-side title bar draws (empty: no title is sent).
    public var title: String
    /// `xdg_toplevel.set_app_id`: the application's identifier, by convention its desktop file's
    /// name without `.desktop` (e.g. `org.example.App`); compositors group windows and find icons
    /// by it. nil: none is sent (xdg-shell allows that; a desktop then cannot match the window).
    public var appID: String?
    /// The size in logical points used in each dimension the compositor leaves to the client
    /// (a 0 in `xdg_toplevel.configure`), clamped to `configure_bounds` when sent. Must be ≥ 1.
    public var requestedSize: (width: Int, height: Int)
    /// How frames are composed (``CompositingMode``; default `.pixman`). `.auto` resolves to
    /// `.subsurface` where the compositor offers `wl_subcompositor` and `wp_viewporter`; `.subsurface`
    /// without them makes ``Window/init(connection:options:delegate:)`` throw
    /// ``WaylandError/missingGlobal(_:)``. Sub-surface frames need a ``LayeredWindowDelegate``.
    public var compositing: CompositingMode
    /// Ask `wp_presentation` (when offered) for the feedback of every committed frame
    /// (``WindowDelegate/window(_:didPresent:at:refresh:)``).
    public var presentationFeedback: Bool
    /// Draw each frame for its predicted presentation time (``PresentationClock``) instead of the
    /// time it is drawn at; needs ``presentationFeedback`` and a compositor offering
    /// `wp_presentation` on `CLOCK_MONOTONIC` (otherwise frames use the monotonic clock now).
    public var predictsPresentationTime = false
    /// The decorations the window draws itself where the compositor leaves them to the client
    /// (xdg-decoration `client_side`, or no `zxdg_decoration_manager_v1`: GNOME, weston); nil (the
    /// default): none, the window is shown undecorated there. Server-side decorations are asked
    /// for whenever the compositor offers them, with or without these. ModalKitWaylandDecorations'
    /// `ClientSideDecorations.standard` is a title bar (title, ×, drag to move, double-click to
    /// maximize) and invisible resize borders, as foot draws them.
    public var clientSideDecorations: ClientSideDecorations?
    /// The layer-surface role (wlr-layer-shell) instead of an xdg-shell toplevel: a surface over a
    /// whole output, sized by the compositor's `configure` (``requestedSize`` is used for a 0
    /// there). nil (the default): a toplevel. Needs ``WaylandConnection/offersLayerShell``, else
    /// ``Window/init(connection:options:delegate:)`` throws ``WaylandError/missingGlobal(_:)``.
    /// Title, app id and decorations do not apply to it.
    public var layerSurface: LayerSurfaceOptions?

    /// Options; see the properties for each value (the window asks for 480 × 800 points by default).
    public init(title: String = "", appID: String? = nil,
                requestedSize: (width: Int, height: Int) = (480, 800), compositing: CompositingMode = .pixman,
                presentationFeedback: Bool = false) {
        self.title = title
        self.appID = appID
        self.requestedSize = requestedSize
        self.compositing = compositing
        self.presentationFeedback = presentationFeedback
    }
}

/// The memory to draw one frame into: a free `wl_shm` buffer (the compositor is not reading it).
///
/// Valid only during `WindowDelegate/window(_:draw:)`; the pointer must not be kept.
public struct DrawTarget {
    /// First pixel. ARGB8888 premultiplied: 32-bit native-endian 0xAARRGGBB words
    /// (`WL_SHM_FORMAT_ARGB8888` == `PIXMAN_a8r8g8b8`).
    public var data: UnsafeMutableRawPointer
    /// Size in buffer pixels: the logical size × `scale` (on the fractional path each side rounded
    /// half away from zero, fractional-scale-v1; see ``SurfaceScale/bufferSize(width:height:)``).
    public var width: Int
    /// Height in buffer pixels, as ``width``.
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
    /// The frame's time: `CLOCK_MONOTONIC` seconds (`monotonicSeconds()`), taken just before
    /// the call. Drive animations from it.
    public var time: Double

    /// A draw target; see the properties for each value.
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
    func window(_ window: Window, draw target: DrawTarget, damage: inout [PixelRect])

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
    /// An input method's `done` (text-input-v3) while the window has text-input focus and a
    /// ``Window/textInputRequest``: apply it, then send the field's new state with
    /// ``Window/setTextInput(_:cause:)`` and cause `.inputMethod`. Default: ignored.
    func window(_ window: Window, textInput event: TextInputEvent)

    /// A frame that changed what the window shows (a buffer attached, or a layer changed) was
    /// committed; see ``CommittedFrame``. Default: nothing.
    func window(_ window: Window, didCommit frame: CommittedFrame)
    /// The compositor showed committed frame `sequence` (``CommittedFrame/sequence``) at `time`
    /// (seconds of `CLOCK_MONOTONIC`), `refresh` seconds before the next refresh (0 = unknown);
    /// only with ``WindowOptions/presentationFeedback`` and a compositor offering `wp_presentation`.
    /// Frames superseded before a refresh are never reported. Default: nothing.
    func window(_ window: Window, didPresent sequence: Int, at time: Double, refresh: Double)
    /// The compositor's frame callback for the window's last committed frame came
    /// (`wl_callback.done` of `wl_surface.frame`): that frame has been shown, or the compositor
    /// judges it a good time to draw the next one (wl_surface: "the best time to draw"; a hidden
    /// window gets none). Called once per frame callback, after its frame's
    /// ``window(_:didCommit:)``. Default: nothing.
    func windowDidReceiveFrameCallback(_ window: Window)
    /// The window draws at `scale` buffer pixels per point, less than the outputs' `wanted`, because
    /// a buffer of its size at `wanted` would be over ``BufferCap`` (16384 pixels a side, 64 Mi
    /// pixels). Called before the ``window(_:didConfigureWidth:height:scale:)`` that carries the
    /// lower scale, and again only when the limited scale or the wanted one changes. Default: nothing.
    func window(_ window: Window, didLimitScaleTo scale: Double, wanted: Double)
}

/// A ``WindowDelegate`` that composes sub-surface frames (``CompositingMode/subsurface``): instead
/// of ``WindowDelegate/window(_:draw:damage:)`` the window calls
/// ``window(_:compose:)`` for every frame, in which the delegate updates its ``SurfaceLayer``s and,
/// only when the content below them changed, draws the window's own buffer.
public protocol LayeredWindowDelegate: WindowDelegate {
    /// Compose the frame for `frame.time`: update layers (``Window/makeLayer()``), and draw the
    /// window's content buffer through ``FrameComposer/baseTarget()`` when it changed or when
    /// ``FrameComposer/mustDrawBase``. Everything shows with the window's one commit after this returns.
    func window(_ window: Window, compose frame: FrameComposer)
}

/// One committed frame (``WindowDelegate/window(_:didCommit:)``).
public struct CommittedFrame: Sendable {
    /// 1, 2, …: the window's count of committed frames that changed what it shows.
    public var sequence: Int
    /// The frame's time (``DrawTarget/time``), seconds of `CLOCK_MONOTONIC`.
    public var time: Double
    /// CPU time of the window's thread (`CLOCK_THREAD_CPUTIME_ID`) from the start of the frame to
    /// its `wl_surface.commit`, seconds: what the frame cost the client.
    public var cpuSeconds: Double
    /// Whether a new buffer was attached to the window's own surface.
    public var attachedBuffer: Bool
    /// Whether a sub-surface layer changed.
    public var layersChanged: Bool
}

/// What a ``LayeredWindowDelegate`` composes one frame with. Valid only during
/// ``LayeredWindowDelegate/window(_:compose:)``.
public final class FrameComposer {
    /// The frame's time: `CLOCK_MONOTONIC` seconds, taken just before the call.
    public internal(set) var time: Double = 0
    /// The window's content buffer size in pixels and its scale (as ``DrawTarget``).
    public internal(set) var width = 0, height = 0
    /// Buffer pixels per logical point (> 0), as ``DrawTarget/scale``.
    public internal(set) var scale: Double = 1
    /// The integer `wl_surface.set_buffer_scale` of the window's buffers, 0 on the fractional path
    /// (buffers shown through a viewport at ``scale``).
    public internal(set) var bufferScale = 1
    /// The content buffer must be drawn this frame (first frame, new size or scale, configure ack).
    public internal(set) var mustDrawBase = false
    /// Damage of the content buffer in buffer pixels (as ``WindowDelegate/window(_:draw:damage:)``'s);
    /// arrives empty, keeps its capacity.
    public var baseDamage: [PixelRect] = { var a = [PixelRect](); a.reserveCapacity(16); return a }()

    var acquired: BufferPool.Acquired?
    var acquire: (() throws -> BufferPool.Acquired?)?
    /// The error ``baseTarget()`` threw this frame: the window throws it after the frame, whatever
    /// the delegate did with it.
    var failure: Error?

    init() {}

    /// A free content buffer (the compositor is not reading it) to draw this frame's content into,
    /// with its age; the same one when asked again in the frame. nil when every buffer is held and
    /// the pool is full (the frame is then retried after a release).
    /// - Throws: ``WaylandError/bufferAllocation(_:)`` or ``WaylandError/bufferTooLarge(width:height:)``
    ///   when the buffer cannot be made; ``WaylandConnection/run()`` then throws it after this frame
    ///   even if the delegate does not pass it on.
    public func baseTarget() throws -> DrawTarget? {
        if acquired == nil {
            do {
                acquired = try acquire?()
            } catch {
                failure = failure ?? error
                throw error
            }
        }
        guard let a = acquired else { return nil }
        return DrawTarget(data: a.buffer.data, width: width, height: height, stride: a.buffer.stride, scale: scale,
                          age: a.age, time: time)
    }
}

public extension WindowDelegate {
    func window(_ window: Window, pointer frame: PointerFrame) {}
    func window(_ window: Window, key event: KeyEvent) {}
    func window(_ window: Window, touch frame: TouchFrame) {}
    func window(_ window: Window, textInput event: TextInputEvent) {}
    func window(_ window: Window, didCommit frame: CommittedFrame) {}
    func window(_ window: Window, didPresent sequence: Int, at time: Double, refresh: Double) {}
    func window(_ window: Window, didLimitScaleTo scale: Double, wanted: Double) {}
    func windowDidReceiveFrameCallback(_ window: Window) {}
}
