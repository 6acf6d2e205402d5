import CModalKitWaylandClient
import Glibc

/// How a ``Window`` composes what its delegate shows.
public enum CompositingMode: String, Hashable, Sendable, CaseIterable {
    /// ``subsurface`` where the compositor offers `wl_subcompositor` and `wp_viewporter`, else ``pixman``.
    case auto
    /// Layers handed to the compositor as synchronized sub-surfaces (``SurfaceLayer``), the delegate
    /// composing each frame through ``LayeredWindowDelegate``; needs `wl_subcompositor` and `wp_viewporter`.
    case subsurface
    /// Everything drawn by the client into the window's one buffer (``WindowDelegate/window(_:draw:damage:)``).
    case pixman
}

/// One layer above a window's content, handed to the compositor as a `wl_subsurface` of the
/// window's surface with a `wp_viewport` (``Window/makeLayer()``); layers stack in creation order,
/// above the content.
///
/// Rules (wl_subsurface, wp_viewport, wl_buffer):
/// - Synchronized sub-surface: what a layer method sends is cached by the compositor and applied
///   with the window's next commit, so a frame (content + every layer) is shown whole or not at
///   all. Call the methods from ``LayeredWindowDelegate/window(_:compose:)``; the window commits.
/// - Positions and sizes are whole surface-local points (`wl_subsurface.set_position` and
///   `wp_viewport.set_destination` take integers).
/// - The layer takes no input (empty input region): pointer and touch go to the window's content.
/// - Nothing is re-sent that did not change, so a frame in which a layer does not change costs no
///   request, and a moving layer costs one `set_position` and one commit.
/// - A solid layer shows one premultiplied colour stretched by the viewport over the rectangle:
///   the centre 2×2 pixels of a 4×4 `wl_shm` buffer of that colour (`wp_viewport.set_source`
///   1, 1, 2, 2). A 1×1 buffer stretched whole is what the protocol suggests, but a compositor
///   that filters the stretch bilinearly blends its edge pixels with the transparent outside of
///   the buffer, and the 16.16 fixed-point transform of a source of one pixel stretched ~1000
///   times can round the first row away (wlroots 0.15's pixman renderer at scale 2 does both);
///   with a margin of the same colour all round and a 2-pixel source neither shows. Colours
///   alternate between 4×4 and 5×5 buffers (the 2×2 pixels from (1, 1) shown in both): KWin 5.27 keeps one
///   texture per surface and uploads only the buffer damage that falls inside the viewport's
///   source, so a new colour in a buffer of the same size keeps the old colour's margin, which its
///   bilinear stretch blends into the edges; a new size makes the texture anew. One buffer
///   per colour is made once, in one `wl_shm_pool` made with the first colour, and kept (never
///   written again) while fewer than ``solidCacheLimit`` colours are in use: a new colour costs a
///   request, not a system call.
/// - An image layer's buffers come from its own pool: a buffer is drawn into only when the
///   compositor has released it (`wl_buffer.release`); when every buffer is held the pool grows,
///   up to ``imagePoolCapacity`` buffers, after which ``imageTarget(width:height:)`` returns nil
///   until one is released. A layer that alternates between two image sizes (a gradient dim's
///   strip, 4 and 5 pixels wide for the reason colours alternate sizes) has a pool per size, so
///   neither remakes its buffers.
/// - Lifetime: the window destroys its layers when it closes (``Window/close()`` or its `deinit`),
///   sub-surfaces before its own surface; a layer the app still holds then does nothing and holds
///   no Wayland object. Until then it keeps the connection's `wl_display` connected, like every
///   object here that wraps a proxy (``WaylandConnection``, ownership), so releasing it after the
///   window or the connection is safe in any order.
public final class SurfaceLayer {
    /// Most colour buffers kept per layer (a dim fading in 8-bit steps needs at most 256).
    public static let solidCacheLimit = ColorBuffers.slotCount
    /// Most image buffers alive at once per layer.
    public static let imagePoolCapacity = 4

    private var surfaceObject: Surface?
    private var subsurfaceObject: Subsurface?
    private var viewportObject: Viewport?
    private var surface: Surface { surfaceObject! }
    private var subsurface: Subsurface { subsurfaceObject! }
    private var viewport: Viewport { viewportObject! }
    /// The connection's `wl_shm` and the image pool; nil once destroyed (a layer its app keeps
    /// after the window closed holds no Wayland object, so it does not keep the display connected).
    private var shmObject: Shm?
    private var poolObject: BufferPool? { poolObjects.isEmpty ? nil : poolObjects[drawingPool] }
    /// The image pools: two, so that a layer can alternate between two image sizes (a gradient
    /// dim's strip, for the reason solid colours alternate sizes) without remaking buffers; a layer
    /// of one size uses the first alone. Empty once destroyed.
    private var poolObjects: [BufferPool] = []
    /// Each pool's buffer size, the pool the image being drawn comes from, and the one of the
    /// image attached.
    private var poolSizes = [(width: 0, height: 0), (width: 0, height: 0)]
    private var drawingPool = 0
    private var attachedPool: Int?
    /// The colour buffers, 4×4 and 5×5 (each made at its first solid colour), and the set the
    /// colour attached last comes from.
    private var colorSets: (ColorBuffers?, ColorBuffers?)
    private var colorSet = 0
    private var colors: ColorBuffers? { colorSet == 0 ? colorSets.0 : colorSets.1 }

    // What the compositor has been sent (nil = never / unset).
    private var sentPosition: (x: Int, y: Int)?
    private var sentDestination: (width: Int, height: Int)?
    private var sentSource: (x: Double, y: Double, width: Double, height: Double)?
    private var sentSourceSet = false
    private var sentScale = 1
    private var attachedSolid: UInt32?
    private var attachedImage: ShmBuffer?
    private var drawing: BufferPool.Acquired?
    /// Something was sent since the window's last commit (the window commits it).
    private(set) var changed = false
    private var destroyed = false

    /// True while a buffer is attached (the layer shows).
    public private(set) var isShown = false
    /// True while an image is attached or drawn and not yet shown: ``showImage(x:y:visible:scale:)``
    /// can show it without a new ``imageTarget(width:height:)``. False after ``hide()``.
    public var hasImage: Bool { attachedImage != nil || drawing != nil }
    /// The first error a buffer of this layer could not be made with (``showSolid(color:x:y:width:height:)``,
    /// ``imageTarget(width:height:)``): the window throws it from ``WaylandConnection/run()`` after
    /// the frame, even when the delegate ignored it.
    public internal(set) var allocationFailure: Error?
    /// Buffers alive in the image pool (for tests and statistics).
    public var imageBufferCount: Int { poolObjects.reduce(0) { $0 + $1.count } }

    init(compositor: Compositor, subcompositor: Subcompositor, viewporter: Viewporter, shm: Shm, parent: Surface,
         onRelease: @escaping () -> Void) {
        let surface = compositor.createSurface()
        surfaceObject = surface
        subsurfaceObject = subcompositor.subsurface(surface, parent: parent)   // synchronized, at (0, 0), on top
        viewportObject = viewporter.viewport(for: surface)
        shmObject = shm
        for _ in 0..<2 {
            let pool = BufferPool(shm: shm, capacity: SurfaceLayer.imagePoolCapacity)
            pool.onRelease = onRelease
            poolObjects.append(pool)
        }
        surface.setEmptyInputRegion(compositor: compositor)
        surface.commit()
    }

    /// Destroys the sub-surface (it disappears with the parent's next commit), the surface and buffers.
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        if let d = drawing { poolObject?.finishDrawing(id: d.id, attached: false) }
        drawing = nil
        attachedImage = nil
        attachedSolid = nil
        isShown = false   // its surface goes: nothing shows
        // The viewport and the sub-surface role before their surface; the layer vanishes with the
        // parent's next commit. Then the buffers.
        viewportObject = nil
        subsurfaceObject = nil
        surfaceObject = nil
        for pool in poolObjects { pool.removeAll() }
        poolObjects = []
        colorSets = (nil, nil)
        shmObject = nil
    }

    deinit { destroy() }

    /// Shows one premultiplied ARGB colour (`0xAARRGGBB`, `WL_SHM_FORMAT_ARGB8888`) over the rectangle
    /// at (`x`, `y`) of `width` × `height` points (each ≥ 1) in the window's content coordinates.
    /// - Throws: ``WaylandError/bufferAllocation(_:)`` when the colour buffers cannot be made
    ///   (also kept in ``allocationFailure``).
    public func showSolid(color: UInt32, x: Int, y: Int, width: Int, height: Int) throws {
        guard !destroyed, width > 0, height > 0 else { return }
        if attachedSolid != color || attachedImage != nil || !isShown {
            // Each new colour from the other set: a buffer of another size than the one attached
            // before. A compositor that keeps one texture per surface and uploads only the damage
            // mapped through the viewport — the source rectangle, not the margin (KWin 5.27) —
            // then makes the texture anew, margin included, instead of stretching the old colour's
            // margin into the new one's edges.
            colorSet = attachedSolid == nil ? colorSet : 1 - colorSet
            if colors == nil, let shm = shmObject {
                let made = try recordingFailure { try ColorBuffers(shm: shm, side: colorSet == 0 ? 4 : 5) }
                if colorSet == 0 { colorSets.0 = made } else { colorSets.1 = made }
            }
            guard let colors, let buffer = colors.buffer(for: color, keeping: attachedSolid) else { return }
            surface.attach(buffer)
            surface.damageBuffer(PixelRect(x: 0, y: 0, width: colors.side, height: colors.side))
            colors.attached(color)
            attachedSolid = color
            attachedImage = nil
            isShown = true
            changed = true
        }
        setScale(1)
        setSource((1, 1, 2, 2))   // the same in both sizes: no request when only the colour changes
        setDestination(width: width, height: height)
        setPosition(x: x, y: y)
        commitIfChanged()
    }

    /// A free buffer of `width` × `height` pixels to draw the layer's next image into (premultiplied
    /// ARGB8888; contents undefined: draw every pixel), or nil when every buffer is held by the
    /// compositor and the pool is full (draw later; the window redraws after a release). The image
    /// is shown by the next ``showImage(x:y:visible:scale:)``; asking again first drops it.
    /// - Throws: ``WaylandError/bufferTooLarge(width:height:)`` over ``BufferCap`` (check with
    ///   ``BufferCap/fits(width:height:)`` first), ``WaylandError/bufferAllocation(_:)``; either is
    ///   also kept in ``allocationFailure``.
    public func imageTarget(width: Int, height: Int) throws -> DrawTarget? {
        guard !destroyed, width > 0, height > 0, poolObjects.count == 2 else { return nil }
        if let d = drawing { poolObject?.finishDrawing(id: d.id, attached: false) }
        drawing = nil
        // The pool of this size; else the one not holding the attached image takes the new size.
        if poolSizes[0] == (width, height) {
            drawingPool = 0
        } else if poolSizes[1] == (width, height) {
            drawingPool = 1
        } else {
            drawingPool = attachedPool == 0 ? 1 : 0
        }
        let pool = poolObjects[drawingPool]
        for p in poolObjects { p.dropsReleasedBuffers = false }
        pool.setSize(width: width, height: height)
        poolSizes[drawingPool] = (width, height)
        guard let acquired = try recordingFailure({ try pool.acquire() }) else { return nil }
        drawing = acquired
        let b = acquired.buffer
        return DrawTarget(data: b.data, width: width, height: height, stride: b.stride, scale: 1, age: acquired.age,
                          time: 0)
    }

    /// Attaches the image just drawn (``imageTarget(width:height:)``), or the one attached before
    /// when the layer was hidden; false (and the layer hidden) when there is no image at all.
    private func attachImage() -> Bool {
        if let d = drawing {
            drawing = nil
            surface.attach(d.buffer.proxy)
            surface.damageBuffer(PixelRect(x: 0, y: 0, width: d.buffer.width, height: d.buffer.height))
            poolObject?.finishDrawing(id: d.id, attached: true)
            attachedPool = drawingPool
            attachedImage = d.buffer
            attachedSolid = nil
            isShown = true
            changed = true
        } else if let image = attachedImage {
            guard !isShown else { return true }
            surface.attach(image.proxy)
            surface.damageBuffer(PixelRect(x: 0, y: 0, width: image.width, height: image.height))
            isShown = true
            changed = true
        } else {
            hide()
            return false
        }
        return true
    }

    /// Shows the image last drawn through ``imageTarget(width:height:)`` (or keeps the one shown)
    /// with its top-left at (`x`, `y`) points in the window's content, at `scale` buffer pixels per
    /// point, cropped to `visible`: a rectangle in the image's own points (whole points, inside the
    /// image); an empty `visible` hides the layer.
    ///
    /// At a whole `scale` the image's pixel size must be a multiple of it: it is shown at that
    /// `wl_surface.set_buffer_scale`, the viewport's source in points. At a fractional `scale`
    /// (fractional-scale-v1's n/120) it is shown at buffer scale 1, the viewport's source the
    /// `visible` rectangle × `scale` in buffer pixels and its destination `visible` in points (the
    /// protocol's rule for fractional scale): give it an image whose size and origin are whole pixels
    /// at `scale` (ModalKit's `PresentedLayerPlacement`), so that the compositor maps it 1:1 onto the output.
    public func showImage(x: Int, y: Int, visible: Rect, scale: Double) {
        guard !destroyed else { return }
        // Whole points (the parameter's contract): the same values as integers for the requests.
        let visibleX = Int(visible.minX), visibleY = Int(visible.minY)
        let visibleWidth = Int(visible.width), visibleHeight = Int(visible.height)
        guard visibleWidth > 0, visibleHeight > 0, scale > 0 else { hide(); return }
        guard attachImage() else { return }
        let whole = scale.rounded()
        if abs(scale - whole) < 1e-9 {
            setScale(max(1, Int(whole)))
            setSource((Double(visibleX), Double(visibleY), Double(visibleWidth), Double(visibleHeight)))
        } else {
            setScale(1)
            setSource((Double(visibleX) * scale, Double(visibleY) * scale,
                       Double(visibleWidth) * scale, Double(visibleHeight) * scale))
        }
        setDestination(width: visibleWidth, height: visibleHeight)
        setPosition(x: x + visibleX, y: y + visibleY)
        commitIfChanged()
    }

    /// Shows the image last drawn through ``imageTarget(width:height:)`` (or keeps the one shown)
    /// stretched by the viewport: its `source` rectangle, in buffer pixels (buffer scale 1), over the
    /// rectangle at (`x`, `y`) of `width` × `height` points (each ≥ 1) in the window's content. For
    /// a strip of colours stretched along one axis (a gradient dim: a few columns of one colour per
    /// row, shown 1:1 vertically at the output's scale and stretched horizontally), leave a
    /// one-pixel margin of the same colours outside `source` across the stretched axis: a
    /// compositor that filters the stretch bilinearly then blends nothing from outside the buffer.
    public func showStretchedImage(source: PixelRect, x: Int, y: Int,
                                   width: Int, height: Int) {
        guard !destroyed else { return }
        guard width > 0, height > 0, source.width > 0, source.height > 0 else { hide(); return }
        guard attachImage() else { return }
        setScale(1)
        setSource((Double(source.x), Double(source.y), Double(source.width), Double(source.height)))
        setDestination(width: width, height: height)
        setPosition(x: x, y: y)
        commitIfChanged()
    }

    /// Hides the layer (attaches no buffer); the image last shown is kept for a later
    /// ``showImage(x:y:visible:scale:)`` while the compositor has not released it.
    public func hide() {
        guard !destroyed else { return }
        if let d = drawing {
            poolObject?.finishDrawing(id: d.id, attached: false)
            drawing = nil
        }
        guard isShown else { return }
        surface.attach(nil)
        isShown = false
        attachedSolid = nil
        // wl_surface: a null buffer unmaps; the compositor releases the image buffer, so it may be drawn into again.
        attachedImage = nil
        changed = true
        commitIfChanged()
    }

    /// A hidden layer of a window at rest holds no image buffers: the free ones are destroyed now,
    /// the ones the compositor still holds when it releases them (until the next ``imageTarget(width:height:)``).
    func dropImageBuffersWhileHidden() {
        guard !destroyed, !isShown, drawing == nil else { return }
        for pool in poolObjects {
            pool.dropsReleasedBuffers = true
            pool.dropFreeBuffers()
        }
    }

    /// Runs `body`, keeping the first error it throws in ``allocationFailure``.
    private func recordingFailure<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            allocationFailure = allocationFailure ?? error
            throw error
        }
    }

    /// The window committed its surface (the cached layer state is applied).
    func parentCommitted() { changed = false }

    private func setScale(_ s: Int) {
        guard s != sentScale else { return }
        surface.setBufferScale(s)
        sentScale = s
        changed = true
    }

    private func setSource(_ r: (x: Double, y: Double, width: Double, height: Double)?) {
        if let r {
            if sentSourceSet, let s = sentSource, s == r { return }
        } else if !sentSourceSet {
            return
        }
        viewport.setSource(r)
        sentSource = r
        sentSourceSet = r != nil
        changed = true
        viewportChanged = true
    }

    private func setDestination(width: Int, height: Int) {
        if let d = sentDestination, d == (width, height) { return }
        viewport.setDestination(width: width, height: height)
        sentDestination = (width, height)
        changed = true
        viewportChanged = true
    }

    private func setPosition(x: Int, y: Int) {
        if let p = sentPosition, p == (x, y) { return }
        subsurface.setPosition(x: x, y: y)   // parent state: applied with the parent's next commit
        sentPosition = (x, y)
        changed = true
    }

    private func commitIfChanged() {
        if viewportChanged {
            // A new source or destination without a new buffer: attach the same colour buffer again
            // with full damage, so that a compositor that damages a surface only for new buffer
            // contents (wlroots 0.15, sway 1.7) repaints all of it at its new size. Only colour
            // buffers, which are never written: an image buffer attached twice could see a release
            // for the first attach while the second still holds it.
            viewportChanged = false
            if let color = attachedSolid, isShown, let colors, let b = colors.buffer(for: color, keeping: color) {
                surface.attach(b)
                surface.damageBuffer(PixelRect(x: 0, y: 0, width: colors.side, height: colors.side))
                colors.attached(color)
            }
        }
        // Each sub-surface commit is cached until the parent's commit (synchronized mode).
        if changed { surface.commit() }
    }
    private var viewportChanged = false
}
