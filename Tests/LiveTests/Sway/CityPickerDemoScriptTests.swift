// Examples/CityPicker as the README runs it: `scripts/demo --app` (modalkit-session's private
// headless sway) with the steps in Examples/CityPicker/tour.steps — the sheet presented by a click
// on its first button, a city chosen by a click, the choice shown in the window, the alert
// answered by Escape — run by the installed products (MODALKIT_BIN, building and installing
// nothing), with the example built as its own package in release (ExamplePackages).
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class CityPickerDemoScriptTests: CompositorTestCase {
    private static let steps = "Examples/CityPicker/tour.steps"

    /// The README's lines, continuation lines joined.
    private func readmeCommands() throws -> String {
        try String(contentsOfFile: PluginTestSupport.packageRoot + "/README.md", encoding: .utf8)
            .replacingOccurrences(of: "\\\n", with: " ")
            .replacingOccurrences(of: "  +", with: " ", options: .regularExpression)
    }

    func testTheReadmesRunPresentsChoosesShowsTheChoiceAndAnswersTheAlert() throws {
        // The README runs the same steps with the same command, and shows pictures from them.
        let readme = try readmeCommands()
        XCTAssertTrue(readme.contains("swift build -c release --package-path Examples/CityPicker"), "the README builds the example")
        XCTAssertTrue(readme.contains("MODALKIT_STYLE_PATH=$PWD/.build/debug scripts/demo --output screenshots/city-picker "
                                      + "--steps \(Self.steps) --app Examples/CityPicker/.build/release/city-picker"),
                      "the README's scripts/demo line")
        for name in ["cities", "chosen", "alert"] {
            let picture = "docs/pictures/city-picker-\(name).png"
            XCTAssertTrue(readme.contains(picture), "the README shows \(picture)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: PluginTestSupport.packageRoot + "/" + picture), picture)
        }

        try requireProgram("sway", "swaymsg", "grim", "wayvnc")
        guard let vncdo = vncdoPath() else { throw XCTSkip("vncdo is not installed (scripts/test installs it)") }
        let executable = try ExamplePackages.product(package: "CityPicker", file: "city-picker", for: self)
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-city-picker")
        addTeardownBlock { removeTree(dir) }
        let output = dir + "/city-picker"
        let env = harnessEnvironment([
            "MODALKIT_HEADLESS": "1", "MODALKIT_NO_INSTALL": "1", "MODALKIT_BIN": try InstalledProducts.binDirectory(),
            "MODALKIT_VNCDO": vncdo, "MODALKIT_STYLE_PATH": try InstalledProducts.stylesDirectory(),
            "WAYLAND_DISPLAY": nil, "WAYLAND_SOCKET": nil, "SWAYSOCK": nil,
        ])
        let r = try ChildProcess.run(["bash", "scripts/demo", "--output", output, "--steps", Self.steps, "--app", executable],
                                     environment: env, workingDirectory: PluginTestSupport.packageRoot, timeout: 180)
        let stdout = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, .exited(0), "stdout: \(stdout)\nstderr: \(r.stderr)")

        // What the app printed: each presentation's states, the city, the alert's answer.
        let lines = try String(contentsOfFile: output + "/stdout.log", encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, ["presenting", "presented", "selected Berlin", "dismissing", "dismissed",
                               "presenting", "presented", "response cancel", "dismissing", "dismissed"])

        let window = try RGBImage.loadPNG(path: output + "/window.png")
        let cities = try RGBImage.loadPNG(path: output + "/cities.png")
        let chosen = try RGBImage.loadPNG(path: output + "/chosen.png")
        let alert = try RGBImage.loadPNG(path: output + "/alert.png")
        for (image, name) in [(window, "window"), (cities, "cities"), (chosen, "chosen"), (alert, "alert")] {
            keep(image, name)
            XCTAssertEqual(image.width, 800, name)
            XCTAssertEqual(image.height, 600, name)
        }
        // The sheet: the window above its top (300) dimmed, its rows on white below.
        let above = (window[400, 100], cities[400, 100])
        XCTAssertTrue(above.1.r < above.0.r && above.1.g < above.0.g && above.1.b < above.0.b, "dimmed: \(above)")
        XCTAssertEqual(cities[90, 330], RGB(0xFF, 0xFF, 0xFF), "the sheet's white, left of its rows' text")
        // The choice shows in the window: the status line (240...264 pt) changed, the buttons
        // below it (276...376 pt) did not.
        func rowsDiffer(_ rows: Range<Int>) -> Bool {
            rows.contains { y in (0..<800).contains { x in window[x, y] != chosen[x, y] } }
        }
        XCTAssertTrue(rowsDiffer(240..<264), "the chosen city is shown")
        XCTAssertFalse(rowsDiffer(270..<600), "nothing else changed")
        // The alert: Delete's destructive red (#E01B24) right of the centre.
        let red = RGB(0xE0, 0x1B, 0x24)
        XCTAssertTrue((300..<600).contains { y in (400..<800).contains { alert[$0, y] == red } }, "the destructive Delete")
    }
}
