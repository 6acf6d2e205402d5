import Glibc
import ModalKitSystemSupport
import XCTest

/// ProcessEnvironment's lock between the threads that read the environment and the one change
/// ModalKit makes (AT_SPI_BUS_ADDRESS while the accessibility bridge starts): a change waits for
/// a reader that is running, and a reader for a change. Each wait is bounded (2 s).
final class EnvironmentLockTests: XCTestCase {
    private final class Flags: @unchecked Sendable {
        var mutex = pthread_mutex_t()
        var events: [String] = []
        init() { pthread_mutex_init(&mutex, nil) }
        func add(_ e: String) { pthread_mutex_lock(&mutex); events.append(e); pthread_mutex_unlock(&mutex) }
        var all: [String] { pthread_mutex_lock(&mutex); defer { pthread_mutex_unlock(&mutex) }; return events }
    }

    /// Runs `body` on a new thread; returns a function that joins it.
    private func thread(_ body: @escaping @Sendable () -> Void) -> () -> Void {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        var t = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        XCTAssertEqual(pthread_create(&t, nil, { p in
            let box = Unmanaged<Box>.fromOpaque(p!).takeRetainedValue()
            box.body()
            return nil
        }, box), 0)
        return { pthread_join(t, nil) }
    }

    private func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<200 where !condition() { usleep(10_000) }
        return condition()
    }

    func testAChangeWaitsForTheReaderRunning() {
        let flags = Flags()
        let release = Flags()
        let join = thread {
            ProcessEnvironment.reading {
                flags.add("read-begin")
                for _ in 0..<200 where !release.all.contains("go") { usleep(10_000) }
                flags.add("read-end")
            }
        }
        XCTAssertTrue(waitUntil { flags.all.contains("read-begin") })
        let joinWriter = thread { ProcessEnvironment.changing { flags.add("change") } }
        usleep(100_000)
        XCTAssertEqual(flags.all, ["read-begin"], "the change waits while the reader runs")
        release.add("go")
        join()
        joinWriter()
        XCTAssertEqual(flags.all, ["read-begin", "read-end", "change"])
    }

    func testAReaderWaitsForTheChangeRunningAndReadersRunTogether() {
        let flags = Flags()
        let release = Flags()
        let joinWriter = thread {
            ProcessEnvironment.changing {
                flags.add("change-begin")
                for _ in 0..<200 where !release.all.contains("go") { usleep(10_000) }
                flags.add("change-end")
            }
        }
        XCTAssertTrue(waitUntil { flags.all.contains("change-begin") })
        let joinReader = thread { ProcessEnvironment.reading { flags.add("read") } }
        usleep(100_000)
        XCTAssertEqual(flags.all, ["change-begin"], "the reader waits while the change runs")
        release.add("go")
        joinWriter()
        joinReader()
        XCTAssertEqual(flags.all, ["change-begin", "change-end", "read"])

        // Two readers at once: the second enters while the first is inside.
        let inside = Flags()
        ProcessEnvironment.reading {
            let join = thread { ProcessEnvironment.reading { inside.add("second") } }
            XCTAssertTrue(waitUntil { inside.all == ["second"] }, "a reader does not wait for another")
            join()
        }
    }
}
