// The app examples build as their own SwiftPM packages, `swift build -c release` as an app ships,
// in the scratch directory they share (ExamplePackages). HostAppExampleTests and
// ColourRowsExampleTests, CityPickerExampleTests and CityPickerDemoScriptTests (LiveSwayTests) run them under sway; the builds are here, with the tests
// that need no compositor, so that scripts/test makes them in its CPU stream while the live tests
// run, and the live tests find them done.
import Foundation
import ModalKitDemo
import ModalKitTestHarness
import XCTest

final class ExampleBuildTests: XCTestCase {
    func testHostAppBuildsInRelease() throws {
        let executable = try ExamplePackages.hostAppExecutable(for: self)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: executable), executable)
        XCTAssertTrue(executable.hasSuffix("/release/host-app"), executable)
    }

    func testColourRowsBuildsInRelease() throws {
        let executable = try ExamplePackages.product(package: "ColourRows", file: "colour-rows", for: self)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: executable), executable)
        XCTAssertTrue(executable.hasSuffix("/release/colour-rows"), executable)
    }

    func testCityPickerBuildsInRelease() throws {
        let executable = try ExamplePackages.product(package: "CityPicker", file: "city-picker", for: self)
        XCTAssertTrue(executable.hasSuffix("/release/city-picker"), executable)
    }

    /// An app outside this repository depends on a tagged ModalKit with `.package(url:from:)`:
    /// SwiftPM resolves the tag and builds it (it refuses a versioned dependency with unsafe build
    /// flags unless its manifest is tools-version 6.2 or later), and the app's own modules named
    /// CPixman-like generic names do not clash with ModalKit's. VersionedDependencyTests runs it.
    func testAnAppDependingOnATaggedModalKitBuilds() throws {
        XCTAssertEqual(VersionedDependency.version, modalDemoVersion, "the tag is the version --version prints")
        let executable = try VersionedDependency.hostApp(for: self)
        XCTAssertTrue(executable.hasSuffix("/release/host-app"), executable)
        let resolved = try String(contentsOfFile: VersionedDependency.directory + "/App/Package.resolved", encoding: .utf8)
        XCTAssertTrue(resolved.contains("\"version\" : \"\(VersionedDependency.version)\""), "resolved by version: \(resolved)")
    }
}
