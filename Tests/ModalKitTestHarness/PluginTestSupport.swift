// Helpers for the style-plugin tests: where the installed libraries are, C fixture plugins compiled
// at test time, scratch directories, and running a program with a bounded wait.
import Foundation
import ModalKitSession
import ModalKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

public enum PluginTestSupport {
    /// The test binary's own directory (`/proc/self/exe`; `<scratch>/<triple>/debug`): the
    /// scratch directory's caches are found from it. The styles under test are the installed
    /// ones (``stylesDirectory()``), not the debug build's next to it.
    public static let testBinaryDirectory: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        precondition(n > 0, "cannot read /proc/self/exe")
        buffer[n] = 0
        return (String(cString: buffer) as NSString).deletingLastPathComponent
    }()

    /// The package root (this file is Tests/ModalKitTestHarness/PluginTestSupport.swift).
    public static let packageRoot: String = {
        let file = "\(#filePath)" as NSString
        return ((file.deletingLastPathComponent as NSString).deletingLastPathComponent as NSString)
            .deletingLastPathComponent
    }()

    public static var headerDirectory: String { packageRoot + "/Sources/CModalKitStyle/include" }
    /// The style ABI 1.0 header exactly as it shipped, kept so that a test can build a 1.0 plugin.
    public static var abi10HeaderDirectory: String { packageRoot + "/Tests/ModalKitTestHarness/Fixtures/abi-1.0" }
    /// The 1.1 header as it shipped (a genuine ABI 1.1 plugin is compiled against it).
    public static var abi11HeaderDirectory: String { packageRoot + "/Tests/ModalKitTestHarness/Fixtures/abi-1.1" }
    /// The 1.2 header as it shipped (a genuine ABI 1.2 plugin is compiled against it).
    public static var abi12HeaderDirectory: String { packageRoot + "/Tests/ModalKitTestHarness/Fixtures/abi-1.2" }
    public static var fixtureSource: String { packageRoot + "/Tests/ModalKitTestHarness/Fixtures/fixture_style.c" }

    public static let insetCenteredLibrary = "libModalKitStyleInsetCentered.so"
    public static let bottomSheetLibrary = "libModalKitStyleBottomSheet.so"
    public static let popoverLibrary = "libModalKitStylePopover.so"
    public static let adaptiveLibrary = "libModalKitStyleAdaptive.so"

    /// The installed built-in styles (`PREFIX/lib/modalkit/styles`, ``InstalledProducts``): the
    /// release build users get.
    /// - Throws: `HarnessError` when no installed prefix is named.
    public static func stylesDirectory() throws -> String { try InstalledProducts.stylesDirectory() }

    /// An installed built-in style library; fails the test when there is none.
    public static func installedLibrary(_ file: String) throws -> String { try InstalledProducts.style(file) }

    /// `$TMPDIR` (Foundation's `NSTemporaryDirectory()`, /tmp when unset) without a trailing `/`:
    /// everything the tests make for a moment goes there, so `scripts/test` can give a run its own.
    public static var temporaryBase: String {
        var base = NSTemporaryDirectory()
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// A directory that outlives a test run, for builds later runs reuse (the example package,
    /// the installed prefix): inside the SwiftPM scratch directory this test binary was built in
    /// (`.build` by default), so it is per checkout and goes away with the build, never in /tmp.
    public static var cacheDirectory: String {
        let tripleDirectory = (testBinaryDirectory as NSString).deletingLastPathComponent   // …/x86_64-unknown-linux-gnu
        return (tripleDirectory as NSString).deletingLastPathComponent + "/modalkit-test-cache"
    }

    /// The scratch directory of the release build `scripts/install` makes (its default,
    /// `<scratch>/install`): `scripts/test` installs the prefix the end-to-end tests run
    /// (``InstalledProducts``) from this very directory, so a test that installs again
    /// (``PluginInstallTests``) finds the build done and only copies.
    public static var releaseScratch: String {
        let tripleDirectory = (testBinaryDirectory as NSString).deletingLastPathComponent   // …/x86_64-unknown-linux-gnu
        return (tripleDirectory as NSString).deletingLastPathComponent + "/install"
    }

    /// A new empty directory under `$TMPDIR`, removed when the test ends.
    public static func temporaryDirectory(_ test: XCTestCase, _ label: String) throws -> String {
        var template = Array("\(temporaryBase)/mk-plugin-test-\(label)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw PluginTestFailure("mkdtemp failed: errno \(errno)") }
        let dir = String(cString: made)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    /// A fixture plugin compiled from `Fixtures/fixture_style.c` with `defines` (each `NAME` or
    /// `NAME=VALUE`) into `directory/file`. Its entry appends a line to the returned marker
    /// file each time it runs; its ELF constructor appends one to `constructorMarker(of:)` when
    /// the library is loaded.
    /// - Parameters:
    ///   - headers: the directory of the `modalkit_style.h` to build against (default: today's;
    ///     ``abi10HeaderDirectory`` makes a genuine ABI 1.0 plugin).
    ///   - note: a style note to put in the library's `.note.modalkit` section (the whole note,
    ///     as `StyleNote.note(for:)` makes it); nil: none, a library as built before notes.
    ///   - linking: arguments for the link, after the source (`-Wl,-rpath,$ORIGIN`, libraries).
    public static func compileFixture(_ file: String, in directory: String, defines: [String] = [],
                               headers: String = headerDirectory, note: [UInt8]? = nil,
                               linking: [String] = []) throws
        -> (library: String, marker: String)
    {
        let library = directory + "/" + file
        let marker = library + ".entry-called"
        var noteDefines: [String] = []
        if let note {
            let header = library + ".note.h"
            let bytes = note.map { String($0) }.joined(separator: ",")
            try """
                __attribute__((section(".note.modalkit"), used, aligned(4)))
                static const unsigned char modalkit_fixture_note[\(note.count)] = {\(bytes)};

                """.write(toFile: header, atomically: false, encoding: .utf8)
            noteDefines = ["-DFIXTURE_NOTE_HEADER=\"\(header)\""]
        }
        let arguments = ["-shared", "-fPIC", "-std=c11", "-Wall", "-Werror", "-I", headers,
                         "-DFIXTURE_MARKER=\"\(marker)\""] + noteDefines + defines.map { "-D" + $0 }
            + ["-o", library, fixtureSource] + linking
        let compiler = try cCompiler()
        let result = try run(compiler, arguments, timeout: 120)
        guard result.status == 0 else {
            throw PluginTestFailure("\(compiler) \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
        if note != nil { unlink(library + ".note.h") }
        return (library, marker)
    }

    /// The declaration the C fixture's descriptor makes (its default build): what a truthful
    /// note for it says.
    public static func fixtureDeclaration(name: String = "c-fixture") -> StyleDeclaration {
        StyleDeclaration(name: name, summary: "C fixture: container inset on every side, dim 0.3",
                         abiVersion: .current,
                         options: [StyleOption(key: "inset", summary: "inset on every side, points", defaultValue: "10")])
    }

    /// The file the fixture's ELF constructor appends to when the library is loaded.
    public static func constructorMarker(of library: String) -> String { library + ".entry-called.constructor" }

    /// How many times the fixture library at `library` was loaded into a process (its
    /// constructor ran).
    public static func constructorRuns(_ library: String) -> Int { entryCalls(constructorMarker(of: library)) }

    /// A C compiler: `cc` or `gcc` when the system has one, else the `clang` that comes with the
    /// Swift toolchain (always on PATH next to `swift`).
    public static func cCompiler() throws -> String {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["cc", "gcc", "clang"] {
            for dir in dirs where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
                return "\(dir)/\(name)"
            }
        }
        throw PluginTestFailure("no C compiler (cc, gcc or clang) on PATH for the fixture plugins")
    }

    /// A shared library `directory/file` that defines no symbol of the style ABI itself but has a
    /// `DT_NEEDED` on `library` (linked with `--no-as-needed`, found through an rpath), so that
    /// `dlsym` on its handle finds `library`'s `modalkit_style_entry`.
    public static func compileLibraryLinking(_ library: String, as file: String, in directory: String) throws -> String {
        let source = directory + "/" + file + ".c"
        try "int modalkit_test_links_a_style(void) { return 1; }\n".write(toFile: source, atomically: false, encoding: .utf8)
        let output = directory + "/" + file
        let libraryDirectory = (library as NSString).deletingLastPathComponent
        let arguments = ["-shared", "-fPIC", "-o", output, source, "-Wl,--no-as-needed",
                         "-L", libraryDirectory, "-l:" + (library as NSString).lastPathComponent,
                         "-Wl,-rpath," + libraryDirectory]
        let compiler = try cCompiler()
        let result = try run(compiler, arguments, timeout: 120)
        guard result.status == 0 else {
            throw PluginTestFailure("\(compiler) \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
        unlink(source)
        return output
    }

    /// A shared library `directory/file` (no SONAME) defining `int symbol(void)`, which returns
    /// 42: a library a plugin ships beside itself and finds through `$ORIGIN`.
    public static func compileNeighbour(_ file: String, in directory: String, symbol: String) throws -> String {
        let source = directory + "/" + file + ".c"
        try "int \(symbol)(void) { return 42; }\n".write(toFile: source, atomically: false, encoding: .utf8)
        let output = directory + "/" + file
        let compiler = try cCompiler()
        let result = try run(compiler, ["-shared", "-fPIC", "-o", output, source], timeout: 120)
        guard result.status == 0 else { throw PluginTestFailure("\(compiler) failed for \(file): \(result.stderr)") }
        unlink(source)
        return output
    }

    /// The ELF machine names the loader prints for this machine and for another one (to patch
    /// into a copy of a built library: `e_machine`, little-endian on both).
    #if arch(x86_64)
    public static let hostMachine = (name: "x86-64", other: "AArch64", otherMachine: UInt16(183))
    #elseif arch(arm64)
    public static let hostMachine = (name: "AArch64", other: "x86-64", otherMachine: UInt16(62))
    #endif

    /// A copy of `source` at `destination` with the bytes at the given offsets replaced.
    public static func patchedCopy(of source: String, to destination: String, bytes: [Int: UInt8]) throws {
        guard var data = FileManager.default.contents(atPath: source) else {
            throw PluginTestFailure("cannot read \(source)")
        }
        for (offset, byte) in bytes { data[offset] = byte }
        guard FileManager.default.createFile(atPath: destination, contents: data) else {
            throw PluginTestFailure("cannot write \(destination)")
        }
    }

    /// A copy of an installed style library whose ELF header says it is for another machine
    /// (`e_machine`, offset 18), or with `elf32` instead for the 32-bit class (`e_ident[EI_CLASS]`).
    public static func foreignMachineCopy(in directory: String, file: String, elf32: Bool = false) throws -> String {
        let path = directory + "/" + file
        var patch: [Int: UInt8] = [18: UInt8(hostMachine.otherMachine & 0xFF), 19: UInt8(hostMachine.otherMachine >> 8)]
        if elf32 { patch = [4: 1] }
        try patchedCopy(of: try installedLibrary(insetCenteredLibrary), to: path, bytes: patch)
        return path
    }

    /// How many times a fixture's entry ran.
    public static func entryCalls(_ marker: String) -> Int {
        guard let text = try? String(contentsOfFile: marker, encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").count
    }

    public static func copy(_ source: String, to destination: String) throws {
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    public struct RunResult {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// stderr split into lines, without a trailing empty one.
        public var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
        public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// Runs a program to completion with stdout and stderr captured in files; after `timeout`
    /// seconds it is killed (by its PID) and the test fails.
    /// - Parameter isolatingTMPDIR: for `swift build` (and scripts that run it): run it with `TMPDIR`
    ///   set to a directory of its own that is removed afterwards, with whatever the program left in
    ///   it (SwiftPM leaves a few `TemporaryDirectory.*` folders in `$TMPDIR` on every run), and,
    ///   unless `environment` is given, with only `HOME`, `PATH` and `LANG` from this process. SwiftPM
    ///   keeps a package's compiled build-tool plugins keyed on the whole environment it runs in
    ///   and recompiles them (redoing every step after them) when it differs, so the environment is
    ///   the same for the same command line from any test process: the directory is in
    ///   ``cacheDirectory``, named after a hash of the command line, and held under a file lock
    ///   while the program runs (two test processes building the same package take turns, as
    ///   SwiftPM's own lock on the build directory would make them anyway).
    /// - Parameter environmentKey: with `isolatingTMPDIR`, the directory is named after this instead
    ///   of the command line: the builds of several packages in one scratch directory (given as the
    ///   key) then run in one environment, and one at a time.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    currentDirectory: String? = nil, isolatingTMPDIR: Bool = false, environmentKey: String? = nil,
                    timeout: Double) throws -> RunResult
    {
        if isolatingTMPDIR {
            // FNV-1a (64-bit) of the key or the command line: the same name in every test process.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in (environmentKey.map { [$0] } ?? [currentDirectory ?? "", executable] + arguments).joined(separator: "\0").utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            let privateTMPDIR = cacheDirectory + "/tmp-" + String(hash, radix: 16)
            let deadline = Date().addingTimeInterval(timeout)
            return try holdingLock(privateTMPDIR + ".lock", timeout: timeout,
                                   what: "\(executable) \(arguments.joined(separator: " "))") {
                try? FileManager.default.removeItem(atPath: privateTMPDIR)
                try FileManager.default.createDirectory(atPath: privateTMPDIR, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(atPath: privateTMPDIR) }
                var env = environment ?? ProcessInfo.processInfo.environment.filter { ["HOME", "PATH", "LANG"].contains($0.key) }
                env["TMPDIR"] = privateTMPDIR
                return try run(executable, arguments, environment: env, currentDirectory: currentDirectory,
                               timeout: max(1, deadline.timeIntervalSinceNow))
            }
        }
        let outPath = "\(temporaryBase)/mk-plugin-run-\(getpid())-\(UUID().uuidString).out"
        let errPath = outPath.replacingOccurrences(of: ".out", with: ".err")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { unlink(outPath); unlink(errPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        // The child gets its own copies of these descriptors; the test process closes its own as
        // soon as the child runs. (Foundation's Process never closes a FileHandle it was given, and
        // the Process object is not freed when the run ends: left to it, every run would leave
        // the three open in this process.)
        guard let input = FileHandle(forReadingAtPath: "/dev/null"),
              let output = FileHandle(forWritingAtPath: outPath),
              let error = FileHandle(forWritingAtPath: errPath) else {
            throw PluginTestFailure("cannot open /dev/null or \(outPath) for \(executable)")
        }
        defer { try? input.close(); try? output.close(); try? error.close() }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        try? input.close(); try? output.close(); try? error.close()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = done.wait(timeout: .now() + 10)
            throw PluginTestFailure("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
        }
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return RunResult(status: process.terminationStatus, stdout: out, stderr: err)
    }

    /// Runs the installed modal-demo with MODALKIT_STYLE_PATH and any Wayland session removed, unless
    /// `environment` sets them.
    public static func runDemo(_ arguments: [String], environment: [String: String?] = [:],
                               currentDirectory: String? = nil) throws -> PluginTestSupport.RunResult {
        let demoPath = try InstalledProducts.demo()
        var changes: [String: String?] = ["MODALKIT_STYLE_PATH": nil, "WAYLAND_DISPLAY": "mk-plugin-test-no-such-socket",
                                          "WAYLAND_SOCKET": nil]
        for (key, value) in environment { changes[key] = value }
        return try run(demoPath, arguments, environment: PluginTestSupport.environment(changes),
                       currentDirectory: currentDirectory, timeout: 60)
    }

    /// A package made by `modal-demo new-style NAME` at a fixed place in this checkout's build
    /// directory, its `.build` kept across runs (moved aside while the directory is made anew, since
    /// new-style writes only into a new or empty directory), so that `swift build` there is
    /// incremental: the README's own commands, as fast as the other example builds. The tests
    /// that build a style package share this one (the installed ModalKit it depends on is then
    /// compiled once), so it is `test`'s from now until it ends (waiting for a test in another
    /// process that has it): nobody else changes or builds it meanwhile.
    /// - Throws: ``PluginTestFailure`` when another test process keeps it for 1500 s.
    public static func freshPackage(_ name: String, for test: XCTestCase) throws -> (directory: String, result: RunResult) {
        let directory = cacheDirectory + "/new-style/" + name
        try holdLock(directory + ".lock", until: test, what: "the style package \(directory)")
        let keep = cacheDirectory + "/new-style/" + name + ".build-kept"
        let fm = FileManager.default
        try? fm.removeItem(atPath: keep)
        if fm.fileExists(atPath: directory + "/.build") { try fm.moveItem(atPath: directory + "/.build", toPath: keep) }
        try? fm.removeItem(atPath: directory)
        let result = try runDemo(["new-style", name, "--directory", directory])
        if fm.fileExists(atPath: keep) {
            try? fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try fm.moveItem(atPath: keep, toPath: directory + "/.build")
        }
        return (directory, result)
    }

    /// `swift build` in `directory`, as the README says (its `.build` inside it).
    public static func swiftBuild(_ directory: String) throws -> RunResult {
        try run("/usr/bin/env", ["swift", "build"], currentDirectory: directory, isolatingTMPDIR: true, timeout: 1500)
    }

    /// Runs `body` holding an exclusive `flock` on the file `path` (made if missing), waiting up to
    /// `timeout` seconds for another process (or thread) holding it.
    /// - Throws: ``PluginTestFailure`` when the file cannot be opened or the wait runs out (naming
    ///   `what`), and whatever `body` throws.
    public static func holdingLock<T>(_ path: String, timeout: Double, what: String, _ body: () throws -> T) throws -> T {
        let lock = try acquireLock(path, timeout: timeout, what: what)
        defer { close(lock) }   // and with it the lock
        return try body()
    }

    /// The descriptors of the locks ``holdLock(_:until:what:)`` holds for the running test, by path.
    private static var heldLocks: [String: Int32] = [:]

    /// Holds an exclusive `flock` on the file `path` (made if missing) from now until `test` ends,
    /// waiting up to 1500 s for another process holding it; nothing when `test` holds it already.
    /// - Throws: ``PluginTestFailure`` when the file cannot be opened or the wait runs out (naming `what`).
    public static func holdLock(_ path: String, until test: XCTestCase, what: String) throws {
        guard heldLocks[path] == nil else { return }
        let lock = try acquireLock(path, timeout: 1500, what: what)
        heldLocks[path] = lock
        test.addTeardownBlock {
            close(lock)   // and with it the lock
            heldLocks[path] = nil
        }
    }

    /// An exclusive `flock` on the file `path` (made if missing), waited for up to `timeout`
    /// seconds: the open descriptor, whose `close` releases it.
    /// - Throws: ``PluginTestFailure`` when the file cannot be opened or the wait runs out (naming `what`).
    public static func acquireLock(_ path: String, timeout: Double, what: String) throws -> Int32 {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw PluginTestFailure("cannot open \(path): errno \(errno)") }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard Date() < deadline else {
                close(lock)
                throw PluginTestFailure("\(what): another test process held \(path) for \(timeout) s")
            }
            usleep(100_000)
        }
        return lock
    }

    /// The environment of this process with changes (nil removes a variable).
    public static func environment(_ changes: [String: String?]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in changes { env[key] = value }
        return env
    }
}

/// A test precondition that did not hold, with a one-line reason.
public struct PluginTestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The context of a presentation in an unknown container: for the hooks whose answer does not
/// depend on the container (duration, curve, a solid dim).
public let presentContext = TransitionContext(phase: .present, containerBounds: .zero)

/// The layout context of a container of `bounds`.
public func layoutContext(_ bounds: Rect) -> LayoutContext { LayoutContext(containerBounds: bounds) }

/// The context of a presentation in a container of `bounds`.
public func presenting(in bounds: Rect) -> TransitionContext { TransitionContext(phase: .present, containerBounds: bounds) }
