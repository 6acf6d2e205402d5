import CModalKitPixman
import Glibc
import ModalKitText
import ModalKitWaylandClient

/// The client-side title bar of a `Window`: a synchronized `wl_subsurface` at (0, −height) above
/// the content surface, drawn with pixman (text with fcft through ModalKitText) into its own `wl_shm` buffers.
///
/// Drawn only when something it shows changed (size, scale, focus, hover, title): there is no
/// per-frame work. A redraw is committed on the subsurface just before the parent's commit
/// (wl_subsurface sync mode caches it until then), so the bar and the content change in the same
/// frame — foot's practice. Owns its surface, subsurface, viewport and buffers; `deinit` destroys
/// the viewport, the subsurface, then the surface (the bar disappears with the parent's next commit).
///
/// Scale: the window's. On the integer path the buffer is points × scale with
/// `set_buffer_scale(scale)`; on the fractional path (fractional-scale-v1, `SurfaceScale`) the bar
/// has a `wp_viewport` of its own: its buffer is ``TitleBarLayout/bufferWidth`` ×
/// ``TitleBarLayout/bufferHeight`` pixels (the toplevel's rounding, half away from zero), its
/// destination the bar's size in points, and its buffer scale stays 1.
final class TitleBar {
    /// Neutral colours (premultiplied opaque ARGB), close to GNOME's dark header bar, so the bar
    /// stands out from light content: focused (xdg_toplevel `activated`) and unfocused (backdrop).
    enum Colors {
        static let activeBackground: UInt32 = 0xFF30_3030
        static let inactiveBackground: UInt32 = 0xFF24_2424
        static let activeText: UInt32 = 0xFFFF_FFFF
        static let inactiveText: UInt32 = 0xFF91_9191
        /// The circle behind × while the pointer is over it.
        static let closeHover: UInt32 = 0xFF4A_4A4A
        /// One buffer-pixel line at the bottom edge, separating bar and content.
        static let separator: UInt32 = 0xFF1A_1A1A
    }

    /// Implicitly unwrapped only so that `deinit` can destroy them in protocol order.
    private(set) var surface: Surface!
    private var subsurface: Subsurface!
    /// The bar's viewport on the fractional path (nil on the integer path).
    private var viewport: Viewport?
    /// The destination last sent to ``viewport`` (points).
    private var sentDestination: (width: Int, height: Int)?
    private let pool: BufferPool
    private(set) var pointerState: TitleBarPointerState
    private(set) var activated = false
    private var title: String
    private var font: PixmanFont?
    private var committedScale = 1
    private(set) var needsRedraw = true
    /// The buffer ``reserveBuffer()`` acquired for the next redraw (of the layout's size).
    private var reserved: BufferPool.Acquired?

    /// - Parameter viewporter: given on the fractional path only: the bar gets a viewport.
    init(compositor: Compositor, subcompositor: Subcompositor, parent: Surface, shm: Shm,
         layout: TitleBarLayout, title: String, viewporter: Viewporter? = nil) {
        surface = compositor.createSurface()
        subsurface = subcompositor.subsurface(surface, parent: parent)
        viewport = viewporter?.viewport(for: surface)
        pool = BufferPool(shm: shm, capacity: 3)
        pointerState = TitleBarPointerState(layout: layout)
        self.title = title
        let position = layout.position
        subsurface.setPosition(x: position.x, y: position.y)   // applied at the parent's commit
    }

    deinit {
        viewport = nil     // wp_viewport before its surface
        subsurface = nil   // wl_subsurface first: the surface is unmapped at once and loses its role
        surface = nil
        pool.removeAll()
    }

    var layout: TitleBarLayout { pointerState.layout }

    /// Updates what the bar shows; marks it for redraw only on a visible change.
    func update(layout: TitleBarLayout, activated: Bool) {
        if layout != pointerState.layout {
            if reserved != nil, layout.bufferWidth != self.layout.bufferWidth || layout.bufferHeight != self.layout.bufferHeight {
                pool.finishDrawing(id: reserved!.id, attached: false)   // of the old size: give it back
                reserved = nil
            }
            pointerState.layout = layout
            needsRedraw = true
        }
        if activated != self.activated {
            self.activated = activated
            needsRedraw = true
        }
    }

    /// Pointer input on the bar (bar-surface points). Returns the action to carry out, if any.
    func pointer(_ event: PointerEvent.Kind, serial: UInt32, time: UInt32) -> TitleBarAction? {
        let hoveredBefore = pointerState.hovered
        var action: TitleBarAction?
        switch event {
        case let .enter(x, y): pointerState.enter(x: x, y: y)
        case let .motion(x, y): pointerState.motion(x: x, y: y)
        case .leave: pointerState.leave()
        case let .button(code, pressed):
            action = pointerState.button(code, pressed: pressed, serial: serial, time: time)
        case .scroll: break   // nothing on the bar scrolls
        }
        if pointerState.hovered != hoveredBefore { needsRedraw = true }
        return action
    }

    /// Makes sure a redraw that is due can happen in this frame: acquires the buffer it will draw
    /// into. Call before drawing the content that goes with it.
    /// - Returns: false when the bar needs a redraw and every buffer is held by the compositor; the
    ///   frame must then wait (a release wakes the loop), so that the bar and the content never
    ///   show at different sizes or scales.
    func reserveBuffer() throws -> Bool {
        guard needsRedraw else { return true }
        if reserved != nil { return true }
        pool.setSize(width: layout.bufferWidth, height: layout.bufferHeight)
        reserved = try pool.acquire()
        return reserved != nil
    }

    /// A pointer press on another surface of the window: ends the bar's double-click sequence.
    func pointerPressedElsewhere() {
        pointerState.pressedElsewhere()
    }

    /// Draws and commits the bar if it needs it. Call right before the parent surface's commit.
    /// - Returns: true when the subsurface was committed (the parent must commit for it to show).
    func renderIfNeeded() throws -> Bool {
        guard needsRedraw else { return false }
        let layout = self.layout
        // Every buffer held: stay dirty; a release wakes the loop and the next iteration retries.
        guard try reserveBuffer(), let acquired = reserved else { return false }
        reserved = nil
        needsRedraw = false
        Self.paint(acquired.buffer.data, stride: acquired.buffer.stride, layout: layout, title: title,
                   activated: activated, closeHovered: pointerState.hovered == .close, font: &font)
        if let viewport {
            // Fractional path: the buffer keeps scale 1 and is mapped onto the bar's points.
            let destination = (width: layout.width, height: TitleBarLayout.height)
            if sentDestination.map({ $0 != destination }) ?? true {
                viewport.setDestination(width: destination.width, height: destination.height)
                sentDestination = destination
            }
        } else {
            let scale = Int(layout.scale.rounded())
            if scale != committedScale {
                surface.setBufferScale(scale)
                committedScale = scale
            }
        }
        surface.attach(acquired.buffer.proxy)
        surface.damageBuffer(PixelRect(x: 0, y: 0, width: layout.bufferWidth, height: layout.bufferHeight))
        surface.commit()
        pool.finishDrawing(id: acquired.id, attached: true)
        return true
    }

    // MARK: Drawing

    /// Draws a bar of `layout` into `data` (``TitleBarLayout/bufferWidth`` × ``TitleBarLayout/bufferHeight``
    /// premultiplied ARGB8888 pixels, `stride` bytes a row): the background, the separator, the
    /// close button (highlighted when `closeHovered`) and the title, 14 pt, centred like GNOME's
    /// titles, moved left when it would reach the close button, and when it does not fit between
    /// the margins cut at a grapheme cluster and ended with "…" (UIKit's and Pango's tail
    /// truncation; ModalKitText's `PixmanFont.truncated(_:toWidth:ellipsis:)`). `font` is the
    /// bar's font, made or remade here at the layout's pixel size.
    static func paint(_ data: UnsafeMutableRawPointer, stride: Int, layout: TitleBarLayout, title: String,
                      activated: Bool, closeHovered: Bool, font: inout PixmanFont?) {
        let width = layout.bufferWidth, height = layout.bufferHeight, scale = layout.scale
        guard let image = pixman_image_create_bits_no_clear(
            PIXMAN_a8r8g8b8, Int32(width), Int32(height),
            data.assumingMemoryBound(to: UInt32.self), Int32(stride)) else { return }
        defer { pixman_image_unref(image) }
        let textColor = activated ? Colors.activeText : Colors.inactiveText
        fill(image, PixelRect(x: 0, y: 0, width: width, height: height),
             activated ? Colors.activeBackground : Colors.inactiveBackground)
        fill(image, PixelRect(x: 0, y: height - 1, width: width, height: 1), Colors.separator)

        var textRight = width
        if let close = layout.closeButtonPixels {
            textRight = close.x
            let cx = Double(close.x) + Double(close.width) / 2, cy = Double(close.y) + Double(close.height) / 2
            if closeHovered {
                fillCircle(image, cx: cx, cy: cy, radius: 11 * scale, Colors.closeHover)
            }
            // × : two strokes 10 pt across, 1.5 pt wide.
            let half = 5 * scale, stroke = 1.5 * scale
            fillStroke(image, from: (cx - half, cy - half), to: (cx + half, cy + half), width: stroke, textColor)
            fillStroke(image, from: (cx - half, cy + half), to: (cx + half, cy - half), width: stroke, textColor)
        }

        // 14 pt text: the pixel size rounded to whole pixels (fcft sizes are whole pixels).
        let fontSize = Int((14 * scale).rounded())
        // fontconfig's default sans, unkerned; no font means a bar without its title, still usable.
        if font?.pixelSize != fontSize { font = try? PixmanFont(pattern: "sans-serif", pixelSize: fontSize, kerning: false) }
        if let font, !title.isEmpty {
            // Centred on the bar like GNOME's titles, moved left when it would reach the close
            // button; one that does not fit ends in "…" (the clip only guards the margins).
            let margin = Int((8 * scale).rounded())
            let title = font.truncated(title, toWidth: max(0, textRight - 2 * margin))
            let textWidth = font.width(of: title)
            var x = (width - textWidth) / 2
            if x + textWidth > textRight - margin { x = max(margin, textRight - margin - textWidth) }
            let baseline = (height + font.ascent - font.descent) / 2
            var clip = pixman_region32_t()
            pixman_region32_init_rect(&clip, Int32(margin), 0, UInt32(max(0, textRight - 2 * margin)), UInt32(height))
            pixman_image_set_clip_region32(image, &clip)
            font.draw(title, into: image, x: x, baseline: baseline, color: Color(argb32: textColor))
            pixman_image_set_clip_region32(image, nil)
            pixman_region32_fini(&clip)
        }
    }

    private static func fill(_ image: OpaquePointer, _ rect: PixelRect, _ argb: UInt32) {
        var color = pixmanColor(argb)
        var box = pixman_rectangle16_t(x: Int16(clamping: rect.x), y: Int16(clamping: rect.y),
                                       width: UInt16(clamping: rect.width), height: UInt16(clamping: rect.height))
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &color, 1, &box)
    }

    private static func fillTriangles(_ image: OpaquePointer, _ triangles: [pixman_triangle_t], _ argb: UInt32) {
        var color = pixmanColor(argb)
        guard let solid = pixman_image_create_solid_fill(&color) else { return }
        defer { pixman_image_unref(solid) }
        triangles.withUnsafeBufferPointer { tris in
            pixman_composite_triangles(PIXMAN_OP_OVER, solid, image, PIXMAN_a8, 0, 0, 0, 0,
                                       Int32(tris.count), tris.baseAddress)
        }
    }

    private static func fillStroke(_ image: OpaquePointer, from a: (Double, Double), to b: (Double, Double),
                            width: Double, _ argb: UInt32) {
        let dx = b.0 - a.0, dy = b.1 - a.1
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return }
        let nx = -dy / length * width / 2, ny = dx / length * width / 2
        let p1 = point(a.0 + nx, a.1 + ny), p2 = point(b.0 + nx, b.1 + ny)
        let p3 = point(b.0 - nx, b.1 - ny), p4 = point(a.0 - nx, a.1 - ny)
        fillTriangles(image, [pixman_triangle_t(p1: p1, p2: p2, p3: p3),
                              pixman_triangle_t(p1: p1, p2: p3, p3: p4)], argb)
    }

    private static func fillCircle(_ image: OpaquePointer, cx: Double, cy: Double, radius: Double, _ argb: UInt32) {
        let segments = 48
        let center = point(cx, cy)
        var triangles: [pixman_triangle_t] = []
        for i in 0..<segments {
            let a0 = Double(i) / Double(segments) * 2 * .pi, a1 = Double(i + 1) / Double(segments) * 2 * .pi
            triangles.append(pixman_triangle_t(p1: center,
                                               p2: point(cx + radius * cos(a0), cy + radius * sin(a0)),
                                               p3: point(cx + radius * cos(a1), cy + radius * sin(a1))))
        }
        fillTriangles(image, triangles, argb)
    }

    private static func point(_ x: Double, _ y: Double) -> pixman_point_fixed_t {
        pixman_point_fixed_t(x: pixman_fixed_t((x * 65536).rounded()), y: pixman_fixed_t((y * 65536).rounded()))
    }
}
