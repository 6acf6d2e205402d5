import ModalKit

/// The version printed by `--version`.
public let modalDemoVersion = "0.2.0"

/// What the command line asked for (docs/design.md, command line).
public enum Command: Equatable, Sendable {
    case run(RunOptions)
    case render(RenderOptions)
    /// `dismiss-point`: the window's options; prints where a tap dismisses (``DismissPointCommand``).
    case dismissPoint(RunOptions)
    case listStyles
    /// `--describe-style NAME|PATH`: the style's name, path, ABI, summary and options.
    case describeStyle(String)
    /// `new-style NAME [--directory DIR]`: write a style package (``StyleTemplate``).
    case newStyle(NewStyleOptions)
    /// `preview`: the whole transition as an animated WebP, or a strip of frames as a PNG.
    case preview(PreviewOptions)
    /// `completion bash|zsh|fish`: print the shell's completion script (``ShellCompletion``).
    case completion(ShellCompletion.Shell)
    /// `pinentry [--style NAME|PATH] [--log-events]`: the pinentry Assuan protocol on stdin/stdout,
    /// each prompt an alert presented with the style (default `alert`); `--log-events` prints the
    /// prompts' `presented` and `dismissed` lines on stderr (stdout is the protocol's).
    case pinentry(style: String, logEvents: Bool)
    case help
    case version
}

/// Options shared by the window and `render`: which style, with which options.
public struct StyleSelection: Equatable, Sendable {
    /// A style name (searched on the style path) or a path (contains `/`). Default `inset-centered`.
    public var style = "inset-centered"
    /// `--style-option KEY=VALUE`, in order; a later key replaces an earlier one.
    public var options: [String: String] = [:]
    /// `--duration SECONDS`: shorthand for `--style-option duration=SECONDS` (giving both is a
    /// usage error, so that neither silently wins).
    public var duration: Double?

    public init() {}

    /// The options handed to the style, `--duration` as the `duration` option.
    public var effectiveOptions: [String: String] {
        var o = options
        if let d = duration { o["duration"] = String(d) }
        return o
    }
}

/// `--content`: what the first level presents.
public enum PresentedContentChoice: String, Equatable, Sendable, CaseIterable {
    /// The card: a title, a body and its Present another and Close buttons.
    case card
    /// A list of 40 rows that scrolls (wheel, touchpad, touch; on a sheet by UIKit's rule).
    case list
    /// An alert (ModalKitContent's `Alert`): "Delete file?", Cancel and a destructive Delete, the
    /// default; with no `--style`, the `alert` style.
    case alert
    /// An alert with one text field (focused) and Cancel / OK (the default), the `alert` style
    /// unless `--style` is given; `--secure` makes the field a password field.
    case form
}

/// `--compositing`: how the window composes its frames.
public enum CompositingChoice: String, Equatable, Sendable, CaseIterable {
    /// Sub-surfaces where the compositor offers `wl_subcompositor` and `wp_viewporter`, pixman otherwise.
    case auto
    /// The presenting view in the window's buffer, the dim and the presented view as sub-surfaces
    /// the compositor composes (exit 2 when it lacks a global that needs).
    case subsurface
    /// Every frame drawn by pixman into the window's buffer.
    case pixman
}

public struct RunOptions: Equatable, Sendable {
    /// The style of each level, in order (`--style` is repeatable: level n uses the n-th, the last
    /// one repeats); never empty.
    public var selections = [StyleSelection()]
    /// Level 1's style (`selections[0]`).
    public var selection: StyleSelection {
        get { selections[0] }
        set { selections[0] = newValue }
    }
    /// `--compositing` (default auto).
    public var compositing = CompositingChoice.auto
    /// `--content` (default card): what level 1 presents.
    public var content = PresentedContentChoice.card
    /// `--secure`: `--content form`'s field is a password field.
    public var secure = false
    /// The window size in points asked for when the compositor leaves it to the client.
    public var width = 480, height = 800
    public var logEvents = false
    /// `--reduced-motion`: reduce motion regardless of the desktop's setting.
    public var reducedMotion = false
    /// `--watch`: reload the style's plugin file when it changes (only for a style given by path).
    public var watch = false
    /// `--pause-at FRACTION`: presentations stop at this linear time fraction, 0...1
    /// (``DemoScene/pauseFraction``).
    public var pauseAt: Double?
    /// `--autoplay`: one hands-free cycle — present as soon as the window is on screen, dismiss
    /// once presented (for a compositor without input devices, or to watch a style).
    public var autoplay = false
    /// `--frame-time drawn|predicted`: animate each frame to the time it is drawn (default), or to
    /// its predicted presentation time from `wp_presentation` feedback.
    public var predictsPresentationTime = false

    public init() {}
}

public struct NewStyleOptions: Equatable, Sendable {
    /// The style's name, as checked by ``StyleTemplate/validateName(_:)``.
    public var name = ""
    /// `--directory DIR`: where the package goes (default: `./NAME`).
    public var directory: String?
    public init() {}
}

public struct PreviewOptions: Equatable, Sendable {
    public var selection = StyleSelection()
    /// The size in points (`--size`).
    public var width = 0, height = 0
    /// Buffer pixels per point (`--scale`, 0.5...8).
    public var scale = 1.0
    /// Frames per second of transition time (`--fps`, 1...120; default 30).
    public var fps = 30.0
    /// Seconds the presented and the dismissed frame are held (`--hold`, 0...10; default 0.5).
    public var hold = 0.5
    /// `--strip N`: write a one-row PNG of N evenly spaced frames (2...64) instead of the animation.
    public var strip: Int?
    /// `--output`: the WebP (or, with `--strip`, PNG) file to write.
    public var output = ""
    /// `--reduced-motion`: the reduced-motion frames.
    public var reducedMotion = false
    /// `--detent N`: the sheet comes to rest at its N-th detent (1-based, as `detent N` events).
    public var detent: Int?
    public init() {}
}

public struct RenderOptions: Equatable, Sendable {
    /// The style of each level; with more than one, `render` draws a stack: levels 1…n − 1
    /// presented, level n at `progress`. Never empty.
    public var selections = [StyleSelection()]
    /// Level 1's style (`selections[0]`).
    public var selection: StyleSelection {
        get { selections[0] }
        set { selections[0] = newValue }
    }
    /// The size in points (`--size`).
    public var width = 0, height = 0
    /// Buffer pixels per point: whole or fractional (`--scale`, 0.5...8).
    public var scale = 1.0
    /// `--progress`: the linear time fraction of the phase, 0...1 (the timing curve is applied to it,
    /// as to a live transition's time: the styles' hooks are told the eased progress).
    public var fraction = 0.0
    public var phase = TransitionPhase.present
    /// `--output`: the PNG file to write.
    public var output = ""
    /// `--reduced-motion`: draw the reduced-motion frame (the presented view cross-fading at its frame).
    public var reducedMotion = false
    /// `--drag DY`: instead of a transition frame, the frame of a scripted pointer drag of DY
    /// points on the presented view (`DemoScene.renderDrag(into:distance:)`), -10000...10000.
    public var drag: Double?
    /// `--detent N`: the sheet presented and resting at its N-th detent (1-based, as `detent N`
    /// events); with `--progress`, that frame of a transition that comes to rest there.
    public var detent: Int?
    /// `--content` (default card): what level 1 presents.
    public var content = PresentedContentChoice.card
    /// `--secure`: `--content form`'s field is a password field.
    public var secure = false
    /// `--scroll DY`: instead of a transition frame, the frame after the wheel scrolled the list
    /// (`--content list`) DY points down (`DemoScene.renderScroll(into:distance:)`), 0...100000.
    public var scroll: Double?

    public init() {}
}

/// A command-line mistake: printed as one line on stderr, exit status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// The one line to print (without the program name).
    public let description: String
    public init(_ message: String) { description = message }

    /// The exit status of a command-line mistake (a bad style or environment value too): 2.
    public static let exitStatus: Int32 = 2
}

/// `--help`'s text.
public let usageText = CommandTable.makeUsage()

/// Parses `arguments` (without the program name).
/// - Throws: `UsageError` naming the offending argument.
public func parseCommandLine(_ arguments: [String]) throws -> Command {
    var args = arguments[...]
    var subcommand = Subcommand.window
    if let first = args.first, !first.isEmpty, let named = Subcommand(rawValue: first) {
        subcommand = named
        args = args.dropFirst()
    }
    switch subcommand {
    case .newStyle: return try parseNewStyle(Array(args))
    case .completion: return try parseCompletion(Array(args))
    case .pinentry: return try parsePinentry(Array(args))
    default: break
    }
    let isRender = subcommand == .render, isPreview = subcommand == .preview
    let isDismissPoint = subcommand == .dismissPoint
    var preview = PreviewOptions()
    var describe: String?

    var selections = [StyleSelection()]
    var sawStyle = false
    var sawContentAlert = false
    var run = RunOptions()
    var render = RenderOptions()
    var sawSize = false, sawProgress = false, sawOutput = false
    var listStyles = false
    var duration: Double?

    func value(for flag: String, _ inline: String?) throws -> String {
        if let inline { return inline }
        guard let v = args.popFirst() else { throw UsageError("option \(flag) needs a value") }
        return v
    }

    while let raw = args.popFirst() {
        // Accept both "--flag value" and "--flag=value".
        var flag = raw
        var inline: String?
        if raw.hasPrefix("--"), let eq = raw.firstIndex(of: "=") {
            flag = String(raw[..<eq])
            inline = String(raw[raw.index(after: eq)...])
        }
        // The table says which subcommand takes which option, and whether it takes a value.
        guard let option = CommandTable.option(flag, in: subcommand) else {
            if raw.hasPrefix("-") {
                throw UsageError("unknown option '\(raw)'" + (isRender ? " for render" : isPreview ? " for preview" : "")
                                 + " (see --help)")
            }
            throw UsageError("unexpected argument '\(raw)' (see --help)")
        }
        if option.value == nil, inline != nil { throw UsageError("\(option.name) takes no value") }
        switch option.name {
        case "--help":
            return .help
        case "--version":
            return .version
        case "--list-styles":
            listStyles = true
        case "--describe-style":
            describe = try value(for: flag, inline)
        // dismiss-point takes the window's options, --watch too (the point is the style's as it is).
        case "--watch":
            run.watch = true
        case "--style":
            // An empty name is refused by the loader, whose message lists the available styles.
            // Repeatable: each --style after the first starts the next level; the --style-options
            // after it belong to it.
            let name = try value(for: flag, inline)
            if sawStyle { selections.append(StyleSelection()) }
            sawStyle = true
            selections[selections.count - 1].style = name
        case "--style-option":
            let kv = try value(for: flag, inline)
            guard let eq = kv.firstIndex(of: "="), eq != kv.startIndex else {
                throw UsageError("--style-option expects KEY=VALUE, got '\(kv)'")
            }
            // One rule: an option belongs to the --style before it. Before any, it would silently
            // belong to whichever style level 1 gets, so it is refused.
            guard sawStyle else {
                throw UsageError("--style-option \(kv) comes before any --style: an option belongs to the --style "
                                 + "before it (--style \(StyleSelection().style) --style-option \(kv))")
            }
            selections[selections.count - 1].options[String(kv[..<eq])] = String(kv[kv.index(after: eq)...])
        case "--duration":
            let text = try value(for: flag, inline)
            guard let d = Double(text), d.isFinite, d >= 0, d <= 10 else {
                throw UsageError("--duration expects seconds from 0 to 10, got '\(text)'")
            }
            for i in selections.indices { selections[i].duration = d }
            duration = d
        case "--size":
            let text = try value(for: flag, inline)
            let (w, h) = try parseSize(text)
            run.width = w; run.height = h
            render.width = w; render.height = h
            sawSize = true
        case "--log-events":
            run.logEvents = true
        case "--compositing":
            let text = try value(for: flag, inline)
            guard let c = CompositingChoice(rawValue: text) else {
                throw UsageError("--compositing expects auto, subsurface or pixman, got '\(text)'")
            }
            run.compositing = c
        case "--pause-at":
            let text = try value(for: flag, inline)
            guard let f = Double(text), f.isFinite, (0...1).contains(f) else {
                throw UsageError("--pause-at expects a linear time fraction from 0 to 1, got '\(text)'")
            }
            run.pauseAt = f
        case "--frame-time":
            switch try value(for: flag, inline) {
            case "drawn": run.predictsPresentationTime = false
            case "predicted": run.predictsPresentationTime = true
            case let text: throw UsageError("--frame-time expects drawn or predicted, got '\(text)'")
            }
        case "--autoplay":
            run.autoplay = true
        case "--reduced-motion":
            run.reducedMotion = true
            render.reducedMotion = true
            preview.reducedMotion = true
        case "--progress":
            let text = try value(for: flag, inline)
            guard let p = Double(text), p.isFinite, (0...1).contains(p) else {
                throw UsageError("--progress expects a number from 0 to 1, got '\(text)'")
            }
            render.fraction = p
            sawProgress = true
        case "--content":
            let text = try value(for: flag, inline)
            guard let c = PresentedContentChoice(rawValue: text) else {
                throw UsageError("--content expects card, list, alert or form, got '\(text)'")
            }
            run.content = c
            render.content = c
            sawContentAlert = c == .alert || c == .form
        case "--secure":
            run.secure = true
            render.secure = true
        case "--scroll":
            let text = try value(for: flag, inline)
            guard let d = Double(text), d.isFinite, (0...100000).contains(d) else {
                throw UsageError("--scroll expects points from 0 to 100000, got '\(text)'")
            }
            render.scroll = d
        case "--drag":
            let text = try value(for: flag, inline)
            guard let d = Double(text), d.isFinite, (-10000...10000).contains(d) else {
                throw UsageError("--drag expects points from -10000 to 10000, got '\(text)'")
            }
            render.drag = d
        case "--detent":
            let text = try value(for: flag, inline)
            guard let n = Int(text), (1...8).contains(n) else {
                throw UsageError("--detent expects a detent number from 1 to 8 (1 = the smallest), got '\(text)'")
            }
            render.detent = n
            preview.detent = n
        case "--phase":
            switch try value(for: flag, inline) {
            case "present": render.phase = .present
            case "dismiss": render.phase = .dismiss
            case let other: throw UsageError("--phase expects present or dismiss, got '\(other)'")
            }
        case "--scale":
            let text = try value(for: flag, inline)
            guard let s = Double(text), s.isFinite, (minRenderScale...maxRenderScale).contains(s) else {
                throw UsageError("--scale expects a number from 0.5 to 8 (e.g. 1, 1.25, 1.5, 2), got '\(text)'")
            }
            render.scale = s
            preview.scale = s
        case "--output":
            render.output = try value(for: flag, inline)
            if render.output.isEmpty { throw UsageError("--output needs a file name") }
            preview.output = render.output
            sawOutput = true
        case "--fps":
            let text = try value(for: flag, inline)
            guard let f = Double(text), f.isFinite, (1...120).contains(f) else {
                throw UsageError("--fps expects a number from 1 to 120, got '\(text)'")
            }
            preview.fps = f
        case "--hold":
            let text = try value(for: flag, inline)
            guard let h = Double(text), h.isFinite, (0...10).contains(h) else {
                throw UsageError("--hold expects seconds from 0 to 10, got '\(text)'")
            }
            preview.hold = h
        case "--strip":
            let text = try value(for: flag, inline)
            guard let n = Int(text), (2...64).contains(n) else {
                throw UsageError("--strip expects a number of frames from 2 to 64, got '\(text)'")
            }
            preview.strip = n
        default:
            preconditionFailure("\(option.name) is in CommandTable but not parsed")
        }
    }

    // --content alert without a --style: the alert style (UIKit's and libadwaita's alerts).
    if sawContentAlert, !sawStyle { selections[0].style = "alert" }
    // --duration applies to every level, also those whose --style came after it.
    if let d = duration { for i in selections.indices { selections[i].duration = d } }
    if duration != nil, selections.contains(where: { $0.options["duration"] != nil }) {
        throw UsageError("--duration and --style-option duration=... both set the duration; give one of them")
    }
    if isRender {
        if !sawSize { throw UsageError("render needs --size WxH") }
        if sawProgress && render.drag != nil { throw UsageError("render takes --progress or --drag, not both") }
        if render.scroll != nil {
            if render.content != .list { throw UsageError("render --scroll needs --content list (the card does not scroll)") }
            if sawProgress || render.drag != nil || render.detent != nil {
                throw UsageError("render takes --scroll alone, without --progress, --drag or --detent")
            }
            if selections.count > 1 { throw UsageError("render --scroll takes one --style") }
            sawProgress = true
        }
        if render.detent != nil && render.drag != nil { throw UsageError("render takes --detent or --drag, not both") }
        if render.detent != nil && selections.count > 1 { throw UsageError("render --detent takes one --style (a stack's detents are not drawn)") }
        // --detent alone: the sheet presented, at rest there.
        if !sawProgress && render.detent != nil { render.fraction = 1; sawProgress = true }
        if !sawProgress && render.drag == nil { throw UsageError("render needs --progress P") }
        if render.drag != nil && selections.count > 1 { throw UsageError("render --drag takes one --style (a drag of a stack is not drawn)") }
        if !sawOutput { throw UsageError("render needs --output FILE.png") }
        let (pw, ph) = Size(width: Double(render.width), height: Double(render.height)).pixelSize(scale: render.scale)
        if pw > maxRenderSide || ph > maxRenderSide || pw * ph > maxRenderPixels {
            throw UsageError("render of \(pw)x\(ph) buffer pixels is too large (at most \(maxRenderSide) per side and \(maxRenderPixels) pixels: --size times --scale)")
        }
        render.selections = selections
        return .render(render)
    }
    if isPreview {
        if !sawSize { throw UsageError("preview needs --size WxH") }
        if !sawOutput { throw UsageError("preview needs --output FILE") }
        preview.width = render.width; preview.height = render.height
        let (pw, ph) = Size(width: Double(preview.width), height: Double(preview.height)).pixelSize(scale: preview.scale)
        let stripWidth = pw * (preview.strip ?? 1)
        // libwebp's canvas is at most 16383 pixels a side (WEBP_MAX_DIMENSION).
        let side = preview.strip == nil ? 16383 : maxRenderSide
        if stripWidth > side || ph > side || stripWidth * ph > maxRenderPixels {
            throw UsageError("preview of \(stripWidth)x\(ph) pixels is too large (at most \(side) per side and \(maxRenderPixels) pixels: --size times --scale"
                             + (preview.strip == nil ? ")" : " times --strip)"))
        }
        guard selections.count == 1 else { throw UsageError("preview takes one --style") }
        preview.selection = selections[0]
        return .preview(preview)
    }
    if let describe {
        guard !listStyles else { throw UsageError("give --list-styles or --describe-style, not both") }
        return .describeStyle(describe)
    }
    if listStyles { return .listStyles }
    if run.watch, !selections[0].style.contains("/") {
        throw UsageError("--watch needs --style PATH (a plugin file, a value containing '/'), got '\(selections[0].style)'")
    }
    run.selections = selections
    return isDismissPoint ? .dismissPoint(run) : .run(run)
}

/// The command for `arguments` (without the program name) in `environment`: the parsed command
/// line, with `MODALKIT_REDUCED_MOTION=1` acting as `--reduced-motion` for the window, `render` and
/// `dismiss-point` (the variable is validated there, where the window's options are; `--help`,
/// `--version` and `--list-styles` do not read it).
/// - Throws: `UsageError` (exit status ``UsageError/exitStatus``) naming the offending argument or
///   variable.
public func resolveCommand(_ arguments: [String], environment: [String: String]) throws -> Command {
    let command = try parseCommandLine(arguments)
    switch command {
    case .run(var options):
        options.reducedMotion = try reducedMotionFromEnvironment(environment["MODALKIT_REDUCED_MOTION"])
            || options.reducedMotion
        return .run(options)
    case .render(var options):
        options.reducedMotion = try reducedMotionFromEnvironment(environment["MODALKIT_REDUCED_MOTION"])
            || options.reducedMotion
        return .render(options)
    case .dismissPoint(var options):
        options.reducedMotion = try reducedMotionFromEnvironment(environment["MODALKIT_REDUCED_MOTION"])
            || options.reducedMotion
        return .dismissPoint(options)
    case .preview(var options):
        options.reducedMotion = try reducedMotionFromEnvironment(environment["MODALKIT_REDUCED_MOTION"])
            || options.reducedMotion
        return .preview(options)
    case .help, .version, .listStyles, .describeStyle, .newStyle, .completion, .pinentry:
        return command
    }
}

/// `new-style NAME [--directory DIR]`.
func parseNewStyle(_ arguments: [String]) throws -> Command {
    var options = NewStyleOptions()
    var name: String?
    var args = arguments[...]
    while let raw = args.popFirst() {
        var flag = raw
        var inline: String?
        if raw.hasPrefix("--"), let eq = raw.firstIndex(of: "=") {
            flag = String(raw[..<eq]); inline = String(raw[raw.index(after: eq)...])
        }
        switch CommandTable.option(flag, in: .newStyle)?.name {
        case "--help": return .help
        case "--directory":
            guard let v = inline ?? args.popFirst() else { throw UsageError("option --directory needs a value") }
            guard !v.isEmpty else { throw UsageError("--directory needs a directory name") }
            options.directory = v
        default:
            if raw.hasPrefix("-") && (name != nil || raw.count > 1) {
                throw UsageError("unknown option '\(raw)' for new-style (see --help)")
            }
            guard name == nil else { throw UsageError("new-style takes one NAME, got '\(name!)' and '\(raw)'") }
            name = raw
        }
    }
    guard let name else { throw UsageError("new-style needs a NAME, e.g. modal-demo new-style side-drawer") }
    try StyleTemplate.validateName(name)
    options.name = name
    return .newStyle(options)
}

/// `completion SHELL`.
func parseCompletion(_ arguments: [String]) throws -> Command {
    if let first = arguments.first, CommandTable.option(first, in: .completion)?.name == "--help" { return .help }
    guard arguments.count == 1 else {
        throw UsageError("completion takes one shell: bash, zsh or fish" + (arguments.isEmpty ? "" : ", got '\(arguments.joined(separator: " "))'"))
    }
    guard let shell = ShellCompletion.Shell(rawValue: arguments[0]) else {
        throw UsageError("completion expects bash, zsh or fish, got '\(arguments[0])'")
    }
    return .completion(shell)
}

/// `pinentry [--style NAME|PATH] [--log-events]`, also taking the options gpg-agent and pinentry's users pass to
/// any pinentry (pinentry's `pinentry_parse_opts`): `--display`, `--ttyname`, `--ttytype`,
/// `--lc-ctype`, `--lc-messages`, `--timeout`, `--parent-wid`, `--colors` with a value,
/// `--no-global-grab`/`-g` and `--debug`/`-d` without; they are accepted and not used (a Wayland
/// prompt needs no tty or X display).
func parsePinentry(_ arguments: [String]) throws -> Command {
    var style = "alert", logEvents = false
    var args = arguments[...]
    let valued: Set<String> = ["--display", "--ttyname", "--ttytype", "--lc-ctype", "--lc-messages", "--timeout",
                               "--parent-wid", "--colors"]
    while let raw = args.popFirst() {
        var flag = raw
        var inline: String?
        if raw.hasPrefix("--"), let eq = raw.firstIndex(of: "=") {
            flag = String(raw[..<eq]); inline = String(raw[raw.index(after: eq)...])
        }
        if CommandTable.option(flag, in: .pinentry)?.name == "--help" { return .help }
        if flag == "--style" || valued.contains(flag) {
            guard let v = inline ?? args.popFirst() else { throw UsageError("option \(flag) needs a value") }
            if flag == "--style" {
                guard !v.isEmpty else { throw UsageError("--style needs a style name or path") }
                style = v
            }
        } else if raw == "--log-events" {
            logEvents = true
        } else if ["--no-global-grab", "-g", "--debug", "-d"].contains(raw) {
            continue
        } else {
            throw UsageError((raw.hasPrefix("-") ? "unknown option" : "unexpected argument") + " '\(raw)' for pinentry (see --help)")
        }
    }
    return .pinentry(style: style, logEvents: logEvents)
}

/// `render --scale` bounds: half a pixel per point (a zoomed-out preview) to 8 (beyond any display).
public let minRenderScale = 0.5, maxRenderScale = 8.0

/// Largest `render` output: 16384 buffer pixels per side, 64 Mi pixels (256 MiB of ARGB) in all,
/// so a render never asks for more memory than a small machine has (8K UHD is 33 Mi pixels).
public let maxRenderSide = 16384
public let maxRenderPixels = 1 << 26

/// Parses `WxH` in points, each 1...8192 (larger than any display's logical size).
public func parseSize(_ text: String) throws -> (Int, Int) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
          (1...8192).contains(w), (1...8192).contains(h) else {
        throw UsageError("--size expects WxH with each from 1 to 8192, got '\(text)'")
    }
    return (w, h)
}

/// `MODALKIT_REDUCED_MOTION`: "1" forces reduced motion on; "0", empty or unset force nothing
/// (then `--reduced-motion` and, for the window, the desktop's setting decide). Like a command-line
/// value, anything else is a usage error: one line, exit 2 — never silently ignored.
/// - Throws: `UsageError` naming the variable and the value.
public func reducedMotionFromEnvironment(_ value: String?) throws -> Bool {
    switch value {
    case nil, "", "0": return false
    case "1": return true
    case let other?:
        throw UsageError("MODALKIT_REDUCED_MOTION expects 1 or 0 (or unset), got '\(other)'")
    }
}
