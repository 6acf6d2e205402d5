// CPU load for race-prone end states: busy loops that compete with the compositor and the client
// for the machine's cores, as on a busy desktop (`yes > /dev/null`, one per loop), started by the
// test and stopped by their PIDs.
import Foundation
import ModalKitSession
#if canImport(Glibc)
import Glibc
#endif

/// `count` busy loops (`yes > /dev/null`), each a child process whose PID is `yes`'s own (the
/// shell `exec`s it), running until ``stop()`` (or deinit).
public final class CPULoad {
    public let processes: [ChildProcess]
    private var stopped = false

    /// Starts `count` busy loops at the test's own priority.
    /// - Throws: `HarnessError` when a loop cannot be started (the ones started are stopped).
    public init(count: Int = 2) throws {
        var started: [ChildProcess] = []
        do {
            for i in 0..<count {
                started.append(try ChildProcess(["/bin/sh", "-c", "exec yes > /dev/null"], environment: harnessEnvironment([:]),
                                                name: "busy-loop-\(i + 1)"))
            }
        } catch {
            for p in started { p.stop(timeout: 1) }
            throw error
        }
        processes = started
    }

    deinit { stop() }

    /// Stops every loop (by its PID); idempotent.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        for p in processes { p.stop(timeout: 1) }
    }
}

extension CompositorTestCase {
    /// Two busy loops (``CPULoad``) for the rest of the test: stopped at tear-down (before the
    /// compositors and clients started earlier, which tear down after it), or earlier by `stop()`.
    public func startCPULoad(count: Int = 2) throws -> CPULoad {
        let load = try CPULoad(count: count)
        addTeardownBlock { load.stop() }
        return load
    }
}
