import Glibc
import XCTest
@testable import ModalKitWaylandClient

/// The loop's event sources (``EventLoopSource``): descriptors merged into the loop's one `poll`,
/// the shortest wait, what `poll` reported handed back to each source, one `dispatch` per `prepare`.
final class EventSourceSetTests: XCTestCase {
    /// A source that polls the descriptors and asks for the wait it is given, and records calls.
    final class Recorder: EventLoopSource {
        var descriptors: [PollDescriptor]
        var wait: Double?
        var log: [String] = []
        var dispatched: [[PollDescriptor]] = []
        var onPrepare: () -> Void = {}
        var onDispatch: () -> Void = {}
        init(_ name: String, fds: [(Int32, FDEvents)] = [], wait: Double? = nil, log: Log) {
            descriptors = fds.map { PollDescriptor(fd: $0.0, events: $0.1) }
            self.wait = wait
            self.name = name
            self.shared = log
        }
        let name: String
        let shared: Log
        func prepare(_ out: inout [PollDescriptor]) -> Double? {
            XCTAssertTrue(out.isEmpty, "descriptors arrive empty")
            shared.lines.append("prepare \(name)")
            out.append(contentsOf: descriptors)
            onPrepare()
            return wait
        }
        func dispatch(_ descriptors: [PollDescriptor]) {
            shared.lines.append("dispatch \(name)")
            dispatched.append(descriptors)
            onDispatch()
        }
    }
    final class Log { var lines: [String] = [] }

    private func pipePair() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        addTeardownBlock { close(fds[0]); close(fds[1]) }
        return (fds[0], fds[1])
    }

    func testTheShortestWaitRoundedUpToWholeMillisecondsIsThePollTimeout() {
        let log = Log()
        let set = EventSourceSet()
        var fds: [pollfd] = []
        XCTAssertEqual(set.prepare(appendingTo: &fds), -1, "no source: no limit")
        set.dispatch(fds)
        set.add(Recorder("a", wait: nil, log: log))
        XCTAssertEqual(set.prepare(appendingTo: &fds), -1, "no source asks for a limit")
        set.dispatch(fds)
        set.add(Recorder("b", wait: 0.25, log: log))
        set.add(Recorder("c", wait: 0.0003, log: log))
        XCTAssertEqual(set.prepare(appendingTo: &fds), 1, "0.3 ms waits 1 ms, not 0 (no busy loop)")
        set.dispatch(fds)
        XCTAssertEqual(EventSourceSet.milliseconds(0.007), 7, "a whole millisecond count stays whole")
        XCTAssertEqual(EventSourceSet.milliseconds(0.25), 250)
        XCTAssertEqual(EventSourceSet.milliseconds(0.0071), 8)
        XCTAssertEqual(EventSourceSet.milliseconds(0), 0)
        XCTAssertEqual(EventSourceSet.milliseconds(-3), 0)
        XCTAssertEqual(EventSourceSet.milliseconds(.infinity), Int32.max)
        XCTAssertEqual(EventSourceSet.milliseconds(1e12), Int32.max)
        XCTAssertEqual(EventSourceSet.merge(-1, 5), 5)
        XCTAssertEqual(EventSourceSet.merge(5, -1), 5)
        XCTAssertEqual(EventSourceSet.merge(0, 5), 0)
    }

    func testEachSourceGetsWhatPollReportedForItsOwnDescriptors() {
        let log = Log()
        let quiet = pipePair(), busy = pipePair()
        XCTAssertEqual(write(busy.write, "x", 1), 1)
        let set = EventSourceSet()
        let a = Recorder("a", fds: [(quiet.read, .readable)], log: log)
        let b = Recorder("b", fds: [(quiet.read, .readable), (busy.read, .readable), (busy.write, .writable)], log: log)
        set.add(a)
        set.add(b)
        // The loop's own entry first (the display), as in WaylandConnection.run().
        var fds = [pollfd(fd: quiet.write, events: 0, revents: 0)]
        let timeout = set.prepare(appendingTo: &fds)
        XCTAssertEqual(fds.count, 5)
        XCTAssertEqual(fds.map(\.fd), [quiet.write, quiet.read, quiet.read, busy.read, busy.write])
        XCTAssertEqual(poll(&fds, nfds_t(fds.count), timeout), 2)
        set.dispatch(fds)
        XCTAssertEqual(log.lines, ["prepare a", "prepare b", "dispatch a", "dispatch b"])
        XCTAssertEqual(a.dispatched.first?.map(\.ready), [[]])
        XCTAssertEqual(b.dispatched.first?.map(\.ready), [[], .readable, .writable])
        XCTAssertEqual(b.dispatched.first?.map(\.fd), [quiet.read, busy.read, busy.write])
    }

    func testAnInterruptedSleepDispatchesEverySourceWithNothingReady() {
        let log = Log()
        let p = pipePair()
        XCTAssertEqual(write(p.write, "x", 1), 1)
        let set = EventSourceSet()
        let a = Recorder("a", fds: [(p.read, .readable)], log: log)
        set.add(a)
        var fds: [pollfd] = []
        _ = set.prepare(appendingTo: &fds)
        set.dispatch(nil)
        XCTAssertEqual(a.dispatched.map { $0.map(\.ready) }, [[[]]])
    }

    func testSourcesAddedOrRemovedWhileTheSetRuns() {
        let log = Log()
        let set = EventSourceSet()
        let a = Recorder("a", log: log), b = Recorder("b", log: log), c = Recorder("c", log: log)
        set.add(a)
        set.add(b)
        set.add(a)   // twice: once
        XCTAssertEqual(set.count, 2)
        // a adds c while preparing: c starts with the next iteration. a removes b while
        // dispatching: b, prepared, is not dispatched.
        a.onPrepare = { set.add(c); a.onPrepare = {} }
        a.onDispatch = { set.remove(b); a.onDispatch = {} }
        var fds: [pollfd] = []
        _ = set.prepare(appendingTo: &fds)
        set.dispatch(fds)
        XCTAssertEqual(log.lines, ["prepare a", "prepare b", "dispatch a"])
        log.lines.removeAll()
        _ = set.prepare(appendingTo: &fds)
        set.dispatch(fds)
        XCTAssertEqual(log.lines, ["prepare a", "prepare c", "dispatch a", "dispatch c"])
        set.remove(c)
        set.remove(c)   // twice: nothing
        XCTAssertEqual(set.count, 1)
    }
}
