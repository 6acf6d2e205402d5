// Reduced motion live under headless sway: the desktop's setting from a fake XDG Desktop Portal
// (Fixtures/fake_portal.py) on a private dbus-daemon, followed on SettingChanged; no bus, a bus
// without a portal, a bus that never answers: the window works and prints nothing on stderr.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class ReducedMotionLiveTests: CompositorTestCase {
    static let gnome = "org.gnome.desktop.interface"
    static let kde = "org.kde.kdeglobals.KDE"

    func startBus() throws -> PrivateSessionBus {
        try requireProgram("dbus-daemon", "dbus-send")
        let bus = try PrivateSessionBus()
        addTeardownBlock { bus.stop() }
        return bus
    }

    func startPortal(_ arguments: [String], on bus: PrivateSessionBus) throws -> FakePortal {
        let portal = try FakePortal(arguments, on: bus)
        addTeardownBlock { portal.stop() }
        return portal
    }

    // MARK: the portal decides, live

    /// GNOME `enable-animations` false → the card never leaves its frame while the dim fades in over
    /// 3 s; SettingChanged to true → the next presentation slides up from the bottom edge again.
    func testGnomeAnimationsOffCrossFadesAtTheFrameAndSettingChangedBringsTheSlideBack() throws {
        let bus = try startBus()
        let portal = try startPortal(["--gnome-enable-animations", "false"], on: bus)
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(["--duration", "3"], in: sway,
                                            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        let w = window.rect
        // Read at start-up, or — when the portal answers after modal-demo's 0.5 s start-up deadline
        // (a loaded machine) — as soon as the answer arrives: wait for the line, then present.
        expectEvent(demo, "reduced-motion", "portal calls: \(portal.calls)")
        XCTAssertEqual(demo.events("reduced-motion"), ["reduced-motion on"], "\(portal.calls)")
        let calls = portal.calls(including: ["call ReadOne \(Self.gnome) enable-animations"])
        XCTAssertTrue(calls.contains("call ReadOne \(Self.gnome) enable-animations"), "\(calls)")
        let reference = try sway.stableScreenshot()
        keep(reference, "before")

        // Present under reduced motion; screenshots while the dim still fades (3 s).
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presenting", since: mark) != nil else { return }
        usleep(300_000)   // past the 0.2 s fade-in
        var midShots: [RGBImage] = []
        while midShots.count < 4 {
            let shot = try sway.screenshot()
            guard demo.events("presented", since: mark).isEmpty else { break }   // taken before the end
            midShots.append(shot)
        }
        guard expectEvent(demo, "presented", since: mark, timeout: 15) != nil else { return }
        let presented = try sway.stableScreenshot()
        keep(presented, "presented")
        XCTAssertGreaterThanOrEqual(midShots.count, 2, "screenshots during the 3 s presentation")
        for (i, shot) in midShots.enumerated() {
            keep(shot, "reduced-mid-\(i)")
            // Only the dim outside the card's frame (above y = 110, below y = H − 110), at an alpha
            // still short of 0.5: the transition runs and nothing of the card is there.
            let factor = try XCTUnwrap(dimFactor(shot: shot, reference: reference, region: below(w)), "shot \(i)")
            XCTAssertGreaterThan(factor, 0.52, "shot \(i): the dim is still fading in")
            XCTAssertEqual(dimMismatches(shot: shot, reference: reference, region: below(w), dimAlpha: 1 - factor), [],
                           "shot \(i): below the card's frame only the dim (the card does not rise from there)")
            XCTAssertEqual(dimMismatches(shot: shot, reference: reference, region: above(w), dimAlpha: 1 - factor), [],
                           "shot \(i): above the card's frame only the dim")
            // Inside the frame, along its edges: the card, opaque, as when presented.
            for (x, y) in framePoints(w) {
                assertPixel(shot, x, y, near: presented[x, y], tolerance: 3, "shot \(i): card at its frame (\(x),\(y))")
            }
        }
        // At rest the card is at its frame over the 0.5 dim.
        XCTAssertEqual(dimMismatches(shot: presented, reference: reference, region: below(w), dimAlpha: 0.5), [])

        mark = demo.mark()
        try vnc.key("esc")
        guard expectEvent(demo, "dismissed", since: mark, timeout: 15) != nil else { return }

        // The desktop turns animations back on.
        mark = demo.mark()
        try portal.set(Self.gnome, "enable-animations", "boolean:true")
        guard expectEvent(demo, "reduced-motion", since: mark) != nil else { return }
        XCTAssertEqual(demo.events("reduced-motion", since: mark), ["reduced-motion off"])

        mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presenting", since: mark) != nil else { return }
        usleep(1_300_000)   // about halfway: the card's top near (H + 110) / 2
        let sliding = try sway.screenshot()
        XCTAssertTrue(demo.events("presented", since: mark).isEmpty, "the shot was taken during the transition")
        keep(sliding, "sliding")
        let factor = try XCTUnwrap(dimFactor(shot: sliding, reference: reference, region: above(w)))
        XCTAssertFalse(dimMismatches(shot: sliding, reference: reference, region: below(w), dimAlpha: 1 - factor,
                                     limit: 100).isEmpty, "the card is below its frame, rising")
        for (x, y) in framePoints(w).filter({ $0.1 < w.y + w.height / 2 }) {
            assertPixel(sliding, x, y, near: reference[x, y].dimmed(byBlackAlpha: 1 - factor),
                        "not yet at the top of its frame (\(x),\(y)): dim only")
        }
        guard expectEvent(demo, "presented", since: mark, timeout: 15) != nil else { return }
        XCTAssertEqual(demo.stderrLines, [])
    }

    /// KDE `AnimationDurationFactor` 0 from a version 1 portal (no ReadOne: the deprecated Read,
    /// its value in two variants), then a factor of 1 → off.
    func testKdeAnimationFactorZeroThroughReadOnAnOlderPortal() throws {
        let bus = try startBus()
        let portal = try startPortal(["--version", "1", "--kde-animation-factor", "0"], on: bus)
        let sway = try startSway()
        let (demo, _) = try launchDemo([], in: sway, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        expectEvent(demo, "reduced-motion", "portal calls: \(portal.calls)")
        XCTAssertEqual(demo.events("reduced-motion"), ["reduced-motion on"], "\(portal.calls)")
        let calls = portal.calls(including: ["call ReadOne \(Self.kde) AnimationDurationFactor",
                                             "call Read \(Self.kde) AnimationDurationFactor"])
        XCTAssertTrue(calls.contains("call ReadOne \(Self.kde) AnimationDurationFactor"), "\(calls)")
        XCTAssertTrue(calls.contains("call Read \(Self.kde) AnimationDurationFactor"), "\(calls)")
        let mark = demo.mark()
        try portal.set(Self.kde, "AnimationDurationFactor", "double:1")
        guard expectEvent(demo, "reduced-motion", since: mark) != nil else { return }
        XCTAssertEqual(demo.events("reduced-motion", since: mark), ["reduced-motion off"])
        // A change of another key, or to the same value, prints nothing.
        try portal.set(Self.kde, "AnimationDurationFactor", "double:0.5")
        try portal.set("org.freedesktop.appearance", "color-scheme", "uint32:1")
        try portal.set(Self.kde, "AnimationDurationFactor", "double:0")
        XCTAssertTrue(demo.waitForLines("reduced-motion", count: 2, since: mark, timeout: eventTimeout),
                      "\(demo.stdoutLines.suffix(10))")
        XCTAssertEqual(demo.events("reduced-motion", since: mark), ["reduced-motion off", "reduced-motion on"])

        // Idle with the bus in its poll set: asleep.
        usleep(300_000)
        var ticks = try cpuTicksUsed(by: demo.pid, over: 2)
        XCTAssertLessThanOrEqual(ticks, 1, "idle with a D-Bus connection: \(ticks) ticks of CPU in 2 s")
        // The bus goes away: the window lives on, silently, and does not spin on the dead socket.
        portal.stop()
        bus.stop()
        usleep(300_000)
        ticks = try cpuTicksUsed(by: demo.pid, over: 2)
        XCTAssertLessThanOrEqual(ticks, 1, "after the bus hung up: \(ticks) ticks of CPU in 2 s")
        XCTAssertTrue(demo.isRunning)
        XCTAssertEqual(demo.events("reduced-motion", since: mark), ["reduced-motion off", "reduced-motion on"],
                       "the last known setting stays")
        XCTAssertEqual(demo.stderrLines, [])
    }

    // MARK: no desktop setting

    /// No bus, a bus address whose socket is missing, a bus without a portal, a socket that never
    /// answers: the window starts (in time), presents and dismisses (sliding), and prints nothing
    /// on stderr and no reduced-motion line. The slide is seen held at a fifth of the transition
    /// (`--pause-at 0.2`, whatever the machine's load), where reduced motion's cross-fade would
    /// already show the card at its frame.
    func testWithoutBusOrPortalNothingChangesAndNothingIsPrinted() throws {
        let bus = try startBus()
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let hung = try HungSocket()
        addTeardownBlock { hung.close() }
        let cases: [(String, [String: String?])] = [
            ("no DBUS_SESSION_BUS_ADDRESS", ["DBUS_SESSION_BUS_ADDRESS": nil]),
            ("a missing socket", ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/modalkit/bus"]),
            ("a bus without a portal", ["DBUS_SESSION_BUS_ADDRESS": bus.address]),
            ("a socket that never answers", ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + hung.path]),
        ]
        for (what, env) in cases {
            // launchDemo bounds the start-up (configure and a frame within 10 s each).
            let demo: DemoProcess
            do {
                (demo, _) = try launchDemo(["--duration", "0.5", "--pause-at", "0.2"], in: sway, environment: env)
            } catch {
                XCTFail("\(what): \(error)")
                continue
            }
            var mark = demo.mark()
            try vnc.key("enter")
            expectEvent(demo, "presenting", since: mark, what)
            expectEvent(demo, "paused", since: mark, what)
            let shot = try sway.stableScreenshot()
            keep(shot, what)
            XCTAssertTrue(demo.events("presented", since: mark).isEmpty, "\(what): held during the transition")
            let w = try XCTUnwrap(sway.windows().first { $0.pid == Int(demo.pid) }).rect
            // Sliding: a fifth of the way in, the card's top is still well below y = 110.
            XCTAssertNotEqual(shot[w.x + w.width / 2, w.y + 115], shot[w.x + w.width / 2, w.y + w.height - 30],
                              "\(what): the card is not yet at the top of its frame")
            mark = demo.mark()
            try vnc.key("esc")
            expectEvent(demo, "dismissed", since: mark, what)
            XCTAssertEqual(demo.events("reduced-motion"), [], what)
            XCTAssertEqual(demo.stderrLines, [], what)
            demo.stop()
            _ = waitUntil(timeout: 5) { ((try? sway.windows()) ?? []).allSatisfy { $0.pid != Int(demo.pid) } }
        }
    }

    /// `--reduced-motion` and `MODALKIT_REDUCED_MOTION=1` force it on without asking the bus
    /// (the portal here says animations are on and is never called).
    func testFlagAndEnvironmentForceItOnWithoutAskingThePortal() throws {
        let bus = try startBus()
        let portal = try startPortal(["--gnome-enable-animations", "true"], on: bus)
        let sway = try startSway()
        for (args, env) in [(["--reduced-motion"], [String: String?]()), ([], ["MODALKIT_REDUCED_MOTION": "1"])] {
            var environment = env
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            let (demo, _) = try launchDemo(args, in: sway, environment: environment)
            XCTAssertEqual(demo.events("reduced-motion"), ["reduced-motion on"], "\(args) \(env)")
            XCTAssertEqual(demo.stderrLines, [])
            demo.stop()
            _ = waitUntil(timeout: 5) { ((try? sway.windows()) ?? []).allSatisfy { $0.pid != Int(demo.pid) } }
        }
        XCTAssertEqual(portal.calls, [], "forced on: the portal is not asked")
    }

    // MARK: regions (window W×H at scale 1; the inset card's frame is 20/110 in from the edges)

    /// Below the card's frame, inside the window: y from H − 106 to H − 4.
    private func below(_ w: PixelBox) -> PixelBox { PixelBox(x: w.x + 4, y: w.y + w.height - 106, width: w.width - 8, height: 102) }
    /// Above the card's frame: y from 4 to 106.
    private func above(_ w: PixelBox) -> PixelBox { PixelBox(x: w.x + 4, y: w.y + 4, width: w.width - 8, height: 102) }
    /// Points just inside the card's frame, along its four edges (clear of the rounded corners).
    private func framePoints(_ w: PixelBox) -> [(Int, Int)] {
        let x0 = w.x, y0 = w.y, W = w.width, H = w.height
        return [(x0 + W / 2, y0 + 112), (x0 + 100, y0 + 112), (x0 + 22, y0 + H / 2 + 60), (x0 + W - 22, y0 + H / 2 + 60),
                (x0 + W / 2, y0 + H - 112), (x0 + W - 100, y0 + H - 112)]
    }

    /// The factor (1 − dim alpha) `shot` shows over `reference` in `region`, from its brightest
    /// reference pixel; nil when the region has no pixel bright enough to tell.
    private func dimFactor(shot: RGBImage, reference: RGBImage, region r: PixelBox) -> Double? {
        var best: (x: Int, y: Int, v: UInt8)?
        for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) where reference[x, y].g > (best?.v ?? 120) {
                best = (x, y, reference[x, y].g)
            }
        }
        guard let best else { return nil }
        return Double(shot[best.x, best.y].g) / Double(best.v)
    }
}

/// A Unix socket that listens and never accepts: connecting works, nothing ever answers (a hung
/// bus). Lives in its own private directory, removed by `close()`.
final class HungSocket {
    let directory: String
    let path: String
    private var fd: Int32

    init() throws {
        directory = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-hung")
        path = directory + "/bus"
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 && listen(fd, 4) == 0
            }
        }
        guard fd >= 0, ok else {
            let message = String(cString: strerror(errno))
            close()
            throw HarnessError("cannot listen on \(path): \(message)")
        }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
        removeTree(directory)
    }
}
