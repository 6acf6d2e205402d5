import Foundation
import Glibc
import ModalKitDesktopSettings
import XCTest
@testable import ModalKitATK

/// Finding the accessibility bus without waiting (``AccessibilityBusFollower``): a bus that cannot
/// be reached is answered from the loop, never from inside the call; an accessibility bus that
/// accepts and never answers is reported once after the follower's timeout and nothing else
/// happens — no callback, no blocking call, the loop free.
final class BusFollowerTests: XCTestCase {
    func testASessionBusThatCannotBeReachedHasNoAccessibilityBus() {
        // Refused at once (no socket there, not an address): answered from the loop's next
        // iteration, with nothing to poll.
        for address in ["unix:path=/nonexistent-modalkit/bus", "not an address"] {
            let loop = IdleLoop(), timers = ManualTimers()
            let follower = AccessibilityBusFollower(sessionBus: address, loop: loop, timers: timers)
            var missing = 0
            follower.onMissing = { missing += 1 }
            follower.onFound = { XCTFail("found \($0)") }
            follower.begin()
            XCTAssertEqual(missing, 0, "\(address): not from inside begin()")
            timers.fire(after: 0)
            XCTAssertEqual(missing, 1, address)
            XCTAssertEqual(loop.live.count, 0, "\(address): nothing to poll")
            follower.close()
        }
    }

    /// `AT_SPI_BUS_ADDRESS` naming a socket that accepts and never answers (a hung bus daemon):
    /// the follower connects and asks on the loop, and after 5 s reports it once; it neither
    /// finds nor gives up on the bus (a late answer would still be taken).
    func testAnAccessibilityBusThatNeverAnswersIsReportedOnceAfterTheTimeout() throws {
        let server = try SilentSocket()
        defer { server.close() }
        let loop = IdleLoop(), timers = ManualTimers()
        let follower = AccessibilityBusFollower(accessibilityBus: server.address, loop: loop, timers: timers)
        var slow: [String] = []
        follower.onSlow = { slow.append($0) }
        follower.onFound = { XCTFail("found \($0)") }
        follower.onMissing = { XCTFail("missing") }
        follower.begin()
        XCTAssertEqual(loop.live.count, 0, "nothing connected inside begin()")
        timers.fire(after: 0)
        XCTAssertEqual(Set(loop.live.values).count, 1, "one socket, polled by the loop")
        XCTAssertEqual(timers.pending, [AccessibilityBusFollower.timeout])
        XCTAssertEqual(AccessibilityBusFollower.timeout, 5)
        timers.fire(after: 5)
        XCTAssertEqual(slow, ["the accessibility bus at \(server.address) did not answer within 5 s"])
        XCTAssertEqual(timers.pending, [], "reported once")
        XCTAssertEqual(Set(loop.live.values).count, 1, "the connection stays, for a late answer")
        follower.close()
        XCTAssertEqual(loop.live.count, 0, "closing removes the watch")
        XCTAssertEqual(slow.count, 1)
    }

    /// A session bus that accepts and never answers `org.a11y.Bus.GetAddress`: waited for
    /// silently (a hung session bus is the desktop's, and the desktop settings say nothing of it
    /// either), on the loop, with nothing scheduled.
    func testASessionBusThatNeverAnswersIsWaitedForSilently() throws {
        let server = try SilentSocket()
        defer { server.close() }
        let loop = IdleLoop(), timers = ManualTimers()
        let follower = AccessibilityBusFollower(sessionBus: server.address, loop: loop, timers: timers)
        follower.onSlow = { XCTFail("reported: \($0)") }
        follower.onMissing = { XCTFail("missing") }
        follower.begin()
        XCTAssertEqual(Set(loop.live.values).count, 1, "the session bus's socket, polled by the loop")
        XCTAssertEqual(timers.pending, [])
        follower.close()
        XCTAssertEqual(loop.live.count, 0)
    }
}

/// Timers the test fires by hand.
private final class ManualTimers: LoopTimers {
    private var entries: [(seconds: Double, work: () -> Void, live: Bool)] = []
    var pending: [Double] { entries.filter(\.live).map(\.seconds) }

    func run(after seconds: Double, _ work: @escaping () -> Void) -> () -> Void {
        entries.append((seconds, work, true))
        let i = entries.count - 1
        return { [weak self] in self?.entries[i].live = false }
    }

    /// Runs every live timer of `seconds`, in order (each once).
    func fire(after seconds: Double) {
        for i in entries.indices where entries[i].live && entries[i].seconds == seconds {
            entries[i].live = false
            entries[i].work()
        }
    }
}

/// A loop that is never run: it records the watches libdbus adds and removes.
private final class IdleLoop: PollLoop {
    var next = 0
    var live: [Int: Int32] = [:]
    func addWatch(fd: Int32, readable: Bool, writable: Bool, onReady: @escaping (PollReadiness) -> Void) -> Int {
        next += 1
        live[next] = fd
        return next
    }
    func updateWatch(_ id: Int, readable: Bool, writable: Bool) {}
    func removeWatch(_ id: Int) { live[id] = nil }
}

/// A listening Unix socket that never accepts, reads or writes: connecting succeeds (the kernel's
/// backlog), and nothing is ever answered.
private final class SilentSocket {
    let address: String
    private let directory: String
    private let path: String
    private let fd: Int32

    init() throws {
        var template = Array("\(NSTemporaryDirectory())/silentbus-XXXXXX".utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        path = directory + "/bus"
        address = "unix:path=" + path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &sa.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(fd, 4), 0)
    }

    func close() {
        Glibc.close(fd)
        unlink(path)
        rmdir(directory)
    }
}
