// The session's clipboard through wl-clipboard: wl-copy offers text, wl-paste reads it, as any
// client of the session would (wlr-data-control: no window or focus needed; sway and KWin offer it).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `wl-copy` and `wl-paste` against one session. A copy is a `wl-copy --foreground` the clipboard
/// holds by PID while it serves the selection (wl-copy ends by itself when another client takes
/// the selection); `stop()` (and `deinit`) stops it.
public final class SessionClipboard {
    private let environment: [String: String]
    private let user: SessionUser?
    /// The wl-copy serving the clipboard (false) and the primary selection (true).
    private var serving: [Bool: ChildProcess] = [:]

    /// - Parameters:
    ///   - session: the compositor whose clipboard this is.
    ///   - user: runs wl-copy and wl-paste as that user (`HeadlessSway.user`); nil: the current one.
    public init(session: WaylandSession, user: SessionUser? = nil) {
        var env = session.clientEnvironment
        if let user, !user.isCurrentUser { env["HOME"] = session.runtimeDirectory }
        environment = env
        self.user = user
    }

    deinit { stop() }

    private func command(_ arguments: [String]) -> [String] { user?.command(arguments) ?? arguments }

    /// Offers `text` (UTF-8, `text/plain;charset=utf-8` and the usual aliases) as the clipboard, or
    /// the primary selection, and waits (bounded) until `wl-paste` reads it back.
    /// - Throws: `HarnessError` when wl-copy is missing or ends, or the text does not arrive within
    ///   `timeout` seconds.
    public func copy(_ text: String, primary: Bool = false, timeout: Double = 5) throws {
        serving[primary]?.stop()
        serving[primary] = nil
        let copier = try ChildProcess(command(["wl-copy", "--foreground"] + (primary ? ["--primary"] : []) + ["--", text]),
                                      environment: environment, name: "wl-copy")
        serving[primary] = copier
        var last: String?
        let arrived = waitUntil(timeout: timeout, interval: 0.05) {
            guard copier.isRunning else { return true }
            last = try? paste(primary: primary)
            return last == text
        }
        guard arrived, copier.isRunning else {
            let why = copier.isRunning ? "wl-paste read \(last.map { "'\($0)'" } ?? "nothing") after \(timeout) s" : "wl-copy ended"
            copier.stop()
            serving[primary] = nil
            throw HarnessError("cannot copy to the \(primary ? "primary selection" : "clipboard") (\(why)):\n\(copier.diagnostics())")
        }
    }

    /// The text of the clipboard, or of the primary selection, as it is (`wl-paste --no-newline`);
    /// nil when there is none (`No selection`).
    /// - Throws: `HarnessError` when wl-paste is missing, fails otherwise or hangs.
    public func paste(primary: Bool = false, timeout: Double = 5) throws -> String? {
        let r = try ChildProcess.run(command(["wl-paste", "--no-newline"] + (primary ? ["--primary"] : [])),
                                     environment: environment, timeout: timeout)
        if r.status == .exited(0) { return String(decoding: r.stdout, as: UTF8.self) }
        if r.stderr.contains("No selection") || r.stderr.contains("Nothing is copied") { return nil }
        throw HarnessError("wl-paste failed (\(r.status)): \(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    /// Whether a wl-copy of ours still serves the clipboard (false: another client took it).
    public func isServing(primary: Bool = false) -> Bool { serving[primary]?.isRunning ?? false }

    /// Stops every wl-copy of ours (by PID).
    public func stop() {
        for (_, copier) in serving { copier.stop() }
        serving = [:]
    }
}
