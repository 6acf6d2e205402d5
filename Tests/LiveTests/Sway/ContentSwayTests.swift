// ModalKitContent live under headless sway with real keys (wayvnc): `modal-demo --content alert`
// presents its Alert with the alert style (Return chooses the default response Delete, Escape
// the close response Cancel, each logged as `response ID` and followed by the dismissal), and
// Examples/CityPicker — its own SwiftPM package in release (ExamplePackages) — picks a city from a
// bottom sheet by keys and by a click, and answers its delete alert.
import Foundation
import ModalKitTestHarness
import XCTest

final class ContentSwayTests: CompositorTestCase {
    typealias Support = PluginTestSupport

    func testTheDemosAlertReturnChoosesDeleteEscapeCancel() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, w) = try launchDemo(["--content", "alert"], in: sway)
        for (key, response) in [("enter", "response delete"), ("esc", "response cancel")] {
            var mark = demo.mark()
            try vnc.key("enter")
            guard expectEvent(demo, "presented", since: mark) != nil else { return }
            // The alert style: a 270 pt white card centred, Delete's destructive red in it.
            let shot = try sway.stableScreenshot()
            keep(shot, "alert")
            // Delete's field: a run of libadwaita's destructive red #E01B24 of about 111 pt (its
            // share of 270 pt), right of the window's centre, somewhere below it.
            let red = RGB(0xE0, 0x1B, 0x24)
            let rows = (w.rect.y + w.rect.height / 2)..<(w.rect.y + w.rect.height)
            let run = rows.map { y in (w.rect.x..<(w.rect.x + w.rect.width)).filter { shot[$0, y] == red } }.max { $0.count < $1.count } ?? []
            XCTAssertTrue((100...111).contains(run.count), "Delete's red run: \(run.count) px")
            XCTAssertGreaterThan(run.first ?? 0, w.rect.x + w.rect.width / 2, "Delete is the right-hand button")
            mark = demo.mark()
            try vnc.key(key)
            guard expectEvent(demo, "dismissed", since: mark) != nil else { return }
            XCTAssertEqual(demo.events("response", since: mark), [response], "\(demo.stdoutLines.suffix(10))")
        }
    }
}

final class CityPickerExampleTests: CompositorTestCase {
    typealias Support = PluginTestSupport
    private static let source = "/Examples/CityPicker/Sources/CityPicker/main.swift"

    func testTheAppIsAtMost60Lines() throws {
        let code = try String(contentsOfFile: Support.packageRoot + Self.source, encoding: .utf8)
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).dropLast()   // the final newline
        XCTAssertLessThanOrEqual(lines.count, 60, "Examples/CityPicker is \(lines.count) lines of Swift")
    }

    /// Keys, type-ahead and a click choose cities from the sheet; the second button's alert answers.
    func testCitiesAreChosenByKeysAndClicksAndTheAlertAnswers() throws {
        let executable = try ExamplePackages.product(package: "CityPicker", file: "city-picker", for: self)
        let sway = try startSway()   // one tiled 800×600 window at scale 1
        let vnc = try startVNC(sway)
        var environment = sway.clientEnvironment
        environment["MODALKIT_STYLE_PATH"] = try InstalledProducts.stylesDirectory()
        let app = try ChildProcess([executable], environment: environment)
        addTeardownBlock { app.stop() }
        let window = try sway.waitForWindow(pid: app.pid, timeout: eventTimeout)
        let (x0, y0) = (window.rect.x, window.rect.y)
        _ = try sway.stableScreenshot()
        var seen = 0
        /// Waits for `line` on stdout after the lines seen so far.
        func expect(_ line: String, _ what: String) -> Bool {
            let found = app.stdout.wait(timeout: eventTimeout) { lines in
                lines.dropFirst(seen).firstIndex(of: line).map { $0 + 1 }
            }
            if let found { seen = found } else { XCTFail("\(what): no `\(line)` in \(app.stdout.lines)") }
            return found != nil
        }

        // Return presents the sheet; Down three times puts the cursor on the third city, Return chooses it.
        try vnc.key("enter")
        guard expect("presented", "Return presents the sheet") else { return }
        try vnc.send(["key", "down", "pause", "0.05", "key", "down", "pause", "0.05", "key", "down", "pause", "0.05", "key", "enter"])
        guard expect("selected Bangkok", "arrows + Return"), expect("dismissed", "the choice dismisses") else { return }

        // Type-ahead: "lo" moves to London.
        try vnc.key("enter")
        guard expect("presented", "again") else { return }
        try vnc.send(["key", "l", "pause", "0.05", "key", "o", "pause", "0.05", "key", "enter"])
        guard expect("selected London", "type-ahead + Return"), expect("dismissed", "dismissed") else { return }

        // A click: the sheet rests at 0.5 × 600, its top at 300 pt; row 6 (Berlin) spans 520...564.
        try vnc.key("enter")
        guard expect("presented", "again") else { return }
        try vnc.click(x: x0 + 400, y: y0 + 300 + 5 * 44 + 22)
        guard expect("selected Berlin", "a click on a row"), expect("dismissed", "dismissed") else { return }

        // The second button (332...376 pt, centred) presents the alert: Escape cancels, Return deletes.
        for (key, response) in [("esc", "response cancel"), ("enter", "response delete")] {
            try vnc.click(x: x0 + 400, y: y0 + 354)
            guard expect("presented", "the alert") else { return }
            try vnc.park()
            try vnc.key(key)
            guard expect(response, key), expect("dismissed", "dismissed") else { return }
        }
        _ = try sway.swaymsg(["[pid=\(app.pid)] kill"])
        XCTAssertEqual(app.waitForExit(timeout: eventTimeout), .exited(0), "closed: \(app.diagnostics())")
    }
}
