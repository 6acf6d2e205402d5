// `modal-bench --launch`: launch time and resident memory of modal-demo against another client,
// measured in interleaved pairs (A, B, A, B …) so both share the machine's load.
import Foundation
import ModalKitClock
import ModalKitBenchSupport
import ModalKitSession

/// One of the two programs compared.
struct LaunchClient {
    /// Short name for the tables (the program's base name).
    let label: String
    let path: String
    /// Arguments given by the user (or the defaults); modal-bench adds its own after them.
    let arguments: [String]
    /// Arguments modal-bench adds for a launch (modal-demo: `--size WxH`).
    let launchArguments: [String]
    /// Arguments modal-bench adds for memory at rest (modal-demo: also `--autoplay --log-events`).
    var memoryArguments: [String]
    /// Whether memory is read after the `dismissed` event (modal-demo) rather than the first frame.
    let waitsForDismissal: Bool

    var commandLine: String { ShellWords.join([path] + arguments + launchArguments) }
}

/// One launch, in ms from exec.
struct FirstFrameSample {
    var toRequest: Double?
    var toConfigure: Double?
    var toFrame: Double
    var capabilities: UInt32?
    var keymap: Bool
    var buffer: (width: Int, height: Int)?
    /// CPU time of all its threads when modal-bench read the frame's line (ms), and time it was
    /// runnable but waited for a CPU (ms): what a busy machine adds.
    var cpu: Double?
    var runQueue: Double?
    /// Shared objects mapped when modal-bench read the frame's line (`/proc/PID/maps`).
    var sharedObjects: Int?
}

/// Memory of a client at rest, kB (proc(5): VmRSS = RssAnon + RssFile + RssShmem).
struct MemorySample {
    var vmRSS: Int, rssAnon: Int, rssFile: Int, rssShmem: Int, vmHWM: Int
    var pss: Int?
    var mappings: [MappingUsage]
    /// The window's buffer size at rest (buffer pixels), from the WAYLAND_DEBUG lines.
    var buffer: (width: Int, height: Int)?
}

/// One row of the summary table at the end.
struct LaunchSummaryRow {
    var figure: String
    var a: String, b: String
    var ratio: Double?
    /// The target ratio (at most).
    var target: Double
}

/// How long a client may take to put its first frame on screen (or modal-demo to present and
/// dismiss) before the run fails.
let launchTimeout = 30.0

func runLaunch(_ o: LaunchOptions) -> Never {
    installLaunchInterruptHandlers()
    var session: LaunchSession?
    do {
        try launchMain(o) { session = $0 }
        session?.stop()
        exit(0)
    } catch {
        session?.stop()
        let status = (error as? LaunchError)?.status ?? 1
        fputs("modal-bench: \(error)\n", stderr)
        exit(status)
    }
}

private func resolveClients(_ o: LaunchOptions) throws -> (LaunchClient, LaunchClient) {
    let size = o.size.description
    let demoPath: String
    var demoArguments: [String] = []
    if let demo = o.demo {
        guard let p = findExecutable(demo[0]) else { throw LaunchError("--demo: \(demo[0]) not found", status: 2) }
        demoPath = p
        demoArguments = Array(demo.dropFirst())
    } else {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let sibling = (exe as NSString).deletingLastPathComponent + "/modal-demo"
        guard let p = findExecutable(sibling) ?? findExecutable("modal-demo") else {
            throw LaunchError("modal-demo not found next to modal-bench or in PATH (--demo PATH names it)", status: 2)
        }
        demoPath = p
    }
    let versus = o.versusCommand
    guard let versusPath = findExecutable(versus[0]) else {
        throw LaunchError("--vs: \(versus[0]) not found\(versus[0].contains("/") ? "" : " in PATH")", status: 2)
    }
    let a = LaunchClient(label: (demoPath as NSString).lastPathComponent, path: demoPath, arguments: demoArguments, launchArguments: ["--size", size],
                         memoryArguments: ["--size", size, "--autoplay", "--log-events"], waitsForDismissal: true)
    var bLabel = (versusPath as NSString).lastPathComponent
    if bLabel == a.label { bLabel += " (B)" }
    let b = LaunchClient(label: bLabel, path: versusPath, arguments: Array(versus.dropFirst()), launchArguments: [],
                         memoryArguments: [], waitsForDismissal: false)
    return (a, b)
}

private func launchMain(_ o: LaunchOptions, sessionStarted: (LaunchSession) -> Void) throws {
    let (a, b) = try resolveClients(o)
    print("modal-bench --launch — \(a.label) against \(b.label)")
    print("machine  \(Machine.cpuModel), \(Machine.onlineCores) cores, \(Machine.kernel)")
    print("A        \(a.commandLine)")
    print("B        \(b.commandLine)")
    if (a.path as NSString).deletingLastPathComponent.hasSuffix("/debug") {
        print("note     A is in a SwiftPM debug directory: a debug build is not what users get"
              + " (swift build -c release, or scripts/install, and --demo PATH)")
    }
    print("load     \(Machine.loadAverage) (1/5/15-minute load average at start)")
    print("method   \(pairs(o.runs)) interleaved (A, B, A, B …) per figure after 1 warm-up pair; ratio = median of")
    print("         the per-pair ratios A/B. Each client is started with posix_spawn (returns once it exec'd);")
    print("         CLOCK_REALTIME is read just before. first frame: exec → the first wl_surface.commit of the")
    print("         window's surface with a buffer attached (sub-surfaces go on screen with it), from the")
    print("         client's WAYLAND_DEBUG=1 lines (libwayland stamps them with CLOCK_REALTIME µs mod 2^32);")
    print("         then SIGTERM (SIGKILL after 3 s). --version: exec → end of its output (CLOCK_MONOTONIC).")
    print("         memory: /proc/PID/status and smaps_rollup \(LaunchOptions.restSeconds) s after modal-demo's `dismissed`")
    print("         (--autoplay: one present and dismiss) and after B's first frame, both with WAYLAND_DEBUG=1.")

    var summary: [LaunchSummaryRow] = []
    let measuresSession = o.measurements.contains(.firstFrame) || o.measurements.contains(.memory)
    if measuresSession {
        switch o.session {
        case .current:
            let session = try CurrentSession()
            sessionStarted(session)
            print("session  \(session.summary)")
            summary += try measureInSession(o, a, b, session: session, seatLabel: nil)
        case .headless(let seats):
            let sway = try PrivateSway(size: o.size)
            sessionStarted(sway)
            print("session  \(sway.summary)")
            for seat in seats {
                switch seat {
                case .none: sway.removeKeyboard()
                case .keyboard: try sway.addKeyboard()
                }
                let label = seat == .none ? "no input devices" : "pointer + keyboard (wayvnc)"
                summary += try measureInSession(o, a, b, session: sway, seatLabel: label)
            }
        }
    }
    if o.measurements.contains(.version) {
        summary += try measureVersion(o, a, b)
    }

    print("")
    print("summary (medians; ratio: median of the per-pair ratios \(a.label)/\(b.label))")
    var table = TextTable([("figure", .left), (a.label, .right), (b.label, .right), ("ratio", .right),
                           ("target", .right), ("verdict", .left)])
    for r in summary {
        table.append([r.figure, r.a, r.b, r.ratio.map { String(format: "%.2f", $0) } ?? "-",
                      "≤ " + String(format: "%g", r.target),
                      r.ratio.map { $0 <= r.target ? "met" : "MISSED" } ?? "not measured"])
    }
    table.lines.forEach { print($0) }
    if b.label != "foot" { print("(the targets are stated against foot)") }
    print("load     \(Machine.loadAverage) (at the end)")
}

// MARK: First frame and memory in a session

private func measureInSession(_ o: LaunchOptions, _ a: LaunchClient, _ b: LaunchClient, session: LaunchSession,
                              seatLabel: String?) throws -> [LaunchSummaryRow] {
    var rows: [LaunchSummaryRow] = []
    let env = session.clientEnvironment
    let suffix = seatLabel.map { ", seat: \($0)" } ?? ""
    if o.measurements.contains(.firstFrame) {
        print("")
        print("first frame\(suffix): \(pairs(o.runs)) after 1 warm-up pair, load \(Machine.loadAverage) at start")
        _ = try firstFrame(a, environment: env)
        _ = try firstFrame(b, environment: env)
        var sa: [FirstFrameSample] = [], sb: [FirstFrameSample] = []
        for _ in 0..<o.runs {
            sa.append(try firstFrame(a, environment: env))
            try pause(0.1)
            sb.append(try firstFrame(b, environment: env))
            try pause(0.1)
        }
        print("load     \(Machine.loadAverage) at the end")
        rows.append(reportFirstFrame(a, sa, b, sb, seatLabel: seatLabel))
    }
    if o.measurements.contains(.memory) {
        let runs = min(o.runs, LaunchOptions.memoryRuns)
        print("")
        print("memory at rest\(suffix): \(pairs(runs)), load \(Machine.loadAverage) at start")
        var ma: [MemorySample] = [], mb: [MemorySample] = []
        for _ in 0..<runs {
            ma.append(try memoryAtRest(a, environment: env, mappings: o.mappings))
            try pause(0.1)
            mb.append(try memoryAtRest(b, environment: env, mappings: o.mappings))
            try pause(0.1)
        }
        rows.append(reportMemory(o, a, ma, b, mb, seatLabel: seatLabel))
    }
    return rows
}

/// Starts `client`, waits (bounded) for its first frame in its WAYLAND_DEBUG lines, stops it.
/// - Throws: `LaunchError` when it ends or times out before a frame (with what it printed).
func firstFrame(_ client: LaunchClient, environment: [String: String]) throws -> FirstFrameSample {
    let child = try startTraced(client, arguments: client.launchArguments, environment: environment)
    defer { child.stop() }
    var tracker = FirstFrameTracker()
    var other: [String] = []
    var cursor = LineCursor()
    try follow(child, client: client, tracker: &tracker, other: &other, cursor: &cursor) { $0.firstFrame != nil }
    let cpu = threadCPUTime(child)
    let sharedObjects = readTextFile("/proc/\(child.pid)/maps").map { ProcFiles.sharedObjects(maps: $0).count }
    let exec = WaylandDebugTimestamp(realtimeSeconds: child.spawnRealtime.tv_sec, nanoseconds: child.spawnRealtime.tv_nsec)
    guard let frame = tracker.firstFrame, let toFrame = frame.timestamp.microseconds(since: exec) else {
        throw LaunchError("\(client.label): its first frame is stamped before its exec (a clock step?)")
    }
    return FirstFrameSample(
        toRequest: tracker.firstRequest?.microseconds(since: exec).map { Double($0) / 1000 },
        toConfigure: tracker.firstConfigure?.microseconds(since: exec).map { Double($0) / 1000 },
        toFrame: Double(toFrame) / 1000,
        capabilities: tracker.seatCapabilities, keymap: tracker.receivedKeymap,
        buffer: frame.bufferWidth.flatMap { w in frame.bufferHeight.map { (w, $0) } },
        cpu: cpu.map { $0.run * 1000 }, runQueue: cpu.map { $0.wait * 1000 }, sharedObjects: sharedObjects)
}

/// Starts `client` with its arguments and `arguments`, in `environment` with `WAYLAND_DEBUG=1`
/// (its requests and events on stderr, stamped by libwayland).
/// - Throws: `LaunchError` when it cannot be started.
private func startTraced(_ client: LaunchClient, arguments: [String], environment: [String: String]) throws -> ChildProcess {
    var env = environment
    env["WAYLAND_DEBUG"] = "1"
    return try startClient(path: client.path, arguments: client.arguments + arguments, environment: env, name: client.label)
}

/// The lines a child wrote to stdout and stderr since the last call, in the order of each pipe.
private struct LineCursor {
    var stdout = 0, stderr = 0

    /// Hands the new lines of each pipe to `stdoutLine` and `stderrLine`, waiting at most
    /// `timeout` seconds for a stderr line when there is none yet.
    mutating func read(_ child: ChildProcess, timeout: Double, stdoutLine: (String) -> Void, stderrLine: (String) -> Void) {
        let err = child.stderr.lines(after: stderr, timeout: timeout)
        stderr += err.count
        err.forEach(stderrLine)
        let out = child.stdout.lines(after: stdout, timeout: 0)
        stdout += out.count
        out.forEach(stdoutLine)
    }
}

/// Reads `child`'s stderr into `tracker` (other lines kept in `other`) until `done` holds.
/// - Throws: `LaunchError` when the child ends first or `launchTimeout` passes.
private func follow(_ child: ChildProcess, client: LaunchClient, tracker: inout FirstFrameTracker, other: inout [String],
                    cursor: inout LineCursor, stdoutLine: (String) -> Void = { _ in },
                    until done: (FirstFrameTracker) -> Bool) throws {
    let deadline = monotonicSeconds() + launchTimeout
    func readLines(timeout: Double) {
        cursor.read(child, timeout: timeout, stdoutLine: stdoutLine) { line in
            if let m = WaylandDebugMessage(line: line[...]) {
                tracker.consume(m)
            } else {
                other.append(line)
                if other.count > 20 { other.removeFirst() }
            }
        }
    }
    while true {
        try checkInterrupted()
        readLines(timeout: 0.05)
        if done(tracker) { return }
        if let e = child.status {
            // What it wrote before it ended is read to its end (bounded: a process it started may
            // hold the pipes open).
            child.stderr.waitForEnd(timeout: 1)
            child.stdout.waitForEnd(timeout: 1)
            readLines(timeout: 0)
            if done(tracker) { return }
            let said = other.isEmpty ? "" : ":\n" + other.map { "    " + $0 }.joined(separator: "\n")
            throw LaunchError("\(client.label) ended (\(e)) before \(tracker.firstFrame == nil ? "its first frame" : "it was at rest")\(said)")
        }
        if monotonicSeconds() > deadline {
            let said = other.isEmpty ? "" : ":\n" + other.map { "    " + $0 }.joined(separator: "\n")
            let what = tracker.firstFrame == nil ? "no first frame" : "its first frame, but not at rest (modal-demo: no `dismissed`)"
            throw LaunchError("\(client.label): \(what) within \(Int(launchTimeout)) s (\(tracker.messages) Wayland messages)\(said)")
        }
    }
}

/// Starts `client` with its memory arguments, waits until it is at rest (modal-demo: `dismissed`
/// after `--autoplay`'s present and dismiss; another client: its first frame), lets it rest
/// `LaunchOptions.restSeconds`, and reads its memory; then stops it.
func memoryAtRest(_ client: LaunchClient, environment: [String: String], mappings: Bool) throws -> MemorySample {
    let child = try startTraced(client, arguments: client.memoryArguments, environment: environment)
    defer { child.stop() }
    var tracker = FirstFrameTracker()
    var other: [String] = []
    var cursor = LineCursor()
    var dismissed = !client.waitsForDismissal
    try follow(child, client: client, tracker: &tracker, other: &other, cursor: &cursor,
               stdoutLine: { if $0.split(separator: " ").first == "dismissed" { dismissed = true } },
               until: { $0.firstFrame != nil && dismissed })
    // Rest, still following its output (the buffer size it has at rest).
    func consume(_ line: String) {
        if WaylandDebugMessage(line: line[...]) == nil { other.append(line) }
        tracker.consume(line: line[...])
    }
    let end = monotonicSeconds() + LaunchOptions.restSeconds
    while monotonicSeconds() < end {
        try checkInterrupted()
        cursor.read(child, timeout: min(0.05, max(0, end - monotonicSeconds())), stdoutLine: { _ in }, stderrLine: consume)
        if let e = child.status {
            throw LaunchError("\(client.label) ended (\(e)) while at rest"
                              + (other.isEmpty ? "" : ":\n" + other.suffix(10).map { "    " + $0 }.joined(separator: "\n")))
        }
    }
    guard let status = readTextFile("/proc/\(child.pid)/status"),
          let rss = ProcFiles.statusKilobytes("VmRSS", in: status),
          let anon = ProcFiles.statusKilobytes("RssAnon", in: status),
          let file = ProcFiles.statusKilobytes("RssFile", in: status),
          let shmem = ProcFiles.statusKilobytes("RssShmem", in: status),
          let hwm = ProcFiles.statusKilobytes("VmHWM", in: status) else {
        throw LaunchError("cannot read the memory fields of /proc/\(child.pid)/status")
    }
    let pss = readTextFile("/proc/\(child.pid)/smaps_rollup").flatMap { ProcFiles.statusKilobytes("Pss", in: $0) }
    let usage = mappings ? (readTextFile("/proc/\(child.pid)/smaps").map(ProcFiles.mappingUsage(smaps:)) ?? []) : []
    cursor.read(child, timeout: 0, stdoutLine: { _ in }, stderrLine: { tracker.consume(line: $0[...]) })
    return MemorySample(vmRSS: rss, rssAnon: anon, rssFile: file, rssShmem: shmem, vmHWM: hwm, pss: pss, mappings: usage,
                        buffer: tracker.latestFrameBufferSize)
}

// MARK: --version

private func measureVersion(_ o: LaunchOptions, _ a: LaunchClient, _ b: LaunchClient) throws -> [LaunchSummaryRow] {
    print("")
    print("--version: \(pairs(o.runs)) after 1 warm-up pair, load \(Machine.loadAverage) at start")
    // No display: a program that does not know --version must not open a window somewhere.
    var env = ProcessInfo.processInfo.environment
    for key in ["WAYLAND_DEBUG", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY"] { env[key] = nil }
    // The warm-up pair doubles as the check that each program has a --version that ends.
    for c in [a, b] {
        do {
            let first = try versionTime(c, environment: env)
            print("\(c.label): \(first.output)")
        } catch let e as LaunchError where e.status != 130 {
            print("  not measured: \(e.description)")
            return [LaunchSummaryRow(figure: "--version, exec → exit (ms)", a: "-", b: "-", ratio: nil, target: 2)]
        }
    }
    var ta: [Double] = [], tb: [Double] = [], ca: [Double?] = [], cb: [Double?] = []
    for _ in 0..<o.runs {
        let x = try versionTime(a, environment: env), y = try versionTime(b, environment: env)
        ta.append(x.ms)
        ca.append(x.cpu)
        tb.append(y.ms)
        cb.append(y.cpu)
    }
    var table = TextTable([("command", .left), ("runs", .right), ("min", .right), ("median", .right), ("max", .right),
                           ("CPU median", .right)])
    for (c, t, cpu) in [(a, ta, ca), (b, tb, cb)] {
        let s = Statistics.summary(t)!
        table.append([ShellWords.join([c.path, "--version"]), String(s.count), ms(s.min), ms(s.median), ms(s.max),
                      Statistics.median(cpu.compactMap { $0 }).map(ms) ?? "-"])
    }
    print("exec → exit, ms (CPU: user + system time of the process, wait4)")
    table.lines.forEach { print($0) }
    let ratios = Statistics.pairedRatios(ta, tb)
    printRatio("--version", a, b, ratios)
    printRatio("--version CPU", a, b, Statistics.pairedRatios(ca, cb))
    return [LaunchSummaryRow(figure: "--version, exec → exit (ms)", a: ms(Statistics.median(ta)!), b: ms(Statistics.median(tb)!),
                             ratio: Statistics.median(ratios), target: 2)]
}

/// Runs `PROGRAM --version` (the client's program without its arguments) to its end: ms from
/// exec to the end of its output (both pipes closed, i.e. at its exit), and its first line.
/// - Throws: `LaunchError` when it fails, prints nothing, or runs longer than 5 s.
func versionTime(_ client: LaunchClient, environment: [String: String]) throws -> (ms: Double, cpu: Double?, output: String) {
    let child = try startClient(path: client.path, arguments: ["--version"], environment: environment, name: client.label)
    defer { child.stop(timeout: 1) }
    // Its end: both pipes closed (the reader threads stamp the moment), at most 5 s.
    let deadline = monotonicSeconds() + 5
    while !(child.stdout.isAtEnd && child.stderr.isAtEnd) {
        try checkInterrupted()
        if monotonicSeconds() > deadline {
            throw LaunchError("\(client.path) --version did not end within 5 s")
        }
        child.stdout.waitForEnd(timeout: 0.05)
        child.stderr.waitForEnd(timeout: 0.05)
    }
    let end = max(child.stdout.endTime ?? 0, child.stderr.endTime ?? 0)
    let output = (child.stdout.lines + child.stderr.lines).map { $0 + "\n" }.joined()
    let exit = child.waitForExit(timeout: 5)
    guard exit == .exited(0), !output.isEmpty else {
        throw LaunchError("\(client.path) --version: \(exit?.description ?? "still running")"
                          + (output.isEmpty ? ", no output" : ": " + output.split(separator: "\n").prefix(2).joined(separator: " / ")))
    }
    return ((end - child.spawnMonotonic) * 1000, child.cpuSecondsAtExit.map { $0 * 1000 },
            String(output.split(separator: "\n").first ?? ""))
}

// MARK: Reports

private func reportFirstFrame(_ a: LaunchClient, _ sa: [FirstFrameSample], _ b: LaunchClient, _ sb: [FirstFrameSample],
                              seatLabel: String?) -> LaunchSummaryRow {
    print("exec → first frame, ms")
    var table = TextTable([("client", .left), ("runs", .right), ("min", .right), ("median", .right), ("max", .right),
                           ("first buffer", .right), ("seat seen by the client", .left)])
    for (c, s) in [(a, sa), (b, sb)] {
        let t = Statistics.summary(s.map(\.toFrame))!
        let buffers = Set(s.compactMap { $0.buffer.map { "\($0.width)x\($0.height)" } }).sorted().joined(separator: ", ")
        let seats = Set(s.map { x -> String in
            guard let caps = x.capabilities else { return "no wl_seat bound" }
            return seatCapabilityNames(caps) + (x.keymap ? ", keymap" : "")
        }).sorted().joined(separator: "; ")
        table.append([c.label, String(t.count), ms(t.min), ms(t.median), ms(t.max), buffers.isEmpty ? "?" : buffers, seats])
    }
    table.lines.forEach { print($0) }
    print("")
    print("phases, medians in ms (from the WAYLAND_DEBUG stamps; CPU: all threads' time on a CPU and time")
    print("waiting for one, from /proc/PID/task/*/schedstat when modal-bench read the frame's line)")
    var phases = TextTable([("client", .left), ("exec → first request", .right), ("→ first configure", .right),
                            ("→ first frame", .right), ("exec → first frame", .right), ("CPU", .right),
                            ("waiting for a CPU", .right)])
    for (c, s) in [(a, sa), (b, sb)] {
        func med(_ v: [Double?]) -> String { Statistics.median(v.compactMap { $0 }).map(ms) ?? "-" }
        phases.append([c.label, med(s.map(\.toRequest)),
                       med(s.map { x in x.toConfigure.flatMap { c in x.toRequest.map { c - $0 } } }),
                       med(s.map { x in x.toConfigure.map { x.toFrame - $0 } }),
                       med(s.map(\.toFrame)), med(s.map(\.cpu)), med(s.map(\.runQueue))])
    }
    phases.lines.forEach { print($0) }
    func objects(_ s: [FirstFrameSample]) -> String {
        Statistics.median(s.compactMap { $0.sharedObjects.map(Double.init) }).map { String(format: "%g", $0) } ?? "-"
    }
    print("shared objects mapped at the first frame (/proc/PID/maps, median): \(a.label) \(objects(sa)), \(b.label) \(objects(sb))")
    let cpuRatios = Statistics.pairedRatios(sa.map(\.cpu), sb.map(\.cpu))
    printRatio("CPU to first frame" + (seatLabel.map { " (\($0))" } ?? ""), a, b, cpuRatios)
    let ratios = Statistics.pairedRatios(sa.map(\.toFrame), sb.map(\.toFrame))
    printRatio("first frame" + (seatLabel.map { " (\($0))" } ?? ""), a, b, ratios)
    return LaunchSummaryRow(figure: "first frame" + (seatLabel.map { ", \($0)" } ?? "") + " (ms)",
                            a: ms(Statistics.median(sa.map(\.toFrame))!), b: ms(Statistics.median(sb.map(\.toFrame))!),
                            ratio: Statistics.median(ratios), target: 1)
}

private func reportMemory(_ o: LaunchOptions, _ a: LaunchClient, _ ma: [MemorySample], _ b: LaunchClient, _ mb: [MemorySample],
                          seatLabel: String?) -> LaunchSummaryRow {
    print("resident memory at rest, MiB (medians of \(ma.count); VmRSS = RssAnon + RssFile + RssShmem; Pss shares"
          + " each shared page among the processes mapping it)")
    var table = TextTable([("client", .left), ("VmRSS", .right), ("RssAnon", .right), ("RssFile", .right),
                           ("RssShmem", .right), ("Pss", .right), ("peak (VmHWM)", .right), ("buffer at rest", .right)])
    func mib(_ values: [Int]) -> String {
        Statistics.median(values.map(Double.init)).map { String(format: "%.1f", $0 / 1024) } ?? "-"
    }
    for (c, m) in [(a, ma), (b, mb)] {
        let buffers = Set(m.compactMap { $0.buffer.map { "\($0.width)x\($0.height)" } }).sorted().joined(separator: ", ")
        table.append([c.label, mib(m.map(\.vmRSS)), mib(m.map(\.rssAnon)), mib(m.map(\.rssFile)), mib(m.map(\.rssShmem)),
                      mib(m.compactMap(\.pss)), mib(m.map(\.vmHWM)), buffers.isEmpty ? "?" : buffers])
    }
    table.lines.forEach { print($0) }
    let ratios = Statistics.pairedRatios(ma.map { Double($0.vmRSS) }, mb.map { Double($0.vmRSS) })
    printRatio("VmRSS at rest" + (seatLabel.map { " (\($0))" } ?? ""), a, b, ratios)
    if o.mappings {
        for (c, m) in [(a, ma), (b, mb)] {
            guard let last = m.last else { continue }
            print("")
            print("\(c.label): resident memory by kind (last run, kB)")
            var k = TextTable([("kind", .left), ("maps", .right), ("Rss", .right), ("Pss", .right),
                               ("Private_Dirty", .right), ("Anonymous", .right)])
            let exe = realpath(c.path, nil).map { p in defer { free(p) }; return String(cString: p) } ?? c.path
            for (_, u) in MappingKind.summary(last.mappings, executable: exe) {
                k.append([u.name, String(u.mappings), Format.grouped(u.rssKB), Format.grouped(u.pssKB),
                          Format.grouped(u.privateDirtyKB), Format.grouped(u.anonymousKB)])
            }
            k.lines.forEach { print($0) }
            print("")
            print("\(c.label): resident memory per mapped file (last run; largest 20 of \(last.mappings.count), kB)")
            var t = TextTable([("mapping", .left), ("maps", .right), ("Rss", .right), ("Pss", .right),
                               ("Private_Dirty", .right), ("Anonymous", .right)])
            for u in last.mappings.prefix(20) {
                t.append([u.name, String(u.mappings), Format.grouped(u.rssKB), Format.grouped(u.pssKB),
                          Format.grouped(u.privateDirtyKB), Format.grouped(u.anonymousKB)])
            }
            let rest = last.mappings.dropFirst(20)
            if !rest.isEmpty {
                t.append(["(\(rest.count) more)", String(rest.reduce(0) { $0 + $1.mappings }),
                          Format.grouped(rest.reduce(0) { $0 + $1.rssKB }), Format.grouped(rest.reduce(0) { $0 + $1.pssKB }),
                          Format.grouped(rest.reduce(0) { $0 + $1.privateDirtyKB }),
                          Format.grouped(rest.reduce(0) { $0 + $1.anonymousKB })])
            }
            t.lines.forEach { print($0) }
        }
    }
    return LaunchSummaryRow(figure: "VmRSS at rest, \(o.size)" + (seatLabel.map { ", \($0)" } ?? "") + " (MiB)",
                            a: mib(ma.map(\.vmRSS)), b: mib(mb.map(\.vmRSS)), ratio: Statistics.median(ratios),
                            target: 2)
}

/// "1 pair", "N pairs".
func pairs(_ n: Int) -> String { n == 1 ? "1 pair" : "\(n) pairs" }

/// `ratio  FIGURE  A/B  R  (median of N per-pair ratios, min, max)`.
private func printRatio(_ figure: String, _ a: LaunchClient, _ b: LaunchClient, _ ratios: [Double]) {
    guard let s = Statistics.summary(ratios) else {
        print("ratio    \(figure) \(a.label)/\(b.label): not measured")
        return
    }
    print("ratio    \(figure) \(a.label)/\(b.label) " + String(format: "%.3f", s.median)
          + " (median of \(s.count) per-pair ratios; min " + String(format: "%.3f", s.min) + ", max "
          + String(format: "%.3f", s.max) + ")")
}
