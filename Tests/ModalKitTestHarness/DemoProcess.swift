// The installed `modal-demo`, run as a real client of a harness compositor, with its --log-events
// lines (docs/design.md, command line) collected so tests wait on events instead of sleeping.
import Foundation
import ModalKitSession
#if canImport(Glibc)
import Glibc
#endif

/// `modal-demo` as users install it (``InstalledProducts``: the release build in the prefix
/// `scripts/test` installs, which finds the built-in styles in `PREFIX/lib/modalkit/styles`),
/// stdout and stderr collected.
///
/// Event lines are matched by their first word: `configure 800x600`, `presenting`, `presented`,
/// `dismissing`, `dismissed`, `activated`, `frame …`, and `presented N TIME` as `presented-time`.
public final class DemoProcess {
    /// - Throws: `HarnessError` when no installed prefix is named (``InstalledProducts/prefix()``).
    public static var executablePath: String { get throws { try InstalledProducts.demo() } }

    public let process: ChildProcess
    public var pid: pid_t { process.pid }

    /// Starts modal-demo with `arguments` in `environment` (normally a session's `clientEnvironment`).
    /// - Throws: `HarnessError` when there is no installed modal-demo (or `executable` is not one).
    public init(_ arguments: [String], environment: [String: String], executable: String? = nil) throws {
        let path = try executable ?? DemoProcess.executablePath
        guard access(path, X_OK) == 0 else { throw HarnessError("\(path) is not an executable") }
        process = try ChildProcess([path] + arguments, environment: environment)
    }

    /// Starts modal-demo as a client of `session`.
    public convenience init(_ arguments: [String], in session: WaylandSession) throws {
        try self.init(arguments, environment: session.clientEnvironment)
    }

    deinit { process.stop(timeout: 2) }

    public var stdoutLines: [String] { process.stdout.lines }
    public var stderrLines: [String] { process.stderr.lines }

    /// The number of stdout lines so far: pass it as `since` to wait only for later events.
    public func mark() -> Int { process.stdout.lines.count }

    /// Stdout lines from index `since` on whose first word is `word`.
    public func events(_ word: String, since: Int = 0) -> [String] {
        process.stdout.lines.dropFirst(since).filter { DemoProcess.firstWord($0) == word }
    }

    /// Waits (bounded) for a stdout line at index ≥ `since` whose first word is `word`; returns it.
    @discardableResult
    public func waitForLine(_ word: String, since: Int = 0, timeout: Double) -> String? {
        process.stdout.wait(timeout: timeout) { lines in
            lines.dropFirst(since).first { DemoProcess.firstWord($0) == word }
        }
    }

    /// Waits (bounded) until `count` lines with first word `word` exist at index ≥ `since`.
    public func waitForLines(_ word: String, count: Int, since: Int = 0, timeout: Double) -> Bool {
        process.stdout.wait(timeout: timeout) { lines in
            lines.dropFirst(since).filter { DemoProcess.firstWord($0) == word }.count >= count ? true : nil
        } ?? false
    }

    /// The size of the last `configure WxH` line, if any.
    public var lastConfigureSize: (width: Int, height: Int)? {
        guard let line = events("configure").last else { return nil }
        return DemoProcess.parseSize(line)
    }

    /// Parses the `WxH` second word of a `configure WxH` line.
    public static func parseSize(_ line: String) -> (width: Int, height: Int)? {
        let words = line.split(separator: " ")
        guard words.count >= 2 else { return nil }
        let parts = words[1].split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        return (w, h)
    }

    /// The event word of a line: its first word, except that a presentation-feedback line
    /// `presented N TIME` is `presented-time` (the bare `presented`, or `presented 2` of level 2, is
    /// the state event).
    public static func firstWord(_ line: String) -> Substring {
        let word = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true).first ?? ""
        if word == "presented", line.split(separator: " ").count == 3 { return "presented-time" }
        return word
    }

    /// Waits at most `timeout` seconds for the demo to end.
    public func waitForExit(timeout: Double) -> ExitStatus? { process.waitForExit(timeout: timeout) }

    /// Waits (bounded) until the demo's last `configure` is `configure WIDTHxHEIGHT` and a `frame`
    /// followed it: it drew at that size. Returns whether it did within `timeout` seconds.
    public func waitUntilDrawn(width: Int, height: Int, timeout: Double) -> Bool {
        waitUntil(timeout: timeout, interval: 0.05) {
            let lines = stdoutLines
            guard let c = lines.lastIndex(where: { DemoProcess.firstWord($0) == "configure" }) else { return false }
            return lines[c] == "configure \(width)x\(height)" && lines[(c + 1)...].contains { DemoProcess.firstWord($0) == "frame" }
        }
    }

    public var isRunning: Bool { process.isRunning }

    /// After the demo ended: waits (bounded) until both pipes are drained, so the line lists are final.
    public func drainOutput() {
        process.stdout.waitForEnd(timeout: 3)
        process.stderr.waitForEnd(timeout: 3)
    }

    /// Stops the demo (SIGTERM, bounded wait, SIGKILL).
    @discardableResult
    public func stop() -> ExitStatus? { process.stop(timeout: 2) }

    /// stdout and stderr for failure messages.
    public func diagnostics() -> String { process.diagnostics(maxLines: 40) }
}
