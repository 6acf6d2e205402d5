// The example packages in Examples/, built as their own SwiftPM packages, once per test process,
// into scratch directories in this checkout's build directory (reused by later runs: incremental
// builds; nothing in /tmp).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
            // The scratch directory is shared by the examples and by the test processes
            // `scripts/test` runs side by side: one SwiftPM at a time builds in it (SwiftPM's own
            // build database cannot be opened by two builds at once).
            try FileManager.default.createDirectory(atPath: PluginTestSupport.cacheDirectory, withIntermediateDirectories: true)
            let lock = open(scratch + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard lock >= 0 else { throw PluginTestFailure("cannot open \(scratch).lock: errno \(errno)") }
            defer { close(lock) }   // and with it the lock
            let deadline = Date().addingTimeInterval(1500)
            while flock(lock, LOCK_EX | LOCK_NB) != 0 {
                guard Date() < deadline else { throw PluginTestFailure("another test process held \(scratch).lock for 1500 s") }
                usleep(100_000)
            }
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
