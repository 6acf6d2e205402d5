// Who may have written a style library (docs/design.md, plugin metadata and trust; OpenSSH's safe_path): a
// library found on the style path is loaded only when it and every directory above it are owned
// by root or the user and writable by no one else (a sticky directory above the library's own
// excepted); `--style PATH` checks the file alone. Refusals are listed with the mode and owner at
// fault; a name only an untrusted library declares is exit 2 with one line. Tested with chmod and
// chown in temporary directories (the tests run as root here; `modalkit-test` is the other user).
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKit
import ModalKitPlugins
#if canImport(Glibc)
import Glibc
#endif

final class PluginTrustTests: XCTestCase {
    typealias Support = PluginTestSupport

    private func demo(_ arguments: [String], environment: [String: String?] = [:]) throws -> Support.RunResult {
        try PluginCLITests.demo(arguments, environment: environment)
    }

    private func noted(_ file: String, in dir: String, name: String = "c-fixture") throws -> String {
        try Support.compileFixture(file, in: dir, defines: ["FIXTURE_NAME=\"\(name)\""],
                                   note: StyleNote.note(for: Support.fixtureDeclaration(name: name))).library
    }

    /// A group other than root's (which is root's private group, so writable by it alone).
    private func otherGroup() throws -> gid_t {
        guard let group = getgrnam("users") ?? getgrnam("nogroup") else { throw XCTSkip("no 'users' or 'nogroup' group") }
        return group.pointee.gr_gid
    }

    private func requireRoot() throws {
        guard geteuid() == 0 else { throw XCTSkip("changing owners needs root (the tests run as root in CI)") }
    }

    // MARK: Directories on the style path

    func testLibrariesInDirectoriesOthersCanWriteAreRefusedAndListedWithTheModeAndOwner() throws {
        try requireRoot()
        let base = try Support.temporaryDirectory(self, "trust-dirs")
        let groupWritable = base + "/group", othersWritable = base + "/others", fine = base + "/fine"
        for dir in [groupWritable, othersWritable, fine] { XCTAssertEqual(mkdir(dir, 0o755), 0) }
        let g = try noted("libModalKitStyleG.so", in: groupWritable, name: "in-group-dir")
        let o = try noted("libModalKitStyleO.so", in: othersWritable, name: "in-others-dir")
        let f = try noted("libModalKitStyleF.so", in: fine, name: "in-fine-dir")
        let writableFile = try noted("libModalKitStyleW.so", in: fine, name: "writable-file")
        XCTAssertEqual(chown(groupWritable, 0, try otherGroup()), 0)
        XCTAssertEqual(chmod(groupWritable, 0o775), 0)
        XCTAssertEqual(chmod(othersWritable, 0o757), 0)
        XCTAssertEqual(chmod(writableFile, 0o646), 0)

        let path = [groupWritable, othersWritable, fine].joined(separator: ":")
        let listed = try demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": path])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(listed.stderr, "")
        let lines = listed.stdoutLines
        XCTAssertTrue(lines.contains { $0.hasPrefix("in-fine-dir\t\(f)\t") }, "\(lines)")
        XCTAssertFalse(lines.contains { $0.hasPrefix("in-group-dir\t") || $0.hasPrefix("in-others-dir\t") || $0.hasPrefix("writable-file\t") })
        XCTAssertTrue(lines.contains("# refused\t\(g)\t\(groupWritable) is writable by group (mode 0775, owner uid 0)"), "\(lines)")
        XCTAssertTrue(lines.contains("# refused\t\(o)\t\(othersWritable) is writable by others (mode 0757, owner uid 0)"), "\(lines)")
        XCTAssertTrue(lines.contains("# refused\t\(writableFile)\t\(writableFile) is writable by others (mode 0646, owner uid 0)"),
                      "\(lines)")
        // The same in-process, typed.
        let listing = StyleLoader(searchPath: [groupWritable, othersWritable, fine]).list()
        XCTAssertEqual(listing.refused.map(\.violation.problem), [.writableByGroup, .writableByOthers, .writableByOthers])
        XCTAssertEqual(listing.refused.map(\.violation.mode), [0o775, 0o757, 0o646])

        // --style NAME that only an untrusted library declares: exit 2, one line, nothing loaded.
        let output = base + "/x.png"
        let r = try demo(["render", "--style", "in-others-dir", "--size", "40x40", "--progress", "1", "--output", output],
                         environment: ["MODALKIT_STYLE_PATH": path])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderrLines, ["modal-demo: style 'in-others-dir' is only in \(o), which is refused: "
                                       + "\(othersWritable) is writable by others (mode 0757, owner uid 0)"])
        XCTAssertEqual(r.stdout, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        // A name nobody declares counts the refused libraries and says where to see why.
        let unknown = try demo(["render", "--style", "no-such-style", "--size", "40x40", "--progress", "1", "--output", output],
                               environment: ["MODALKIT_STYLE_PATH": path])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderrLines.count, 1, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("; 3 libraries there were refused as untrusted (--list-styles says why)"), unknown.stderr)
        for library in [g, o, f, writableFile] { XCTAssertEqual(Support.constructorRuns(library), 0, library) }
    }

    /// A library owned by another user (not root, not the one running the host) is refused, file
    /// or directory; the same file handed to that user would be trusted (below).
    func testALibraryOwnedByAnotherUserIsRefused() throws {
        try requireRoot()
        let user = try SessionUser.forCompositor()
        let base = try Support.temporaryDirectory(self, "trust-owner")
        let theirs = base + "/theirs"
        XCTAssertEqual(mkdir(theirs, 0o755), 0)
        let inTheirDir = try noted("libModalKitStyleA.so", in: theirs, name: "in-their-dir")
        XCTAssertEqual(chown(theirs, user.uid, user.gid), 0)
        let theirFile = try noted("libModalKitStyleB.so", in: base, name: "their-file")
        XCTAssertEqual(chmod(theirFile, 0o755), 0)
        XCTAssertEqual(chown(theirFile, user.uid, user.gid), 0)
        let listing = StyleLoader(searchPath: [theirs, base]).list()
        XCTAssertEqual(listing.refused.map(\.path), [inTheirDir, theirFile])
        XCTAssertEqual(listing.refused.map(\.violation.description), [
            "\(theirs) is owned by another user (mode 0755, owner uid \(user.uid)); only root or uid 0 may own it",
            "\(theirFile) is owned by another user (mode 0755, owner uid \(user.uid)); only root or uid 0 may own it",
        ])
        // By path, the file alone is checked: theirs is refused, with one line and exit 2.
        let r = try demo(["render", "--style", theirFile, "--size", "40x40", "--progress", "1", "--output", base + "/x.png"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderrLines, ["modal-demo: \(theirFile): refused: \(theirFile) is owned by another user "
                                       + "(mode 0755, owner uid \(user.uid)); only root or uid 0 may own it"])
        XCTAssertEqual(Support.constructorRuns(theirFile), 0)
    }

    /// `/tmp/me` (mode 0755, the user's) under a sticky world-writable directory is trusted;
    /// the sticky directory itself as the library's directory is not.
    func testAStickyWorldWritableDirectoryAboveDoesNotTaintButAsTheLibrarysOwnDirectoryItIsRefused() throws {
        let base = try Support.temporaryDirectory(self, "trust-sticky")
        let sticky = base + "/tmp"
        XCTAssertEqual(mkdir(sticky, 0o755), 0)
        XCTAssertEqual(chmod(sticky, 0o1777), 0)
        let me = sticky + "/me"
        XCTAssertEqual(mkdir(me, 0o755), 0)
        let mine = try noted("libModalKitStyleMine.so", in: me, name: "under-sticky")
        let exposed = try noted("libModalKitStyleExposed.so", in: sticky, name: "in-sticky")
        let listed = try demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": me + ":" + sticky])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdoutLines.contains { $0.hasPrefix("under-sticky\t\(mine)\t") }, listed.stdout)
        XCTAssertTrue(listed.stdoutLines.contains("# refused\t\(exposed)\t\(sticky) is writable by others (mode 1777, owner uid \(geteuid()))"),
                      listed.stdout)
        let r = try demo(["render", "--style", "under-sticky", "--size", "40x40", "--progress", "1", "--output", base + "/x.png"],
                         environment: ["MODALKIT_STYLE_PATH": me + ":" + sticky])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(Support.constructorRuns(mine), 1)
        XCTAssertEqual(Support.constructorRuns(exposed), 0)
    }

    /// `--style PATH`: the user named the file, so only the file is checked — a library in a
    /// directory others can write loads; the same file writable by group or others does not.
    func testStylePathChecksTheFileAlone() throws {
        try requireRoot()
        let base = try Support.temporaryDirectory(self, "trust-path")
        let open = base + "/open"
        XCTAssertEqual(mkdir(open, 0o755), 0)
        XCTAssertEqual(chmod(open, 0o777), 0)
        let library = try noted("libModalKitStyleNamed.so", in: open)
        XCTAssertEqual(chmod(library, 0o644), 0)
        let ok = try demo(["render", "--style", library, "--size", "40x40", "--progress", "1", "--output", base + "/ok.png"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stderr, "")
        XCTAssertEqual(chown(library, 0, try otherGroup()), 0)
        XCTAssertEqual(chmod(library, 0o664), 0)
        let refused = try demo(["render", "--style", library, "--size", "40x40", "--progress", "1", "--output", base + "/no.png"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.stderrLines, ["modal-demo: \(library): refused: \(library) is writable by group (mode 0664, owner uid 0)"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/no.png"))
    }

    /// Run as another user (`modalkit-test`): its own directories and files are trusted, root's
    /// too (the build directory's styles among them), a group-writable directory only when the
    /// group is that user's private group (Debian's and Fedora's umask 002 makes a user's build
    /// directories so), and a directory writable by another group never.
    func testAnotherUserTrustsItsOwnAndRootsLibrariesAndItsPrivateGroup() throws {
        try requireRoot()
        let user = try SessionUser.forCompositor()
        guard !user.isCurrentUser else { throw XCTSkip("needs a second user") }
        guard let group = getgrgid(user.gid), String(cString: group.pointee.gr_name) == user.name else {
            throw XCTSkip("\(user.name) has no private group")
        }
        // Reachable by the other user: every directory above must be searchable by others.
        var template = Array("\(SessionUser.directoryBase)/mk-plugin-trust-user-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw PluginTestFailure("mkdtemp failed") }
        let base = String(cString: made)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: base) }
        XCTAssertEqual(chmod(base, 0o755), 0)
        let own = base + "/own", privateGroup = base + "/private-group", sharedGroup = base + "/shared-group", root = base + "/root"
        for dir in [own, privateGroup, sharedGroup, root] { XCTAssertEqual(mkdir(dir, 0o755), 0) }
        let a = try noted("libModalKitStyleOwn.so", in: own, name: "their-own")
        let b = try noted("libModalKitStylePrivate.so", in: privateGroup, name: "private-group")
        let c = try noted("libModalKitStyleShared.so", in: sharedGroup, name: "shared-group")
        _ = try noted("libModalKitStyleRoot.so", in: root, name: "roots")
        for path in [own, a, privateGroup, b] { XCTAssertEqual(chown(path, user.uid, user.gid), 0) }
        XCTAssertEqual(chown(sharedGroup, user.uid, try otherGroup()), 0)
        XCTAssertEqual(chmod(privateGroup, 0o775), 0)
        XCTAssertEqual(chmod(sharedGroup, 0o775), 0)

        let demoPath = try PluginCLITests.demoPath
        let env = Support.environment(["MODALKIT_STYLE_PATH": [own, privateGroup, sharedGroup, root].joined(separator: ":"),
                                       "WAYLAND_DISPLAY": "mk-plugin-test-no-such-socket", "HOME": base])
        let r = try Support.run("/usr/bin/setpriv", ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--",
                                                     demoPath, "--list-styles"],
                                environment: env, currentDirectory: base, timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let names = r.stdoutLines.filter { !$0.hasPrefix("#") }.map { String($0.prefix { $0 != "\t" }) }
        XCTAssertEqual(Set(names), ["their-own", "private-group", "roots", "inset-centered", "bottom-sheet", "adaptive", "popover",
                                   "alert"],
                       r.stdout)
        XCTAssertEqual(r.stdoutLines.filter { $0.hasPrefix("#") },
                       ["# refused\t\(c)\t\(sharedGroup) is writable by group (mode 0775, owner uid \(user.uid))"])
    }

    // MARK: Relative entries

    /// A relative entry of MODALKIT_STYLE_PATH (`.`, `lib`) is ignored and said once on stderr,
    /// also when the style is looked up as well: a library in the working directory is not taken.
    func testRelativeStylePathEntriesAreIgnoredAndSaidOnce() throws {
        let dir = try Support.temporaryDirectory(self, "relative")
        XCTAssertEqual(mkdir(dir + "/lib", 0o755), 0)
        let here = try noted("libModalKitStyleHere.so", in: dir, name: "from-cwd")
        let env: [String: String?] = ["MODALKIT_STYLE_PATH": ".:lib"]
        let expected = "modal-demo: MODALKIT_STYLE_PATH: ignoring relative entries '.', 'lib' (style directories must be absolute paths)"
        let listed = try Support.run(PluginCLITests.demoPath, ["--list-styles"],
                                     environment: Support.environment(env.merging(["WAYLAND_DISPLAY": "mk-none"]) { $1 }),
                                     currentDirectory: dir, timeout: 60)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(listed.stderrLines, [expected])
        XCTAssertFalse(listed.stdout.contains("from-cwd"), listed.stdout)
        let rendered = try Support.run(PluginCLITests.demoPath,
                                       ["render", "--style", "inset-centered", "--style", "bottom-sheet", "--size", "40x40",
                                        "--progress", "1", "--output", dir + "/x.png"],
                                       environment: Support.environment(env.merging(["WAYLAND_DISPLAY": "mk-none"]) { $1 }),
                                       currentDirectory: dir, timeout: 60)
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(rendered.stderrLines, [expected], "once per run")
        XCTAssertEqual(StyleLoader.searchPath(environment: ["MODALKIT_STYLE_PATH": "/a:.:lib:/b"], executablePath: "/x/bin/modal-demo"),
                       StyleLoader.SearchPath(directories: ["/a", "/b", "/x/bin", "/x/lib/modalkit/styles"],
                                              ignoredRelativeEntries: [".", "lib"]))
        XCTAssertEqual(Support.constructorRuns(here), 0)
    }
}
