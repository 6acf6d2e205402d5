import XCTest
@testable import ModalKitWaylandClient

/// wl_surface.frame pacing, the xdg-shell ack → commit rule, and idleness (hidden windows get no
/// frame callbacks, so nothing is drawn on a timer: docs/design.md, rules from the field, 7).
final class FramePacingTests: XCTestCase {
    typealias Rect = PixelRect
    private let full = Rect(x: 0, y: 0, width: 200, height: 100)

    /// A pacer past its first configure and first frame, idle.
    private func idlePacer() -> FramePacing {
        var pacing = FramePacing()
        pacing.configureAcked(sizeChanged: true)
        pacing.willDraw()
        XCTAssertEqual(pacing.drawn(damage: [full], width: 200, height: 100), .commit(damage: [full], requestFrame: true))
        pacing.frameDone()
        return pacing
    }

    func testNothingIsDrawnBeforeTheFirstConfigure() {
        var pacing = FramePacing()
        pacing.setNeedsRedraw()
        XCTAssertFalse(pacing.shouldDraw)
        pacing.configureAcked(sizeChanged: true)
        XCTAssertTrue(pacing.shouldDraw)
    }

    func testFirstFrameDamagesEverythingAndRequestsACallback() {
        var pacing = FramePacing()
        pacing.configureAcked(sizeChanged: true)
        pacing.willDraw()
        XCTAssertEqual(pacing.drawn(damage: [Rect(x: 1, y: 1, width: 2, height: 2)], width: 200, height: 100),
                       .commit(damage: [full], requestFrame: true))
        XCTAssertTrue(pacing.frameCallbackPending)
    }

    func testIdleWindowDrawsNothingAndRequestsNothing() {
        let pacing = idlePacer()
        XCTAssertFalse(pacing.shouldDraw)
        XCTAssertFalse(pacing.frameCallbackPending, "no callback outstanding while nothing changes")
    }

    func testRedrawWaitsForThePendingFrameCallback() {
        var pacing = idlePacer()
        pacing.setNeedsRedraw()
        XCTAssertTrue(pacing.shouldDraw, "no callback pending: draw now")
        pacing.willDraw()
        XCTAssertEqual(pacing.drawn(damage: [Rect(x: 10, y: 10, width: 5, height: 5)], width: 200, height: 100),
                       .commit(damage: [Rect(x: 10, y: 10, width: 5, height: 5)], requestFrame: true))
        pacing.setNeedsRedraw()
        XCTAssertFalse(pacing.shouldDraw, "parked until done")
        pacing.frameDone()
        XCTAssertTrue(pacing.shouldDraw)
    }

    func testRedrawRequestedDuringDrawIsKept() {
        var pacing = idlePacer()
        pacing.setNeedsRedraw()
        pacing.willDraw()
        pacing.setNeedsRedraw()   // the delegate animates
        _ = pacing.drawn(damage: [full], width: 200, height: 100)
        XCTAssertTrue(pacing.needsRedraw)
        pacing.frameDone()
        XCTAssertTrue(pacing.shouldDraw)
    }

    func testEmptyDamageIsNotCommitted() {
        var pacing = idlePacer()
        pacing.setNeedsRedraw()
        pacing.willDraw()
        XCTAssertEqual(pacing.drawn(damage: [], width: 200, height: 100), .discard)
        XCTAssertFalse(pacing.frameCallbackPending)
        XCTAssertFalse(pacing.shouldDraw)
    }

    func testDamageOutsideTheBufferCountsAsEmpty() {
        var pacing = idlePacer()
        pacing.setNeedsRedraw()
        pacing.willDraw()
        XCTAssertEqual(pacing.drawn(damage: [Rect(x: 300, y: 0, width: 10, height: 10), Rect(x: 0, y: 0, width: 0, height: 5)],
                                      width: 200, height: 100), .discard)
    }

    func testEmptyDamageWhileStillAnimatingKeepsThePaceWithABareCommit() {
        var pacing = idlePacer()
        pacing.setNeedsRedraw()
        pacing.willDraw()
        pacing.setNeedsRedraw()
        XCTAssertEqual(pacing.drawn(damage: [], width: 200, height: 100), .commitFrameRequest)
        XCTAssertTrue(pacing.frameCallbackPending)
        XCTAssertFalse(pacing.shouldDraw, "no spinning: wait for done")
    }

    func testConfigureAckCommitsAtOnceEvenWithACallbackPending() {
        var pacing = idlePacer()
        pacing.setNeedsRedraw()
        pacing.willDraw()
        _ = pacing.drawn(damage: [full], width: 200, height: 100)   // callback pending now
        pacing.configureAcked(sizeChanged: true)
        XCTAssertTrue(pacing.shouldDraw, "a hidden window never gets done: the ack cannot wait for it")
        pacing.willDraw()
        let resized = Rect(x: 0, y: 0, width: 300, height: 150)
        XCTAssertEqual(pacing.drawn(damage: [], width: 300, height: 150),
                       .commit(damage: [resized], requestFrame: false), "buffer of the acked size, fully damaged; one callback at a time")
        XCTAssertFalse(pacing.shouldDraw)
    }

    func testStateOnlyConfigureStillCommitsWithTheDelegatesDamage() {
        var pacing = idlePacer()
        pacing.configureAcked(sizeChanged: false)
        pacing.willDraw()
        let focusRing = Rect(x: 5, y: 5, width: 20, height: 20)
        XCTAssertEqual(pacing.drawn(damage: [focusRing], width: 200, height: 100),
                       .commit(damage: [focusRing], requestFrame: true))
    }

    func testScaleChangeForcesAFullFrame() {
        var pacing = idlePacer()
        pacing.scaleChanged()
        XCTAssertTrue(pacing.shouldDraw)
        pacing.willDraw()
        XCTAssertEqual(pacing.drawn(damage: [Rect(x: 0, y: 0, width: 1, height: 1)], width: 400, height: 200),
                       .commit(damage: [Rect(x: 0, y: 0, width: 400, height: 200)], requestFrame: true))
    }

    func testScaleChangeBeforeConfigureWaitsForIt() {
        var pacing = FramePacing()
        pacing.scaleChanged()
        XCTAssertFalse(pacing.shouldDraw)
    }

    func testDamageIsClippedToTheBuffer() {
        var pacing = idlePacer()
        pacing.setNeedsRedraw()
        pacing.willDraw()
        XCTAssertEqual(pacing.drawn(damage: [Rect(x: -10, y: 90, width: 30, height: 50)], width: 200, height: 100),
                       .commit(damage: [Rect(x: 0, y: 90, width: 20, height: 10)], requestFrame: true))
    }
}

/// Sub-surface frames (`didCompose`): a changed layer is committed (the parent's commit applies
/// the synchronized sub-surfaces' state) with a frame callback unless one is pending; no change
/// behaves as an empty draw.
final class FramePacingComposeTests: XCTestCase {
    private func configured() -> FramePacing {
        var p = FramePacing()
        p.configureAcked(sizeChanged: true)
        p.willDraw()
        var d = [PixelRect(x: 0, y: 0, width: 10, height: 10)]
        _ = p.didDraw(damage: &d, width: 10, height: 10)
        p.frameDone()
        return p
    }

    func testChangedLayersCommitWithAFrameCallback() {
        var p = configured()
        p.setNeedsRedraw()
        XCTAssertTrue(p.shouldDraw)
        p.willDraw()
        XCTAssertEqual(p.didCompose(layersChanged: true), .commitLayers(requestFrame: true))
        XCTAssertFalse(p.shouldDraw, "the next frame waits for the callback")
        p.setNeedsRedraw()
        p.frameDone()
        p.willDraw()
        XCTAssertEqual(p.didCompose(layersChanged: true), .commitLayers(requestFrame: true))
    }

    func testNothingChangedIsAnEmptyDraw() {
        var p = configured()
        p.setNeedsRedraw()
        p.willDraw()
        XCTAssertEqual(p.didCompose(layersChanged: false), .discard, "nothing changed and no next frame wanted")
        p.setNeedsRedraw()
        p.willDraw()
        p.setNeedsRedraw()   // the delegate wants the next frame (animating) without a change
        XCTAssertEqual(p.didCompose(layersChanged: false), .commitFrameRequest)
    }
}

/// `FramePacing.didDraw` with the damage it leaves in place folded into the result, so that each
/// assertion states the whole outcome of a draw.
private enum Drawn: Equatable {
    case discard, commitFrameRequest
    case commit(damage: [PixelRect], requestFrame: Bool)
}

private extension FramePacing {
    mutating func drawn(damage: [PixelRect], width: Int, height: Int) -> Drawn {
        var damage = damage
        switch didDraw(damage: &damage, width: width, height: height) {
        case .discard: return .discard
        case .commitFrameRequest: return .commitFrameRequest
        case let .commit(requestFrame): return .commit(damage: damage, requestFrame: requestFrame)
        case .commitLayers: XCTFail("didDraw never commits layers alone"); return .discard
        }
    }
}
