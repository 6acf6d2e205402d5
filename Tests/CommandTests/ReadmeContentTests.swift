// What the README promises an app developer about ModalKitContent, checked against the files it
// describes: every style library product by name, the fonts the set-up installs, how an app's own
// content scrolls, the pictures it shows, and the one command that builds the API reference.
import Foundation
import ModalKitTestHarness
import XCTest

final class ReadmeContentTests: XCTestCase {
    private let root = PluginTestSupport.packageRoot
    private func read(_ path: String) throws -> String { try String(contentsOfFile: root + "/" + path, encoding: .utf8) }

    /// Each `.library(name: "ModalKitStyle…", type: .dynamic, …)` of the manifest is named.
    func testEveryStyleProductIsNamed() throws {
        let manifest = try read("Package.swift"), readme = try read("README.md")
        let products = manifest.split(separator: "\n").compactMap { line -> String? in
            guard line.contains(".library(name: \"ModalKitStyle"), line.contains("type: .dynamic") else { return nil }
            return line.split(separator: "\"").dropFirst().first.map(String.init)
        }
        XCTAssertEqual(products.count, 5, "\(products)")
        for product in products { XCTAssertTrue(readme.contains("`\(product)`"), "README names \(product)") }
    }

    /// The font packages scripts/lib/setup.sh installs are the ones the README names, and it says
    /// how to tell a missing CJK font.
    func testTheFontsTheSetUpInstallsAreNamed() throws {
        let setup = try read("scripts/lib/setup.sh"), readme = try read("README.md")
        let fonts = Set(setup.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init).filter { $0.hasPrefix("fonts-") })
        XCTAssertEqual(fonts, ["fonts-dejavu-core", "fonts-wqy-microhei", "fonts-noto-color-emoji"])
        for font in fonts { XCTAssertTrue(readme.contains("`\(font)`"), "README names \(font)") }
        XCTAssertTrue(readme.contains("fc-list :lang=ja"))
    }

    /// How an app's own content scrolls is in the README, not only in the API reference, which is
    /// built by one documented command.
    func testScrollingOwnContentAndTheReferenceCommandAreDocumented() throws {
        let readme = try read("README.md")
        for term in ["`ScrollPosition`", "`canScroll(toward:)`", "`.scroll(let s)`", "scripts/docs"] {
            XCTAssertTrue(readme.contains(term), "README: \(term)")
        }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: root + "/scripts/docs"))
    }

    /// Every picture the README shows is in docs/pictures; the content pictures are among them (the
    /// alert with its responses, a list on a sheet, the city picker's run).
    func testEveryPictureTheReadmeShowsExists() throws {
        let readme = try read("README.md")
        let regex = try NSRegularExpression(pattern: "docs/pictures/[A-Za-z0-9._-]+\\.(png|webp)")
        let pictures = Set(regex.matches(in: readme, range: NSRange(readme.startIndex..., in: readme)).map {
            String(readme[Range($0.range, in: readme)!])
        })
        for picture in ["content-alert.png", "bottom-sheet-list-scroll-300.png", "city-picker-cities.png",
                        "city-picker-chosen.png", "city-picker-alert.png"] {
            XCTAssertTrue(pictures.contains("docs/pictures/" + picture), "README shows \(picture)")
        }
        for picture in pictures { XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/" + picture), picture) }
    }
}
