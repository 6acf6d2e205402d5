// `modal-bench --launch`: launch time and resident memory of modal-demo against another client.
import ModalKitCommandLine

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
    /// - Throws: `UsageError` naming the offending argument (`--help` too: it takes no other options).
    public static func parse(_ args: [String]) throws -> LaunchOptions {
        var scanner = scanner(args)
        guard let options = try parse(&scanner) else { throw UsageError("--help takes no other options") }
        return options
    }

    /// A scanner of `args` over modal-bench's table, for launch's options: an option of the
    /// other measurements is refused as `NAME does not apply to --launch`.
    static func scanner(_ args: [String]) -> ArgumentScanner<BenchMode> {
        var scanner = ArgumentScanner(args[...], table: BenchOptions.table, command: .launch)
        let unknown = scanner.refuse
        scanner.refuse = { argument, name in
            BenchOptions.table.names(name) ? UsageError("\(name) does not apply to --launch") : unknown(argument, name)
        }
        return scanner
    }

    /// Launch's options read by `scanner`, or nil for `--help`.
    /// - Throws: `UsageError` naming the offending argument.
    static func parse(_ scanner: inout ArgumentScanner<BenchMode>) throws -> LaunchOptions? {
        var o = LaunchOptions()
        var runs: Int?, size: BenchSize?, headless = false, seats: [SeatVariant]?, only: [Measurement] = []
        func command(_ option: CommandOption<BenchMode>, _ text: String) throws -> [String] {
            let words = try ShellWords.split(text)
            guard !words.isEmpty else { throw UsageError("\(option.name) needs a command, got '\(text)'") }
            return words
        }
        while let (option, value) = try scanner.nextOption() {
            switch option.name {
            case "--help": return nil
            case "--launch": break
            case "--vs": o.versus = try BenchOptions.once(o.versus, option) { try command(option, value) }
            case "--demo": o.demo = try BenchOptions.once(o.demo, option) { try command(option, value) }
            case "--runs": runs = try BenchOptions.once(runs, option) { try BenchOptions.count(option, value, runsRange) }
            case "--size":
                guard size == nil else { throw UsageError("--size given twice (--launch measures one size)") }
                size = try BenchSize.parsing(value, for: option)
            case "--headless": headless = true
            case "--seat":
                seats = try BenchOptions.once(seats, option) {
                    try BenchOptions.oneOrBoth(value, [.none, .keyboard], for: option, expects: "none, keyboard or both")
                }
            case "--only":
                for word in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let m = Measurement(rawValue: String(word)) else {
                        throw UsageError("--only needs first-frame, version or memory (comma-separated), got '\(word)'")
                    }
                    if !only.contains(m) { only.append(m) }
                }
            case "--mappings": o.mappings = true
            default: preconditionFailure("\(option.name) is in BenchOptions.table but not parsed")
            }
        }
        if let seats {
            guard headless else {
                throw UsageError("--seat needs --headless (in your own session the seat has the devices it has)")
            }
            o.session = .headless(seats: seats)
        } else if headless {
            o.session = .headless(seats: [.none, .keyboard])
        }
        o.runs = runs ?? defaultRuns
        o.size = size ?? defaultSize
        if !only.isEmpty { o.measurements = Measurement.allCases.filter(only.contains) }
        if o.mappings && !o.measurements.contains(.memory) {
            throw UsageError("--mappings needs the memory measurement (--only memory)")
        }
        return o
    }
}
