// Depending on a release from a clone that has no tags: CHANGELOG.md names the commit of each
// release, `scripts/release-tags` makes the tags from it, and README's "Using ModalKit in an app"
// says so. The script's rules on small repositories made here (tags made at the named commits, a
// second run changes nothing, a tag at another commit and a commit the clone lacks refused with
// one line and no tag made); this checkout's CHANGELOG against its history; and a clone made as a
// user makes one, following README's own steps (read from README, run as written) to an app built
// on the release `from:` its version, and resolved with `revision:` before any tag exists.
import Foundation
import ModalKitTestHarness
import XCTest

final class ReleaseTagsTests: XCTestCase {
    typealias Support = PluginTestSupport
    typealias RunResult = PluginTestSupport.RunResult

    /// git with no user or system configuration and a fixed identity and date (so that the same
    /// files and parent make the same commit in every run).
    static let gitEnvironment = Support.environment([
        "GIT_AUTHOR_NAME": "ModalKit tests", "GIT_AUTHOR_EMAIL": "tests@modalkit.invalid",
        "GIT_COMMITTER_NAME": "ModalKit tests", "GIT_COMMITTER_EMAIL": "tests@modalkit.invalid",
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
        "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_DIR": nil, "GIT_WORK_TREE": nil, "GIT_INDEX_FILE": nil,
    ])

    /// Runs git with ``gitEnvironment`` (and `extra`); throws with its stderr when it fails.
    @discardableResult
    static func git(_ arguments: [String], in directory: String, extra: [String: String] = [:]) throws -> String {
        let r = try Support.run("/usr/bin/git", arguments, environment: gitEnvironment.merging(extra) { $1 },
                                currentDirectory: directory, timeout: 120)
        guard r.status == 0 else { throw PluginTestFailure("git \(arguments.joined(separator: " ")) in \(directory) failed: \(r.stderr)") }
        return r.stdout
    }

    /// `git show-ref --tags` of `repository`: "COMMIT refs/tags/NAME" lines, or "" with no tag.
    static func tags(_ repository: String) throws -> String {
        let r = try Support.run("/usr/bin/git", ["show-ref", "--tags"], environment: gitEnvironment,
                                currentDirectory: repository, timeout: 60)
        return r.stdout   // show-ref exits 1 when there is none
    }

    /// The repository's `scripts/release-tags` run with `arguments` from `directory`.
    func releaseTags(in repository: String, _ arguments: [String] = [], from directory: String? = nil) throws -> RunResult {
        try Support.run(repository + "/scripts/release-tags", arguments, environment: Self.gitEnvironment,
                        currentDirectory: directory ?? repository, timeout: 60)
    }

    /// Asserts the script refused: exit status 1, nothing on stdout, exactly `line` on stderr.
    func assertRefused(_ r: RunResult, _ line: String, file: StaticString = #filePath, line number: UInt = #line) {
        XCTAssertEqual(r.status, 1, "exit status; stderr: \(r.stderr)", file: file, line: number)
        XCTAssertEqual(r.stdout, "", "stdout", file: file, line: number)
        XCTAssertEqual(r.stderrLines, [line], "stderr", file: file, line: number)
    }

    // MARK: The script on small repositories

    /// A repository with this checkout's `scripts/release-tags`: commits one and two, then a
    /// CHANGELOG.md (as this checkout's is laid out: Unreleased first, then each release's heading
    /// and its `Commit` line) naming 0.2.0 at two and 0.1.0 at one, committed as the third.
    func makeRepository(extraSection: String = "") throws -> (path: String, one: String, two: String, head: String) {
        let repository = try Support.temporaryDirectory(self, "release-tags") + "/ModalKit"
        try FileManager.default.createDirectory(atPath: repository + "/scripts", withIntermediateDirectories: true)
        try Self.git(["init", "-q", "-b", "main"], in: repository)
        try Support.copy(Support.packageRoot + "/scripts/release-tags", to: repository + "/scripts/release-tags")
        XCTAssertEqual(chmod(repository + "/scripts/release-tags", 0o755), 0)
        func commit(_ text: String) throws -> String {
            try text.write(toFile: repository + "/file.txt", atomically: true, encoding: .utf8)
            try Self.git(["add", "-A"], in: repository)
            try Self.git(["commit", "-q", "-m", text], in: repository)
            return try Self.git(["rev-parse", "HEAD"], in: repository).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let one = try commit("one"), two = try commit("two")
        try """
            # Changelog

            ## Unreleased

            ### Added
            - What came after 0.2.0.
            \(extraSection)
            ## 0.2.0 — 2026-12-04

            Commit `\(two)`.

            ### Fixed
            - Something.

            ## 0.1.0 — 2026-12-02

            Commit `\(one)`.

            The first version.

            """.write(toFile: repository + "/CHANGELOG.md", atomically: true, encoding: .utf8)
        let head = try commit("changelog")
        return (repository, one, two, head)
    }

    func testEachReleaseIsTaggedAtItsCommitAndASecondRunChangesNothing() throws {
        let repo = try makeRepository()
        XCTAssertEqual(try Self.tags(repo.path), "", "a new repository has no tags")
        // Run from another directory: the script works on the checkout it is in.
        let first = try releaseTags(in: repo.path, from: repo.path + "/scripts")
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stderr, "")
        XCTAssertEqual(first.stdoutLines, ["0.2.0: tagged at \(repo.two)", "0.1.0: tagged at \(repo.one)"])
        let tagged = "\(repo.one) refs/tags/0.1.0\n\(repo.two) refs/tags/0.2.0\n"
        XCTAssertEqual(try Self.tags(repo.path), tagged)

        let second = try releaseTags(in: repo.path)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stderr, "")
        XCTAssertEqual(second.stdoutLines, ["0.2.0: tagged already at \(repo.two)", "0.1.0: tagged already at \(repo.one)"])
        XCTAssertEqual(try Self.tags(repo.path), tagged, "the second run changed no tag")

        // A tag made otherwise (annotated) at the named commit is the release's tag too.
        try Self.git(["tag", "-d", "0.1.0"], in: repo.path)
        try Self.git(["tag", "-a", "-m", "ModalKit 0.1.0", "0.1.0", repo.one], in: repo.path)
        let annotated = try releaseTags(in: repo.path)
        XCTAssertEqual(annotated.status, 0, annotated.stderr)
        XCTAssertEqual(annotated.stdoutLines, ["0.2.0: tagged already at \(repo.two)", "0.1.0: tagged already at \(repo.one)"])
    }

    func testATagAtAnotherCommitIsRefusedAndNoTagIsMade() throws {
        let repo = try makeRepository()
        try Self.git(["tag", "0.1.0", repo.head], in: repo.path)
        let r = try releaseTags(in: repo.path)
        assertRefused(r, "release-tags: tag 0.1.0 points at \(repo.head), not at \(repo.one) as CHANGELOG.md says "
                      + "(no tag made; delete or fix it by hand)")
        XCTAssertEqual(try Self.tags(repo.path), "\(repo.head) refs/tags/0.1.0\n", "0.2.0 not made, 0.1.0 not moved")
    }

    /// A shallow clone (`git clone --depth 1`) has the last commit only: the releases' commits
    /// are not in it.
    func testACommitTheCloneDoesNotHaveIsRefusedAndNoTagIsMade() throws {
        let repo = try makeRepository()
        let shallow = (repo.path as NSString).deletingLastPathComponent + "/shallow"
        try Self.git(["clone", "-q", "--depth", "1", "file://" + repo.path, shallow], in: repo.path)
        XCTAssertEqual(try Self.git(["rev-parse", "HEAD"], in: shallow), repo.head + "\n")
        let r = try releaseTags(in: shallow)
        assertRefused(r, "release-tags: CHANGELOG.md names commit \(repo.two) for 0.2.0, which this clone does not have "
                      + "(in a shallow clone, run git fetch --unshallow first)")
        XCTAssertEqual(try Self.tags(shallow), "")
    }

    func testAReleaseWithoutItsCommitIsRefused() throws {
        // Line 8 of the CHANGELOG: a 0.3.0 heading with no Commit line before 0.2.0's heading.
        let repo = try makeRepository(extraSection: "\n## 0.3.0 — 2026-12-05\n\n### Fixed\n- A release without its commit.\n")
        let r = try releaseTags(in: repo.path)
        assertRefused(r, "release-tags: CHANGELOG.md:8: 0.3.0 names no commit (a line \"Commit `<40 hex digits>`.\" under its heading)")
        XCTAssertEqual(try Self.tags(repo.path), "")
    }

    func testHelpAndUsageMistakes() throws {
        let repo = try makeRepository()
        let help = try releaseTags(in: repo.path, ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.stderr, "")
        XCTAssertEqual(help.stdoutLines.first, "usage: scripts/release-tags [--help]")
        XCTAssertTrue(help.stdout.contains("CHANGELOG.md"), help.stdout)
        for (argument, line) in [("--tag", "release-tags: unknown option '--tag' (usage: scripts/release-tags [--help])"),
                                 ("0.2.0", "release-tags: unexpected argument '0.2.0' (usage: scripts/release-tags [--help])")] {
            let r = try releaseTags(in: repo.path, [argument])
            XCTAssertEqual(r.status, 2, argument)
            XCTAssertEqual(r.stdout, "", argument)
            XCTAssertEqual(r.stderrLines, [line])
        }
        XCTAssertEqual(try Self.tags(repo.path), "", "no mistake made a tag")
    }

    // MARK: This checkout's CHANGELOG.md

    /// CHANGELOG.md's released versions, newest first, with the commit each names (the script's
    /// format, read here on its own): `## X.Y.Z — DATE`, then a line Commit `<40 hex digits>`.
    static func releases(_ changelog: String) -> [(version: String, commit: String?)] {
        var releases: [(version: String, commit: String?)] = []
        var inRelease = false
        for line in changelog.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") {
                let version = String(line.dropFirst(3).prefix { $0 != " " })
                inRelease = !version.isEmpty && version.split(separator: ".").count == 3
                    && version.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
                if inRelease { releases.append((version, nil)) }
            } else if inRelease, line.hasPrefix("Commit `"), line.hasSuffix("`."), releases[releases.count - 1].commit == nil {
                releases[releases.count - 1].commit = String(line.dropFirst("Commit `".count).dropLast(2))
            }
        }
        return releases
    }

    /// Every released version names a whole commit id; that commit is in this checkout's history
    /// (an ancestor of HEAD: it stays true whatever is committed after it) and is the version it
    /// says (`modal-demo --version`'s constant there); the section being prepared names none.
    func testTheChangelogNamesTheCommitOfEveryRelease() throws {
        let root = Support.packageRoot
        let changelog = try String(contentsOfFile: root + "/CHANGELOG.md", encoding: .utf8)
        let releases = Self.releases(changelog)
        XCTAssertEqual(releases.map(\.version).prefix(2), ["0.2.0", "0.1.0"])
        for (version, commit) in releases {
            let commit = try XCTUnwrap(commit, "\(version) names no commit")
            XCTAssertNotNil(commit.range(of: "^[0-9a-f]{40}$", options: .regularExpression), "\(version): \(commit)")
            XCTAssertNoThrow(try Self.git(["merge-base", "--is-ancestor", commit, "HEAD"], in: root),
                             "\(version)'s commit \(commit) is in HEAD's history")
            let constant = try Self.git(["grep", "-h", "modalDemoVersion = ", commit, "--", "Sources"], in: root)
            XCTAssertTrue(constant.contains("modalDemoVersion = \"\(version)\""), "\(version) at \(commit): \(constant)")
        }
        if let unreleased = changelog.range(of: "\n## Unreleased\n") {
            let rest = changelog[unreleased.upperBound...]
            let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
            XCTAssertFalse(section.contains("\nCommit `"), "the release being prepared names no commit")
        }
    }

    // MARK: A user's clone, README's steps

    /// README's section "Using ModalKit in an app", to the next `## ` heading.
    static func readmeSection() throws -> String {
        let readme = try String(contentsOfFile: Support.packageRoot + "/README.md", encoding: .utf8)
        guard let start = readme.range(of: "\n## Using ModalKit in an app\n") else { throw PluginTestFailure("README has no section Using ModalKit in an app") }
        let rest = readme[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The fenced code blocks of `text` whose info string is `language`, without their fences.
    static func codeBlocks(_ text: String, _ language: String) -> [String] {
        var blocks: [String] = [], current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```" + language {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// What a user clones, as a bare repository at `origin` without tags: this checkout's history
    /// to HEAD (fetched: the checkout is only read), and when its work tree differs from HEAD
    /// (changes not committed yet, the files tracked and untracked that are not ignored) one
    /// commit more of the work tree's files, so that what is tested is what would be pushed.
    static func makeOrigin(_ origin: String) throws {
        let fm = FileManager.default
        let root = Support.packageRoot
        if !fm.fileExists(atPath: origin + "/HEAD") {
            try? fm.removeItem(atPath: origin)
            try fm.createDirectory(atPath: origin, withIntermediateDirectories: true)
            try git(["init", "-q", "--bare", "-b", "main"], in: origin)
        }
        try git(["fetch", "-q", "--no-tags", "--force", root, "+HEAD:refs/heads/main"], in: origin)
        for tag in try git(["for-each-ref", "--format=%(refname)", "refs/tags"], in: origin).split(separator: "\n") {
            try git(["update-ref", "-d", String(tag)], in: origin)
        }
        // (GIT_OPTIONAL_LOCKS=0: status leaves the checkout's index as it is.)
        guard try git(["status", "--porcelain"], in: root, extra: ["GIT_OPTIONAL_LOCKS": "0"]) != "" else { return }
        let index = origin + "/working-state.index"
        try? fm.removeItem(atPath: index)
        let env = ["GIT_DIR": origin, "GIT_WORK_TREE": root, "GIT_INDEX_FILE": index]
        try git(["read-tree", "refs/heads/main"], in: root, extra: env)
        try git(["add", "-A"], in: root, extra: env)
        let tree = try git(["write-tree"], in: root, extra: env).trimmingCharacters(in: .whitespacesAndNewlines)
        let commit = try git(["commit-tree", tree, "-p", "refs/heads/main", "-m", "The work tree as tested"], in: root, extra: env)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try git(["update-ref", "refs/heads/main", commit], in: origin)
        try? fm.removeItem(atPath: index)
    }

    /// `swift` with `arguments` in the app package (its `.build` inside it, as README's commands
    /// use it): a fixed environment and TMPDIR, one build at a time.
    func swift(_ arguments: [String], in app: String) throws -> RunResult {
        try Support.run("/usr/bin/env", ["swift"] + arguments, currentDirectory: app, isolatingTMPDIR: true,
                        environmentKey: app, timeout: 1500)
    }

    /// A clone of this repository made as a user makes one (`git clone`: only the origin's tags,
    /// here none), and README's steps for a clone without tags, taken from README itself: the
    /// manifest's `revision:` form resolves at once; after the `scripts/release-tags` block runs
    /// in the clone as written, the manifest as shown (`from:` the version) resolves to the
    /// commit CHANGELOG.md names, and README's build commands build the style library and the app
    /// (the release's own Examples/HostApp code, which README says is all of such an app's code),
    /// which runs and says why it cannot open a window without a compositor. In this checkout's
    /// test cache: the release is fixed, so later runs compile nothing.
    func testACloneWithoutTagsFollowsTheREADMEToAnAppOnTheRelease() throws {
        // README's steps.
        let section = try Self.readmeSection()
        let command = try XCTUnwrap(Self.codeBlocks(section, "sh").first { $0.hasPrefix("scripts/release-tags") },
                                    "README's block that runs scripts/release-tags")
        let builds = try XCTUnwrap(Self.codeBlocks(section, "sh").first { $0.hasPrefix("swift build --product") },
                                   "README's build commands for an app on a released ModalKit")
        let manifest = try XCTUnwrap(Self.codeBlocks(section, "swift").first { $0.hasPrefix("// swift-tools-version") })
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let fromLine = try XCTUnwrap(lines.first { $0.contains(".package(url: ") && $0.contains("from: \"") })
        let revisionLine = try XCTUnwrap(lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("// without tags: ") })
        func quoted(after key: String, in line: String) throws -> String {
            let start = try XCTUnwrap(line.range(of: key + "\""), "\(key) in \(line)").upperBound
            return String(line[start...].prefix { $0 != "\"" })
        }
        let url = try quoted(after: "url: ", in: fromLine), version = try quoted(after: "from: ", in: fromLine)
        let revision = try quoted(after: "revision: ", in: revisionLine)
        XCTAssertEqual(try quoted(after: "url: ", in: revisionLine), url)

        // The release README names, as CHANGELOG.md names it; `from:` takes the newest release of
        // the same major version (SwiftPM's upToNextMajor).
        let releases = Self.releases(try String(contentsOfFile: Support.packageRoot + "/CHANGELOG.md", encoding: .utf8))
        XCTAssertEqual(releases.first { $0.version == version }?.commit, revision, "README's revision: is CHANGELOG's commit of \(version)")
        func numbers(_ v: String) -> [Int] { v.split(separator: ".").compactMap { Int($0) } }
        let expected = try XCTUnwrap(releases.filter {
            numbers($0.version)[0] == numbers(version)[0] && numbers($0.version).lexicographicallyPrecedes(numbers(version)) == false
        }.max { numbers($0.version).lexicographicallyPrecedes(numbers($1.version)) })
        let expectedCommit = try XCTUnwrap(expected.commit)

        // The clone.
        let directory = Support.cacheDirectory + "/release-clone"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Support.holdLock(directory + ".lock", until: self, what: "the release clone and its app")
        let origin = directory + "/origin.git", clone = directory + "/ModalKit", app = directory + "/MyApp"
        try Self.makeOrigin(origin)
        try? FileManager.default.removeItem(atPath: clone)
        try Self.git(["clone", "-q", origin, clone], in: directory)
        XCTAssertEqual(try Self.git(["tag"], in: clone), "", "a clone of a repository without tags has none")

        // README's manifest at the clone's URL. Resolution is checked in a package made anew each
        // time (SwiftPM keeps a dependency's tags in its .build and trusts them: a package that
        // resolved once resolves again after the tags are gone), the build in a package kept
        // across runs, pinned to what the new one resolved.
        let cloneURL = "file://" + clone
        let resolving = directory + "/resolve"
        func resolve(_ text: String) throws -> (RunResult, String?) {
            try? FileManager.default.removeItem(atPath: resolving)
            try FileManager.default.createDirectory(atPath: resolving, withIntermediateDirectories: true)
            try write(text.replacingOccurrences(of: url, with: cloneURL), to: resolving + "/Package.swift")
            let r = try swift(["package", "resolve"], in: resolving)
            return (r, try? String(contentsOfFile: resolving + "/Package.resolved", encoding: .utf8))
        }
        defer { try? FileManager.default.removeItem(atPath: resolving) }

        // Without tags: `revision:` in place of `from:` resolves to the commit.
        let dependencies = try XCTUnwrap(revisionLine.range(of: "// without tags: ")).upperBound
        let indent = String(fromLine.prefix { $0 == " " })
        let byRevision = indent + "dependencies: " + String(revisionLine[dependencies...])
        let (resolvedByRevision, pinnedByRevision) = try resolve(lines.compactMap { line -> String? in
            line == fromLine ? byRevision : line == revisionLine ? nil : line
        }.joined(separator: "\n"))
        XCTAssertEqual(resolvedByRevision.status, 0, String((resolvedByRevision.stdout + resolvedByRevision.stderr).suffix(3000)))
        XCTAssertTrue(pinnedByRevision?.contains("\"revision\" : \"\(revision)\"") == true, pinnedByRevision ?? "no Package.resolved")
        XCTAssertFalse(pinnedByRevision?.contains("\"version\" : \"") ?? true, "pinned by revision, not by a version: \(pinnedByRevision ?? "")")

        // `from:` before the tags exist: nothing to resolve to (what README's step is for).
        let (untagged, _) = try resolve(manifest)
        XCTAssertNotEqual(untagged.status, 0, "resolved from: \(version) in a clone without tags")

        // README's command, as written, in the clone; then README's manifest resolves.
        let tagging = try Support.run("/bin/sh", ["-e", "-c", command], environment: Self.gitEnvironment,
                                      currentDirectory: clone, timeout: 60)
        XCTAssertEqual(tagging.status, 0, tagging.stderr)
        XCTAssertEqual(tagging.stderr, "")
        XCTAssertEqual(tagging.stdoutLines, releases.map { "\($0.version): tagged at \($0.commit ?? "")" })
        XCTAssertEqual(try Self.git(["rev-parse", "refs/tags/\(expected.version)^{commit}"], in: clone), expectedCommit + "\n")
        let (tagged, pinnedResolved) = try resolve(manifest)
        XCTAssertEqual(tagged.status, 0, String((tagged.stdout + tagged.stderr).suffix(3000)))
        let pinned = try XCTUnwrap(pinnedResolved, "no Package.resolved")
        XCTAssertTrue(pinned.contains("\"version\" : \"\(expected.version)\""), pinned)
        XCTAssertTrue(pinned.contains("\"revision\" : \"\(expectedCommit)\""), pinned)

        // README's builds of that manifest and the release's HostApp code (README: all of such
        // an app's code).
        try FileManager.default.createDirectory(atPath: app + "/Sources/my-app", withIntermediateDirectories: true)
        let code = try Self.git(["show", expectedCommit + ":Examples/HostApp/Sources/HostApp/main.swift"], in: clone)
        try write(code, to: app + "/Sources/my-app/main.swift")
        try write(manifest.replacingOccurrences(of: url, with: cloneURL), to: app + "/Package.swift")
        try write(pinned, to: app + "/Package.resolved")
        let buildLines = builds.split(separator: "\n").map { line -> String in
            // Up to the comment; the app is run below, without a compositor.
            let command = String(line.prefix { $0 != "#" }).replacingOccurrences(of: " && .build/debug/my-app", with: "")
            return command.trimmingCharacters(in: .whitespaces)
        }
        XCTAssertEqual(buildLines, ["swift build --product ModalKitStyleInsetCentered", "swift build"])
        for line in buildLines {
            let build = try swift(Array(line.split(separator: " ").dropFirst().map(String.init)), in: app)
            XCTAssertEqual(build.status, 0, "\(line): " + String((build.stdout + build.stderr).suffix(3000)))
            guard build.status == 0 else { return }
        }
        XCTAssertEqual(try String(contentsOfFile: app + "/Package.resolved", encoding: .utf8), pinned, "built what was resolved")
        let checkedOut = try Self.git(["rev-parse", "HEAD"], in: app + "/.build/checkouts/ModalKit")
        XCTAssertEqual(checkedOut, expectedCommit + "\n", "the build's checkout of ModalKit")
        XCTAssertTrue(FileManager.default.fileExists(atPath: app + "/.build/debug/libModalKitStyleInsetCentered.so"))

        // The app runs: with no compositor it says why in one line and exits 1 (its code's catch).
        let runtime = try Support.temporaryDirectory(self, "release-app")
        let run = try Support.run(app + "/.build/debug/my-app", [],
                                  environment: Support.environment(["WAYLAND_DISPLAY": "mk-release-test-no-such-socket",
                                                                    "WAYLAND_SOCKET": nil, "XDG_RUNTIME_DIR": runtime]),
                                  currentDirectory: app, timeout: 60)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("host-app: "), run.stderr)
    }

    /// Writes `text` unless the file holds it already (unchanged files keep their time stamps).
    func write(_ text: String, to path: String) throws {
        if (try? String(contentsOfFile: path, encoding: .utf8)) == text { return }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
