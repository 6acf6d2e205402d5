/// The one table of `modal-demo`'s command line: its subcommands, every option with the
/// subcommands that take it, its value and help text. Each subcommand's parser
/// (``CommandTable/subcommands``, through ``parseCommandLine(_:)``) reads its arguments against
/// it, and `--help` (``usageText``), README's synopsis, the shell completions
/// (``ShellCompletion``) and the manual page's option list are made from it, so that none of them
/// can name an option the others lack.
import ModalKitCommandLine

/// A subcommand of `modal-demo` (the first argument), or the window (no subcommand).
public enum Subcommand: String, CaseIterable, Sendable {
    /// No subcommand: the window (also `--list-styles`, `--describe-style`, `--help`, `--version`).
    case window = ""
    case render
    case preview
    case dismissPoint = "dismiss-point"
    case newStyle = "new-style"
    case completion
    /// `pinentry`: the pinentry Assuan protocol on standard input and output.
    case pinentry
    /// `ask KIND`: one prompt (zenity's dialogs), its answer on stdout and as the exit status.
    case ask
}

/// One row of `modal-demo`'s command-line table (the shared table type, over ``Subcommand``).
public typealias CommandOption = ModalKitCommandLine.CommandOption<Subcommand>

/// The command-line table and what is made from it.
public enum CommandTable {
    static let windowLike: Set<Subcommand> = [.window, .dismissPoint]
    static let styled: Set<Subcommand> = [.window, .dismissPoint, .render, .preview]

    /// The synopsis: `--help`'s first lines and README's "Command line" block.
    public static let synopsis = """
    modal-demo [--style NAME|PATH [--style-option KEY=VALUE]...]... [--size WxH] [--duration SECONDS]
               [--reduced-motion] [--pause-at FRACTION] [--autoplay] [--log-events] [--content card|list|alert|form]
               [--secure] [--compositing auto|subsurface|pixman] [--frame-time drawn|predicted]
    modal-demo --style PATH --watch [the window's options]
    modal-demo --list-styles
    modal-demo --describe-style NAME|PATH
    modal-demo new-style NAME [--directory DIR]
    modal-demo preview [--style NAME|PATH [--style-option KEY=VALUE]...] [--duration SECONDS] [--reduced-motion]
                       --size WxH [--scale S] [--fps N] [--hold SECONDS] [--strip N] [--detent N] --output FILE
    modal-demo dismiss-point [the window's options: --style, --style-option, --duration, --size WxH ...]
    modal-demo render [--style NAME|PATH [--style-option KEY=VALUE]...]... [--duration SECONDS] [--reduced-motion]
                      [--content card|list|alert|form] [--secure] --size WxH --progress P [--phase present|dismiss]
                      [--scale S] --output FILE.png
    modal-demo render [--style NAME|PATH [--style-option KEY=VALUE]...] --size WxH --drag DY [--scale S] --output FILE.png
    modal-demo render [--style NAME|PATH [--style-option KEY=VALUE]...] --size WxH --detent N [--progress P]
                      [--scale S] --output FILE.png
    modal-demo render [--style NAME|PATH [--style-option KEY=VALUE]...] --content list --size WxH --scroll DY
                      [--scale S] --output FILE.png
    modal-demo completion bash|zsh|fish
    modal-demo ask question|warning|info|error|entry|password|list [--title TEXT] [--text TEXT] [--ok-label TEXT]
                   [--cancel-label TEXT] [--default-cancel] [--entry-text TEXT] [--column TEXT] [--multiple]
                   [--separator TEXT] [--timeout SECONDS] [--style NAME|PATH [--style-option KEY=VALUE]...] [ROW]...
    modal-demo pinentry [--style NAME|PATH [--style-option KEY=VALUE]...] [--log-events]
    modal-demo --help | --version
    """

    /// Every option, in `--help`'s order within each section. An option whose meaning differs
    /// between subcommands has a row for each (`--output`, `--detent`), with disjoint `commands`.
    public static let options: [CommandOption] = [
        CommandOption("--style", "NAME|PATH", completion: .style, in: styled,
                      "presentation style: a name found on the style path, or a plugin file",
                      "(a value containing '/'). Default: inset-centered. Repeatable: the card's",
                      "\"Present another\" presents level n with the n-th --style (the last repeats);",
                      "render draws levels 1..n-1 presented and level n at --progress"),
        CommandOption("--style-option", "KEY=VALUE", completion: .styleOption, in: styled.union([.ask, .pinentry]),
                      "an option of the --style before it (one must come before it);",
                      "--describe-style NAME lists a style's options with their meanings,",
                      "defaults and accepted values (unknown keys are refused)"),
        CommandOption("--size", "WxH", in: styled,
                      "window size in points (1...8192 each) when the compositor lets the client choose",
                      "(default 480x800)"),
        CommandOption("--duration", "SECONDS", in: styled,
                      "transition duration (default: the style's, 0.35)"),
        CommandOption("--reduced-motion", in: styled,
                      "the presented view does not move: it fades in and out at its frame over",
                      "0.2 s while the dim fades as usual (also MODALKIT_REDUCED_MOTION=1; otherwise",
                      "the desktop's setting, read through the XDG Settings portal, is followed live)"),
        CommandOption("--pause-at", "FRACTION", in: windowLike,
                      "for style authors: every presentation stops at this linear time fraction",
                      "(0...1) and stays there, drawn exactly as `render --progress FRACTION`;",
                      "Escape, a tap on the dim or Close dismiss from there as usual"),
        CommandOption("--frame-time", "drawn|predicted", completion: .words(["drawn", "predicted"]), in: windowLike,
                      "animate each frame to the time it is drawn (default), or to the time the",
                      "compositor will show it, predicted from wp_presentation feedback"),
        CommandOption("--autoplay", in: windowLike,
                      "one hands-free cycle: present as soon as the window is on screen, then",
                      "dismiss once presented (no input needed, e.g. on a compositor without a seat)"),
        CommandOption("--log-events", in: windowLike,
                      "print one line per event on stdout (configure WxH, activated, presenting,",
                      "presented, paused, dismissing, dismissed, close, frame N TIME backend=B",
                      "cpu=MS, presented N TIME, reloaded, reduced-motion on|off, drag-began,",
                      "drag-ended VELOCITY, detent N (from 1, the smallest, as render --detent N),",
                      "close-attempt, rest, typed \"TEXT\" LEVEL (printable keys the card used),",
                      "scroll OFFSET TOP (the list's offset and the sheet's top edge, points),",
                      "response ID (the alert's choice); with --content form: text \"TEXT\" at every",
                      "change of the field, preedit \"TEXT\" BEGIN END (an input method's, cursor in",
                      "bytes), response ok \"TEXT\" | response cancel (strings JSON-escaped; a --secure",
                      "field shows one • per character); a level n > 1 appends \" n\" to its lines"),
        CommandOption("--content", "card|list|alert|form", completion: .words(["card", "list", "alert", "form"]),
                      in: [.window, .dismissPoint, .render],
                      "what Present presents: the card (default), or a list of 40 rows that scrolls",
                      "with the wheel, the touchpad and touch (on a sheet: a drag scrolls the list",
                      "until its top edge, then moves the sheet; toward expansion the sheet first",
                      "grows to its largest detent) and the keys Page Up/Down, Home/End, Up/Down,",
                      "or an alert \"Delete file?\" with Cancel and a destructive Delete, the default",
                      "(the alert style unless --style is given): Return chooses Delete, Escape",
                      "Cancel, logged as response delete|cancel; or form, an alert \"Rename file\" with",
                      "one focused text field, Cancel and OK (Return), logged as response ok \"TEXT\"",
                      "or response cancel. Also for render"),
        CommandOption("--secure", in: [.window, .render],
                      "with --content form: the field is a password field (bullets; never copied;",
                      "the input method is told purpose password; log lines show bullets)"),
        CommandOption("--watch", in: windowLike,
                      "with --style PATH: reload the plugin when the file changes (the next",
                      "presentation, or one at rest, uses the new style; one in flight finishes)"),
        CommandOption("--compositing", "MODE", completion: .words(CompositingChoice.allCases.map(\.rawValue)), in: windowLike,
                      "auto (default): the dim and the presented view as sub-surfaces the compositor",
                      "composes where it offers wl_subcompositor and wp_viewporter, else pixman;",
                      "subsurface: require that (exit 2 naming a missing global); pixman: the client",
                      "draws every frame (render always does)"),
        CommandOption("--list-styles", in: [.window],
                      "list the styles found: NAME<TAB>PATH<TAB>DESCRIPTION"),
        CommandOption("--describe-style", "NAME|PATH", completion: .style, in: [.window],
                      "print a style's name, path, ABI version, summary and options"),
        CommandOption("--help", alias: "-h", in: Set(Subcommand.allCases), "print this help"),
        CommandOption("--version", in: Set(Subcommand.allCases).subtracting([.newStyle, .completion, .pinentry, .ask]),
                      "print modal-demo's version"),

        CommandOption("--progress", "P", in: [.render], section: "render:",
                      "linear time fraction of the transition, 0...1"),
        CommandOption("--phase", "present|dismiss", completion: .words(["present", "dismiss"]), in: [.render],
                      section: "render:",
                      "which transition (default present); dismiss at P is present at 1-P"),
        CommandOption("--drag", "DY", in: [.render], section: "render:",
                      "instead of --progress: presented, then a pointer pressed on the presented",
                      "view and moved DY points down (negative: up) in 10 steps; the frame",
                      "while it is held there (a drag, through the window's own input path)"),
        CommandOption("--scroll", "DY", in: [.render], section: "render:",
                      "with --content list, instead of --progress: presented, then the wheel turned",
                      "down over the view by 15 pt steps until the list scrolled DY points (a sheet",
                      "below its largest detent grows to it first); that frame"),
        CommandOption("--detent", "N", in: [.render], section: "render:",
                      "a sheet presented and resting at its N-th detent (1 = the smallest, as",
                      "`detent N` events), as tall as that detent; with --progress, that frame of",
                      "a presentation coming to rest there. A detent the style does not have, or a",
                      "style without detents: exit 2, naming the style's detents"),
        CommandOption("--scale", "S", in: [.render, .preview], section: "render:",
                      "buffer pixels per point, 0.5...8, whole or fractional (e.g. 1, 1.25, 1.5,",
                      "2; default 1), as a compositor's integer or fractional scale"),
        CommandOption("--output", "FILE.png", completion: .file, in: [.render], section: "render:",
                      "where to write the PNG: round(W x S) by round(H x S) pixels (halves up),",
                      "at most 16384 per side and 67108864 pixels; a regular file (replaced",
                      "atomically; a link to one is followed) or a new path, never a device,",
                      "FIFO, socket or directory (exit 2)"),

        CommandOption("--title", "TEXT", in: [.ask], section: askSection,
                      "the heading (default: the kind's: Question, Warning, Information, Error,",
                      "Enter text, Password, Choose)"),
        CommandOption("--text", "TEXT", in: [.ask], section: askSection, "the body text"),
        CommandOption("--ok-label", "TEXT", in: [.ask], section: askSection, "the OK button's label (default OK)"),
        CommandOption("--cancel-label", "TEXT", in: [.ask], section: askSection,
                      "the Cancel button's label (default Cancel; question, entry, password, list)"),
        CommandOption("--default-cancel", in: [.ask], section: askSection,
                      "Return chooses Cancel rather than OK (question, entry, password, list)"),
        CommandOption("--entry-text", "TEXT", in: [.ask], section: askSection, "the field's initial text (entry, password)"),
        CommandOption("--column", "TEXT", in: [.ask], section: askSection,
                      "the list's heading, its name for screen readers (list)"),
        CommandOption("--multiple", in: [.ask], section: askSection, "several rows may be chosen (list)"),
        CommandOption("--separator", "TEXT", in: [.ask], section: askSection,
                      "what joins the chosen rows on stdout (default |; list)"),
        CommandOption("--timeout", "SECONDS", in: [.ask], section: askSection,
                      "unanswered after SECONDS (above 0, at most 86400): the prompt goes, exit 5"),
        CommandOption("--style", "NAME|PATH", completion: .style, in: [.ask], section: askSection,
                      "the prompt's presentation style (default alert; bottom-sheet for list); one",
                      "--style, with its --style-option KEY=VALUE after it"),

        CommandOption("--style", "NAME|PATH", completion: .style, in: [.pinentry], section: pinentrySection,
                      "the prompts' presentation style (default alert), with its --style-option",
                      "KEY=VALUE after it"),
        CommandOption("--log-events", in: [.pinentry], section: pinentrySection,
                      "print presented and dismissed on stderr for each prompt (stdout is the",
                      "protocol's)"),

        CommandOption("--directory", "DIR", completion: .directory, in: [.newStyle], section: "new-style NAME [--directory DIR]:",
                      "where the package goes (default ./NAME; it must not exist or be empty)"),

        CommandOption("--fps", "N", in: [.preview], section: "preview:",
                      "frames per second of transition time, 1...120 (default 30)"),
        CommandOption("--hold", "SECONDS", in: [.preview], section: "preview:",
                      "how long the presented and the dismissed frame stay, 0...10 (default 0.5)"),
        CommandOption("--strip", "N", in: [.preview], section: "preview:",
                      "write a one-row PNG of N (2...64) evenly spaced frames instead"),
        CommandOption("--detent", "N", in: [.preview], section: "preview:",
                      "the sheet comes to rest at its N-th detent (as render --detent N)"),
        CommandOption("--output", "FILE", completion: .file, in: [.preview], section: "preview:",
                      "an animated, lossless WebP of present -> presented -> dismiss (or the PNG",
                      "strip); frame k of each transition is `render --progress k/(n-1)`;",
                      "written like render's --output"),
    ]

    /// The heading of `ask`'s section of `--help`.
    static let askSection = "ask KIND [OPTION]... [ROW]...:"
    /// The heading of `pinentry`'s section of `--help`.
    static let pinentrySection = "pinentry:"

    /// The sections of `--help` after the synopsis and the introduction: a heading, an optional
    /// paragraph, then the options whose ``CommandOption/section`` it is.
    public static let sections: [HelpSection] = [
        HelpSection("Options:"),
        HelpSection("render:"),
        HelpSection("new-style NAME [--directory DIR]:", """
          writes a style package in DIR (default ./NAME; it must not exist or be empty): Package.swift with
          the dynamic product ModalKitStyle<Name>, one style file, a README; then `swift build` there and
          `modal-demo render --style DIR/.build/debug/libModalKitStyle<Name>.so ...` show it. NAME is
          lower-case letters, digits and dashes, starting with a letter.
        """),
        HelpSection("preview:"),
        HelpSection("dismiss-point:", """
          prints "X Y", the point (in points, from the window content's top-left) where a tap on the dim
          dismisses the style's modal once presented in a window of --size, nearest the dim's top centre,
          from the style's own frame and shouldDismiss; or "none" when the style offers no such point.
          Takes the same options as the window and opens none (scripts drive the demo with it).
        """),
        HelpSection(askSection, """
          shows one prompt as zenity does, with a ModalKit style: an overlay, its dim over every output, where
          the compositor offers wlr-layer-shell (sway, KWin), a window elsewhere. question: OK and Cancel; warning,
          info, error: OK alone; entry, password: a text field, its text printed; list: the ROWs (or, with
          none, the lines of standard input), the chosen ones printed. Exit status: 0 OK, 1 Cancel, Escape
          or closed, 5 --timeout, 2 bad command line, style or no compositor (one line on stderr).
        """),
        HelpSection(pinentrySection, """
          a pinentry for gpg-agent (pinentry-program): the Assuan protocol on stdin and stdout, each
          GETPIN, CONFIRM and MESSAGE an alert (an overlay as ask's) on one compositor connection;
          SETTIMEOUT N: unanswered after N seconds, ERR 83886142 Timeout; no compositor: ERR for the
          prompt. Exit status 0 after BYE or the end of input, 1 for a broken conversation.
        """),
        HelpSection("completion bash|zsh|fish:", """
          prints the shell's completion script for modal-demo, made from this help's table (style names
          are completed from --list-styles); scripts/install installs all three.
        """),
    ]

    static let introduction = """
    Shows a window with a "Present" button; activating it (click, tap, Return or Space) presents a modal with
    the chosen presentation style. Tapping the dimmed area or pressing Escape dismisses it.
    """

    static let epilogue = """
    Style path: $MODALKIT_STYLE_PATH (colon-separated directories), then the directory of the
    executable, then ../lib/modalkit/styles next to it. Style libraries are named libModalKitStyle*.so.

    Environment: MODALKIT_REDUCED_MOTION=1 reduces motion (window and render); 0 or unset leaves it to
    --reduced-motion and the desktop; any other value is refused (exit 2). NO_AT_BRIDGE=1: no
    screen-reader bridge (otherwise the window is shown to screen readers through the session bus's
    accessibility bus, when there is one).

    Exit status: 0 success (also after SIGTERM or SIGINT, which close the window), 2 bad command line, style,
    environment value or output path, 1 runtime failure (no compositor, lost connection, no shared memory, a
    failed write: the previous file is kept).
    """

    /// The table the parsers read and the help is made from.
    public static let table = OptionTable(options)

    /// The row for `flag` (a long name or an alias) that `command` takes, if any.
    public static func option(_ flag: String, in command: Subcommand) -> CommandOption? {
        table.option(flag, in: command)
    }

    /// The long option names `command` takes, in table order, without repeats.
    public static func optionNames(for command: Subcommand) -> [String] { table.optionNames(for: command) }

    /// `modal-demo SUBCOMMAND --help`'s text (`command` is not ``Subcommand/window``, whose help
    /// is the whole ``usageText``): the subcommand's synopsis lines, its section's paragraph, every
    /// option it takes (wherever the whole help lists them), and where the rest is.
    public static func usage(for command: Subcommand) -> String {
        var lines = ["Usage:"]
        var inCommand = false
        for line in synopsis.split(separator: "\n") {
            // A synopsis entry starts at column 0 ("modal-demo …"); its continuation lines are indented.
            if !line.hasPrefix(" ") {
                let words = line.split(separator: " ")
                inCommand = words.count > 1 && words[1] == command.rawValue
            }
            if inCommand { lines.append("  " + line) }
        }
        // The subcommand's section: its heading's first word is the subcommand ("render:", "ask KIND …:").
        let section = sections.first { section in
            var word = section.heading.split(separator: " ").first.map(String.init) ?? ""
            if word.hasSuffix(":") { word.removeLast() }
            return word == command.rawValue
        }
        if let paragraph = section?.paragraph {
            lines += ["", paragraph]
        }
        lines += ["", "Options:"] + table.helpLines(for: command, column: 27)
        lines += ["", "modal-demo --help: every subcommand, the style path, the environment and the exit statuses."]
        return lines.joined(separator: "\n")
    }

    /// `--help`'s text: the synopsis, the introduction, each section's options, the epilogue.
    static func makeUsage() -> String {
        var lines = ["Usage:"] + synopsis.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        lines += ["", introduction, ""]
        lines += table.helpLines(sections, column: 27)
        lines += ["", epilogue]
        return lines.joined(separator: "\n")
    }
}
