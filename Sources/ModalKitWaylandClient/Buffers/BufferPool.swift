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

/// The state machine of a buffer pool, independent of live `wl_buffer`s (unit-tested with any
/// `Handle`; ``BufferPool`` uses it with ``ShmBuffer``).
///
/// Rules (wl_buffer spec; the compositor may hold every buffer: docs/design.md, rules from the
/// field, 2):
/// - A buffer is *busy* from its attach+commit until the compositor sends `wl_buffer.release`;
///   only a free buffer is ever handed out for drawing (``acquire(create:)``).
/// - When every buffer of the current size is busy, a new one is created, up to `capacity`
///   buffers; at the cap ``acquire(create:)`` returns nil and the caller retries after a release.
/// - A size change makes the other buffers stale: free ones are returned for destruction at once,
///   busy ones when they are released.
/// - Buffer age (as EGL_EXT_buffer_age): 0 = contents undefined (new buffer); n ≥ 1 = the buffer
///   holds the frame drawn n frames before the one about to be drawn. Every finished draw counts
///   as a frame, committed or not.
struct BufferSlots<Handle> {
    enum State: Equatable {
        /// Released (or never attached): may be drawn into.
        case free
        /// Handed out by `acquire`, not yet finished.
        case drawing
        /// Attached and committed; the compositor may read it until `wl_buffer.release`.
        case busy
    }

    struct Slot {
        let id: Int
        let handle: Handle
        let width: Int
        let height: Int
        var state: State
        /// The frame number whose contents the buffer holds; nil = undefined.
        var drawnFrame: Int?
        /// Of a size no longer wanted: destroyed as soon as it is not busy.
        var stale: Bool
    }

    /// What ``acquire(create:)`` hands out.
    struct Acquired {
        let id: Int
        let handle: Handle
        /// See the type's documentation (0 = undefined contents).
        let age: Int
    }

    /// Maximum number of live buffers (busy stale ones included).
    let capacity: Int
    private(set) var width = 0
    private(set) var height = 0
    private(set) var slots: [Slot] = []
    /// Number of frames drawn so far.
    private(set) var frameCount = 0
    private var nextID = 0

    init(capacity: Int = 4) {
        precondition(capacity >= 1)
        self.capacity = capacity
    }

    /// Sets the size (buffer pixels) of the buffers handed out from now on.
    /// - Returns: the handles to destroy now (free buffers of another size).
    mutating func setSize(width: Int, height: Int) -> [Handle] {
        guard width != self.width || height != self.height else { return [] }
        self.width = width
        self.height = height
        var destroy: [Handle] = []
        slots.removeAll { slot in
            guard slot.width != width || slot.height != height else { return false }
            if slot.state == .free {
                destroy.append(slot.handle)
                return true
            }
            return false
        }
        for index in slots.indices where slots[index].width != width || slots[index].height != height {
            slots[index].stale = true
        }
        return destroy
    }

    /// Hands out a free buffer of the current size (the one with the most recent contents), creating
    /// one with `create` when none is free and the pool is below capacity.
    /// - Returns: nil when every buffer is busy and the pool is at capacity (skip the frame; retry
    ///   after ``release(id:)``).
    mutating func acquire(create: () throws -> Handle) rethrows -> Acquired? {
        precondition(width > 0 && height > 0, "setSize before acquire")
        let candidates = slots.indices.filter { slots[$0].state == .free && !slots[$0].stale }
        if let index = candidates.max(by: { (slots[$0].drawnFrame ?? -1) < (slots[$1].drawnFrame ?? -1) }) {
            slots[index].state = .drawing
            return Acquired(id: slots[index].id, handle: slots[index].handle, age: age(of: slots[index]))
        }
        guard slots.count < capacity else { return nil }
        let handle = try create()
        let slot = Slot(id: nextID, handle: handle, width: width, height: height,
                        state: .drawing, drawnFrame: nil, stale: false)
        nextID += 1
        slots.append(slot)
        return Acquired(id: slot.id, handle: handle, age: 0)
    }

    /// Ends a draw started by ``acquire(create:)``: the buffer now holds a new frame.
    /// - Parameter attached: true when it was attached and committed (it is busy until released);
    ///   false when the frame was not committed (it stays free).
    /// - Returns: a handle to destroy now (a stale buffer that was not attached).
    mutating func finishDrawing(id: Int, attached: Bool) -> Handle? {
        guard let index = slots.firstIndex(where: { $0.id == id }), slots[index].state == .drawing else {
            return nil
        }
        frameCount += 1
        slots[index].drawnFrame = frameCount
        if attached {
            slots[index].state = .busy
            return nil
        }
        slots[index].state = .free
        return slots[index].stale ? slots.remove(at: index).handle : nil
    }

    /// Records `wl_buffer.release`.
    /// - Returns: a handle to destroy now (a stale buffer); nil otherwise, also for an unknown id or
    ///   a buffer that was not busy (a compositor bug, ignored).
    mutating func release(id: Int) -> Handle? {
        guard let index = slots.firstIndex(where: { $0.id == id }), slots[index].state == .busy else {
            return nil
        }
        slots[index].state = .free
        return slots[index].stale ? slots.remove(at: index).handle : nil
    }

    /// Forgets every buffer (the pool is going away); returns them all for destruction.
    /// Removes every free buffer (none drawing or held by the compositor): a window at rest keeps
    /// only what the compositor shows. The next frame then starts with a new buffer (age 0).
    /// - Returns: the handles to destroy.
    mutating func removeFree() -> [Handle] {
        var destroy: [Handle] = []
        slots.removeAll { slot in
            guard slot.state == .free else { return false }
            destroy.append(slot.handle)
            return true
        }
        return destroy
    }

    mutating func removeAll() -> [Handle] {
        defer { slots.removeAll() }
        return slots.map(\.handle)
    }

    /// The state of the buffer `id`, nil when it no longer exists.
    func state(of id: Int) -> State? { slots.first { $0.id == id }?.state }

    /// True when a draw could start now without waiting for a release.
    var canAcquire: Bool {
        slots.count < capacity || slots.contains { $0.state == .free && !$0.stale }
    }

    private func age(of slot: Slot) -> Int {
        guard let drawn = slot.drawnFrame else { return 0 }
        return frameCount + 1 - drawn
    }
}
