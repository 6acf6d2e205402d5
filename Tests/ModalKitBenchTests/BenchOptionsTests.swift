import ModalKitBenchSupport
import XCTest

/// modal-bench's command line: the default sizes 720p, 1080p and 4K, and every mistake refused with
/// a message (exit status 2 in the executable).
final class BenchOptionsTests: XCTestCase {
    func testDefaultsAreBothStylesAtTheThreeBenchmarkSizes() throws {
        XCTAssertEqual(try BenchOptions.parse([]),
                       .frames(styles: ["inset-centered", "bottom-sheet"],
                               sizes: [BenchSize(width: 1280, height: 720), BenchSize(width: 1920, height: 1080),
                                       BenchSize(width: 3840, height: 2160)],
                               runs: 10))
    }

    func testSizesStylesAndRuns() throws {
        XCTAssertEqual(try BenchOptions.parse(["--size", "800x600", "--style", "bottom-sheet", "--size=1x1",
                                               "--style", "./libX.so", "--runs", "3"]),
                       .frames(styles: ["bottom-sheet", "./libX.so"],
                               sizes: [BenchSize(width: 800, height: 600), BenchSize(width: 1, height: 1)],
                               runs: 3))
    }

    func testCyclesDefaultsTo720p() throws {
        XCTAssertEqual(try BenchOptions.parse(["--cycles", "1000"]),
                       .cycles(styles: ["inset-centered", "bottom-sheet"],
                               sizes: [BenchSize(width: 1280, height: 720)], cycles: 1000))
        XCTAssertEqual(try BenchOptions.parse(["--cycles=5", "--size", "1920x1080", "--style", "bottom-sheet"]),
                       .cycles(styles: ["bottom-sheet"], sizes: [BenchSize(width: 1920, height: 1080)], cycles: 5))
    }

    func testReloadsTakeStylesOnly() throws {
        XCTAssertEqual(try BenchOptions.parse(["--reloads", "20"]),
                       .reloads(styles: ["inset-centered", "bottom-sheet"], count: 20))
        XCTAssertEqual(try BenchOptions.parse(["--reloads=5", "--style", "./libX.so"]), .reloads(styles: ["./libX.so"], count: 5))
        XCTAssertThrowsError(try BenchOptions.parse(["--reloads", "1"]), "one reload has no cost per reload")
        XCTAssertThrowsError(try BenchOptions.parse(["--reloads", "3", "--size", "10x10"]))
        XCTAssertThrowsError(try BenchOptions.parse(["--reloads", "3", "--cycles", "3"]))
    }

    func testDragModeTakesStylesSizesAndRuns() throws {
        XCTAssertEqual(try BenchOptions.parse(["--drag", "--size", "480x800", "--runs", "2"]),
                       .drags(styles: ["inset-centered", "bottom-sheet"], sizes: [BenchSize(width: 480, height: 800)],
                              runs: 2))
        XCTAssertThrowsError(try BenchOptions.parse(["--drag", "--cycles", "3"]))
        XCTAssertThrowsError(try BenchOptions.parse(["--drag=1"]))
    }

    func testVariantsInOrderWithoutRepeatsAllForTheThree() throws {
        XCTAssertEqual(try BenchOptions.parse(["--variant", "shadow", "--variant=solid", "--variant", "shadow"]),
                       .frames(styles: ["inset-centered", "bottom-sheet"], sizes: BenchSize.defaults, runs: 10,
                               variants: [.shadow, .solid]))
        XCTAssertEqual(try BenchOptions.parse(["--variant", "all", "--runs", "2"]),
                       .frames(styles: ["inset-centered", "bottom-sheet"], sizes: BenchSize.defaults, runs: 2,
                               variants: [.solid, .gradient, .shadow, .recede]))
        XCTAssertEqual(try BenchOptions.parse(["--cycles", "3", "--variant", "gradient"]),
                       .cycles(styles: ["inset-centered", "bottom-sheet"], sizes: [BenchSize.cyclesDefault], cycles: 3,
                               variants: [.gradient]))
        XCTAssertEqual(try BenchOptions.parse([]),
                       .frames(styles: ["inset-centered", "bottom-sheet"], sizes: BenchSize.defaults, runs: 10,
                               variants: [.solid]), "solid by default")
    }

    func testLevelsMakeStackCyclesAndApplyToCyclesOnly() throws {
        XCTAssertEqual(try BenchOptions.parse(["--cycles", "1000", "--levels", "2", "--style", "inset-centered"]),
                       .stackCycles(styles: ["inset-centered"], sizes: [BenchSize(width: 1280, height: 720)],
                                    cycles: 1000, levels: 2))
        XCTAssertEqual(try BenchOptions.parse(["--cycles", "3", "--levels=1"]),
                       .cycles(styles: ["inset-centered", "bottom-sheet"], sizes: [BenchSize(width: 1280, height: 720)],
                               cycles: 3))
        for (args, message) in [(["--levels", "2"], "--levels applies to --cycles only"),
                                (["--cycles", "2", "--levels", "17"], "--levels needs a whole number in 1...16, got '17'"),
                                (["--cycles", "2", "--levels", "2", "--levels", "3"], "--levels given twice"),
                                (["--cycles", "2", "--levels", "2", "--variant", "shadow"], "--levels takes no --variant")] {
            XCTAssertThrowsError(try BenchOptions.parse(args)) { error in
                XCTAssertEqual((error as? BenchUsageError)?.description, message, "\(args)")
            }
        }
    }

    func testHelp() throws {
        XCTAssertEqual(try BenchOptions.parse(["--size", "10x10", "--help"]), .help)
    }

    func testBadArgumentsAreRefusedWithTheArgumentNamed() {
        let cases: [([String], String)] = [
            (["--size", "0x600"], "'0x600'"),
            (["--size", "8193x10"], "'8193x10'"),
            (["--size", "800"], "'800'"),
            (["--size", "800x600x2"], "'800x600x2'"),
            (["--size", "-800x600"], "'-800x600'"),
            (["--size", "8e2x600"], "'8e2x600'"),
            (["--size"], "--size needs a value"),
            (["--runs", "0"], "'0'"),
            (["--runs", "ten"], "'ten'"),
            (["--cycles", "-1"], "'-1'"),
            (["--cycles", "5", "--runs", "2"], "--runs does not apply"),
            (["--runs", "2", "--runs", "3"], "--runs given twice"),
            (["--style", ""], "--style needs"),
            (["--frobnicate"], "'--frobnicate'"),
            (["extra"], "'extra'"),
            (["--help=yes"], "--help takes no value"),
            (["--variant", "glow"], "'glow'"),
            (["--variant"], "--variant needs a value"),
        ]
        for (args, fragment) in cases {
            XCTAssertThrowsError(try BenchOptions.parse(args), "\(args)") { error in
                let message = (error as? BenchUsageError)?.description ?? ""
                XCTAssertTrue(message.contains(fragment), "\(args): '\(message)' lacks \(fragment)")
                XCTAssertFalse(message.contains("\n"), "\(args): one line")
            }
        }
    }

    func testSizeParsing() {
        XCTAssertEqual(BenchSize(parsing: "3840x2160"), BenchSize(width: 3840, height: 2160))
        XCTAssertEqual(BenchSize(parsing: "8192x8192"), BenchSize(width: 8192, height: 8192))
        XCTAssertNil(BenchSize(parsing: "1920X1080"))
        XCTAssertNil(BenchSize(parsing: "x1080"))
        XCTAssertNil(BenchSize(parsing: "+1920x1080"))
        XCTAssertNil(BenchSize(parsing: ""))
    }

    func testCompositingNamesTheBackendsOfTheFrameTable() throws {
        let both = try BenchOptions.parseRequest(["--size", "1920x1080", "--compositing", "both", "--runs", "3"])
        XCTAssertEqual(both.backends, [.pixman, .subsurface])
        XCTAssertEqual(both.command, .frames(styles: ["inset-centered", "bottom-sheet"], sizes: [BenchSize(width: 1920, height: 1080)],
                                             runs: 3))
        XCTAssertEqual(try BenchOptions.parseRequest(["--compositing=subsurface"]).backends, [.subsurface])
        XCTAssertNil(try BenchOptions.parseRequest(["--runs", "3"]).backends)
        for (args, message) in [(["--compositing", "gpu"], "--compositing needs pixman, subsurface or both, got 'gpu'"),
                                (["--compositing"], "option --compositing needs a value"),
                                (["--compositing", "pixman", "--compositing=both"], "--compositing given twice"),
                                (["--compositing", "pixman", "--cycles", "2"], "--compositing does not apply to --cycles"),
                                (["--drag", "--compositing", "both"], "--compositing does not apply to --drag"),
                                (["--launch", "--compositing", "both"], "--compositing does not apply to --launch")] {
            XCTAssertThrowsError(try BenchOptions.parseRequest(args), "\(args)") {
                XCTAssertEqual(($0 as? BenchUsageError)?.description, message, "\(args)")
            }
        }
    }

    /// --help is made from the table: every option under its heading, with its value.
    func testHelpListsEveryOptionOfTheTable() {
        let lines = BenchOptions.usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for option in BenchOptions.table.options {
            let heading = lines.firstIndex(of: option.section)
            XCTAssertNotNil(heading, option.section)
            let rest = lines[(heading ?? 0)...].dropFirst().prefix { !$0.isEmpty }
            XCTAssertTrue(rest.contains { $0.hasPrefix("  " + option.usage + " ") || $0.hasPrefix("  " + option.usage + ",") },
                          "\(option.usage) under \(option.section)")
        }
        XCTAssertTrue(BenchOptions.usage.hasPrefix("Usage:\n  modal-bench [--style NAME|PATH]..."))
    }
}
