import CPixman

// The renderer's derived layers for the style ABI 1.1 chrome: the gradient dim, the presented
// view's drop shadow and the covered presenting view's corner mask. Each is brought up to date
// once per frame (`update`) and then paints any damaged piece of the frame (`draw`). Buffer
// pixels and premultiplied ARGB throughout. Steady state allocates nothing: tables keep their
// capacity, images are made when a shape first appears (or grows) and rewritten in place after.

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

/// The gradient dim (``LayerFrame/dimGradient``): the colour of pixel (x, y) is the gradient's
/// ``LinearGradient/color(at:)`` at the projection of the pixel's centre (x + 0.5, y + 0.5) onto
/// the gradient line, t = ((p − start) · (end − start)) / |end − start|², padded beyond 0 and 1;
/// a gradient whose start and end coincide is its last stop's colour everywhere.
///
/// A vertical gradient (the usual sheet dim) is a colour per row and a horizontal one a colour per
/// column, drawn as runs of solid fills (``compositeRuns``) — close to a solid dim's cost. In any
/// other direction t is linear in x and y, so every row is one long row of colours shifted by
/// round(y · dy/dx) pixels: that row is computed once and each row of the frame is one image OVER
/// from it (transparent ends skipped; the colour is off by at most half a pixel along x). When
/// that row would exceed 16384 pixels (a gradient within a few degrees of vertical in a tall
/// container) a 4096 × 1 strip is sampled through an affine pixman transform instead
/// (`PIXMAN_REPEAT_PAD`, nearest filter: pixman's general path, several times a solid dim's cost).
/// All of them rewrite their table in place when the gradient or the dim's alpha changes, so an
/// animated gradient allocates nothing (the long row's image only grows).
final class DimGradientLayer {
    private enum Kind { case solid(UInt32), rows, columns, sheared, strip }
    private var kind = Kind.solid(0)
    private var key: LinearGradient?
    private var keyWidth = 0, keyHeight = 0
    private var table: [UInt32] = []
    private var strip: (image: OpaquePointer, pixels: UnsafeMutablePointer<UInt32>)?
    static let stripWidth = 4096
    /// The long row of a sheared gradient: its image (`capacity` wide), the shift per row
    /// (dy/dx), the u of its first pixel, its length, and its constant ends: pixels before
    /// `leadEnd` are all `lead`, from `trailStart` on all `trail` (drawn as solid fills, or not at
    /// all when transparent).
    private var longRow: (image: OpaquePointer, pixels: UnsafeMutablePointer<UInt32>, capacity: Int)?
    private var shear = 0.0, uMin = 0, longLength = 0
    private var leadEnd = 0, trailStart = 0, lead: UInt32 = 0, trail: UInt32 = 0
    static let maxLongRow = 16384

    deinit {
        if let s = strip {
            pixman_image_unref(s.image)
            s.pixels.deallocate()
        }
        if let r = longRow {
            pixman_image_unref(r.image)
            r.pixels.deallocate()
        }
    }

    /// A long-row image of at least `n` pixels (grown, power of two, when shorter).
    private func longRowPixels(_ n: Int) -> UnsafeMutablePointer<UInt32>? {
        if let r = longRow, r.capacity >= n { return r.pixels }
        if let r = longRow {
            pixman_image_unref(r.image)
            r.pixels.deallocate()
            longRow = nil
        }
        var cap = 4096
        while cap < n { cap *= 2 }
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: cap)
        pixels.initialize(repeating: 0, count: cap)
        guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(cap), 1, pixels, Int32(cap * 4)) else {
            pixels.deallocate()
            return nil
        }
        longRow = (image, pixels, cap)
        return pixels
    }

    func update(_ g: LinearGradient, width: Int, height: Int) {
        if key == g && keyWidth == width && keyHeight == height { return }
        key = g; keyWidth = width; keyHeight = height
        let dx = g.end.x - g.start.x, dy = g.end.y - g.start.y
        let len2 = dx * dx + dy * dy
        guard len2 > 0 else {
            kind = .solid(g.color(at: 1).argb32)
            return
        }
        if dx == 0 || dy == 0 {
            let vertical = dx == 0
            let n = vertical ? height : width
            table.removeAll(keepingCapacity: true)
            table.reserveCapacity(n)
            for i in 0..<n {
                let t = vertical ? (Double(i) + 0.5 - g.start.y) / dy : (Double(i) + 0.5 - g.start.x) / dx
                table.append(g.color(at: t).argb32)
            }
            kind = vertical ? .rows : .columns
            return
        }
        // t(x, y) = a·(x + ½) + b·(y + ½) + c = a·(x + ½ + k·(y + ½)) + c with k = b/a: row y is the
        // long row from u = x + round(k·(y + ½)).
        let a = dx / len2, b = dy / len2, c = -(g.start.x * dx + g.start.y * dy) / len2
        let k = b / a
        let s0 = Int((k * 0.5).rounded()), s1 = Int((k * (Double(height) - 0.5)).rounded())
        let first = min(s0, s1), length = width + max(s0, s1) - first
        if length <= DimGradientLayer.maxLongRow, let px = longRowPixels(length) {
            shear = k; uMin = first; longLength = length
            for j in 0..<length { px[j] = g.color(at: a * (Double(j + first) + 0.5) + c).argb32 }
            lead = px[0]; trail = px[length - 1]
            leadEnd = 1
            while leadEnd < length && px[leadEnd] == lead { leadEnd += 1 }
            trailStart = length - 1
            while trailStart > leadEnd && px[trailStart - 1] == trail { trailStart -= 1 }
            kind = .sheared
            return
        }
        if strip == nil {
            let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: DimGradientLayer.stripWidth)
            pixels.initialize(repeating: 0, count: DimGradientLayer.stripWidth)
            guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(DimGradientLayer.stripWidth), 1,
                                                       pixels, Int32(DimGradientLayer.stripWidth * 4)) else {
                pixels.deallocate()
                kind = .solid(0)
                return
            }
            pixman_image_set_repeat(image, PIXMAN_REPEAT_PAD)
            pixman_image_set_filter(image, PIXMAN_FILTER_NEAREST, nil, 0)
            strip = (image, pixels)
        }
        guard let s = strip else { return }
        let n = min(max(Int(len2.squareRoot().rounded()), 2), DimGradientLayer.stripWidth)
        let last = g.color(at: 1).argb32
        for i in 0..<DimGradientLayer.stripWidth {
            s.pixels[i] = i < n ? g.color(at: (Double(i) + 0.5) / Double(n)).argb32 : last
        }
        // Destination (x, y) → strip (n · t, 0.5): u = n·((x − sx)·dx + (y − sy)·dy)/|d|².
        func fixed(_ v: Double) -> pixman_fixed_t {
            pixman_fixed_t(min(max((v * 65536).rounded(), Double(Int32.min)), Double(Int32.max)))
        }
        let m = Double(n) / len2
        var t = pixman_transform_t()
        t.matrix.0 = (fixed(m * dx), fixed(m * dy), fixed(-m * (g.start.x * dx + g.start.y * dy)))
        t.matrix.1 = (0, 0, fixed(0.5))
        t.matrix.2 = (0, 0, fixed(1))
        pixman_image_set_transform(s.image, &t)
        kind = .strip
    }

    /// Composites the gradient OVER piece `p` of `dst`.
    func draw(_ p: PixelRect, runs: SolidSource, dst: OpaquePointer) {
        switch kind {
        case let .solid(c):
            guard c != 0 else { return }
            runs.set(c)
            pixman_image_composite32(PIXMAN_OP_OVER, runs.image, nil, dst, 0, 0, 0, 0,
                                     Int32(p.x), Int32(p.y), Int32(p.width), Int32(p.height))
        case .rows:
            compositeRuns(table, origin: 0, rows: true, p, alpha: 255, source: runs, dst: dst)
        case .columns:
            compositeRuns(table, origin: 0, rows: false, p, alpha: 255, source: runs, dst: dst)
        case .sheared:
            guard let r = longRow else { return }
            for y in p.y..<p.maxY {
                // Row y shows the long row from j = x + shift: its constant lead [0, leadEnd), its
                // varying middle, its constant trail [trailStart, length).
                let shift = Int((shear * (Double(y) + 0.5)).rounded()) - uMin
                let xa = min(max(leadEnd - shift, p.x), p.maxX), xb = min(max(trailStart - shift, xa), p.maxX)
                if xa > p.x && lead != 0 {
                    runs.set(lead)
                    pixman_image_composite32(PIXMAN_OP_OVER, runs.image, nil, dst, 0, 0, 0, 0,
                                             Int32(p.x), Int32(y), Int32(xa - p.x), 1)
                }
                if xb > xa {
                    pixman_image_composite32(PIXMAN_OP_OVER, r.image, nil, dst, Int32(xa + shift), 0, 0, 0,
                                             Int32(xa), Int32(y), Int32(xb - xa), 1)
                }
                if p.maxX > xb && trail != 0 {
                    runs.set(trail)
                    pixman_image_composite32(PIXMAN_OP_OVER, runs.image, nil, dst, 0, 0, 0, 0,
                                             Int32(xb), Int32(y), Int32(p.maxX - xb), 1)
                }
            }
        case .strip:
            guard let s = strip else { return }
            pixman_image_composite32(PIXMAN_OP_OVER, s.image, nil, dst, Int32(p.x), Int32(p.y), 0, 0,
                                     Int32(p.x), Int32(p.y), Int32(p.width), Int32(p.height))
        }
    }
}

/// The presented view's drop shadow (``LayerFrame/shadowColor`` and friends), drawn as a
/// nine-slice of one cached image.
///
/// The image is the view's rounded rectangle — at most (2c + 1) pixels per side, c = ⌈radius⌉ +
/// blur + 1, the card's own size when smaller — with `blur` pixels of margin, blurred once by
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
        let c = Int(f.cardCornerRadius.rounded(.up)) + b + 1
        let k = Key(width: min(f.cardSourceWidth, 2 * c + 1), height: min(f.cardSourceHeight, 2 * c + 1),
                    radius: f.cardCornerRadius, corners: f.cardCorners, blur: b, color: f.shadowColor)
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
    /// card's alpha.
    func draw(_ p: PixelRect, frame f: LayerFrame, runs: SolidSource, alphaMask: SolidSource, dst: OpaquePointer) {
        let s = f.shadowRect
        guard let img = image?.pixmanImage, !p.intersection(s).isEmpty else { return }
        let iw = imageWidth, ih = imageHeight
        let left = min(splitX, s.width / 2), right = min(iw - splitX - 1, s.width - left)
        let mid = s.width - left - right
        let top = min(splitY, s.height / 2), bottom = min(ih - splitY - 1, s.height - top)
        let midV = s.height - top - bottom
        let alpha = f.cardAlpha
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

/// The covered presenting view's rounded corners: an `a8` mask holding a (2n)×(2n) rounded
/// rectangle of the corner radius (n = ``cornerBand(radius:)``, at most half the shorter side),
/// × the view's alpha — each quadrant is the coverage of one corner square. Rewritten in place when
/// the radius or alpha changes (an animated recede allocates nothing); its image grows only when
/// the radius outgrows it.
final class CornerMaskImage {
    private(set) var image: OpaquePointer?
    private var pixels: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    /// The corner squares' side, buffer pixels (0: square corners).
    private(set) var band = 0
    private var key: (radius: Double, alpha: UInt32, band: Int)?

    deinit {
        if let i = image { pixman_image_unref(i) }
        pixels?.deallocate()
    }

    func update(radius: Double, alpha: UInt32, rect: PixelRect) {
        band = min(cornerBand(radius: radius), rect.width / 2, rect.height / 2)
        guard band > 0 else { return }
        if let k = key, k.radius == radius, k.alpha == alpha, k.band == band { return }
        let side = 2 * band
        if side > capacity {
            if let i = image { pixman_image_unref(i) }
            pixels?.deallocate()
            var cap = 64
            while cap < side { cap *= 2 }
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: cap * cap)
            p.initialize(repeating: 0, count: cap * cap)
            pixels = p
            image = pixman_image_create_bits(PIXMAN_a8, Int32(cap), Int32(cap),
                                             UnsafeMutableRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                             Int32(cap))
            capacity = image == nil ? 0 : cap
        }
        guard let p = pixels, image != nil else { return }
        key = (radius, alpha, band)
        let a = Double(alpha) / 255
        for y in 0..<side {
            for x in 0..<side {
                let c = roundedRectCoverage(px: x, py: y, x0: 0, y0: 0, x1: Double(side), y1: Double(side),
                                            radius: radius, corners: .all)
                p[y * capacity + x] = UInt8((c * a * 255).rounded())
            }
        }
    }
}
