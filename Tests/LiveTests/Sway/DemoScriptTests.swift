// scripts/demo without a Wayland session: its headless tour (private sway, real input through
// wayvnc + vncdo) with any style. The tap that dismisses lands where the style itself says
// (`modal-demo dismiss-point`), not at a fixed point its presented view may cover; a style with
// no such point is dismissed with Escape instead. The script fails only when the style breaks its
// own promise. Runs the installed release modal-demo (MODALKIT_BIN=PREFIX/bin, ``InstalledProducts``),
// building and installing nothing; its tour ends with `swaymsg kill`, after which it must exit 0.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class DemoScriptTests: CompositorTestCase {
    /// inset-centered with `margin-y=10`: the card covers (centre, top + 60), where a fixed tap
    /// would land on the card and never dismiss; the style's point lies above its top edge.
    func testACardCoveringTheTopCentreIsDismissedByATapWhereTheStyleSays() throws {
        let run = try runDemoScript(["--style", "inset-centered", "--style-option", "margin-y=10"])
        XCTAssertEqual(run.status, .exited(0), run.output)
        // The tour's window is 800×600 (sway, 20 px gap): the card is x 20…780, y 10…590, so the
        // point the style names lies in the dim around it, off (centre, top + 60) = (400, 60).
        guard let line = run.stderr.split(separator: "\n").first(where: { $0.contains("the style says a tap at (") }),
              let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")") else {
            return XCTFail("no tap point in scripts/demo's output:\n\(run.output)")
        }
        let coordinates = line[line.index(after: open)..<close].split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        XCTAssertEqual(coordinates.count, 2, String(line))
        if coordinates.count == 2 {
            let (x, y) = (coordinates[0], coordinates[1])
            XCTAssertTrue(x < 20 || x >= 780 || y < 10 || y >= 590, "the tap lands on the dim, outside the card: \(line)")
            XCTAssertTrue((0..<800).contains(x) && (0..<600).contains(y), "inside the window: \(line)")
        }
        XCTAssertTrue(run.events.contains("dismissed"), "events: \(run.events)")
        XCTAssertTrue(run.screenshots.contains { $0.hasSuffix("dismissed-by-tap.png") }, "screenshots: \(run.screenshots)")
    }

    /// A card as large as the window leaves no dim to tap: the script says so and goes on with Escape.
    func testAStyleWithNoDismissingTapGoesOnWithEscape() throws {
        let run = try runDemoScript(["--style", "inset-centered", "--style-option", "margin-x=0",
                                     "--style-option", "margin-y=0"])
        XCTAssertEqual(run.status, .exited(0), run.output)
        XCTAssertTrue(run.stderr.contains("dismiss-point: none"), run.output)
        XCTAssertTrue(run.screenshots.contains { $0.hasSuffix("dismissed-by-escape-no-tap-point.png") },
                      "screenshots: \(run.screenshots)")
        XCTAssertEqual(run.events.filter { $0 == "dismissed" }.count, 2, "Escape instead of the tap, then Return/Escape: \(run.events)")
    }

    /// `--watch` with a plugin path: the tour runs as with any style, also when run as root (the
    /// argument check and the demo make the copy they load in a directory of their own, not in
    /// the non-existent one the check used to name), and `dismiss-point` takes `--watch` too.
    func testTheTourRunsWithWatch() throws {
        let library = try PluginTestSupport.stylesDirectory() + "/libModalKitStyleInsetCentered.so"
        let run = try runDemoScript(["--style", library, "--watch"])
        XCTAssertEqual(run.status, .exited(0), run.output)
        XCTAssertFalse(run.output.contains("cannot make a directory"), run.output)
        XCTAssertEqual(run.events.filter { $0 == "presenting" }.count, 2, "click, then Return: \(run.events)")
        XCTAssertEqual(run.events.filter { $0 == "dismissed" }.count, 2, "the tap, then Escape: \(run.events)")
        XCTAssertTrue(run.screenshots.contains { $0.hasSuffix("dismissed-by-tap.png") }, "screenshots: \(run.screenshots)")
    }

    private struct ScriptRun {
        var status: ExitStatus
        var stderr: String
        var output: String
        /// The first word of each line of the demo's events (`stdout.log`, as modalkit-session saves an app's stdout).
        var events: [String]
        var screenshots: [String]
    }

    private func runDemoScript(_ arguments: [String]) throws -> ScriptRun {
        try requireProgram("sway", "swaymsg", "grim", "wayvnc")
        guard let vncdo = vncdoPath() else { throw XCTSkip("vncdo is not installed (scripts/test installs it)") }
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-demo-script")
        defer { removeTree(dir) }
        let bin = try InstalledProducts.binDirectory()
        let env = harnessEnvironment([
            "MODALKIT_HEADLESS": "1", "MODALKIT_NO_INSTALL": "1", "MODALKIT_BIN": bin,
            "MODALKIT_VNCDO": vncdo, "MODALKIT_SCREENSHOTS_DIR": dir, "WAYLAND_DISPLAY": nil,
        ])
        let r = try ChildProcess.run(["bash", PluginTestSupport.packageRoot + "/scripts/demo"] + arguments,
                                     environment: env, timeout: 120)
        let stdout = String(decoding: r.stdout, as: UTF8.self)
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        let shots = folders.first.map { dir + "/" + $0 } ?? dir
        let events = ((try? String(contentsOfFile: shots + "/stdout.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }
        return ScriptRun(status: r.status, stderr: r.stderr, output: "stdout:\n\(stdout)\nstderr:\n\(r.stderr)",
                         events: events, screenshots: (try? FileManager.default.contentsOfDirectory(atPath: shots)) ?? [])
    }
}
