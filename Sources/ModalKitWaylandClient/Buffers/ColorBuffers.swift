import CModalKitWaylandClient
import Glibc

/// Buffers of one colour each, for ``SurfaceLayer``'s solid layers: ``side`` × ``side``
/// premultiplied ARGB8888 pixels (4 or 5; the layer shows the 2 × 2 pixels from (1, 1), within a margin of the same colour), all in one
/// `wl_shm_pool` made once, so a new colour costs one `wl_shm_pool.create_buffer` request and a
/// few dozen bytes written into a free slot — no system call, no allocation of memory — and a
/// colour seen before costs a dictionary lookup.
///
/// Rules (wl_buffer): a slot is written only when it is free: its buffer was never attached, or
/// the compositor released it (`wl_buffer.release`) and it was dropped from the cache. The cache
/// keeps every colour until the pool is full; then the colours whose buffers are released (not
/// the one attached) are dropped and their slots reused. Buffers are never written again after
/// their colour is stored.
final class ColorBuffers {
    /// Side of each buffer in pixels.
    let side: Int
    /// The slot count of the pool.
    static let slotCount = 1024

    private final class Slot {
        let index: Int
        var buffer: OpaquePointer?
        var color: UInt32 = 0
        /// Attached and committed, not yet released by the compositor.
        var held = false
        init(index: Int) { self.index = index }
    }

    /// Keeps the `wl_display` connected while the pool and its buffers live (``Display``).
    private let display: Display
    private let pool: OpaquePointer
    private let memory: UnsafeMutableRawPointer
    private let byteCount: Int
    private var slots: [Slot]
    private var free: [Int]
    private var byColor: [UInt32: Int] = [:]

    /// - Throws: ``WaylandError/bufferAllocation(_:)`` when the memory cannot be made.
    init(shm: Shm, side: Int = 4) throws {
        self.side = side
        let slotBytes = side * side * 4
        byteCount = slotBytes * ColorBuffers.slotCount
        let shared = try SharedMemory(byteCount: byteCount, name: "colors")
        let fd = shared.fd
        defer { close(fd) }
        memory = shared.data
        display = shm.display
        pool = wl_shm_create_pool(shm.proxy, fd, Int32(byteCount))
        slots = (0..<ColorBuffers.slotCount).map { Slot(index: $0) }
        free = Array((0..<ColorBuffers.slotCount).reversed())
        byColor.reserveCapacity(ColorBuffers.slotCount)
    }

    deinit {
        for s in slots { if let b = s.buffer { wl_buffer_destroy(b) } }
        wl_shm_pool_destroy(pool)
        munmap(memory, byteCount)
    }

    /// The `wl_buffer` of `color` (premultiplied `0xAARRGGBB`), made now if new; nil when every slot
    /// holds a colour the compositor still holds (then the caller keeps what it shows).
    func buffer(for color: UInt32, keeping attached: UInt32?) -> OpaquePointer? {
        if let i = byColor[color] { return slots[i].buffer }
        if free.isEmpty { evict(keeping: attached) }
        guard let i = free.popLast() else { return nil }
        let slot = slots[i]
        let offset = i * side * side * 4
        let pixels = (memory + offset).bindMemory(to: UInt32.self, capacity: side * side)
        for p in 0..<(side * side) { pixels[p] = color }
        guard let b = wl_shm_pool_create_buffer(pool, Int32(offset), Int32(side), Int32(side), Int32(side * 4),
                                                WL_SHM_FORMAT_ARGB8888.rawValue) else { return nil }
        wl_buffer_add_listener(b, ColorBuffers.listener, userData(slot))
        slot.buffer = b
        slot.color = color
        slot.held = false
        byColor[color] = i
        return b
    }

    /// `buffer` was attached and committed: held until the compositor releases it.
    func attached(_ color: UInt32) {
        if let i = byColor[color] { slots[i].held = true }
    }

    /// Drops every colour whose buffer the compositor does not hold, but `attached`.
    private func evict(keeping attached: UInt32?) {
        for s in slots where s.buffer != nil && !s.held && s.color != attached {
            wl_buffer_destroy(s.buffer!)
            s.buffer = nil
            byColor[s.color] = nil
            free.append(s.index)
        }
    }

    private static let listener = listenerTable(wl_buffer_listener(
        release: { data, _ in withOwner(data, as: Slot.self) { $0.held = false } }))
}
