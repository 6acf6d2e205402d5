// An input method in a headless sway: fcitx5 on a session bus of its own, talking
// input-method-v2 and virtual-keyboard to sway; clients reach it through text-input-v3.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// fcitx5 in a `HeadlessSway`, run as the compositor's user with a private configuration
/// (`XDG_CONFIG_HOME` in a directory of its own, never `~`) that has two input methods in one
/// group, `keyboard-us` and `inputMethod` (`pinyin` from fcitx5-pinyin, or `anthy`), and
/// Control+space to switch between them; on its own `PrivateSessionBus` (fcitx5's control
/// interface, which `fcitx5-remote` uses). Keys from the session's VNC seat reach fcitx5's keyboard
/// grab while a text-input-v3 client is focused. sway 1.7 shows no input-method popup, so
/// screenshots show the client's preedit, not a candidate window. Only one input method per seat.
public final class SessionInputMethod {
    /// The directory of the configuration, the bus and fcitx5's HOME (removed by `stop()`).
    public let directory: String
    public let bus: PrivateSessionBus
    public let process: ChildProcess
    private let user: SessionUser
    private let teardown: SessionTeardown

    /// Writes fcitx5's profile and configuration into `config` (its `XDG_CONFIG_HOME/fcitx5`,
    /// made if missing): one group of `keyboard-us` and `inputMethod`, Control+space to switch,
    /// `ActiveByDefault` as given, the input state shared by all clients. Also what a test that
    /// has another process start fcitx5 (KWin, with `--inputmethod` or kwinrc) gives it.
    /// - Throws: the file system's error when a file cannot be written.
    public static func writeConfiguration(into config: String, inputMethod: String, activeByDefault: Bool) throws {
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try """
        [Groups/0]
        Name=Default
        Default Layout=us
        DefaultIM=\(inputMethod)

        [Groups/0/Items/0]
        Name=keyboard-us
        Layout=

        [Groups/0/Items/1]
        Name=\(inputMethod)
        Layout=

        [GroupOrder]
        0=Default

        """.write(toFile: config + "/profile", atomically: false, encoding: .utf8)
        try """
        [Hotkey/TriggerKeys]
        0=Control+space

        [Behavior]
        ActiveByDefault=\(activeByDefault ? "True" : "False")
        ShareInputState=All

        """.write(toFile: config + "/config", atomically: false, encoding: .utf8)
    }

    /// Starts the bus and fcitx5 and waits (bounded) until fcitx5 has connected to the
    /// compositor (its `waylandim` addon loaded) and answers on the bus.
    /// - Parameters:
    ///   - inputMethod: the second input method of the group (`pinyin`, `anthy`, …).
    ///   - activeByDefault: fcitx5's `ActiveByDefault`: a new text field starts in `inputMethod`
    ///     (true) or in `keyboard-us` (false; Control+space switches).
    /// - Throws: `HarnessError` when fcitx5 or dbus-daemon is missing or does not come up within
    ///   `timeout` seconds.
    public init(in sway: HeadlessSway, inputMethod: String = "pinyin", activeByDefault: Bool = true, timeout: Double = 20) throws {
        user = sway.user
        directory = try user.makePrivateDirectory(prefix: "modalkit-im")
        let teardown = SessionTeardown(removing: directory)
        self.teardown = teardown
        let config = directory + "/config/fcitx5"
        do {
            try Self.writeConfiguration(into: config, inputMethod: inputMethod, activeByDefault: activeByDefault)
            for path in [directory + "/config", config, config + "/profile", config + "/config"] {
                _ = chown(path, user.uid, user.gid)
            }
        } catch {
            teardown.run()
            throw HarnessError("cannot write fcitx5's configuration in \(config): \(error)")
        }
        let environment = sessionProcessEnvironment(sway.runtimeDirectory, ["HOME": directory, "XDG_CONFIG_HOME": directory + "/config",
                                                                            "WAYLAND_DISPLAY": sway.displayName])
        do {
            bus = try PrivateSessionBus(in: directory, environment: environment, user: user, timeout: timeout)
        } catch {
            teardown.run()
            throw error
        }
        teardown.add { [bus] in bus.stop() }
        var env = environment
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        do {
            process = try ChildProcess(user.command(["fcitx5", "--verbose=*=4"]), environment: env, name: "fcitx5")
        } catch {
            teardown.run()
            throw error
        }
        teardown.add(process)
        let fcitx = process
        let loaded = waitUntil(timeout: timeout, interval: 0.05) {
            !fcitx.isRunning || (fcitx.stderr.lines + fcitx.stdout.lines).contains { $0.contains("Loaded addon waylandim") }
        }
        guard loaded, fcitx.isRunning else {
            let output = fcitx.diagnostics()
            teardown.run()
            throw HarnessError("fcitx5 did not connect to the session within \(timeout) s:\n\(output)")
        }
        var answer: String?
        let answers = waitUntil(timeout: timeout, interval: 0.1) {
            answer = try? self.remote([])
            return answer != nil || !fcitx.isRunning
        }
        guard answers, answer != nil else {
            let output = fcitx.diagnostics()
            teardown.run()
            throw HarnessError("fcitx5 does not answer fcitx5-remote on its bus within \(timeout) s:\n\(output)")
        }
    }

    deinit { stop() }

    /// Runs `fcitx5-remote ARGS` on fcitx5's bus (bounded) and returns its output, trimmed.
    /// - Throws: `HarnessError` when it fails (fcitx5 not on the bus).
    @discardableResult
    public func remote(_ arguments: [String], timeout: Double = 5) throws -> String {
        var env = harnessEnvironment(["DBUS_SESSION_BUS_ADDRESS": bus.address])
        env["HOME"] = directory
        let r = try ChildProcess.run(user.command(["fcitx5-remote"] + arguments), environment: env, timeout: timeout)
        let out = String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard r.status == .exited(0) else {
            throw HarnessError("fcitx5-remote \(arguments.joined(separator: " ")) failed (\(r.status)): \(out) \(r.stderr)")
        }
        return out
    }

    /// fcitx5's state for the focused text field (`fcitx5-remote`): 0 none focused, 1 inactive
    /// (`keyboard-us`), 2 active (the input method).
    public func state() throws -> Int {
        let text = try remote([])
        guard let value = Int(text) else { throw HarnessError("fcitx5-remote printed '\(text)'") }
        return value
    }

    /// The current input method's name (`fcitx5-remote -n`: `keyboard-us`, `pinyin`, …).
    public func currentInputMethod() throws -> String { try remote(["-n"]) }

    /// Stops fcitx5 and its bus by PID and removes the directory.
    public func stop() { teardown.run() }
}
