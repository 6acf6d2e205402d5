import CModalKitPixman
import Glibc

/// Composes a frame from the cached layers into a target buffer and tracks damage.
///
/// A frame is: presenting cache (SRC; while covered by a style that makes it recede: black, then
/// the cache scaled into `presentingRect`, bilinear, with rounded corners) → dim (one OVER of a
/// solid colour, or of a gradient: `DimGradientLayer`) → the presented view's drop shadow
/// (`ShadowLayer`, a nine-slice of one cached blurred image) → presented cache at its position
/// (SRC where it is opaque, OVER in the rounded-corner bands; scaled per axis, bilinear, when the
/// style scales it). The background is not drawn under the presented view's opaque interior. Only the damaged rectangles are repainted; with buffer
/// age n the damage of the n − 1 frames since that buffer was drawn is repainted too.
///
/// Steady state allocates nothing: the rectangle lists keep their capacity, solid colours are 1×1
/// repeating images whose pixel is rewritten, and pixman images wrapping target buffers are cached.
///
/// The caller owns the layer caches (e.g. two ``Image``s, drawn with ``Draw`` and the app's own
/// content) and describes each frame as a ``LayerFrame``; one renderer serves one window.
public final class Renderer {
    /// How many past frames' damage is kept for buffer age (Wayland clients rarely have more than 3
    /// buffers in flight).
    static let historyDepth = 4
    static let rectsPerFrame = 8

    private let dimSource = SolidSource()
    private let alphaMask = SolidSource()
    /// The presented view's background beyond its edge (``LayerFrame/presentedExtensionRect``).
    private let extensionSource = SolidSource()
    /// Solid colours of the runs of a gradient dim or a shadow edge (rewritten per run).
    private let runSource = SolidSource()
    private let blackSource = SolidSource(Renderer.uncoveredColor)
    private let gradient = DimGradientLayer()
    private let shadow = ShadowLayer()
    private let corners = CornerMaskImage()

    /// What the container shows where the covered presenting view no longer is (premultiplied
    /// ARGB): opaque black, like UIKit's window behind a receding page sheet's presenting view.
    public static let uncoveredColor: UInt32 = 0xFF00_0000
    private var targets: [(key: TargetKey, image: OpaquePointer)] = []

    /// Damage of this frame relative to the previous one (returned to the caller).
    private(set) var damage: [PixelRect] = []
    private var paint: [PixelRect] = []
    private var pieces: [PixelRect] = []
    /// Ring of past frames' damage, newest at `historyHead`.
    private var history: [[PixelRect]]
    private var historyHead = 0
    private var historyCount = 0
    private(set) var last: LayerFrame?

    /// The last recorded frame (nil before the first one and after ``reset()``).
    public var lastFrame: LayerFrame? { last }

    /// Forgets the frame history: the next recorded frame repaints and damages everything (the
    /// target buffers were drawn by someone else meanwhile).
    public func reset() {
        last = nil
        historyCount = 0
    }

    /// Statistics of the last frame, for benchmarks: buffer pixels repainted.
    public private(set) var lastPaintedPixels = 0

    /// A renderer with no history: its first recorded frame repaints and damages everything.
    public init() {
        damage.reserveCapacity(16)
        paint.reserveCapacity(64)
        pieces.reserveCapacity(8)
        history = (0..<Renderer.historyDepth).map { _ in
            var a: [PixelRect] = []
            a.reserveCapacity(Renderer.rectsPerFrame)
            return a
        }
        targets.reserveCapacity(4)
    }

    deinit {
        for t in targets { pixman_image_unref(t.image) }
        if let w = scaledWrapper { pixman_image_unref(w.image) }
        if let w = presentingWrapper { pixman_image_unref(w.image) }
    }

    /// Brings the frame's derived layers up to date (once per frame, before painting): the gradient
    /// dim's colour table and the shadow's slices. Allocates only when their shape first appears or
    /// grows (a new presented view size, blur or colour for the shadow; a larger container for the gradient).
    private func prepareLayers(_ f: LayerFrame) {
        if let g = f.dimGradient { gradient.update(g, width: f.width, height: f.height) }
        if f.hasShadow { shadow.update(f) }
        if f.presentingRect != nil {
            corners.update(radius: f.presentingCornerRadius, alpha: f.presentingAlpha, rect: f.presentingRect ?? .zero)
        }
    }

    private struct TargetKey: Equatable {
        var data: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int
    }

    /// A pixman image over the caller's buffer, cached by (address, size, stride): Wayland clients
    /// cycle through a few buffers, so after warm-up this never allocates.
    private func image(for buffer: PixelBuffer) -> OpaquePointer? {
        let key = TargetKey(data: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride)
        if let i = targets.firstIndex(where: { $0.key == key }) { return targets[i].image }
        guard let img = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(buffer.width), Int32(buffer.height),
                                                 buffer.data.assumingMemoryBound(to: UInt32.self),
                                                 Int32(buffer.stride)) else { return nil }
        if targets.count >= 4 {
            pixman_image_unref(targets[0].image)
            targets.removeFirst()
        }
        targets.append((key, img))
        return img
    }

    /// Renders `frame` into `target` (a buffer of `frame.width × frame.height` pixels, premultiplied
    /// ARGB; a larger one is drawn in its top-left part).
    /// - Parameters:
    ///   - frame: what the frame shows (``PresentationSnapshot/layerFrame(scale:)``), buffer pixels.
    ///   - presenting: the presenting view's cache (`pixman_image_t *`, `PIXMAN_a8r8g8b8`, the frame's
    ///     size), e.g. ``Image/pixmanImage``; nil draws no background.
    ///   - presented: the presented view's cache (`presentedSourceWidth × presentedSourceHeight`, corners
    ///     already clipped, premultiplied); nil draws no presented view (what lies under its
    ///     rectangle is drawn instead).
    ///   - presentingDamage: region of the presenting cache that changed since the last frame (besides
    ///     what a version bump of the whole cache implies); `.zero` if none.
    ///   - bufferAge: 0 = contents undefined, n = target holds the frame recorded n frames ago.
    ///   - target: the buffer drawn into (premultiplied ARGB8888).
    ///   - record: false for offscreen snapshots: the damage history and `last` stay untouched.
    /// - Returns: the frame's damage relative to the previous recorded frame, buffer pixels (whole
    ///   window when unrecorded). The array is reused by the next call: do not keep it.
    @discardableResult
    public func render(_ frame: LayerFrame, presenting: OpaquePointer?, presented: OpaquePointer?, presentingDamage: PixelRect,
                into target: PixelBuffer, bufferAge: Int, record: Bool) -> [PixelRect] {
        render(frame, presentingSource: .image(presenting), presented: presented, presentingDamage: presentingDamage,
               into: target, bufferAge: bufferAge, record: record)
    }

    /// Where a frame's presenting view comes from.
    enum PresentingSource {
        /// Its cache (nil: no background), copied where the frame is painted.
        case image(OpaquePointer?)
        /// Its content, drawn whole straight into the target (an image of the frame's size over the
        /// target's pixels) before anything else is painted, when anything is — or always with
        /// `force` (the content waits to be drawn: its invalidation is reset only by drawing).
        /// Only for a frame that shows the presenting view alone, unscaled
        /// (``LayerFrame/showsPresentingViewAlone``), into a target at least the frame's size: the
        /// content replaces every pixel, so the pixels outside what is painted come out as they were.
        case direct(any PresentationContent, size: Size, scale: Double, force: Bool)
    }

    /// ``render(_:presenting:presented:presentingDamage:into:bufferAge:record:)`` with the presenting
    /// view from `presentingSource`.
    @discardableResult
    func render(_ frame: LayerFrame, presentingSource: PresentingSource, presented: OpaquePointer?,
                presentingDamage: PixelRect, into target: PixelBuffer, bufferAge: Int, record: Bool) -> [PixelRect] {
        damage.removeAll(keepingCapacity: true)
        let full = frame.bounds.intersection(target.bounds)
        if !record {
            damage.append(full)
        } else if let prev = last, prev.width == frame.width, prev.height == frame.height {
            computeDamage(from: prev, to: frame, presentingDamage: presentingDamage)
        } else {
            damage.append(full)
        }

        // What to repaint: this frame's damage, plus what changed since the target was last drawn.
        paint.removeAll(keepingCapacity: true)
        let ageKnown = record && bufferAge >= 1 && bufferAge - 1 <= historyCount
            && last.map({ $0.width == frame.width && $0.height == frame.height }) == true
        if ageKnown {
            paint.append(contentsOf: damage)
            for i in 0..<(bufferAge - 1) {
                paint.append(contentsOf: history[(historyHead - i + Renderer.historyDepth) % Renderer.historyDepth])
            }
        } else {
            paint.append(full)
        }
        simplify(&paint, bounds: full)

        if let dst = image(for: target) {
            prepareLayers(frame)
            var painted = 0
            switch presentingSource {
            case let .image(presenting):
                for r in paint {
                    let c = r.intersection(full)
                    if c.isEmpty { continue }
                    draw(c, frame: frame, presenting: presenting, presented: presented, dst: dst)
                    painted += c.area
                }
            case let .direct(content, size, scale, force):
                // Nothing but the presenting view is shown: drawing it is the whole frame.
                if force || paint.contains(where: { !$0.intersection(full).isEmpty }) {
                    drawDirectly(content, size: size, scale: scale, frame: frame, target: target, dst: dst)
                    painted = full.area
                }
            }
            lastPaintedPixels = painted
        }

        if record {
            historyHead = (historyHead + 1) % Renderer.historyDepth
            history[historyHead].removeAll(keepingCapacity: true)
            if damage.count <= Renderer.rectsPerFrame {
                history[historyHead].append(contentsOf: damage)
            } else {
                history[historyHead].append(damage.reduce(PixelRect.zero) { $0.union($1) })
            }
            historyCount = min(historyCount + 1, Renderer.historyDepth)
            last = frame
        }
        return damage
    }

    /// Draws `content` whole into `target` as an image of the frame's size (`dst` when the target
    /// is that size).
    private func drawDirectly(_ content: any PresentationContent, size: Size, scale: Double, frame: LayerFrame,
                              target: PixelBuffer, dst: OpaquePointer) {
        if target.width == frame.width && target.height == frame.height {
            content.draw(into: dst, size: size, scale: scale)
            return
        }
        guard frame.width <= target.width, frame.height <= target.height,
              let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(frame.width), Int32(frame.height),
                                                   target.data.assumingMemoryBound(to: UInt32.self),
                                                   Int32(target.stride)) else { return }
        content.draw(into: image, size: size, scale: scale)
        pixman_image_unref(image)
    }

    private func computeDamage(from prev: LayerFrame, to frame: LayerFrame, presentingDamage: PixelRect) {
        let bounds = frame.bounds
        if prev.dim != frame.dim || prev.dimGradient != frame.dimGradient
            || prev.presentingVersion != frame.presentingVersion || prev.presentingRect != frame.presentingRect
            || prev.presentingCornerRadius != frame.presentingCornerRadius
            || prev.presentingAlpha != frame.presentingAlpha
            || (frame.presentingRect != nil && !presentingDamage.isEmpty) {
            // The dim changed (alpha or gradient), or the whole background did (its pixels, or where
            // and how the covered presenting view is drawn).
            damage.append(bounds)
            return
        }
        if !presentingDamage.isEmpty { damage.append(presentingDamage.intersection(bounds)) }
        if prev.presentedRect != frame.presentedRect || prev.presentedVersion != frame.presentedVersion || prev.presentedAlpha != frame.presentedAlpha
            || prev.presentedTopBand != frame.presentedTopBand || prev.presentedBottomBand != frame.presentedBottomBand
            || prev.presentedCornerRadius != frame.presentedCornerRadius || prev.presentedCorners != frame.presentedCorners
            || prev.presentedIsOpaque != frame.presentedIsOpaque
            || prev.presentedExtensionRect != frame.presentedExtensionRect
            || prev.presentedExtensionColor != frame.presentedExtensionColor
            || prev.shadowColor != frame.shadowColor || prev.shadowOffsetX != frame.shadowOffsetX
            || prev.shadowOffsetY != frame.shadowOffsetY || prev.shadowBlur != frame.shadowBlur {
            // The presented view's rectangle and its shadow's, before and after.
            let a = prev.presentedExtent.intersection(bounds), b = frame.presentedExtent.intersection(bounds)
            // Overlapping old and new rectangles (a slide): one rectangle covering both.
            if !a.isEmpty && !b.isEmpty && !a.intersection(b).isEmpty {
                damage.append(a.union(b))
            } else {
                if !a.isEmpty { damage.append(a) }
                if !b.isEmpty { damage.append(b) }
            }
        }
        damage.removeAll(where: { $0.isEmpty })
    }

    /// Merges a rectangle list into its bounding box when that costs little extra painting (overlaps
    /// would otherwise be painted twice), and collapses long lists.
    private func simplify(_ list: inout [PixelRect], bounds: PixelRect) {
        list.removeAll(where: { $0.intersection(bounds).isEmpty })
        guard list.count > 1 else { return }
        var box = PixelRect.zero
        var sum = 0
        for r in list {
            let c = r.intersection(bounds)
            box = box.union(c)
            sum += c.area
        }
        if list.count > 16 || box.area <= sum + sum / 4 {
            list.removeAll(keepingCapacity: true)
            list.append(box)
        }
    }

    /// The part of the presented view that is fully opaque and drawn with SRC (nothing under it is drawn):
    /// the rows between the rounded-corner bands, when the presented view is at full opacity.
    private func opaqueInterior(_ f: LayerFrame) -> PixelRect {
        guard f.hasPresentedView, f.presentedAlpha == 255, f.presentedIsUnscaled, f.presentedIsOpaque else { return .zero }
        let h = f.presentedRect.height - f.presentedTopBand - f.presentedBottomBand
        guard h > 0 else { return .zero }
        return PixelRect(x: f.presentedRect.x, y: f.presentedRect.y + f.presentedTopBand, width: f.presentedRect.width, height: h)
    }

    /// `r − o` as up to four rectangles into `pieces`.
    private func subtract(_ r: PixelRect, _ o: PixelRect) {
        pieces.removeAll(keepingCapacity: true)
        let i = r.intersection(o)
        if i.isEmpty { pieces.append(r); return }
        if i.y > r.y { pieces.append(PixelRect(x: r.x, y: r.y, width: r.width, height: i.y - r.y)) }
        if i.maxY < r.maxY { pieces.append(PixelRect(x: r.x, y: i.maxY, width: r.width, height: r.maxY - i.maxY)) }
        if i.x > r.x { pieces.append(PixelRect(x: r.x, y: i.y, width: i.x - r.x, height: i.height)) }
        if i.maxX < r.maxX { pieces.append(PixelRect(x: i.maxX, y: i.y, width: r.maxX - i.maxX, height: i.height)) }
    }

    /// Repaints `r` (inside the window) completely from the caches.
    private func draw(_ r: PixelRect, frame f: LayerFrame, presenting: OpaquePointer?, presented: OpaquePointer?,
                      dst: OpaquePointer) {
        // Without a presented cache (none could be allocated) the presented view is left out: what lies under
        // its interior is painted, as under the rest of the frame.
        let interior = presented == nil ? .zero : opaqueInterior(f)
        subtract(r, interior)
        if f.dim != 0 { dimSource.set(f.dim) }
        for p in pieces {
            if f.presentingRect != nil {
                drawCoveredPresenting(p, frame: f, presenting: presenting, dst: dst)
            } else if let src = presenting {
                pixman_image_composite32(PIXMAN_OP_SRC, src, nil, dst, Int32(p.x), Int32(p.y), 0, 0,
                                         Int32(p.x), Int32(p.y), Int32(p.width), Int32(p.height))
            }
            if f.dim != 0 {
                pixman_image_composite32(PIXMAN_OP_OVER, dimSource.image, nil, dst, 0, 0, 0, 0,
                                         Int32(p.x), Int32(p.y), Int32(p.width), Int32(p.height))
            } else if f.dimGradient != nil {
                gradient.draw(p, runs: runSource, dst: dst)
            }
            if f.hasShadow && presented != nil { shadow.draw(p, frame: f, runs: runSource, alphaMask: alphaMask, dst: dst) }
            if presented != nil && f.hasPresentedView && f.presentedExtensionColor != 0 {
                let e = p.intersection(f.presentedExtensionRect)
                if !e.isEmpty {
                    extensionSource.set(f.presentedExtensionColor)
                    pixman_image_composite32(f.presentedExtensionColor >> 24 == 255 ? PIXMAN_OP_SRC : PIXMAN_OP_OVER,
                                             extensionSource.image, nil, dst, 0, 0, 0, 0,
                                             Int32(e.x), Int32(e.y), Int32(e.width), Int32(e.height))
                }
            }
        }
        guard f.hasPresentedView, let presentedCache = presented else { return }
        let c = r.intersection(f.presentedRect)
        if c.isEmpty { return }
        if !f.presentedIsUnscaled {
            drawScaled(presentedCache, c, frame: f, dst: dst)
        } else if f.presentedAlpha == 255 {
            let mid = c.intersection(interior)
            if !mid.isEmpty { composite(PIXMAN_OP_SRC, presentedCache, mask: nil, mid, frame: f, dst: dst) }
            subtract(c, interior)
            for p in pieces { composite(PIXMAN_OP_OVER, presentedCache, mask: nil, p, frame: f, dst: dst) }
        } else {
            alphaMask.set(f.presentedAlpha << 24)
            composite(PIXMAN_OP_OVER, presentedCache, mask: alphaMask.image, c, frame: f, dst: dst)
        }
    }

    /// A second pixman image over the presented cache's pixels that carries the scale transform, so
    /// the cache itself never has a transform set and toggling costs no allocation.
    private var scaledWrapper: (source: OpaquePointer, version: Int, image: OpaquePointer)?

    private func drawScaled(_ presentedCache: OpaquePointer, _ c: PixelRect, frame f: LayerFrame, dst: OpaquePointer) {
        if scaledWrapper?.source != presentedCache || scaledWrapper?.version != f.presentedVersion {
            if let old = scaledWrapper { pixman_image_unref(old.image) }
            scaledWrapper = nil
            guard let img = pixman_image_create_bits(PIXMAN_a8r8g8b8, pixman_image_get_width(presentedCache),
                                                     pixman_image_get_height(presentedCache), pixman_image_get_data(presentedCache),
                                                     pixman_image_get_stride(presentedCache)) else { return }
            pixman_image_set_filter(img, PIXMAN_FILTER_BILINEAR, nil, 0)
            scaledWrapper = (presentedCache, f.presentedVersion, img)
        }
        guard let img = scaledWrapper?.image, f.presentedRect.width > 0, f.presentedRect.height > 0 else { return }
        // pixman maps destination pixels to source pixels: scale by source size / shown size.
        let sx = Double(f.presentedSourceWidth) / Double(f.presentedRect.width)
        let sy = Double(f.presentedSourceHeight) / Double(f.presentedRect.height)
        var t = pixman_transform_t()
        pixman_transform_init_scale(&t, pixman_fixed_t(sx * 65536), pixman_fixed_t(sy * 65536))
        pixman_image_set_transform(img, &t)
        if f.presentedAlpha != 255 { alphaMask.set(f.presentedAlpha << 24) }
        pixman_image_composite32(PIXMAN_OP_OVER, img, f.presentedAlpha == 255 ? nil : alphaMask.image, dst,
                                 Int32(c.x - f.presentedRect.x), Int32(c.y - f.presentedRect.y), 0, 0,
                                 Int32(c.x), Int32(c.y), Int32(c.width), Int32(c.height))
    }

    /// A pixman image over the presenting cache's pixels that carries the recede's scale transform
    /// (keyed by the pixels' address and shape, so redrawing the cache in place keeps it).
    private var presentingWrapper: (data: UnsafeMutableRawPointer, width: Int32, height: Int32, stride: Int32,
                                    image: OpaquePointer)?

    private func fillBlack(_ q: PixelRect, dst: OpaquePointer) {
        guard !q.isEmpty else { return }
        pixman_image_composite32(PIXMAN_OP_SRC, blackSource.image, nil, dst, 0, 0, 0, 0,
                                 Int32(q.x), Int32(q.y), Int32(q.width), Int32(q.height))
    }

    /// Paints piece `p` of the background while the presenting view is covered: black outside
    /// `presentingRect`; inside it the presenting cache scaled to the rectangle (bilinear) — with
    /// SRC, as the uncovered presenting view is drawn, when opaque; over black where its corners are
    /// rounded or its alpha is below 1.
    private func drawCoveredPresenting(_ p: PixelRect, frame f: LayerFrame, presenting: OpaquePointer?,
                                       dst: OpaquePointer) {
        guard let src = presenting, let rect = f.presentingRect, !rect.isEmpty,
              !p.intersection(rect).isEmpty else {
            fillBlack(p, dst: dst)
            return
        }
        // p − rect: the rows above and below it, then the columns left and right of it.
        let i = p.intersection(rect)
        fillBlack(PixelRect(x: p.x, y: p.y, width: p.width, height: i.y - p.y), dst: dst)
        fillBlack(PixelRect(x: p.x, y: i.maxY, width: p.width, height: p.maxY - i.maxY), dst: dst)
        fillBlack(PixelRect(x: p.x, y: i.y, width: i.x - p.x, height: i.height), dst: dst)
        fillBlack(PixelRect(x: i.maxX, y: i.y, width: p.maxX - i.maxX, height: i.height), dst: dst)
        let sw = pixman_image_get_width(src), sh = pixman_image_get_height(src)
        var image = src
        if Int(sw) != rect.width || Int(sh) != rect.height {
            guard let data = pixman_image_get_data(src) else { return }
            let raw = UnsafeMutableRawPointer(data), stride = pixman_image_get_stride(src)
            if let w = presentingWrapper, w.data != raw || w.width != sw || w.height != sh || w.stride != stride {
                pixman_image_unref(w.image)
                presentingWrapper = nil
            }
            if presentingWrapper == nil {
                guard let img = pixman_image_create_bits(PIXMAN_a8r8g8b8, sw, sh, data, stride) else { return }
                pixman_image_set_filter(img, PIXMAN_FILTER_BILINEAR, nil, 0)
                presentingWrapper = (raw, sw, sh, stride, img)
            }
            guard let img = presentingWrapper?.image else { return }
            var t = pixman_transform_t()
            pixman_transform_init_scale(&t, pixman_fixed_t(Double(sw) / Double(rect.width) * 65536),
                                        pixman_fixed_t(Double(sh) / Double(rect.height) * 65536))
            pixman_image_set_transform(img, &t)
            image = img
        }
        if f.presentingAlpha != 255 { alphaMask.set(f.presentingAlpha << 24) }
        let plainMask = f.presentingAlpha == 255 ? nil : alphaMask.image
        // Three stripes: the top and bottom corner bands (corner squares masked), the rows between.
        let n = corners.band
        let x0 = rect.x, x1 = rect.maxX, y0 = rect.y, y1 = rect.maxY
        func part(_ q: PixelRect, mask: OpaquePointer?, maskOrigin: (x: Int, y: Int, mx: Int, my: Int)?) {
            let c = q.intersection(p)
            guard !c.isEmpty else { return }
            let mx = maskOrigin.map { $0.mx + c.x - $0.x } ?? 0, my = maskOrigin.map { $0.my + c.y - $0.y } ?? 0
            if mask != nil { fillBlack(c, dst: dst) }
            pixman_image_composite32(mask == nil ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, image, mask, dst,
                                     Int32(c.x - x0), Int32(c.y - y0), Int32(mx), Int32(my),
                                     Int32(c.x), Int32(c.y), Int32(c.width), Int32(c.height))
        }
        if n == 0 {
            part(rect, mask: plainMask, maskOrigin: nil)
            return
        }
        let cm = corners.image
        part(PixelRect(x: x0, y: y0 + n, width: rect.width, height: rect.height - 2 * n), mask: plainMask, maskOrigin: nil)
        part(PixelRect(x: x0 + n, y: y0, width: rect.width - 2 * n, height: n), mask: plainMask, maskOrigin: nil)
        part(PixelRect(x: x0 + n, y: y1 - n, width: rect.width - 2 * n, height: n), mask: plainMask, maskOrigin: nil)
        part(PixelRect(x: x0, y: y0, width: n, height: n), mask: cm, maskOrigin: (x0, y0, 0, 0))
        part(PixelRect(x: x1 - n, y: y0, width: n, height: n), mask: cm, maskOrigin: (x1 - n, y0, n, 0))
        part(PixelRect(x: x0, y: y1 - n, width: n, height: n), mask: cm, maskOrigin: (x0, y1 - n, 0, n))
        part(PixelRect(x: x1 - n, y: y1 - n, width: n, height: n), mask: cm, maskOrigin: (x1 - n, y1 - n, n, n))
    }

    private func composite(_ op: pixman_op_t, _ presentedCache: OpaquePointer, mask: OpaquePointer?, _ p: PixelRect,
                           frame f: LayerFrame, dst: OpaquePointer) {
        pixman_image_composite32(op, presentedCache, mask, dst, Int32(p.x - f.presentedRect.x), Int32(p.y - f.presentedRect.y), 0, 0,
                                 Int32(p.x), Int32(p.y), Int32(p.width), Int32(p.height))
    }
}
