// The app examples build as their own SwiftPM packages, `swift build -c release` as an app ships,
// in the scratch directory they share (ExamplePackages). HostAppExampleTests and
// ColourRowsExampleTests (LiveSwayTests) run them under sway; the builds are here, with the tests
// that need no compositor, so that scripts/test makes them in its CPU stream while the live tests
// run, and the live tests find them done.
import Foundation
import EndToEndHarness
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
}
