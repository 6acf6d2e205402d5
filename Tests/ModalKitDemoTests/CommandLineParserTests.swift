import ModalKitDemo
import ModalKit
import XCTest

/// modal-demo's command line parsed in process (docs/design.md, command line; the text of
/// `--help`): every flag, the defaults, and each mistake as one `UsageError` line — the error
/// `modal-demo` turns into exit status 2 (CommandTests' CommandLineTests run the executable).
final class CommandLineParserTests: XCTestCase {
    private func parse(_ arguments: [String], environment: [String: String] = [:],
                       file: StaticString = #filePath, line: UInt = #line) throws -> Command {
        try resolveCommand(arguments, environment: environment)
    }

    private func run(_ arguments: [String], environment: [String: String] = [:],
                     file: StaticString = #filePath, line: UInt = #line) throws -> RunOptions {
        guard case let .run(options) = try parse(arguments, environment: environment) else {
            XCTFail("\(arguments) is not the window", file: file, line: line)
            return RunOptions()
        }
        return options
    }

    private func render(_ arguments: [String], environment: [String: String] = [:],
                        file: StaticString = #filePath, line: UInt = #line) throws -> RenderOptions {
        guard case let .render(options) = try parse(["render"] + arguments, environment: environment) else {
            XCTFail("\(arguments) is not render", file: file, line: line)
            return RenderOptions()
        }
        return options
    }

    /// `arguments` are refused with exactly `message`: a `UsageError` (exit status 2), one line.
    private func assertUsageError(_ arguments: [String], _ message: String, environment: [String: String] = [:],
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try resolveCommand(arguments, environment: environment),
                             "\(arguments)", file: file, line: line) { error in
            guard let usage = error as? UsageError else {
                return XCTFail("\(arguments): \(type(of: error)) is not a usage error", file: file, line: line)
            }
            XCTAssertEqual(usage.description, message, "\(arguments)", file: file, line: line)
            XCTAssertFalse(usage.description.contains("\n"), "one line", file: file, line: line)
        }
    }

    /// The ordinary values of every render option, for tests that vary one of them.
    private let renderBase = ["--size", "100x200", "--progress", "0.5", "--output", "out.png"]

    // MARK: The window

    func testNoArgumentsIsTheWindowWithTheDefaults() throws {
        XCTAssertEqual(try parse([]), .run(RunOptions()))
        let o = try run([])
        XCTAssertEqual(o.selection.style, "inset-centered")
        XCTAssertEqual(o.selection.options, [:])
        XCTAssertNil(o.selection.duration)
        XCTAssertEqual(o.width, 480)
        XCTAssertEqual(o.height, 800)
        XCTAssertFalse(o.logEvents)
        XCTAssertFalse(o.reducedMotion)
        XCTAssertEqual(UsageError.exitStatus, 2)
    }

    func testEveryWindowFlagInBothSpellings() throws {
        for args in [["--style", "bottom-sheet", "--size", "300x640", "--duration", "1.5", "--log-events",
                      "--reduced-motion", "--style-option", "height=0.3"],
                     ["--style=bottom-sheet", "--size=300X640", "--duration=1.5", "--log-events",
                      "--reduced-motion", "--style-option=height=0.3"]] {
            let o = try run(args)
            XCTAssertEqual(o.selection.style, "bottom-sheet", "\(args)")
            XCTAssertEqual(o.width, 300, "\(args)")
            XCTAssertEqual(o.height, 640, "\(args)")
            XCTAssertEqual(o.selection.duration, 1.5, "\(args)")
            XCTAssertTrue(o.logEvents, "\(args)")
            XCTAssertTrue(o.reducedMotion, "\(args)")
            XCTAssertEqual(o.selection.options, ["height": "0.3"], "\(args)")
        }
    }

    func testAPathIsKeptAsTheStyleAndTheLoaderJudgesTheName() throws {
        XCTAssertEqual(try run(["--style", "./libModalKitStyleX.so"]).selection.style, "./libModalKitStyleX.so")
        XCTAssertEqual(try run(["--style", ""]).selection.style, "", "the loader refuses it, listing the styles")
    }

    /// A later `--style-option` key replaces an earlier one; a value may contain `=`; `--duration`
    /// becomes the `duration` option; both together are refused, so that neither silently wins.
    func testStyleOptionsAndDuration() throws {
        let o = try run(["--style", "inset-centered", "--style-option", "margin-x=10", "--style-option", "margin-x=12",
                         "--style-option", "curve=cubic-bezier(0,0,1,1)", "--style-option", "note=a=b",
                         "--style-option", "empty="])
        XCTAssertEqual(o.selection.options, ["margin-x": "12", "curve": "cubic-bezier(0,0,1,1)", "note": "a=b", "empty": ""])
        XCTAssertEqual(try run(["--duration", "0.5"]).selection.effectiveOptions, ["duration": "0.5"])
        assertUsageError(["--duration", "0.5", "--style", "inset-centered", "--style-option", "duration=2"],
                         "--duration and --style-option duration=... both set the duration; give one of them")
        assertUsageError(["render", "--style", "inset-centered", "--style-option", "duration=2", "--duration", "0.5", "--size", "10x10",
                          "--progress", "0", "--output", "x.png"],
                         "--duration and --style-option duration=... both set the duration; give one of them")
        XCTAssertEqual(try run(["--style", "inset-centered", "--style-option", "duration=2"]).selection.effectiveOptions,
                       ["duration": "2"])
        XCTAssertEqual(try run(["--duration", "0"]).selection.duration, 0)
        XCTAssertEqual(try run(["--duration", "10"]).selection.duration, 10)
        XCTAssertEqual(try run([]).selection.effectiveOptions, [:])
    }

    /// `--style` is repeatable: each starts the next level, and the `--style-option`s after it are
    /// that level's; `--duration` applies to every level.
    func testRepeatedStylesAreLevelsWithTheirOwnOptions() throws {
        let o = try run(["--style", "inset-centered", "--style-option", "margin-x=4", "--style-option", "dim-alpha=0.3",
                         "--style", "bottom-sheet", "--style-option", "height=0.7", "--style", "adaptive",
                         "--duration", "0.5"])
        XCTAssertEqual(o.selections.map(\.style), ["inset-centered", "bottom-sheet", "adaptive"])
        XCTAssertEqual(o.selections.map(\.options), [["margin-x": "4", "dim-alpha": "0.3"], ["height": "0.7"], [:]])
        XCTAssertEqual(o.selections.map(\.duration), [0.5, 0.5, 0.5])
        XCTAssertEqual(o.selection.style, "inset-centered", "level 1 is selection")
        XCTAssertEqual(try run([]).selections, [StyleSelection()], "one level, the default style")
        let r = try render(["--style", "inset-centered", "--style", "bottom-sheet", "--size", "10x10", "--progress", "1",
                            "--output", "x.png"])
        XCTAssertEqual(r.selections.map(\.style), ["inset-centered", "bottom-sheet"])
        assertUsageError(["--style", "a", "--style", "b", "--style-option", "duration=2", "--duration", "1"],
                         "--duration and --style-option duration=... both set the duration; give one of them")
    }

    func testSizeBounds() throws {
        XCTAssertEqual(try run(["--size", "1x1"]).width, 1)
        XCTAssertEqual(try run(["--size", "8192x8192"]).height, 8192)
        for bad in ["0x0", "0x10", "9000x600", "600x8193", "-5x10", "10", "10x", "x10", "10x10x10", "axb", ""] {
            assertUsageError(["--size", bad], "--size expects WxH with each from 1 to 8192, got '\(bad)'")
        }
    }

    func testHelpVersionAndListStyles() throws {
        XCTAssertEqual(try parse(["--help"]), .help(.window))
        XCTAssertEqual(try parse(["-h"]), .help(.window))
        XCTAssertEqual(try parse(["--version"]), .version)
        XCTAssertEqual(try parse(["--size", "10x10", "--help", "--bogus"]), .help(.window), "help wins over what follows")
        XCTAssertEqual(try parse(["render", "--help"]), .help(.render))
        XCTAssertEqual(try parse(["--list-styles"]), .listStyles)
        XCTAssertEqual(try parse(["--list-styles", "--style", "x"]), .listStyles)
        XCTAssertTrue(usageText.hasPrefix("Usage:\n"))
        XCTAssertEqual(modalDemoVersion.split(separator: ".").count, 3)
    }

    // MARK: dismiss-point

    func testDismissPointTakesTheWindowsOptions() throws {
        XCTAssertEqual(try parse(["dismiss-point"]), .dismissPoint(RunOptions()))
        var expected = RunOptions()
        expected.selection.style = "bottom-sheet"
        expected.selection.options = ["height": "0.25"]
        expected.selection.duration = 1
        expected.width = 320
        expected.height = 480
        XCTAssertEqual(try parse(["dismiss-point", "--style", "bottom-sheet", "--style-option", "height=0.25",
                                  "--duration", "1", "--size", "320x480"]), .dismissPoint(expected))
        // scripts/demo passes the window's arguments on, --watch included.
        guard case let .dismissPoint(watching) = try parse(["dismiss-point", "--style", "/x/libModalKitStyleX.so", "--watch"]) else {
            return XCTFail("dismiss-point with --watch")
        }
        XCTAssertTrue(watching.watch)
        assertUsageError(["dismiss-point", "--watch"], "--watch needs --style PATH (a plugin file, a value containing '/'), got 'inset-centered'")
        assertUsageError(["dismiss-point", "--list-styles"], "unknown option '--list-styles' for dismiss-point (see --help)")
        assertUsageError(["dismiss-point", "--progress", "1"], "unknown option '--progress' for dismiss-point (see --help)")
        assertUsageError(["dismiss-point", "now"], "unexpected argument 'now' (see --help)")
    }

    // MARK: render

    func testRenderDefaultsAndEveryFlag() throws {
        let o = try render(renderBase)
        XCTAssertEqual(o.selection, StyleSelection(), "--style defaults to inset-centered")
        XCTAssertEqual(o.selection.style, "inset-centered")
        XCTAssertEqual(o.width, 100)
        XCTAssertEqual(o.height, 200)
        XCTAssertEqual(o.fraction, 0.5)
        XCTAssertEqual(o.output, "out.png")
        XCTAssertEqual(o.phase, .present)
        XCTAssertEqual(o.scale, 1)
        XCTAssertFalse(o.reducedMotion)

        let all = try render(["--style=bottom-sheet", "--style-option", "dim-alpha=0.2", "--duration", "2",
                              "--reduced-motion", "--size=40x30", "--progress=1", "--phase", "dismiss",
                              "--scale=1.5", "--output=/tmp/frame.png"])
        XCTAssertEqual(all.selection.style, "bottom-sheet")
        XCTAssertEqual(all.selection.effectiveOptions, ["dim-alpha": "0.2", "duration": "2.0"])
        XCTAssertTrue(all.reducedMotion)
        XCTAssertEqual(all.width, 40)
        XCTAssertEqual(all.height, 30)
        XCTAssertEqual(all.fraction, 1)
        XCTAssertEqual(all.phase, .dismiss)
        XCTAssertEqual(all.scale, 1.5)
        XCTAssertEqual(all.output, "/tmp/frame.png")
        XCTAssertEqual(try render(renderBase + ["--phase", "present"]).phase, .present)
    }

    func testRenderNeedsSizeProgressAndOutput() {
        assertUsageError(["render"], "render needs --size WxH")
        assertUsageError(["render", "--progress", "1", "--output", "o.png"], "render needs --size WxH")
        assertUsageError(["render", "--size", "10x10", "--output", "o.png"], "render needs --progress P (or --drag DY, --detent N or, with --content list, --scroll DY)")
        assertUsageError(["render", "--size", "10x10", "--progress", "1"], "render needs --output FILE.png")
        assertUsageError(["render"] + renderBase + ["--output", ""], "--output needs a file name")
        assertUsageError(["render"] + renderBase + ["--output="], "--output needs a file name")
    }

    func testRenderDragTakesPointsInsteadOfProgress() throws {
        let base = ["render", "--size", "390x844", "--output", "o.png"]
        guard case let .render(o) = try parseCommandLine(base + ["--drag", "-100"]) else { return XCTFail("not render") }
        XCTAssertEqual(o.drag, -100)
        assertUsageError(base + ["--drag", "1", "--progress", "1"], "render takes --progress or --drag, not both")
        assertUsageError(base + ["--drag", "x"], "--drag expects points from -10000 to 10000, got 'x'")
        assertUsageError(base + ["--drag", "20000"], "--drag expects points from -10000 to 10000, got '20000'")
        assertUsageError(["--drag", "1"], "unknown option '--drag' (see --help)")
    }

    func testRenderNumbersAndTheirBounds() throws {
        XCTAssertEqual(try render(renderBase + ["--progress", "0"]).fraction, 0)
        XCTAssertEqual(try render(renderBase + ["--scale", "0.5"]).scale, 0.5)
        XCTAssertEqual(try render(renderBase + ["--scale", "8"]).scale, 8)
        XCTAssertEqual(try render(renderBase + ["--scale", "1.25"]).scale, 1.25)
        for bad in ["-0.1", "1.01", "nan", "inf", "half"] {
            assertUsageError(["render"] + renderBase + ["--progress", bad],
                             "--progress expects a number from 0 to 1, got '\(bad)'")
        }
        for bad in ["0", "0.4", "8.5", "-1.5", "nan", "inf", "1,5", "1.5x", ""] {
            assertUsageError(["render"] + renderBase + ["--scale", bad],
                             "--scale expects a number from 0.5 to 8 (e.g. 1, 1.25, 1.5, 2), got '\(bad)'")
        }
        assertUsageError(["render"] + renderBase + ["--phase", "up"], "--phase expects present or dismiss, got 'up'")
    }

    /// At most 16384 buffer pixels per side and 64 Mi pixels: --size × --scale, each side rounded
    /// half away from zero.
    func testRenderSizeLimits() throws {
        XCTAssertEqual(try render(["--size", "8192x8192", "--progress", "1", "--output", "o.png"]).width, 8192,
                       "8192 × 8192 = 2^26 pixels, the limit itself")
        XCTAssertEqual(try render(["--size", "8192x1", "--scale", "2", "--progress", "1", "--output", "o.png"]).scale, 2,
                       "16384 px, the side limit itself")
        assertUsageError(["render", "--size", "8192x1", "--scale", "2.5", "--progress", "1", "--output", "o.png"],
                         "render of 20480x3 buffer pixels is too large (at most 16384 per side and 67108864 pixels: --size times --scale)")
        assertUsageError(["render", "--size", "8192x8192", "--scale", "1.5", "--progress", "1", "--output", "o.png"],
                         "render of 12288x12288 buffer pixels is too large (at most 16384 per side and 67108864 pixels: --size times --scale)")
    }

    func testRenderRefusesTheWindowsOwnFlags() {
        assertUsageError(["render", "--log-events"] + renderBase, "unknown option '--log-events' for render (see --help)")
        assertUsageError(["render", "--compositing", "pixman"] + renderBase,
                         "unknown option '--compositing' for render (see --help)")
        assertUsageError(["--compositing", "gpu"], "--compositing expects auto, subsurface or pixman, got 'gpu'")
        assertUsageError(["--compositing"], "option --compositing needs a value")
        assertUsageError(["render", "--list-styles"], "unknown option '--list-styles' for render (see --help)")
        assertUsageError(["render", "frame"], "unexpected argument 'frame' (see --help)")
    }

    func testFrameTimeIsDrawnOrPredicted() throws {
        XCTAssertFalse(try run([]).predictsPresentationTime)
        XCTAssertTrue(try run(["--frame-time", "predicted"]).predictsPresentationTime)
        XCTAssertFalse(try run(["--frame-time=drawn"]).predictsPresentationTime)
        assertUsageError(["--frame-time", "soon"], "--frame-time expects drawn or predicted, got 'soon'")
        assertUsageError(["render", "--frame-time", "predicted"] + renderBase, "unknown option '--frame-time' for render (see --help)")
    }

    func testRenderDragTakesOneStyle() throws {
        assertUsageError(["render", "--style", "inset-centered", "--style", "bottom-sheet", "--size", "390x844",
                          "--drag", "127", "--output", "x.png"],
                         "render --drag takes one --style (a drag of a stack is not drawn)")
    }

    func testAutoplayIsAWindowFlagWithoutValue() throws {
        XCTAssertFalse(try run([]).autoplay)
        XCTAssertTrue(try run(["--autoplay"]).autoplay)
        assertUsageError(["--autoplay=yes"], "--autoplay takes no value")
        assertUsageError(["render", "--autoplay"] + renderBase, "unknown option '--autoplay' for render (see --help)")
    }

    func testPauseAtTakesALinearFractionForTheWindow() throws {
        XCTAssertNil(try run([]).pauseAt)
        XCTAssertEqual(try run(["--pause-at", "0.3"]).pauseAt, 0.3)
        XCTAssertEqual(try run(["--pause-at=0"]).pauseAt, 0)
        XCTAssertEqual(try run(["--pause-at", "1"]).pauseAt, 1)
        for bad in ["-0.1", "1.01", "nan", "inf", "half", ""] {
            assertUsageError(["--pause-at", bad], "--pause-at expects a linear time fraction from 0 to 1, got '\(bad)'")
        }
        assertUsageError(["--pause-at"], "option --pause-at needs a value")
        assertUsageError(["render", "--pause-at", "0.5"] + renderBase, "unknown option '--pause-at' for render (see --help)")
    }

    // MARK: Usage errors

    func testWindowMistakes() {
        assertUsageError(["--bogus"], "unknown option '--bogus' (see --help)")
        assertUsageError(["--bogus=1"], "unknown option '--bogus=1' (see --help)")
        assertUsageError(["-x"], "unknown option '-x' (see --help)")
        assertUsageError(["stray"], "unexpected argument 'stray' (see --help)")
        assertUsageError(["render2"], "unexpected argument 'render2' (see --help)")
        for flag in ["--style", "--style-option", "--duration", "--size"] {
            assertUsageError([flag], "option \(flag) needs a value")
        }
        assertUsageError(["render", "--size", "10x10", "--progress"], "option --progress needs a value")
        assertUsageError(["render", "--size", "10x10", "--phase"], "option --phase needs a value")
        assertUsageError(["render", "--size", "10x10", "--scale"], "option --scale needs a value")
        assertUsageError(["render", "--size", "10x10", "--output"], "option --output needs a value")
        assertUsageError(["--style-option", "margin-x"], "--style-option expects KEY=VALUE, got 'margin-x'")
        assertUsageError(["--style-option", "=5"], "--style-option expects KEY=VALUE, got '=5'")
        // One rule: an option belongs to the --style before it; before any it is refused, in every
        // command that takes options (not silently given to level 1's style).
        let early = "--style-option dim-alpha=0.2 comes before any --style: an option belongs to the --style before it "
            + "(--style NAME --style-option dim-alpha=0.2; the default is --style inset-centered)"
        assertUsageError(["--style-option", "dim-alpha=0.2"], early)
        assertUsageError(["--style-option", "dim-alpha=0.2", "--style", "bottom-sheet"], early)
        assertUsageError(["--style-option=dim-alpha=0.2", "--style", "bottom-sheet"], early)
        assertUsageError(["render", "--style-option", "dim-alpha=0.2", "--size", "10x10", "--progress", "1", "--output", "x.png"], early)
        assertUsageError(["preview", "--style-option", "dim-alpha=0.2", "--size", "10x10", "--output", "x.webp"], early)
        assertUsageError(["dismiss-point", "--style-option", "dim-alpha=0.2"], early)
        for bad in ["nan", "-1", "10.5", "inf", "soon"] {
            assertUsageError(["--duration", bad], "--duration expects seconds from 0 to 10, got '\(bad)'")
        }
        assertUsageError(["--reduced-motion=1"], "--reduced-motion takes no value")
        // Render options outside render.
        for flag in ["--progress", "--phase", "--scale", "--output"] {
            assertUsageError([flag, "1"], "unknown option '\(flag)' (see --help)")
        }
        // The first mistake is the one reported.
        assertUsageError(["--size", "0x0", "--bogus"], "--size expects WxH with each from 1 to 8192, got '0x0'")
    }

    // MARK: MODALKIT_REDUCED_MOTION

    func testReducedMotionFromTheEnvironment() throws {
        XCTAssertTrue(try run([], environment: ["MODALKIT_REDUCED_MOTION": "1"]).reducedMotion)
        XCTAssertTrue(try render(renderBase, environment: ["MODALKIT_REDUCED_MOTION": "1"]).reducedMotion)
        for off in ["0", ""] {
            XCTAssertFalse(try run([], environment: ["MODALKIT_REDUCED_MOTION": off]).reducedMotion, off)
            XCTAssertTrue(try run(["--reduced-motion"], environment: ["MODALKIT_REDUCED_MOTION": off]).reducedMotion,
                          "the flag still applies with \(off)")
        }
        for bad in ["yes", "2", "true", " 1"] {
            let message = "MODALKIT_REDUCED_MOTION expects 1 or 0 (or unset), got '\(bad)'"
            assertUsageError([], message, environment: ["MODALKIT_REDUCED_MOTION": bad])
            assertUsageError(["render"] + renderBase, message, environment: ["MODALKIT_REDUCED_MOTION": bad])
            assertUsageError(["dismiss-point"], message, environment: ["MODALKIT_REDUCED_MOTION": bad])
        }
        // The window, render and dismiss-point read it (they take the window's options); the
        // commands that only print do not.
        for args in [["--help"], ["--version"], ["--list-styles"]] {
            XCTAssertNoThrow(try parse(args, environment: ["MODALKIT_REDUCED_MOTION": "yes"]), "\(args)")
        }
    }

    /// `--compositing auto|subsurface|pixman` (default auto) for the window and dismiss-point.
    func testCompositing() throws {
        XCTAssertEqual(RunOptions().compositing, .auto)
        for c in CompositingChoice.allCases {
            guard case let .run(o) = try parseCommandLine(["--compositing", c.rawValue]) else { return XCTFail() }
            XCTAssertEqual(o.compositing, c)
            guard case let .run(o2) = try parseCommandLine(["--compositing=\(c.rawValue)"]) else { return XCTFail() }
            XCTAssertEqual(o2.compositing, c)
        }
        XCTAssertTrue(usageText.contains("--compositing MODE"))
    }
}
