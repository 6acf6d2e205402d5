import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A check that failed, after step `step` (an index into the run's steps; -1: while setting up).
public struct FuzzFailure: Error, CustomStringConvertible {
    /// The check's name (`dim-alpha`, `event-order`, `routing`, …): shrinking keeps a sequence only
    /// while the same check still fails.
    public var kind: String
    public var message: String
    public var step: Int
    public init(kind: String, message: String, step: Int) { self.kind = kind; self.message = message; self.step = step }
    public var description: String { "\(kind): \(message)" }
}

/// Runs seeds of ``FuzzGenerator`` through a harness and reports the first failure with its seed,
/// a one-line replay command, the failing step and the sequence shrunk to what still fails.
///
/// Environment: `MODALKIT_FUZZ_SEED=N` runs seed N alone and prints every step with the state
/// after it; `MODALKIT_FUZZ_RUNS=N` sets how many seeds run (from `MODALKIT_FUZZ_FIRST_SEED`,
/// default 1). Without them the same seeds run every time (a test run is reproducible).
public struct FuzzRunner {
    /// The test class, for the replay command's `--filter`.
    public var filter: String
    /// How many seeds run without `MODALKIT_FUZZ_RUNS`: a few seconds of CPU in each build
    /// configuration (a debug build draws several times slower; seeds 1…N of a debug run are the
    /// first of a release run).
    public var defaultRuns: Int
    public var profile: FuzzGenerator.Profile

    public init(filter: String, runs: (debug: Int, release: Int), profile: FuzzGenerator.Profile = .host) {
        self.filter = filter
        #if DEBUG
        defaultRuns = runs.debug
        #else
        defaultRuns = runs.release
        #endif
        self.profile = profile
    }

    /// A run: the case, whether to print every step; returns the first failure, or nil.
    public typealias Execute = (_ fuzzCase: FuzzCase, _ verbose: Bool) -> FuzzFailure?

    /// What the seeds ran: how many, how many steps, the first failure's report (nil: none failed).
    public struct Outcome {
        public var runs = 0, steps = 0
        public var report: String?
    }

    public func run(_ execute: Execute) -> Outcome {
        let env = ProcessInfo.processInfo.environment
        var outcome = Outcome()
        let first: UInt64, count: UInt64
        var verbose = false
        for key in ["MODALKIT_FUZZ_SEED", "MODALKIT_FUZZ_RUNS", "MODALKIT_FUZZ_FIRST_SEED"] {
            if let v = env[key], UInt64(v) == nil {
                outcome.report = "\(key) must be a whole number from 0 to \(UInt64.max), got '\(v)'"
                return outcome
            }
        }
        if let s = env["MODALKIT_FUZZ_SEED"], let seed = UInt64(s) {
            (first, count) = (seed, 1)
            verbose = true
        } else {
            count = env["MODALKIT_FUZZ_RUNS"].flatMap(UInt64.init) ?? UInt64(defaultRuns)
            first = env["MODALKIT_FUZZ_FIRST_SEED"].flatMap(UInt64.init) ?? 1
        }
        FuzzCrashReport.install()
        defer { FuzzCrashReport.uninstall() }
        var i: UInt64 = 0
        while i < count {
            let seed = first &+ i
            i += 1
            let c = FuzzGenerator.makeCase(seed: seed, profile: profile)
            FuzzCrashReport.begin(filter: filter, seed: seed, replay: replayCommand(seed), steps: c.steps.count)
            if verbose {
                print("\(filter): seed \(seed)\n\(c.config)")
                fflush(stdout)
            }
            outcome.runs += 1
            outcome.steps += c.steps.count
            if let failure = execute(c, verbose) {
                FuzzCrashReport.begin(filter: filter, seed: seed, replay: replayCommand(seed) + " (while shrinking)",
                                      steps: c.steps.count)
                outcome.report = report(c, failure, execute)
                return outcome
            }
        }
        return outcome
    }

    public func replayCommand(_ seed: UInt64) -> String {
        #if DEBUG
        let configuration = ""
        #else
        let configuration = " -c release"
        #endif
        return "MODALKIT_FUZZ_SEED=\(seed) swift test\(configuration) --filter \(filter)"
    }

    private func report(_ c: FuzzCase, _ failure: FuzzFailure, _ execute: Execute) -> String {
        var lines = ["\(filter): seed \(c.seed) fails after step \(failure.step) of \(c.steps.count): \(failure)",
                     "replay: \(replayCommand(c.seed))"]
        if failure.step >= 0 && failure.step < c.steps.count { lines.append("failing step: \(c.steps[failure.step])") }
        lines.append(c.config.description)
        let (steps, last, tries) = shrink(c, failure, execute)
        lines.append("shrunk to \(steps.count) steps (\(tries) runs; the same check fails: \(last)):")
        for (i, s) in steps.enumerated() { lines.append(String(format: "%4d  ", i) + s.description) }
        return lines.joined(separator: "\n")
    }

    /// Delta debugging over the steps (Zeller's ddmin, by removal only): drops chunks of halving size
    /// while the same check still fails, within 3000 runs.
    private func shrink(_ c: FuzzCase, _ failure: FuzzFailure, _ execute: Execute) -> ([FuzzStep], FuzzFailure, Int) {
        var steps = failure.step >= 0 ? Array(c.steps.prefix(failure.step + 1)) : c.steps
        var best = failure
        var tries = 0
        var chunk = max(1, steps.count / 2)
        while tries < 3000 {
            var i = 0
            var progressed = false
            while i < steps.count && tries < 3000 {
                var candidate = steps
                candidate.removeSubrange(i..<min(i + chunk, steps.count))
                tries += 1
                var trial = c
                trial.steps = candidate
                if let f = execute(trial, false), f.kind == best.kind {
                    steps = f.step >= 0 ? Array(candidate.prefix(f.step + 1)) : candidate
                    best = f
                    progressed = true
                } else {
                    i += chunk
                }
            }
            if !progressed {
                if chunk == 1 { break }
                chunk = max(1, chunk / 2)
            }
        }
        return (steps, best, tries)
    }
}

// MARK: Crash report

/// What a trap (a precondition, an overflow, a bad unwrap) prints before the process dies: the
/// seed, the step and the replay command, written by a signal handler with `write(2)` only from
/// buffers prepared beforehand; the previous handlers (the Swift runtime's backtracer, or the
/// default) then run as before.
public enum FuzzCrashReport {
    private static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]
    private static let capacity = 2048
    static let prefix = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    static var prefixLength = 0
    static let suffix = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    static var suffixLength = 0
    static var step = -1
    static let digits = UnsafeMutablePointer<CChar>.allocate(capacity: 32)
    static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 6)
    static var installed = false

    static func copy(_ s: String, into buffer: UnsafeMutablePointer<CChar>) -> Int {
        let bytes = Array(s.utf8.prefix(capacity))
        for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
        return bytes.count
    }

    /// Prepares the message of seed `seed`.
    static func begin(filter: String, seed: UInt64, replay: String, steps: Int) {
        prefixLength = copy("\n\(filter): seed \(seed) crashed in step ", into: prefix)
        suffixLength = copy(" of \(steps)\nreplay: \(replay)\n", into: suffix)
        step = -1
    }

    /// The step about to run (index into the case's steps).
    public static func setStep(_ i: Int) { step = i }

    static func install() {
        guard !installed else { return }
        installed = true
        _ = (prefix, suffix, digits, previous, prefixLength, suffixLength, step)  // initialise the globals now
        for (i, sig) in signals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                FuzzCrashReport.write()
                FuzzCrashReport.uninstall()
                // A fault returns to the instruction, which faults again under the previous handler;
                // a raised signal (abort, trap) is raised again.
                if sig == SIGABRT || sig == SIGTRAP { raise(sig) }
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(sig, &action, previous + i)
        }
    }

    static func uninstall() {
        guard installed else { return }
        installed = false
        for (i, sig) in signals.enumerated() { sigaction(sig, previous + i, nil) }
    }

    private static func write() {
        _ = Glibc.write(2, prefix, prefixLength)
        var n = step < 0 ? 0 : step
        var count = 0
        repeat {
            digits[31 - count] = CChar(48 + n % 10)
            n /= 10
            count += 1
        } while n > 0 && count < 30
        _ = Glibc.write(2, digits + (32 - count), count)
        _ = Glibc.write(2, suffix, suffixLength)
    }
}
