import XCTest
@testable import ModalKitWaylandClient

/// The pool rules of wl_buffer (release) and a compositor that holds every buffer (docs/design.md,
/// rules from the field, 2), on fake handles.
final class BufferSlotsTests: XCTestCase {
    final class FakeBuffer {
        let serial: Int
        let width: Int
        let height: Int
        init(serial: Int, width: Int, height: Int) { (self.serial, self.width, self.height) = (serial, width, height) }
    }

    private var created = 0
    private var slots = BufferSlots<FakeBuffer>(capacity: 4)

    override func setUp() {
        created = 0
        slots = BufferSlots(capacity: 4)
        XCTAssertTrue(slots.setSize(width: 100, height: 50).isEmpty)
    }

    private func acquire() -> BufferSlots<FakeBuffer>.Acquired? {
        let (width, height) = (slots.width, slots.height)
        return slots.acquire {
            created += 1
            return FakeBuffer(serial: created, width: width, height: height)
        }
    }

    /// Acquire + draw + attach: returns the buffer's id.
    @discardableResult
    private func drawAndAttach() -> BufferSlots<FakeBuffer>.Acquired {
        let acquired = acquire()!
        XCTAssertNil(slots.finishDrawing(id: acquired.id, attached: true))
        return acquired
    }

    func testFirstBufferIsNewWithUndefinedContents() {
        let acquired = acquire()!
        XCTAssertEqual(acquired.age, 0)
        XCTAssertEqual(created, 1)
        XCTAssertEqual(acquired.handle.width, 100)
        XCTAssertEqual(acquired.handle.height, 50)
        XCTAssertEqual(slots.state(of: acquired.id), .drawing)
    }

    func testNeverHandsOutABusyBuffer() {
        let first = drawAndAttach()
        XCTAssertEqual(slots.state(of: first.id), .busy)
        let second = acquire()!
        XCTAssertNotEqual(second.id, first.id)
        XCTAssertEqual(created, 2, "all buffers busy: a new one is made")
        XCTAssertEqual(second.age, 0)
    }

    func testDrawingBufferIsNotHandedOutTwice() {
        let first = acquire()!
        let second = acquire()!
        XCTAssertNotEqual(first.id, second.id)
    }

    /// At rest only what the compositor holds stays: free buffers go, a busy and a drawing one
    /// stay, and the next frame starts in a new buffer with undefined contents (age 0).
    func testRemovingTheFreeBuffersKeepsTheHeldAndTheDrawingOnes() {
        let a = drawAndAttach(), b = drawAndAttach(), c = drawAndAttach()
        XCTAssertNil(slots.release(id: a.id))
        XCTAssertNil(slots.release(id: b.id))
        let drawing = acquire()!
        XCTAssertEqual(drawing.id, b.id, "the newest free one")
        let removed = slots.removeFree()
        XCTAssertEqual(removed.map(\.serial), [1], "only a: b is being drawn, c is held")
        XCTAssertEqual(slots.slots.map(\.id), [b.id, c.id])
        XCTAssertNil(slots.finishDrawing(id: drawing.id, attached: false))
        XCTAssertEqual(slots.removeFree().map(\.serial), [2])
        XCTAssertEqual(slots.state(of: c.id), .busy)
        XCTAssertTrue(slots.removeFree().isEmpty)
        let next = acquire()!
        XCTAssertEqual(next.age, 0)
        XCTAssertEqual(created, 4, "a new buffer, c still held")
    }

    func testReleasedBufferIsReusedWithAgeOne() {
        let first = drawAndAttach()
        XCTAssertNil(slots.release(id: first.id))
        XCTAssertEqual(slots.state(of: first.id), .free)
        let again = acquire()!
        XCTAssertEqual(again.id, first.id)
        XCTAssertEqual(again.age, 1, "holds the previous frame")
        XCTAssertEqual(created, 1)
    }

    func testAgeCountsFramesSinceTheBufferWasDrawn() {
        // Double buffering: A frame 1, B frame 2, then A again holds the frame from 2 frames ago.
        let a = drawAndAttach()
        let b = drawAndAttach()
        XCTAssertNil(slots.release(id: a.id))
        let a2 = acquire()!
        XCTAssertEqual(a2.id, a.id)
        XCTAssertEqual(a2.age, 2)
        XCTAssertNil(slots.finishDrawing(id: a2.id, attached: true))   // frame 3
        XCTAssertNil(slots.release(id: b.id))
        let b2 = acquire()!
        XCTAssertEqual(b2.id, b.id)
        XCTAssertEqual(b2.age, 2)
        // Triple buffering: a third buffer drawn at frame 4 makes the next reuse of A age 3.
        XCTAssertNil(slots.finishDrawing(id: b2.id, attached: true))   // frame 4
        let c = drawAndAttach()                                          // frame 5 (new buffer)
        XCTAssertEqual(c.age, 0)
        XCTAssertNil(slots.release(id: a.id))
        XCTAssertEqual(acquire()!.age, 3)                                // A holds frame 3; drawing frame 6
    }

    func testPrefersTheFreeBufferWithTheNewestContents() {
        let a = drawAndAttach()   // frame 1
        let b = drawAndAttach()   // frame 2
        XCTAssertNil(slots.release(id: a.id))
        XCTAssertNil(slots.release(id: b.id))
        let next = acquire()!
        XCTAssertEqual(next.id, b.id)
        XCTAssertEqual(next.age, 1)
    }

    func testGrowsWhileAllAreBusyThenStopsAtCapacity() {
        var ids: Set<Int> = []
        for _ in 0..<4 { ids.insert(drawAndAttach().id) }
        XCTAssertEqual(ids.count, 4)
        XCTAssertEqual(created, 4)
        XCTAssertNil(acquire(), "at capacity with every buffer busy: skip the frame")
        XCTAssertEqual(created, 4, "no buffer beyond the cap")
        XCTAssertFalse(slots.canAcquire)
    }

    func testAtCapacityARelaseMakesThatBufferAvailable() {
        var attached: [BufferSlots<FakeBuffer>.Acquired] = []
        for _ in 0..<4 { attached.append(drawAndAttach()) }
        XCTAssertNil(slots.release(id: attached[2].id))
        XCTAssertTrue(slots.canAcquire)
        let next = acquire()!
        XCTAssertEqual(next.id, attached[2].id)
        XCTAssertEqual(next.age, 2, "drawn at frame 3, now drawing frame 5")
    }

    func testUncommittedDrawStaysFreeAndCountsAsAFrame() {
        let first = acquire()!
        XCTAssertNil(slots.finishDrawing(id: first.id, attached: false))
        XCTAssertEqual(slots.state(of: first.id), .free)
        XCTAssertEqual(slots.frameCount, 1)
        let again = acquire()!
        XCTAssertEqual(again.id, first.id)
        XCTAssertEqual(again.age, 1)
    }

    func testResizeDestroysFreeBuffersAtOnce() {
        let a = drawAndAttach()
        XCTAssertNil(slots.release(id: a.id))
        let destroyed = slots.setSize(width: 200, height: 100)
        XCTAssertEqual(destroyed.map(\.serial), [a.handle.serial])
        XCTAssertNil(slots.state(of: a.id))
        let next = acquire()!
        XCTAssertEqual(next.handle.width, 200)
        XCTAssertEqual(next.handle.height, 100)
        XCTAssertEqual(next.age, 0)
    }

    func testResizeDestroysBusyBuffersOnRelease() {
        let a = drawAndAttach()
        XCTAssertTrue(slots.setSize(width: 200, height: 100).isEmpty, "busy: the compositor may still read it")
        XCTAssertEqual(slots.state(of: a.id), .busy)
        let b = acquire()!
        XCTAssertNotEqual(b.id, a.id, "a stale buffer is never handed out")
        XCTAssertEqual(b.handle.width, 200)
        XCTAssertEqual(slots.release(id: a.id)?.serial, a.handle.serial, "destroyed on release")
        XCTAssertNil(slots.state(of: a.id))
        XCTAssertEqual(slots.slots.count, 1)
    }

    func testStaleBufferReleasedBeforeResizeBackIsStillDropped() {
        let a = drawAndAttach()
        _ = slots.setSize(width: 200, height: 100)
        _ = slots.setSize(width: 100, height: 50)   // back to A's size while A is busy and stale
        XCTAssertEqual(slots.release(id: a.id)?.serial, a.handle.serial)
        XCTAssertEqual(acquire()!.age, 0)
    }

    func testStaleBusyBuffersCountTowardsTheCap() {
        for _ in 0..<4 { drawAndAttach() }
        _ = slots.setSize(width: 200, height: 100)
        XCTAssertNil(acquire(), "four old buffers still alive: no fifth")
    }

    func testSameSizeIsNotAResize() {
        let a = drawAndAttach()
        XCTAssertNil(slots.release(id: a.id))
        XCTAssertTrue(slots.setSize(width: 100, height: 50).isEmpty)
        XCTAssertEqual(acquire()!.id, a.id)
    }

    func testSpuriousReleaseIsIgnored() {
        let a = acquire()!
        XCTAssertNil(slots.release(id: a.id), "drawing, not busy")
        XCTAssertEqual(slots.state(of: a.id), .drawing)
        XCTAssertNil(slots.release(id: 999))
    }

    func testRemoveAllReturnsEveryBuffer() {
        drawAndAttach()
        _ = acquire()
        XCTAssertEqual(slots.removeAll().count, 2)
        XCTAssertTrue(slots.slots.isEmpty)
    }
}
