// The app that depends on a tagged ModalKit `from:` its version (VersionedDependency; built first
// by CommandTests' ExampleBuildTests in scripts/test), run under headless sway: it presents its
// card with the installed inset-centered style and dismisses, as Examples/HostApp does.
import Foundation
import ModalKitTestHarness
import XCTest

final class VersionedDependencyTests: CompositorTestCase {
    func testTheAppOnATaggedModalKitPresentsAndDismisses() throws {
        let executable = try VersionedDependency.hostApp(for: self)
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let app = try startClient([executable, try InstalledProducts.style(PluginTestSupport.insetCenteredLibrary)], in: sway)
        _ = try sway.waitForWindow(pid: app.pid, timeout: eventTimeout)
        XCTAssertNotNil(app.stdout.wait(timeout: eventTimeout) { $0.contains("frame") ? true : nil }, "a first frame")
        try vnc.key("enter")
        XCTAssertNotNil(app.stdout.wait(timeout: eventTimeout) { $0.contains("presented") ? true : nil },
                        "presented: \(app.stdout.lines)")
        let tile = try XCTUnwrap((try sway.windows()).first { $0.pid == Int(app.pid) }).rect
        let shot = try sway.stableScreenshot()
        // inset-centered's card centre is the app's orange card #FF8C00.
        XCTAssertEqual(shot[Int(tile.midX), Int(tile.midY)], RGB(0xFF, 0x8C, 0x00), "card centre")
        try vnc.key("esc")
        XCTAssertNotNil(app.stdout.wait(timeout: eventTimeout) { $0.contains("dismissed") ? true : nil },
                        "dismissed: \(app.stdout.lines)")
        _ = try sway.swaymsg(["[pid=\(app.pid)] kill"])
        XCTAssertEqual(app.waitForExit(timeout: eventTimeout), .exited(0), "closed: \(app.diagnostics())")
    }
}
