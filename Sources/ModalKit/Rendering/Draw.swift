import CModalKitPixman
import Glibc

// Small pixman helpers used to draw the cached layer contents (not per frame, except `SolidSource`).
// All coordinates here are buffer pixels (Double for anti-aliased shapes); every image is a
// `pixman_image_t *` in `PIXMAN_a8r8g8b8` (premultiplied ARGB), e.g. ``Image/pixmanImage``.

/// Anti-aliased fills for drawing layer contents with pixman: buffer pixels, premultiplied colours.
public enum Draw {
    /// The size of a pixman image (`pixman_image_t *`), buffer pixels: what a
    /// `PresentationContent` draws into (`fill` and the other calls do not clip to the image).
    public static func pixelSize(of image: OpaquePointer) -> (width: Int, height: Int) {
        (Int(pixman_image_get_width(image)), Int(pixman_image_get_height(image)))
    }

    /// Fills `rect` (buffer pixels, may be fractional) of `dst` with `color` using `op` (OVER blends,
    /// SRC replaces), with rounded `corners` of `radius` pixels (clamped to half the shorter side),
    /// anti-aliased. With `ring`, only the band between the rectangle and the same rectangle inset by
    /// `ring.inset` pixels (its corners `ring.radius`) is filled: a focus ring. Draws OVER.
    public static func fillRoundedRect(_ dst: OpaquePointer, x: Double, y: Double, width: Double, height: Double,
                                radius: Double, corners: CornerMask = .all, color: Color,
                                ring: (inset: Double, radius: Double)? = nil) {
        let x0i = Int(floor(x)), y0i = Int(floor(y))
        let x1i = Int(ceil(x + width)), y1i = Int(ceil(y + height))
        let w = x1i - x0i, h = y1i - y0i
        guard w > 0, h > 0, color.alpha > 0 else { return }
        let r = clampedRadius(radius, width: width, height: height)
        var pc = color.pixmanColor
        let scratch = DrawScratch.current
        scratch.solid.set(pc)
        let solid = scratch.solid.image
        /// Coverage of the pixels in `columns × rows` (buffer pixels, inside the bounding box) as
        /// an a8 mask, composited OVER through it.
        func composite(columns: Range<Int>, rows: Range<Int>) {
            guard !columns.isEmpty, !rows.isEmpty,
                  let mask = scratch.mask(width: columns.count, height: rows.count) else { return }
            let stride = Int(pixman_image_get_stride(mask))
            let bytes = UnsafeMutableRawPointer(pixman_image_get_data(mask)!).assumingMemoryBound(to: UInt8.self)
            for py in rows {
                let row = bytes + (py - rows.lowerBound) * stride
                for px in columns {
                    var c = roundedRectCoverage(px: px, py: py, x0: x, y0: y, x1: x + width, y1: y + height,
                                                radius: r, corners: corners)
                    if let ring = ring, c > 0 {
                        let i = ring.inset
                        let inner = roundedRectCoverage(px: px, py: py, x0: x + i, y0: y + i, x1: x + width - i,
                                                        y1: y + height - i,
                                                        radius: clampedRadius(ring.radius, width: width - 2 * i,
                                                                              height: height - 2 * i),
                                                        corners: corners)
                        c = max(0, c - inner)
                    }
                    row[px - columns.lowerBound] = UInt8((c * 255).rounded())
                }
            }
            pixman_image_composite32(PIXMAN_OP_OVER, solid, mask, dst, 0, 0, 0, 0, Int32(columns.lowerBound),
                                     Int32(rows.lowerBound), Int32(columns.count), Int32(rows.count))
        }
        // Coverage is computed per pixel only where it can be below 1: a band of `cornerBand(r)`
        // pixels (at least 1, for a fractional edge) along each edge. Every pixel inside the bands
        // is whole (inside both fractional edges and outside every corner's square), and OVER
        // through a mask of 255 is OVER without one, so the interior is one pixman fill: the
        // same pixels as the mask over the whole box, at the cost of the edges only.
        let band = max(cornerBand(radius: r), 1)
        guard ring == nil, w > 2 * band, h > 2 * band else {
            composite(columns: x0i..<x1i, rows: y0i..<y1i)
            return
        }
        composite(columns: x0i..<x1i, rows: y0i..<(y0i + band))
        composite(columns: x0i..<x1i, rows: (y1i - band)..<y1i)
        composite(columns: x0i..<(x0i + band), rows: (y0i + band)..<(y1i - band))
        composite(columns: (x1i - band)..<x1i, rows: (y0i + band)..<(y1i - band))
        // pixman_image_fill_boxes clips to the image's clip region only, not to its extents (an
        // opaque OVER becomes a raw pixman_fill): the box is clipped here, as composite32 clips.
        let size = pixelSize(of: dst)
        let left = max(x0i + band, 0), top = max(y0i + band, 0)
        let right = min(x1i - band, size.width), bottom = min(y1i - band, size.height)
        guard left < right, top < bottom else { return }
        var box = pixman_box32_t(x1: Int32(left), y1: Int32(top), x2: Int32(right), y2: Int32(bottom))
        _ = pixman_image_fill_boxes(PIXMAN_OP_OVER, dst, &pc, 1, &box)
    }

    /// Replaces all of `dst` (`width × height` buffer pixels) with a vertical linear gradient from
    /// `top` (row 0) to `bottom` (row `height`).
    public static func verticalGradient(_ dst: OpaquePointer, width: Int, height: Int, top: Color, bottom: Color) {
        var p1 = pixman_point_fixed_t(x: 0, y: 0)
        var p2 = pixman_point_fixed_t(x: 0, y: pixman_fixed_t(Double(max(height, 1)) * 65536))
        var stops = [pixman_gradient_stop_t(x: 0, color: top.pixmanColor),
                     pixman_gradient_stop_t(x: pixman_fixed_t(65536), color: bottom.pixmanColor)]
        guard let gradient = pixman_image_create_linear_gradient(&p1, &p2, &stops, 2) else { return }
        defer { pixman_image_unref(gradient) }
        pixman_image_composite32(PIXMAN_OP_SRC, gradient, nil, dst, 0, 0, 0, 0, 0, 0,
                                 Int32(width), Int32(height))
    }

    /// Replaces all of `dst` (`width × height` buffer pixels) with `color`.
    public static func fill(_ dst: OpaquePointer, width: Int, height: Int, color: Color) {
        var pc = color.pixmanColor
        var box = pixman_box32_t(x1: 0, y1: 0, x2: Int32(width), y2: Int32(height))
        _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, dst, &pc, 1, &box)
    }

    /// Multiplies the pixels of `image` (premultiplied ARGB, `width × height`) by the coverage of a
    /// rounded rectangle of the image's size: the corner clip of `CornerStyle`, baked in. Only the corner
    /// squares are touched.
    public static func clipCorners(_ image: OpaquePointer, width: Int, height: Int, radius: Double, corners: CornerMask) {
        let r = clampedRadius(radius, width: Double(width), height: Double(height))
        guard r > 0, !corners.isEmpty else { return }
        let n = min(cornerBand(radius: r), width, height)
        let stride = Int(pixman_image_get_stride(image))
        let base = UnsafeMutableRawPointer(pixman_image_get_data(image)!)
        let squares: [(CornerMask, Int, Int)] = [(.topLeft, 0, 0), (.topRight, width - n, 0),
                                                 (.bottomLeft, 0, height - n), (.bottomRight, width - n, height - n)]
        for (corner, sx, sy) in squares where corners.contains(corner) {
            for py in sy..<(sy + n) {
                let row = (base + py * stride).assumingMemoryBound(to: UInt32.self)
                for px in sx..<(sx + n) {
                    let c = roundedRectCoverage(px: px, py: py, x0: 0, y0: 0, x1: Double(width), y1: Double(height),
                                                radius: r, corners: corner)
                    if c >= 1 { continue }
                    let f = UInt32((c * 256).rounded())
                    let p = row[px]
                    // Scale all four premultiplied components by the coverage (stays premultiplied).
                    let rb = (((p & 0x00ff00ff) * f) >> 8) & 0x00ff00ff
                    let ag = (((p >> 8) & 0x00ff00ff) * f) & 0xff00ff00
                    row[px] = ag | rb
                }
            }
        }
    }
}

extension Color {
    /// The colour as pixman's 16-bit-per-channel premultiplied colour (each component 0...1 clamped,
    /// × 65535, rounded).
    package var pixmanColor: pixman_color_t {
        func c(_ v: Double) -> UInt16 { UInt16((min(max(v, 0), 1) * 65535).rounded()) }
        return pixman_color_t(red: c(red), green: c(green), blue: c(blue), alpha: c(alpha))
    }
}

/// A 1×1 repeating `a8r8g8b8` image used as a solid source or mask whose colour can change every frame
/// without allocating (pixman treats a 1×1 repeating image as a solid and takes its fast paths).
final class SolidSource {
    let image: OpaquePointer
    private let pixel: UnsafeMutablePointer<UInt32>

    init(_ value: UInt32 = 0) {
        pixel = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        pixel.pointee = value
        image = pixman_image_create_bits(PIXMAN_a8r8g8b8, 1, 1, pixel, 4)!
        pixman_image_set_repeat(image, PIXMAN_REPEAT_NORMAL)
    }

    deinit {
        pixman_image_unref(image)
        pixel.deallocate()
    }

    /// Sets the premultiplied ARGB value.
    func set(_ v: UInt32) { pixel.pointee = v }
}

extension SolidSource {
    /// Sets the colour pixman would give a solid fill of `color` (`pixman_image_create_solid_fill`
    /// keeps the top 8 bits of each 16-bit channel for 8-bit formats), so compositing from this
    /// source gives exactly the pixels of one.
    func set(_ color: pixman_color_t) {
        set(UInt32(color.alpha >> 8) << 24 | UInt32(color.red >> 8) << 16 | UInt32(color.green >> 8) << 8
            | UInt32(color.blue >> 8))
    }
}

/// What ``Draw/fillRoundedRect(_:x:y:width:height:radius:corners:color:ring:)`` reuses from call to
/// call, one set per thread (pthread thread-specific data, freed with the thread): a solid source
/// whose colour is set per call and an a8 coverage mask grown to the largest band asked for, so a
/// content redrawn every frame allocates nothing for its rounded rectangles.
final class DrawScratch {
    let solid = SolidSource()
    private var maskImage: OpaquePointer?
    private var maskWidth = 0, maskHeight = 0

    deinit { if let maskImage { pixman_image_unref(maskImage) } }

    /// An a8 image at least `width × height` pixels (its top-left `width × height` are the caller's
    /// to overwrite), nil when pixman cannot allocate it.
    func mask(width: Int, height: Int) -> OpaquePointer? {
        if let maskImage, width <= maskWidth, height <= maskHeight { return maskImage }
        if let maskImage { pixman_image_unref(maskImage) }
        maskWidth = max(width, maskWidth)
        maskHeight = max(height, maskHeight)
        maskImage = pixman_image_create_bits(PIXMAN_a8, Int32(maskWidth), Int32(maskHeight), nil, 0)
        if maskImage == nil { maskWidth = 0; maskHeight = 0 }
        return maskImage
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { p in
            if let p { Unmanaged<DrawScratch>.fromOpaque(p).release() }
        }
        return key
    }()

    /// This thread's scratch, made on its first use.
    static var current: DrawScratch {
        if let p = pthread_getspecific(key) { return Unmanaged<DrawScratch>.fromOpaque(p).takeUnretainedValue() }
        let made = DrawScratch()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }
}

/// Coverage (0...1) of the pixel whose top-left corner is (px, py) by a rectangle with rounded corners:
/// exact box coverage along the straight edges, distance-based anti-aliasing in the corners.
@inline(__always)
func roundedRectCoverage(px: Int, py: Int, x0: Double, y0: Double, x1: Double, y1: Double,
                         radius r: Double, corners: CornerMask) -> Double {
    let fx = Double(px), fy = Double(py)
    let cx = min(fx + 1, x1) - max(fx, x0)
    let cy = min(fy + 1, y1) - max(fy, y0)
    if cx <= 0 || cy <= 0 { return 0 }
    var cov = min(cx, 1) * min(cy, 1)
    guard r > 0 else { return cov }
    let mx = fx + 0.5, my = fy + 0.5
    var ccx = 0.0, ccy = 0.0, inCorner = false
    if mx < x0 + r && my < y0 + r && corners.contains(.topLeft) { ccx = x0 + r; ccy = y0 + r; inCorner = true }
    else if mx > x1 - r && my < y0 + r && corners.contains(.topRight) { ccx = x1 - r; ccy = y0 + r; inCorner = true }
    else if mx < x0 + r && my > y1 - r && corners.contains(.bottomLeft) { ccx = x0 + r; ccy = y1 - r; inCorner = true }
    else if mx > x1 - r && my > y1 - r && corners.contains(.bottomRight) { ccx = x1 - r; ccy = y1 - r; inCorner = true }
    if inCorner {
        let d = ((mx - ccx) * (mx - ccx) + (my - ccy) * (my - ccy)).squareRoot()
        cov = min(cov, min(max(r - d + 0.5, 0), 1))
    }
    return cov
}

/// The largest radius that fits a `width × height` rectangle (CSS/Core Animation clamp to half the
/// shorter side). All values in the same unit (buffer pixels for the renderer).
public func clampedRadius(_ r: Double, width: Double, height: Double) -> Double {
    max(0, min(r, width / 2, height / 2))
}

/// How many rows (or columns) in from a rounded edge `Draw.clipCorners` can touch for a corner of
/// `radius` buffer pixels: the arc reaches `ceil(radius)` pixels in, plus one pixel of margin. The
/// renderer draws these bands with OVER and the rows between them with SRC, so both must agree.
public func cornerBand(radius: Double) -> Int { radius > 0 ? Int(ceil(radius)) + 1 : 0 }
