// Examples/HostApp built as its own SwiftPM package (an app on ModalKitWayland's PresentationWindow),
// in release as an app ships (ExamplePackages; CommandTests' ExampleBuildTests builds it
// first in scripts/test), and run under headless sway: Return presents its orange card with the
// style loaded by name or path (the installed inset-centered plugin, by path), the screenshot shows
// the card over the dimmed blue root content, Escape dismisses, and closing the window
// (xdg_toplevel.close) ends the app with status 0.
import Foundation
import ModalKitTestHarness
import XCTest

final class HostAppExampleTests: CompositorTestCase {
    typealias Support = PluginTestSupport

    /// README's "Using ModalKit in an app" shows the example's whole code, as it is.
    func testTheREADMEShowsTheExampleAsItIs() throws {
        let root = Support.packageRoot
        let code = try String(contentsOfFile: root + "/Examples/HostApp/Sources/HostApp/main.swift", encoding: .utf8)
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        guard let section = readme.range(of: "## Using ModalKit in an app") else { return XCTFail("no such section") }
        XCTAssertTrue(readme[section.upperBound...].contains("```swift\n" + code + "```"),
                      "README's code block differs from Examples/HostApp/Sources/HostApp/main.swift")
    }

    func testReturnPresentsTheCardOverTheDimAndEscapeDismisses() throws {
        let executable = try ExamplePackages.hostAppExecutable(for: self)
        let sway = try startSway()
        let vnc = try startVNC(sway)
        // The style by path: the installed inset-centered plugin (StyleLoader.load takes names or paths).
        let app = try startClient([executable, try InstalledProducts.style(Support.insetCenteredLibrary)], in: sway)
        let window = try sway.waitForWindow(pid: app.pid, timeout: eventTimeout)
        XCTAssertNotNil(app.stdout.wait(timeout: eventTimeout) { $0.contains("frame") ? true : nil }, "a first frame")

        try vnc.key("enter")
        XCTAssertNotNil(app.stdout.wait(timeout: eventTimeout) { $0.contains("presented") ? true : nil },
                        "presented: \(app.stdout.lines)")
        let tile = try XCTUnwrap((try sway.windows()).first { $0.pid == Int(app.pid) }).rect
        let shot = try sway.stableScreenshot()
        keep(shot, "presented")
        // inset-centered: the card is inset 20 pt left/right and 110 pt top/bottom (scale 1): its
        // centre is the card's orange #FF8C00; 60 pt from the top (the dim) the root's #1E40AF
        // under a black dim of 0.5 is (15, 32, 88) ±1 (rounding of the premultiplied blend).
        XCTAssertEqual(shot[Int(tile.midX), Int(tile.midY)], RGB(0xFF, 0x8C, 0x00), "card centre, \(window)")
        let dim = shot[Int(tile.midX), tile.y + 60]
        XCTAssert(abs(Int(dim.r) - 15) <= 1 && abs(Int(dim.g) - 32) <= 1 && abs(Int(dim.b) - 88) <= 1, "dim: \(dim)")

        try vnc.key("esc")
        XCTAssertNotNil(app.stdout.wait(timeout: eventTimeout) { $0.contains("dismissed") ? true : nil },
                        "dismissed: \(app.stdout.lines)")

        // xdg_toplevel.close, after a present/dismiss cycle: the app tears its window down and exits 0.
        _ = try sway.swaymsg(["[pid=\(app.pid)] kill"])
        XCTAssertEqual(app.waitForExit(timeout: eventTimeout), .exited(0), "closed: \(app.diagnostics())")
    }
}
