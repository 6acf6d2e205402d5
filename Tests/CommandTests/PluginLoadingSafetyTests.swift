// What loading a style library may and may not do to the host (docs/design.md, plugin metadata and
// trust; README "What is checked before a style loads"): the file checked is the file loaded (a
// file put in the path's place between the checks and `dlopen` never loads; one changed in place is
// refused), a library named by path in a directory others may write is loaded only when nothing it
// needs would come from that directory through `$ORIGIN`, the same library with a neighbour loads
// with and without a private copy (`--watch`), the host's signal handlers survive a plugin's
// constructor, and listing or looking up a name runs nothing of a library without a note.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
@testable import ModalKit
@testable import ModalKitPlugins
#if canImport(Glibc)
import Glibc
#endif

final class PluginLoadingSafetyTests: XCTestCase {
    typealias Support = PluginTestSupport

    override func tearDown() {
        StyleLoader.afterChecks = nil
        super.tearDown()
    }

    private func noted(_ file: String, in dir: String, name: String = "c-fixture", defines: [String] = [],
                       linking: [String] = []) throws -> String {
        try Support.compileFixture(file, in: dir, defines: ["FIXTURE_NAME=\"\(name)\""] + defines,
                                   note: StyleNote.note(for: Support.fixtureDeclaration(name: name)), linking: linking).library
    }

    /// A name no other test uses: the dynamic loader knows a loaded library by its name
    /// process-wide, so two tests' neighbours must not share one.
    private func uniqueName(_ label: String) -> String { "libmk\(label)\(getpid())x\(UInt32.random(in: 0...UInt32.max))" }

    private func loadError(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) -> StyleLoadError? {
        do {
            _ = try body()
            XCTFail("expected a StyleLoadError", file: file, line: line)
            return nil
        } catch let error as StyleLoadError {
            return error
        } catch {
            XCTFail("expected a StyleLoadError, got \(error)", file: file, line: line)
            return nil
        }
    }

    // MARK: The file checked is the file loaded

    /// A library renamed over the checked path after the checks (an attacker's swap, or a build
    /// that writes a new file) is not what loads: the checked file is.
    func testAFileRenamedOverThePathAfterTheChecksIsNotWhatLoads() throws {
        let dir = try Support.temporaryDirectory(self, "swap")
        let other = try Support.temporaryDirectory(self, "swap-other")
        let checked = try noted("libModalKitStyleChecked.so", in: dir)
        let impostor = try noted("libModalKitStyleImpostor.so", in: other, name: "impostor")
        var swapped = false
        StyleLoader.afterChecks = { path in
            guard path == checked, !swapped else { return }
            swapped = true
            XCTAssertEqual(rename(impostor, checked), 0)
        }
        let module = try StyleLoader(searchPath: []).load(checked)
        XCTAssertTrue(swapped)
        XCTAssertEqual(module.name, "c-fixture", "the checked library loaded")
        XCTAssertEqual(Support.constructorRuns(checked), 1)
        XCTAssertEqual(Support.constructorRuns(impostor), 0, "nothing of the file put in its place ran")
        let style = try module.makeStyle(options: ["inset": "20"])
        XCTAssertEqual(style.frameOfPresentedView(layoutContext(Rect(x: 0, y: 0, width: 100, height: 100))),
                       Rect(x: 20, y: 20, width: 60, height: 60))
    }

    /// The open file rewritten in place after the checks (same inode, other bytes) is refused,
    /// and nothing of either version ran.
    func testAFileRewrittenInPlaceAfterTheChecksIsRefused() throws {
        let dir = try Support.temporaryDirectory(self, "rewrite")
        let other = try Support.temporaryDirectory(self, "rewrite-other")
        let checked = try noted("libModalKitStyleRewritten.so", in: dir)
        let impostor = try noted("libModalKitStyleImpostor.so", in: other, name: "impostor")
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: impostor))
        StyleLoader.afterChecks = { path in
            guard path == checked else { return }
            let fd = open(checked, O_WRONLY | O_TRUNC)
            XCTAssertGreaterThanOrEqual(fd, 0)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        XCTAssertEqual(loadError { try StyleLoader(searchPath: []).load(checked) }, .changedSinceChecked(path: checked))
        XCTAssertEqual(loadError { try StyleLoader(searchPath: []).load(checked) }?.reason,
                       "changed since it was checked (not loaded; try again once it is written)")
        XCTAssertEqual(Support.constructorRuns(checked), 0)
        XCTAssertEqual(Support.constructorRuns(impostor), 0)
    }

    /// `--watch`'s private copy is made from the checked descriptor: a file renamed over the path
    /// while it is copied is not what loads.
    func testAPrivateCopyIsOfTheCheckedFile() throws {
        let dir = try Support.temporaryDirectory(self, "copy-swap")
        let other = try Support.temporaryDirectory(self, "copy-swap-other")
        let checked = try noted("libModalKitStyleCopied.so", in: dir)
        let impostor = try noted("libModalKitStyleImpostor.so", in: other, name: "impostor")
        var swapped = false
        StyleLoader.afterChecks = { _ in
            guard !swapped else { return }
            swapped = true
            XCTAssertEqual(rename(impostor, checked), 0)
        }
        let module = try StyleLoader.loadPrivateCopy(checked)
        XCTAssertTrue(swapped)
        XCTAssertEqual(module.name, "c-fixture")
        XCTAssertEqual(module.path, checked)
        XCTAssertEqual(Support.constructorRuns(impostor), 0)
    }

    // MARK: $ORIGIN

    /// A plugin named by path in a directory writable by another group: loaded when it has no
    /// `$ORIGIN` entry or needs nothing new; refused, naming the directory, when the dynamic loader
    /// would look for a library it needs there. In a trusted directory the same pair loads.
    func testAPluginInAnUntrustedDirectoryLoadsNothingFromItThroughOrigin() throws {
        guard geteuid() == 0 else { throw XCTSkip("changing a directory's group needs root (the tests run as root in CI)") }
        guard let users = getgrnam("users") ?? getgrnam("nogroup") else { throw XCTSkip("no 'users' or 'nogroup' group") }
        let base = try Support.temporaryDirectory(self, "origin")
        let shared = base + "/shared"
        XCTAssertEqual(mkdir(shared, 0o755), 0)
        let neighbour = uniqueName("nb")
        _ = try Support.compileNeighbour(neighbour + ".so", in: shared, symbol: neighbour + "_value")
        let linking = ["-Wl,--no-as-needed", "-L", shared, "-l:\(neighbour).so", "-Wl,-rpath,$ORIGIN"]
        let withNeighbour = try noted("libModalKitStyleWithNeighbour.so", in: shared, name: "with-neighbour", linking: linking)
        let originOnly = try noted("libModalKitStyleOriginOnly.so", in: shared, name: "origin-only",
                                   linking: ["-Wl,-rpath,$ORIGIN"])
        XCTAssertEqual(chown(shared, 0, users.pointee.gr_gid), 0)
        XCTAssertEqual(chmod(shared, 0o775), 0)

        let error = loadError { try StyleLoader(searchPath: []).load(withNeighbour) }
        XCTAssertEqual(error?.reason, "refused: it loads libraries it needs from '$ORIGIN' (its RUNPATH/RPATH), and "
                       + "\(shared) is writable by group (mode 0775, owner uid 0)")
        XCTAssertEqual(Support.constructorRuns(withNeighbour), 0)
        // An $ORIGIN entry but nothing to look for (libc is loaded already): nothing comes from there.
        XCTAssertEqual(try StyleLoader(searchPath: []).load(originOnly).name, "origin-only")
        // The demo says the same in one line, exit 2.
        let r = try PluginCLITests.demo(["render", "--style", withNeighbour, "--size", "40x40", "--progress", "1",
                                         "--output", base + "/x.png"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderrLines, ["modal-demo: \(withNeighbour): " + (error?.reason ?? "")])

        // The directory made the user's alone: the pair loads.
        XCTAssertEqual(chmod(shared, 0o755), 0)
        let module = try StyleLoader(searchPath: []).load(withNeighbour)
        XCTAssertEqual(module.name, "with-neighbour")
        XCTAssertEqual(Support.constructorRuns(withNeighbour), 1)
    }

    /// A plugin shipped with a library beside it (found through `$ORIGIN`) loads the same way
    /// directly and as the private copy `--watch` loads.
    func testAPluginWithANeighbourLoadsWithAndWithoutAPrivateCopy() throws {
        let dir = try Support.temporaryDirectory(self, "neighbour")
        let neighbour = uniqueName("nw")
        _ = try Support.compileNeighbour(neighbour + ".so", in: dir, symbol: neighbour + "_value")
        let linking = ["-Wl,--no-as-needed", "-L", dir, "-l:\(neighbour).so", "-Wl,-rpath,$ORIGIN"]
        let library = try noted("libModalKitStyleShipped.so", in: dir, name: "shipped", linking: linking)
        let copy = try StyleLoader.loadPrivateCopy(library)
        XCTAssertEqual(copy.name, "shipped")
        XCTAssertEqual(copy.path, library)
        let direct = try StyleLoader(searchPath: []).load(library)
        XCTAssertEqual(direct.name, "shipped")
        let again = try StyleLoader.loadPrivateCopy(library)
        XCTAssertEqual(again.name, "shipped")
        XCTAssertEqual(Support.constructorRuns(library), 3, "each private copy is a new object, and the file itself once")
        for module in [copy, direct, again] {
            let style = try module.makeStyle()
            XCTAssertEqual(style.frameOfPresentedView(layoutContext(Rect(x: 0, y: 0, width: 100, height: 100))),
                           Rect(x: 10, y: 10, width: 80, height: 80))
        }

        // The install layout's kind of entry, a directory beside the plugin's: $ORIGIN/../lib.
        let styles = dir + "/share/styles", lib = dir + "/share/lib"
        XCTAssertEqual(mkdir(dir + "/share", 0o755), 0)
        XCTAssertEqual(mkdir(styles, 0o755), 0)
        XCTAssertEqual(mkdir(lib, 0o755), 0)
        let above = uniqueName("up")
        _ = try Support.compileNeighbour(above + ".so", in: lib, symbol: above + "_value")
        let installed = try noted("libModalKitStyleInstalled.so", in: styles, name: "installed",
                                  linking: ["-Wl,--no-as-needed", "-L", lib, "-l:\(above).so", "-Wl,-rpath,$ORIGIN/../lib"])
        XCTAssertEqual(try StyleLoader.loadPrivateCopy(installed).name, "installed")
        XCTAssertEqual(try StyleLoader(searchPath: [styles]).load("installed").name, "installed")
    }

    /// What a reload leaves behind: the copy stays mapped, but the replaced style object (and
    /// with it the plugin's instance, `destroy`ed) is released, and no copy is remembered in the
    /// loader's cache.
    func testAReplacedStyleFromAPrivateCopyIsReleased() throws {
        let dir = try Support.temporaryDirectory(self, "released")
        let library = try noted("libModalKitStyleReleased.so", in: dir, name: "released")
        let cached = PluginLibrary.cachedCount
        weak var first: PresentationStyle?
        weak var instance: PluginHostInstance?
        var style: PresentationStyle? = try StyleLoader.loadPrivateCopy(library).makeStyle()
        first = style
        instance = style?.pluginInstance
        XCTAssertNotNil(instance)
        style = try StyleLoader.loadPrivateCopy(library).makeStyle()
        XCTAssertNil(first, "the replaced style is released")
        XCTAssertNil(instance, "and the plugin's instance with it")
        XCTAssertNotNil(style)
        XCTAssertEqual(PluginLibrary.cachedCount, cached, "private copies are not cached")
    }

    // MARK: Signals

    /// A plugin whose constructor installs its own SIGTERM and SIGINT handlers: the host's are
    /// in place again after the load, and one line says the plugin tried.
    func testThePluginsConstructorCannotReplaceTheHostsSignalHandlers() throws {
        let dir = try Support.temporaryDirectory(self, "signals")
        let library = try noted("libModalKitStyleSignals.so", in: dir, name: "signals", defines: ["FIXTURE_SIGNALS"])
        let hostHandler: @convention(c) (Int32) -> Void = { _ in }
        var savedTerm = sigaction(), savedInt = sigaction()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = hostHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_RESTART)
        XCTAssertEqual(sigaction(SIGTERM, &action, &savedTerm), 0)
        XCTAssertEqual(sigaction(SIGINT, &action, &savedInt), 0)
        defer {
            sigaction(SIGTERM, &savedTerm, nil)
            sigaction(SIGINT, &savedInt, nil)
        }
        var lines: [String] = []
        let old = PluginDiagnostics.setSink { lines.append($0) }
        defer { PluginDiagnostics.setSink(old) }

        let module = try StyleLoader(searchPath: []).load(library)
        XCTAssertEqual(module.name, "signals")
        XCTAssertEqual(Support.constructorRuns(library), 1, "the constructor ran")
        for signal in [SIGTERM, SIGINT] {
            var now = sigaction()
            XCTAssertEqual(sigaction(signal, nil, &now), 0)
            XCTAssertEqual(unsafeBitCast(now.__sigaction_handler.sa_handler, to: UInt.self),
                           unsafeBitCast(hostHandler, to: UInt.self), "signal \(signal): the host's handler")
            XCTAssertEqual(now.sa_flags & Int32(SA_RESTART), Int32(SA_RESTART))
        }
        XCTAssertEqual(lines, ["style library \(library) changed the handlers of SIGINT, SIGTERM when loaded; "
                               + "the host's are restored"])
    }

    // MARK: Libraries without a note

    /// A library without a note (a C plugin writing none) is listed without being loaded, a name
    /// lookup does not load it either, and it loads when named by its path.
    func testALibraryWithoutANoteRunsNothingWhenListedOrLookedUpAndLoadsByPath() throws {
        let dir = try Support.temporaryDirectory(self, "no-note-safe")
        let fixture = try Support.compileFixture("libModalKitStyleNoNote.so", in: dir)
        let loader = StyleLoader(searchPath: [dir])
        XCTAssertEqual(StyleCommandText.listingLines(loader.list()),
                       ["# no-note\t\(fixture.library)\tno .note.modalkit note, so nothing of it was read: "
                        + "load it by path, or rebuild it"])
        XCTAssertThrowsError(try loader.find("c-fixture"))
        XCTAssertEqual(Support.constructorRuns(fixture.library), 0, "listing and looking up ran nothing of it")
        let listed = try PluginCLITests.demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": dir])
        XCTAssertTrue(listed.stdoutLines.contains("# no-note\t\(fixture.library)\tno .note.modalkit note, so nothing of it "
                                                  + "was read: load it by path, or rebuild it"), listed.stdout)
        XCTAssertEqual(Support.constructorRuns(fixture.library), 0)
        let module = try loader.load(fixture.library)
        XCTAssertEqual(module.name, "c-fixture")
        XCTAssertEqual(module.metadataSource, .descriptor)
        XCTAssertEqual(Support.constructorRuns(fixture.library), 1)
    }
}
