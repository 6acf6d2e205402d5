import Foundation
import ModalKitBenchSupport
import XCTest

/// `modal-bench --text-entry`: its command line, and the mode run once (debug build, next to the
/// test binary) printing its figures' lines — never a time checked, only what the mode states: each
/// typed character and the paste shown in the frame after its key.
final class TextEntryBenchTests: XCTestCase {
    func testTheModeTakesStylesSizesAndRuns() throws {
        XCTAssertEqual(try BenchOptions.parse(["--text-entry"]),
                       .textEntry(styles: ["alert"], sizes: [BenchSize(width: 800, height: 600)], runs: 10))
        XCTAssertEqual(try BenchOptions.parse(["--text-entry", "--runs", "2", "--style", "bottom-sheet", "--size", "400x300"]),
                       .textEntry(styles: ["bottom-sheet"], sizes: [BenchSize(width: 400, height: 300)], runs: 2))
        for other in [["--drag"], ["--scroll"], ["--text"], ["--cycles", "2"], ["--reloads", "2"], ["--variant", "shadow"]] {
            XCTAssertThrowsError(try BenchOptions.parse(["--text-entry"] + other), "\(other)") { error in
                XCTAssertEqual("\(error)", "--text-entry takes only --style, --size and --runs")
            }
        }
        XCTAssertThrowsError(try BenchOptions.parseRequest(["--text-entry", "--compositing", "both"])) { error in
            XCTAssertEqual("\(error)", "--compositing does not apply to --text-entry")
        }
        XCTAssertTrue(BenchOptions.usage.contains("modal-bench --text-entry [--style NAME|PATH]... [--size WxH]... [--runs N]"))
        XCTAssertTrue(BenchOptions.usage.contains("  --text-entry"))
    }

    func testTheModeRunsAndPrintsItsFigures() throws {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let bench = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("modal-bench").path
        guard FileManager.default.isExecutableFile(atPath: bench) else { throw XCTSkip("no modal-bench next to the test binary") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bench)
        process.arguments = ["--text-entry", "--runs", "1", "--size", "400x300"]
        var environment = ProcessInfo.processInfo.environment
        environment["MODALKIT_STYLE_PATH"] = nil   // the styles next to modal-bench
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()   // until it exits (bounded by its runs)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 1, errorText.contains("is built with a sanitizer") {
            // scripts/test --sanitize: the sanitizer's runtime owns the allocator modal-bench counts.
            throw XCTSkip("modal-bench: \(errorText)")
        }
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        func line(_ prefix: String) -> String? { lines.first { $0.hasPrefix(prefix) } }
        XCTAssertEqual(line("alert 400x300:"), "alert 400x300: 41 typed characters (1 runs of 41), 1 pastes")
        for figure in ["  typed key → frame median", "  typed key → frame p99", "  allocations per character",
                       "  allocations per character of new words",
                       "  paste 10,000 → frame median", "  paste 10,000 → frame max"] {
            XCTAssertNotNil(line(figure), "no line '\(figure)' in:\n\(lines.joined(separator: "\n"))")
        }
        XCTAssertEqual(line("  typed, next frame"), "  typed, next frame         41 of 41 shown in the frame after the key")
        XCTAssertEqual(line("  paste, next frame"), "  paste, next frame         1 of 1 shown in the frame after Ctrl+V")
        XCTAssertEqual(line("alert 400x300, password field (--secure):"),
                       "alert 400x300, password field (--secure): 41 typed characters (1 runs of 41), 1 pastes")
        XCTAssertEqual(lines.filter { $0.hasPrefix("  typed, next frame") },
                       Array(repeating: "  typed, next frame         41 of 41 shown in the frame after the key", count: 2))
        XCTAssertEqual(line("  a typed character in the frame after its key:"),
                       "  a typed character in the frame after its key: met (82 of 82)")
        XCTAssertNotNil(line("  0 heap allocations per typed character after warm-up:"))
    }
}
