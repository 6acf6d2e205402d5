// modal-demo's command line (docs/design.md, command line): a bad command line is exit status 2 and
// exactly one stderr line naming the offending argument, before any compositor is contacted; --help
// and --version succeed; `render` refuses outputs larger than it can allocate on a small machine.
import Foundation
import ModalKitDemo
import ModalKit
import ModalKitTestHarness
import XCTest

final class CommandLineTests: XCTestCase {
    private func demo(_ arguments: [String]) throws -> PluginTestSupport.RunResult {
        try PluginCLITests.demo(arguments)
    }

    private func assertUsageError(_ arguments: [String], mentions: String,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try demo(arguments)
        XCTAssertEqual(result.status, 2, "\(arguments): exit status; stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderrLines.count, 1, "\(arguments): one stderr line: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("modal-demo: "), result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(mentions), "\(arguments): names '\(mentions)': \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
    }

    func testUnknownFlagsMissingValuesAndBadNumbersAreUsageErrors() throws {
        try assertUsageError(["--bogus"], mentions: "--bogus")
        try assertUsageError(["stray"], mentions: "stray")
        try assertUsageError(["--size"], mentions: "--size")
        try assertUsageError(["--size", "0x0"], mentions: "0x0")
        try assertUsageError(["--size", "9000x600"], mentions: "9000x600")
        try assertUsageError(["--size", "-5x10"], mentions: "-5x10")
        try assertUsageError(["--duration", "nan"], mentions: "nan")
        try assertUsageError(["--pause-at", "1.5"], mentions: "--pause-at expects a linear time fraction from 0 to 1, got '1.5'")
        try assertUsageError(["--style-option", "margin-x"], mentions: "KEY=VALUE")
        try assertUsageError(["--progress", "0.5"], mentions: "--progress")   // a render option outside render
        try assertUsageError(["render", "--size", "100x100", "--progress", "1.5", "--output", "/tmp/x.png"], mentions: "1.5")
        try assertUsageError(["render", "--size", "100x100", "--progress", "1", "--scale", "9", "--output", "/tmp/x.png"], mentions: "9")
        try assertUsageError(["render", "--size", "100x100", "--progress", "1", "--phase", "up", "--output", "/tmp/x.png"], mentions: "up")
        try assertUsageError(["render", "--size", "100x100", "--progress", "1"], mentions: "--output")
        try assertUsageError(["render", "--progress", "1", "--output", "/tmp/x.png"], mentions: "--size")
    }

    /// `--scale` is a number from 0.5 to 8, whole or fractional; anything else is one usage line.
    func testBadScalesAreUsageErrors() throws {
        for bad in ["0", "0.4", "8.5", "-1.5", "nan", "inf", "1,5", "1.5x", "abc", ""] {
            try assertUsageError(["render", "--size", "100x100", "--progress", "1", "--scale", bad, "--output", "/tmp/x.png"],
                                 mentions: "--scale expects a number from 0.5 to 8")
        }
    }

    /// `render --scale S` draws round(W × S) × round(H × S) buffer pixels (halves away from zero)
    /// and lays the scene out in points: at 1.5 the inset-centered card starts at 20 × 1.5 = 30 px
    /// and 110 × 1.5 = 165 px, its bottom at 165 + round(81 × 1.5) = 287 px, dimmed black 0.5 around.
    func testRenderAtAFractionalScale() throws {
        let dir = NSTemporaryDirectory() + "modalkit-render-scale-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (scale, width, height) in [("1.5", 602, 452), ("1.25", 501, 376), ("0.5", 201, 151), ("2", 802, 602)] {
            let output = dir + "/r\(scale).png"
            let result = try demo(["render", "--size", "401x301", "--progress", "1", "--scale=\(scale)", "--output", output])
            XCTAssertEqual(result.status, 0, "--scale \(scale): \(result.stderr)")
            XCTAssertEqual(result.stderr, "")
            let image = try Image(pngFile: output)
            XCTAssertEqual(image.width, width, "401 × \(scale)")
            XCTAssertEqual(image.height, height, "301 × \(scale)")
        }
        let presented = try Image(pngFile: dir + "/r1.5.png")
        let before = dir + "/before.png"
        XCTAssertEqual(try demo(["render", "--size", "401x301", "--progress", "0", "--scale", "1.5", "--output", before]).status, 0)
        let background = try Image(pngFile: before)
        let white: UInt32 = 0xFFFF_FFFF
        XCTAssertEqual(presented.pixel(x: 30, y: 200), white, "the card's left column")
        XCTAssertEqual(presented.pixel(x: 60, y: 165), white, "the card's top row")
        XCTAssertEqual(presented.pixel(x: 60, y: 286), white, "the card's bottom row")
        for (x, y) in [(29, 200), (60, 164), (60, 287), (5, 5), (595, 445)] {
            let base = background.pixel(x: x, y: y).argbComponents, got = presented.pixel(x: x, y: y).argbComponents
            // Black at 0.5 over an opaque pixel: each channel halved (±1 for rounding).
            XCTAssertEqual(got.a, 255, "(\(x),\(y))")
            for (g, b) in [(got.r, base.r), (got.g, base.g), (got.b, base.b)] {
                XCTAssertEqual(Double(g), Double(b) / 2, accuracy: 1, "(\(x),\(y)) is dimmed")
            }
        }
    }

    /// 8000×8000 points at scale 4 would be a 4 GB image: refused as a bad command line, not a crash.
    func testRenderLargerThanTheLimitIsAUsageError() throws {
        let output = NSTemporaryDirectory() + "modalkit-too-large-\(getpid()).png"
        try assertUsageError(["render", "--size", "8000x8000", "--scale", "4", "--progress", "0.5", "--output", output],
                             mentions: "32000x32000")
        try assertUsageError(["render", "--size", "8192x4100", "--scale", "2", "--progress", "0.5", "--output", output],
                             mentions: "16384x8200")
        try assertUsageError(["render", "--size", "8192x8192", "--scale", "1.5", "--progress", "0.5", "--output", output],
                             mentions: "12288x12288")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    // MARK: dismiss-point

    private func dismissPoint(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try demo(["dismiss-point"] + arguments)
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        XCTAssertTrue(result.stdout.hasSuffix("\n"), file: file, line: line)
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// Both built-in styles leave the dim's top centre free: (400, 60) in an 800x600 window.
    func testDismissPointOfTheBuiltInStylesIsTheTopCentre() throws {
        XCTAssertEqual(try dismissPoint(["--size", "800x600"]), "400 60")
        XCTAssertEqual(try dismissPoint(["--style", "bottom-sheet", "--size", "800x600"]), "400 60")
        // The window's other options are taken (scripts pass theirs through); default size 480x800.
        XCTAssertEqual(try dismissPoint(["--style", "bottom-sheet", "--duration", "0.6", "--log-events"]), "240 60")
    }

    /// inset-centered with margin-y=10 covers (centre, top + 60): the point is in a 20 pt strip
    /// beside the card (card 20…780 × 10…590), 8 pt clear of it and of the window edge.
    func testDismissPointBesideACardThatCoversTheTopCentre() throws {
        let fields = try dismissPoint(["--style", "inset-centered", "--style-option", "margin-y=10", "--size", "800x600"])
            .split(separator: " ").compactMap { Int($0) }
        XCTAssertEqual(fields.count, 2, "X Y")
        guard fields.count == 2 else { return }
        XCTAssertTrue((8...12).contains(fields[0]) || (788...792).contains(fields[0]), "\(fields)")
        XCTAssertTrue((8...592).contains(fields[1]), "\(fields)")
    }

    func testDismissPointIsNoneWhenTheCardCoversTheWindow() throws {
        XCTAssertEqual(try dismissPoint(["--style", "inset-centered", "--style-option", "margin-x=0", "--style-option", "margin-y=0",
                                         "--size", "800x600"]),
                       "none")
    }

    func testDismissPointRefusesABadStyleOrOptionLikeTheWindow() throws {
        try assertUsageError(["dismiss-point", "--style", "top-banner"], mentions: "top-banner")
        try assertUsageError(["dismiss-point", "--style", "inset-centered", "--style-option", "margin-z=1"], mentions: "margin-z")
        try assertUsageError(["dismiss-point", "--size", "0x5"], mentions: "0x5")
        try assertUsageError(["dismiss-point", "--list-styles"], mentions: "--list-styles")
        try assertUsageError(["dismiss-point", "--progress", "1"], mentions: "--progress")
    }

    func testHelpAndVersionSucceed() throws {
        let help = try demo(["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.contains("modal-demo render"), help.stdout)
        XCTAssertTrue(help.stdout.contains("modal-demo dismiss-point"), help.stdout)
        XCTAssertEqual(help.stderr, "")
        let version = try demo(["--version"])
        XCTAssertEqual(version.status, 0, version.stderr)
        XCTAssertTrue(version.stdout.hasPrefix("modal-demo "), version.stdout)
    }

    /// A listing that cannot be written (standard output on a full device) is a failure: exit 1
    /// with one line saying why, not a silent success.
    func testOutputThatCannotBeWrittenExitsOneWithOneLine() throws {
        let demoPath = try InstalledProducts.demo()
        for arguments in [["--help"], ["--version"], ["--list-styles"], ["--describe-style", "bottom-sheet"]] {
            let result = try PluginTestSupport.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" > /dev/full", demoPath] + arguments,
                                                   environment: PluginTestSupport.environment(["MODALKIT_STYLE_PATH": nil]),
                                                   timeout: 60)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderrLines, ["modal-demo: could not write to standard output: No space left on device"],
                           "\(arguments)")
        }
    }
}
