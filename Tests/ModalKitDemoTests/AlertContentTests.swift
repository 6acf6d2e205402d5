import ModalKitDemo
import ModalKit
import ModalKitHostFuzzSupport
import XCTest

/// `--content alert`: level 1 presents ModalKitContent's Alert "Delete file?" (the alert style
/// unless --style is given); Return chooses Delete (the default response), Escape Cancel (the
/// close response), each reported once and followed by the dismissal.
final class AlertContentTests: XCTestCase {
    func testTheCommandLinePicksTheAlertStyleUnlessAStyleIsGiven() throws {
        guard case let .run(run) = try parseCommandLine(["--content", "alert"]) else { return XCTFail("not run") }
        XCTAssertEqual(run.content, .alert)
        XCTAssertEqual(run.selections[0].style, "alert")
        guard case let .run(other) = try parseCommandLine(["--style", "bottom-sheet", "--content", "alert"]) else { return XCTFail("not run") }
        XCTAssertEqual(other.selections[0].style, "bottom-sheet")
    }

    func testReturnChoosesDeleteAndEscapeCancelThroughTheHost() throws {
        for (keysym, expected) in [(KeyInput.Keysym.returnKey, "delete"), (KeyInput.Keysym.escape, "cancel")] {
            var events: [SceneEvent] = []
            var responses: [String] = []
            let scene = try DemoScene(style: try BuiltinStyle.insetCentered.make(options: [:])) { events.append($0) }
            scene.presentsAlert = true
            scene.onAlertResponse = { responses.append($0) }
            scene.layout(containerSize: Size(width: 390, height: 844), scale: 1)
            scene.present(now: 0)
            scene.update(now: 10)
            XCTAssertEqual(scene.host.accessibilitySnapshot().levels.last?.role, .alert)
            scene.handle(.keyboard(KeyInput(keysym: keysym, phase: .press)), now: 10.1)
            scene.handle(.keyboard(KeyInput(keysym: keysym, phase: .release)), now: 10.15)
            scene.update(now: 20)
            XCTAssertEqual(responses, [expected])
            XCTAssertEqual(events.filter { $0 == .dismissed }.count, 1, "\(events)")
            // Presented again, it asks again.
            scene.present(now: 21)
            scene.update(now: 30)
            scene.handle(.keyboard(KeyInput(keysym: KeyInput.Keysym.escape, phase: .press)), now: 30.1)
            scene.update(now: 40)
            XCTAssertEqual(responses, [expected, "cancel"])
        }
    }

    /// `--content form`: each presentation asks anew, its field empty (a new alert, as UIKit and
    /// libadwaita make one per question), whether the last one was answered or cancelled.
    func testTheFormsFieldStartsEmptyAtEveryPresentation() throws {
        var lines: [String] = []
        let scene = try DemoScene(style: try BuiltinStyle.insetCentered.make(options: [:])) { _ in }
        scene.presentsAlert = true
        scene.makeAlertContent = { FormDemo.makeAlert(secure: false, log: { lines.append($0) }) }
        scene.layout(containerSize: Size(width: 390, height: 844), scale: 1)
        var t = 0.0
        func key(_ keysym: UInt32, _ text: String = "") {
            t += 0.1
            scene.handle(.keyboard(KeyInput(keysym: keysym, phase: .press, text: text)), now: t)
            scene.handle(.keyboard(KeyInput(keysym: keysym, phase: .release)), now: t + 0.01)
        }
        for (typed, answer, expected) in [("one", KeyInput.Keysym.escape, "response cancel"),
                                          ("two", KeyInput.Keysym.returnKey, "response ok \"two\""),
                                          ("three", KeyInput.Keysym.returnKey, "response ok \"three\"")] {
            scene.present(now: t)
            t += 10
            scene.update(now: t)
            for c in typed { key(c.unicodeScalars.first!.value, String(c)) }
            key(answer, answer == KeyInput.Keysym.returnKey ? "\r" : "")
            t += 10
            scene.update(now: t)
            XCTAssertEqual(lines.filter { $0.hasPrefix("text ") }.last, "text \"\(typed)\"", "typed into an empty field")
            XCTAssertEqual(lines.last, expected)
        }
    }
}
