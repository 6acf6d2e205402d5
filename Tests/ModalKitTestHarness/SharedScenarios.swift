// Scenario bodies that run the same under several compositors: each compositor's test gives its
// own input and close, the checks are one.
import Foundation
import ModalKitSession
import XCTest

extension CompositorTestCase {
    /// One round of the "close after a present/dismiss cycle" tests (sway, mutter, KWin): `click`
    /// on Present gives `presenting` then `presented`, and every frame of the transition says
    /// `backend=<frameBackend>`; `escape` gives `dismissed`; `close` (the compositor's
    /// xdg_toplevel.close) ends the release modal-demo with status 0.
    /// - Returns: false when an event did not come (the failure is recorded; the caller stops).
    @discardableResult
    public func presentDismissThenClose(_ demo: DemoProcess, label: String, frameBackend: String,
                                        click: () throws -> Void, escape: () throws -> Void, close: () throws -> Void,
                                        closedBy: String, file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        var mark = demo.mark()
        try click()
        expectEvent(demo, "presenting", since: mark, "\(label): click on Present", file: file, line: line)
        guard expectEvent(demo, "presented", since: mark, "\(label)", file: file, line: line) != nil else { return false }
        let lines = demo.stdoutLines
        let transition = lines[(lines.lastIndex(of: "presenting") ?? lines.count)...]
        let frames = transition.prefix { $0 != "presented" }.filter { DemoProcess.firstWord($0) == "frame" }
        XCTAssertFalse(frames.isEmpty, "\(label): transition frames", file: file, line: line)
        XCTAssertTrue(frames.allSatisfy { $0.split(separator: " ").contains("backend=\(frameBackend)") },
                      "\(label): frames by \(frameBackend): \(frames.prefix(3))", file: file, line: line)
        mark = demo.mark()
        try escape()
        guard expectEvent(demo, "dismissed", since: mark, "\(label): Escape", file: file, line: line) != nil else { return false }
        try close()
        XCTAssertEqual(demo.waitForExit(timeout: eventTimeout), .exited(0),
                       "\(label): \(closedBy) ends the release modal-demo with status 0\n\(demo.diagnostics())", file: file, line: line)
        return true
    }
}

/// The `scroll OFFSET TOP` lines of `modal-demo --content list --log-events` (the list's offset and
/// the sheet's top edge, points), for the scroll tests under sway and KWin.
extension DemoProcess {
    /// The offset and top of a `scroll OFFSET TOP` line; nil for another line.
    public static func parseScroll(_ line: String?) -> (offset: Double, top: Double)? {
        guard let parts = line?.split(separator: " "), parts.count == 3, parts[0] == "scroll",
              let o = Double(parts[1]), let t = Double(parts[2]) else { return nil }
        return (o, t)
    }

    /// Waits (at most `timeout` s) until no `scroll` line came for `quiet` seconds; the last one
    /// since line `mark`.
    public func lastScroll(since mark: Int, quiet: Double = 0.6, timeout: Double = 10) -> (offset: Double, top: Double)? {
        var count = -1, still = monotonicNow()
        _ = waitUntil(timeout: timeout, interval: 0.05) {
            let n = events("scroll", since: mark).count
            if n != count { count = n; still = monotonicNow() }
            return monotonicNow() - still >= quiet
        }
        return DemoProcess.parseScroll(events("scroll", since: mark).last)
    }
}
