import CModalKitPixman

// The renderer's derived layers for what style ABI 1.1 adds: the gradient dim, the presented
// view's drop shadow and the covered presenting view's corner mask. Each is brought up to date
// once per frame (`update`) and then paints any damaged piece of the frame (`draw`). Buffer
// pixels and premultiplied ARGB throughout. Steady state allocates nothing: tables keep their
// capacity, images are made when a shape first appears (or grows) and rewritten in place after.

/// The gradient dim (``LayerFrame/dimGradient``): the colour of pixel (x, y) is the gradient's
/// `LinearGradient/color(at:)` at the projection of the pixel's centre (x + 0.5, y + 0.5) onto
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
