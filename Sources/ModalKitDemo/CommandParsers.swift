import ModalKit
import ModalKitCommandLine

/// The scanner over `modal-demo`'s table.
typealias DemoScanner = ArgumentScanner<Subcommand>

extension CommandTable {
    /// Each subcommand with its parser: the first argument names one (``Subcommand``'s raw value),
    /// or the window's parser reads all the arguments. A new subcommand is a case of
    /// ``Subcommand``, its rows in ``options`` and its parser here.
    public static var subcommands: SubcommandTable<Subcommand, Command> {
        SubcommandTable(table: table, entries: Subcommand.allCases.map { command in
            SubcommandTable.Entry(command, word: command == .window ? nil : command.rawValue, parse: parser(for: command))
        })
    }

    static func parser(for command: Subcommand) -> (inout DemoScanner) throws -> Command {
        switch command {
        case .window: return { try parseWindow(&$0, as: Command.run) }
        case .dismissPoint: return { try parseWindow(&$0, as: Command.dismissPoint) }
        case .render: return parseRender
        case .preview: return parsePreview
        case .newStyle: return parseNewStyle
        case .completion: return parseCompletion
        case .pinentry: return parsePinentry
        case .ask: return { try AskCommandLine.parse(&$0) }
        }
    }
}

/// The options the window, `dismiss-point`, `render` and `preview` share (which of them takes
/// which is the table's): the style of each level with its options, `--duration`, `--size`,
/// `--reduced-motion`, `--content`, `--secure`, and the frame options of render and preview:
/// `--scale`, `--detent`, `--output`.
struct SharedArguments {
    var selections = [StyleSelection()]
    var sawStyle = false
    var duration: Double?
    var size: (width: Int, height: Int)?
    var reducedMotion = false
    var content = PresentedContentChoice.card
    var secure = false
    var scale = 1.0
    var detent: Int?
    var output: String?

    /// Takes `option` if it is one of these; false otherwise.
    mutating func take(_ option: CommandOption, _ value: String) throws -> Bool {
        switch option.name {
        case "--style":
            // An empty name is refused by the loader, whose message lists the available styles.
            // Repeatable: each --style after the first starts the next level; the --style-options
            // after it belong to it.
            if sawStyle { selections.append(StyleSelection()) }
            sawStyle = true
            selections[selections.count - 1].style = value
        case "--style-option":
            guard let eq = value.firstIndex(of: "="), eq != value.startIndex else {
                throw UsageError("--style-option expects KEY=VALUE, got '\(value)'")
            }
            // One rule: an option belongs to the --style before it. Before any, it would silently
            // belong to whichever style level 1 gets, so it is refused.
            guard sawStyle else {
                throw UsageError("--style-option \(value) comes before any --style: an option belongs to the --style "
                                 + "before it (--style NAME --style-option \(value); the default is --style \(StyleSelection().style))")
            }
            selections[selections.count - 1].options[String(value[..<eq])] = String(value[value.index(after: eq)...])
        case "--duration":
            duration = try DemoScanner.number(value, in: 0...10, for: option, expects: "seconds from 0 to 10")
        case "--size":
            size = try parseSize(value)
        case "--reduced-motion":
            reducedMotion = true
        case "--content":
            guard let c = PresentedContentChoice(rawValue: value) else {
                throw UsageError("--content expects card, list, alert or form, got '\(value)'")
            }
            content = c
        case "--secure":
            secure = true
        case "--scale":
            // Buffer pixels per point.
            scale = try DemoScanner.number(value, in: minRenderScale...maxRenderScale, for: option,
                                           expects: "a number from 0.5 to 8 (e.g. 1, 1.25, 1.5, 2)")
        case "--detent":
            detent = try DemoScanner.whole(value, in: 1...8, for: option, expects: "a detent number from 1 to 8 (1 = the smallest)")
        case "--output":
            guard !value.isEmpty else { throw UsageError("--output needs a file name") }
            output = value
        default:
            return false
        }
        return true
    }

    /// `--size` and `--output`, which `command` (render, preview) cannot do without.
    /// - Throws: `UsageError` `COMMAND needs --size WxH`, `COMMAND needs --output FILE`.
    func frame(of command: String, output placeholder: String) throws -> (width: Int, height: Int, output: String) {
        guard let size else { throw UsageError("\(command) needs --size WxH") }
        guard let output else { throw UsageError("\(command) needs --output \(placeholder)") }
        return (size.width, size.height, output)
    }

    /// The levels' styles once every argument is read: `--content alert` or `form` without a
    /// `--style` gets the alert style (UIKit's and libadwaita's alerts), and `--duration` applies to
    /// every level, also those whose `--style` came after it.
    /// - Throws: `UsageError` when `--duration` and a `duration` style option both set it.
    func styles() throws -> [StyleSelection] {
        var result = selections
        if content == .alert || content == .form, !sawStyle { result[0].style = "alert" }
        if let d = duration {
            if result.contains(where: { $0.options["duration"] != nil }) {
                throw UsageError("--duration and --style-option duration=... both set the duration; give one of them")
            }
            for i in result.indices { result[i].duration = d }
        }
        return result
    }
}

/// Reads every option of the window, render or preview: the shared ones into `shared`, the
/// subcommand's own through `take`.
/// - Returns: `.help` (of the scanner's subcommand) or `.version` where one is given (the arguments after it unread), else nil.
private func readOptions(_ scanner: inout DemoScanner, into shared: inout SharedArguments,
                         _ take: (CommandOption, String) throws -> Void) throws -> Command? {
    while let (option, value) = try scanner.nextOption() {
        if try shared.take(option, value) { continue }
        switch option.name {
        case "--help": return .help(scanner.command)
        case "--version": return .version
        default: try take(option, value)
        }
    }
    return nil
}

/// The window (no subcommand) and `dismiss-point`, which takes the same options: `make` gives the
/// command of the options read; `--list-styles` and `--describe-style` are commands of their own.
private func parseWindow(_ scanner: inout DemoScanner, as make: (RunOptions) -> Command) throws -> Command {
    var shared = SharedArguments(), run = RunOptions()
    var listStyles = false, describe: String?
    if let shortCut = try readOptions(&scanner, into: &shared, { option, value in
        switch option.name {
        case "--list-styles": listStyles = true
        case "--describe-style": describe = value
        // dismiss-point takes the window's options, --watch too (the point is the style's as it is).
        case "--watch": run.watch = true
        case "--log-events": run.logEvents = true
        case "--autoplay": run.autoplay = true
        case "--compositing":
            guard let c = CompositingChoice(rawValue: value) else {
                throw UsageError("--compositing expects auto, subsurface or pixman, got '\(value)'")
            }
            run.compositing = c
        case "--pause-at":
            run.pauseAt = try DemoScanner.number(value, in: 0...1, for: option, expects: "a linear time fraction from 0 to 1")
        case "--frame-time":
            switch value {
            case "drawn": run.predictsPresentationTime = false
            case "predicted": run.predictsPresentationTime = true
            default: throw UsageError("--frame-time expects drawn or predicted, got '\(value)'")
            }
        default:
            preconditionFailure("\(option.name) is in CommandTable but not parsed")
        }
    }) {
        return shortCut
    }
    run.selections = try shared.styles()
    if let describe {
        guard !listStyles else { throw UsageError("give --list-styles or --describe-style, not both") }
        return .describeStyle(describe)
    }
    if listStyles { return .listStyles }
    if let size = shared.size { (run.width, run.height) = size }
    run.reducedMotion = shared.reducedMotion
    run.content = shared.content
    run.secure = shared.secure
    if run.watch, !run.selections[0].style.contains("/") {
        throw UsageError("--watch needs --style PATH (a plugin file, a value containing '/'), got '\(run.selections[0].style)'")
    }
    return make(run)
}

/// `render`: one frame into a PNG.
private func parseRender(_ scanner: inout DemoScanner) throws -> Command {
    var shared = SharedArguments(), render = RenderOptions()
    var sawProgress = false
    if let shortCut = try readOptions(&scanner, into: &shared, { option, value in
        switch option.name {
        case "--progress":
            render.fraction = try DemoScanner.number(value, in: 0...1, for: option, expects: "a number from 0 to 1")
            sawProgress = true
        case "--phase":
            switch value {
            case "present": render.phase = .present
            case "dismiss": render.phase = .dismiss
            default: throw UsageError("--phase expects present or dismiss, got '\(value)'")
            }
        case "--drag":
            render.drag = try DemoScanner.number(value, in: -10000...10000, for: option, expects: "points from -10000 to 10000")
        case "--scroll":
            render.scroll = try DemoScanner.number(value, in: 0...100000, for: option, expects: "points from 0 to 100000")
        default:
            preconditionFailure("\(option.name) is in CommandTable but not parsed")
        }
    }) {
        return shortCut
    }
    let selections = try shared.styles()
    guard shared.size != nil else { throw UsageError("render needs --size WxH") }
    render.reducedMotion = shared.reducedMotion
    render.content = shared.content
    render.secure = shared.secure
    render.scale = shared.scale
    render.detent = shared.detent
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
    if !sawProgress && render.drag == nil { throw UsageError("render needs --progress P (or --drag DY, --detent N or, with --content list, --scroll DY)") }
    if render.drag != nil && selections.count > 1 { throw UsageError("render --drag takes one --style (a drag of a stack is not drawn)") }
    (render.width, render.height, render.output) = try shared.frame(of: "render", output: "FILE.png")
    let (pw, ph) = Size(width: Double(render.width), height: Double(render.height)).pixelSize(scale: render.scale)
    if pw > maxRenderSide || ph > maxRenderSide || pw * ph > maxRenderPixels {
        throw UsageError("render of \(pw)x\(ph) buffer pixels is too large (at most \(maxRenderSide) per side and \(maxRenderPixels) pixels: --size times --scale)")
    }
    render.selections = selections
    return .render(render)
}

/// `preview`: the whole transition as an animated WebP, or a strip of frames as a PNG.
private func parsePreview(_ scanner: inout DemoScanner) throws -> Command {
    var shared = SharedArguments(), preview = PreviewOptions()
    if let shortCut = try readOptions(&scanner, into: &shared, { option, value in
        switch option.name {
        case "--fps": preview.fps = try DemoScanner.number(value, in: 1...120, for: option, expects: "a number from 1 to 120")
        case "--hold": preview.hold = try DemoScanner.number(value, in: 0...10, for: option, expects: "seconds from 0 to 10")
        case "--strip":
            preview.strip = try DemoScanner.whole(value, in: 2...64, for: option, expects: "a number of frames from 2 to 64")
        default:
            preconditionFailure("\(option.name) is in CommandTable but not parsed")
        }
    }) {
        return shortCut
    }
    let selections = try shared.styles()
    (preview.width, preview.height, preview.output) = try shared.frame(of: "preview", output: "FILE")
    preview.reducedMotion = shared.reducedMotion
    preview.scale = shared.scale
    preview.detent = shared.detent
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

/// `new-style NAME [--directory DIR]`.
private func parseNewStyle(_ scanner: inout DemoScanner) throws -> Command {
    var options = NewStyleOptions()
    var name: String?
    while let argument = try scanner.next() {
        switch argument {
        case let .option(option, value):
            switch option.name {
            case "--help": return .help(scanner.command)
            case "--directory":
                guard let value, !value.isEmpty else { throw UsageError("--directory needs a directory name") }
                options.directory = value
            default: preconditionFailure("\(option.name) is in CommandTable but not parsed")
            }
        case let .operand(word):
            guard name == nil else { throw UsageError("new-style takes one NAME, got '\(name!)' and '\(word)'") }
            name = word
        case .endOfOptions:
            throw DemoScanner.unexpected("--")
        }
    }
    guard let name else { throw UsageError("new-style needs a NAME, e.g. modal-demo new-style side-drawer") }
    try StyleName.validate(name)
    options.name = name
    return .newStyle(options)
}

/// `completion SHELL`.
private func parseCompletion(_ scanner: inout DemoScanner) throws -> Command {
    var shells: [String] = []
    while let argument = try scanner.next() {
        switch argument {
        case let .option(option, _):
            guard option.name == "--help" else { preconditionFailure("\(option.name) is in CommandTable but not parsed") }
            return .help(scanner.command)
        case let .operand(word): shells.append(word)
        case .endOfOptions: throw DemoScanner.unexpected("--")
        }
    }
    guard shells.count == 1 else {
        throw UsageError("completion takes one shell: bash, zsh or fish" + (shells.isEmpty ? "" : ", got '\(shells.joined(separator: " "))'"))
    }
    guard let shell = ShellCompletion.Shell(rawValue: shells[0]) else {
        throw UsageError("completion expects bash, zsh or fish, got '\(shells[0])'")
    }
    return .completion(shell)
}

/// `pinentry [--style NAME|PATH [--style-option KEY=VALUE]...] [--log-events]` (no operands).
private func parsePinentry(_ scanner: inout DemoScanner) throws -> Command {
    var style = StyleSelection(), sawStyle = false, logEvents = false
    style.style = "alert"
    while let (option, value) = try scanner.nextOption() {
        switch option.name {
        case "--help": return .help(scanner.command)
        case "--style":
            if sawStyle { throw UsageError("pinentry takes one --style") }
            sawStyle = true
            style.style = value
        case "--style-option":
            let (key, optionValue) = try AskCommandLine.styleOption(value)
            guard sawStyle else {
                throw UsageError("--style-option \(value) comes before any --style: an option belongs to the --style before it")
            }
            style.options[key] = optionValue
        case "--log-events": logEvents = true
        default: preconditionFailure("\(option.name) is in CommandTable but not parsed")
        }
    }
    return .pinentry(style: style, logEvents: logEvents)
}
