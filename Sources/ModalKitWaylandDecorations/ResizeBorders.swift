import ModalKitWaylandClient

/// The invisible resize borders of a client-side decorated `Window`: four synchronized
/// `wl_subsurface`s (top, bottom, left, right; ``ResizeBorderLayout``) around the window geometry,
/// each showing a fully transparent buffer, so they take pointer and touch input (the default input
/// region is the whole surface) and draw nothing. foot's practice.
///
/// Buffers: with `wp_viewporter` one 1×1 transparent `wl_shm` buffer is attached to all four
/// surfaces and stretched with `wp_viewport.set_destination` (nothing to reallocate on a resize);
/// without it each surface gets a transparent buffer of its own size in points at buffer scale 1
/// (a few tens of kB, remade only when the window size changes). A new shm buffer is zeroed,
/// which is transparent premultiplied ARGB. The buffers are never written, so a buffer still held
/// by the compositor may be attached again.
///
/// Positions and the subsurfaces' commits are applied with the parent's next commit (sync mode);
/// ``apply(layout:geometryOrigin:)`` goes right before it. Owns its objects: `deinit` destroys
/// viewports, subsurfaces, then surfaces (the borders vanish with the parent's next commit).
final class ResizeBorders {
    private struct Part {
        let side: ResizeBorderSide
        var surface: Surface!
        var subsurface: Subsurface!
        var viewport: Viewport?
        var buffer: ShmBuffer?
    }

    private var parts: [Part]
    private let shm: Shm
    /// The shared 1×1 buffer (viewporter case).
    private var pixel: ShmBuffer?
    private(set) var layout: ResizeBorderLayout?
    private var origin: (x: Int, y: Int) = (0, 0)

    /// - Throws: ``WaylandError/bufferAllocation(_:)`` when the 1×1 buffer cannot be made.
    init(compositor: Compositor, subcompositor: Subcompositor, viewporter: Viewporter?, parent: Surface,
         shm: Shm) throws {
        self.shm = shm
        parts = ResizeBorderSide.allCases.map { side in
            let surface = compositor.createSurface()
            return Part(side: side, surface: surface, subsurface: subcompositor.subsurface(surface, parent: parent),
                        viewport: viewporter?.viewport(for: surface))
        }
        if viewporter != nil { pixel = try ShmBuffer(shm: shm, width: 1, height: 1) }
    }

    deinit {
        for i in parts.indices {
            parts[i].viewport = nil     // wp_viewport before its surface
            parts[i].subsurface = nil   // unmaps the surface at once
            parts[i].surface = nil
            parts[i].buffer = nil
        }
    }

    /// Which border `proxy` is, if any.
    func side(of proxy: OpaquePointer) -> ResizeBorderSide? {
        parts.first { $0.surface.proxy == proxy }?.side
    }

    /// Places and sizes the borders for `layout`; `geometryOrigin` is the window geometry's origin
    /// in main-surface points (subsurface positions are relative to the main surface). Commits the
    /// subsurfaces (cached until the parent's commit) only when something changed.
    /// - Returns: true when anything was sent (the parent must commit for it to take effect).
    func apply(layout: ResizeBorderLayout, geometryOrigin: (x: Int, y: Int)) throws -> Bool {
        guard layout != self.layout || geometryOrigin != origin else { return false }
        let sizeChanged = layout != self.layout
        self.layout = layout
        origin = geometryOrigin
        for i in parts.indices {
            // Whole points: the integers the requests take.
            let r = layout.rect(parts[i].side)
            let width = Int(r.width), height = Int(r.height)
            parts[i].subsurface.setPosition(x: Int(r.minX) + geometryOrigin.x, y: Int(r.minY) + geometryOrigin.y)
            guard sizeChanged else { continue }
            let surface = parts[i].surface!
            if let viewport = parts[i].viewport, let pixel {
                viewport.setDestination(width: width, height: height)
                surface.attach(pixel.proxy)
                surface.damageBuffer(PixelRect(x: 0, y: 0, width: 1, height: 1))
            } else {
                let buffer = try ShmBuffer(shm: shm, width: width, height: height)
                parts[i].buffer = buffer   // the previous one is destroyed; the compositor keeps its copy
                surface.attach(buffer.proxy)
                surface.damageBuffer(PixelRect(x: 0, y: 0, width: width, height: height))
            }
            surface.commit()
        }
        return true
    }
}
