// Output files are never clobbered (article "Command line", Output files): `render`, `preview` and
// `preview --strip` write only a regular file or a new path. A device, a FIFO, a socket, a
// directory, or a symbolic link to one of them (or to nothing reachable, or in a loop) given as
// --output is exit status 2 with exactly one stderr line, and the node is untouched (not opened:
// a FIFO would block, a device would be written). A symbolic link to a regular file is followed
// (the link stays, its target gets the new contents). A failed write — a full file system, a file
// size limit — is exit status 1 with one line, the previous file byte for byte as it was and no
// temporary file left. `new-style --directory` likewise writes only into a new or empty directory
// and removes only what it made when it fails.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKitStyleTemplate
import ModalKit
#if canImport(Glibc)
import Glibc
#endif

final class OutputFileTests: XCTestCase {
    typealias Support = PluginTestSupport

    private func demo(_ arguments: [String]) throws -> PluginTestSupport.RunResult {
        try PluginCLITests.demo(arguments)
    }

    /// The commands that write a file, each writing `output`.
    private func writers(_ output: String) -> [(name: String, arguments: [String])] {
        [("render", ["render", "--size", "120x200", "--progress", "1", "--output", output]),
         ("preview", ["preview", "--size", "120x200", "--fps", "4", "--output", output]),
         ("preview --strip", ["preview", "--size", "120x200", "--strip", "3", "--output", output])]
    }

    /// What `lstat` says of a node, to tell that it was not touched (replaced, written, removed).
    private struct Node: Equatable, CustomStringConvertible {
        var mode: mode_t, inode: ino_t, device: dev_t, size: off_t, modified: Int, linkTarget: String?
        var description: String {
            "mode \(String(mode, radix: 8)) inode \(inode) rdev \(device) size \(size)" + (linkTarget.map { " -> \($0)" } ?? "")
        }
    }

    private func node(_ path: String) -> Node? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        let target = st.st_mode & S_IFMT == S_IFLNK ? try? FileManager.default.destinationOfSymbolicLink(atPath: path) : nil
        return Node(mode: st.st_mode, inode: st.st_ino, device: st.st_rdev, size: st.st_size,
                    modified: st.st_mtim.tv_sec * 1_000_000_000 + st.st_mtim.tv_nsec, linkTarget: target)
    }

    /// /dev/full's device number, (1, 7), as glibc's `makedev` encodes it (a macro Swift does not import).
    private let fullDevice = dev_t((1 & 0xfff) << 8 | (7 & 0xff))

    private func listing(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// Runs every writer on `output` and asserts the refusal: exit 2, one stderr line naming the
    /// path and `what`, nothing on stdout, `watched` (the node, or the link and its target)
    /// untouched and `directory` listing the same entries (no temporary file).
    private func assertEveryWriterRefuses(_ output: String, saying what: String, watching watched: [String],
                                          in directory: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = watched.map(node)
        let entries = listing(directory)
        for (name, arguments) in writers(output) {
            let r = try demo(arguments)
            XCTAssertEqual(r.status, 2, "\(name) to \(what): exit status; stderr: \(r.stderr)", file: file, line: line)
            XCTAssertEqual(r.stderrLines, ["modal-demo: cannot write '\(output)': it is \(what); only a regular file or a new path is written"],
                           "\(name): one line naming the path and what it is", file: file, line: line)
            XCTAssertEqual(r.stdout, "", file: file, line: line)
            XCTAssertEqual(watched.map(node), before, "\(name): \(watched) untouched", file: file, line: line)
            XCTAssertEqual(listing(directory), entries, "\(name): nothing made or removed", file: file, line: line)
        }
    }

    // MARK: refused

    func testEveryWriterRefusesAFIFOWithoutOpeningIt() throws {
        let dir = try Support.temporaryDirectory(self, "output-fifo")
        let fifo = dir + "/frames.png"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        // Before: preview replaced the FIFO with a regular file; render blocked opening it (nobody reads).
        try assertEveryWriterRefuses(fifo, saying: "a FIFO", watching: [fifo], in: dir)
    }

    /// A character device like /dev/full (1, 7): writing it fails with ENOSPC, after which libpng
    /// used to delete the output, i.e. the device node. Refused before it is opened.
    func testEveryWriterRefusesACharacterDevice() throws {
        if getuid() == 0 {
            let dir = try Support.temporaryDirectory(self, "output-device")
            let device = dir + "/full"
            XCTAssertEqual(mknod(device, S_IFCHR | 0o666, fullDevice), 0, String(cString: strerror(errno)))
            try assertEveryWriterRefuses(device, saying: "a character device", watching: [device], in: dir)
        } else {
            // Not root: the system's own /dev/full, checked before anything opens it.
            try assertEveryWriterRefuses("/dev/full", saying: "a character device", watching: ["/dev/full"], in: "/dev")
        }
    }

    func testEveryWriterRefusesASocket() throws {
        let dir = try Support.temporaryDirectory(self, "output-socket")
        let path = dir + "/out.webp"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            precondition(bytes.count < raw.count, "socket path too long")
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0, String(cString: strerror(errno)))
        try assertEveryWriterRefuses(path, saying: "a socket", watching: [path], in: dir)
    }

    func testEveryWriterRefusesADirectory() throws {
        let dir = try Support.temporaryDirectory(self, "output-directory")
        try FileManager.default.createDirectory(atPath: dir + "/shots", withIntermediateDirectories: false)
        try assertEveryWriterRefuses(dir + "/shots", saying: "a directory", watching: [dir + "/shots"], in: dir)
    }

    /// A link is judged by what it finally leads to: a FIFO, a directory, nothing in a directory
    /// that does not exist, or a loop — each refused, the link and its target untouched.
    func testEveryWriterRefusesALinkToWhatIsNotARegularFile() throws {
        let dir = try Support.temporaryDirectory(self, "output-links")
        let fm = FileManager.default
        XCTAssertEqual(mkfifo(dir + "/fifo", 0o644), 0)
        try fm.createSymbolicLink(atPath: dir + "/to-fifo", withDestinationPath: "fifo")
        try fm.createSymbolicLink(atPath: dir + "/to-link-to-fifo", withDestinationPath: dir + "/to-fifo")
        try fm.createDirectory(atPath: dir + "/shots", withIntermediateDirectories: false)
        try fm.createSymbolicLink(atPath: dir + "/to-shots", withDestinationPath: "shots")
        try fm.createSymbolicLink(atPath: dir + "/nowhere", withDestinationPath: "missing/out.png")
        try fm.createSymbolicLink(atPath: dir + "/loop-a", withDestinationPath: "loop-b")
        try fm.createSymbolicLink(atPath: dir + "/loop-b", withDestinationPath: "loop-a")
        try assertEveryWriterRefuses(dir + "/to-fifo", saying: "a symbolic link to 'fifo', a FIFO",
                                     watching: [dir + "/to-fifo", dir + "/fifo"], in: dir)
        try assertEveryWriterRefuses(dir + "/to-link-to-fifo", saying: "a symbolic link to '\(dir)/to-fifo', a FIFO",
                                     watching: [dir + "/to-link-to-fifo", dir + "/fifo"], in: dir)
        try assertEveryWriterRefuses(dir + "/to-shots", saying: "a symbolic link to 'shots', a directory",
                                     watching: [dir + "/to-shots", dir + "/shots"], in: dir)
        try assertEveryWriterRefuses(dir + "/nowhere", saying: "a symbolic link to 'missing/out.png', which does not exist",
                                     watching: [dir + "/nowhere"], in: dir)
        try assertEveryWriterRefuses(dir + "/loop-a", saying: "a loop of symbolic links (more than 40)",
                                     watching: [dir + "/loop-a", dir + "/loop-b"], in: dir)
    }

    // MARK: written

    /// A link to a regular file stays a link; the file it names gets the new contents (a PNG of
    /// the render's size) and keeps its permission bits; nothing else appears.
    func testALinkToARegularFileIsFollowedAndStaysALink() throws {
        let dir = try Support.temporaryDirectory(self, "output-link")
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/real", withIntermediateDirectories: false)
        for (index, (name, arguments)) in writers(dir + "/latest").enumerated() {
            let target = dir + "/real/shot\(index)"
            try "previous".write(toFile: target, atomically: false, encoding: .utf8)
            XCTAssertEqual(chmod(target, 0o640), 0)
            try? fm.removeItem(atPath: dir + "/latest")
            try fm.createSymbolicLink(atPath: dir + "/latest", withDestinationPath: "real/shot\(index)")
            let r = try demo(arguments)
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            XCTAssertEqual(r.stderr, "", name)
            XCTAssertEqual(node(dir + "/latest")?.linkTarget, "real/shot\(index)", "\(name): the link stays a link")
            XCTAssertEqual(node(target).map { $0.mode & 0o7777 }, 0o640, "\(name): the file keeps its mode")
            if arguments.contains("--fps") {
                let animation = try XCTUnwrap(DecodedAnimation(path: target), "\(name): a WebP at the link's target")
                XCTAssertEqual([animation.width, animation.height], [120, 200])
            } else {
                let image = try Image(pngFile: target)
                XCTAssertEqual([image.width, image.height], [arguments.contains("--strip") ? 360 : 120, 200], name)
            }
            XCTAssertEqual(listing(dir + "/real"), (0...index).map { "shot\($0)" }, "\(name): no temporary file left")
            XCTAssertEqual(listing(dir), ["latest", "real"])
        }
    }

    /// A new path is a new file of mode 0666 less the umask, as any program's new file.
    func testANewFileGetsTheUsualModeLessTheUmask() throws {
        let dir = try Support.temporaryDirectory(self, "output-new")
        let mask = umask(0)
        umask(mask)
        for (index, (name, arguments)) in writers(dir + "/out\(0)").enumerated() {
            let output = dir + "/out\(index)"
            let r = try demo(Array(arguments.dropLast()) + [output])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            XCTAssertEqual(node(output).map { $0.mode }, S_IFREG | (0o666 & ~mask), "\(name): mode")
        }
        XCTAssertEqual(listing(dir), ["out0", "out1", "out2"], "only the outputs")
    }

    // MARK: failed writes

    /// A full file system (a 64 KiB tmpfs, filled up, in a private mount namespace): exit 1 with
    /// one line naming the cause, the previous file byte for byte, no temporary file. Needs root
    /// for the mount; otherwise the same through a file size limit (`RLIMIT_FSIZE`).
    func testAFullFileSystemKeepsThePreviousFileAndLeavesNoTemporaryFile() throws {
        guard getuid() == 0, let unshare = findExecutable("unshare"), findExecutable("mount") != nil else {
            try assertFileSizeLimitKeepsThePreviousFile(label: "not root: file size limit instead")
            return
        }
        let dir = try Support.temporaryDirectory(self, "output-full")
        let mountPoint = dir + "/mnt"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        let previous = Data("the previous frame\n".utf8)
        try previous.write(to: URL(fileURLWithPath: dir + "/previous"))
        let script = """
            set -e
            mount -t tmpfs -o size=64k,mode=0755 modalkit-test "$MNT"
            cp "$PREVIOUS" "$MNT/out"
            dd if=/dev/zero of="$MNT/fill" bs=1k 2>/dev/null || true
            set +e
            "$DEMO" "$@" 2>"$ERR"
            echo "status=$?"
            cmp -s "$PREVIOUS" "$MNT/out" && echo same
            ls -A "$MNT"
            """
        for (name, arguments) in writers(mountPoint + "/out") {
            var env = Support.environment(["MODALKIT_STYLE_PATH": nil, "WAYLAND_DISPLAY": "mk-no-such-socket"])
            env["MNT"] = mountPoint; env["PREVIOUS"] = dir + "/previous"; env["ERR"] = dir + "/stderr"
            env["DEMO"] = try PluginCLITests.demoPath
            let r = try Support.run(unshare, ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh"] + arguments,
                                    environment: env, timeout: 60)
            XCTAssertEqual(r.status, 0, "\(name): the namespace script: \(r.stderr)")
            XCTAssertEqual(r.stdoutLines, ["status=1", "same", "fill", "out"],
                           "\(name): exit 1, the previous file byte for byte, no temporary file")
            let stderr = try String(contentsOfFile: dir + "/stderr", encoding: .utf8)
            XCTAssertEqual(stderr, "modal-demo: cannot write '\(mountPoint)/out': No space left on device\n", name)
        }
        XCTAssertEqual(listing(mountPoint), [], "the tmpfs went with its namespace")
    }

    /// A file size limit (`RLIMIT_FSIZE` of 1 KiB through prlimit, SIGXFSZ left at its default,
    /// which kills): modal-demo ignores SIGXFSZ while writing, so the write fails with EFBIG: exit
    /// 1, one line, the previous file byte for byte, no temporary file.
    func testAFileSizeLimitKeepsThePreviousFileAndLeavesNoTemporaryFile() throws {
        try assertFileSizeLimitKeepsThePreviousFile(label: "RLIMIT_FSIZE")
    }

    private func assertFileSizeLimitKeepsThePreviousFile(label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let prlimit = try XCTUnwrap(findExecutable("prlimit"), "prlimit (util-linux)", file: file, line: line)
        let dir = try Support.temporaryDirectory(self, "output-fsize")
        let output = dir + "/out"
        let previous = Data("the previous frame\n".utf8)
        for (name, arguments) in writers(output) {
            try previous.write(to: URL(fileURLWithPath: output))
            let env = Support.environment(["MODALKIT_STYLE_PATH": nil, "WAYLAND_DISPLAY": "mk-no-such-socket"])
            let r = try Support.run(prlimit, ["--fsize=1024", PluginCLITests.demoPath] + arguments, environment: env, timeout: 60)
            XCTAssertEqual(r.status, 1, "\(label) \(name): exit status; stderr: \(r.stderr)", file: file, line: line)
            XCTAssertEqual(r.stderrLines, ["modal-demo: cannot write '\(output)': File too large"], "\(label) \(name)", file: file, line: line)
            XCTAssertEqual(FileManager.default.contents(atPath: output), previous, "\(label) \(name): previous file as it was",
                           file: file, line: line)
            XCTAssertEqual(listing(dir), ["out"], "\(label) \(name): no temporary file", file: file, line: line)
        }
    }

    // MARK: new-style

    /// `new-style --directory` refuses, with exit 2 and one line and touching nothing, whatever is
    /// not a new path or an empty directory: a FIFO, a character device, a socket, a file, a link
    /// to a FIFO, a link to nothing, a path through a FIFO.
    func testNewStyleRefusesWhatIsNotADirectoryAndTouchesNothing() throws {
        let dir = try Support.temporaryDirectory(self, "new-style-nodes")
        let fm = FileManager.default
        XCTAssertEqual(mkfifo(dir + "/fifo", 0o644), 0)
        if getuid() == 0 { XCTAssertEqual(mknod(dir + "/device", S_IFCHR | 0o666, fullDevice), 0) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array((dir + "/socket").utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try "notes".write(toFile: dir + "/file", atomically: false, encoding: .utf8)
        try fm.createSymbolicLink(atPath: dir + "/to-fifo", withDestinationPath: "fifo")
        try fm.createSymbolicLink(atPath: dir + "/nowhere", withDestinationPath: "missing")
        var cases: [(directory: String, message: String)] = [
            ("fifo", "'\(dir)/fifo' exists and is a FIFO, not a directory"),
            ("socket", "'\(dir)/socket' exists and is a socket, not a directory"),
            ("file", "'\(dir)/file' exists and is a regular file, not a directory"),
            ("to-fifo", "'\(dir)/to-fifo' is a symbolic link to 'fifo', a FIFO, not a directory"),
            ("nowhere", "'\(dir)/nowhere' is a symbolic link to 'missing', which does not exist (new-style writes only into a new or empty directory)"),
            ("fifo/package", "cannot make '\(dir)/fifo/package': '\(dir)/fifo' is a FIFO, not a directory"),
        ]
        if getuid() == 0 { cases.append(("device", "'\(dir)/device' exists and is a character device, not a directory")) }
        let entries = listing(dir)
        let before = entries.map { node(dir + "/" + $0) }
        for (directory, message) in cases {
            let r = try demo(["new-style", "side-drawer", "--directory", dir + "/" + directory])
            XCTAssertEqual(r.status, 2, "\(directory): \(r.stderr)")
            XCTAssertEqual(r.stderrLines, ["modal-demo: " + message], directory)
            XCTAssertEqual(r.stdout, "", directory)
            XCTAssertEqual(listing(dir), entries, "\(directory): nothing made or removed")
            XCTAssertEqual(entries.map { node(dir + "/" + $0) }, before, "\(directory): every node untouched")
        }
    }

    /// A link to an empty directory is followed like `--output`'s link to a file: the package is
    /// written into the directory and the link stays a link.
    func testNewStyleFollowsALinkToAnEmptyDirectory() throws {
        let dir = try Support.temporaryDirectory(self, "new-style-link")
        try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir + "/package", withDestinationPath: "real")
        let r = try demo(["new-style", "side-drawer", "--directory", dir + "/package"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(node(dir + "/package")?.linkTarget, "real")
        let template = try StyleTemplate(name: "side-drawer", modalKitPath: "/m", demoPath: "/d")
        let top = Set(template.files.map { String($0.path.prefix { $0 != "/" }) })
        XCTAssertEqual(listing(dir + "/real"), top.sorted(), "the package written into the link's directory")
        for file in template.files {
            XCTAssertEqual((try? String(contentsOfFile: dir + "/real/" + file.path, encoding: .utf8))?.isEmpty, false, file.path)
        }
    }

    /// A write that fails part-way (a file size limit one byte under the first file, in writing
    /// order, that is longer than every file before it: those fit, it does not) exits 1 with one
    /// line and removes exactly what new-style made: in an existing empty directory the directory
    /// stays, empty; a new directory goes with the parents it made, and an existing parent with its
    /// other files stays as it was.
    func testNewStyleThatCannotWriteRemovesOnlyWhatItMade() throws {
        let files = try StyleTemplate(name: "side-drawer", modalKitPath: "/m", demoPath: "/d").files
        let sizes = files.map { $0.contents.utf8.count }
        let failing = try XCTUnwrap(sizes.indices.dropFirst().first { i in sizes[i] > sizes[..<i].max()! },
                                    "a file longer than every file written before it")
        let limit = sizes[failing] - 1
        let prlimit = try XCTUnwrap(findExecutable("prlimit"), "prlimit (util-linux)")
        let dir = try Support.temporaryDirectory(self, "new-style-fsize")
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: false)
        try "mine".write(toFile: dir + "/notes.txt", atomically: false, encoding: .utf8)
        let env = Support.environment(["MODALKIT_STYLE_PATH": nil, "WAYLAND_DISPLAY": "mk-no-such-socket"])
        for (directory, after) in [("empty", ["empty", "notes.txt"]), ("new/deeper", ["empty", "notes.txt"])] {
            let r = try Support.run(prlimit, ["--fsize=\(limit)", try PluginCLITests.demoPath, "new-style", "side-drawer",
                                              "--directory", dir + "/" + directory], environment: env, timeout: 60)
            XCTAssertEqual(r.status, 1, "\(directory): \(r.stderr)")
            XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("modal-demo: cannot write the package in '\(dir)/\(directory)': '\(dir)/\(directory)/\(files[failing].path)': File too large"),
                          r.stderr)
            XCTAssertEqual(listing(dir), after, "\(directory): only what new-style made is gone")
            XCTAssertEqual(listing(dir + "/empty"), [], "\(directory): the existing directory is empty again")
            XCTAssertEqual(try String(contentsOfFile: dir + "/notes.txt", encoding: .utf8), "mine")
        }
    }
}
