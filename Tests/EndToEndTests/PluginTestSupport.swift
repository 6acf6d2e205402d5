// Helpers for the style-plugin tests: where the installed libraries are, C fixture plugins compiled
// at test time, scratch directories, and running a program with a bounded wait.
import Foundation
import ModalKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

enum PluginTestSupport {
    /// The test binary's own directory (`/proc/self/exe`; `<scratch>/<triple>/debug`): the
    /// scratch directory's caches are found from it. The styles under test are the installed
    /// ones (``stylesDirectory()``), not the debug build's next to it.
    static let testBinaryDirectory: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        precondition(n > 0, "cannot read /proc/self/exe")
        buffer[n] = 0
        return (String(cString: buffer) as NSString).deletingLastPathComponent
    }()

    /// The package root (this file is Tests/EndToEndTests/PluginTestSupport.swift).
    static let packageRoot: String = {
        let file = "\(#filePath)" as NSString
        return ((file.deletingLastPathComponent as NSString).deletingLastPathComponent as NSString)
            .deletingLastPathComponent
    }()

    static var headerDirectory: String { packageRoot + "/Sources/CModalKitStyle/include" }
    /// The style ABI 1.0 header exactly as it shipped, kept so that a test can build a 1.0 plugin.
    static var abi10HeaderDirectory: String { packageRoot + "/Tests/EndToEndTests/Fixtures/abi-1.0" }
    /// The 1.1 header as it shipped (a genuine ABI 1.1 plugin is compiled against it).
    static var abi11HeaderDirectory: String { packageRoot + "/Tests/EndToEndTests/Fixtures/abi-1.1" }
    static var fixtureSource: String { packageRoot + "/Tests/EndToEndTests/Fixtures/fixture_style.c" }

    static let insetCenteredLibrary = "libModalKitStyleInsetCentered.so"
    static let bottomSheetLibrary = "libModalKitStyleBottomSheet.so"
    static let popoverLibrary = "libModalKitStylePopover.so"
    static let adaptiveLibrary = "libModalKitStyleAdaptive.so"

    /// The installed built-in styles (`PREFIX/lib/modalkit/styles`, ``InstalledProducts``): the
    /// release build users get.
    /// - Throws: `HarnessError` when no installed prefix is named.
    static func stylesDirectory() throws -> String { try InstalledProducts.stylesDirectory() }

    /// An installed built-in style library; fails the test when there is none.
    static func installedLibrary(_ file: String) throws -> String { try InstalledProducts.style(file) }

    /// `$TMPDIR` (Foundation's `NSTemporaryDirectory()`, /tmp when unset) without a trailing `/`:
    /// everything the tests make for a moment goes there, so `scripts/test` can give a run its own.
    static var temporaryBase: String {
        var base = NSTemporaryDirectory()
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// A directory that outlives a test run, for builds later runs reuse (the example package,
    /// the installed prefix): inside the SwiftPM scratch directory this test binary was built in
    /// (`.build` by default), so it is per checkout and goes away with the build, never in /tmp.
    static var cacheDirectory: String {
        let tripleDirectory = (testBinaryDirectory as NSString).deletingLastPathComponent   // …/x86_64-unknown-linux-gnu
        return (tripleDirectory as NSString).deletingLastPathComponent + "/modalkit-test-cache"
    }

    /// The scratch directory of the release build `scripts/install` makes: `scripts/test` installs
    /// the prefix the end-to-end tests run (``InstalledProducts``) from this very directory, so a
    /// test that installs again (``PluginInstallTests``) finds the build done and only copies.
    static var releaseScratch: String { cacheDirectory + "/install-release" }

    /// A new empty directory under `$TMPDIR`, removed when the test ends.
    static func temporaryDirectory(_ test: XCTestCase, _ label: String) throws -> String {
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
    static func compileFixture(_ file: String, in directory: String, defines: [String] = [],
                               headers: String = headerDirectory, note: [UInt8]? = nil) throws
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
            + ["-o", library, fixtureSource]
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
    static func fixtureDeclaration(name: String = "c-fixture") -> StyleDeclaration {
        StyleDeclaration(name: name, summary: "C fixture: container inset on every side, dim 0.3",
                         abiVersion: .current,
                         options: [StyleOption(key: "inset", summary: "inset on every side, points", defaultValue: "10")])
    }

    /// The file the fixture's ELF constructor appends to when the library is loaded.
    static func constructorMarker(of library: String) -> String { library + ".entry-called.constructor" }

    /// How many times the fixture library at `library` was loaded into a process (its
    /// constructor ran).
    static func constructorRuns(_ library: String) -> Int { entryCalls(constructorMarker(of: library)) }

    /// A C compiler: `cc` or `gcc` when the system has one, else the `clang` that comes with the
    /// Swift toolchain (always on PATH next to `swift`).
    static func cCompiler() throws -> String {
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
    static func compileLibraryLinking(_ library: String, as file: String, in directory: String) throws -> String {
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

    /// The ELF machine names the loader prints for this machine and for another one (to patch
    /// into a copy of a built library: `e_machine`, little-endian on both).
    #if arch(x86_64)
    static let hostMachine = (name: "x86-64", other: "AArch64", otherMachine: UInt16(183))
    #elseif arch(arm64)
    static let hostMachine = (name: "AArch64", other: "x86-64", otherMachine: UInt16(62))
    #endif

    /// A copy of `source` at `destination` with the bytes at the given offsets replaced.
    static func patchedCopy(of source: String, to destination: String, bytes: [Int: UInt8]) throws {
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
    static func foreignMachineCopy(in directory: String, file: String, elf32: Bool = false) throws -> String {
        let path = directory + "/" + file
        var patch: [Int: UInt8] = [18: UInt8(hostMachine.otherMachine & 0xFF), 19: UInt8(hostMachine.otherMachine >> 8)]
        if elf32 { patch = [4: 1] }
        try patchedCopy(of: try installedLibrary(insetCenteredLibrary), to: path, bytes: patch)
        return path
    }

    /// How many times a fixture's entry ran.
    static func entryCalls(_ marker: String) -> Int {
        guard let text = try? String(contentsOfFile: marker, encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").count
    }

    static func copy(_ source: String, to destination: String) throws {
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    struct RunResult {
        var status: Int32
        var stdout: String
        var stderr: String
        /// stderr split into lines, without a trailing empty one.
        var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// Runs a program to completion with stdout and stderr captured in files; after `timeout`
    /// seconds it is killed (by its PID) and the test fails.
    /// - Parameter isolatingTMPDIR: run it with `TMPDIR` set to a new directory that is removed
    ///   afterwards, with whatever the program left in it: for `swift build`, which leaves a few
    ///   `TemporaryDirectory.*` folders in `$TMPDIR` on every run.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    currentDirectory: String? = nil, isolatingTMPDIR: Bool = false, timeout: Double) throws -> RunResult
    {
        var environment = environment
        if isolatingTMPDIR {
            var template = Array("\(temporaryBase)/mk-plugin-run-tmp-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw PluginTestFailure("mkdtemp failed: errno \(errno)") }
            let privateTMPDIR = String(cString: made)
            defer { try? FileManager.default.removeItem(atPath: privateTMPDIR) }
            var env = environment ?? ProcessInfo.processInfo.environment
            env["TMPDIR"] = privateTMPDIR
            environment = env
            return try run(executable, arguments, environment: environment, currentDirectory: currentDirectory,
                           timeout: timeout)
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
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = done.wait(timeout: .now() + 10)
            throw PluginTestFailure("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
        }
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return RunResult(status: process.terminationStatus, stdout: out, stderr: err)
    }

    /// The environment of this process with changes (nil removes a variable).
    static func environment(_ changes: [String: String?]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in changes { env[key] = value }
        return env
    }
}

/// A test precondition that did not hold, with a one-line reason.
struct PluginTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The context of a presentation in an unknown container: for the hooks whose answer does not
/// depend on the container (duration, curve, a solid dim).
let presentContext = TransitionContext(phase: .present, containerBounds: .zero)

/// The layout context of a container of `bounds`.
func layoutContext(_ bounds: Rect) -> LayoutContext { LayoutContext(containerBounds: bounds) }

/// The context of a presentation in a container of `bounds`.
func presenting(in bounds: Rect) -> TransitionContext { TransitionContext(phase: .present, containerBounds: bounds) }
