// The install layout (a relocatable prefix): `scripts/install PREFIX` into a temporary prefix, then
// the prefix moved elsewhere and run from there, away from the build tree and the toolchain's
// library directory.
import Foundation
import ModalKitTestHarness
import XCTest
import ModalKitDemo
import ModalKit
import ModalKitPlugins

final class PluginInstallTests: XCTestCase {
    typealias Support = PluginTestSupport

    /// Installs into a fresh prefix (the release build in ``PluginTestSupport/releaseScratch``, the
    /// one scripts/test installed from: nothing is rebuilt), then renames the prefix to prove
    /// nothing points back at it.
    private func installedPrefix() throws -> String {
        let scratch = Support.releaseScratch
        let dir = try Support.temporaryDirectory(self, "prefix")
        let result = try Support.run(Support.packageRoot + "/scripts/install", [dir + "/first", "--scratch-path", scratch],
                                     isolatingTMPDIR: true, timeout: 2400)
        guard result.status == 0 else {
            throw PluginTestFailure("scripts/install failed (\(result.status)): " + String(result.stderr.suffix(3000)))
        }
        try FileManager.default.moveItem(atPath: dir + "/first", toPath: dir + "/moved")
        return dir + "/moved"
    }

    func testInstalledLayoutIsSelfContainedAndRunsFromATemporaryPrefix() throws {
        let prefix = try installedPrefix()
        let demo = prefix + "/bin/modal-demo"
        let styles = prefix + "/lib/modalkit/styles"
        for file in [demo, styles + "/" + Support.insetCenteredLibrary, styles + "/" + Support.bottomSheetLibrary,
                     styles + "/" + Support.popoverLibrary, prefix + "/lib/modalkit/libswiftCore.so",
                     prefix + "/lib/modalkit/libModalKitATKBridge.so"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: file), "\(file) installed")
        }

        // Every library resolves, and the Swift runtime from the prefix, not the toolchain.
        for binary in [demo, styles + "/" + Support.insetCenteredLibrary] {
            let ldd = try Support.run("/usr/bin/ldd", [binary], environment: Support.environment(["LD_LIBRARY_PATH": nil]),
                                      timeout: 60)
            XCTAssertEqual(ldd.status, 0, ldd.stderr)
            XCTAssertFalse(ldd.stdout.contains("not found"), ldd.stdout)
            let core = ldd.stdoutLines.first { $0.contains("libswiftCore.so =>") } ?? ""
            XCTAssertTrue(core.contains("=> \(prefix)/"), "libswiftCore from the prefix: \(core)")
        }

        // The installed styles carry the ABI and load (through their own runpath) in this host.
        let path = StyleLoader.defaultSearchPath(environment: [:], executablePath: demo)
        XCTAssertEqual(path, [prefix + "/bin", styles])
        let listing = StyleLoader(searchPath: path).list()
        XCTAssertEqual(listing.found.map(\.path).sorted(),
                       [styles + "/" + Support.adaptiveLibrary, styles + "/libModalKitStyleAlert.so",
                        styles + "/" + Support.bottomSheetLibrary, styles + "/" + Support.insetCenteredLibrary,
                        styles + "/" + Support.popoverLibrary])
        XCTAssertTrue(listing.failed.isEmpty, "\(listing.failed)")
        // The release build with scripts/install's linker flags wrote every library's note.
        XCTAssertEqual(listing.found.map(\.source), Array(repeating: .note, count: 5))
        XCTAssertTrue(listing.refused.isEmpty, "\(listing.refused)")
    }

    func testInstalledDemoListsStylesAndRenders() throws {
        let prefix = try installedPrefix()
        let demo = prefix + "/bin/modal-demo"
        let styles = prefix + "/lib/modalkit/styles"
        let env = Support.environment(["MODALKIT_STYLE_PATH": nil, "LD_LIBRARY_PATH": nil,
                                       "WAYLAND_DISPLAY": "mk-plugin-test-no-such-socket"])

        let list = try Support.run(demo, ["--list-styles"], environment: env, currentDirectory: "/", timeout: 60)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdoutLines.contains { $0.hasPrefix("inset-centered\t\(styles)/\(Support.insetCenteredLibrary)\t") },
                      list.stdout)
        XCTAssertTrue(list.stdoutLines.contains { $0.hasPrefix("bottom-sheet\t\(styles)/\(Support.bottomSheetLibrary)\t") },
                      list.stdout)
        XCTAssertTrue(list.stdoutLines.contains { $0.hasPrefix("adaptive\t\(styles)/\(Support.adaptiveLibrary)\t") },
                      list.stdout)

        let output = prefix + "/sheet.png"
        let render = try Support.run(demo, ["render", "--style", "bottom-sheet", "--size", "200x300", "--progress", "1",
                                            "--output", output], environment: env, currentDirectory: "/", timeout: 60)
        XCTAssertEqual(render.status, 0, render.stderr)
        // The frame the engine draws for bottom-sheet (whose pixels ModalKitTests check against
        // docs/design.md).
        let style = try StyleLoader(searchPath: [Support.stylesDirectory()]).load("bottom-sheet").makeStyle()
        let expected = try PluginRendering.png(of: style, width: 200, height: 300, progress: 1, in: prefix)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), expected)
    }

    /// `new-style` run from an installed prefix makes a package that depends on the prefix's own
    /// copy of the ModalKit library (`share/modalkit/ModalKit`), which builds, and the installed
    /// demo renders the result.
    func testNewStyleFromTheInstalledPrefixBuildsAgainstItsModalKit() throws {
        let prefix = try installedPrefix()
        let demo = prefix + "/bin/modal-demo"
        let env = Support.environment(["MODALKIT_STYLE_PATH": nil, "LD_LIBRARY_PATH": nil,
                                       "WAYLAND_DISPLAY": "mk-plugin-test-no-such-socket"])
        let package = prefix + "/my-style"
        let made = try Support.run(demo, ["new-style", "my-drawer", "--directory", package], environment: env,
                                   currentDirectory: "/", timeout: 60)
        XCTAssertEqual(made.status, 0, made.stderr)
        let manifest = try String(contentsOfFile: package + "/Package.swift", encoding: .utf8)
        XCTAssertTrue(manifest.contains(".package(name: \"ModalKit\", path: \"\(prefix)/share/modalkit/ModalKit\")"), manifest)
        let build = try Support.run("/usr/bin/env", ["swift", "build"], currentDirectory: package, isolatingTMPDIR: true,
                                    timeout: 1500)
        XCTAssertEqual(build.status, 0, String((build.stdout + build.stderr).suffix(3000)))
        let output = prefix + "/drawer.png"
        let render = try Support.run(demo, ["render", "--style", package + "/.build/debug/libModalKitStyleMyDrawer.so",
                                            "--size", "200x300", "--progress", "1", "--output", output],
                                     environment: env, currentDirectory: "/", timeout: 60)
        XCTAssertEqual(render.status, 0, render.stderr)
        let image = try Image(pngFile: output)
        XCTAssertEqual([image.width, image.height], [200, 300])
    }
}
