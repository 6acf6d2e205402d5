// A private D-Bus session bus: dbus-daemon with its own config and socket.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `dbus-daemon --config-file=DIR/bus.conf --nofork --print-address`, listening only on
/// `unix:path=DIR/bus`, by default with no service directories (nothing is ever activated: a name
/// nobody owns stays unknown) and a policy that lets every connection own and call anything. The
/// reduced-motion tests run one on its own; the mutter and KWin sessions run one in their session
/// directory; the accessibility tests one that activates the system's session services
/// (at-spi2-core's accessibility bus).
public final class PrivateSessionBus {
    public let directory: String
    public let process: ChildProcess
    /// The address printed by dbus-daemon (`unix:path=…,guid=…`), for DBUS_SESSION_BUS_ADDRESS.
    public let address: String
    /// Whether `directory` was made for the bus (and goes with it) or belongs to the caller.
    private let ownsDirectory: Bool
    private var stopped = false

    /// - Parameters:
    ///   - directory: where the socket and config go; nil makes a private directory of its own,
    ///     removed by `stop()`. A given directory is the caller's to remove.
    ///   - environment: dbus-daemon's environment (default: the harness's, without a bus address),
    ///     which activated services inherit.
    ///   - activatesServices: start the services of the standard session service directories on
    ///     demand (`<standard_session_servicedirs/>`), as a desktop's session bus does.
    ///   - user: runs dbus-daemon as that user (a session's `SessionUser`, whose processes are its
    ///     only clients); nil: the current user. A given `directory` must be that user's.
    /// - Throws: `HarnessError` when dbus-daemon does not start or prints no address in `timeout` s.
    public init(in directory: String? = nil, environment: [String: String]? = nil, activatesServices: Bool = false,
                user: SessionUser? = nil, timeout: Double = 10) throws {
        let owner = user ?? SessionUser(name: "self", uid: getuid(), gid: getgid())
        let dir = try directory ?? owner.makePrivateDirectory(prefix: "modalkit-bus")
        self.directory = dir
        ownsDirectory = directory == nil
        let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(dir)/bus</listen>
          <auth>EXTERNAL</auth>\(activatesServices ? "\n  <standard_session_servicedirs/>" : "")
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
        do {
            try config.write(toFile: dir + "/bus.conf", atomically: false, encoding: .utf8)
            process = try ChildProcess(owner.command(["dbus-daemon", "--config-file=\(dir)/bus.conf", "--nofork", "--nopidfile",
                                                      "--print-address"]),
                                       environment: environment ?? harnessEnvironment(["DBUS_SESSION_BUS_ADDRESS": nil]),
                                       name: "dbus-daemon")
        } catch {
            if directory == nil { removeTree(dir) }
            throw error
        }
        let printed = process.stdout.wait(timeout: timeout) { lines in lines.first { $0.hasPrefix("unix:") } }
        guard let printed else {
            let diagnostics = process.diagnostics()
            process.stop(timeout: 2)
            if directory == nil { removeTree(dir) }
            throw HarnessError("dbus-daemon printed no address within \(timeout) s:\n\(diagnostics)")
        }
        address = printed.trimmingCharacters(in: .whitespaces)
    }

    /// Stops dbus-daemon (by PID) and removes its own directory. Safe to call more than once.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        process.stop(timeout: 2)
        if ownsDirectory { removeTree(directory) }
    }

    deinit { stop() }
}
