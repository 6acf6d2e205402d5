// `modal-demo ask` under KDE's KWin 5.27 (a private `kwin_wayland --virtual`), which offers
// zwlr_layer_shell_v1: the prompt is a layer surface on the overlay layer anchored to the output's
// four edges (sized by KWin's configure to the whole 800×600 output) with exclusive keyboard, as
// under sway; keys through org_kde_kwin_fake_input reach it without a click; zenity's exit
// statuses (0 OK, 1 cancel) and the entry's text on stdout. KWin's own desktop is black, so the
// whole-output dim is read from the protocol (the configure's size) and the prompt's card from a
// screenshot.
import Foundation
import ModalKitTestHarness
import XCTest

final class AskKWinTests: CompositorTestCase {
    /// Linux input event codes of the letters typed (linux/input-event-codes.h).
    private let keyK = 37, keyD = 32, keyE = 18

    private func ask(_ arguments: [String], in kwin: HeadlessKWin) throws -> ChildProcess {
        var environment = kwin.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"
        let child = try ChildProcess([try InstalledProducts.demo(), "ask"] + arguments, environment: environment)
        addTeardownBlock { child.stop() }
        return child
    }

    /// Waits (bounded) until the prompt's layer surface was configured to the whole output and the
    /// screen shows something over the black desktop at its centre (the alert's card), settled.
    private func waitForOverlay(_ kwin: HeadlessKWin, _ child: ChildProcess, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let configured = child.stderr.wait(timeout: eventTimeout) { lines in
            lines.contains { $0.range(of: #"zwlr_layer_surface_v1@\d+\.configure\(\d+, 800, 600\)"#, options: .regularExpression) != nil }
                ? true : nil
        } != nil
        guard configured else {
            XCTFail("no layer surface configured to 800×600 within \(eventTimeout) s\n\(child.diagnostics(maxLines: 30))", file: file, line: line)
            return false
        }
        let shown = waitUntil(timeout: eventTimeout, interval: 0.1) {
            guard let shot = try? kwin.stableScreenshot() else { return false }
            let centre = shot[shot.width / 2, shot.height / 2]
            return Int(centre.r) + Int(centre.g) + Int(centre.b) > 3 * 0x80
        }
        if !shown { XCTFail("no light card at the output's centre within \(eventTimeout) s\n\(child.diagnostics(maxLines: 20))", file: file, line: line) }
        return shown
    }

    private func finish(_ child: ChildProcess) -> (ExitStatus?, [String]) {
        let status = child.waitForExit(timeout: eventTimeout)
        XCTAssertTrue(child.stdout.waitForEnd(timeout: eventTimeout), "stdout still open")   // read after its end
        return (status, child.stdout.lines)
    }

    func testQuestionIsAnOverlayOverTheWholeOutputReturnIsZeroEscapeIsOne() throws {
        let kwin = try startKWin()
        let child = try ask(["question", "--text", "Delete 3 files?"], in: kwin)
        guard waitForOverlay(kwin, child) else { return }
        keep(try kwin.stableScreenshot(), "ask-question-kwin")
        let requests = child.stderr.lines
        XCTAssertTrue(requests.contains { $0.range(of: #"get_layer_surface\(new id zwlr_layer_surface_v1@\d+, wl_surface@\d+, [^,]+, 3, "#,
                                                    options: .regularExpression) != nil },
                      "a layer surface on the overlay layer (3)")
        XCTAssertTrue(requests.contains { $0.contains(".set_anchor(15)") }, "anchored to the four edges")
        XCTAssertTrue(requests.contains { $0.contains(".set_keyboard_interactivity(1)") }, "exclusive keyboard")
        XCTAssertFalse(requests.contains { $0.contains("xdg_wm_base") && $0.contains("get_xdg_surface") }, "no toplevel")
        try kwin.driver.key(.enter)
        var (status, out) = finish(child)
        XCTAssertEqual(status, .exited(0), child.diagnostics(maxLines: 20))
        XCTAssertEqual(out, [])

        let second = try ask(["question", "--text", "Delete 3 files?"], in: kwin)
        guard waitForOverlay(kwin, second) else { return }
        try kwin.driver.key(.escape)
        (status, out) = finish(second)
        XCTAssertEqual(status, .exited(1), second.diagnostics(maxLines: 20))
        XCTAssertEqual(out, [])
    }

    func testEntryPrintsTheTypedText() throws {
        let kwin = try startKWin()
        let child = try ask(["entry", "--text", "Name"], in: kwin)
        guard waitForOverlay(kwin, child) else { return }
        for code in [keyK, keyD, keyE] {
            try kwin.driver.command("key \(code) down")
            try kwin.driver.command("key \(code) up")
        }
        try kwin.driver.key(.enter)
        let (status, out) = finish(child)
        XCTAssertEqual(status, .exited(0), child.diagnostics(maxLines: 20))
        XCTAssertEqual(out, ["kde"])
    }
}
