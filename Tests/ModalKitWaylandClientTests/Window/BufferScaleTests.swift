import ModalKitWaylandClient
import XCTest

final class BufferScaleTests: XCTestCase {
    func testBeforeAnyEnterTheLargestAdvertisedScaleIsUsed() {
        // weston --scale=2: one output at 2; the first buffer must already be at scale 2.
        XCTAssertEqual(BufferScale.resolve(entered: [], hasEntered: false, advertised: [2], current: 1), 2)
        XCTAssertEqual(BufferScale.resolve(entered: [], hasEntered: false, advertised: [1, 3, 2], current: 1), 3)
    }

    func testNoOutputsMeansScaleOne() {
        XCTAssertEqual(BufferScale.resolve(entered: [], hasEntered: false, advertised: [], current: 1), 1)
    }

    func testOnOutputsTheLargestEnteredScaleWins() {
        XCTAssertEqual(BufferScale.resolve(entered: [1], hasEntered: true, advertised: [1, 2], current: 2), 1)
        XCTAssertEqual(BufferScale.resolve(entered: [1, 2], hasEntered: true, advertised: [1, 2, 3], current: 1), 2)
    }

    func testLeavingEveryOutputKeepsTheLastScale() {
        XCTAssertEqual(BufferScale.resolve(entered: [], hasEntered: true, advertised: [1, 3], current: 2), 2)
    }

    func testBogusScalesNeverGoBelowOne() {
        XCTAssertEqual(BufferScale.resolve(entered: [0], hasEntered: true, advertised: [0], current: 1), 1)
        XCTAssertEqual(BufferScale.resolve(entered: [], hasEntered: false, advertised: [-2], current: 1), 1)
    }
}
