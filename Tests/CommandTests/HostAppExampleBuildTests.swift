// Examples/HostApp builds as its own SwiftPM package, `swift build -c release` as an app ships.
// HostAppExampleTests (LiveSwayTests) runs it under sway; the build is here, with the tests that
// need no compositor, so that scripts/test makes it in its CPU stream, alongside the live tests.
import Foundation
import EndToEndHarness
import XCTest

final class HostAppExampleBuildTests: XCTestCase {
    func testTheExampleBuildsInRelease() throws {
        let executable = try ExamplePackages.hostAppExecutable()
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: executable), executable)
        XCTAssertTrue(executable.hasSuffix("/release/host-app"), executable)
    }
}
