// Screen readers in the end-to-end tests, on ModalKitSession's `AccessibilityBus`: a libatspi
// client that sees what a screen reader sees (Fixtures/atspi_probe.py), and Orca itself, headless.
import Foundation
import ModalKitSession
#if canImport(Glibc)
import Glibc
#endif

/// Fixtures/atspi_probe.py on an `AccessibilityBus`: what a screen reader sees of one application,
/// and its requests (`do_action`, `grab_focus`). Listens for events from its start.
public final class ATSPIProbe {
    public static var script: String { PluginTestSupport.packageRoot + "/Tests/ModalKitTestHarness/Fixtures/atspi_probe.py" }

    public let process: ChildProcess
    private var answered = 0

    /// Starts the probe and waits (bounded) until its listeners are registered.
    public init(on bus: AccessibilityBus, timeout: Double = 15) throws {
        process = try ChildProcess([FakePortal.python, ATSPIProbe.script], environment: bus.clientEnvironment,
                                   name: "atspi_probe", writableStandardInput: true)
        guard process.stdout.wait(timeout: timeout, { $0.contains("ready") ? true : nil }) == true else {
            let d = process.diagnostics()
            process.stop(timeout: 2)
            throw HarnessError("the AT-SPI probe did not start within \(timeout) s:\n\(d)")
        }
        answered = process.stdout.lines.count
    }

    /// Sends one command (see the script) and returns its answer's fields, bounded by `timeout`.
    /// - Throws: `HarnessError` when no answer comes or the answer is an error.
    @discardableResult
    public func send(_ command: [String: Any], timeout: Double = 15) throws -> [String: Any] {
        let reply = try sendAllowingError(command, timeout: timeout)
        guard reply["ok"] as? Bool == true else {
            throw HarnessError("probe \(command["cmd"] ?? "?"): \(reply["error"] ?? reply)")
        }
        return reply
    }

    /// As `send`, but an error answer is returned (`ok` false, `error`) instead of thrown.
    public func sendAllowingError(_ command: [String: Any], timeout: Double = 15) throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: command)
        try process.writeToStandardInput(String(decoding: data, as: UTF8.self) + "\n")
        let index = answered
        guard let line = process.stdout.wait(timeout: timeout, { $0.count > index ? $0[index] : nil }) else {
            throw HarnessError("the AT-SPI probe did not answer \(command) within \(timeout) s:\n\(process.diagnostics())")
        }
        answered += 1
        guard let reply = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw HarnessError("the AT-SPI probe answered \(line)")
        }
        return reply
    }

    /// Waits (bounded) until the application of process `pid` is on the desktop.
    public func find(pid: pid_t, timeout: Double = 10) throws {
        try send(["cmd": "find", "pid": Int(pid), "timeout": timeout], timeout: timeout + 5)
    }

    /// The application's tree, caches cleared.
    public func tree() throws -> AccessibleNode {
        let reply = try send(["cmd": "tree"])
        guard let tree = reply["tree"] as? [String: Any] else { throw HarnessError("no tree in \(reply)") }
        return AccessibleNode(tree)
    }

    /// The events received since the last call, in order.
    public func events() throws -> [AccessibleEvent] {
        let reply = try send(["cmd": "events"])
        return (reply["events"] as? [[String: Any]] ?? []).map(AccessibleEvent.init)
    }

    /// `do_action(0)` on the `nth` element (depth first) with `role` and `name`: its result, or
    /// the error a screen reader would get.
    public func act(role: String, name: String, nth: Int = 1) throws -> ActionOutcome {
        result(try sendAllowingError(["cmd": "act", "role": role, "name": name, "nth": nth]))
    }

    /// `grab_focus` on the `nth` element (depth first) with `role` and `name`.
    public func focus(role: String, name: String, nth: Int = 1) throws -> ActionOutcome {
        result(try sendAllowingError(["cmd": "focus", "role": role, "name": name, "nth": nth]))
    }

    /// AT-SPI `EditableText.method` on the first element with `role` and `name`: `set_text_contents`
    /// (`text`), `insert_text` (`text` at `start`), `delete_text`, `copy_text`, `cut_text` (`start`
    /// to `end`), `paste_text` (at `start`); offsets in characters as AT-SPI counts them.
    public func edit(role: String, name: String, _ method: String, text: String = "", start: Int = 0,
                     end: Int = 0) throws -> ActionOutcome {
        result(try sendAllowingError(["cmd": "edit", "role": role, "name": name, "method": method, "text": text,
                                      "start": start, "end": end]))
    }

    /// Remembers the first element with `role` and `name` as `key` (it may go away later).
    public func keep(role: String, name: String, as key: String) throws {
        try send(["cmd": "keep", "role": role, "name": name, "as": key])
    }

    /// `do_action(0)` on a remembered element.
    public func actKept(_ key: String) throws -> ActionOutcome {
        result(try sendAllowingError(["cmd": "act_kept", "as": key]))
    }

    private func result(_ reply: [String: Any]) -> ActionOutcome {
        if reply["ok"] as? Bool == true, let r = reply["result"] as? Bool { return .done(r) }
        return .error("\(reply["error"] ?? reply)")
    }

    public func stop() {
        process.closeStandardInput()
        process.stop(timeout: 2)
    }
}

/// What a screen reader's request returned: its boolean result, or the error it got.
public enum ActionOutcome: Equatable {
    case done(Bool)
    case error(String)
}

/// One node of the probe's tree.
public struct AccessibleNode: CustomStringConvertible {
    public let role: String
    public let name: String
    /// The AT-SPI description.
    public let accessibleDescription: String
    public let states: Set<String>
    /// Window coordinates, points: x, y, width, height.
    public let extents: [Int]?
    public let actions: [String]
    /// Relation type → its targets as "role:name".
    public let relations: [String: [String]]
    public let children: [AccessibleNode]
    /// An object with the Text interface: its text, caret (characters) and selection ([start,
    /// end], empty for none), and the word at offset 0 (`get_string_at_offset` by word); nil otherwise.
    public let text: (text: String, caret: Int, selection: [Int], wordAtStart: String)?

    public init(_ d: [String: Any]) {
        role = d["role"] as? String ?? ""
        name = d["name"] as? String ?? ""
        accessibleDescription = d["description"] as? String ?? ""
        states = Set(d["states"] as? [String] ?? [])
        extents = d["extents"] as? [Int]
        actions = d["actions"] as? [String] ?? []
        var r: [String: [String]] = [:]
        for rel in d["relations"] as? [[String: Any]] ?? [] {
            if let t = rel["type"] as? String { r[t] = rel["targets"] as? [String] ?? [] }
        }
        relations = r
        children = (d["children"] as? [[String: Any]] ?? []).map(AccessibleNode.init)
        text = (d["text"] as? [String: Any]).map {
            ($0["text"] as? String ?? "", $0["caret"] as? Int ?? -1, $0["selection"] as? [Int] ?? [], $0["word_at_0"] as? String ?? "")
        }
    }

    /// The first node (depth first, this one included) with `role` and `name`.
    public func find(_ role: String, _ name: String) -> AccessibleNode? {
        if self.role == role && self.name == name { return self }
        for c in children { if let f = c.find(role, name) { return f } }
        return nil
    }

    /// This node and its descendants, depth first.
    public var all: [AccessibleNode] { [self] + children.flatMap(\.all) }

    public var description: String { "\(role) '\(name)' \(states.sorted()) \(extents ?? []) \(children)" }
}

/// One event the probe received.
public struct AccessibleEvent: CustomStringConvertible, Equatable {
    public let type: String
    public let role: String
    public let name: String
    public let detail1: Int
    /// The event's string (a window's title) or carried object ("role:name").
    public let data: String?

    public init(_ d: [String: Any]) {
        type = d["type"] as? String ?? ""
        role = d["role"] as? String ?? ""
        name = d["name"] as? String ?? ""
        detail1 = d["detail1"] as? Int ?? 0
        data = d["data"] as? String
    }

    /// "type role:name detail1", e.g. "object:state-changed:focused push button:Present 1".
    public var description: String { "\(type) \(role):\(name) \(detail1)" }
}

/// Orca (the GNOME screen reader) running headless on an `AccessibilityBus`: its own Xvfb
/// (`-displayfd`, abstract socket only, no lock file), its own home, speech-dispatcher kept from
/// starting (`SPEECHD_CMD=false`: Orca then speaks to nobody but still logs each utterance), and
/// its `--debug-file` line-buffered (Fixtures/orca_line_buffered) so that the `SPEECH OUTPUT:`
/// lines can be waited for while it runs.
public final class HeadlessOrca {
    public let xvfb: ChildProcess
    public let orca: ChildProcess
    public let logPath: String

    public init(on bus: AccessibilityBus, timeout: Double = 30) throws {
        xvfb = try ChildProcess(["Xvfb", "-displayfd", "1", "-screen", "0", "640x480x24", "-nolisten", "tcp",
                                 "-nolisten", "unix", "-nolock"], environment: bus.clientEnvironment, name: "Xvfb")
        guard let number = xvfb.stdout.wait(timeout: 15, { $0.first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } })
        else {
            let d = xvfb.diagnostics()
            xvfb.stop(timeout: 2)
            throw HarnessError("Xvfb printed no display number within 15 s:\n\(d)")
        }
        logPath = bus.directory + "/orca-debug.log"
        var env = bus.clientEnvironment
        env["DISPLAY"] = ":\(number)"
        env["SPEECHD_CMD"] = findExecutable("false") ?? "/bin/false"
        env["MODALKIT_ORCA_DEBUG_FILE"] = logPath
        env["PYTHONPATH"] = PluginTestSupport.packageRoot + "/Tests/ModalKitTestHarness/Fixtures/orca_line_buffered"
        env["XDG_CONFIG_HOME"] = bus.directory + "/config"
        env["XDG_DATA_HOME"] = bus.directory + "/data"
        env["XDG_CACHE_HOME"] = bus.directory + "/cache"
        do {
            orca = try ChildProcess(["orca", "--replace", "--debug-file=\(logPath)"], environment: env, name: "orca")
        } catch {
            xvfb.stop(timeout: 2)
            throw error
        }
        // Orca is listening once it has said so.
        guard waitUntil(timeout: timeout, interval: 0.1, { self.speech().contains("Screen reader on.") || !self.orca.isRunning }),
              orca.isRunning else {
            let d = orca.diagnostics() + "\nlog: " + tail(20)
            stop()
            throw HarnessError("Orca did not start within \(timeout) s:\n\(d)")
        }
    }

    /// What Orca has said so far, in order (the text of each `SPEECH OUTPUT:` line).
    public func speech() -> [String] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        // "SPEECH OUTPUT: 'TEXT'" then the voice's settings, "{'established': False}" (speech.py).
        return text.split(separator: "\n").compactMap { line in
            guard let r = line.range(of: "SPEECH OUTPUT: '") else { return nil }
            let rest = line[r.upperBound...]
            guard let end = rest.range(of: "'{", options: .backwards)?.lowerBound ?? rest.lastIndex(of: "'") else { return nil }
            return String(rest[..<end])
        }
    }

    /// Waits (bounded) until Orca has said, after its first `since` utterances, each of `expected`
    /// in this order (other utterances may come between); returns what it said after `since`.
    public func waitForSpeech(_ expected: [String], since: Int, timeout: Double) -> [String] {
        var said: [String] = []
        _ = waitUntil(timeout: timeout, interval: 0.05) {
            said = Array(speech().dropFirst(since))
            var i = 0
            for s in said where i < expected.count && s == expected[i] { i += 1 }
            return i == expected.count
        }
        return said
    }

    public func tail(_ n: Int) -> String {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "(no log)" }
        return text.split(separator: "\n").suffix(n).joined(separator: "\n")
    }

    /// Stops Orca (SIGTERM; it may only act on it at its next event, so then SIGKILL) and Xvfb.
    public func stop() {
        orca.stop(timeout: 2)
        xvfb.stop(timeout: 3)
    }
}
