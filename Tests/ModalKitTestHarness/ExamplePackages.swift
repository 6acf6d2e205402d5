// The app examples in Examples/, built as their own SwiftPM packages into one scratch directory in
// this checkout's build directory (reused by later runs: incremental builds; nothing in /tmp).
import Foundation
import ModalKitSession
import XCTest

public enum ExamplePackages {
    /// The scratch directory the app examples share: ModalKit's own modules are compiled once for
    /// all of them.
    public static var scratch: String { PluginTestSupport.cacheDirectory + "/host-app-example" }

    /// `Examples/HostApp` built `swift build -c release` (as an app ships): the path of its
    /// `host-app` executable, as ``product(package:file:for:)`` builds it.
    /// - Throws: ``PluginTestFailure`` with the build's output when it fails.
    public static func hostAppExecutable(for test: XCTestCase) throws -> String {
        try product(package: "HostApp", file: "host-app", for: test)
    }

    /// `Examples/<package>` built `swift build -c release`: the path of the product `file` it makes
    /// (an executable's name, or a library's `lib<Name>.so`). ``scratch`` is `test`'s from now
    /// until it ends (waiting for another test process that has it): no other test builds there
    /// between this build and the end of the test that runs its product. In scripts/test,
    /// CommandTests' ExampleBuildTests builds the examples in its CPU stream, and the live tests
    /// that run them later find nothing to compile.
    /// - Throws: ``PluginTestFailure`` with the build's output when it fails or makes no `file`,
    ///   or when the directory stays taken for 1500 s.
    public static func product(package: String, file: String, for test: XCTestCase) throws -> String {
        try PluginTestSupport.holdLock(scratch + ".lock", until: test, what: "the examples' scratch directory")
        // SwiftPM keeps the build plan it made last in the scratch directory and reuses it while
        // the manifests it was made from are unchanged, whichever package is asked for: without
        // --disable-build-manifest-caching, a build of HostApp after one of ColourRows compiles
        // nothing of HostApp's.
        let run = try PluginTestSupport.run("/usr/bin/env", ["swift", "build", "-c", "release", "--disable-build-manifest-caching",
                                                             "--package-path", PluginTestSupport.packageRoot + "/Examples/" + package,
                                                             "--scratch-path", scratch],
                                            isolatingTMPDIR: true, environmentKey: scratch, timeout: 1500)
        let path = scratch + "/release/" + file
        guard run.status == 0 else {
            throw PluginTestFailure("swift build of Examples/\(package) failed (\(run.status)): "
                                    + String((run.stdout + run.stderr).suffix(3000)))
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw PluginTestFailure("the example's build did not produce \(path)")
        }
        return path
    }
}
