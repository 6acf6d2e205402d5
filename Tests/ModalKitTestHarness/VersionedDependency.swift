// An app that depends on ModalKit as apps outside this repository do: a git repository holding
// this checkout's files, tagged with the version `--version` prints, and an app package whose
// manifest says `.package(url: <that repository>, from: <the version>)` (a file URL: the same
// resolution SwiftPM does for any host). The app also declares targets with the generic names
// other packages commonly use (CPixman, SystemSupport, WaylandClient…): ModalKit's own names are
// all prefixed, so they cannot clash. Kept in the test cache (incremental across runs).
import Foundation
import ModalKitSession
import XCTest

public enum VersionedDependency {
    /// The version the repository is tagged with (a bare version: SwiftPM's tag scheme).
    public static let version = "0.2.0"

    /// Where the tagged repository, its bare copy and the app package live.
    public static var directory: String { PluginTestSupport.cacheDirectory + "/versioned-dependency" }

    /// Module names of other packages that must not clash with ModalKit's (its names before
    /// they were prefixed).
    public static let clashingNames = ["SystemSupport", "MonotonicClock", "PixmanText", "WaylandClient", "DesktopSettings",
                                       "CPng", "CWebP", "CXkbCommon"]

    /// Runs `git` in `directory`; throws with its output when it fails.
    @discardableResult
    static func git(_ arguments: [String], in directory: String) throws -> String {
        let env = PluginTestSupport.environment(["GIT_AUTHOR_NAME": "ModalKit tests", "GIT_AUTHOR_EMAIL": "tests@modalkit.invalid",
                                                 "GIT_COMMITTER_NAME": "ModalKit tests", "GIT_COMMITTER_EMAIL": "tests@modalkit.invalid",
                                                 // Fixed dates: the same files make the same commit, so SwiftPM
                                                 // checks nothing out again when nothing changed.
                                                 "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
                                                 "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"])
        let r = try PluginTestSupport.run("/usr/bin/git", arguments, environment: env, currentDirectory: directory, timeout: 120)
        guard r.status == 0 else { throw PluginTestFailure("git \(arguments.joined(separator: " ")) failed: \(r.stderr)") }
        return r.stdout
    }

    /// The tagged bare repository of this checkout's files (tracked and untracked, not ignored),
    /// brought up to date: its `file://` URL.
    public static func taggedRepository() throws -> String {
        let fm = FileManager.default
        let work = directory + "/ModalKit", bare = directory + "/ModalKit.git"
        if !fm.fileExists(atPath: work + "/.git") {
            try? fm.removeItem(atPath: work)
            try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
            try git(["init", "-q", "-b", "main"], in: work)
        }
        if !fm.fileExists(atPath: bare + "/HEAD") {
            try? fm.removeItem(atPath: bare)
            try fm.createDirectory(atPath: bare, withIntermediateDirectories: true)
            try git(["init", "-q", "--bare"], in: bare)
        }
        // The checkout's files, exactly: the old ones removed, the current ones copied in.
        for entry in try fm.contentsOfDirectory(atPath: work) where entry != ".git" {
            try fm.removeItem(atPath: work + "/" + entry)
        }
        let copy = try PluginTestSupport.run("/bin/sh", ["-c", "git -C \"$0\" ls-files -co --exclude-standard -z | "
                                                         + "tar -C \"$0\" --null -T - -cf - | tar -C \"$1\" -xf -",
                                                         PluginTestSupport.packageRoot, work], timeout: 120)
        guard copy.status == 0 else { throw PluginTestFailure("copying the checkout failed: \(copy.stderr)") }
        try git(["add", "-A"], in: work)
        if (try? git(["diff", "--cached", "--quiet"], in: work)) == nil || (try? git(["rev-parse", "HEAD"], in: work)) == nil {
            try git(["commit", "-q", "--allow-empty", "-m", "ModalKit \(version) as tested"], in: work)
        }
        try git(["tag", "-f", version], in: work)
        try git(["push", "-q", "--force", bare, "HEAD:refs/heads/main", "refs/tags/\(version)"], in: work)
        return "file://" + bare
    }

    /// The app package depending on the tagged repository `from:` its version, written anew:
    /// HostApp's code, and a target for each of ``clashingNames``.
    static func writeApp(repository: String) throws -> String {
        let fm = FileManager.default
        let app = directory + "/App"
        try fm.createDirectory(atPath: app + "/Sources/HostApp", withIntermediateDirectories: true)
        let main = try String(contentsOfFile: PluginTestSupport.packageRoot + "/Examples/HostApp/Sources/HostApp/main.swift", encoding: .utf8)
        try write(main, to: app + "/Sources/HostApp/main.swift")
        var targets: [String] = [], imports: [String] = []
        for name in clashingNames {
            if name.hasPrefix("C") {
                try fm.createDirectory(atPath: app + "/Sources/\(name)/include", withIntermediateDirectories: true)
                try write("int \(name)_marker(void);\n", to: app + "/Sources/\(name)/include/\(name).h")
                try write("#include \"\(name).h\"\nint \(name)_marker(void) { return 1; }\n", to: app + "/Sources/\(name)/\(name).c")
            } else {
                try fm.createDirectory(atPath: app + "/Sources/\(name)", withIntermediateDirectories: true)
                try write("/// Another package's module of this name.\npublic let marker = \"\(name)\"\n", to: app + "/Sources/\(name)/\(name).swift")
            }
            targets.append("        .target(name: \"\(name)\"),")
            imports.append("import \(name)")
        }
        try write(imports.joined(separator: "\n") + "\n\n/// The app's own modules named like ModalKit's used to be.\nlet ownModules = ["
                  + clashingNames.map { $0.hasPrefix("C") ? "\"\\(\($0)_marker())\"" : "\($0).marker" }.joined(separator: ", ") + "]\n",
                  to: app + "/Sources/HostApp/OwnModules.swift")
        let manifest = """
        // swift-tools-version:6.2
        // An app depending on a tagged ModalKit, as apps outside its repository do.
        import PackageDescription

        let package = Package(
            name: "VersionedApp",
            dependencies: [
                .package(url: "\(repository)", from: "\(version)"),
            ],
            targets: [
        \(targets.joined(separator: "\n"))
                .executableTarget(name: "host-app", dependencies: [
                    .product(name: "ModalKitWayland", package: "ModalKit"),
                    \(clashingNames.map { "\"\($0)\"" }.joined(separator: ", ")),
                ], path: "Sources/HostApp"),
            ],
            swiftLanguageModes: [.v5]
        )

        """
        try write(manifest, to: app + "/Package.swift")
        return app
    }

    static func write(_ text: String, to path: String) throws {
        // Unchanged files keep their time stamps: the build stays incremental.
        if (try? String(contentsOfFile: path, encoding: .utf8)) == text { return }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The app built `swift build -c release` against the tagged ModalKit (resolved anew each
    /// time, so a moved tag is followed): the path of its `host-app`. The directory is `test`'s
    /// until it ends.
    /// - Throws: ``PluginTestFailure`` with SwiftPM's output when resolution or the build fails.
    public static func hostApp(for test: XCTestCase) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try PluginTestSupport.holdLock(directory + ".lock", until: test, what: "the versioned-dependency app")
        let repository = try taggedRepository()
        let app = try writeApp(repository: repository)
        let scratch = app + "/.build"
        for step in [["package", "update"], ["build", "-c", "release"]] {
            let run = try PluginTestSupport.run("/usr/bin/env", ["swift"] + step + ["--package-path", app, "--scratch-path", scratch],
                                                isolatingTMPDIR: true, environmentKey: scratch, timeout: 1500)
            guard run.status == 0 else {
                throw PluginTestFailure("swift \(step.joined(separator: " ")) of the app depending on ModalKit from: \(version) failed "
                                        + "(\(run.status)): " + String((run.stdout + run.stderr).suffix(3000)))
            }
        }
        let path = scratch + "/release/host-app"
        guard FileManager.default.isExecutableFile(atPath: path) else { throw PluginTestFailure("the app's build made no \(path)") }
        return path
    }
}
