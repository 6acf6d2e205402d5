import CModalKitPixman

// Compositing helpers of the renderer's derived layers (DimGradientLayer, ShadowLayer,
// CornerMaskImage): premultiplied ARGB scaled by an alpha, and runs of colours composited OVER a
// rectangle. Buffer pixels throughout.

/// `c` (premultiplied ARGB) with all four components multiplied by `alpha`/255, rounded.
@inline(__always)
func scaledARGB(_ c: UInt32, by alpha: UInt32) -> UInt32 {
    if alpha >= 255 { return c }
    func m(_ v: UInt32) -> UInt32 { (v * alpha + 127) / 255 }
    return m(c >> 24) << 24 | m((c >> 16) & 0xff) << 16 | m((c >> 8) & 0xff) << 8 | m(c & 0xff)
}

/// Composites OVER `rect` solid colours that vary along one axis only: row `y` (`rows`) or column
/// `x` gets `colors[y − origin]` (or `[x − origin]`) × `alpha`/255. Neighbouring rows (columns) of
/// one colour are drawn as one rectangle, transparent ones not at all, so a gradient of k distinct
/// 8-bit colours costs k solid fills — pixman's fastest OVER — whatever its length.
func compositeRuns(_ colors: [UInt32], origin: Int, rows: Bool, _ rect: PixelRect, alpha: UInt32,
                   source: SolidSource, dst: OpaquePointer) {
    guard !rect.isEmpty else { return }
    let end = rows ? rect.maxY : rect.maxX
    var i = rows ? rect.y : rect.x
    while i < end {
        let c = colors[i - origin]
        var e = i + 1
        while e < end && colors[e - origin] == c { e += 1 }
        let v = scaledARGB(c, by: alpha)
        if v != 0 {
            source.set(v)
            if rows {
                pixman_image_composite32(PIXMAN_OP_OVER, source.image, nil, dst, 0, 0, 0, 0,
                                         Int32(rect.x), Int32(i), Int32(rect.width), Int32(e - i))
            } else {
                pixman_image_composite32(PIXMAN_OP_OVER, source.image, nil, dst, 0, 0, 0, 0,
                                         Int32(i), Int32(rect.y), Int32(e - i), Int32(rect.height))
            }
        }
        i = e
    }
}
