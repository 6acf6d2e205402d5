import CModalKitStyle
import Glibc
import ModalKitStyle
import ModalKitSystemSupport

/// Where the host reports values from plugin code that it had to repair: one line per plugin,
/// function and kind of problem, the first time it happens (a broken plugin would otherwise fill
/// stderr at the frame rate). Default: standard error, prefixed with the program's name.
public enum PluginDiagnostics {
    private static let lock = Lock()
    nonisolated(unsafe) private static var sink: (String) -> Void = { line in
        writeToStandardError(programName + ": " + line + "\n")
    }
    nonisolated(unsafe) private static var reported = Set<String>()

    /// Replaces where the lines go (tests); returns the previous sink.
    @discardableResult
    public static func setSink(_ new: @escaping (String) -> Void) -> (String) -> Void {
        lock.lock(); defer { lock.unlock() }
        let old = sink
        sink = new
        return old
    }

    /// Reports one line about something a plugin did to the host (each time it happens).
    static func note(_ line: String) {
        lock.lock()
        let out = sink
        lock.unlock()
        out(line)
    }

    /// Reports `issues` found in what `function` of the plugin at `path` (style `name`) returned,
    /// unless that plugin file, function and kind of problem were reported before. Called only
    /// when something was wrong, so a good plugin costs nothing here.
    static func report(_ issues: BoundaryIssues, function: StaticString, style name: String, path: String) {
        lock.lock()
        var fresh: BoundaryIssues = []
        for bit in 0..<32 {
            let one = BoundaryIssues(rawValue: 1 << UInt32(bit))
            guard issues.contains(one) else { continue }
            if reported.insert("\(path)\u{0}\(function)\u{0}\(bit)").inserted { fresh.insert(one) }
        }
        let out = sink
        lock.unlock()
        guard !fresh.isEmpty else { return }
        out("style '\(name)' (\(path)): \(function) returned \(fresh.explanation); reported once")
    }
}
