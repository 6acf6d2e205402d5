// The accessibility bus misbehaving under a running modal-demo (headless sway): a bus that
// accepts connections and never answers (a hung or stopped bus daemon), a bus that goes away and
// comes back, and a dialog dismissed and presented again between two looks of the bridge.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class AccessibilityBusLiveTests: CompositorTestCase {
    private func requireAccessibilityStack() throws {
        try requireProgram("dbus-daemon")
        for file in ["/usr/share/dbus-1/services/org.a11y.Bus.service", "/usr/bin/python3"]
        where access(file, F_OK) != 0 {
            throw XCTSkip("\(file) is missing (scripts/test installs at-spi2-core and python3-gi)")
        }
    }

    /// A bus socket whose server accepts every connection and never writes a byte: at-spi2-atk's
    /// own start (`dbus_bus_register`) would wait libdbus's 25 s for the answer to its
    /// authentication and `Hello`. The demo must draw, take input and answer meanwhile, and say
    /// once that the bus does not answer (after the bridge's 5 s).
    func testAHungAccessibilityBusHoldsUpNoFrameAndNoInputAndIsReportedOnce() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let hung = try HungBusServer()
        addTeardownBlock { hung.stop() }
        let launched = monotonicNow()
        // launchDemo waits for a configure and a frame at the window's size: no frame, no pass.
        let (demo, _) = try launchDemo([], in: sway, environment: ["AT_SPI_BUS_ADDRESS": "unix:path=" + hung.path,
                                                                   "DBUS_SESSION_BUS_ADDRESS": nil])
        XCTAssertTrue(waitUntil(timeout: 5, interval: 0.02) { hung.accepted > 0 },
                      "the demo connected to the hung bus (the bridge started after its first frame)")
        // Input while the bus has not answered: Return presents at once (the next frame's
        // `presenting`), long before libdbus's 25 s — and before the bridge's own 5 s report.
        var mark = demo.mark()
        try vnc.key("enter")
        expectEvent(demo, "presenting", since: mark, timeout: 3)
        expectEvent(demo, "presented", since: mark)
        mark = demo.mark()
        try vnc.key("esc")
        expectEvent(demo, "dismissed", since: mark)
        // Then one line on stderr naming the bus, and no other.
        let reported = waitUntil(timeout: 10, interval: 0.05) { !demo.stderrLines.isEmpty }
        XCTAssertTrue(reported, "the hung bus is reported")
        let waited = monotonicNow() - launched
        XCTAssertLessThan(waited, 20, "reported after the bridge's 5 s, not libdbus's 25 s")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(demo.stderrLines, ["modal-demo: accessibility: the accessibility bus at unix:path=\(hung.path) did not answer "
                                          + "within 5 s; screen readers will see this window once it answers"])
        XCTAssertEqual(demo.events("accessibility"), [], "no bridge ran")
        // Still answering: another presentation.
        mark = demo.mark()
        try vnc.key("enter")
        expectEvent(demo, "presenting", since: mark, timeout: 3)
        XCTAssertTrue(demo.isRunning)
    }

    /// The accessibility bus hangs after the bridge joined it (its daemon stopped, SIGSTOP): the
    /// bridge only queues what it sends, so keys still present and dismiss at once, with the
    /// bridge's events for them; when the daemon continues, a screen reader sees the demo as it is.
    func testAnAccessibilityBusThatHangsLaterHoldsUpNoInput() throws {
        try requireAccessibilityStack()
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let bus = try AccessibilityBus()
        addTeardownBlock { bus.stop() }
        let probe = try ATSPIProbe(on: bus)
        addTeardownBlock { probe.stop() }
        let (demo, _) = try launchDemo([], in: sway, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.bus.address])
        guard expectEvent(demo, "accessibility") != nil else { return }
        try probe.find(pid: demo.pid)
        // The accessibility bus's daemon: the dbus-daemon of the session that is not the session bus.
        let daemons = processes(withEnvironment: "XDG_RUNTIME_DIR=" + bus.directory).filter { pid in
            pid != bus.bus.process.pid && (readProcFile("/proc/\(pid)/comm") ?? "").hasPrefix("dbus-daemon")
        }
        XCTAssertEqual(daemons.count, 1, "one accessibility bus daemon")
        daemons.forEach { kill($0, SIGSTOP) }
        var continued = false
        let resume = { if !continued { continued = true; daemons.forEach { kill($0, SIGCONT) } } }
        addTeardownBlock(resume)
        var mark = demo.mark()
        try vnc.key("enter")
        expectEvent(demo, "presenting", since: mark, timeout: 3)
        expectEvent(demo, "presented", since: mark)
        mark = demo.mark()
        try vnc.key("esc")
        expectEvent(demo, "dismissed", since: mark, timeout: 3)
        resume()
        let tree = try probe.tree()
        XCTAssertEqual(tree.children.map { "\($0.role):\($0.name)" }, ["frame:ModalKit"])
        XCTAssertEqual(demo.stderrLines, [])
    }

    /// The accessibility bus stops (its launcher, daemon and registry end) and is started again
    /// by the next screen reader: the demo is on the desktop again within about 2 s, and spends
    /// almost no CPU while there is no bus (no loop spinning on a dead descriptor).
    func testTheAppIsSeenAgainWhenTheAccessibilityBusComesBack() throws {
        try requireAccessibilityStack()
        let sway = try startSway()
        let bus = try AccessibilityBus()
        addTeardownBlock { bus.stop() }
        var probe = try ATSPIProbe(on: bus)
        addTeardownBlock { [probe] in probe.stop() }
        let (demo, _) = try launchDemo([], in: sway, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.bus.address])
        guard expectEvent(demo, "accessibility") != nil else { return }
        try probe.find(pid: demo.pid)

        probe.stop()
        let stopped = bus.stopAccessibilityServices()
        XCTAssertTrue(stopped.contains("at-spi-bus-laun"), "the owner of org.a11y.Bus stopped: \(stopped)")
        // No accessibility bus for 10 s: the demo idles (a spinning loop would use ~100 %).
        let before = try cpuSeconds(demo.pid)
        let start = monotonicNow()
        Thread.sleep(forTimeInterval: 10)
        let used = try cpuSeconds(demo.pid) - before
        let share = used / (monotonicNow() - start)
        XCTAssertLessThan(share, 0.01, "CPU while the bus is away: \(used) s over 10 s")
        XCTAssertTrue(demo.isRunning)

        // A screen reader starts: it asks the session bus for the accessibility bus, which starts
        // it again. The demo registers on it by itself.
        probe = try ATSPIProbe(on: bus)
        addTeardownBlock { [probe] in probe.stop() }
        try probe.find(pid: demo.pid, timeout: 2)
        let tree = try probe.tree()
        XCTAssertEqual(tree.name, "modal-demo")
        XCTAssertEqual(tree.children.map { "\($0.role):\($0.name)" }, ["frame:ModalKit"])
        XCTAssertTrue(try XCTUnwrap(tree.find("push button", "Present")).states.contains("showing"))
        XCTAssertEqual(demo.stderrLines, [], "nothing said")
        XCTAssertEqual(demo.events("accessibility").count, 1, "`accessibility` is said once, when the bridge first runs")
    }

    /// Escape and Return in one read with `--duration 0`: the dialog is dismissed and presented
    /// again before the bridge looks. A screen reader must hear a new dialog — the old one
    /// destroyed, a new one created, activated and focused — not nothing.
    func testADialogDismissedAndPresentedAgainInOneReadIsANewDialog() throws {
        try requireAccessibilityStack()
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let bus = try AccessibilityBus()
        addTeardownBlock { bus.stop() }
        let probe = try ATSPIProbe(on: bus)
        addTeardownBlock { probe.stop() }
        let (demo, _) = try launchDemo(["--duration", "0"], in: sway,
                                       environment: ["DBUS_SESSION_BUS_ADDRESS": bus.bus.address])
        guard expectEvent(demo, "accessibility") != nil else { return }
        try probe.find(pid: demo.pid)
        var mark = demo.mark()
        try vnc.key("enter")
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        var seen: [AccessibleEvent] = []
        XCTAssertTrue(waitUntil(timeout: eventTimeout, interval: 0.05) {
            seen += (try? probe.events()) ?? []
            return seen.contains { $0.type == "object:state-changed:focused" && $0.role == "dialog" && $0.detail1 == 1 }
        }, "the first dialog is focused: \(seen)")
        let title = "A modal card"
        for round in 1...3 {
            _ = try probe.events()
            mark = demo.mark()
            // The demo stopped while both keys travel, so that it reads them in one read and
            // handles both before its bridge looks again (each key's press and release are read
            // together, so neither repeats).
            kill(demo.pid, SIGSTOP)
            try vnc.send(["key", "esc", "key", "enter"], delay: 0)
            Thread.sleep(forTimeInterval: 0.2)
            kill(demo.pid, SIGCONT)
            expectEvent(demo, "dismissed", since: mark)
            expectEvent(demo, "presented", since: mark)
            seen = []
            let heard = waitUntil(timeout: eventTimeout, interval: 0.05) {
                seen += (try? probe.events()) ?? []
                return seen.contains { $0.type == "object:state-changed:focused" && $0.role == "dialog" && $0.detail1 == 1 }
            }
            let windows = seen.filter { $0.type.hasPrefix("window:") }.map { "\($0.type) \($0.data ?? "?")" }
            XCTAssertTrue(heard, "round \(round): focus on a dialog: \(seen)")
            XCTAssertEqual(windows, ["window:deactivate \(title)", "window:destroy \(title)", "window:create \(title)",
                                     "window:activate \(title)"], "round \(round)")
            let tree = try probe.tree()
            XCTAssertEqual(tree.children.map { "\($0.role):\($0.name)" }, ["frame:ModalKit", "dialog:\(title)"], "round \(round)")
            XCTAssertTrue(tree.children[1].states.isSuperset(of: ["active", "focused", "modal"]), "round \(round)")
        }
        XCTAssertEqual(demo.stderrLines, [])
    }

    /// User and system CPU time of `pid` so far, seconds (/proc/PID/stat fields 14 and 15).
    private func cpuSeconds(_ pid: pid_t) throws -> Double {
        let stat = try XCTUnwrap(readProcFile("/proc/\(pid)/stat"))
        let close = try XCTUnwrap(stat.lastIndex(of: ")"))
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the comm: state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
        let utime = try XCTUnwrap(Double(fields[11])), stime = try XCTUnwrap(Double(fields[12]))
        return (utime + stime) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// A Unix socket whose server accepts connections and never reads or writes (a hung bus
/// daemon). Accepted connections stay open until ``stop()``.
private final class HungBusServer: @unchecked Sendable {
    let directory: String
    let path: String
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var thread: Thread?

    init() throws {
        var template = Array("\(NSTemporaryDirectory())/modalkit-hungbus-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
        directory = String(cString: dir)
        path = directory + "/bus"
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard listener >= 0, bound == 0, listen(listener, 8) == 0 else {
            if listener >= 0 { Glibc.close(listener) }
            rmdir(directory)
            throw HarnessError("cannot listen on \(path)")
        }
        let fd = listener
        let t = Thread { [weak self] in
            while true {
                let c = accept(fd, nil, nil)
                if c < 0 {
                    if errno == EINTR { continue }
                    return
                }
                guard let self else { Glibc.close(c); return }
                self.lock.lock()
                self.connections.append(c)
                self.lock.unlock()
            }
        }
        thread = t
        t.start()
    }

    /// How many connections were accepted.
    var accepted: Int {
        lock.lock()
        defer { lock.unlock() }
        return connections.count
    }

    /// Stops accepting, closes every connection, removes the socket and its directory.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        lock.lock()
        connections.forEach { Glibc.close($0) }
        connections = []
        lock.unlock()
        unlink(path)
        rmdir(directory)
    }
}
