// `modal-demo pinentry` live under headless sway with real keys (wayvnc + vncdo): a scripted
// Assuan session on its stdin answered on its stdout line for line as pinentry 1.2 answers, and
// gpg itself (a test GNUPGHOME whose gpg-agent.conf names a wrapper as pinentry-program)
// encrypting and decrypting with a passphrase typed into the alert.
import Foundation
import ModalKitTestHarness
import XCTest

final class PinentrySwayTests: CompositorTestCase {
    /// Starts `modal-demo pinentry --log-events` (its prompts' `presented`/`dismissed` on stderr).
    private func startPinentry(_ sway: HeadlessSway, environment extra: [String: String] = [:]) throws -> ChildProcess {
        let child = try ChildProcess([try InstalledProducts.demo(), "pinentry", "--log-events"],
                                     environment: sway.clientEnvironment.merging(extra) { $1 }, writableStandardInput: true)
        addTeardownBlock { child.stop() }
        return child
    }

    /// Waits until `child` wrote `count` stdout lines; returns them.
    private func lines(_ child: ChildProcess, count: Int) -> [String] {
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) { child.stdout.lines.count >= count }
        return child.stdout.lines
    }

    /// Waits for the `n`-th (from 1) `presented` line on `child`'s stderr.
    private func waitForPrompt(_ child: ChildProcess, _ n: Int, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let shown = waitUntil(timeout: eventTimeout, interval: 0.05) { child.stderr.lines.filter { $0 == "presented" }.count >= n }
        if !shown { XCTFail("prompt \(n) not presented; stderr: \(child.stderr.lines)", file: file, line: line) }
        return shown
    }

    func testAScriptedSessionIsAnsweredAsPinentryAnswers() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let pinentry = try startPinentry(sway)
        try pinentry.writeToStandardInput("""
            # gpg-agent's first lines
            OPTION ttyname=/dev/pts/0
            OPTION no-such-option
            GETINFO flavor
            SETTITLE Unlock%20key
            SETDESC Please enter the passphrase%0Afor “alice”
            SETPROMPT Passphrase:
            SETERROR Bad passphrase (try 2 of 3)
            GETPIN

            """)
        guard waitForPrompt(pinentry, 1) else { return }
        try vnc.send(["key", "h", "key", "U", "key", "n", "key", "%", "key", "2", "key", "enter"])
        let expected = ["OK Pleased to meet you", "OK", "ERR 83886254 Unknown option <Pinentry>", "D modalkit", "OK",
                        "OK", "OK", "OK", "OK", "D hUn%252", "OK"]
        XCTAssertEqual(lines(pinentry, count: expected.count), expected)

        // SETREPEAT: a mismatch is refused and both entries asked again.
        try pinentry.writeToStandardInput("SETREPEAT Repeat:\nSETREPEATERROR Does not match\nGETPIN\n")
        guard waitForPrompt(pinentry, 2) else { return }
        try vnc.send(["key", "a", "key", "b", "key", "enter"])
        guard waitForPrompt(pinentry, 3) else { return }
        try vnc.send(["key", "a", "key", "c", "key", "enter"])
        guard waitForPrompt(pinentry, 4) else { return }
        try vnc.send(["key", "x", "key", "y", "key", "enter"])
        guard waitForPrompt(pinentry, 5) else { return }
        try vnc.send(["key", "x", "key", "y", "key", "enter"])
        let repeated = expected + ["OK", "OK", "S PIN_REPEATED", "D xy", "OK"]
        XCTAssertEqual(lines(pinentry, count: repeated.count), repeated)

        // Escape cancels GETPIN and CONFIRM; MESSAGE's OK; BYE ends with status 0.
        try pinentry.writeToStandardInput("SETREPEAT\nGETPIN\n")
        guard waitForPrompt(pinentry, 6) else { return }
        try vnc.key("esc")
        try pinentry.writeToStandardInput("CONFIRM\n")
        guard waitForPrompt(pinentry, 7) else { return }
        try vnc.key("esc")
        try pinentry.writeToStandardInput("MESSAGE\n")
        guard waitForPrompt(pinentry, 8) else { return }
        try vnc.key("enter")
        try pinentry.writeToStandardInput("BYE\n")
        let all = repeated + ["OK", "ERR 83886179 Operation cancelled <Pinentry>", "ERR 83886179 Operation cancelled <Pinentry>",
                              "OK", "OK closing connection"]
        XCTAssertEqual(lines(pinentry, count: all.count), all)
        XCTAssertEqual(pinentry.waitForExit(timeout: eventTimeout), .exited(0))
        XCTAssertTrue(pinentry.stderr.waitForEnd(timeout: eventTimeout), "stderr still open")   // all of it read
        XCTAssertFalse(pinentry.stderr.lines.joined().contains("hUn"), "the passphrase is never on stderr")
    }

    /// SETTIMEOUT N: a GETPIN or CONFIRM unanswered for N seconds is answered as pinentry answers
    /// a timeout, `ERR 83886142 Timeout <Pinentry>` (GPG_ERR_TIMEOUT from the Pinentry source),
    /// and the conversation goes on; a key typed into the field stops the timeout (pinentry-gtk-2's
    /// and -curses' rule), so that prompt waits for its answer. The three prompts are shown on one
    /// compositor connection: libwayland's client log (WAYLAND_DEBUG=client) has one
    /// `wl_display.get_registry`, the first request of a connection.
    func testSetTimeoutAnswersTimeout() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let pinentry = try startPinentry(sway, environment: ["WAYLAND_DEBUG": "client"])
        let started = monotonicNow()
        try pinentry.writeToStandardInput("SETTIMEOUT 1\nGETPIN\nCONFIRM\n")
        // As pinentry-curses 1.2.1 answers (its flavour in the status line: curses).
        let timeout = ["S ERROR modalkit.? 83886142 ", "ERR 83886142 Timeout <Pinentry>"]
        let timedOut = ["OK Pleased to meet you", "OK"] + timeout + timeout
        XCTAssertEqual(lines(pinentry, count: timedOut.count), timedOut, pinentry.diagnostics(maxLines: 20))
        XCTAssertGreaterThanOrEqual(monotonicNow() - started, 2, "two prompts of 1 s each")

        // Typed into before its 3 s: no timeout; answered 4 s later.
        let shown = pinentry.stderr.lines.filter { $0 == "presented" }.count
        try pinentry.writeToStandardInput("SETTIMEOUT 3\nGETPIN\n")
        guard waitForPrompt(pinentry, shown + 1) else { return }
        try vnc.send(["key", "k"])
        let typed = monotonicNow()
        _ = waitUntil(timeout: 4, interval: 0.1) { pinentry.stdout.lines.count > timedOut.count + 1 }
        XCTAssertGreaterThanOrEqual(monotonicNow() - typed, 4, "no answer while the prompt waits")
        try vnc.key("enter")
        let answered = timedOut + ["OK", "D k", "OK"]
        XCTAssertEqual(lines(pinentry, count: answered.count), answered)
        try pinentry.writeToStandardInput("BYE\n")
        XCTAssertEqual(pinentry.waitForExit(timeout: eventTimeout), .exited(0))
        XCTAssertTrue(pinentry.stderr.waitForEnd(timeout: eventTimeout), "stderr still open")
        XCTAssertEqual(pinentry.stderr.lines.filter { $0.contains("-> wl_display@1.get_registry(") }.count, 1,
                       "one connection for the whole session")
    }

    func testGpgEncryptsAndDecryptsWithAPassphraseTypedIntoTheAlert() throws {
        guard let gpg = findExecutable("gpg"), let gpgconf = findExecutable("gpgconf") else { throw XCTSkip("gpg is not installed") }
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let home = try PluginTestSupport.temporaryDirectory(self, "gpg")
        chmod(home, 0o700)
        let env = sway.clientEnvironment
        let wrapper = home + "/pinentry-modalkit"
        let log = home + "/pinentry.log"
        try """
            #!/bin/sh
            WAYLAND_DISPLAY='\(env["WAYLAND_DISPLAY"] ?? "")' XDG_RUNTIME_DIR='\(env["XDG_RUNTIME_DIR"] ?? "")' \\
              exec '\(try InstalledProducts.demo())' pinentry --log-events 2>>'\(log)'

            """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        try "pinentry-program \(wrapper)\nno-allow-loopback-pinentry\n".write(toFile: home + "/gpg-agent.conf", atomically: true, encoding: .utf8)
        try "attack at dawn\n".write(toFile: home + "/plain.txt", atomically: true, encoding: .utf8)
        var gpgEnv = env
        gpgEnv["GNUPGHOME"] = home
        addTeardownBlock {
            // The agent gpg started: told to stop, then its PID (if it still runs) terminated.
            let pidQuery = try? ChildProcess([findExecutable("gpg-connect-agent") ?? "gpg-connect-agent", "--no-autostart", "GETINFO pid", "/bye"],
                                             environment: gpgEnv)
            _ = pidQuery?.waitForExit(timeout: 5)
            let agentPID = pidQuery?.stdout.lines.first { $0.hasPrefix("D ") }.flatMap { pid_t($0.dropFirst(2)) }
            let kill = try? ChildProcess([gpgconf, "--kill", "gpg-agent"], environment: gpgEnv)
            _ = kill?.waitForExit(timeout: 5)
            if let agentPID, agentPID > 0, Glibc.kill(agentPID, 0) == 0 { Glibc.kill(agentPID, SIGTERM) }
        }
        func prompts() -> Int {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0 == "presented" }.count
        }
        func type(_ keys: [String], atPrompt n: Int) throws {
            guard waitUntil(timeout: eventTimeout, interval: 0.05, { prompts() >= n }) else {
                throw HarnessError("gpg's prompt \(n) was not presented; pinentry log: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            try vnc.send(keys.flatMap { ["key", $0] } + ["key", "enter"])
        }

        // Long enough, with digits, for gpg-agent's default passphrase constraints (8 characters,
        // one not a letter), so that no "insecure passphrase" confirmation comes between.
        let passphrase = Array("s3cRetpassw0rd").map(String.init)
        let encrypt = try ChildProcess([gpg, "--batch", "--pinentry-mode", "ask", "--symmetric", "--cipher-algo", "AES256",
                                        "--output", home + "/secret.gpg", home + "/plain.txt"], environment: gpgEnv)
        addTeardownBlock { encrypt.stop() }
        try type(passphrase, atPrompt: 1)
        try type(passphrase, atPrompt: 2)   // SETREPEAT's second entry
        XCTAssertEqual(encrypt.waitForExit(timeout: 30), .exited(0), encrypt.diagnostics(maxLines: 20))

        let decrypt = try ChildProcess([gpg, "--batch", "--pinentry-mode", "ask", "--no-symkey-cache", "--decrypt",
                                        home + "/secret.gpg"], environment: gpgEnv)
        addTeardownBlock { decrypt.stop() }
        try type(passphrase, atPrompt: 3)
        XCTAssertEqual(decrypt.waitForExit(timeout: 30), .exited(0), decrypt.diagnostics(maxLines: 20))
        // The exit can be seen before the reader thread has taken the last line from the pipe (a
        // flaky empty output under load): read stdout once it is at its end (bounded).
        XCTAssertTrue(decrypt.stdout.waitForEnd(timeout: eventTimeout), "gpg's stdout still open")
        XCTAssertEqual(decrypt.stdout.lines, ["attack at dawn"])
        XCTAssertFalse(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("s3cRet"))
    }
}
