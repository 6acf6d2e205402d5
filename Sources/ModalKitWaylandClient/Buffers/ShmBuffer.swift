import CModalKitWaylandClient
import Glibc

/// A `wl_buffer` backed by its own shared memory (``SharedMemory``), mapped read-write, ARGB8888
/// premultiplied (`WL_SHM_FORMAT_ARGB8888` == `PIXMAN_a8r8g8b8`: 32-bit native-endian 0xAARRGGBB
/// words). Never larger than ``BufferCap``.
///
/// Owns the proxy and the mapping: `deinit` destroys the `wl_buffer` and unmaps the memory. The
/// file descriptor and the transient `wl_shm_pool` are closed/destroyed right after creation (the
/// buffer keeps the memory alive on both sides).
package final class ShmBuffer {
    package let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    /// First pixel; `stride × height` bytes.
    package let data: UnsafeMutableRawPointer
    let width: Int
    let height: Int
    /// Bytes per row.
    package let stride: Int
    private let byteCount: Int
    /// The pool slot this buffer occupies (set by ``BufferPool``).
    var slotID = -1
    /// `wl_buffer.release`: the compositor no longer reads the buffer.
    var onRelease: ((ShmBuffer) -> Void)?

    /// - Throws: ``WaylandError/bufferTooLarge(width:height:)`` over ``BufferCap`` (nothing is
    ///   allocated); ``WaylandError/bufferAllocation(_:)`` when the memory cannot be made (``SharedMemory``).
    package init(shm: Shm, width: Int, height: Int) throws {
        precondition(width > 0 && height > 0, "buffer size must be positive")
        try BufferCap.check(width: width, height: height)
        let stride = width * 4
        let byteCount = stride * height   // ≤ 256 MiB within the cap
        let memory = try SharedMemory(byteCount: byteCount, name: "wl_shm")
        let fd = memory.fd, data = memory.data
        defer { close(fd) }
        let pool = wl_shm_create_pool(shm.proxy, fd, Int32(byteCount))
        proxy = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride),
                                          WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        self.display = shm.display
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
