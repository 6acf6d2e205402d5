// The library products a style package's manifest declares, read as text for the hint about a
// missing `--style PATH` (SwiftPM's `.library(name:type:targets:)`).
@testable import ModalKit
@testable import ModalKitPlugins
import XCTest

final class ManifestProductsTests: XCTestCase {
    func testNamesAndTypesOfLiteralLibraryProducts() {
        let manifest = """
        let package = Package(
            name: "SideDrawer",
            products: [
                .library(name: "ModalKitStyleSideDrawer", type: .dynamic, targets: ["SideDrawer"]),
                .library(name : "Helpers",type:.static, targets: ["Helpers"]),
                // .library(name: "Commented", type: .dynamic, targets: []),
                .library(name: "Plain", targets: ["Plain"]),
                .library(name: "Escaped\\"", targets: []),
                .library(name: "Typed", type: .dynamicish, targets: []),
            ],
            targets: [.target(name: "SideDrawer", dependencies: [.product(name: "ModalKit", package: "ModalKit")])]
        )
        """
        let found = StyleLoader.libraryProducts(inManifest: manifest)
        XCTAssertEqual(found.map(\.name), ["ModalKitStyleSideDrawer", "Helpers", "Plain", "Typed"])
        XCTAssertEqual(found.map(\.type), ["dynamic", "static", "automatic", "automatic"])
    }
}
