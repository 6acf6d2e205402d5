import ModalKitBenchSupport
import XCTest

/// `modal-bench --launch`'s command line: its defaults (20 pairs, 800x600, foot at that size, your
/// own session), every option, and every mistake refused with a message (exit status 2).
final class LaunchOptionsTests: XCTestCase {
    func testDefaults() throws {
        guard case let .launch(o) = try BenchOptions.parse(["--launch"]) else { return XCTFail("not a launch command") }
        XCTAssertEqual(o.runs, 20)
        XCTAssertEqual(o.size, BenchSize(width: 800, height: 600))
        XCTAssertEqual(o.session, .current)
        XCTAssertEqual(o.measurements, [.firstFrame, .version, .memory])
        XCTAssertNil(o.demo)
        XCTAssertEqual(o.versusCommand, ["foot", "--window-size-pixels=800x600"])
        XCTAssertFalse(o.mappings)
    }

    func testEveryOption() throws {
        let o = try LaunchOptions.parse(["--runs", "2", "--vs", "weston-simple-shm", "--launch", "--size=1280x720",
                                         "--demo", "/opt/mk/bin/modal-demo --style 'bottom-sheet'", "--headless",
                                         "--seat", "keyboard", "--only", "memory", "--mappings"])
        XCTAssertEqual(o.runs, 2)
        XCTAssertEqual(o.versus, ["weston-simple-shm"])
        XCTAssertEqual(o.versusCommand, ["weston-simple-shm"])
        XCTAssertEqual(o.size, BenchSize(width: 1280, height: 720))
        XCTAssertEqual(o.demo, ["/opt/mk/bin/modal-demo", "--style", "bottom-sheet"])
        XCTAssertEqual(o.session, .headless(seats: [.keyboard]))
        XCTAssertEqual(o.measurements, [.memory])
        XCTAssertTrue(o.mappings)
    }

    func testDefaultFootFollowsTheSize() throws {
        XCTAssertEqual(try LaunchOptions.parse(["--size", "1024x768"]).versusCommand,
                       ["foot", "--window-size-pixels=1024x768"])
    }

    func testHeadlessMeasuresBothSeatsByDefault() throws {
        XCTAssertEqual(try LaunchOptions.parse(["--headless"]).session, .headless(seats: [.none, .keyboard]))
        XCTAssertEqual(try LaunchOptions.parse(["--headless", "--seat=both"]).session, .headless(seats: [.none, .keyboard]))
        XCTAssertEqual(try LaunchOptions.parse(["--seat", "none", "--headless"]).session, .headless(seats: [.none]))
    }

    func testOnlyTakesCommasAndRepeatsInTheirFixedOrder() throws {
        XCTAssertEqual(try LaunchOptions.parse(["--only", "memory,first-frame"]).measurements, [.firstFrame, .memory])
        XCTAssertEqual(try LaunchOptions.parse(["--only", "version", "--only=version"]).measurements, [.version])
    }

    func testHelpWinsOverLaunchOptions() throws {
        XCTAssertEqual(try BenchOptions.parse(["--launch", "--runs", "3", "--help"]), .help)
    }

    func testMistakes() {
        let cases: [([String], String)] = [
            (["--runs", "0"], "--runs needs a whole number in 1...10000, got '0'"),
            (["--runs", "x"], "--runs needs a whole number in 1...10000, got 'x'"),
            (["--runs", "1", "--runs", "2"], "--runs given twice"),
            (["--runs"], "option --runs needs a value"),
            (["--vs", ""], "--vs needs a command, got ''"),
            (["--vs", "foot 'x"], "unterminated ' in 'foot 'x'"),
            (["--vs", "a", "--vs", "b"], "--vs given twice"),
            (["--demo", "  "], "--demo needs a command, got '  '"),
            (["--seat", "keyboard"], "--seat needs --headless (in your own session the seat has the devices it has)"),
            (["--headless", "--seat", "touch"], "--seat needs none, keyboard or both, got 'touch'"),
            (["--only", "frames"], "--only needs first-frame, version or memory (comma-separated), got 'frames'"),
            (["--only", "memory,"], "--only needs first-frame, version or memory (comma-separated), got ''"),
            (["--mappings", "--only", "version"], "--mappings needs the memory measurement (--only memory)"),
            (["--size", "800x600", "--size", "640x480"], "--size given twice (--launch measures one size)"),
            (["--size", "0x600"], "--size needs WxH with each side 1...8192 points, got '0x600'"),
            (["--headless=yes"], "--headless takes no value"),
            (["--style", "bottom-sheet"], "--style does not apply to --launch"),
            (["--cycles", "3"], "--cycles does not apply to --launch"),
            (["--text"], "--text does not apply to --launch"),
            (["--frobnicate"], "unknown option '--frobnicate' (see --help)"),
            (["foot"], "unexpected argument 'foot' (see --help)"),
        ]
        for (args, message) in cases {
            XCTAssertThrowsError(try BenchOptions.parse(["--launch"] + args), "\(args)") { error in
                XCTAssertEqual((error as? BenchUsageError)?.description, message, "\(args)")
            }
        }
    }
}

/// A command given as one argument (`--vs`, `--demo`), split as a POSIX shell splits a simple
/// command without expansions.
final class ShellWordsTests: XCTestCase {
    func testSplitting() throws {
        XCTAssertEqual(try ShellWords.split("foot --window-size-pixels=800x600"), ["foot", "--window-size-pixels=800x600"])
        XCTAssertEqual(try ShellWords.split("  a\tb \n c  "), ["a", "b", "c"])
        XCTAssertEqual(try ShellWords.split("a 'b c' \"d e\" f\\ g"), ["a", "b c", "d e", "f g"])
        XCTAssertEqual(try ShellWords.split("x'y'\"z\""), ["xyz"])
        XCTAssertEqual(try ShellWords.split("''"), [""])
        XCTAssertEqual(try ShellWords.split(#""a \"q\" \\ \$HOME \n""#), [#"a "q" \ $HOME \n"#])
        XCTAssertEqual(try ShellWords.split("'it''s'"), ["its"])
        XCTAssertEqual(try ShellWords.split("$HOME ~ *"), ["$HOME", "~", "*"], "no expansions")
        XCTAssertEqual(try ShellWords.split(""), [])
    }

    func testUnterminatedQuotesAndTrailingBackslash() {
        XCTAssertThrowsError(try ShellWords.split("a 'b"))
        XCTAssertThrowsError(try ShellWords.split("a \"b"))
        XCTAssertThrowsError(try ShellWords.split("a \\"))
    }

    func testJoinSplitsBackToTheSameWords() throws {
        let words = ["/usr/bin/foot", "--window-size-pixels=800x600", "two words", "it's", "", "$x"]
        XCTAssertEqual(ShellWords.join(words), "/usr/bin/foot --window-size-pixels=800x600 'two words' 'it'\\''s' '' '$x'")
        XCTAssertEqual(try ShellWords.split(ShellWords.join(words)), words)
    }
}
