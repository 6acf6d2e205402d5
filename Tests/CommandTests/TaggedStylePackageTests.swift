// A style package as one outside this repository is written: the one target `modal-demo
// new-style` writes (the template's style file, its entry at the end), depending on a tagged
// ModalKit release (`.package(url:from:)`, the tagged clone of ``VersionedDependency``) and naming
// its `ModalKitStyleNote` build step. It builds, and the installed `modal-demo --list-styles`
// reads the style from the library's note.
import Foundation
import ModalKitStyleTemplate
import ModalKitTestHarness
import XCTest

final class TaggedStylePackageTests: XCTestCase {
    typealias Support = PluginTestSupport

    func testAStylePackageOnATaggedModalKitBuildsAndIsListedFromItsNote() throws {
        try FileManager.default.createDirectory(atPath: VersionedDependency.directory, withIntermediateDirectories: true)
        try Support.holdLock(VersionedDependency.directory + ".lock", until: self, what: "the versioned-dependency packages")
        let repository = try VersionedDependency.taggedRepository()
        let template = try StyleTemplate(name: "tagged-drawer", modalKitPath: "/unused", demoPath: "modal-demo")
        let package = VersionedDependency.directory + "/StylePackage"
        let manifest = """
            // swift-tools-version:5.10
            import PackageDescription

            let package = Package(
                name: "TaggedDrawerStyle",
                products: [.library(name: "ModalKitStyleTaggedDrawer", type: .dynamic, targets: ["TaggedDrawerStyle"])],
                dependencies: [.package(url: "\(repository)", from: "\(VersionedDependency.version)")],
                targets: [
                    .target(name: "TaggedDrawerStyle", dependencies: [.product(name: "ModalKitStyle", package: "ModalKit")],
                            plugins: [.plugin(name: "ModalKitStyleNote", package: "ModalKit")]),
                ]
            )

            """
        let style = try XCTUnwrap(template.files.first { $0.path.hasSuffix("/TaggedDrawerStyle.swift") })
        try FileManager.default.createDirectory(atPath: package + "/Sources/TaggedDrawerStyle", withIntermediateDirectories: true)
        for (path, text) in [("Package.swift", manifest), (style.path, style.contents)]
        where (try? String(contentsOfFile: package + "/" + path, encoding: .utf8)) != text {
            try text.write(toFile: package + "/" + path, atomically: true, encoding: .utf8)
        }

        for step in [["package", "update"], ["build"]] {
            let run = try Support.run("/usr/bin/env", ["swift"] + step + ["--package-path", package],
                                      isolatingTMPDIR: true, timeout: 1500)
            XCTAssertEqual(run.status, 0, "swift \(step.joined(separator: " ")): " + String((run.stdout + run.stderr).suffix(3000)))
            guard run.status == 0 else { return }
        }
        let library = package + "/.build/debug/libModalKitStyleTaggedDrawer.so"
        let listed = try PluginCLITests.demo(["--list-styles"], environment: ["MODALKIT_STYLE_PATH": package + "/.build/debug"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdoutLines.contains(
            "tagged-drawer\t\(library)\tpanel 70 % wide slides in from the left edge over a black dim 0 → 0.3"), listed.stdout)
        XCTAssertFalse(listed.stdout.contains("# no-note"), listed.stdout)
    }
}
