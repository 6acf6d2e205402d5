// The fake XDG Desktop Portal of Fixtures/fake_portal.py on a private session bus, for the
// reduced-motion tests.
import Foundation
import ModalKitSession
#if canImport(Glibc)
import Glibc
#endif

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
