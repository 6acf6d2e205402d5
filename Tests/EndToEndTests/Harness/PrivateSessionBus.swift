// A private D-Bus session bus (dbus-daemon with its own config, socket and directory) and the fake
// XDG Desktop Portal of Fixtures/fake_portal.py on it, for the reduced-motion tests.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `dbus-daemon --config-file=DIR/bus.conf --nofork --print-address`, listening only on
/// `unix:path=DIR/bus`, with no service directories (nothing is ever activated: a name nobody owns
/// stays unknown) and a policy that lets every connection own and call anything.
final class PrivateSessionBus {
    let directory: String
    let process: ChildProcess
    /// The address printed by dbus-daemon (`unix:path=…,guid=…`), for DBUS_SESSION_BUS_ADDRESS.
    let address: String
    private var stopped = false

    init(timeout: Double = 10) throws {
        directory = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-bus")
        let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(directory)/bus</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
        do {
            try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
            process = try ChildProcess(["dbus-daemon", "--config-file=\(directory)/bus.conf", "--nofork", "--print-address"],
                                       environment: harnessEnvironment(["DBUS_SESSION_BUS_ADDRESS": nil]))
        } catch {
            removeTree(directory)
            throw error
        }
        let printed = process.stdout.wait(timeout: timeout) { lines in lines.first { $0.hasPrefix("unix:") } }
        guard let printed else {
            process.stop(timeout: 2)
            removeTree(directory)
            throw HarnessError("dbus-daemon printed no address within \(timeout) s:\n\(process.diagnostics())")
        }
        address = printed.trimmingCharacters(in: .whitespaces)
    }

    /// Stops dbus-daemon (by PID) and removes its directory. Safe to call more than once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process.stop(timeout: 2)
        removeTree(directory)
    }

    deinit { stop() }
}

/// Fixtures/fake_portal.py on a `PrivateSessionBus`: org.freedesktop.portal.Desktop with
/// org.freedesktop.portal.Settings, and `set` to change a value (which emits SettingChanged).
final class FakePortal {
    static var script: String { PluginTestSupport.packageRoot + "/Tests/EndToEndTests/Fixtures/fake_portal.py" }
    /// Debian's python3, where python3-dbus and python3-gi are installed (a python3 earlier on
    /// PATH, e.g. from pyenv, may lack them).
    static var python: String { access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3" }

    let process: ChildProcess
    let bus: PrivateSessionBus

    /// Starts the portal with `arguments` (see the script) and waits until it owns its name.
    init(_ arguments: [String], on bus: PrivateSessionBus, timeout: Double = 15) throws {
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
    var calls: [String] { process.stdout.lines.filter { $0.hasPrefix("call ") } }

    /// Stores `value` (a dbus-send typed value, e.g. `boolean:true`, `double:0`) and emits
    /// SettingChanged, through `dbus-send` to the test interface.
    func set(_ namespace: String, _ key: String, _ value: String) throws {
        let r = try ChildProcess.run(["dbus-send", "--bus=\(bus.address)", "--print-reply",
                                      "--dest=org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                      "org.modalkit.test.FakePortal.Set", "string:\(namespace)", "string:\(key)",
                                      "variant:\(value)"],
                                     environment: harnessEnvironment([:]), timeout: 10)
        guard r.status == .exited(0) else { throw HarnessError("dbus-send Set failed (\(r.status)): \(r.stderr)") }
    }

    func stop() { process.stop(timeout: 2) }
}
