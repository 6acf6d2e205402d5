// `modal-demo ask` under GNOME's mutter 43, which offers no zwlr_layer_shell_v1: the prompt is a
// normal toplevel sized to it (the alert's 270 pt and 40 pt around), with zenity's exit statuses.
import Foundation
import ModalKitTestHarness
import XCTest

final class AskMutterTests: CompositorTestCase {
    private let keysymReturn: UInt32 = 0xFF0D, keysymEscape: UInt32 = 0xFF1B

    private func ask(_ arguments: [String], in mutter: HeadlessMutter) throws -> ChildProcess {
        let child = try ChildProcess([try InstalledProducts.demo(), "ask"] + arguments, environment: mutter.clientEnvironment)
        addTeardownBlock { child.stop() }
        return child
    }

    /// Waits until the screen differs from `desktop` and has settled; returns the changed box.
    private func waitForWindow(_ mutter: HeadlessMutter, over desktop: RGBImage, _ child: ChildProcess,
                               file: StaticString = #filePath, line: UInt = #line) throws -> PixelBox? {
        var box: PixelBox?
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            guard let shot = try? mutter.stableScreenshot(), shot != desktop else { return false }
            box = changedBox(shot, desktop)
            return box != nil
        }
        if box == nil { XCTFail("no window within \(eventTimeout) s\n\(child.diagnostics(maxLines: 20))", file: file, line: line) }
        return box
    }

    private func changedBox(_ a: RGBImage, _ b: RGBImage) -> PixelBox? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : PixelBox(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    func testQuestionIsAToplevelSizedToThePromptReturnZeroEscapeOne() throws {
        let mutter = try startMutter()
        let desktop = try mutter.stableScreenshot()
        let child = try ask(["question", "--text", "Delete 3 files?"], in: mutter)
        guard let box = try waitForWindow(mutter, over: desktop, child) else { return }
        // A toplevel sized to the prompt (350 pt wide plus mutter's shadow at most), not the output.
        XCTAssertLessThan(box.width, 500, "\(box)")
        XCTAssertLessThan(box.width, desktop.width)
        try mutter.key(keysymReturn)
        XCTAssertEqual(child.waitForExit(timeout: eventTimeout), .exited(0), child.diagnostics(maxLines: 20))
        XCTAssertTrue(child.stdout.waitForEnd(timeout: eventTimeout), "stdout still open")  // read after its end, not at the exit
        XCTAssertEqual(child.stdout.lines, [])

        let second = try ask(["entry", "--entry-text", "Ada"], in: mutter)
        guard try waitForWindow(mutter, over: desktop, second) != nil else { return }
        try mutter.key(keysymEscape)
        XCTAssertEqual(second.waitForExit(timeout: eventTimeout), .exited(1), second.diagnostics(maxLines: 20))
        XCTAssertTrue(second.stdout.waitForEnd(timeout: eventTimeout), "stdout still open")
        XCTAssertEqual(second.stdout.lines, [])
    }

    func testTimeoutExitsFive() throws {
        let mutter = try startMutter()
        let child = try ask(["info", "--timeout", "1"], in: mutter)
        XCTAssertEqual(child.waitForExit(timeout: eventTimeout), .exited(5), child.diagnostics(maxLines: 20))
    }
}
