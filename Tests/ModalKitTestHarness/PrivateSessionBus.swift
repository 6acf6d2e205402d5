// A private D-Bus session bus (dbus-daemon with its own config and socket), and the fake XDG Desktop
// Portal of Fixtures/fake_portal.py on it for the reduced-motion tests.
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
    /// - Throws: `HarnessError` when dbus-daemon does not start or prints no address in `timeout` s.
    public init(in directory: String? = nil, environment: [String: String]? = nil, activatesServices: Bool = false,
         timeout: Double = 10) throws {
        let dir = try directory ?? SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-bus")
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
            process = try ChildProcess(["dbus-daemon", "--config-file=\(dir)/bus.conf", "--nofork", "--nopidfile",
                                        "--print-address"],
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

/// Fixtures/fake_portal.py on a `PrivateSessionBus`: org.freedesktop.portal.Desktop with
/// org.freedesktop.portal.Settings, and `set` to change a value (which emits SettingChanged).
public final class FakePortal {
    public static var script: String { PluginTestSupport.packageRoot + "/Tests/ModalKitTestHarness/Fixtures/fake_portal.py" }
    /// Debian's python3, where python3-dbus and python3-gi are installed (a python3 earlier on
    /// PATH, e.g. from pyenv, may lack them).
    public static var python: String { access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3" }

    public let process: ChildProcess
    public let bus: PrivateSessionBus

    /// Starts the portal with `arguments` (see the script) and waits until it owns its name.
    public init(_ arguments: [String], on bus: PrivateSessionBus, timeout: Double = 15) throws {
        self.bus = bus
        process = try ChildProcess([FakePortal.python, FakePortal.script] + arguments,
                                   environment: harnessEnvironment(["DBUS_SESSION_BUS_ADDRESS": bus.address]),
                                   name: "fake_portal")
        guard process.stdout.wait(timeout: timeout, { $0.contains("ready") ? true : nil }) == true else {
            let d = process.diagnostics()
            process.stop(timeout: 2)
            throw HarnessError("the fake portal did not start within \(timeout) s:\n\(d)")
        }
    }

    /// The methods called so far, as the script logs them (`call ReadOne NAMESPACE KEY` …).
    public var calls: [String] { process.stdout.lines.filter { $0.hasPrefix("call ") } }

    /// The calls logged once every one of `expected` is among them, or at `timeout` s whatever
    /// has been read. The script logs a call before it replies, but the line reaches this
    /// process through a pipe and a reader thread, so a caller that has its answer may still be
    /// ahead of the log: assertions about calls wait for them here.
    public func calls(including expected: Set<String>, timeout: Double = 5) -> [String] {
        _ = process.stdout.wait(timeout: timeout) { lines in
            expected.isSubset(of: lines.filter { $0.hasPrefix("call ") }) ? true : nil
        }
        return calls
    }

    /// Stores `value` (a dbus-send typed value, e.g. `boolean:true`, `double:0`) and emits
    /// SettingChanged, through `dbus-send` to the test interface.
    public func set(_ namespace: String, _ key: String, _ value: String) throws {
        let r = try ChildProcess.run(["dbus-send", "--bus=\(bus.address)", "--print-reply",
                                      "--dest=org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                      "org.modalkit.test.FakePortal.Set", "string:\(namespace)", "string:\(key)",
                                      "variant:\(value)"],
                                     environment: harnessEnvironment([:]), timeout: 10)
        guard r.status == .exited(0) else { throw HarnessError("dbus-send Set failed (\(r.status)): \(r.stderr)") }
    }

    public func stop() { process.stop(timeout: 2) }
}
