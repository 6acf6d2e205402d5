// The real modal-demo under headless sway, seen and operated through AT-SPI as a screen reader
// does: a private session bus activates at-spi2-core's accessibility bus, a libatspi client
// (Fixtures/atspi_probe.py) finds the demo by its process id, reads its tree, listens to its
// events and calls its actions; input comes through wayvnc. Orca itself, headless, says what a
// screen-reader user hears.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class AccessibilitySwayTests: CompositorTestCase {
    /// The 800 × 600 window: the Present button centred (DemoLook: 176 × 50), the inset-centered
    /// card at x 20, y 110, 760 × 380 with its buttons 16 pt in from its bottom right (Close 88 ×
    /// 36, Present another 150 × 36, 10 apart).
    private let presentExtents = [312, 275, 176, 50]
    private let dialogExtents = [20, 110, 760, 380]
    private let closeExtents = [676, 438, 88, 36]
    private let presentAnotherExtents = [516, 438, 150, 36]
    private let cardTitle = "A modal card"
    private let cardBody = "Focus stays here until it is dismissed."

    private func requireAccessibilityStack() throws {
        try requireProgram("dbus-daemon")
        for file in ["/usr/share/dbus-1/services/org.a11y.Bus.service", "/usr/bin/python3"]
        where access(file, F_OK) != 0 {
            throw XCTSkip("\(file) is missing (scripts/test installs at-spi2-core and python3-gi)")
        }
    }

    /// A private accessibility bus (stopped after everything else) and a probe listening on it.
    private func startAccessibility() throws -> (AccessibilityBus, ATSPIProbe) {
        try requireAccessibilityStack()
        let bus = try AccessibilityBus()
        addTeardownBlock { bus.stop() }
        let probe = try ATSPIProbe(on: bus)
        addTeardownBlock { probe.stop() }
        return (bus, probe)
    }

    /// modal-demo in `sway` on `bus`, its bridge started, found by the probe.
    private func launchAccessibleDemo(in sway: HeadlessSway, bus: AccessibilityBus, probe: ATSPIProbe,
                                      _ arguments: [String] = []) throws -> DemoProcess {
        let (demo, _) = try launchDemo(arguments, in: sway, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.bus.address])
        guard expectEvent(demo, "accessibility", "(the bridge starts after the first frame)") != nil else {
            throw HarnessError("no bridge")
        }
        try probe.find(pid: demo.pid)
        return demo
    }

    /// Waits (bounded) for a stdout line equal to `line` at index ≥ `since` (`presented 2`, whose
    /// first word alone would match level 1's `presented`).
    @discardableResult
    private func expectLine(_ demo: DemoProcess, _ line: String, since: Int,
                            file: StaticString = #filePath, line l: UInt = #line) -> Bool {
        let found = demo.process.stdout.wait(timeout: eventTimeout) { $0.dropFirst(since).contains(line) ? true : nil } ?? false
        if !found { XCTFail("no `\(line)` line within \(eventTimeout) s\n\(demo.stdoutLines.suffix(20))", file: file, line: l) }
        return found
    }

    /// Collects the probe's events until one matches `until` (bounded); returns all collected.
    private func events(_ probe: ATSPIProbe, until: (AccessibleEvent) -> Bool, timeout: Double = 10,
                        file: StaticString = #filePath, line: UInt = #line) throws -> [AccessibleEvent] {
        var all: [AccessibleEvent] = []
        let found = try waitUntil(timeout: timeout, interval: 0.05) {
            all += try probe.events()
            return all.contains(where: until)
        }
        if !found { XCTFail("no such event within \(timeout) s; got \(all)", file: file, line: line) }
        return all
    }

    /// An event in the form the assertions compare: type, then the window title a window event
    /// carries, or the source's role and name, then detail1 for state changes and children.
    private func summary(_ e: AccessibleEvent) -> String {
        if e.type.hasPrefix("window:") { return "\(e.type) \(e.data ?? "?")" }
        return "\(e.type) \(e.role):\(e.name) \(e.detail1)"
    }

    func testTheDemoAsAScreenReaderSeesItPresentTabAndCloseThroughItsAction() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (bus, probe) = try startAccessibility()
        let demo = try launchAccessibleDemo(in: sway, bus: bus, probe: probe)

        // The application, its frame and the Present button with its action.
        var tree = try probe.tree()
        XCTAssertEqual(tree.role, "application")
        XCTAssertEqual(tree.name, "modal-demo")
        XCTAssertEqual(tree.children.map { "\($0.role):\($0.name)" }, ["frame:ModalKit"])
        let frame = tree.children[0]
        XCTAssertTrue(frame.states.isSuperset(of: ["active", "showing", "visible", "enabled"]), "\(frame.states)")
        XCTAssertEqual(frame.extents, [0, 0, 800, 600])
        XCTAssertEqual(frame.children.map { "\($0.role):\($0.name)" },
                       ["heading:ModalKit", "label:Custom modal presentation", "push button:Present",
                        "label:Esc or a tap outside dismisses"])
        let present = try XCTUnwrap(frame.find("push button", "Present"))
        XCTAssertEqual(present.actions, ["click"])
        XCTAssertTrue(present.states.isSuperset(of: ["focusable", "focused", "showing", "enabled", "sensitive"]), "\(present.states)")
        XCTAssertEqual(present.extents, presentExtents)
        _ = try probe.events()

        // Return presents: the dialog, in GTK's order of events.
        var mark = demo.mark()
        try vnc.key("enter")
        expectEvent(demo, "presented", since: mark)
        var seen = try events(probe) { $0.type == "object:state-changed:focused" && $0.role == "dialog" && $0.detail1 == 1 }
        XCTAssertEqual(seen.filter { $0.type != "object:state-changed:showing" }.map(summary), [
            "object:state-changed:focused push button:Present 0",
            "object:state-changed:active frame:ModalKit 0",
            "window:deactivate ModalKit",
            "object:children-changed:add application:modal-demo 1",
            "window:create \(cardTitle)",
            "object:state-changed:active dialog:\(cardTitle) 1",
            "window:activate \(cardTitle)",
            "object:state-changed:focused dialog:\(cardTitle) 1",
        ])
        // The content beneath stops showing after the focus left it, before the window deactivates.
        let hidden = seen.indices.filter { seen[$0].type == "object:state-changed:showing" }
        XCTAssertEqual(hidden.map { "\(seen[$0].role):\(seen[$0].name) \(seen[$0].detail1)" },
                       ["heading:ModalKit 0", "label:Custom modal presentation 0", "push button:Present 0",
                        "label:Esc or a tap outside dismisses 0"])
        XCTAssertEqual(hidden, Array(1...4), "between the unfocus and the deactivation: \(seen.map(summary))")

        tree = try probe.tree()
        XCTAssertEqual(tree.children.map { "\($0.role):\($0.name)" }, ["frame:ModalKit", "dialog:\(cardTitle)"])
        let dialog = tree.children[1]
        XCTAssertEqual(dialog.accessibleDescription, cardBody)
        XCTAssertTrue(dialog.states.isSuperset(of: ["modal", "active", "focused", "focusable", "showing"]), "\(dialog.states)")
        XCTAssertEqual(dialog.extents, dialogExtents)
        XCTAssertEqual(dialog.relations["labelled-by"], ["heading:\(cardTitle)"])
        XCTAssertEqual(dialog.relations["described-by"], ["label:\(cardBody)"])
        XCTAssertEqual(dialog.children.map { "\($0.role):\($0.name)" },
                       ["heading:\(cardTitle)", "label:\(cardBody)", "push button:Present another", "push button:Close"])
        XCTAssertEqual(dialog.children[2].actions, ["click"])
        XCTAssertEqual(dialog.children[2].extents, presentAnotherExtents)
        XCTAssertEqual(dialog.children[3].actions, ["click"])
        XCTAssertEqual(dialog.children[3].extents, closeExtents)
        XCTAssertTrue(tree.children[0].all.dropFirst().allSatisfy { !$0.states.contains("showing") },
                      "everything beneath the modal is hidden: \(tree.children[0])")
        XCTAssertFalse(tree.children[0].all.contains { $0.states.contains("focused") })
        XCTAssertFalse(tree.children[0].states.contains("active"))

        // Tab never leaves the modal: Present another, Close, Present another.
        for _ in 0..<3 { try vnc.key("tab") }
        seen = []
        _ = waitUntil(timeout: eventTimeout, interval: 0.05) {
            seen += (try? probe.events()) ?? []
            return seen.filter { $0.type == "object:state-changed:focused" && $0.detail1 == 1 }.count >= 3
        }
        let focusedOn = seen.filter { $0.type == "object:state-changed:focused" && $0.detail1 == 1 }.map(\.name)
        XCTAssertEqual(focusedOn, ["Present another", "Close", "Present another"], "\(seen)")

        // The screen reader's "click" on Close: the same path as a key press (the demo logs
        // `close`), the dialog goes, focus returns to Present.
        mark = demo.mark()
        XCTAssertEqual(try probe.act(role: "push button", name: "Close"), .done(true))
        expectEvent(demo, "close", since: mark)
        expectEvent(demo, "dismissed", since: mark)
        seen = try events(probe) { $0.type == "object:state-changed:focused" && $0.name == "Present" && $0.detail1 == 1 }
        XCTAssertEqual(seen.filter { $0.type.hasPrefix("window:") || $0.type == "object:children-changed:remove"
                                     || ($0.type == "object:state-changed:focused" && $0.detail1 == 1) }.map(summary), [
            "object:state-changed:focused push button:Close 1",   // activated as a tap would: Close takes focus
            "window:deactivate \(cardTitle)",
            "window:destroy \(cardTitle)",
            "object:children-changed:remove application:modal-demo 1",
            "window:activate ModalKit",
            "object:state-changed:focused push button:Present 1",
        ])
        let firstAfterClose = seen.firstIndex { $0.type == "object:state-changed:focused" && $0.name == "Close" && $0.detail1 == 1 }
        let deactivation = seen.firstIndex { $0.type == "window:deactivate" }
        XCTAssertTrue(seen.indices.contains { i in
            seen[i].type == "object:state-changed:focused" && seen[i].detail1 == 0 && i > (firstAfterClose ?? 0)
                && i < (deactivation ?? 0)
        }, "the focus leaves the modal before it is deactivated: \(seen.map(summary))")
        tree = try probe.tree()
        XCTAssertEqual(tree.children.map { "\($0.role):\($0.name)" }, ["frame:ModalKit"])
        XCTAssertTrue(try XCTUnwrap(tree.find("push button", "Present")).states.isSuperset(of: ["focused", "showing"]))
        XCTAssertEqual(demo.stderrLines, [], "nothing on stderr")
    }

    func testAStackedLevelNestsGrabFocusWorksAndEscapeRemovesOnlyIt() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (bus, probe) = try startAccessibility()
        let demo = try launchAccessibleDemo(in: sway, bus: bus, probe: probe)
        _ = try probe.events()
        var mark = demo.mark()
        try vnc.send(["key", "enter", "pause", "0.5", "key", "tab", "key", "enter"])
        expectLine(demo, "presented", since: mark)
        expectLine(demo, "presented 2", since: mark)
        // Two dialogs created, focus on the second.
        var stacked: [AccessibleEvent] = []
        let both = waitUntil(timeout: eventTimeout, interval: 0.05) {
            stacked += (try? probe.events()) ?? []
            let creates = stacked.indices.filter { stacked[$0].type == "window:create" }
            return creates.count == 2 && stacked[creates[1]...].contains {
                $0.type == "object:state-changed:focused" && $0.role == "dialog" && $0.detail1 == 1
            }
        }
        XCTAssertTrue(both, "\(stacked.map(summary))")
        var tree = try probe.tree()
        XCTAssertEqual(tree.children.map(\.role), ["frame", "dialog", "dialog"])
        let (one, two) = (tree.children[1], tree.children[2])
        XCTAssertFalse(one.states.contains("active"))
        XCTAssertFalse(one.states.contains("focused"))
        XCTAssertTrue(one.children.allSatisfy { !$0.states.contains("showing") && !$0.states.contains("focused") },
                      "level 1 is hidden beneath level 2: \(one)")
        XCTAssertTrue(two.states.isSuperset(of: ["active", "focused", "modal"]), "\(two.states)")

        // grab_focus: refused for level 1's Close (hidden), done for level 2's.
        _ = try probe.events()
        XCTAssertEqual(try probe.focus(role: "push button", name: "Close", nth: 1), .done(false))
        XCTAssertEqual(try probe.focus(role: "push button", name: "Close", nth: 2), .done(true))
        let seen = try events(probe) { $0.type == "object:state-changed:focused" && $0.detail1 == 1 }
        XCTAssertEqual(seen.filter { $0.type == "object:state-changed:focused" }.map(summary),
                       ["object:state-changed:focused dialog:\(cardTitle) 0", "object:state-changed:focused push button:Close 1"])
        tree = try probe.tree()
        XCTAssertTrue(tree.children[2].children[3].states.contains("focused"), "level 2's Close")

        // Escape removes level 2 only; focus is back on level 1's Present another.
        mark = demo.mark()
        try vnc.key("esc")
        expectLine(demo, "dismissed 2", since: mark)
        let after = try events(probe) { $0.type == "object:state-changed:focused" && $0.name == "Present another" && $0.detail1 == 1 }
        XCTAssertEqual(after.filter { $0.type.hasPrefix("window:") }.map(summary),
                       ["window:deactivate \(cardTitle)", "window:destroy \(cardTitle)", "window:activate \(cardTitle)"])
        tree = try probe.tree()
        XCTAssertEqual(tree.children.map(\.role), ["frame", "dialog"])
        XCTAssertTrue(tree.children[1].states.contains("active"))
        XCTAssertTrue(tree.children[1].children.allSatisfy { $0.states.contains("showing") })
        XCTAssertTrue(tree.children[1].children[2].states.contains("focused"), "Present another, which presented level 2")
        XCTAssertFalse(demo.stdoutLines.dropFirst(mark).contains("dismissed"), "level 1 stays")
    }

    func testAnActionOnAnObjectThatWentAwayOrIsHiddenIsRefusedNeverACrash() throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (bus, probe) = try startAccessibility()
        let demo = try launchAccessibleDemo(in: sway, bus: bus, probe: probe)
        var mark = demo.mark()
        try vnc.key("enter")
        expectEvent(demo, "presented", since: mark)
        // Hidden beneath the modal: refused, nothing happens. (at-spi2-atk 2.46 answers DoAction
        // with true whatever the object returned, so the proof is that nothing happens: the
        // requests are handled in order, and Close's dismissal comes after it.)
        mark = demo.mark()
        _ = try probe.act(role: "push button", name: "Present")
        XCTAssertEqual(try probe.focus(role: "push button", name: "Present"), .done(false), "grab_focus says it")
        try probe.keep(role: "push button", name: "Close", as: "close")
        XCTAssertEqual(try probe.act(role: "push button", name: "Close"), .done(true))
        expectEvent(demo, "dismissed", since: mark)
        XCTAssertEqual(demo.events("activated", since: mark), [], "the hidden Present did nothing")
        // The Close a screen reader still holds is gone: an error, or false — never a crash.
        let stale = try probe.actKept("close")
        XCTAssertNotEqual(stale, .done(true), "an action on a dismissed modal's button is refused: \(stale)")
        XCTAssertTrue(demo.isRunning)
        let tree = try probe.tree()
        XCTAssertEqual(tree.children.map(\.role), ["frame"], "the demo still answers")
        mark = demo.mark()
        XCTAssertEqual(try probe.act(role: "push button", name: "Present"), .done(true))
        expectEvent(demo, "activated", since: mark)
        expectEvent(demo, "presented", since: mark)
        XCTAssertEqual(demo.stderrLines, [])
    }

    func testWithoutAnAccessibilityBusOrWithNoATBridgeNothingIsLoadedOrSaid() throws {
        try requireAccessibilityStack()
        let sway = try startSway()
        let bus = try AccessibilityBus()
        addTeardownBlock { bus.stop() }
        func libraries(_ pid: pid_t) -> Set<String> {
            let maps = readProcFile("/proc/\(pid)/maps") ?? ""
            let names = ["libModalKitATKBridge.so", "libatk-1.0.so", "libatk-bridge-2.0.so", "libgobject-2.0.so", "libatspi.so"]
            return Set(names.filter { maps.contains($0) })
        }
        // A session bus that activates nothing: no accessibility bus on it.
        let plainBus = try PrivateSessionBus()
        addTeardownBlock { plainBus.stop() }
        for (label, environment) in [("no session bus", [String: String?]()),
                                     ("a session bus without an accessibility bus", ["DBUS_SESSION_BUS_ADDRESS": plainBus.address]),
                                     ("NO_AT_BRIDGE=1", ["DBUS_SESSION_BUS_ADDRESS": bus.bus.address, "NO_AT_BRIDGE": "1"])] {
            let (demo, _) = try launchDemo([], in: sway, environment: environment)
            // The bridge would have started at the first committed frame, before its `frame` line,
            // which launchDemo waited for.
            XCTAssertEqual(libraries(demo.pid), [], "\(label): no accessibility library mapped")
            XCTAssertEqual(demo.events("accessibility"), [], label)
            XCTAssertEqual(demo.stderrLines, [], "\(label): no message")
            demo.stop()
        }
        // With a bus, the libraries are loaded after the first frame.
        let (demo, _) = try launchDemo([], in: sway, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.bus.address])
        expectEvent(demo, "accessibility")
        XCTAssertEqual(libraries(demo.pid), ["libModalKitATKBridge.so", "libatk-1.0.so", "libatk-bridge-2.0.so",
                                             "libgobject-2.0.so", "libatspi.so"])
        XCTAssertEqual(demo.stderrLines, [])
    }

    func testOrcaSaysTheModalWhenItIsPresentedAndThePresentButtonWhenItIsDismissed() throws {
        try requireAccessibilityStack()
        try requireProgram("orca", "Xvfb", "xkbcomp")
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let bus = try AccessibilityBus()
        addTeardownBlock { bus.stop() }
        let orca = try HeadlessOrca(on: bus)
        addTeardownBlock { orca.stop() }
        let start = orca.speech().count
        let (demo, _) = try launchDemo([], in: sway, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.bus.address])
        expectEvent(demo, "accessibility")

        // What a screen-reader user hears, step by step (Orca 43's words).
        let steps: [(keys: [String], says: [String])] = [
            ([], ["ModalKit frame.", "Present push button."]),
            (["enter"], ["\(cardTitle) dialog \(cardBody)"]),
            (["tab"], ["Present another push button."]),
            (["tab"], ["Close push button."]),
            (["esc"], ["ModalKit frame.", "Present push button."]),
        ]
        var expected: [String] = []
        for step in steps {
            for k in step.keys { try vnc.key(k) }
            expected += step.says
            let said = orca.waitForSpeech(expected, since: start, timeout: eventTimeout)
            XCTAssertEqual(said, expected, "after \(step.keys): Orca said \(said)\nlog:\n\(orca.tail(30))")
            if said != expected { return }
        }
        XCTAssertEqual(demo.events("dismissed").count, 1)
    }
}
