import CModalKitPixman

/// Draws the presented view's own buffer for a backend that hands the layers to the compositor
/// (``PresentationHost/drawPresentedLayer(_:into:)``): the cache as it is when the frame shows it
/// unscaled and opaque (drawn once per size, scale and content), or — where the compositor cannot
/// apply a view's alpha or its scale exactly — the cache scaled and at the frame's alpha, drawn by
/// pixman as the full renderer would draw it (bilinear, the same mask). Allocates nothing after
/// its first scaled draw of a cache.
final class LayerPainter {
    private let alphaMask = SolidSource()
    private let runs = SolidSource()
    private let shadow = ShadowLayer()
    private var targets: [(key: PixelBufferKey, image: OpaquePointer)] = []
    private var scaled: (source: OpaquePointer, version: Int, image: OpaquePointer)?

    private struct PixelBufferKey: Equatable {
        var data: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int
    }

    init() { targets.reserveCapacity(8) }

    deinit {
        for t in targets { pixman_image_unref(t.image) }
        if let s = scaled { pixman_image_unref(s.image) }
    }

    private func image(for b: PixelBuffer) -> OpaquePointer? {
        let key = PixelBufferKey(data: b.data, width: b.width, height: b.height, stride: b.stride)
        if let i = targets.firstIndex(where: { $0.key == key }) { return targets[i].image }
        guard let img = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(b.width), Int32(b.height),
                                                 b.data.assumingMemoryBound(to: UInt32.self), Int32(b.stride))
        else { return nil }
        if targets.count >= 8 {
            pixman_image_unref(targets[0].image)
            targets.removeFirst()
        }
        targets.append((key, img))
        return img
    }

    /// Fills `target` (any size ≥ the presented view's plus the offset) with the presented view at (`ox`,
    /// `oy`): `frame.presentedRect`'s size, its alpha and scale applied, over its drop shadow (the shadow
    /// placed relative to the view as in the frame, × the view's alpha, as ``ShadowLayer`` draws
    /// it for the full renderer); every other pixel transparent.
    func draw(_ f: LayerFrame, cache: OpaquePointer, into target: PixelBuffer, presentedX ox: Int = 0, presentedY oy: Int = 0) {
        guard let dst = image(for: target) else { return }
        let w = min(f.presentedRect.width, target.width - ox), h = min(f.presentedRect.height, target.height - oy)
        if f.hasShadow || ox != 0 || oy != 0 {
            var clear = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0)
            var box = pixman_box32_t(x1: 0, y1: 0, x2: Int32(target.width), y2: Int32(target.height))
            _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, dst, &clear, 1, &box)
            if f.hasShadow {
                var g = f
                g.presentedRect.x = ox
                g.presentedRect.y = oy
                shadow.update(g)
                shadow.draw(PixelRect(x: 0, y: 0, width: target.width, height: target.height), frame: g, runs: runs,
                            alphaMask: alphaMask, dst: dst)
            }
            guard w > 0, h > 0 else { return }
            // The view OVER its shadow (OVER a transparent pixel is SRC).
            composite(f, cache: cache, op: PIXMAN_OP_OVER, dst: dst, x: ox, y: oy, width: w, height: h)
            return
        }
        // Transparent outside the presented view (the padding up to whole points).
        var boxes = (pixman_box32_t(x1: Int32(w), y1: 0, x2: Int32(target.width), y2: Int32(target.height)),
                     pixman_box32_t(x1: 0, y1: Int32(h), x2: Int32(w), y2: Int32(target.height)))
        withUnsafePointer(to: &boxes) {
            $0.withMemoryRebound(to: pixman_box32_t.self, capacity: 2) { p in
                var clear = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0)
                _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, dst, &clear, 2, p)
            }
        }
        guard w > 0, h > 0 else { return }
        composite(f, cache: cache, op: PIXMAN_OP_SRC, dst: dst, x: 0, y: 0, width: w, height: h)
    }

    /// The presented view (scaled and at its alpha as the frame says) composited with `op` at (`x`, `y`).
    private func composite(_ f: LayerFrame, cache: OpaquePointer, op: pixman_op_t, dst: OpaquePointer,
                           x: Int, y: Int, width w: Int, height h: Int) {
        if f.presentedIsUnscaled && f.presentedAlpha == 255 {
            pixman_image_composite32(op, cache, nil, dst, 0, 0, 0, 0, Int32(x), Int32(y), Int32(w), Int32(h))
            return
        }
        var src = cache
        if !f.presentedIsUnscaled {
            if scaled?.source != cache || scaled?.version != f.presentedVersion {
                if let old = scaled { pixman_image_unref(old.image) }
                scaled = nil
                guard let img = pixman_image_create_bits(PIXMAN_a8r8g8b8, pixman_image_get_width(cache),
                                                         pixman_image_get_height(cache), pixman_image_get_data(cache),
                                                         pixman_image_get_stride(cache)) else { return }
                pixman_image_set_filter(img, PIXMAN_FILTER_BILINEAR, nil, 0)
                scaled = (cache, f.presentedVersion, img)
            }
            guard let img = scaled?.image else { return }
            var t = pixman_transform_t()
            pixman_transform_init_scale(&t, pixman_fixed_t(Double(f.presentedSourceWidth) / Double(f.presentedRect.width) * 65536),
                                        pixman_fixed_t(Double(f.presentedSourceHeight) / Double(f.presentedRect.height) * 65536))
            pixman_image_set_transform(img, &t)
            src = img
        }
        if f.presentedAlpha != 255 { alphaMask.set(f.presentedAlpha << 24) }
        // SRC with the mask: the presented view × alpha over transparent, as OVER onto a clear buffer would give.
        pixman_image_composite32(op, src, f.presentedAlpha == 255 ? nil : alphaMask.image, dst, 0, 0, 0, 0,
                                 Int32(x), Int32(y), Int32(w), Int32(h))
    }
}
