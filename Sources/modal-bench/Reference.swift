// The reference a frame competes with (the target: a median frame at most 1.5 × this one): one
// full-window pixman SRC blit plus one 50 % black OVER fill of the same size — what a client
// without caches or damage would pay at least.
import CModalKitPixman
import ModalKitBenchSupport
import ModalKitClock

/// Measures the reference at one size, two ways, from one full-window opaque source image
/// (standing in for the cached presenting view):
/// - `samples`: always into the same destination image — the tight loop of the reference as stated
///   (one blit + one fill); source and destination stay as warm in the caches as they can. This is
///   the reference of the `ratio` line (the stricter of the two: it is the faster).
/// - `ringSamples`: into three destinations used round-robin, like the buffers the frames are
///   rendered into (the memory traffic a full-redraw client with the same buffer pool would have).
final class Reference {
    let size: BenchSize
    private let source: OpaquePointer
    private let destination: OpaquePointer
    private let ring: [OpaquePointer]
    private let dim: OpaquePointer
    private var next = 0
    /// Measured iterations into one destination, seconds.
    private(set) var samples: [Double] = []
    /// Measured iterations into three destinations round-robin, seconds.
    private(set) var ringSamples: [Double] = []

    /// - Throws: `BenchFailure` when pixman cannot allocate the images.
    init(size: BenchSize) throws {
        self.size = size
        func image() throws -> OpaquePointer {
            guard let i = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(size.width), Int32(size.height), nil, 0) else {
                throw BenchFailure(description: "cannot allocate a \(size) image for the reference")
            }
            return i
        }
        source = try image()
        destination = try image()
        ring = try (0..<SceneDriver.bufferCount).map { _ in try image() }
        // 50 % black, premultiplied (pixman_color_t holds premultiplied 16-bit components).
        var half = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0x8000)
        guard let solid = pixman_image_create_solid_fill(&half) else {
            throw BenchFailure(description: "cannot create the reference's solid fill")
        }
        dim = solid
        // An opaque light grey source; SRC costs the bytes moved, whatever their values.
        var grey = pixman_color_t(red: 0xf2f2, green: 0xf2f2, blue: 0xf7f7, alpha: 0xffff)
        var box = pixman_box32_t(x1: 0, y1: 0, x2: Int32(size.width), y2: Int32(size.height))
        pixman_image_fill_boxes(PIXMAN_OP_SRC, source, &grey, 1, &box)
        // Touch every destination page once, so page faults are not measured.
        _ = iteration(into: destination)
        for d in ring { _ = iteration(into: d) }
        samples.reserveCapacity(4096)
        ringSamples.reserveCapacity(4096)
    }

    deinit {
        pixman_image_unref(source)
        pixman_image_unref(destination)
        ring.forEach { pixman_image_unref($0) }
        pixman_image_unref(dim)
    }

    /// One blit + dim into `dst`; returns its duration, seconds.
    @inline(never)
    private func iteration(into dst: OpaquePointer) -> Double {
        let w = Int32(size.width), h = Int32(size.height)
        let start = monotonicSeconds()
        pixman_image_composite32(PIXMAN_OP_SRC, source, nil, dst, 0, 0, 0, 0, 0, 0, w, h)
        pixman_image_composite32(PIXMAN_OP_OVER, dim, nil, dst, 0, 0, 0, 0, 0, 0, w, h)
        return monotonicSeconds() - start
    }

    /// Measures `count` iterations of each kind (one destination first, then the ring).
    func measure(_ count: Int) {
        for _ in 0..<count { samples.append(iteration(into: destination)) }
        for _ in 0..<count {
            ringSamples.append(iteration(into: ring[next]))
            next = (next + 1) % ring.count
        }
    }
}
