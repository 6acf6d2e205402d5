// A private accessibility bus: a D-Bus session bus on which at-spi2-core's accessibility bus is
// activated, as on a desktop, for a session's clients and a screen reader.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private D-Bus session bus that activates the system's session services, so the first
/// application asking for the accessibility bus (`org.a11y.Bus.GetAddress`) starts
/// `at-spi-bus-launcher` (which starts the accessibility bus) and the registry
/// (`at-spi2-registryd`), as on a desktop. Everything runs with a private directory as
/// `XDG_RUNTIME_DIR` and `HOME` (the accessibility bus socket is `$XDG_RUNTIME_DIR/at-spi/bus`:
/// a shared one would make parallel runs collide) and `GSETTINGS_BACKEND=memory` (no dconf).
///
/// The services are the bus's descendants; `stop()` stops each of them, then the bus, by PID.
public final class AccessibilityBus {
    /// The private directory: the bus's socket and config, the runtime and home directory of the
    /// bus, its services and the clients that ask for them.
    public let directory: String
    public let bus: PrivateSessionBus
    private var stopped = false

    /// - Throws: `HarnessError` when dbus-daemon does not start.
    public init() throws {
        directory = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-a11y")
        do {
            bus = try PrivateSessionBus(in: directory, environment: AccessibilityBus.environment(directory), activatesServices: true)
        } catch {
            removeTree(directory)
            throw error
        }
    }

    /// What the bus and its services run with.
    private static func environment(_ dir: String) -> [String: String] {
        harnessEnvironment(["DBUS_SESSION_BUS_ADDRESS": nil, "DISPLAY": nil, "WAYLAND_DISPLAY": nil,
                            "AT_SPI_BUS_ADDRESS": nil, "NO_AT_BRIDGE": nil,
                            "XDG_RUNTIME_DIR": dir, "HOME": dir, "GSETTINGS_BACKEND": "memory"])
    }

    /// The environment of a client of this bus outside a compositor (the probe, Orca): the bus's
    /// own, with its address.
    public var clientEnvironment: [String: String] {
        var env = AccessibilityBus.environment(directory)
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        return env
    }

    /// Stops every process the bus started (activated services and theirs: the registry, the
    /// accessibility bus, its launcher), the deepest first so that each is reaped by its parent,
    /// by PID; then the bus; then any process still running in this session (its directory as
    /// `XDG_RUNTIME_DIR`); removes the directory. Safe to call more than once.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        func terminate(_ pid: pid_t) {
            kill(pid, SIGTERM)
            if !waitUntil(timeout: 2, interval: 0.02, { !isRunning(pid) }) { kill(pid, SIGKILL) }
        }
        for pid in descendants(of: bus.process.pid).reversed() where isRunning(pid) { terminate(pid) }
        bus.stop()
        // A service activated while the others were being stopped (the registry, started by the
        // accessibility bus on a late request) is not among the descendants found above, and once
        // its parent is gone it is nobody's descendant: it was once left running. Every process of
        // the session has the session's directory as XDG_RUNTIME_DIR.
        for _ in 0..<3 {
            let left = processes(withEnvironment: "XDG_RUNTIME_DIR=" + directory).filter(isRunning)
            if left.isEmpty { break }
            left.forEach(terminate)
        }
        removeTree(directory)
    }

    /// Stops the accessibility bus as a crash or a logout of the accessibility stack would: every
    /// service the session bus started (`at-spi-bus-launcher`, the accessibility bus's
    /// dbus-daemon, `at-spi2-registryd`), the deepest first, by PID; the session bus stays, and
    /// the next `org.a11y.Bus.GetAddress` on it starts them again.
    /// - Returns: the names (`comm`) of the processes stopped.
    @discardableResult
    public func stopAccessibilityServices() -> [String] {
        // The services are the bus's descendants; one whose parent went first is found by its
        // environment (every process of the session has its directory as XDG_RUNTIME_DIR).
        var names: [String] = []
        let session = processes(withEnvironment: "XDG_RUNTIME_DIR=" + directory)
        let pids = descendants(of: bus.process.pid).reversed() + session.filter { $0 != bus.process.pid }
        var seen = Set<pid_t>()
        for pid in pids where seen.insert(pid).inserted && isRunning(pid) {
            let stat = readProcFile("/proc/\(pid)/stat") ?? ""
            if let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"), open < close {
                names.append(String(stat[stat.index(after: open)..<close]))
            }
            kill(pid, SIGTERM)
            if !waitUntil(timeout: 2, interval: 0.02, { !isRunning(pid) }) { kill(pid, SIGKILL) }
        }
        return names
    }

    deinit { stop() }
}

/// The processes whose parent chain leads to `pid`, from /proc: its children first, then theirs …
public func descendants(of pid: pid_t) -> [pid_t] {
    var parents: [pid_t: [pid_t]] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let child = pid_t(name), let stat = readProcFile("/proc/\(name)/stat"),
              let close = stat.lastIndex(of: ")") else { continue }
        // "pid (comm) state ppid …": the comm may contain spaces and parentheses.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let ppid = pid_t(fields[1]) else { continue }
        parents[ppid, default: []].append(child)
    }
    var result: [pid_t] = []
    var generation = parents[pid] ?? []
    while !generation.isEmpty {
        result += generation
        generation = generation.flatMap { parents[$0] ?? [] }
    }
    return result
}

/// The processes whose environment, as they were started, holds `entry` (`NAME=value`), from
/// `/proc/<pid>/environ` (readable for this user's own processes).
public func processes(withEnvironment entry: String) -> [pid_t] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
        guard let pid = pid_t(name), pid != getpid(), let environ = readProcFile("/proc/\(name)/environ") else { return nil }
        return environ.split(separator: "\0").contains { $0 == entry } ? pid : nil
    }
}

/// Whether `pid` is a running process (a zombie is not).
public func isRunning(_ pid: pid_t) -> Bool {
    guard let stat = readProcFile("/proc/\(pid)/stat"),
          let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(after: close)...].split(separator: " ").first
    return state != nil && state != "Z"
}
