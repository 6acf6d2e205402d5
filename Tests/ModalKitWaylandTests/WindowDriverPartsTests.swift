import ModalKit
@testable import ModalKitWayland
import XCTest

/// The window driver's parts that hold no Wayland objects, as plain values: the frame ledger and
/// the style swap. (The appear and rest watches run on the loop: PresentationWindowTests.)
final class WindowDriverPartsTests: XCTestCase {
    // MARK: FrameLedger

    /// Numbers go to the commits of frames that changed what the window shows, 1, 2, … with the
    /// commit's time and CPU time and the drawn frame's backend; a commit after an unchanged frame
    /// (a configure's ack) gets none, and neither does a second commit of the same drawn frame.
    func testTheLedgerNumbersOnlyCommitsOfChangedFrames() {
        var ledger = FrameLedger()
        ledger.drew(changed: true, backend: .pixman)
        XCTAssertEqual(ledger.committed(sequence: 1, time: 10, cpuSeconds: 0.002),
                       FrameReport(number: 1, time: 10, backend: .pixman, cpuSeconds: 0.002))
        ledger.drew(changed: false, backend: .pixman)
        XCTAssertNil(ledger.committed(sequence: 2, time: 10.1, cpuSeconds: 0.001))
        ledger.drew(changed: true, backend: .subsurfacePixmanPresented)
        XCTAssertEqual(ledger.committed(sequence: 3, time: 10.2, cpuSeconds: 0.003),
                       FrameReport(number: 2, time: 10.2, backend: .subsurfacePixmanPresented, cpuSeconds: 0.003))
        XCTAssertNil(ledger.committed(sequence: 4, time: 10.3, cpuSeconds: 0), "the same drawn frame is counted once")
        XCTAssertEqual(ledger.count, 2)
    }

    /// Presentation feedback names commit sequences: the ledger gives the frame number of each and
    /// none for an unnumbered commit or one not made yet.
    func testTheLedgerMapsCommitSequencesToFrameNumbers() {
        var ledger = FrameLedger()
        for sequence in 1...60 {
            ledger.drew(changed: sequence != 5, backend: .subsurface)
            _ = ledger.committed(sequence: sequence, time: Double(sequence), cpuSeconds: 0)
        }
        XCTAssertEqual(ledger.number(ofSequence: 4), 4)
        XCTAssertNil(ledger.number(ofSequence: 5), "a commit of an unchanged frame")
        XCTAssertEqual(ledger.number(ofSequence: 6), 5)
        XCTAssertEqual(ledger.number(ofSequence: 60), 59)
        XCTAssertNil(ledger.number(ofSequence: 61), "not committed yet")
    }

    // MARK: StyleSwap

    /// A scene whose transition runs while `animating`, that refuses a style while `refuses`.
    final class Scene: PresentationScene {
        let host = PresentationHost(style: PresentationStyle(), presenting: Solid(0))
        var animating = false, refuses = false
        private(set) var applied: [PresentationStyle] = []
        func layout(containerSize: Size, scale: Double) {}
        func handle(_ input: PresentationInput, now: Double) {}
        func update(now: Double) {}
        func replaceStyle(_ style: PresentationStyle) -> Bool {
            guard !refuses else { return false }
            applied.append(style)
            return true
        }
        var isAnimating: Bool { animating }
        var needsRedraw: Bool { false }
    }

    /// Applied only while no transition runs and the scene takes it; the last request wins; the
    /// completion is handed back, not run.
    func testTheSwapWaitsForTheTransitionAndTheLastRequestWins() {
        let scene = Scene()
        let a = PresentationStyle(), b = PresentationStyle()
        var swap = StyleSwap()
        XCTAssertNil(swap.apply(to: scene), "nothing waits")
        var ran: [String] = []
        scene.animating = true
        swap.request(a) { ran.append("a") }
        swap.request(b) { ran.append("b") }
        XCTAssertNil(swap.apply(to: scene))
        XCTAssertTrue(swap.isWaiting)
        scene.animating = false
        scene.refuses = true
        XCTAssertNil(swap.apply(to: scene), "refused: still waiting")
        XCTAssertTrue(swap.isWaiting)
        scene.refuses = false
        let completion = swap.apply(to: scene)
        XCTAssertNotNil(completion)
        XCTAssertEqual(ran, [], "the caller runs it")
        completion?()
        XCTAssertEqual(ran, ["b"])
        XCTAssertEqual(scene.applied.count, 1)
        XCTAssertTrue(scene.applied.first === b)
        XCTAssertFalse(swap.isWaiting)
        XCTAssertNil(swap.apply(to: scene))
    }
}
