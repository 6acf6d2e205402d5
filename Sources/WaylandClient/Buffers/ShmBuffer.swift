import CWaylandClient
import Glibc

/// A `wl_buffer` backed by its own memfd, mapped read-write, ARGB8888 premultiplied
/// (`WL_SHM_FORMAT_ARGB8888` == `PIXMAN_a8r8g8b8`: 32-bit native-endian 0xAARRGGBB words).
///
/// Owns the proxy and the mapping: `deinit` destroys the `wl_buffer` and unmaps the memory. The
/// memfd and the transient `wl_shm_pool` are closed/destroyed right after creation (the buffer
/// keeps the memory alive on both sides).
final class ShmBuffer {
    let proxy: OpaquePointer
    /// First pixel; `stride × height` bytes.
    let data: UnsafeMutableRawPointer
    let width: Int
    let height: Int
    /// Bytes per row.
    let stride: Int
    private let byteCount: Int
    /// The pool slot this buffer occupies (set by ``BufferPool``).
    var slotID = -1
    /// `wl_buffer.release`: the compositor no longer reads the buffer.
    var onRelease: ((ShmBuffer) -> Void)?

    /// - Throws: ``WaylandError/bufferAllocation(_:)`` when the memory cannot be made.
    init(shm: Shm, width: Int, height: Int) throws {
        precondition(width > 0 && height > 0, "buffer size must be positive")
        let stride = width * 4
        let (byteCount, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow, byteCount <= Int(Int32.max) else {
            throw WaylandError.bufferAllocation("\(width)x\(height) pixels exceed the wl_shm pool size limit")
        }
        let fd = memfd_create("modalkit-wl_shm", MFD_CLOEXEC)
        guard fd >= 0 else { throw WaylandError.bufferAllocation("memfd_create: \(errnoDescription())") }
        defer { close(fd) }
        var result: Int32
        repeat { result = ftruncate(fd, off_t(byteCount)) } while result < 0 && errno == EINTR
        guard result == 0 else { throw WaylandError.bufferAllocation("ftruncate: \(errnoDescription())") }
        guard let data = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              data != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw WaylandError.bufferAllocation("mmap: \(errnoDescription())")
        }
        let pool = wl_shm_create_pool(shm.proxy, fd, Int32(byteCount))
        proxy = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride),
                                          WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        self.data = data
        self.width = width
        self.height = height
        self.stride = stride
        self.byteCount = byteCount
        wl_buffer_add_listener(proxy, ShmBuffer.listener, userData(self))
    }

    deinit {
        wl_buffer_destroy(proxy)
        munmap(data, byteCount)
    }

    private static let listener = listenerTable(wl_buffer_listener(
        release: { data, _ in
            withOwner(data, as: ShmBuffer.self) { buffer in buffer.onRelease?(buffer) }
        }))
}
