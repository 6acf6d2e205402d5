/// The window's buffers: ``BufferSlots`` (the rules, unit-tested) over live ``ShmBuffer``s.
///
/// Dropping a handle the slots give back destroys that `wl_buffer` (``ShmBuffer`` deinit).
package final class BufferPool {
    /// A buffer handed out for drawing, with its age (0 = contents undefined).
    package struct Acquired {
        package let id: Int
        package let buffer: ShmBuffer
        package let age: Int
    }

    private let shm: Shm
    private var slots: BufferSlots<ShmBuffer>
    /// While true (a window at rest), a buffer the compositor releases is destroyed instead of
    /// kept for the next frame (``dropFreeBuffers()``).
    var dropsReleasedBuffers = false
    /// Called after a `wl_buffer.release` was recorded (a frame skipped for lack of buffers can
    /// be retried).
    var onRelease: (() -> Void)?

    /// - Parameter capacity: most buffers alive at once. Four covers a compositor holding two
    ///   (headless sway + pixman does) plus one on screen and one to draw.
    package init(shm: Shm, capacity: Int = 4) {
        self.shm = shm
        slots = BufferSlots(capacity: capacity)
    }

    /// Sets the buffer size in pixels; buffers of another size are dropped (now if free, on release if busy).
    package func setSize(width: Int, height: Int) {
        _ = slots.setSize(width: width, height: height)   // dropped here → destroyed
    }

    /// A free buffer of the current size, or nil when all are busy and the pool is full.
    package func acquire() throws -> Acquired? {
        let width = slots.width, height = slots.height, shm = shm
        guard let acquired = try slots.acquire(create: {
            let buffer = try ShmBuffer(shm: shm, width: width, height: height)
            buffer.onRelease = { [weak self] buffer in self?.released(buffer) }
            return buffer
        }) else { return nil }
        acquired.handle.slotID = acquired.id
        return Acquired(id: acquired.id, buffer: acquired.handle, age: acquired.age)
    }

    /// Ends the draw of `id`; `attached` = committed to the surface (busy until released).
    package func finishDrawing(id: Int, attached: Bool) {
        _ = slots.finishDrawing(id: id, attached: attached)
    }

    /// Buffers alive (free, drawing or held).
    var count: Int { slots.slots.count }

    /// Destroys every free buffer (neither being drawn nor held by the compositor): what a window at
    /// rest does not need (the memory of a buffer, width × height × 4 bytes, is the largest a
    /// window holds). The next frame draws into a new buffer, age 0, repainted whole.
    func dropFreeBuffers() { _ = slots.removeFree() }

    /// Destroys every buffer (the surface is going away).
    package func removeAll() { _ = slots.removeAll() }

    private func released(_ buffer: ShmBuffer) {
        _ = slots.release(id: buffer.slotID)  // a stale buffer is dropped here → destroyed
        if dropsReleasedBuffers { dropFreeBuffers() }
        onRelease?()
    }
}
