// Tests of the harness itself, against real clients that are not ours (foot, wev,
// weston-simple-shm): if these pass, a failing modal-demo test is about modal-demo.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class HarnessSelfTests: CompositorTestCase {
    // MARK: processes, /proc, PPM

    func testPPMParserReadsHeaderCommentsAndPixels() throws {
        var data = Data("P6\n# made by hand\n3 2\n255\n".utf8)
        data.append(contentsOf: [255, 0, 0, 0, 255, 0, 0, 0, 255,
                                 1, 2, 3, 4, 5, 6, 7, 8, 9])
        let image = try RGBImage.parsePPM(data)
        XCTAssertEqual(image.width, 3)
        XCTAssertEqual(image.height, 2)
        XCTAssertEqual(image[0, 0], RGB(255, 0, 0))
        XCTAssertEqual(image[2, 0], RGB(0, 0, 255))
        XCTAssertEqual(image[1, 1], RGB(4, 5, 6))
        XCTAssertEqual(image.cropped(to: PixelBox(x: 1, y: 1, width: 2, height: 1)).bytes, [4, 5, 6, 7, 8, 9])
        XCTAssertThrowsError(try RGBImage.parsePPM(Data("P6\n3 2\n255\n".utf8) + Data([1, 2, 3])))
        XCTAssertThrowsError(try RGBImage.parsePPM(Data("P3\n1 1\n255\n0 0 0\n".utf8)))
    }

    func testDimmedColourIsChannelTimesOneMinusAlpha() {
        XCTAssertEqual(RGB(200, 100, 51).dimmed(byBlackAlpha: 0.5), RGB(100, 50, 26))
        XCTAssertEqual(RGB(200, 100, 50).dimmed(byBlackAlpha: 0.4), RGB(120, 60, 30))
    }

    func testFindButtonFindsAFilledBoxWithTextAndIgnoresShadowAndHint() {
        // 200x100 "window" with a vertical gradient, a 60x20 blue button at (70, 40) with white
        // "text" inside, a faint shadow offset downwards and a grey hint line under it.
        var bytes = [UInt8]()
        for y in 0..<100 {
            for x in 0..<200 {
                var c = RGB(UInt8(240 - y / 10), UInt8(243 - y / 10), 248)
                if x >= 66 && x < 134 && y >= 40 && y < 66 { c = RGB(225, 230, 240) }            // shadow
                if x >= 70 && x < 130 && y >= 40 && y < 60 { c = RGB(10, 108, 255) }             // fill
                if x >= 90 && x < 110 && y >= 46 && y < 54 { c = RGB(255, 255, 255) }            // label
                if x >= 80 && x < 120 && y >= 75 && y < 78 { c = RGB(107, 114, 128) }            // hint
                bytes += [c.r, c.g, c.b]
            }
        }
        let image = RGBImage(width: 200, height: 100, bytes: bytes)
        XCTAssertEqual(findButton(in: image, window: PixelBox(x: 0, y: 0, width: 200, height: 100)),
                       PixelBox(x: 70, y: 40, width: 60, height: 20))
        XCTAssertNil(findButton(in: image, window: PixelBox(x: 0, y: 0, width: 200, height: 100), searchRadius: 3),
                     "the centre is label text; the fill is farther than 3 px")
    }

    func testStopEndsAChildThatIgnoresSIGTERMWithSIGKILL() throws {
        // `trap "" TERM` is inherited across exec: this sleep ignores SIGTERM.
        let child = try ChildProcess(["sh", "-c", "trap '' TERM; exec sleep 100"], environment: harnessEnvironment([:]))
        usleep(200_000)
        let start = monotonicNow()
        XCTAssertEqual(child.stop(timeout: 0.5), .signaled(SIGKILL))
        XCTAssertLessThan(monotonicNow() - start, 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/\(child.pid)"), "child not reaped")
    }

    /// A process of an accessibility session that is no descendant of its bus (as a service the
    /// bus activated while its parent was being stopped becomes, once reparented) is stopped with
    /// the session: it runs with the session's XDG_RUNTIME_DIR.
    func testAccessibilityBusStopEndsTheSessionsOrphans() throws {
        try requireProgram("dbus-daemon")
        let bus = try AccessibilityBus()
        let started = try ChildProcess.run(["sh", "-c", "sleep 100 >/dev/null 2>&1 & echo $!"], environment: bus.clientEnvironment)
        guard let orphan = pid_t(String(decoding: started.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            bus.stop()
            return XCTFail("no PID from sh: \(started)")
        }
        XCTAssertTrue(isRunning(orphan))
        XCTAssertFalse(descendants(of: bus.bus.process.pid).contains(orphan))
        bus.stop()
        XCTAssertFalse(isRunning(orphan), "the session's orphan \(orphan) still runs")
        if isRunning(orphan) { kill(orphan, SIGKILL) }
    }

    func testRunCollectsOutputAndStatus() throws {
        let r = try ChildProcess.run(["sh", "-c", "echo one; echo two; echo err >&2; exit 3"],
                                     environment: harnessEnvironment([:]))
        XCTAssertEqual(r.status, .exited(3))
        XCTAssertEqual(String(decoding: r.stdout, as: UTF8.self), "one\ntwo\n")
        XCTAssertEqual(r.stderr, "err\n")
        XCTAssertThrowsError(try ChildProcess.run(["sleep", "5"], environment: harnessEnvironment([:]), timeout: 0.3))
    }

    /// Running programs to completion leaves no file descriptor open in the test process: the
    /// suite runs thousands of them in one xctest process.
    func testRunningProgramsLeavesNoFileDescriptorOpen() throws {
        func openDescriptors() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)).map { "\($0)" }
            }
        }
        // Once each first: whatever Foundation opens for good on first use (its run-loop wake-up
        // descriptors) is not a leak.
        _ = try PluginTestSupport.run("/bin/sh", ["-c", "echo out; echo err >&2"], timeout: 10)
        _ = try ChildProcess.run(["sh", "-c", "echo out; echo err >&2"], environment: harnessEnvironment([:]))
        let before = try openDescriptors()
        for _ in 0..<20 {
            let r = try PluginTestSupport.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 4"], timeout: 10)
            XCTAssertEqual(r.status, 4)
            XCTAssertEqual(r.stdout, "out\n")
            XCTAssertEqual(r.stderr, "err\n")
            _ = try ChildProcess.run(["sh", "-c", "echo out; echo err >&2"], environment: harnessEnvironment([:]))
        }
        let after = try openDescriptors()
        XCTAssertEqual(after.count, before.count,
                       "descriptors opened and not closed: \(after.filter { !before.contains($0) }.sorted())")
    }

    func testWritableStandardInputReachesTheChildAndWritingAfterItEndedThrows() throws {
        // Reads two lines, answers each, then exits: the harness's next write has no reader.
        let child = try ChildProcess(["sh", "-c", "read a; echo \"got $a\"; read b; echo \"got $b\""],
                                     environment: harnessEnvironment([:]), writableStandardInput: true)
        try child.writeToStandardInput("one\n")
        XCTAssertEqual(child.stdout.wait(timeout: 5) { $0.first }, "got one")
        try child.writeToStandardInput("two\n")
        XCTAssertEqual(child.waitForExit(timeout: 5), .exited(0))
        XCTAssertTrue(child.stdout.waitForEnd(timeout: 5), "stdout drained")
        XCTAssertEqual(child.stdout.lines, ["got one", "got two"])
        // EPIPE, not SIGPIPE (which would end the test process).
        XCTAssertThrowsError(try child.writeToStandardInput("three\n"))
        // Without the option stdin is /dev/null: `read` sees end of file at once.
        let plain = try ChildProcess.run(["sh", "-c", "read a || echo eof"], environment: harnessEnvironment([:]))
        XCTAssertEqual(String(decoding: plain.stdout, as: UTF8.self), "eof\n")
    }

    func testCPUTicksSeeABusyLoopAndNotASleeper() throws {
        let sleeper = try ChildProcess(["sleep", "30"], environment: harnessEnvironment([:]))
        defer { sleeper.stop() }
        let busy = try ChildProcess(["sh", "-c", "while :; do :; done"], environment: harnessEnvironment([:]))
        defer { busy.stop() }
        // The spinning shell's ticks grow however busy the machine is (a loaded machine only slows
        // them down, so wait for them rather than for a fixed time); the sleeper's stay put meanwhile.
        let idleBefore = try cpuTicks(pid: sleeper.pid)
        var busyTicks = 0
        let spun = try waitUntil(timeout: 60, interval: 0.05) {
            busyTicks = try cpuTicks(pid: busy.pid)
            return busyTicks > 30
        }
        let idleTicks = try cpuTicks(pid: sleeper.pid) - idleBefore
        XCTAssertTrue(spun, "a spinning shell used only \(busyTicks) ticks in 60 s")
        XCTAssertLessThanOrEqual(idleTicks, 1, "a sleeping process used \(idleTicks) ticks while the shell spun")
    }

    // MARK: sway, grim, wayvnc + vncdo

    func testSwayMapsFootFullOutputAndGrimSeesItsBackground() throws {
        try requireProgram("foot")
        let sway = try startSway()
        // foot's documented default background is 111111 (foot.ini(5)); -o pins it anyway.
        let foot = try startClient(["foot", "--override=colors.background=336699", "sleep", "60"], in: sway)
        let window = try sway.waitForWindow(pid: foot.pid)
        XCTAssertEqual(window.rect, PixelBox(x: 20, y: 20, width: 800, height: 600),
                       "lone tiled window fills the output inside the 20 px outer gap, no borders")
        XCTAssertEqual(window.rect, sway.windowArea)
        XCTAssertEqual(window.appID, "foot")
        let shot = try sway.stableScreenshot()
        XCTAssertEqual(shot.width, 840)
        XCTAssertEqual(shot.height, 640)
        XCTAssertEqual(shot[819, 619], RGB(0x33, 0x66, 0x99), "window's bottom-right pixel")
        XCTAssertEqual(shot[420, 500], RGB(0x33, 0x66, 0x99))
        XCTAssertNotEqual(shot[19, 19], RGB(0x33, 0x66, 0x99), "the gap is not the window")
    }

    func testVNCClickAndKeysReachAClient() throws {
        try requireProgram("wev", "stdbuf")
        let sway = try startSway()
        let vnc = try startVNC(sway)
        // wev prints every event it gets; stdbuf makes its stdout line-buffered into our pipe.
        let wev = try startClient(["stdbuf", "-oL", "wev"], in: sway)
        let window = try sway.waitForWindow(pid: wev.pid)
        try vnc.click(x: window.rect.x + 400, y: window.rect.y + 300)
        let pressed = wev.stdout.wait(timeout: eventTimeout) { lines in
            lines.first { $0.contains("wl_pointer") && $0.contains("button: 272") && $0.contains("pressed") } }
        XCTAssertNotNil(pressed, wev.diagnostics())
        XCTAssertNotNil(wev.stdout.lines.first { $0.contains("wl_pointer") && $0.contains("400.000000, 300.000000") },
                        "pointer at surface-local 400,300 = output point minus the window origin")
        try vnc.park()
        XCTAssertNotNil(wev.stdout.wait(timeout: eventTimeout) { $0.first { $0.contains("wl_pointer") && $0.contains("leave") } },
                        "parking the pointer in the gap leaves the window")
        try vnc.key("esc")
        XCTAssertNotNil(wev.stdout.wait(timeout: eventTimeout) { $0.first { $0.contains("sym: Escape") } }, wev.diagnostics())
        try vnc.key("enter")
        XCTAssertNotNil(wev.stdout.wait(timeout: eventTimeout) { $0.first { $0.contains("sym: Return") } }, wev.diagnostics())
    }

    func testRestartingWayvncWithAnotherLayoutSendsANewKeymap() throws {
        try requireProgram("wev", "stdbuf")
        let sway = try startSway()
        var vnc = try startVNC(sway)
        let wev = try startClient(["stdbuf", "-oL", "wev"], in: sway)
        _ = try sway.waitForWindow(pid: wev.pid)
        try vnc.key("esc")
        XCTAssertNotNil(wev.stdout.wait(timeout: eventTimeout) { $0.first { $0.contains("sym: Escape") } })
        let keymapsBefore = wev.stdout.lines.filter { $0.contains("keymap: format") }.count
        vnc.stop()
        vnc = try startVNC(sway, keyboardLayout: "de")
        XCTAssertTrue(sway.keyboardLayoutNames().contains("German"), "layouts: \(sway.keyboardLayoutNames())")
        let mark = wev.stdout.lines.count
        try vnc.key("esc")
        XCTAssertNotNil(wev.stdout.wait(timeout: eventTimeout) { $0.dropFirst(mark).first { $0.contains("sym: Escape") } })
        XCTAssertGreaterThan(wev.stdout.lines.filter { $0.contains("keymap: format") }.count, keymapsBefore,
                             "a new wayvnc brings a new keymap to the focused client")
    }

    func testScratchpadHidesAndShowsAWindow() throws {
        try requireProgram("foot")
        let sway = try startSway()
        let foot = try startClient(["foot", "sleep", "60"], in: sway)
        _ = try sway.waitForWindow(pid: foot.pid)
        try sway.swaymsg(["[pid=\(foot.pid)] move scratchpad"])
        XCTAssertTrue(waitUntil(timeout: 5) { (try? sway.windows())?.first { $0.pid == Int(foot.pid) }?.isVisible == false })
        try sway.swaymsg(["[pid=\(foot.pid)] scratchpad show"])
        let shown = try sway.waitForWindow(pid: foot.pid)
        XCTAssertTrue(shown.isFloating)
    }

    // MARK: KWin

    func testKWinShowsASimpleShmClientCentredAndTheScreenshotSeesExactlyIt() throws {
        try requireProgram("weston-simple-shm")
        let kwin = try startKWin()
        let before = try kwin.screenshot()
        XCTAssertEqual(before.width, 800)
        XCTAssertEqual(before.height, 600)
        XCTAssertNil(before.boundingBox(ofPixelsDifferentFrom: RGB(0, 0, 0)), "KWin alone shows a black output")
        let client = try startClient(["weston-simple-shm"], in: kwin)
        var window: KWinWindow?
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            window = (try? kwin.windows())?.first { $0.pid == Int(client.pid) && $0.buffer.width > 0 }
            return window != nil
        }
        guard let window else { return XCTFail("no window of weston-simple-shm in KWin's window list\n\(client.diagnostics())") }
        // weston-simple-shm draws a 250x250 buffer and asks for no decoration.
        XCTAssertEqual(window.buffer, KWinRect(x: 275, y: 175, width: 250, height: 250), "centred on the 800x600 output")
        XCTAssertFalse(window.hasServerSideTitleBar, "frame \(window.frame)")
        var box: PixelBox?
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            box = (try? kwin.screenshot())?.boundingBox(ofPixelsDifferentFrom: RGB(0, 0, 0))
            return box == window.buffer.pixels()
        }
        XCTAssertEqual(box, window.buffer.pixels(), "the screenshot shows the client exactly where KWin says it is")
    }

    func testKWinDriverPointerKeysAndTouchReachAClientAtSurfaceCoordinates() throws {
        try requireProgram("wev", "stdbuf")
        let kwin = try startKWin()
        try kwin.driver.move(x: 2, y: 2)
        let wev = try startClient(["stdbuf", "-oL", "wev"], in: kwin)
        var window: KWinWindow?
        _ = waitUntil(timeout: eventTimeout, interval: 0.1) {
            window = (try? kwin.windows())?.first { $0.pid == Int(wev.pid) && $0.buffer.width > 0 }
            return window != nil
        }
        guard let window else { return XCTFail("no window of wev in KWin's window list\n\(wev.diagnostics())") }
        try kwin.driver.click(x: window.buffer.x + 100, y: window.buffer.y + 80)
        XCTAssertNotNil(wev.stdout.wait(timeout: eventTimeout) { lines in
            lines.first { $0.contains("wl_pointer") && $0.contains("button: 272") && $0.contains("pressed") } },
                        wev.diagnostics())
        XCTAssertNotNil(wev.stdout.lines.first { $0.contains("wl_pointer") && $0.contains("100.000000, 80.000000") },
                        "pointer at surface-local 100,80 = global point minus the content's origin")
        try kwin.driver.key(.escape)
        XCTAssertNotNil(wev.stdout.wait(timeout: eventTimeout) { $0.first { $0.contains("sym: Escape") } }, wev.diagnostics())
        try kwin.driver.key(.enter)
        XCTAssertNotNil(wev.stdout.wait(timeout: eventTimeout) { $0.first { $0.contains("sym: Return") } }, wev.diagnostics())
        try kwin.driver.tap(x: window.buffer.x + 50, y: window.buffer.y + 40)
        XCTAssertNotNil(wev.stdout.wait(timeout: eventTimeout) { $0.first { $0.contains("wl_touch") && $0.contains("down") } },
                        wev.diagnostics())
        XCTAssertNotNil(wev.stdout.lines.first { $0.contains("wl_touch") && $0.contains("50.000000, 40.000000") },
                        "touch at surface-local 50,40\n\(wev.stdout.lines.filter { $0.contains("wl_touch") })")
    }

    func testKWinStopEndsKWinItsBusAndTheDriverAndRemovesTheSessionDirectory() throws {
        let kwin = try startKWin()
        let pids = [kwin.process.pid, kwin.bus.pid, kwin.driver.process.pid]
        XCTAssertTrue(FileManager.default.fileExists(atPath: kwin.socketPath))
        kwin.stop()
        for pid in pids {
            XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/\(pid)"), "pid \(pid) still there after stop")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: kwin.runtimeDirectory), "session directory removed")
    }

    // MARK: weston

    func testWestonShowsASimpleShmClient() throws {
        try requireProgram("weston-simple-shm")
        let weston = try startWeston()
        let before = try weston.screenshot()
        XCTAssertNil(before.boundingBox(ofPixelsDifferentFrom: HeadlessWeston.background), "empty weston shows only its background")
        let client = try startClient(["weston-simple-shm"], in: weston)
        var box: PixelBox?
        _ = waitUntil(timeout: eventTimeout, interval: 0.2) {
            box = (try? weston.screenshot())?.boundingBox(ofPixelsDifferentFrom: HeadlessWeston.background)
            return box?.width == 250 && box?.height == 250
        }
        XCTAssertEqual(box?.width, 250, client.diagnostics())
        XCTAssertEqual(box?.height, 250)
    }
}
