// The one stop path of every session (sway, weston, mutter, KWin, the VNC seat): what it started,
// stopped once, newest first, by PID; then its runtime directory removed.
import Foundation

/// What a session started, in start order, and its runtime directory. `run()` stops each (newest
/// first: the driver before the compositor, the compositor before its bus) and removes the
/// directory, once, whoever calls it first: `stop()`, `deinit`, or a start that failed half-way.
/// Thread-safe.
public final class SessionTeardown {
    private let lock = NSLock()
    private var steps: [() -> Void] = []
    private var ran = false
    private let directory: String?

    /// - Parameter directory: removed (with everything in it) after the last step; nil for none.
    public init(removing directory: String?) { self.directory = directory }

    /// Adds a step, run before every step added earlier.
    public func add(_ step: @escaping () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        steps.append(step)
    }

    /// Adds stopping `child` by PID (SIGTERM, `timeout` seconds, SIGKILL; `ChildProcess.stop`).
    public func add(_ child: ChildProcess, timeout: Double = 3) {
        add { child.stop(timeout: timeout) }
    }

    /// Whether `run()` was called.
    public var hasRun: Bool { lock.lock(); defer { lock.unlock() }; return ran }

    /// Runs the steps newest first and removes the directory; later calls do nothing.
    public func run() {
        lock.lock()
        guard !ran else { lock.unlock(); return }
        ran = true
        let toRun = steps
        steps = []
        lock.unlock()
        for step in toRun.reversed() { step() }
        if let directory { removeTree(directory) }
    }
}
