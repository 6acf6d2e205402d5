// ModalKitDesktopSettings.PortalSettings against a fake XDG Desktop Portal on a private dbus-daemon, without
// a compositor: the values read at start-up (ReadOne, or Read on a version 1 portal), the rule
// (GNOME enable-animations false or KDE AnimationDurationFactor 0), answers and SettingChanged
// through the caller's poll loop, connect never waiting, and nothing at all (silently) without a
// usable bus.
import ModalKitDesktopSettings
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class PortalSettingsTests: XCTestCase {
    private var bus: PrivateSessionBus?
    private var portal: FakePortal?

    override func setUpWithError() throws {
        guard findExecutable("dbus-daemon") != nil, findExecutable("dbus-send") != nil else {
            throw XCTSkip("dbus-daemon is not installed (scripts/test installs it)")
        }
        bus = try PrivateSessionBus()
    }

    override func tearDown() {
        portal?.stop()
        bus?.stop()
        super.tearDown()
    }

    private func startPortal(_ arguments: [String]) throws -> FakePortal {
        let p = try FakePortal(arguments, on: try XCTUnwrap(bus))
        portal = p
        return p
    }

    /// Connects on `loop` and runs it until the start-up reads are answered (at most `timeout` s).
    private func connect(on loop: TestPollLoop = TestPollLoop(), timeout: Double = 5) throws -> PortalSettings {
        let settings = try XCTUnwrap(PortalSettings.connect(address: try XCTUnwrap(bus).address, loop: loop),
                                     "connects to the private bus")
        XCTAssertTrue(loop.run(timeout: timeout) { settings.hasAnswered }, "the portal answered within \(timeout) s")
        return settings
    }

    func testRuleGnomeFalseOrKdeZero() {
        XCTAssertFalse(DesktopMotionSettings().reducesMotion, "nothing known: no reduced motion")
        XCTAssertTrue(DesktopMotionSettings(gnomeEnableAnimations: false).reducesMotion)
        XCTAssertFalse(DesktopMotionSettings(gnomeEnableAnimations: true).reducesMotion)
        XCTAssertTrue(DesktopMotionSettings(kdeAnimationDurationFactor: 0).reducesMotion)
        XCTAssertFalse(DesktopMotionSettings(kdeAnimationDurationFactor: 0.25).reducesMotion)
        XCTAssertTrue(DesktopMotionSettings(gnomeEnableAnimations: true, kdeAnimationDurationFactor: 0).reducesMotion)
        XCTAssertTrue(DesktopMotionSettings(appearanceReducedMotion: 1).reducesMotion)
        XCTAssertFalse(DesktopMotionSettings(appearanceReducedMotion: 0).reducesMotion)
        XCTAssertFalse(DesktopMotionSettings(appearanceReducedMotion: 2).reducesMotion, "unknown values are no preference")
    }

    func testReadsBothKeysWithReadOne() throws {
        let portal = try startPortal(["--gnome-enable-animations", "false", "--kde-animation-factor", "0.5"])
        let settings = try connect()
        XCTAssertEqual(settings.settings, DesktopMotionSettings(gnomeEnableAnimations: false, kdeAnimationDurationFactor: 0.5))
        XCTAssertTrue(settings.settings.reducesMotion)
        let expected: Set = ["call ReadOne org.gnome.desktop.interface enable-animations",
                             "call ReadOne org.kde.kdeglobals.KDE AnimationDurationFactor",
                             "call ReadOne org.freedesktop.appearance reduced-motion"]
        XCTAssertEqual(Set(portal.calls(including: expected)), expected)
    }

    func testStandardizedAppearanceKey() throws {
        let portal = try startPortal(["--appearance-reduced-motion", "1", "--gnome-enable-animations", "true"])
        let loop = TestPollLoop()
        let settings = try connect(on: loop)
        XCTAssertEqual(settings.settings, DesktopMotionSettings(gnomeEnableAnimations: true, appearanceReducedMotion: 1))
        XCTAssertTrue(settings.settings.reducesMotion)
        var seen: [DesktopMotionSettings] = []
        settings.onChange = { seen.append($0) }
        try portal.set("org.freedesktop.appearance", "reduced-motion", "uint32:0")
        XCTAssertTrue(loop.run(timeout: 5) { !seen.isEmpty })
        XCTAssertEqual(seen, [DesktopMotionSettings(gnomeEnableAnimations: true, appearanceReducedMotion: 0)])
        XCTAssertFalse(settings.settings.reducesMotion)
    }

    func testVersionOnePortalFallsBackToReadAndTextFactorsCount() throws {
        let portal = try startPortal(["--version", "1", "--kde-animation-factor", "0", "--kde-as-string"])
        let settings = try connect()
        XCTAssertEqual(settings.settings, DesktopMotionSettings(gnomeEnableAnimations: nil, kdeAnimationDurationFactor: 0))
        let calls = portal.calls(including: ["call Read org.kde.kdeglobals.KDE AnimationDurationFactor",
                                             "call Read org.gnome.desktop.interface enable-animations"])
        XCTAssertTrue(calls.contains("call Read org.kde.kdeglobals.KDE AnimationDurationFactor"), "\(calls)")
        XCTAssertTrue(calls.contains("call Read org.gnome.desktop.interface enable-animations"), "\(calls)")
    }

    func testSettingChangedArrivesThroughThePollLoop() throws {
        let portal = try startPortal(["--gnome-enable-animations", "true"])
        let loop = TestPollLoop()
        let settings = try connect(on: loop)
        XCTAssertEqual(settings.settings.gnomeEnableAnimations, true)
        XCTAssertFalse(loop.watchedFDs.isEmpty, "libdbus handed its socket to the loop")
        var seen: [DesktopMotionSettings] = []
        settings.onChange = { seen.append($0) }

        try portal.set("org.gnome.desktop.interface", "enable-animations", "boolean:false")
        XCTAssertTrue(loop.run(timeout: 5) { !seen.isEmpty }, "SettingChanged within 5 s")
        XCTAssertEqual(seen, [DesktopMotionSettings(gnomeEnableAnimations: false)])
        XCTAssertTrue(settings.settings.reducesMotion)

        // Other keys and other namespaces change nothing; the KDE key is followed too.
        try portal.set("org.freedesktop.appearance", "color-scheme", "uint32:1")
        try portal.set("org.kde.kdeglobals.KDE", "AnimationDurationFactor", "double:0")
        XCTAssertTrue(loop.run(timeout: 5) { seen.count >= 2 })
        XCTAssertEqual(seen.last, DesktopMotionSettings(gnomeEnableAnimations: false, kdeAnimationDurationFactor: 0))
        XCTAssertEqual(seen.count, 2)

        // The bus goes away: the watch ends, nothing is called, nothing spins.
        portal.stop()
        bus?.stop()
        _ = loop.run(timeout: 1) { loop.watchedFDs.isEmpty }
        XCTAssertEqual(loop.watchedFDs, [], "the connection's watches are removed when the bus hangs up")
        settings.close()
    }

    /// A slow portal: connect returns at once without values, and the answers apply when they
    /// come, through the loop.
    func testLateAnswersApplyLive() throws {
        _ = try startPortal(["--gnome-enable-animations", "false", "--delay", "1"])
        let loop = TestPollLoop()
        let settings = try XCTUnwrap(PortalSettings.connect(address: try XCTUnwrap(bus).address, loop: loop))
        // The portal answers a second after each call: connect has returned without waiting for it.
        XCTAssertEqual(settings.settings, DesktopMotionSettings(), "nothing yet")
        XCTAssertFalse(settings.hasAnswered, "connect does not wait for the answers")
        var seen: [DesktopMotionSettings] = []
        settings.onChange = { seen.append($0) }
        XCTAssertTrue(loop.run(timeout: 5) { !seen.isEmpty }, "the late ReadOne answer arrives")
        XCTAssertEqual(seen, [DesktopMotionSettings(gnomeEnableAnimations: false)])
        XCTAssertTrue(settings.settings.reducesMotion)
    }

    func testBusWithoutPortalGivesNoValues() throws {
        // The bus answers ServiceUnknown itself: connect's loop sees every answer (asserted there).
        let settings = try connect(timeout: 5)
        XCTAssertTrue(settings.hasAnswered)
        XCTAssertEqual(settings.settings, DesktopMotionSettings())
    }

    func testNoUsableBusGivesNilAtOnceAndAHungOneNeverAnswers() throws {
        let loop = TestPollLoop()
        XCTAssertNil(PortalSettings.connect(address: nil, loop: loop))
        XCTAssertNil(PortalSettings.connect(address: "unix:path=/nonexistent/modalkit/bus", loop: loop))
        XCTAssertNil(PortalSettings.connect(address: "not an address", loop: loop))
        let hung = try HungSocket()
        defer { hung.close() }
        let started = monotonicNow()
        let settings = try XCTUnwrap(PortalSettings.connect(address: "unix:path=" + hung.path, loop: loop),
                                     "the socket accepts: a monitor that waits for nothing")
        // A blocking handshake would wait for libdbus's 25 s reply timeout; this only tells the two apart.
        XCTAssertLessThan(monotonicNow() - started, 10, "connect does not wait for the hung bus")
        var changed = false
        settings.onChange = { _ in changed = true }
        XCTAssertFalse(loop.run(timeout: 0.5) { settings.hasAnswered || changed }, "a bus that never answers says nothing")
        XCTAssertEqual(settings.settings, DesktopMotionSettings())
        settings.close()
        XCTAssertEqual(loop.watchedFDs, [], "closing removes its watch")
    }
}

/// A minimal `PollLoop`: poll(2) over the watches, on the test's thread.
final class TestPollLoop: PollLoop {
    private var watches: [Int: (fd: Int32, events: Int16, onReady: (PollReadiness) -> Void)] = [:]
    private var nextID = 1

    var watchedFDs: [Int32] { watches.values.filter { $0.events != 0 }.map(\.fd) }

    func addWatch(fd: Int32, readable: Bool, writable: Bool, onReady: @escaping (PollReadiness) -> Void) -> Int {
        let id = nextID
        nextID += 1
        watches[id] = (fd, Self.events(readable, writable), onReady)
        return id
    }

    func updateWatch(_ id: Int, readable: Bool, writable: Bool) {
        watches[id]?.events = Self.events(readable, writable)
    }

    func removeWatch(_ id: Int) { watches[id] = nil }

    private static func events(_ r: Bool, _ w: Bool) -> Int16 { (r ? Int16(POLLIN) : 0) | (w ? Int16(POLLOUT) : 0) }

    /// Polls and handles until `done()` or `timeout` seconds; returns `done()`.
    func run(timeout: Double, until done: () -> Bool) -> Bool {
        let deadline = monotonicNow() + timeout
        while !done() {
            let left = deadline - monotonicNow()
            if left <= 0 { return false }
            let ids = watches.filter { $0.value.events != 0 }.map(\.key)
            var fds = ids.map { pollfd(fd: watches[$0]!.fd, events: watches[$0]!.events, revents: 0) }
            if fds.isEmpty { usleep(UInt32(min(left, 0.05) * 1e6)); continue }
            guard poll(&fds, nfds_t(fds.count), Int32(min(left, 0.1) * 1000) + 1) >= 0 else { continue }
            for (i, id) in ids.enumerated() where fds[i].revents != 0 {
                let r = Int32(fds[i].revents)
                let ready = PollReadiness(readable: r & Int32(POLLIN) != 0, writable: r & Int32(POLLOUT) != 0,
                                          hangup: r & Int32(POLLHUP) != 0, error: r & Int32(POLLERR | POLLNVAL) != 0)
                guard let handler = watches[id]?.onReady else { continue }   // removed by an earlier handler
                if r & Int32(POLLHUP | POLLERR | POLLNVAL) != 0 { watches[id] = nil }   // like WaylandConnection
                handler(ready)
            }
        }
        return true
    }
}
