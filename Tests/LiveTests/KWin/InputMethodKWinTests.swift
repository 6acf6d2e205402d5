// fcitx5 (pinyin) as KWin's own input method, typing into modal-demo's form over text-input-v3,
// under a private headless KWin 5.27. KWin starts its input method itself and gives only that
// process input-method-v1 (on the connection it hands it), so fcitx5 must be KWin's child: the
// test names it as KWin's input method in kwinrc (`[Wayland] InputMethod`, a desktop file, what
// System Settings' Virtual Keyboard page writes) and tells KWin the setting changed as KConfig
// does (the `org.kde.kconfig.notify.ConfigChanged` signal on /kwinrc); KWin then starts it.
// Keys come from KWin's fake-input seat (Linux input codes) once fcitx5 has the field's input
// context active (`fcitx5-remote` = 2): n i h a o (a preedit), space → the commit 你好.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class InputMethodKWinTests: CompositorTestCase {
    /// The environment of process `pid` (/proc/PID/environ).
    private func environment(of pid: pid_t) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return [:] }
        var env: [String: String] = [:]
        for entry in data.split(separator: 0) {
            let s = String(decoding: entry, as: UTF8.self)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
        }
        return env
    }

    func testFcitx5PinyinTypesNihaoIntoTheForm() throws {
        try requireProgram("fcitx5", "fcitx5-remote", "gdbus")
        guard FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/fcitx5/libpinyin.so")
            || FileManager.default.fileExists(atPath: "/usr/lib/fcitx5/libpinyin.so") else {
            throw XCTSkip("fcitx5-pinyin is not installed")
        }
        let kwin = try startKWin()
        let config = try XCTUnwrap(environment(of: kwin.process.pid)["XDG_CONFIG_HOME"], "KWin's XDG_CONFIG_HOME")
        let dir = kwin.runtimeDirectory
        try SessionInputMethod.writeConfiguration(into: config + "/fcitx5", inputMethod: "pinyin", activeByDefault: true)
        // The input method's command: fcitx5, its log and PID in the session directory.
        let log = dir + "/fcitx5.log", pidFile = dir + "/fcitx5.pid"
        let wrapper = dir + "/input-method.sh"
        try "#!/bin/sh\necho $$ > \(pidFile)\nexec fcitx5 --verbose='*=4' >>\(log) 2>&1\n"
            .write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        addTeardownBlock {
            // KWin stops its input method when it stops; should fcitx5 outlive it, end it by its PID.
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
               kill(pid, 0) == 0, !waitUntil(timeout: 3, interval: 0.05, { kill(pid, 0) != 0 }) {
                kill(pid, SIGTERM)
            }
        }
        try "[Desktop Entry]\nType=Application\nName=fcitx5 (test)\nExec=\(wrapper)\n"
            .write(toFile: dir + "/input-method.desktop", atomically: true, encoding: .utf8)
        let kwinrc = ((try? String(contentsOfFile: config + "/kwinrc", encoding: .utf8)) ?? "")
            + "\n[Wayland]\nInputMethod=\(dir)/input-method.desktop\nVirtualKeyboardEnabled=true\n"
        try kwinrc.write(toFile: config + "/kwinrc", atomically: true, encoding: .utf8)
        // KConfig's change notification: the group and the changed keys (as byte arrays, no NUL).
        func bytes(_ key: String) -> String { "[byte " + key.utf8.map { String($0) }.joined(separator: ", ") + "]" }
        var env = kwin.clientEnvironment
        env["DBUS_SESSION_BUS_ADDRESS"] = kwin.busAddress
        let emit = try ChildProcess.run(["gdbus", "emit", "--session", "--object-path", "/kwinrc", "--signal",
                                         "org.kde.kconfig.notify.ConfigChanged",
                                         "{'Wayland': [\(bytes("InputMethod")), \(bytes("VirtualKeyboardEnabled"))]}"],
                                        environment: env, timeout: 10)
        XCTAssertEqual(emit.status, .exited(0), emit.stderr)
        func fcitxLog() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        guard waitUntil(timeout: eventTimeout, interval: 0.1, { fcitxLog().contains("Loaded addon waylandim") }) else {
            return XCTFail("KWin did not start fcitx5 as its input method:\n\(fcitxLog())\n\(kwin.process.diagnostics())")
        }

        let demo = try startDemo(["--content", "form", "--size", "600x500", "--log-events"], environment: kwin.clientEnvironment)
        guard demo.waitForLine("configure", timeout: eventTimeout) != nil else {
            return XCTFail("modal-demo logged no `configure`:\n\(demo.diagnostics())")
        }
        _ = try kwin.waitForWindow(pid: demo.pid, width: 600, height: 500, timeout: eventTimeout)
        func key(_ code: Int) throws {
            try kwin.driver.command("key \(code) down")
            try kwin.driver.command("key \(code) up")
        }
        var mark = demo.mark()
        try key(28)   // Return: present the form
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        // Type once fcitx5 has the field's input context focused and active (`fcitx5-remote` on
        // its bus, KWin's: 2), its pinyin engine loaded: keys sent earlier reach the field as
        // plain keys.
        var state = ""
        let active = waitUntil(timeout: eventTimeout, interval: 0.1) {
            state = (try? ChildProcess.run(["fcitx5-remote"], environment: env, timeout: 5))
                .map { String(decoding: $0.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
            return state == "2" && fcitxLog().contains("Loaded addon pinyin")
        }
        guard active else { return XCTFail("fcitx5 did not activate the field (fcitx5-remote: '\(state)'):\n\(fcitxLog())") }
        mark = demo.mark()
        for code in [49, 23, 35, 30, 24] { try key(code) }   // n i h a o
        // The preedit shows while composing, then space commits the first candidate.
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) { !demo.events("preedit", since: mark).isEmpty },
                      "no preedit while composing: \(demo.events("text", since: mark))")
        try key(57)
        let line = "text \"你好\""
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) { demo.events("text", since: mark).contains(line) },
                      "fcitx5's commit: \(demo.events("text", since: mark)) \(demo.events("preedit", since: mark))\n\(fcitxLog().suffix(3000))")
    }
}
