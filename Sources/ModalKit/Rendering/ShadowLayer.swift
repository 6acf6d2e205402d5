import CModalKitPixman

/// The presented view's drop shadow (``LayerFrame/shadowColor`` and friends), drawn as a
/// nine-slice of one cached image.
///
/// The image is the view's rounded rectangle — at most (2c + 1) pixels per side, c = ⌈radius⌉ +
/// blur + 1, the presented view's own size when smaller — with `blur` pixels of margin, blurred once by
/// three box blurs per axis whose radii add up to `blur` (a close approximation of a Gaussian
/// with σ ≈ blur/3 that ends exactly `blur` pixels beyond the edge), in the shadow's colour. Along
/// an edge farther than c from both corners the blurred shadow no longer changes, so the middle
/// row and column of the image are stretched: the corners are drawn from the image, the edges as
/// runs of solid colours (one per row or column), the middle as one solid. The image is made once
/// per (size, radius, corners, blur, colour) — never blurred per frame.
final class ShadowLayer {
    private struct Key: Equatable {
        var width: Int, height: Int, radius: Double, corners: CornerMask, blur: Int, color: UInt32
    }
    private var key: Key?
    private var image: Image?
    /// The image's middle column (every row) and middle row (every column).
    private var column: [UInt32] = [], row: [UInt32] = []
    private var splitX = 0, splitY = 0, imageWidth = 0, imageHeight = 0

    func update(_ f: LayerFrame) {
        let b = max(f.shadowBlur, 0)
        let c = Int(f.presentedCornerRadius.rounded(.up)) + b + 1
        let k = Key(width: min(f.presentedSourceWidth, 2 * c + 1), height: min(f.presentedSourceHeight, 2 * c + 1),
                    radius: f.presentedCornerRadius, corners: f.presentedCorners, blur: b, color: f.shadowColor)
        guard k != key, k.width > 0, k.height > 0 else { return }
        key = k
        build(k)
    }

    private func build(_ k: Key) {
        let b = k.blur, iw = k.width + 2 * b, ih = k.height + 2 * b
        guard let img = try? Image(width: iw, height: ih) else { image = nil; return }
        var a = [Float](repeating: 0, count: iw * ih)
        for y in 0..<ih {
            for x in 0..<iw {
                a[y * iw + x] = Float(roundedRectCoverage(px: x, py: y, x0: Double(b), y0: Double(b),
                                                          x1: Double(b + k.width), y1: Double(b + k.height),
                                                          radius: k.radius, corners: k.corners))
            }
        }
        let radii = [b / 3, (b + 1) / 3, (b + 2) / 3]
        var line = [Float](repeating: 0, count: max(iw, ih)), out = line
        for r in radii where r > 0 {
            for y in 0..<ih {
                for x in 0..<iw { line[x] = a[y * iw + x] }
                ShadowLayer.boxBlur(line, count: iw, radius: r, into: &out)
                for x in 0..<iw { a[y * iw + x] = out[x] }
            }
            for x in 0..<iw {
                for y in 0..<ih { line[y] = a[y * iw + x] }
                ShadowLayer.boxBlur(line, count: ih, radius: r, into: &out)
                for y in 0..<ih { a[y * iw + x] = out[y] }
            }
        }
        let stride = img.stride / 4
        let px = UnsafeMutableRawPointer(pixman_image_get_data(img.pixmanImage)!).assumingMemoryBound(to: UInt32.self)
        for y in 0..<ih {
            for x in 0..<iw {
                let v = Double(min(max(a[y * iw + x], 0), 1))
                px[y * stride + x] = scaledARGB(k.color, by: UInt32((v * 255).rounded()))
            }
        }
        image = img
        imageWidth = iw; imageHeight = ih
        splitX = b + k.width / 2
        splitY = b + k.height / 2
        column = (0..<ih).map { px[$0 * stride + splitX] }
        row = (0..<iw).map { px[splitY * stride + $0] }
    }

    /// One box blur of `count` values of `src` with `radius` (zero outside), into `out`.
    private static func boxBlur(_ src: [Float], count m: Int, radius r: Int, into out: inout [Float]) {
        let w = Float(2 * r + 1)
        var sum: Float = 0
        for k in 0..<min(r, m) { sum += src[k] }
        for i in 0..<m {
            if i + r < m { sum += src[i + r] }
            out[i] = sum / w
            if i - r >= 0 { sum -= src[i - r] }
        }
    }

    /// Composites the shadow OVER piece `p` of `dst` (where `p` meets the shadow's rectangle), × the
    /// presented view's alpha.
    func draw(_ p: PixelRect, frame f: LayerFrame, runs: SolidSource, alphaMask: SolidSource, dst: OpaquePointer) {
        let s = f.shadowRect
        guard let img = image?.pixmanImage, !p.intersection(s).isEmpty else { return }
        let iw = imageWidth, ih = imageHeight
        let left = min(splitX, s.width / 2), right = min(iw - splitX - 1, s.width - left)
        let mid = s.width - left - right
        let top = min(splitY, s.height / 2), bottom = min(ih - splitY - 1, s.height - top)
        let midV = s.height - top - bottom
        let alpha = f.presentedAlpha
        if alpha != 255 { alphaMask.set(alpha << 24) }
        let xm = s.x + left, xr = s.x + left + mid, ym = s.y + top, yb = s.y + top + midV

        func corner(_ x: Int, _ y: Int, _ w: Int, _ h: Int, srcX: Int, srcY: Int) {
            let c = PixelRect(x: x, y: y, width: w, height: h).intersection(p)
            guard !c.isEmpty else { return }
            pixman_image_composite32(PIXMAN_OP_OVER, img, alpha == 255 ? nil : alphaMask.image, dst,
                                     Int32(srcX + c.x - x), Int32(srcY + c.y - y), 0, 0,
                                     Int32(c.x), Int32(c.y), Int32(c.width), Int32(c.height))
        }
        corner(s.x, s.y, left, top, srcX: 0, srcY: 0)
        corner(xr, s.y, right, top, srcX: iw - right, srcY: 0)
        corner(s.x, yb, left, bottom, srcX: 0, srcY: ih - bottom)
        corner(xr, yb, right, bottom, srcX: iw - right, srcY: ih - bottom)
        // Edges: the top and bottom vary by row only, the left and right by column only.
        compositeRuns(column, origin: s.y, rows: true,
                      PixelRect(x: xm, y: s.y, width: mid, height: top).intersection(p),
                      alpha: alpha, source: runs, dst: dst)
        compositeRuns(column, origin: yb - (ih - bottom), rows: true,
                      PixelRect(x: xm, y: yb, width: mid, height: bottom).intersection(p),
                      alpha: alpha, source: runs, dst: dst)
        compositeRuns(row, origin: s.x, rows: false,
                      PixelRect(x: s.x, y: ym, width: left, height: midV).intersection(p),
                      alpha: alpha, source: runs, dst: dst)
        compositeRuns(row, origin: xr - (iw - right), rows: false,
                      PixelRect(x: xr, y: ym, width: right, height: midV).intersection(p),
                      alpha: alpha, source: runs, dst: dst)
        let centre = PixelRect(x: xm, y: ym, width: mid, height: midV).intersection(p)
        let v = scaledARGB(column[splitY], by: alpha)
        if !centre.isEmpty && v != 0 {
            runs.set(v)
            pixman_image_composite32(PIXMAN_OP_OVER, runs.image, nil, dst, 0, 0, 0, 0, Int32(centre.x),
                                     Int32(centre.y), Int32(centre.width), Int32(centre.height))
        }
    }
}
