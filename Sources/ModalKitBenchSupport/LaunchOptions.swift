// `modal-bench --launch`: launch time and resident memory of modal-demo against another client.

/// What `modal-bench --launch` measures and where.
public struct LaunchOptions: Equatable, Sendable {
    /// Where the clients are started.
    public enum Session: Equatable, Sendable {
        /// The Wayland session modal-bench runs in (`$WAYLAND_DISPLAY`); its seat is what it is.
        case current
        /// A private headless sway that modal-bench starts and stops, once per seat variant.
        case headless(seats: [SeatVariant])
    }

    /// The input devices on the private sway's seat.
    public enum SeatVariant: String, CaseIterable, Sendable {
        /// No input devices (`WLR_LIBINPUT_NO_DEVICES=1`, nothing else): clients get
        /// `wl_seat.capabilities(0)` and no keymap.
        case none
        /// A pointer and a keyboard (wayvnc's virtual devices): clients get a `wl_keyboard` and
        /// its keymap, and load it before drawing if they do so.
        case keyboard
    }

    /// The figures `--only` selects.
    public enum Measurement: String, CaseIterable, Sendable {
        /// exec → the first `wl_surface.commit` that puts a buffer on screen.
        case firstFrame = "first-frame"
        /// exec → exit of `PROGRAM --version`.
        case version
        /// Resident memory at rest.
        case memory
    }

    /// modal-demo's command (program and arguments before the ones modal-bench adds); nil: the
    /// modal-demo next to modal-bench, else the one on PATH.
    public var demo: [String]?
    /// The command modal-demo is compared with; nil: `foot --window-size-pixels=WxH`.
    public var versus: [String]?
    /// Interleaved pairs per figure (after one warm-up pair).
    public var runs: Int
    /// The window size: modal-demo's `--size`, the default `--vs` command's, and the private
    /// sway's output (where a lone tiled window gets exactly this size).
    public var size: BenchSize
    public var session: Session
    public var measurements: [Measurement]
    /// Also print the resident memory per mapped file (`/proc/PID/smaps`) at rest.
    public var mappings: Bool

    public static let defaultRuns = 20
    public static let runsRange = 1...10_000
    public static let defaultSize = BenchSize(width: 800, height: 600)
    /// Pairs measured for memory at rest, at most (resident memory varies little run to run).
    public static let memoryRuns = 3
    /// How long each client rests before its memory is read, seconds.
    public static let restSeconds = 1.0

    public init(demo: [String]? = nil, versus: [String]? = nil, runs: Int = LaunchOptions.defaultRuns,
                size: BenchSize = LaunchOptions.defaultSize, session: Session = .current,
                measurements: [Measurement] = Measurement.allCases, mappings: Bool = false) {
        self.demo = demo
        self.versus = versus
        self.runs = runs
        self.size = size
        self.session = session
        self.measurements = measurements
        self.mappings = mappings
    }

    /// The command modal-demo is compared with: `versus`, or foot at the window size.
    public var versusCommand: [String] { versus ?? ["foot", "--window-size-pixels=\(size)"] }

    /// Parses the arguments after the program name, `--launch` included (anywhere).
    /// - Throws: `BenchUsageError` naming the offending argument.
    public static func parse(_ args: [String]) throws -> LaunchOptions {
        var o = LaunchOptions()
        var runs: Int?, size: BenchSize?, headless = false, seats: [SeatVariant]?, only: [Measurement] = []
        var i = 0
        func value(_ option: String) throws -> String {
            i += 1
            guard i < args.count else { throw BenchUsageError("\(option) needs a value") }
            return args[i]
        }
        func command(_ option: String, _ text: String) throws -> [String] {
            let words = try ShellWords.split(text)
            guard !words.isEmpty else { throw BenchUsageError("\(option) needs a command, got '\(text)'") }
            return words
        }
        while i < args.count {
            let arg = args[i]
            var option = arg, inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                option = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            func argument() throws -> String { try inline ?? value(option) }
            func noValue() throws {
                guard inline == nil else { throw BenchUsageError("\(option) takes no value") }
            }
            switch option {
            case "--launch":
                try noValue()
            case "--vs":
                guard o.versus == nil else { throw BenchUsageError("--vs given twice") }
                o.versus = try command("--vs", try argument())
            case "--demo":
                guard o.demo == nil else { throw BenchUsageError("--demo given twice") }
                o.demo = try command("--demo", try argument())
            case "--runs":
                guard runs == nil else { throw BenchUsageError("--runs given twice") }
                let text = try argument()
                guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(text), runsRange.contains(n) else {
                    throw BenchUsageError("--runs needs a whole number in \(runsRange.lowerBound)...\(runsRange.upperBound), got '\(text)'")
                }
                runs = n
            case "--size":
                guard size == nil else { throw BenchUsageError("--size given twice (--launch measures one size)") }
                let s = try argument()
                guard let parsed = BenchSize(parsing: s) else {
                    throw BenchUsageError("--size needs WxH with each side 1...\(BenchSize.maximumSide) points, got '\(s)'")
                }
                size = parsed
            case "--headless":
                try noValue()
                headless = true
            case "--seat":
                guard seats == nil else { throw BenchUsageError("--seat given twice") }
                let v = try argument()
                switch v {
                case "both": seats = [.none, .keyboard]
                default:
                    guard let one = SeatVariant(rawValue: v) else {
                        throw BenchUsageError("--seat needs none, keyboard or both, got '\(v)'")
                    }
                    seats = [one]
                }
            case "--only":
                for word in try argument().split(separator: ",", omittingEmptySubsequences: false) {
                    guard let m = Measurement(rawValue: String(word)) else {
                        throw BenchUsageError("--only needs first-frame, version or memory (comma-separated), got '\(word)'")
                    }
                    if !only.contains(m) { only.append(m) }
                }
            case "--mappings":
                try noValue()
                o.mappings = true
            case "--style", "--variant", "--cycles", "--levels", "--drag", "--compositing":
                throw BenchUsageError("\(option) does not apply to --launch")
            case "--help", "-h":
                throw BenchUsageError("--help takes no other options")
            default:
                if arg.hasPrefix("-") { throw BenchUsageError("unknown option '\(arg)' (see --help)") }
                throw BenchUsageError("unexpected argument '\(arg)' (see --help)")
            }
            i += 1
        }
        if let seats {
            guard headless else {
                throw BenchUsageError("--seat needs --headless (in your own session the seat has the devices it has)")
            }
            o.session = .headless(seats: seats)
        } else if headless {
            o.session = .headless(seats: [.none, .keyboard])
        }
        o.runs = runs ?? defaultRuns
        o.size = size ?? defaultSize
        if !only.isEmpty { o.measurements = Measurement.allCases.filter(only.contains) }
        if o.mappings && !o.measurements.contains(.memory) {
            throw BenchUsageError("--mappings needs the memory measurement (--only memory)")
        }
        return o
    }
}
