import ModalKit
import ModalKitCommandLine

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
    /// `new-style NAME [--directory DIR]`: write a style package (`StyleTemplate`, in ModalKitStyleTemplate).
    case newStyle(NewStyleOptions)
    /// `preview`: the whole transition as an animated WebP, or a strip of frames as a PNG.
    case preview(PreviewOptions)
    /// `completion bash|zsh|fish`: print the shell's completion script (``ShellCompletion``).
    case completion(ShellCompletion.Shell)
    /// `pinentry [--style NAME|PATH [--style-option KEY=VALUE]...] [--log-events]`: the pinentry
    /// Assuan protocol on stdin/stdout, each prompt an alert presented with the style (default
    /// `alert`); `--log-events` prints the prompts' `presented` and `dismissed` lines on stderr
    /// (stdout is the protocol's).
    case pinentry(style: StyleSelection, logEvents: Bool)
    /// `ask KIND ...`: one prompt (``AskCommandLine``); a list's rows from stdin when none are given.
    case ask(AskPrompt)
    /// `--help` (or `-h`): the whole help (``usageText``) for the window, the subcommand's own
    /// (``CommandTable/usage(for:)``) after a subcommand, as `git SUB --help` narrows to SUB.
    case help(Subcommand)
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
    /// The style's name, as checked by ``StyleName/validate(_:)``.
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

/// A command-line mistake: printed as one line on stderr, exit status 2 (``UsageError/exitStatus``).
public typealias UsageError = ModalKitCommandLine.UsageError

/// `--help`'s text.
public let usageText = CommandTable.makeUsage()

/// Parses `arguments` (without the program name): the first names a subcommand, whose parser
/// (``CommandTable/subcommands``) reads the rest, or the window's parser reads them all.
/// - Throws: `UsageError` naming the offending argument.
public func parseCommandLine(_ arguments: [String]) throws -> Command {
    return try CommandTable.subcommands.parse(arguments)
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
    case .help, .version, .listStyles, .describeStyle, .newStyle, .completion, .pinentry, .ask:
        return command
    }
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
