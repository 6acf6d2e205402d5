// `modal-demo --style PATH --watch` under headless sway: a style package made by `new-style` is
// rebuilt with another default dim-alpha while the demo runs; the next presentation shows the new
// dim, a presented card switches at once, nothing restarts, and the event log says
// `reloaded PATH`. A file that does not load keeps the style with one stderr line; a file written
// in two steps (a linker still writing) is retried, not reported; a file cut short is refused
// before dlopen (which would map it past its end and die of SIGBUS): the process lives on with the
// previous style.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class StyleWatchSwayTests: CompositorTestCase {
    typealias Support = PluginTestSupport

    /// Sets the drawer's declared default dim-alpha in its source and rebuilds.
    private func rebuild(_ directory: String, dimAlpha: String) throws {
        let source = directory + "/Sources/SideDrawerStyle/SideDrawerStyle.swift"
        var text = try String(contentsOfFile: source, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"default: [0-9.]+, in: 0\.\.\.1\)"#)
        text = pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                withTemplate: "default: \(dimAlpha), in: 0...1)")
        XCTAssertTrue(text.contains("\"dim-alpha\", \"alpha of the black dim when presented\", default: \(dimAlpha)"))
        try text.write(toFile: source, atomically: false, encoding: .utf8)
        let build = try Support.swiftBuild(directory)
        guard build.status == 0 else {
            throw HarnessError("swift build failed: " + String((build.stdout + build.stderr).suffix(3000)))
        }
    }

    func testRebuiltStyleIsUsedWithoutRestartAndAPresentedCardSwitchesAtOnce() throws {
        let (directory, made) = try Support.freshPackage("side-drawer", for: self)
        XCTAssertEqual(made.status, 0, made.stderr)
        try rebuild(directory, dimAlpha: "0.3")
        let library = directory + "/.build/debug/libModalKitStyleSideDrawer.so"

        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(["--style", library, "--watch"], in: sway)
        let w = window.rect
        let reference = try sway.stableScreenshot()
        keep(reference, "reference")
        // Right of the panel (70 % of 800 = 560 points wide): only the dim.
        let dimRegion = PixelBox(x: w.x + 600, y: w.y + 40, width: 180, height: w.height - 80)

        func present(_ label: String) throws -> RGBImage? {
            let mark = demo.mark()
            try vnc.key("enter")
            guard expectEvent(demo, "presented", since: mark) != nil else { return nil }
            let shot = try sway.stableScreenshot()
            keep(shot, label)
            return shot
        }
        func dismiss() throws {
            let mark = demo.mark()
            try vnc.key("esc")
            expectEvent(demo, "dismissed", since: mark)
        }

        guard let first = try present("dim-0.3") else { return }
        XCTAssertEqual(dimMismatches(shot: first, reference: reference, region: dimRegion, dimAlpha: 0.3, tolerance: 2), [])
        try dismiss()

        // Rebuilt with dim-alpha 0.6 while dismissed: the next presentation uses it.
        var mark = demo.mark()
        try rebuild(directory, dimAlpha: "0.6")
        XCTAssertEqual(expectEvent(demo, "reloaded", since: mark, timeout: 30), "reloaded \(library)")
        guard let second = try present("dim-0.6") else { return }
        XCTAssertEqual(dimMismatches(shot: second, reference: reference, region: dimRegion, dimAlpha: 0.6, tolerance: 2), [])

        // Rebuilt with 0.45 while presented (at rest): the card switches at once.
        mark = demo.mark()
        try rebuild(directory, dimAlpha: "0.45")
        expectEvent(demo, "reloaded", since: mark, timeout: 30)
        let switched = try sway.stableScreenshot()
        keep(switched, "dim-0.45-at-rest")
        XCTAssertEqual(dimMismatches(shot: switched, reference: reference, region: dimRegion, dimAlpha: 0.45, tolerance: 2), [])
        XCTAssertEqual(demo.events("presenting", since: mark), [], "no new presentation")
        XCTAssertEqual(demo.stderrLines, [], "nothing on stderr")
        XCTAssertNil(demo.waitForExit(timeout: 0), "still the same process")
    }

    func testAFileThatDoesNotLoadKeepsTheStyleAndAHalfWrittenOneIsRetried() throws {
        let dir = try Support.temporaryDirectory(self, "watch-bad")
        let library = dir + "/libModalKitStyleWatched.so"
        let bottomSheet = try Support.installedLibrary(Support.bottomSheetLibrary)
        try Support.copy(bottomSheet, to: library)
        let good = try XCTUnwrap(FileManager.default.contents(atPath: bottomSheet))

        let sway = try startSway()
        let (demo, _) = try launchDemo(["--style", library, "--watch"], in: sway)

        // Written in two steps 0.6 s apart: the first half is not a loadable library and fails the
        // tries at about 0.25 and 0.5 s; the rest arrives before the file has been unchanged for
        // the second after which a failure is reported: retried, then loaded.
        var mark = demo.mark()
        let half = good.count / 2
        try good.prefix(half).write(to: URL(fileURLWithPath: library))
        usleep(600_000)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: library))
        handle.seekToEndOfFile()
        handle.write(good.suffix(from: half))
        handle.closeFile()
        XCTAssertEqual(expectEvent(demo, "reloaded", since: mark, timeout: 30), "reloaded \(library)")
        usleep(1_500_000)   // longer than the reporting delay
        XCTAssertEqual(demo.stderrLines, [], "a half-written file is not an error")

        // A file that is not a library: one line, the style stays.
        mark = demo.mark()
        try "not a library".write(toFile: library, atomically: false, encoding: .utf8)
        let line = waitUntil(timeout: 15, interval: 0.1) { !demo.stderrLines.isEmpty }
        XCTAssertTrue(line, "a line on stderr")
        usleep(1_500_000)
        XCTAssertEqual(demo.stderrLines.count, 1, "\(demo.stderrLines)")
        let message = demo.stderrLines.first ?? ""
        XCTAssertTrue(message.hasPrefix("modal-demo: cannot reload \(library): not a shared library (file too short: "), message)
        XCTAssertFalse(message.contains("reload-"), "names the watched file, not the copy: \(message)")
        XCTAssertTrue(message.hasSuffix("(keeping the previous style)"), message)
        XCTAssertEqual(demo.events("reloaded", since: mark), [])
        XCTAssertNil(demo.waitForExit(timeout: 0), "still running")
        // …and still presents with it.
        let vnc = try startVNC(sway)
        mark = demo.mark()
        try vnc.key("enter")
        expectEvent(demo, "presented", since: mark)
    }

    /// The watched library truncated to 64 KiB while the demo runs (cut in place and closed, as an
    /// interrupted copy leaves it; its first loadable segment is far longer): the copy is refused
    /// before dlopen, one line says which segment is past the end, the process is alive and
    /// presents with the previous style (inset-centered's 0.5 dim left of its card).
    func testATruncatedLibraryKeepsThePreviousStyleAndTheProcessAlive() throws {
        let dir = try Support.temporaryDirectory(self, "watch-truncated")
        let library = dir + "/libModalKitStyleWatched.so"
        try Support.copy(try Support.installedLibrary(Support.insetCenteredLibrary), to: library)
        let cut = 65536

        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(["--style", library, "--watch"], in: sway)
        let w = window.rect
        let reference = try sway.stableScreenshot()

        var mark = demo.mark()
        let fd = open(library, O_WRONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(ftruncate(fd, off_t(cut)), 0)
        close(fd)
        XCTAssertTrue(waitUntil(timeout: 15, interval: 0.1) { !demo.stderrLines.isEmpty }, "a line on stderr")
        usleep(1_500_000)   // longer than the reporting delay: still one line
        XCTAssertEqual(demo.stderrLines.count, 1, "\(demo.stderrLines)")
        let message = demo.stderrLines.first ?? ""
        XCTAssertTrue(message.hasPrefix("modal-demo: cannot reload \(library): not a complete shared library: segment "), message)
        XCTAssertTrue(message.contains(" (PT_LOAD) ends at byte "), message)
        XCTAssertTrue(message.contains("past the end of the file (\(cut) bytes; cut short?)"), message)
        XCTAssertTrue(message.hasSuffix("(keeping the previous style)"), message)
        XCTAssertNil(demo.waitForExit(timeout: 0), "still running: nothing was mapped past the end of the file")
        XCTAssertEqual(demo.events("reloaded", since: mark), [])

        mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        let shot = try sway.stableScreenshot()
        keep(shot, "inset-centered-after-truncation")
        // Left of inset-centered's card (x 0 … 20 points), mid-height: only its 0.5 dim.
        let strip = PixelBox(x: w.x + 4, y: w.y + w.height / 2 - 50, width: 12, height: 100)
        XCTAssertEqual(dimMismatches(shot: shot, reference: reference, region: strip, dimAlpha: 0.5, tolerance: 2), [])
    }

    /// A presentation in flight finishes with the style it started with: the file changes 0.5 s
    /// into a 3 s presentation with inset-centered; `reloaded` comes only after `presented`, and
    /// then the presented modal is bottom-sheet's at once (a sheet on the bottom half, the 0.4 dim
    /// above it where inset-centered's card was).
    func testAPresentationInFlightFinishesWithTheOldStyle() throws {
        let dir = try Support.temporaryDirectory(self, "watch-flight")
        let library = dir + "/libModalKitStyleWatched.so"
        try Support.copy(try Support.installedLibrary(Support.insetCenteredLibrary), to: library)
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(["--style", library, "--watch", "--style-option", "duration=3"], in: sway)
        let w = window.rect
        let reference = try sway.stableScreenshot()

        let mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presenting", since: mark) != nil else { return }
        usleep(500_000)
        try Support.copy(try Support.installedLibrary(Support.bottomSheetLibrary), to: library)
        guard expectEvent(demo, "reloaded", since: mark, timeout: 15) != nil else { return }
        let lines = Array(demo.stdoutLines[mark...]).filter { !$0.hasPrefix("frame ") }
        let presented = lines.firstIndex(of: "presented"), reloaded = lines.firstIndex(of: "reloaded \(library)")
        XCTAssertNotNil(presented, "\(lines)")
        if let presented, let reloaded { XCTAssertLessThan(presented, reloaded, "the running presentation ended first: \(lines)") }
        XCTAssertEqual(demo.events("dismissing", since: mark), [])

        let shot = try sway.stableScreenshot()
        keep(shot, "bottom-sheet-after-reload")
        // Above the sheet (top half, clear of the edges): only bottom-sheet's 0.4 dim — where
        // inset-centered's card (y 110 … H − 110) would be.
        let above = PixelBox(x: w.x + 40, y: w.y + 120, width: w.width - 80, height: w.height / 2 - 140)
        XCTAssertEqual(dimMismatches(shot: shot, reference: reference, region: above, dimAlpha: 0.4, tolerance: 2), [])
        XCTAssertEqual(demo.stderrLines, [])
    }
}
