// The example packages in Examples/, built as their own SwiftPM packages, once per test process,
// into one scratch directory in this checkout's build directory (reused by later runs: incremental
// builds; nothing in /tmp).
import Foundation

public enum ExamplePackages {
    private static let lock = NSLock()
    private static var built: [String: Result<String, PluginTestFailure>] = [:]

    /// `Examples/HostApp` built `swift build -c release` (as an app ships): the path of its
    /// `host-app` executable. CommandTests builds it (ExampleBuildTests), in `scripts/test`'s
    /// stream of tests without a compositor; HostAppExampleTests runs it under sway and finds the
    /// build done, or waits for it.
    /// - Throws: ``PluginTestFailure`` with the build's output when it fails.
    public static func hostAppExecutable() throws -> String {
        try product(package: "HostApp", file: "host-app")
    }

    /// `Examples/<package>` built `swift build -c release` once per test process: the path of the
    /// product `file` it makes (an executable's name, or a library's `lib<Name>.so`). The examples
    /// share one scratch directory: ModalKit's own modules are compiled once for all of them.
    /// - Throws: ``PluginTestFailure`` with the build's output when it fails or makes no `file`.
    public static func product(package: String, file: String) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let done = built[package] { return try done.get() }
        let scratch = PluginTestSupport.cacheDirectory + "/host-app-example"
        let result: Result<String, PluginTestFailure>
        do {
            // The scratch directory is shared by the examples and by the test processes
            // `scripts/test` runs side by side: one SwiftPM at a time builds in it (SwiftPM's own
            // build database cannot be opened by two builds at once).
            let run = try PluginTestSupport.holdingLock(scratch + ".lock", timeout: 1500, what: "swift build of Examples/\(package)") {
                try PluginTestSupport.run("/usr/bin/env", ["swift", "build", "-c", "release", "--package-path",
                                                           PluginTestSupport.packageRoot + "/Examples/" + package,
                                                           "--scratch-path", scratch],
                                          isolatingTMPDIR: true, environmentKey: scratch, timeout: 1500)
            }
            let path = scratch + "/release/" + file
            if run.status != 0 {
                result = .failure(PluginTestFailure("swift build of Examples/\(package) failed (\(run.status)): "
                                                    + String((run.stdout + run.stderr).suffix(3000))))
            } else if !FileManager.default.fileExists(atPath: path) {
                result = .failure(PluginTestFailure("the example's build did not produce \(path)"))
            } else {
                result = .success(path)
            }
        } catch {
            result = .failure(error as? PluginTestFailure ?? PluginTestFailure("\(error)"))
        }
        built[package] = result
        return try result.get()
    }
}
