// modal-bench's command line: its table of options (the command-line table modal-demo and
// modalkit-session use too), the parser of its measurement modes, and `--help` made from the table.
import ModalKitCommandLine

/// A window size in points (scale 1: one point = one buffer pixel).
public struct BenchSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// Largest side accepted by `--size`: 8K. Each size costs about ten full-window images of
    /// 4 × width × height bytes (three buffers, the presenting cache, the reference's five).
    public static let maximumSide = 8192

    /// The default sizes of the frame benchmark: 720p, 1080p and 4K.
    public static let defaults = [BenchSize(width: 1280, height: 720), BenchSize(width: 1920, height: 1080),
                                  BenchSize(width: 3840, height: 2160)]
    /// The default size of `--cycles` (small, so that 1000 cycles stay quick).
    public static let cyclesDefault = BenchSize(width: 1280, height: 720)

    /// `WxH`, e.g. `1920x1080`.
    public var description: String { "\(width)x\(height)" }
    public var pixels: Int { width * height }

    /// Parses `WxH` (decimal, each side 1...`maximumSide`); nil otherwise.
    public init?(parsing text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let w = Int(parts[0]), let h = Int(parts[1]),
              (1...BenchSize.maximumSide).contains(w), (1...BenchSize.maximumSide).contains(h)
        else { return nil }
        self.init(width: w, height: h)
    }
}

/// What the benchmark draws on top of each style (`--variant`), so that the chrome's cost is
/// measured against the plain frame in the same run.
public enum BenchVariant: String, CaseIterable, Sendable {
    /// The style with a solid dim of its own colour and alpha and no shadow (the 1.0 frame).
    case solid
    /// The same dim as a vertical gradient: transparent at the top edge to the style's dim colour
    /// half-way down, then constant.
    case gradient
    /// The solid dim and a soft drop shadow under the presented view (black 0.35, offset 0,4,
    /// blur 16 points).
    case shadow
    /// The solid dim, and the presenting view recedes while covered: scaled by 1 − 0.08 × progress
    /// about its centre, moved down 10 × progress points, corners rounded to 10 × progress points,
    /// over black (a page sheet's recede).
    case recede
}

/// Which backend's client work `modal-bench --compositing` measures.
public enum BenchCompositing: String, Equatable, Sendable, CaseIterable {
    /// The whole frame rendered by pixman into the window's buffer.
    case pixman
    /// The client's share of a sub-surface frame (the compositor blends the layers).
    case subsurface
}

/// What `modal-bench` was asked to do.
public enum BenchCommand: Equatable {
    /// Frame timing: every frame of `runs` present + dismiss sequences per style, size and variant.
    case frames(styles: [String], sizes: [BenchSize], runs: Int, variants: [BenchVariant] = [.solid])
    /// Memory: `cycles` present/dismiss cycles per style, size and variant, RSS after the first and the last.
    case cycles(styles: [String], sizes: [BenchSize], cycles: Int, variants: [BenchVariant] = [.solid])
    /// Memory of stacks: `cycles` cycles per style and size, each presenting `levels` (≥ 2) levels
    /// one over the other (the card's Present another) and dismissing them from the top.
    case stackCycles(styles: [String], sizes: [BenchSize], cycles: Int, levels: Int)
    /// Frame timing while dragging: `runs` scripted drags (present, drag 40 % and release, drag
    /// 70 % and release) per style and size, every drag frame timed.
    case drags(styles: [String], sizes: [BenchSize], runs: Int)
    /// Frame timing while scrolling: `runs` scripted scrolls of the demo's list (`--content list`:
    /// touchpad fingers, their deceleration, the wheel back) per style and size, every frame timed.
    case scrolls(styles: [String], sizes: [BenchSize], runs: Int)
    /// Reload cost: `count` reloads per style as `modal-demo --watch` makes them (a private copy
    /// of the library loaded, a style made from it, the previous one released); resident and
    /// mapped memory after the first and the last.
    case reloads(styles: [String], count: Int)
    /// Launch and footprint: modal-demo against another client, in interleaved pairs.
    case launch(LaunchOptions)
    case help
    /// Shaped text: drawing lines through ModalKitText in each shaping mode, `runs` timed draws of
    /// each line (cached and newly shaped).
    case text(runs: Int)
    /// Text entry: the demo's form (an alert with a focused text field) per style and size,
    /// `runs` runs of typed characters (key press → the frame that shows it, allocations per
    /// character) and of a 10,000-character paste (Ctrl+V → the frame that shows it).
    case textEntry(styles: [String], sizes: [BenchSize], runs: Int)
}

/// A command-line mistake: one line on stderr, exit status 2.
public typealias BenchUsageError = UsageError

/// The part of modal-bench's command line an option belongs to: the measurements of the frame
/// pipeline (frames, drags, scrolls, cycles, reloads, text) or `--launch`'s.
public enum BenchMode: Hashable, Sendable {
    case pipeline
    case launch
}

/// What modal-bench was asked to do, and with `--compositing`, the backends whose frames it times
/// side by side.
public struct BenchRequest: Equatable {
    public var command: BenchCommand
    /// `--compositing pixman|subsurface|both`: nil without it.
    public var backends: [BenchCompositing]?
}

public enum BenchOptions {
    /// The built-in styles, benchmarked when no `--style` is given.
    public static let defaultStyles = ["inset-centered", "bottom-sheet"]
    /// `--text-entry`'s style when no `--style` is given: the form's, as in `modal-demo --content form`.
    public static let textEntryStyles = ["alert"]
    /// `--text-entry`'s size when no `--size` is given (modal-demo's default window).
    public static let textEntrySize = BenchSize(width: 800, height: 600)
    public static let defaultRuns = 10
    public static let runsRange = 1...10_000
    public static let cyclesRange = 1...1_000_000
    public static let levelsRange = 1...16
    /// `--reloads N`: at least two (the cost per reload is the growth from the first to the last).
    public static let reloadsRange = 2...10_000

    static let synopsis = """
    Usage:
      modal-bench [--style NAME|PATH]... [--size WxH]... [--variant V]... [--runs N] [--compositing MODE]
      modal-bench --drag [--style NAME|PATH]... [--size WxH]... [--runs N]
      modal-bench --scroll [--style NAME|PATH]... [--size WxH]... [--runs N]
      modal-bench --cycles N [--style NAME|PATH]... [--size WxH]... [--variant V]...
      modal-bench --cycles N --levels L [--style NAME|PATH]... [--size WxH]...
      modal-bench --reloads N [--style NAME|PATH]...
      modal-bench --launch [--vs COMMAND] [--demo COMMAND] [--runs N] [--size WxH]
                  [--headless [--seat none|keyboard|both]] [--only WHAT[,WHAT]...] [--mappings]
      modal-bench --text [--runs N]
      modal-bench --text-entry [--style NAME|PATH]... [--size WxH]... [--runs N]
      modal-bench --help

    Renders every frame of a present + dismiss at 60 Hz (t = k/60 s) offscreen through
    DemoScene.render, into three buffers used round-robin with their buffer ages, and prints per
    style and size: median and p99 frame time, the reference (one full-window pixman SRC blit plus
    one 50 % black OVER fill, measured in the same run), the line `ratio <median/reference>`,
    damaged and painted pixels per frame, and heap allocations per frame (malloc and friends,
    counted in the whole process, libswiftCore and pixman included).

    Launch and footprint (--launch): modal-demo against another client, in interleaved pairs
    (A, B, A, B …, after one warm-up pair) so both share the machine's load; for each figure the
    min, median and max of each, and the median of the per-pair ratios A/B:
      first-frame  exec → the first wl_surface.commit that puts the window's first buffer on
                   screen, read from the client's WAYLAND_DEBUG=1 lines (the exec time is taken
                   just before posix_spawn starts it, on libwayland's clock), with the phases exec →
                   first request → first configure → first frame, and the CPU time of its
                   threads up to then (with the time they waited for a CPU); then the client
                   is stopped (SIGTERM, SIGKILL after 3 s)
      version      exec → exit of `PROGRAM --version` for both programs, and their CPU time
      memory       VmRSS, RssAnon, RssFile, RssShmem (/proc/PID/status) and Pss (smaps_rollup)
                   at rest: modal-demo 1 s after --autoplay's present and dismiss (its
                   `dismissed` event), the other client 1 s after its first frame (3 pairs)
    """

    static let epilogue = """
    Styles are loaded through the style path ($MODALKIT_STYLE_PATH, then the directory of the
    executable): build the plugins first, `swift build -c release && swift run -c release modal-bench`.
    Exit status: 0 measured; 2 bad command line or style, or a program to compare not found;
    1 runtime failure (a client ended or showed nothing within 30 s); 130 interrupted.
    """

    static let launchSection = "Options of --launch:"

    /// Every option of modal-bench, in `--help`'s order within each section.
    public static let table = OptionTable<BenchMode>([
        CommandOption("--style", "NAME|PATH", completion: .style, in: [.pipeline],
                      "a style found on the style path by name, or a plugin file (a value",
                      "containing '/'); repeatable. Default: inset-centered and bottom-sheet."),
        CommandOption("--size", "WxH", in: [.pipeline],
                      "window size in points at scale 1, each side 1...8192; repeatable.",
                      "Default: 1280x720, 1920x1080 and 3840x2160 (--cycles: 1280x720)."),
        CommandOption("--variant", "V", completion: .words(BenchVariant.allCases.map(\.rawValue) + ["all"]), in: [.pipeline],
                      "solid, gradient, shadow, recede or all; repeatable. Draws each style",
                      "with a solid dim and no shadow (solid), its dim as a vertical",
                      "gradient (gradient), with a soft drop shadow (shadow), or with the",
                      "presenting view receding under it (recede), and prints each",
                      "variant's median against the solid one's. Default: solid."),
        CommandOption("--compositing", "MODE", completion: .words(["pixman", "subsurface", "both"]), in: [.pipeline],
                      "pixman, subsurface or both: instead of the frame table, time per",
                      "frame each backend's client work — pixman: the whole frame rendered",
                      "(DemoScene.render); subsurface: only what modal-demo's sub-surface",
                      "frame does besides its Wayland requests, through the window's own",
                      "policy (ModalKitWayland's LayerComposer) over offscreen layers (the",
                      "frame's layer values, the presenting view only when it changed, the",
                      "presented view's own buffer only when its content or size changed, or",
                      "every frame for an alpha or a scale; the whole frame by pixman where",
                      "the layers cannot show it, e.g. a receding presenting view) — with",
                      "thread CPU time, side by side (each --variant)"),
        CommandOption("--runs", "N", in: [.pipeline],
                      "present + dismiss sequences timed per style and size, after one",
                      "warm-up sequence (default 10)"),
        CommandOption("--drag", in: [.pipeline],
                      "scripted-drag mode: per run, present, then a pointer drag on the",
                      "presented view down 40 % of its way out in 0.5 s (three motion events",
                      "per 60 Hz frame), held, released (it springs back), then 70 %",
                      "(dismissed); every drag frame timed, allocations counted over each",
                      "frame's input events and render"),
        CommandOption("--scroll", in: [.pipeline],
                      "scripted-scroll mode: per run, present the demo's list of 40 rows,",
                      "scroll it with touchpad fingers for 0.5 s (three axis events per 60 Hz",
                      "frame), lift them (the host decelerates it until it rests), then turn",
                      "the wheel back up a step per frame to the top; every frame timed,",
                      "allocations counted over each frame's input events and render"),
        CommandOption("--cycles", "N", in: [.pipeline],
                      "memory mode: N present/dismiss cycles per style and size; prints",
                      "peak RSS (VmHWM) and RSS (VmRSS) after cycle 1 and after cycle N"),
        CommandOption("--levels", "L", in: [.pipeline],
                      "with --cycles: each cycle presents a stack of L levels (1...16; each",
                      "over the last by the card's Present another) and dismisses them from",
                      "the top (default 1)"),
        CommandOption("--reloads", "N", in: [.pipeline],
                      "reload-cost mode: N reloads per style as modal-demo --watch makes",
                      "them (a private copy loaded, a style made, the previous released);",
                      "prints RSS (VmRSS) and mapped address space (VmSize) after reload 1",
                      "and reload N, and the cost per reload"),
        CommandOption("--text", in: [.pipeline],
                      "shaped-text mode: lines drawn through ModalKitText in each shaping",
                      "mode, --runs timed draws of each line (cached and newly shaped)"),
        CommandOption("--text-entry", in: [.pipeline],
                      "text-entry mode: modal-demo's form (an alert whose text field has",
                      "focus; default style alert, size 800x600) presented offscreen; per",
                      "run, 41 characters typed one per 60 Hz frame (press and release,",
                      "the field's text-input state read as the window does, the frame",
                      "rendered), then the text cleared and 10,000 characters pasted with",
                      "Ctrl+V; after the runs, one line of words never typed before. Then",
                      "all of it again in the form's password field (--secure). Prints key",
                      "press → rendered frame (ms; the frame after the key must show the",
                      "character: 'next frame' counts those that did), heap allocations per",
                      "typed character after a warm-up run and on the line of new words, and",
                      "the paste's key → frame time"),
        CommandOption("--help", alias: "-h", in: [.pipeline, .launch], "this text"),

        CommandOption("--launch", in: [.launch], section: launchSection,
                      "launch and footprint of modal-demo against another client (above)"),
        CommandOption("--vs", "COMMAND", in: [.launch], section: launchSection,
                      "the client to compare with, one argument split as a shell would",
                      "(quotes, no expansions). Default: foot --window-size-pixels=WxH"),
        CommandOption("--demo", "COMMAND", in: [.launch], section: launchSection,
                      "modal-demo's program and arguments (default: the modal-demo next to",
                      "modal-bench, else on PATH); modal-bench adds --size WxH (and",
                      "--autoplay --log-events for memory). Measure a release build"),
        CommandOption("--runs", "N", in: [.launch], section: launchSection,
                      "interleaved pairs per figure, 1...10000 (default 20)"),
        CommandOption("--size", "WxH", in: [.launch], section: launchSection,
                      "the window size (default 800x600): modal-demo's --size, the default",
                      "foot's, and the private sway's output"),
        CommandOption("--headless", in: [.launch], section: launchSection,
                      "start a private headless sway (WLR_RENDERER=pixman, one WxH output, no",
                      "gaps, so a lone tiled window is exactly WxH) and stop it at the end;",
                      "as root, sway runs as the user modalkit-test if it exists, else nobody.",
                      "Without it the clients run in your session ($WAYLAND_DISPLAY)"),
        CommandOption("--seat", "S", completion: .words(["none", "keyboard", "both"]), in: [.launch], section: launchSection,
                      "with --headless: none (no input devices), keyboard (wayvnc gives the",
                      "seat a pointer and a keyboard: clients load a keymap), or both, one",
                      "after the other (default both)"),
        CommandOption("--only", "WHAT", completion: .words(LaunchOptions.Measurement.allCases.map(\.rawValue)), in: [.launch],
                      section: launchSection,
                      "first-frame, version, memory (comma-separated or repeated; default all)"),
        CommandOption("--mappings", in: [.launch], section: launchSection,
                      "also print each client's resident memory by kind and per mapped",
                      "file (/proc/PID/smaps)"),
    ])

    /// `--help`'s text, made from ``table``.
    public static let usage = ([synopsis, ""] + table.helpLines([HelpSection("Options:"), HelpSection(launchSection)], column: 22)
                               + ["", epilogue]).joined(separator: "\n")

    /// The command the arguments after the program name ask for (``parseRequest(_:)``'s, without
    /// `--compositing`'s backends).
    /// - Throws: `UsageError` naming the offending argument.
    public static func parse(_ args: [String]) throws -> BenchCommand { try parseRequest(args).command }

    /// Parses the arguments after the program name: `--launch` anywhere selects launch's options
    /// (``LaunchOptions``), otherwise the frame pipeline's.
    /// - Throws: `UsageError` naming the offending argument.
    public static func parseRequest(_ args: [String]) throws -> BenchRequest {
        if args.contains("--launch") {
            var scanner = LaunchOptions.scanner(args)
            guard let options = try LaunchOptions.parse(&scanner) else { return BenchRequest(command: .help) }
            return BenchRequest(command: .launch(options))
        }
        var scanner = ArgumentScanner(args[...], table: table, command: .pipeline)
        var styles: [String] = []
        var sizes: [BenchSize] = []
        var runs: Int?
        var cycles: Int?
        var levels: Int?
        var drag = false, scroll = false, text = false, textEntry = false
        var reloads: Int?
        var variants: [BenchVariant] = []
        var backends: [BenchCompositing]?
        while let (option, value) = try scanner.nextOption() {
            switch option.name {
            case "--help":
                return BenchRequest(command: .help)
            case "--style":
                guard !value.isEmpty else { throw UsageError("--style needs a name or a path, got ''") }
                styles.append(value)
            case "--size":
                sizes.append(try BenchSize.parsing(value, for: option))
            case "--variant":
                let chosen: [BenchVariant]
                if value == "all" {
                    chosen = BenchVariant.allCases
                } else if let one = BenchVariant(rawValue: value) {
                    chosen = [one]
                } else {
                    throw UsageError("--variant needs solid, gradient, shadow, recede or all, got '\(value)'")
                }
                for c in chosen where !variants.contains(c) { variants.append(c) }
            case "--compositing":
                backends = try once(backends, option) {
                    try oneOrBoth(value, [.pixman, .subsurface], for: option, expects: "pixman, subsurface or both")
                }
            case "--runs": runs = try once(runs, option) { try count(option, value, runsRange) }
            case "--levels": levels = try once(levels, option) { try count(option, value, levelsRange) }
            case "--cycles": cycles = try once(cycles, option) { try count(option, value, cyclesRange) }
            case "--reloads": reloads = try once(reloads, option) { try count(option, value, reloadsRange) }
            case "--drag": drag = true
            case "--scroll": scroll = true
            case "--text": text = true
            case "--text-entry": textEntry = true
            default:
                preconditionFailure("\(option.name) is in BenchOptions.table but not parsed")
            }
        }
        let command: BenchCommand
        if textEntry {
            guard !text, cycles == nil, levels == nil, reloads == nil, !drag, !scroll, variants.isEmpty else {
                throw UsageError("--text-entry takes only --style, --size and --runs")
            }
            command = .textEntry(styles: styles.isEmpty ? textEntryStyles : styles, sizes: sizes.isEmpty ? [textEntrySize] : sizes,
                                 runs: runs ?? defaultRuns)
        } else {
            command = try mode(styles: styles, sizes: sizes, runs: runs, cycles: cycles, levels: levels, drag: drag,
                               scroll: scroll, text: text, reloads: reloads, variants: variants)
        }
        if backends != nil {
            let mode: String?
            switch command {
            case .frames: mode = nil
            case .cycles, .stackCycles: mode = "--cycles"
            case .drags: mode = "--drag"
            case .scrolls: mode = "--scroll"
            case .reloads: mode = "--reloads"
            case .text: mode = "--text"
            case .textEntry: mode = "--text-entry"
            case .launch, .help: mode = nil
            }
            if let mode { throw UsageError("--compositing does not apply to \(mode)") }
        }
        return BenchRequest(command: command, backends: backends)
    }

    /// The measurement the options ask for, and the mistakes of combining them.
    private static func mode(styles: [String], sizes: [BenchSize], runs: Int?, cycles: Int?, levels: Int?, drag: Bool,
                             scroll: Bool, text: Bool, reloads: Int?, variants: [BenchVariant]) throws -> BenchCommand {
        var styles = styles, variants = variants
        if text {
            guard cycles == nil, levels == nil, reloads == nil, !drag, !scroll, styles.isEmpty, sizes.isEmpty, variants.isEmpty else {
                throw UsageError("--text takes only --runs")
            }
            return .text(runs: runs ?? defaultRuns)
        }
        if styles.isEmpty { styles = defaultStyles }
        if let n = reloads {
            guard cycles == nil, runs == nil, levels == nil, !drag, !scroll, variants.isEmpty, sizes.isEmpty else {
                throw UsageError("--reloads takes only --style")
            }
            return .reloads(styles: styles, count: n)
        }
        if variants.isEmpty { variants = [.solid] }
        if let n = cycles {
            guard runs == nil else { throw UsageError("--runs does not apply to --cycles") }
            guard !drag else { throw UsageError("--drag does not apply to --cycles") }
            guard !scroll else { throw UsageError("--scroll does not apply to --cycles") }
            if let l = levels, l > 1 {
                guard variants == [.solid] else { throw UsageError("--levels takes no --variant") }
                return .stackCycles(styles: styles, sizes: sizes.isEmpty ? [BenchSize.cyclesDefault] : sizes, cycles: n,
                                    levels: l)
            }
            return .cycles(styles: styles, sizes: sizes.isEmpty ? [BenchSize.cyclesDefault] : sizes, cycles: n,
                           variants: variants)
        }
        guard levels == nil else { throw UsageError("--levels applies to --cycles only") }
        if scroll {
            guard !drag else { throw UsageError("--scroll and --drag are separate modes; give one") }
            guard variants == [.solid] else { throw UsageError("--variant does not apply to --scroll") }
            return .scrolls(styles: styles, sizes: sizes.isEmpty ? BenchSize.defaults : sizes, runs: runs ?? defaultRuns)
        }
        if drag {
            guard variants == [.solid] else { throw UsageError("--variant does not apply to --drag") }
            return .drags(styles: styles, sizes: sizes.isEmpty ? BenchSize.defaults : sizes, runs: runs ?? defaultRuns)
        }
        return .frames(styles: styles, sizes: sizes.isEmpty ? BenchSize.defaults : sizes, runs: runs ?? defaultRuns,
                       variants: variants)
    }

    /// A whole number of `option` in `range` (digits only: no sign, no spaces).
    /// - Throws: `UsageError` `NAME needs a whole number in A...B, got 'TEXT'`.
    static func count(_ option: CommandOption<BenchMode>, _ text: String, _ range: ClosedRange<Int>) throws -> Int {
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(text), range.contains(n) else {
            throw UsageError("\(option.name) needs a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return n
    }

    /// `value` as one case of `T`, or `both`: the cases `both` lists.
    /// - Throws: `UsageError` `NAME needs EXPECTS, got 'VALUE'`.
    static func oneOrBoth<T: RawRepresentable>(_ value: String, _ both: [T], for option: CommandOption<BenchMode>,
                                               expects: String) throws -> [T] where T.RawValue == String {
        if value == "both" { return both }
        guard let one = T(rawValue: value) else { throw UsageError("\(option.name) needs \(expects), got '\(value)'") }
        return [one]
    }

    /// The value of an option given at most once.
    /// - Throws: `UsageError` `NAME given twice` when `current` is already set.
    static func once<T>(_ current: T?, _ option: CommandOption<BenchMode>, _ parse: () throws -> T) throws -> T {
        guard current == nil else { throw UsageError("\(option.name) given twice") }
        return try parse()
    }
}

extension BenchSize {
    /// `text` as the value of `option` (`--size`).
    /// - Throws: `UsageError` `--size needs WxH with each side 1...8192 points, got 'TEXT'`.
    static func parsing(_ text: String, for option: CommandOption<BenchMode>) throws -> BenchSize {
        guard let size = BenchSize(parsing: text) else {
            throw UsageError("\(option.name) needs WxH with each side 1...\(BenchSize.maximumSide) points, got '\(text)'")
        }
        return size
    }
}

extension BenchRequest {
    init(command: BenchCommand) { self.init(command: command, backends: nil) }
}
