// modalkit-session: runs a Wayland app in a private headless sway with real input, drives it with
// a script of steps, saves its screenshots and output, and stops everything (ModalKitSession).
import Foundation
import ModalKitCommandLine
import ModalKitSession
#if canImport(Glibc)
import Glibc
#endif

/// modalkit-session has no subcommands: its options are one table's.
enum SessionCommand: Hashable, Sendable { case run }

/// Every option, in `--help`'s order.
let table = OptionTable<SessionCommand>([
    CommandOption("--step", "STEP", in: [.run], "a step (repeatable; in order, after those of --steps)"),
    CommandOption("--steps", "FILE", completion: .file, in: [.run],
                  "steps from FILE, one a line; blank lines and lines starting with # are skipped"),
    CommandOption("--output", "DIR", completion: .directory, in: [.run],
                  "the folder for screenshots and output (made if missing; default: a new",
                  "modalkit-session-YYYYMMDD-HHMMSS folder in the current directory)"),
    CommandOption("--size", "WxH", in: [.run], "the app's window size in pixels (default 800x600; output scale 1)"),
    CommandOption("--timeout", "SECONDS", in: [.run],
                  "bound of the first window and of each `wait` without its own (default 10)"),
    CommandOption("--overlay", in: [.run],
                  "the app shows no window but a layer-shell surface over the output (modal-demo ask,",
                  "swaynag, fuzzel): the output is --size, coordinates and screenshots are the whole",
                  "output's, and the session starts once the output shows something"),
    CommandOption("--help", alias: "-h", in: [.run], "this text"),
])

let usage = """
usage: modalkit-session [OPTIONS] [--] APP [ARGS...]

Runs the Wayland app APP with ARGS in a private headless sway (its own runtime directory; as the
unprivileged user modalkit-test when run as root), gives it real pointer and keyboard input
through wayvnc, runs the steps in order, saves the screenshots and the app's output in a folder
(printed on the first line: `output: DIR`; the second names the session's directory and the
processes' ids), and stops the app and the session.

\(table.helpLines([HelpSection("Options:")], column: 21).joined(separator: "\n"))

Steps (coordinates: pixels from the top-left corner of the app's window; with --overlay, of the output):
  click X Y               move the pointer to X,Y and click the left button
  key NAME                press and release a key: a character (a, 7, /), enter, esc, tab, space,
                          backspace, delete, home, end, the arrows (left …), pageup, pagedown,
                          f1…f20, or modifiers and a key joined with - (ctrl-a, ctrl-shift-left)
  type TEXT               type TEXT, one key a character
  wait [-t SECONDS] REGEX wait for a line of the app's stdout, after the one the last wait matched,
                          that matches the regular expression REGEX (ICU syntax)
  sleep SECONDS           pause
  screenshot NAME         save the app's window as NAME.png (once two pictures in a row agree,
                          or as it is after 2 s), the pointer moved off the window first (with
                          --overlay: to the output's bottom-right corner, where its tip shows)
  close [SECONDS]         ask the app to close its window (xdg_toplevel.close, as the window's
                          close button does) and wait for it to exit with status 0 (not with
                          --overlay: an overlay has no window to close; answer it, e.g. key esc)
  exit STATUS [SECONDS]   wait for the app to end by itself (after the step that answered it)
                          with exit status STATUS: `key esc` then `exit 1` checks a Cancel

The session starts when the app's window is mapped (with --overlay: once the output differs from
the empty one, bounded by --timeout). The app's stdout and stderr are saved as
stdout.log and stderr.log. Exit status: 0 when every step held, 1 when a step failed, the app
ended before a step other than `exit` or the session could not start (a one-line reason on stderr),
2 for a bad command line or step. The last line says whether the app ended by itself (and how) or
was still running and is stopped.
"""


enum Step: CustomStringConvertible {
    case click(x: Int, y: Int)
    /// `key NAME`: `name` as written, `vnc` as vncdotool names it.
    case key(name: String, vnc: String)
    case type(String)
    case wait(NSRegularExpression, pattern: String, timeout: Double?)
    case sleep(Double)
    case screenshot(String)
    case close(timeout: Double?)
    /// `exit STATUS [SECONDS]`: the app ends by itself with STATUS (0…255).
    case exit(status: Int32, timeout: Double?)

    var description: String {
        switch self {
        case .click(let x, let y): return "click \(x) \(y)"
        case .key(let name, _): return "key \(name)"
        case .type(let text): return "type \(text)"
        case .wait(_, let pattern, let timeout): return "wait " + (timeout.map { "-t \($0) " } ?? "") + pattern
        case .sleep(let seconds): return "sleep \(seconds)"
        case .screenshot(let name): return "screenshot \(name)"
        case .close(let timeout): return "close" + (timeout.map { " \($0)" } ?? "")
        case .exit(let status, let timeout): return "exit \(status)" + (timeout.map { " \($0)" } ?? "")
        }
    }

    /// Parses one step; `origin` names where it came from for the error.
    static func parse(_ line: String, origin: String) throws -> Step {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let verb = trimmed.prefix { !$0.isWhitespace }
        let rest = trimmed.dropFirst(verb.count).trimmingCharacters(in: .whitespaces)
        let words = rest.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        func bad(_ why: String) -> UsageError { UsageError("\(origin): \(why): `\(trimmed)`") }
        func seconds(_ text: String) throws -> Double {
            guard let value = Double(text), value.isFinite, value >= 0 else { throw bad("not a number of seconds: \(text)") }
            return value
        }
        switch verb {
        case "click":
            guard words.count == 2, let x = Int(words[0]), let y = Int(words[1]), x >= 0, y >= 0 else {
                throw bad("click takes two whole numbers X Y ≥ 0")
            }
            return .click(x: x, y: y)
        case "key":
            guard words.count == 1 else { throw bad("key takes one key name") }
            guard let vnc = KeyName.vncName(words[0]) else {
                throw bad("unknown key '\(words[0])' (\(KeyName.summary))")
            }
            return .key(name: words[0], vnc: vnc)
        case "type":
            guard !rest.isEmpty else { throw bad("type takes the text to type") }
            return .type(rest)
        case "wait":
            var pattern = rest
            var timeout: Double?
            if words.first == "-t" {
                guard words.count >= 3 else { throw bad("wait -t takes SECONDS and a regular expression") }
                timeout = try seconds(words[1])
                pattern = rest.dropFirst(2).trimmingCharacters(in: .whitespaces).dropFirst(words[1].count)
                    .trimmingCharacters(in: .whitespaces)
            }
            guard !pattern.isEmpty else { throw bad("wait takes a regular expression") }
            guard let regex = try? NSRegularExpression(pattern: pattern) else { throw bad("not a regular expression: \(pattern)") }
            return .wait(regex, pattern: pattern, timeout: timeout)
        case "sleep":
            guard words.count == 1 else { throw bad("sleep takes SECONDS") }
            return .sleep(try seconds(words[0]))
        case "screenshot":
            guard words.count == 1, !words[0].contains("/"), !words[0].hasPrefix(".") else {
                throw bad("screenshot takes one file name without / (saved as NAME.png)")
            }
            return .screenshot(words[0])
        case "close":
            guard words.count <= 1 else { throw bad("close takes at most SECONDS") }
            return .close(timeout: try words.first.map(seconds))
        case "exit":
            guard (1...2).contains(words.count), let status = Int32(words[0]), (0...255).contains(status) else {
                throw bad("exit takes the app's exit status (0 to 255) and at most SECONDS")
            }
            return .exit(status: status, timeout: try words.dropFirst().first.map(seconds))
        default:
            throw bad("unknown step '\(verb)' (click, key, type, wait, sleep, screenshot, close, exit)")
        }
    }
}

/// The key names of `key NAME`: a key, or modifiers and a key joined by `-` (`ctrl-a`,
/// `ctrl-shift-left`). vncdotool's names, which wayvnc turns into keys, with the X keysym names a
/// user reaches for (`backspace`, `escape`, `return`, `pageup`, …) as aliases.
enum KeyName {
    /// Names → vncdotool's (vncdotool/keys.py `KEYMAP`).
    static let names: [String: String] = {
        var names: [String: String] = [:]
        for n in ["bsp", "tab", "return", "enter", "esc", "ins", "delete", "del", "home", "end", "pgup", "pgdn",
                  "left", "up", "right", "down", "slash", "bslash", "fslash", "spacebar", "space", "sb",
                  "lshift", "shift", "rshift", "lctrl", "ctrl", "rctrl", "lmeta", "meta", "rmeta", "lalt", "alt", "ralt",
                  "scrlk", "sysrq", "numlk", "caplk", "pause", "lsuper", "super", "rsuper", "lhyper", "hyper", "rhyper",
                  "kpenter", "minus"] { names[n] = n }
        for i in 1...20 { names["f\(i)"] = "f\(i)" }
        for i in 0...9 { names["kp\(i)"] = "kp\(i)" }
        let aliases = ["backspace": "bsp", "escape": "esc", "insert": "ins", "pageup": "pgup", "pagedown": "pgdn",
                       "control": "ctrl", "capslock": "caplk"]
        for (alias, name) in aliases { names[alias] = name }
        return names
    }()

    static let summary = "a letter, digit or punctuation character, or enter, esc, tab, space, backspace, delete, "
        + "home, end, left, right, up, down, pageup, pagedown, f1…f20; modifiers joined with -: ctrl-a, shift-tab"

    /// `name` as vncdotool names it, or nil when a part is neither a name above nor one printable
    /// ASCII character.
    static func vncName(_ name: String) -> String? {
        guard !name.isEmpty, !name.hasPrefix("-"), !name.hasSuffix("-"), !name.contains("--") else { return nil }
        var parts: [String] = []
        for part in name.split(separator: "-").map(String.init) {
            if let known = names[part.lowercased()] {
                parts.append(known)
            } else if part.unicodeScalars.count == 1, let v = part.unicodeScalars.first?.value, (0x21...0x7E).contains(v) {
                parts.append(part)
            } else {
                return nil
            }
        }
        return parts.joined(separator: "-")
    }
}

struct Options {
    var steps: [Step] = []
    var output: String?
    var width = 800, height = 600
    var timeout = 10.0
    /// `--overlay`: the app maps a layer surface, no toplevel.
    var overlay = false
    var app: [String] = []

    /// The options and the app of `arguments` (after the program name), or nil for `--help`.
    /// - Throws: `UsageError` for a bad option or step, or no app to run.
    static func parse(_ arguments: [String]) throws -> Options? {
        var o = Options()
        var fileSteps: [Step] = [], lineSteps: [Step] = []
        var scanner = ArgumentScanner(arguments[...], table: table, command: .run)
        scanner.allowsEndOfOptions = true
        scan: while let argument = try scanner.next() {
            switch argument {
            case .endOfOptions:
                o.app = scanner.rest()
                break scan
            case .operand(let app):
                o.app = [app] + scanner.rest()
                break scan
            case let .option(option, value?):
                switch option.name {
                case "--step": lineSteps.append(try Step.parse(value, origin: "--step"))
                case "--steps":
                    guard let text = try? String(contentsOfFile: value, encoding: .utf8) else {
                        throw UsageError("--steps: cannot read \(value)")
                    }
                    for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                        let t = line.trimmingCharacters(in: .whitespaces)
                        if t.isEmpty || t.hasPrefix("#") { continue }
                        fileSteps.append(try Step.parse(t, origin: "\(value):\(n + 1)"))
                    }
                case "--output": o.output = value
                case "--size":
                    let parts = value.split(separator: "x").compactMap { Int($0) }
                    guard parts.count == 2, (64...8192).contains(parts[0]), (64...8192).contains(parts[1]) else {
                        throw UsageError("--size takes WxH, each 64 to 8192 (not '\(value)')")
                    }
                    (o.width, o.height) = (parts[0], parts[1])
                case "--timeout":
                    guard let t = Double(value), t.isFinite, t > 0 else { throw UsageError("--timeout takes seconds > 0 (not '\(value)')") }
                    o.timeout = t
                default: preconditionFailure("\(option.name) is in the table but not parsed")
                }
            case let .option(option, nil):
                switch option.name {
                case "--overlay": o.overlay = true
                case "--help": return nil
                default: preconditionFailure("\(option.name) is in the table but not parsed")
                }
            }
        }
        guard !o.app.isEmpty else { throw UsageError("no app to run (modalkit-session [OPTIONS] APP [ARGS...])") }
        guard findExecutable(o.app[0]) != nil else { throw UsageError("cannot run '\(o.app[0])': not an executable file") }
        o.steps = fileSteps + lineSteps
        if o.overlay, let close = o.steps.first(where: { if case .close = $0 { return true } else { return false } }) {
            throw UsageError("`\(close)` closes the app's window, and with --overlay it has none (answer the overlay instead, e.g. key esc)")
        }
        return o
    }
}

/// A step that did not hold, or a session that could not start: one line, exit status 1.
struct StepFailure: Error { let message: String }

/// SIGINT or SIGTERM arrived: the steps stop and everything is stopped as at the end.
private let interruptLock = NSLock()
private var interrupted: Int32 = 0
private var appPID: pid_t = 0

/// SIGINT and SIGTERM are blocked in every thread (children start with an empty mask) and taken by
/// one thread with sigwait: it stops the app, and the steps end at the next check.
func catchInterrupts() {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &set, nil)
    let blocked = set
    let thread = Thread {
        var s = blocked
        var sig: Int32 = 0
        guard sigwait(&s, &sig) == 0 else { return }
        interruptLock.lock()
        interrupted = sig
        let pid = appPID
        interruptLock.unlock()
        if pid > 0 { kill(pid, SIGTERM) }
    }
    thread.start()
}

func wasInterrupted() -> Int32 { interruptLock.lock(); defer { interruptLock.unlock() }; return interrupted }

func run(_ o: Options) -> Int32 {
    let fm = FileManager.default
    let dir: String
    if let given = o.output {
        dir = given.hasPrefix("/") ? given : fm.currentDirectoryPath + "/" + given
    } else {
        let f = DateFormatter()
        f.dateFormat = "yyyyMMdd-HHmmss"
        dir = fm.currentDirectoryPath + "/modalkit-session-" + f.string(from: Date())
    }
    do {
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
    } catch {
        fputs("modalkit-session: cannot make \(dir): \(error.localizedDescription)\n", stderr)
        return 1
    }
    print("output: \(dir)")
    fflush(stdout)

    var sway: HeadlessSway?
    var vnc: VNCInput?
    var app: ChildProcess?
    var failure: String?
    var stepsHeld = 0
    defer {
        app?.stop(timeout: 3)
        if let app {
            app.stdout.waitForEnd(timeout: 2)
            app.stderr.waitForEnd(timeout: 2)
            _ = fm.createFile(atPath: dir + "/stdout.log", contents: app.stdout.data)
            _ = fm.createFile(atPath: dir + "/stderr.log", contents: app.stderr.data)
        }
        vnc?.stop()
        sway?.stop()
    }
    do {
        // An overlay covers the whole output: no margin around a window area, so the output is --size.
        let session = try HeadlessSway(windowWidth: o.width, windowHeight: o.height, margin: o.overlay ? 0 : 20)
        sway = session
        let input = try VNCInput(sway: session)
        vnc = input
        try input.park()
        var env = session.clientEnvironment
        env["SWAYSOCK"] = nil
        // The empty output once settled (sway's first frames and the parked cursor drawn), to see
        // when an overlay shows: it maps no window sway lists.
        let empty = o.overlay ? try session.stableScreenshot() : nil
        let started = try ChildProcess(o.app, environment: env)
        app = started
        interruptLock.lock(); appPID = started.pid; interruptLock.unlock()
        print("session: XDG_RUNTIME_DIR=\(session.runtimeDirectory) WAYLAND_DISPLAY=\(session.displayName), pids: sway \(session.process.pid) wayvnc \(input.process.pid) app \(started.pid)")
        fflush(stdout)
        if wasInterrupted() != 0 { started.stop(timeout: 3) }
        let window: SwayWindow?
        let area: PixelBox
        if let empty {
            window = nil
            area = PixelBox(x: 0, y: 0, width: session.width, height: session.height)
            let shown = waitUntil(timeout: o.timeout, interval: 0.1) {
                started.status != nil || ((try? session.screenshot()).map { $0 != empty } ?? false)
            }
            if let status = started.status {
                throw StepFailure(message: "the app ended (\(status)) before it showed anything")
            }
            guard shown else { throw StepFailure(message: "the app showed nothing on the output within \(o.timeout) s") }
        } else {
            let mapped: SwayWindow
            do {
                mapped = try session.waitForAppWindow(pid: started.pid, timeout: o.timeout, app: started)
            } catch where started.isRunning {
                let line = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
                throw StepFailure(message: line + " (an app that shows a layer-shell overlay instead runs with --overlay)")
            }
            window = mapped
            area = mapped.rect
        }
        var matched = 0   // lines of stdout the waits have passed
        var parked = true  // the pointer is off the window (VNCInput.park above)
        for (index, step) in o.steps.enumerated() {
            if wasInterrupted() != 0 { throw StepFailure(message: "interrupted before step \(index + 1) `\(step)`") }
            if let status = started.status {
                if case .exit = step {} else {
                    throw StepFailure(message: "the app ended (\(status)) before step \(index + 1) `\(step)`")
                }
            }
            do {
                switch step {
                case .click(let x, let y):
                    guard x < area.width, y < area.height else {
                        throw StepFailure(message: "\(x),\(y) is outside the \(area.width)x\(area.height) \(window == nil ? "output" : "window")")
                    }
                    try input.click(x: area.x + x, y: area.y + y)
                    parked = false
                case .key(_, let vnc):
                    try input.key(vnc)
                case .type(let text):
                    try input.send(text.map { $0 == " " ? "key space" : "key \($0)" }.flatMap { $0.split(separator: " ").map(String.init) })
                case .wait(let regex, _, let timeout):
                    let seconds = timeout ?? o.timeout
                    let found = started.stdout.wait(timeout: seconds) { lines -> Int? in
                        guard lines.count > matched else { return nil }
                        return lines[matched...].firstIndex { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
                    }
                    guard let found else {
                        let why = started.isRunning ? "within \(seconds) s" : "before the app ended (\(started.status!))"
                        throw StepFailure(message: "no line matched \(why)")
                    }
                    matched = found + 1
                case .sleep(let seconds):
                    // In slices, so that SIGINT or SIGTERM ends the pause at once.
                    let end = monotonicNow() + seconds
                    while wasInterrupted() == 0, case let left = end - monotonicNow(), left > 0 {
                        usleep(useconds_t(min(left, 0.05) * 1e6))
                    }
                    if wasInterrupted() != 0 { throw StepFailure(message: "interrupted") }
                case .screenshot(let name):
                    // No cursor in the picture: the pointer leaves the window first.
                    if !parked { try input.park(); parked = true }
                    let current = window == nil ? area : try session.waitForAppWindow(pid: started.pid, timeout: o.timeout, app: started).rect
                    // The picture once it has settled (an animation ended), or as it is after 2 s
                    // (an app that never stops drawing, a blinking caret).
                    let shot = try (try? session.stableScreenshot(timeout: 2)) ?? session.screenshot()
                    try shot.cropped(to: current).writePNG(to: dir + "/" + name + ".png")
                case .close(let timeout):
                    let seconds = timeout ?? o.timeout
                    guard let window else { throw StepFailure(message: "an overlay has no window to close") }
                    try session.swaymsg(["[pid=\(window.pid)] kill"])
                    guard let status = started.waitForExit(timeout: seconds) else {
                        throw StepFailure(message: "the app still runs \(seconds) s after the close request")
                    }
                    guard status == .exited(0) else { throw StepFailure(message: "the app ended with \(status)") }
                case .exit(let expected, let timeout):
                    let seconds = timeout ?? o.timeout
                    guard let status = started.waitForExit(timeout: seconds) else {
                        throw StepFailure(message: "the app still runs after \(seconds) s")
                    }
                    guard status == .exited(expected) else { throw StepFailure(message: "the app ended with \(status), not exit status \(expected)") }
                }
                if wasInterrupted() != 0 { throw StepFailure(message: "interrupted") }
                stepsHeld += 1
            } catch let e as StepFailure {
                throw StepFailure(message: "step \(index + 1) `\(step)` failed: \(e.message)")
            } catch {
                throw StepFailure(message: "step \(index + 1) `\(step)` failed: \(error)")
            }
        }
    } catch let e as StepFailure {
        failure = e.message
    } catch {
        failure = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
    }
    if let failure {
        fputs("modalkit-session: \(failure)\n", stderr)
        return wasInterrupted() != 0 ? 128 + wasInterrupted() : 1
    }
    // Whether the app had ended by itself (a prompt answered) or is stopped now.
    let ending = app?.status.map { "the app ended (\($0))" } ?? "the app still ran and is stopped"
    print("\(stepsHeld) step\(stepsHeld == 1 ? "" : "s") held; \(ending); screenshots and stdout.log, stderr.log in \(dir)")
    return 0
}

setvbuf(stdout, nil, _IOLBF, 0)
let options: Options?
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch let e as UsageError {
    fputs("modalkit-session: \(e)\n", stderr)
    exit(UsageError.exitStatus)
}
guard let options else {
    print(usage, terminator: "")
    exit(0)
}
catchInterrupts()
exit(run(options))
