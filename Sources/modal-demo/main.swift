// modal-demo: a Wayland window with a "Present" button that presents a modal with a
// presentation style loaded from a plugin (its command line: docs/design.md, command line).
import Glibc
import ModalKitDemo
import ModalKit
import ModalKitSystemSupport
import ModalKitWaylandClient
import ModalKitPlugins

// Event lines are read by tests and scripts as they happen: line-buffer stdout even into a pipe.
setvbuf(stdout, nil, _IOLBF, 0)

/// The window's fonts while a second thread loads them (``runWindow(_:)``): an exit waits for that
/// thread first, so `exit` never runs while it is inside fontconfig or fcft.
nonisolated(unsafe) var pendingFontLoad: SceneFontLoad?

/// Prints `modal-demo: MESSAGE` as one line on stderr and exits with `status`.
func fail(_ status: Int32, _ message: String) -> Never {
    writeToStandardError("modal-demo: " + message.replacingAll("\n", with: " ") + "\n")
    pendingFontLoad?.cancel()
    exit(status)
}

/// Prints `modal-demo: MESSAGE` as one line on stderr (a notice; the program goes on).
func warn(_ message: String) {
    writeToStandardError("modal-demo: " + message.replacingAll("\n", with: " ") + "\n")
}

/// Refuses an output path that is not a regular file or a new path (a device, a FIFO, a socket,
/// a directory, a link to one of them): exit 2 with one line, before anything is drawn, so the
/// node is never opened (``OutputFile``).
func checkOutput(_ path: String) {
    do {
        _ = try OutputFile.destination(of: path)
    } catch {
        failWriting(error)
    }
}

/// Exits for an error while making or writing an output file: 2 for a path that is never written
/// (``OutputFileError/isUsage``), else 1; one stderr line.
func failWriting(_ error: Error) -> Never {
    if let e = error as? OutputFileError, e.isUsage { fail(UsageError.exitStatus, e.description) }
    fail(1, String(describing: error))
}

/// The style loader on the default search path, made once: relative entries of
/// `MODALKIT_STYLE_PATH` are ignored, and said so once on stderr.
enum Styles {
    static let loader: StyleLoader = {
        let path = StyleLoader.searchPath()
        if let line = StyleCommandText.ignoredEntriesLine(path.ignoredRelativeEntries) { warn(line) }
        return StyleLoader(searchPath: path.directories)
    }()

    /// Names already reported as shadowing another library.
    nonisolated(unsafe) private static var reportedShadowing = Set<String>()

    /// Says once per name which library `--style NAME` uses when later ones declare the name too.
    static func reportShadowing(name: String, path: String, shadowed: [String]) {
        guard let line = StyleCommandText.shadowingLine(name: name, path: path, shadowed: shadowed),
              reportedShadowing.insert(name).inserted else { return }
        warn(line)
    }

    /// The one library chosen for a name or path, loaded (a bad one: exit 2 with one line).
    static func load(_ nameOrPath: String) -> StyleModule {
        do {
            let module = try loader.load(nameOrPath)
            reportShadowing(name: module.name, path: module.path, shadowed: module.shadowed)
            return module
        } catch {
            fail(UsageError.exitStatus, StyleCommandText.message(for: error))
        }
    }
}

/// Loads the selected style through the plugin loader and creates it with its options.
/// Any failure (missing plugin, wrong ABI, unknown name, unknown option key, bad value) is a
/// bad command line: exit 2 with one line.
func makeStyle(_ selection: StyleSelection) -> PresentationStyle {
    let module = Styles.load(selection.style)
    do {
        return try module.makeStyle(options: selection.effectiveOptions)
    } catch {
        fail(UsageError.exitStatus, StyleCommandText.message(for: error))
    }
}

/// The styles of a stack: every selection loaded and made once at start-up (so a bad one exits 2
/// before any window opens); level n gets the n-th selection's style, a level past the last gets a
/// new style object of the last selection (each level has its own style object).
func makeStyleFactory(_ selections: [StyleSelection]) -> (Int) -> PresentationStyle {
    var made: [PresentationStyle] = []
    var last: (module: StyleModule, options: [String: String])?
    for selection in selections {
        let module = Styles.load(selection.style)
        do {
            made.append(try module.makeStyle(options: selection.effectiveOptions))
            last = (module, selection.effectiveOptions)
        } catch {
            fail(UsageError.exitStatus, StyleCommandText.message(for: error))
        }
    }
    return { level in
        if level >= 1 && level <= made.count { return made[level - 1] }
        if let last, let style = try? last.module.makeStyle(options: last.options) { return style }
        return made[made.count - 1]
    }
}

/// Flushes what was printed and exits 1 with one line when standard output could not take it (a
/// full disk, `> /dev/full`, a closed descriptor): a listing cut short is not a success.
func finishStandardOutput() {
    errno = 0
    if fflush(stdout) != 0 || ferror(stdout) != 0 {
        let reason = errno == 0 ? "" : ": " + String(cString: strerror(errno))
        fail(1, "could not write to standard output\(reason)")
    }
}

let command: Command
do {
    command = try resolveCommand(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current)
} catch {
    fail(UsageError.exitStatus, String(describing: error))
}

// What the listing commands print is written at once by finishStandardOutput() (whose error, if
// any, is then that write's); only the window's event lines need line buffering.
switch command {
case .help, .version, .listStyles, .describeStyle, .dismissPoint, .completion: setvbuf(stdout, nil, _IOFBF, 0)
default: break
}

switch command {
case let .help(subcommand):
    print(subcommand == .window ? usageText : CommandTable.usage(for: subcommand))
case .version:
    print("modal-demo \(modalDemoVersion)")
case .completion(let shell):
    print(ShellCompletion.script(for: shell), terminator: "")
case .listStyles:
    for line in StyleCommandText.listingLines(Styles.loader.list()) { print(line) }
case .describeStyle(let style):
    // Read from the library's note: nothing of it runs (a library without a note is loaded).
    do {
        let lookup = try Styles.loader.find(style)
        Styles.reportShadowing(name: lookup.metadata.name, path: lookup.metadata.path, shadowed: lookup.shadowed)
        for line in StyleCommandText.descriptionLines(lookup.metadata) { print(line) }
    } catch {
        fail(UsageError.exitStatus, StyleCommandText.message(for: error))
    }
case .newStyle(let options):
    exit(runNewStyle(options))
case .preview(let options):
    exit(runPreview(options))
case .render(let options):
    exit(runRender(options))
case .dismissPoint(let options):
    print(dismissPointLine(options))
case .run(let options):
    exit(runWindow(options))
case .pinentry(let style, let logEvents):
    exit(runPinentry(style: style, logEvents: logEvents))
case .ask(let prompt):
    exit(runAsk(prompt))
}
// Only the commands that print and return come here (the others exit above).
finishStandardOutput()
