// The pointer over modal-demo's form under headless sway with real input: over the focused text
// field the pointer shows the I-beam, over the dim the arrow — read from the client's own protocol
// log (WAYLAND_DEBUG=client: wl_pointer.set_cursor's hotspot, which names the theme's image), the
// expected hotspots read from the theme's Xcursor files; and a middle click into the field pastes
// the primary selection (wl-copy --primary), logged as `text "…"`.
import Foundation
import ModalKitTestHarness
import XCTest

final class FormPointerSwayTests: CompositorTestCase {
    /// The theme the demo is given (a cursor theme Debian's adwaita-icon-theme installs).
    private static let themeDirectory = "/usr/share/icons/Adwaita/cursors"

    /// The hotspot of the `nominal`-pixel image of the Xcursor file `name` (the Xcursor file format,
    /// libXcursor's xcursor.c: a header, a table of contents of (type, subtype, position), image
    /// chunks of type 0xfffd0002 whose subtype is the nominal size, each with a 36-byte header
    /// ending width, height, xhot, yhot, delay).
    private func hotspot(_ name: String, nominal: UInt32 = 24) throws -> [Int] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.themeDirectory + "/" + name))
        func u32(_ at: Int) -> UInt32 {
            data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }.littleEndian
        }
        guard data.count >= 16, data.prefix(4) == Data("Xcur".utf8) else { throw HarnessError("\(name): not an Xcursor file") }
        for i in 0..<Int(u32(12)) where 28 + 12 * i <= data.count {
            let entry = 16 + 12 * i
            let position = Int(u32(entry + 8))
            guard u32(entry) == 0xfffd_0002, u32(entry + 4) == nominal, position + 36 <= data.count else { continue }
            return [Int(u32(position + 24)), Int(u32(position + 28))]
        }
        throw HarnessError("\(name): no \(nominal)-pixel image")
    }

    /// The hotspots of the demo's `wl_pointer.set_cursor` requests after stderr line `since`.
    private func cursorHotspots(_ demo: DemoProcess, since: Int) -> [[Int]] {
        demo.stderrLines.dropFirst(since).compactMap { line -> [Int]? in
            guard line.contains(" -> wl_pointer@"), let open = line.range(of: ".set_cursor(") else { return nil }
            let args = line[open.upperBound...].prefix { $0 != ")" }.split(separator: ",")
            guard args.count == 4 else { return nil }
            return args[2...].compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    /// The field's caret rectangle as the demo last told the input method (surface points: x, y,
    /// width, height), from its `zwp_text_input_v3.set_cursor_rectangle` requests.
    private func caretRectangle(_ demo: DemoProcess) -> [Int]? {
        demo.stderrLines.last { $0.contains(".set_cursor_rectangle(") }.map { line in
            let open = line.range(of: ".set_cursor_rectangle(")!
            return line[open.upperBound...].prefix { $0 != ")" }.split(separator: ",")
                .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    func testTheIBeamOverTheFieldAndAMiddleClickPastesThePrimarySelection() throws {
        try requireProgram("wl-copy", "wl-paste")
        for name in ["xterm", "left_ptr"] where access(Self.themeDirectory + "/" + name, R_OK) != 0 {
            throw XCTSkip("\(Self.themeDirectory)/\(name) is missing (adwaita-icon-theme)")
        }
        let text = try hotspot("xterm"), arrow = try hotspot("left_ptr")
        XCTAssertNotEqual(text, arrow, "the two images must be told apart by their hotspots")
        let sway = try startSway()
        let vnc = try startVNC(sway)
        // The input method makes sway send text-input enter: the field's caret rectangle is then logged.
        let im = try ScriptedInputMethod(session: sway)
        addTeardownBlock { im.stop() }
        let clipboard = SessionClipboard(session: sway, user: sway.user)
        addTeardownBlock { clipboard.stop() }
        let (demo, window) = try launchDemo(["--content", "form"], in: sway,
                                            environment: ["WAYLAND_DEBUG": "client", "XCURSOR_THEME": "Adwaita", "XCURSOR_SIZE": "24"])
        let rect = window.rect
        // The pointer in the window, away from where the alert comes (over the dim once it is up).
        try vnc.send(["move", String(rect.x + 5), String(rect.y + 5)])
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        XCTAssertTrue(im.waitForLine { $0 == "activate" }, "the focused field enabled text input: \(im.log)")
        var caret: [Int]?
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) {
            caret = self.caretRectangle(demo)
            return caret?.count == 4
        }
        guard let c = caret, c.count == 4 else { return XCTFail("no set_cursor_rectangle in the demo's log") }
        // Over the dim: the arrow; then inside the field, right of its (empty) text's caret.
        var since = demo.stderrLines.count
        try vnc.send(["move", String(rect.x + 6), String(rect.y + 6)])
        let overField = [String(rect.x + c[0] + 20), String(rect.y + c[1] + c[3] / 2)]
        try vnc.send(["move"] + overField)
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) { self.cursorHotspots(demo, since: since).last == text },
                      "over the field: the I-beam (hotspot \(text)); set_cursor hotspots \(cursorHotspots(demo, since: since))")
        since = demo.stderrLines.count
        try vnc.send(["move", String(rect.x + 6), String(rect.y + 6)])
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) { self.cursorHotspots(demo, since: since).last == arrow },
                      "over the dim: the arrow (hotspot \(arrow)); set_cursor hotspots \(cursorHotspots(demo, since: since))")

        try clipboard.copy("from primary ✓", primary: true)
        mark = demo.mark()
        try vnc.send(["move"] + overField + ["click", "2"])
        let line = "text \"from primary ✓\""
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) { demo.events("text", since: mark).contains(line) },
                      "a middle click over the field: \(demo.events("text", since: mark))")
    }
}
