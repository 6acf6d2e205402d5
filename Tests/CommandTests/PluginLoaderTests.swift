// The style loader in-process (docs/design.md, plugin boundary): the built-in style libraries found
// and used through the C ABI only, every load error, ABI checks proven to run before the
// plugin's entry, the style path's order and shadowing. Values come from docs/design.md and the
// header's rules, not from what the code printed.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKit
import ModalKitPlugins

final class PluginLoaderTests: XCTestCase {
    typealias Support = PluginTestSupport

    private func loader(_ dirs: String...) -> StyleLoader { StyleLoader(searchPath: dirs) }

    /// The note of a fixture that says it was built for `major.minor` (as its version symbol does).
    private func fixtureNote(major: UInt32, minor: UInt32 = StyleABIVersion.current.minor) -> [UInt8] {
        var declaration = Support.fixtureDeclaration()
        declaration.abiVersion = StyleABIVersion(major: major, minor: minor)
        return StyleNote.note(for: declaration)
    }

    /// What `modal-demo --list-styles` prints for this loader's search path.
    private func listingLines(_ loader: StyleLoader) -> [String] { StyleCommandText.listingLines(loader.list()) }

    /// The error a name lookup throws, as a StyleLookupError.
    private func lookupError(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line)
        -> StyleLookupError?
    {
        do {
            _ = try body()
            XCTFail("expected a StyleLookupError", file: file, line: line)
            return nil
        } catch let error as StyleLookupError {
            XCTAssertFalse(error.description.contains("\n"), "one line: \(error)", file: file, line: line)
            return error
        } catch {
            XCTFail("expected a StyleLookupError, got \(error)", file: file, line: line)
            return nil
        }
    }

    /// The error `body` throws, as a StyleLoadError.
    private func loadError(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line)
        -> StyleLoadError?
    {
        do {
            _ = try body()
            XCTFail("expected a StyleLoadError", file: file, line: line)
            return nil
        } catch let error as StyleLoadError {
            XCTAssertFalse(error.description.contains("\n"), "one line: \(error)", file: file, line: line)
            return error
        } catch {
            XCTFail("expected a StyleLoadError, got \(error)", file: file, line: line)
            return nil
        }
    }

    // MARK: Built-in styles

    func testListFindsTheThreeBuiltInStylesWithTheirLibraryPaths() throws {
        let dir = try Support.stylesDirectory()
        let inset = try Support.installedLibrary(Support.insetCenteredLibrary)
        let sheet = try Support.installedLibrary(Support.bottomSheetLibrary)
        let popover = try Support.installedLibrary(Support.popoverLibrary)
        let listing = loader(dir).list()
        XCTAssertEqual(listing.found.first { $0.name == "inset-centered" }?.path, inset)
        XCTAssertEqual(listing.found.first { $0.name == "bottom-sheet" }?.path, sheet)
        XCTAssertEqual(listing.found.first { $0.name == "popover" }?.path, popover)
        XCTAssertEqual(listing.found.first { $0.name == "popover" }?.abiVersion, StyleABIVersion(major: 1, minor: 3))
        XCTAssertTrue(listing.failed.isEmpty, "\(listing.failed)")

        let lines = listingLines(loader(dir))
        for (name, path) in [("inset-centered", inset), ("bottom-sheet", sheet), ("popover", popover)] {
            let line = lines.first { $0.hasPrefix(name + "\t") }
            let fields = line?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) ?? []
            XCTAssertEqual(fields.count, 3, "NAME<TAB>PATH<TAB>DESCRIPTION: \(line ?? "missing")")
            XCTAssertEqual(fields.dropFirst().first, path)
            XCTAssertFalse(fields.last?.isEmpty ?? true, "a description")
        }
    }

    func testDefaultSearchPathIsEnvironmentThenExecutableDirectoryThenInstallLayout() {
        let path = StyleLoader.defaultSearchPath(environment: ["MODALKIT_STYLE_PATH": "/a::/b:"],
                                                 executablePath: "/opt/mk/bin/modal-demo")
        XCTAssertEqual(path, ["/a", "/b", "/opt/mk/bin", "/opt/mk/lib/modalkit/styles"])
        XCTAssertEqual(StyleLoader.defaultSearchPath(environment: [:], executablePath: "/x/bin/modal-demo"),
                       ["/x/bin", "/x/lib/modalkit/styles"])
        // In this process the executable is the test binary.
        XCTAssertEqual(StyleLoader.defaultSearchPath(environment: [:]).first, Support.testBinaryDirectory)
    }

    /// MODALKIT_STYLE_PATH is range-checked like every environment value: an entry too long to
    /// name a directory (PATH_MAX bytes or more) is dropped, the others are kept in order.
    func testStylePathEntriesTooLongForAPathAreDropped() {
        let long = "/" + String(repeating: "d", count: Int(PATH_MAX))
        let justFits = "/" + String(repeating: "d", count: Int(PATH_MAX) - 2)
        let path = StyleLoader.defaultSearchPath(environment: ["MODALKIT_STYLE_PATH": "/a:\(long):\(justFits):/b"],
                                                 executablePath: "/x/bin/modal-demo")
        XCTAssertEqual(path, ["/a", justFits, "/b", "/x/bin", "/x/lib/modalkit/styles"])
        XCTAssertEqual(StyleLoader.defaultSearchPath(environment: ["MODALKIT_STYLE_PATH": ":::"],
                                                     executablePath: "/x/bin/modal-demo"),
                       ["/x/bin", "/x/lib/modalkit/styles"])
    }

    func testInsetCenteredThroughTheLoaderMatchesDesign() throws {
        let styles = try Support.stylesDirectory()
        let module = try loader(styles).load("inset-centered")
        XCTAssertEqual(Set(module.options.map(\.key)).isSuperset(of: ["margin-x", "margin-y"]), true)
        let style = try module.makeStyle(options: [:])
        let bounds = Rect(x: 0, y: 0, width: 400, height: 600)
        // docs/design.md: x = 20, y = 110, width = W − 40, height = H − 220; radius 10; dim black 0 → 0.5.
        XCTAssertEqual(style.frameOfPresentedView(layoutContext(bounds)), Rect(x: 20, y: 110, width: 360, height: 380))
        XCTAssertEqual(style.cornerStyle(layoutContext(bounds)).radius, 10)
        XCTAssertEqual(style.cornerStyle(layoutContext(bounds)).corners, .all)
        for p in [0.0, 0.5, 1.0] {
            let dim = style.dimmingAppearance(p, presentContext)
            let drawn = dim.color.multipliedAlpha(by: dim.alpha)
            XCTAssertEqual(drawn.alpha, 0.5 * p, accuracy: 1e-9, "dim alpha at \(p)")
            XCTAssertEqual(drawn.red, 0, accuracy: 1e-9)
        }
        XCTAssertEqual(style.transitionDuration(presentContext), 0.35, accuracy: 1e-9)
        XCTAssertEqual(style.timingCurve(presentContext), .easeInOut)
        // Cover-vertical: at progress 0 the card's top is at the container's bottom edge.
        let frame = style.frameOfPresentedView(layoutContext(bounds))
        XCTAssertEqual(style.presentedViewTransform(0, frame, presenting(in: bounds)).translation.y, 490, accuracy: 1e-9)
        XCTAssertEqual(style.presentedViewTransform(1, frame, presenting(in: bounds)), .identity)
        // Options cross the ABI (keys as the style declares them).
        let custom = try module.makeStyle(options: ["corner-radius": "4", "dim-alpha": "0.8"])
        XCTAssertEqual(custom.cornerStyle(layoutContext(bounds)).radius, 4)
        let dim = custom.dimmingAppearance(1, presentContext)
        XCTAssertEqual(dim.alpha * dim.color.alpha, 0.8, accuracy: 1e-9)
    }

    func testBottomSheetThroughTheLoaderMatchesDesign() throws {
        let styles = try Support.stylesDirectory()
        let style = try loader(styles).load("bottom-sheet").makeStyle(options: [:])
        let bounds = Rect(x: 0, y: 0, width: 400, height: 600)
        // docs/design.md: full width, bottom-anchored, 50 % high, top corners radius 10, dim clear → black 0.4.
        let frame = style.frameOfPresentedView(layoutContext(bounds))
        XCTAssertEqual(frame, Rect(x: 0, y: 300, width: 400, height: 300))
        XCTAssertEqual(style.cornerStyle(layoutContext(bounds)), CornerStyle(radius: 10, corners: .top))
        for p in [0.0, 0.5, 1.0] {
            let dim = style.dimmingAppearance(p, presentContext)
            XCTAssertEqual(dim.color.multipliedAlpha(by: dim.alpha).alpha, 0.4 * p, accuracy: 1e-9, "dim at \(p)")
        }
        XCTAssertEqual(style.presentedViewTransform(0, frame, presenting(in: bounds)).translation.y, 300, accuracy: 1e-9)
        XCTAssertEqual(style.presentedViewTransform(1, frame, presenting(in: bounds)), .identity)
        XCTAssertTrue(style.shouldDismissOnTap(Point(x: 200, y: 100), layoutContext(bounds)))
    }

    func testUnknownOptionKeyIsRejectedBeforeThePluginAndListsTheKeys() throws {
        let styles = try Support.stylesDirectory()
        let module = try loader(styles).load("inset-centered")
        let error = loadError { try module.makeStyle(options: ["margin-z": "3"]) }
        guard case let .unknownOption(path, style, key, known)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(path, module.path)
        XCTAssertEqual(style, "inset-centered")
        XCTAssertEqual(key, "margin-z")
        XCTAssertEqual(known, module.options)
        for k in known {
            XCTAssertTrue(error!.description.contains("\(k.key) (\(k.meaning))"), "each key with its meaning: \(error!.description)")
        }
    }

    func testBadOptionValueIsThePluginsMessageAndListsTheKeys() throws {
        let styles = try Support.stylesDirectory()
        let module = try loader(styles).load("inset-centered")
        let error = loadError { try module.makeStyle(options: ["margin-x": "wide"]) }
        guard case let .optionsRejected(path, style, message, known)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(path, module.path)
        XCTAssertEqual(style, "inset-centered")
        XCTAssertTrue(message.contains("'wide'") && message.contains("margin-x"), message)
        XCTAssertEqual(known, module.options)
        XCTAssertTrue(error!.description.hasPrefix(module.path + ": "), error!.description)
    }

    // MARK: Name and path errors

    func testPathThatDoesNotExist() {
        let path = "/tmp/mk-plugin-test-none/libModalKitStyleNope.so"
        let error = loadError { try self.loader().load(path) }
        XCTAssertEqual(error, .notFound(path: path))
        XCTAssertTrue(error?.description.hasPrefix(path + ": ") ?? false)
    }

    /// A text file named like a style is refused before dlopen, in the words glibc's dlopen uses
    /// for it ("invalid ELF header", "file too short").
    func testTextFileNamedSOIsNotALibraryAndNeverReachesDlopen() throws {
        let dir = try Support.temporaryDirectory(self, "text")
        let path = dir + "/libModalKitStyleText.so"
        try "this is not ELF, and longer than an ELF header is; more than sixty-four bytes of it\n"
            .write(toFile: path, atomically: false, encoding: .utf8)
        let error = loadError { try self.loader().load(path) }
        XCTAssertEqual(error, .malformedELF(path: path, problem: .notELF))
        XCTAssertEqual(error?.description,
                       "\(path): not a shared library (invalid ELF header: the file does not start with the ELF magic number)")
        let short = dir + "/libModalKitStyleShort.so"
        try "tiny\n".write(toFile: short, atomically: false, encoding: .utf8)
        XCTAssertEqual(loadError { try self.loader().load(short) }?.description,
                       "\(short): not a shared library (file too short: 5 bytes, an ELF header takes 64)")
    }

    func testDirectoryIsNotALibrary() throws {
        let dir = try Support.temporaryDirectory(self, "dir")
        let path = dir + "/libModalKitStyleDir.so"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        XCTAssertEqual(loadError({ try self.loader().load(path) }), .notAFile(path: path, kind: "a directory"))
    }

    /// A library's path with a slash after it (a completed path's extra `/`) names the file as a
    /// directory: said so, not "no such file".
    func testALibraryPathWithATrailingSlashIsNamedAsSuch() throws {
        let path = try Support.stylesDirectory() + "/" + Support.insetCenteredLibrary + "/"
        let error = loadError { try self.loader().load(path) }
        XCTAssertEqual(error, .notAFile(path: path, kind: "a file named as a directory (drop the trailing '/')"))
        XCTAssertEqual(error?.description, "\(path): not a shared library: it is a file named as a directory (drop the trailing '/')")
    }

    /// A FIFO named like a style: refused at once (dlopen would block on it until a writer comes),
    /// by path and when the name lookup lists the search path.
    func testFIFOIsRefusedWithoutBlocking() throws {
        let dir = try Support.temporaryDirectory(self, "fifo")
        let path = dir + "/libModalKitStyleFifo.so"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertEqual(loadError({ try self.loader().load(path) }), .notAFile(path: path, kind: "a FIFO"))
        XCTAssertEqual(loader(dir).list().failed.map(\.error), [.notAFile(path: path, kind: "a FIFO")])
        XCTAssertEqual(StyleLoadError.notAFile(path: path, kind: "a FIFO").description,
                       "\(path): not a shared library: it is a FIFO")
    }

    func testEmptyNameListsTheAvailableNames() throws {
        let styles = try Support.stylesDirectory()
        let error = lookupError { try self.loader(styles).load("") }
        guard case let .emptyName(available, searchPath, _, _)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(Set(available).isSuperset(of: ["inset-centered", "bottom-sheet"]), "\(available)")
        XCTAssertEqual(searchPath, [styles])
        XCTAssertTrue(error!.description.contains("inset-centered, bottom-sheet")
                      || error!.description.contains("bottom-sheet, inset-centered"), error!.description)
        XCTAssertTrue(error!.description.contains(styles), "names the path searched")
    }

    func testUnknownNameListsTheAvailableNames() throws {
        let styles = try Support.stylesDirectory()
        let error = lookupError { try self.loader(styles).load("top-banner") }
        guard case let .unknownName(name, available, _, _, _, _)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(name, "top-banner")
        XCTAssertTrue(Set(available).isSuperset(of: ["inset-centered", "bottom-sheet"]), "\(available)")
        XCTAssertTrue(error!.description.contains("'top-banner'"))
        XCTAssertTrue(error!.description.contains("inset-centered"))
    }

    /// No style of that name, and libraries on the path failed to load: the error counts them
    /// (the style asked for may be one of them); the demo adds where to see why.
    func testUnknownNameCountsTheLibrariesThatFailedToLoad() throws {
        let styles = try Support.stylesDirectory()
        let dir = try Support.temporaryDirectory(self, "failcount")
        _ = try Support.compileFixture("libModalKitStyleBroken.so", in: dir, defines: ["FIXTURE_MAJOR=7"],
                                       note: fixtureNote(major: 7))
        try "text".write(toFile: dir + "/libModalKitStyleText.so", atomically: false, encoding: .utf8)
        let error = lookupError { try self.loader(dir, styles).load("c-fixture") }
        guard case let .unknownName(name, available, _, failed, refused, _)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(name, "c-fixture")
        XCTAssertEqual(failed, 2)
        XCTAssertEqual(refused, 0)
        XCTAssertTrue(Set(available).isSuperset(of: ["inset-centered", "bottom-sheet"]), "\(available)")
        XCTAssertTrue(error!.description.hasSuffix("; 2 libraries there failed to load"), error!.description)
        XCTAssertTrue(StyleCommandText.message(for: error!).hasSuffix("; 2 libraries there failed to load (--list-styles says why)"),
                      StyleCommandText.message(for: error!))
        guard case let .emptyName(_, _, emptyFailed, _)? = lookupError({ try self.loader(dir).load("") }) else { return XCTFail() }
        XCTAssertEqual(emptyFailed, 2)
        // None failed: nothing about failures.
        let clean = lookupError { try self.loader(styles).load("top-banner") }
        XCTAssertFalse(clean?.description.contains("failed") ?? true, "\(String(describing: clean))")
    }

    // MARK: Libraries for another machine, symbols found through a dependency

    /// A style library whose ELF header says another machine (e_machine patched): the error says
    /// so and names both machines, not dlopen's "No such file or directory".
    func testLibraryForAnotherMachineNamesBothMachines() throws {
        let dir = try Support.temporaryDirectory(self, "machine")
        let path = try Support.foreignMachineCopy(in: dir, file: "libModalKitStyleForeign.so")
        let error = loadError { try self.loader().load(path) }
        guard case let .wrongMachine(errorPath, library, host)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(errorPath, path)
        XCTAssertEqual(library, "\(Support.hostMachine.other) (ELF64, little-endian)")
        XCTAssertEqual(host, "\(Support.hostMachine.name) (ELF64, little-endian)")
        XCTAssertEqual(error?.description,
                       "\(path): not a shared library for this machine: built for \(library), this machine is \(host)")
        XCTAssertEqual(loader(dir).list().failed.map(\.error), [error!])
    }

    func testLibraryOfTheOtherELFClassNamesBothClasses() throws {
        let dir = try Support.temporaryDirectory(self, "class")
        let path = try Support.foreignMachineCopy(in: dir, file: "libModalKitStyleForeign32.so", elf32: true)
        let error = loadError { try self.loader().load(path) }
        guard case let .wrongMachine(_, library, host)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(library, "\(Support.hostMachine.name) (ELF32, little-endian)")
        XCTAssertEqual(host, "\(Support.hostMachine.name) (ELF64, little-endian)")
    }

    /// A library with no style symbols of its own that links a real style plugin: dlsym on its
    /// handle finds the plugin's entry through the dependency, but that does not make it a style.
    /// It is refused (the entry never runs for it) and does not shadow the real one.
    func testLibraryThatOnlyLinksAStyleIsNotThatStyle() throws {
        let dir = try Support.temporaryDirectory(self, "forwarder")
        let fixture = try Support.compileFixture("libModalKitStyleFixture.so", in: dir, note: StyleNote.note(for: Support.fixtureDeclaration()))
        // Sorts before the fixture, so it would be found first and shadow it.
        let forwarder = try Support.compileLibraryLinking(fixture.library, as: "libModalKitStyleAForwarder.so", in: dir)
        let error = loadError { try self.loader().load(forwarder) }
        guard case let .missingEntry(path, symbol, message)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(path, forwarder)
        XCTAssertEqual(symbol, "modalkit_style_entry")
        XCTAssertEqual(message, "defined only in \(fixture.library), a library it links")
        XCTAssertEqual(Support.entryCalls(fixture.marker), 0, "nothing ran the entry through the forwarder")

        let listing = loader(dir).list()
        XCTAssertEqual(listing.found.map(\.name), ["c-fixture"])
        XCTAssertEqual(listing.found.first?.path, fixture.library, "the real plugin, not the forwarder")
        XCTAssertTrue(listing.shadowed.isEmpty)
        // The forwarder has no note: listed as such, nothing of it loaded.
        XCTAssertEqual(listing.withoutNote, [forwarder])
        XCTAssertEqual(listing.failed.map(\.path), [])
        XCTAssertEqual(try loader(dir).load("c-fixture").path, fixture.library)
    }

    // MARK: ABI checks, with C fixtures whose entry leaves a mark when it runs

    /// Loads a fixture built with `defines` and returns the error; asserts its entry never ran.
    private func rejectedFixture(_ defines: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> (error: StyleLoadError?, path: String)
    {
        let dir = try Support.temporaryDirectory(self, "abi")
        let fixture = try Support.compileFixture("libModalKitStyleFixture.so", in: dir, defines: defines)
        let error = loadError({ try self.loader().load(fixture.library) }, file: file, line: line)
        XCTAssertEqual(Support.entryCalls(fixture.marker), 0, "the rejected plugin's entry ran", file: file, line: line)
        // Listing it (it has no note) names it and loads nothing of it.
        let listed = loader(dir).list()
        XCTAssertEqual(listed.withoutNote, [fixture.library], file: file, line: line)
        XCTAssertEqual(listed.failed.map(\.error), [], file: file, line: line)
        XCTAssertEqual(Support.entryCalls(fixture.marker), 0, file: file, line: line)
        return (error, fixture.library)
    }

    func testValidCFixtureRunsItsEntryOnceAndWorksThroughTheTable() throws {
        let dir = try Support.temporaryDirectory(self, "valid")
        let fixture = try Support.compileFixture("libModalKitStyleFixture.so", in: dir, note: StyleNote.note(for: Support.fixtureDeclaration()))
        let loader = loader(dir)
        XCTAssertEqual(listingLines(loader),
                       ["c-fixture\t\(fixture.library)\tC fixture: container inset on every side, dim 0.3"])
        let byName = try loader.load("c-fixture")
        let byPath = try loader.load(fixture.library)
        XCTAssertEqual(byName.path, fixture.library)
        XCTAssertEqual(byPath.name, "c-fixture")
        XCTAssertEqual(byName.abiVersion, StyleABIVersion.current)
        // Listing then loading twice: one dlopen, one entry call (cached per real path).
        XCTAssertEqual(Support.entryCalls(fixture.marker), 1)
        XCTAssertEqual(byName.options, [StyleOption(key: "inset", summary: "inset on every side, points", defaultValue: "10")])

        let style = try byName.makeStyle(options: ["inset": "30"])
        let bounds = Rect(x: 0, y: 0, width: 200, height: 100)
        let frame = style.frameOfPresentedView(layoutContext(bounds))
        XCTAssertEqual(frame, Rect(x: 30, y: 30, width: 140, height: 40))
        XCTAssertEqual(try byName.makeStyle().frameOfPresentedView(layoutContext(bounds)), Rect(x: 10, y: 10, width: 180, height: 80))
        XCTAssertEqual(style.cornerStyle(layoutContext(bounds)), CornerStyle(radius: 4, corners: .all))
        XCTAssertEqual(style.dimmingAppearance(0.5, presentContext), DimmingAppearance(color: .black, alpha: 0.15))
        XCTAssertEqual(style.transitionDuration(presentContext), 0.25)
        XCTAssertEqual(style.timingCurve(presentContext), .linear)
        XCTAssertTrue(style.shouldDismissOnTap(Point(x: 5, y: 49), layoutContext(bounds)))
        XCTAssertFalse(style.shouldDismissOnTap(Point(x: 5, y: 50), layoutContext(bounds)))
        // presented_view_transform is NULL in the fixture: the host applies cover-vertical.
        XCTAssertEqual(style.presentedViewTransform(0.25, frame, presenting(in: bounds)),
                       ViewTransform(translation: Point(x: 0, y: 0.75 * (100 - 30))))
        // Hooks left NULL are no-ops, not crashes.
        style.presentationTransitionWillBegin()
        style.presentationTransitionDidEnd(true)
        style.containerViewDidLayoutSubviews(layoutContext(bounds))

        // The plugin's own error text comes back as one line listing the keys.
        let error = loadError { try byName.makeStyle(options: ["inset": "-1"]) }
        XCTAssertEqual(error, .optionsRejected(path: fixture.library, style: "c-fixture",
                                               message: "bad value '-1' for style option 'inset' (expected points >= 0)",
                                               known: [StyleOption(key: "inset", summary: "inset on every side, points", defaultValue: "10")]))
    }

    /// Plugin code is someone else's: what it returns is checked at the boundary, so NaN, an
    /// infinity or 1e300 never reaches pixel arithmetic (where an integer conversion traps).
    /// Coordinates and lengths are clamped to ±10⁶ points (NaN → 0), colours and alphas to 0...1
    /// (NaN → 0: no dim), a transform's NaN parts are the identity's, a curve out of range is the
    /// default ease-in-out.
    func testNonFiniteValuesFromAPluginAreClampedAtTheBoundary() throws {
        let dir = try Support.temporaryDirectory(self, "nonfinite")
        let fixture = try Support.compileFixture("libModalKitStyleNonFinite.so", in: dir, defines: ["FIXTURE_NONFINITE"])
        let style = try loader(dir).load(fixture.library).makeStyle()
        let bounds = Rect(x: 0, y: 0, width: 200, height: 100)
        XCTAssertEqual(style.frameOfPresentedView(layoutContext(bounds)), Rect(x: 0, y: -1e6, width: 1e6, height: 1e6))
        XCTAssertEqual(style.cornerStyle(layoutContext(bounds)), CornerStyle(radius: 0, corners: .topLeft))
        XCTAssertEqual(style.dimmingAppearance(0.5, presentContext),
                       DimmingAppearance(color: Color(premultipliedRed: 0, green: 1, blue: 0, alpha: 1), alpha: 0))
        XCTAssertEqual(style.presentedViewTransform(0.5, bounds, presenting(in: bounds)),
                       ViewTransform(translation: Point(x: 0, y: 1e6), scale: 1000, alpha: 1))
        XCTAssertEqual(style.timingCurve(presentContext), .easeInOut)
    }

    func testMissingEntrySymbol() throws {
        let (error, path) = try rejectedFixture(["FIXTURE_NO_ENTRY"])
        guard case let .missingEntry(p, symbol, message)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(p, path)
        XCTAssertEqual(symbol, "modalkit_style_entry")
        XCTAssertTrue(message.contains("undefined symbol: modalkit_style_entry"), "dlsym's own message: \(message)")
        XCTAssertTrue(error!.description.contains(path))
    }

    func testMissingVersionSymbol() throws {
        let (error, _) = try rejectedFixture(["FIXTURE_NO_VERSION"])
        guard case let .missingEntry(_, symbol, message)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(symbol, "modalkit_style_abi_version")
        XCTAssertTrue(message.contains("modalkit_style_abi_version"), message)
    }

    func testMajorMismatchNamesBothVersionsAndNeverRunsTheEntry() throws {
        let (error, path) = try rejectedFixture(["FIXTURE_MAJOR=2"])
        let host = StyleABIVersion.current
        XCTAssertEqual(error, .abiMismatch(path: path, plugin: StyleABIVersion(major: 2, minor: host.minor), host: host))
        XCTAssertTrue(error?.description.contains("ABI 2.\(host.minor)") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.description.contains("ABI \(host)") ?? false)
        XCTAssertTrue(error?.description.hasPrefix(path + ": ") ?? false)
        let (older, _) = try rejectedFixture(["FIXTURE_MAJOR=0"])
        XCTAssertEqual(older.map { if case .abiMismatch = $0 { return true } else { return false } }, true)
    }

    func testNewerMinorNamesBothVersionsAndNeverRunsTheEntry() throws {
        let host = StyleABIVersion.current
        let (error, path) = try rejectedFixture(["FIXTURE_MINOR=\(host.minor + 1)"])
        let plugin = StyleABIVersion(major: host.major, minor: host.minor + 1)
        XCTAssertEqual(error, .newerMinor(path: path, plugin: plugin, host: host))
        XCTAssertTrue(error?.description.contains("ABI \(plugin)") ?? false)
        XCTAssertTrue(error?.description.contains("ABI \(host)") ?? false)
    }

    func testDescriptorSmallerThanItsMinorNeedsIsRejectedBeforeTheEntry() throws {
        let (error, path) = try rejectedFixture(["FIXTURE_DESCRIPTOR_SIZE=16"])
        guard case let .badStructSize(p, size, minimum, _)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(p, path)
        XCTAssertEqual(size, 16)
        // ABI 1.3 ends with `prefers_scrolling_expands_when_scrolled_to_edge`: the 1.0 part
        // (4 × uint32 + 2 strings + option_count + options + plugin_data + 15 function pointers =
        // 16 + 8 × 20 bytes on LP64), seven 1.1 function pointers, one 1.2 and one 1.3.
        XCTAssertEqual(minimum, 16 + 8 * 20 + 8 * 7 + 8 + 8)
    }

    func testUnresolvedSymbolIsRefusedByRTLDNow() throws {
        let (error, path) = try rejectedFixture(["FIXTURE_UNRESOLVED"])
        guard case let .unresolvedSymbol(p, message)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(p, path)
        XCTAssertTrue(message.contains("modalkit_fixture_function_nobody_defines"), message)
    }

    func testDescriptorWithoutRequiredFunctionIsRejected() throws {
        let dir = try Support.temporaryDirectory(self, "nullcreate")
        let fixture = try Support.compileFixture("libModalKitStyleFixture.so", in: dir, defines: ["FIXTURE_NULL_CREATE"])
        let error = loadError { try self.loader().load(fixture.library) }
        XCTAssertEqual(error, .badDescriptor(path: fixture.library, problem: .missingRequiredFunction))
        XCTAssertEqual(error?.reason,
                       "invalid style descriptor: a required function (create, destroy, frame_of_presented_view, dimming_appearance) is NULL")
    }

    func testRejectedLibrariesAreListedAfterTheStylesWithWhy() throws {
        let dir = try Support.temporaryDirectory(self, "listing")
        let good = try Support.compileFixture("libModalKitStyleA.so", in: dir, note: StyleNote.note(for: Support.fixtureDeclaration()))
        let bad = try Support.compileFixture("libModalKitStyleB.so", in: dir, defines: ["FIXTURE_MAJOR=9"],
                                             note: fixtureNote(major: 9))
        try "text".write(toFile: dir + "/libModalKitStyleC.so", atomically: false, encoding: .utf8)
        try "not a candidate".write(toFile: dir + "/libOther.so", atomically: false, encoding: .utf8)
        let lines = listingLines(loader(dir))
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertEqual(lines.first?.hasPrefix("c-fixture\t\(good.library)\t"), true)
        XCTAssertEqual(lines.dropFirst(1).first,
                       "# failed\t\(bad.library)\tbuilt for style ABI 9.\(StyleABIVersion.current.minor), this host speaks ABI \(StyleABIVersion.current) (major versions differ)")
        XCTAssertEqual(lines.last, "# failed\t\(dir)/libModalKitStyleC.so\tnot a shared library (file too short: 4 bytes, an ELF header takes 64)")
        XCTAssertEqual(Support.entryCalls(bad.marker), 0)
    }

    // MARK: Search path order and shadowing

    func testStylePathOrderAndShadowing() throws {
        let styles = try Support.stylesDirectory()
        let first = try Support.temporaryDirectory(self, "first")
        let second = try Support.temporaryDirectory(self, "second")
        // The same name in both directories, and a built-in style copied into the first.
        let a = try Support.compileFixture("libModalKitStyleFixture.so", in: first, note: StyleNote.note(for: Support.fixtureDeclaration()))
        let b = try Support.compileFixture("libModalKitStyleFixture.so", in: second, note: StyleNote.note(for: Support.fixtureDeclaration()))
        let copiedInset = first + "/" + Support.insetCenteredLibrary
        try Support.copy(try Support.installedLibrary(Support.insetCenteredLibrary), to: copiedInset)

        // The installed modal-demo's path: the environment's, then its bin directory, then the styles.
        let prefix = try InstalledProducts.prefix()
        let path = StyleLoader.defaultSearchPath(
            environment: ["MODALKIT_STYLE_PATH": "\(second)::\(first)"],
            executablePath: prefix + "/bin/modal-demo")
        XCTAssertEqual(path, [second, first, prefix + "/bin", styles])
        let loader = StyleLoader(searchPath: path)

        XCTAssertEqual(try loader.load("c-fixture").path, b.library, "the first directory on the path wins")
        XCTAssertEqual(try loader.load("inset-centered").path, copiedInset, "a copy earlier on the path wins")
        XCTAssertEqual(try loader.load("bottom-sheet").path, styles + "/" + Support.bottomSheetLibrary)

        let listing = loader.list()
        XCTAssertEqual(listing.found.filter { $0.name == "c-fixture" }.map(\.path), [b.library])
        let shadowed = listing.shadowed.map { [$0.style.name, $0.style.path, $0.shadowedBy] }
        XCTAssertTrue(shadowed.contains(["c-fixture", a.library, b.library]), "\(shadowed)")
        XCTAssertTrue(shadowed.contains(["inset-centered", styles + "/" + Support.insetCenteredLibrary,
                                         copiedInset]), "\(shadowed)")
        let lines = listingLines(loader)
        XCTAssertTrue(lines.contains("# shadowed\t\(a.library)\tc-fixture\t\(b.library)"), "\(lines)")
        // Style lines come before the '#' lines.
        let firstComment = lines.firstIndex { $0.hasPrefix("#") } ?? lines.count
        XCTAssertTrue(lines[..<firstComment].contains { $0.hasPrefix("c-fixture\t\(b.library)\t") })
        XCTAssertFalse(lines[firstComment...].contains { !$0.hasPrefix("#") })

        // Reversed order: the other one wins.
        let reversed = StyleLoader(searchPath: [first, second])
        XCTAssertEqual(try reversed.load("c-fixture").path, a.library)
        XCTAssertEqual(reversed.list().shadowed.map(\.style.path), [b.library])
    }

    func testTheSameFileTwiceOnThePathIsNeitherShadowedNorLoadedTwice() throws {
        let dir = try Support.temporaryDirectory(self, "twice")
        let fixture = try Support.compileFixture("libModalKitStyleFixture.so", in: dir)
        let link = try Support.temporaryDirectory(self, "link")
        try FileManager.default.createSymbolicLink(atPath: link + "/libModalKitStyleLink.so", withDestinationPath: fixture.library)
        let loader = StyleLoader(searchPath: [dir, dir + "/", link])
        XCTAssertEqual(loader.candidatePaths(), [fixture.library])
        XCTAssertEqual(loader.list().shadowed.count, 0)
        XCTAssertEqual(try loader.load(link + "/libModalKitStyleLink.so").name, "c-fixture")
        XCTAssertEqual(Support.entryCalls(fixture.marker), 1)
    }
}
