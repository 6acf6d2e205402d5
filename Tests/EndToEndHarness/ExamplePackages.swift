// The example packages in Examples/, built as their own SwiftPM packages, once per test process,
// into scratch directories in this checkout's build directory (reused by later runs: incremental
// builds; nothing in /tmp).
import Foundation

public enum ExamplePackages {
    private static let lock = NSLock()
    private static var built: [String: Result<String, PluginTestFailure>] = [:]

    /// `Examples/HostApp` built `swift build -c release` (as an app ships): the path of its
    /// `host-app` executable. CommandTests builds it (HostAppExampleBuildTests), in `scripts/test`'s
    /// CPU stream; HostAppExampleTests runs it under sway and finds the build done, or waits for it.
    /// - Throws: ``PluginTestFailure`` with the build's output when it fails.
    public static func hostAppExecutable() throws -> String {
        try executable(package: "HostApp", product: "host-app")
    }

    /// `Examples/<package>` built `swift build -c release` once per test process: the path of its
    /// executable `product`. The examples share one scratch directory (ModalKit's own modules are
    /// built once for all of them).
    /// - Throws: ``PluginTestFailure`` with the build's output when it fails.
    public static func executable(package: String, product: String) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let done = built[package] { return try done.get() }
        let scratch = PluginTestSupport.cacheDirectory + "/host-app-example"
        let result: Result<String, PluginTestFailure>
        do {
            let run = try PluginTestSupport.run("/usr/bin/env", ["swift", "build", "-c", "release", "--package-path",
                                                                 PluginTestSupport.packageRoot + "/Examples/" + package,
                                                                 "--scratch-path", scratch],
                                                isolatingTMPDIR: true, timeout: 1500)
            let executable = scratch + "/release/" + product
            if run.status != 0 {
                result = .failure(PluginTestFailure("swift build of Examples/\(package) failed (\(run.status)): "
                                                    + String((run.stdout + run.stderr).suffix(3000))))
            } else if !FileManager.default.isExecutableFile(atPath: executable) {
                result = .failure(PluginTestFailure("the example's build did not produce \(executable)"))
            } else {
                result = .success(executable)
            }
        } catch {
            result = .failure(error as? PluginTestFailure ?? PluginTestFailure("\(error)"))
        }
        built[package] = result
        return try result.get()
    }
}
