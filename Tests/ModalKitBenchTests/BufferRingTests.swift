import ModalKitBenchSupport
import XCTest

/// Buffer ages as defined by EGL_EXT_buffer_age (and ModalKit's Wayland buffer pool): 0 for a
/// buffer never drawn, else the number of frames since its contents were drawn.
final class BufferRingTests: XCTestCase {
    func testThreeBuffersRoundRobinHaveAgeThreeOnceAllAreDrawn() {
        var ring = BufferRing(count: 3)
        let frames = (0..<8).map { _ in ring.next() }
        XCTAssertEqual(frames.map(\.index), [0, 1, 2, 0, 1, 2, 0, 1])
        XCTAssertEqual(frames.map(\.age), [0, 0, 0, 3, 3, 3, 3, 3])
    }

    func testSingleBufferIsAlwaysTheLastFrame() {
        var ring = BufferRing(count: 1)
        XCTAssertEqual((0..<3).map { _ in ring.next().age }, [0, 1, 1])
    }
}
