import CModalKitPixman

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
