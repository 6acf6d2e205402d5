// What the sessions of compositors that bring their own desktop session (mutter, KWin) start
// with: their private directory, their one stop path, and their own session bus.
import Foundation

/// A 0700 directory of the current user that is the session's XDG_RUNTIME_DIR and HOME, the
/// session's stop path (``SessionTeardown``: everything started through ``start(_:environment:name:writableStandardInput:stopTimeout:)``
/// is stopped by PID, newest first, then the directory is removed), and the session's own
/// `dbus-daemon` in that directory (``PrivateSessionBus``: nothing is activated behind the
/// harness's back).
final class PrivateDesktop {
    let directory: String
    let teardown: SessionTeardown
    /// Held: releasing it stops dbus-daemon; stopped by PID with the rest.
    let bus: PrivateSessionBus
    /// The environment of the session's processes: `sessionProcessEnvironment` of the directory
    /// with the caller's variables and DBUS_SESSION_BUS_ADDRESS.
    let environment: [String: String]

    /// Makes the directory, runs `prepare` in it (configuration files, a helper built), then
    /// starts the bus.
    /// - Parameters:
    ///   - prefix: the directory's name prefix under `SessionUser.directoryBase`.
    ///   - variables: the session's variables besides PATH, HOME, XDG_RUNTIME_DIR, LANG and the
    ///     bus address, given the directory.
    /// - Throws: `HarnessError` (the directory removed) when `prepare` fails or the bus does not
    ///   start within `timeout` seconds.
    init(prefix: String, timeout: Double, variables: (String) -> [String: String] = { _ in [:] },
         prepare: (String) throws -> Void = { _ in }) throws {
        let me = SessionUser(name: "self", uid: getuid(), gid: getgid())
        let dir = try me.makePrivateDirectory(prefix: prefix)
        let teardown = SessionTeardown(removing: dir)
        let base = sessionProcessEnvironment(dir, variables(dir))
        do {
            try prepare(dir)
        } catch {
            teardown.run()
            throw HarnessError("cannot prepare the session in \(dir): \(error)")
        }
        do {
            bus = try PrivateSessionBus(in: dir, environment: base, timeout: timeout)
        } catch {
            teardown.run()
            throw error
        }
        teardown.add(bus.process)
        directory = dir
        self.teardown = teardown
        environment = base.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 }
    }

    /// Starts `arguments` in the session (with ``environment`` unless given) and adds it to the
    /// stop path (SIGTERM, `stopTimeout` seconds, SIGKILL).
    /// - Throws: `HarnessError` when it cannot be started.
    func start(_ arguments: [String], environment: [String: String]? = nil, name: String? = nil,
               writableStandardInput: Bool = false, stopTimeout: Double = 3) throws -> ChildProcess {
        let child = try ChildProcess(arguments, environment: environment ?? self.environment, name: name,
                                     writableStandardInput: writableStandardInput)
        teardown.add(child, timeout: stopTimeout)
        return child
    }

    /// Stops what the session started, newest first, by PID, and removes the directory (once).
    func stop() { teardown.run() }
}
