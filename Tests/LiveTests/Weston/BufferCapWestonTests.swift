// Buffers without a ceiling (article "Buffers"): a window of 8192×8192 points on a scale-3
// output needs 24576×24576 buffer pixels (2.4 GB); before the cap the demo sat there with 2.4 GB
// resident and no frame. Now no buffer exceeds 16384 pixels a side or 64 Mi pixels: the window
// draws at the largest scale that fits (1), says so once on stderr, commits a frame, and exits 0
// on SIGTERM. Buffer sizes are read from the client's own requests (WAYLAND_DEBUG=client:
// `wl_shm.create_pool` sizes and `wl_shm_pool.create_buffer` sizes), not from timings.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class BufferCapWestonTests: CompositorTestCase {
    /// The cap (ModalKitWaylandClient `BufferCap`), restated from the README.
    private let maxSide = 16384, maxPixels = 1 << 26

    func testAnOversizedWindowAtScaleThreeDrawsAtScaleOneSaysSoOnceAndExitsZeroOnSIGTERM() throws {
        try checkOversizedWindow(compositing: "auto")
    }

    func testTheSameWithPixmanCompositing() throws {
        try checkOversizedWindow(compositing: "pixman")
    }

    private func checkOversizedWindow(compositing: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let weston = try startWeston(width: 800, height: 600, scale: 3)
        var env = weston.clientEnvironment
        env["WAYLAND_DEBUG"] = "client"
        // --autoplay: present and dismiss once, so the layers (dim, presented view) are made too.
        let demo = try startDemo(["--size", "8192x8192", "--compositing", compositing, "--autoplay", "--log-events"],
                                 environment: env)
        // Debug build, 64 Mi pixels drawn by pixman per full frame on a loaded CI machine: generous bounds.
        XCTAssertEqual(expectEvent(demo, "configure", timeout: 60), "configure 8192x8192", file: file, line: line)
        guard expectEvent(demo, "frame", timeout: 120, "(a committed frame)", file: file, line: line) != nil else { return }
        expectEvent(demo, "dismissed", timeout: 240, "(the autoplay cycle through the layers)", file: file, line: line)

        // The pixmaps are bounded: the highest resident set, as a figure.
        if let status = readProcFile("/proc/\(demo.pid)/status"),
           let hwm = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) {
            print("figure: --size 8192x8192 at scale 3 (\(compositing)): \(hwm.split(separator: " ", omittingEmptySubsequences: true).dropFirst().joined(separator: " ")) peak resident")
        }

        // SIGTERM closes the window like the compositor's close: exit 0.
        kill(demo.pid, SIGTERM)
        XCTAssertEqual(demo.waitForExit(timeout: 20), .exited(0), "SIGTERM: an orderly exit\n\(demo.diagnostics())",
                       file: file, line: line)
        demo.drainOutput()

        // libwayland's debug lines start with "[" (a timestamp); everything else is the demo's own.
        let own = demo.stderrLines.filter { !$0.hasPrefix("[") && !$0.isEmpty }
        XCTAssertEqual(own, ["modal-demo: a 8192x8192-point window at scale 3 needs a 24576x24576-pixel buffer, over the buffer cap (16384 pixels a side, 67108864 pixels): drawing at scale 1"],
                       "the limit said once on stderr", file: file, line: line)

        let requests = demo.stderrLines.filter { $0.hasPrefix("[") && $0.contains(" -> ") }
        let pools = requests.compactMap { line -> Int? in
            guard line.contains(".create_pool(") else { return nil }
            return Int(arguments(of: line).last ?? "")
        }
        let buffers = requests.compactMap { line -> (width: Int, height: Int, stride: Int)? in
            guard line.contains(".create_buffer(") else { return nil }
            let a = arguments(of: line).compactMap { Int($0) }   // offset, width, height, stride, format
            return a.count == 5 ? (a[1], a[2], a[3]) : nil
        }
        XCTAssertFalse(pools.isEmpty, "WAYLAND_DEBUG shows create_pool requests", file: file, line: line)
        XCTAssertFalse(buffers.isEmpty, "WAYLAND_DEBUG shows create_buffer requests", file: file, line: line)
        XCTAssertLessThanOrEqual(pools.max() ?? 0, maxPixels * 4, "every pool within 256 MiB: \(pools.sorted().suffix(3))",
                                 file: file, line: line)
        for b in buffers {
            XCTAssertTrue(b.width <= maxSide && b.height <= maxSide && b.width * b.height <= maxPixels,
                          "buffer \(b.width)x\(b.height) within the cap", file: file, line: line)
        }
        XCTAssertTrue(buffers.contains { $0.width == 8192 && $0.height == 8192 && $0.stride == 8192 * 4 },
                      "the content drawn at scale 1: 8192x8192 pixels (\(buffers.map { "\($0.width)x\($0.height)" }.suffix(8)))",
                      file: file, line: line)
        XCTAssertFalse(requests.contains { $0.contains(".set_buffer_scale(3)") || $0.contains(".set_buffer_scale(2)") },
                       "no buffer scale above the one that fits", file: file, line: line)
    }

    /// The arguments of a WAYLAND_DEBUG request line: `… -> wl_shm@5.create_pool(new id wl_shm_pool@12, fd 20, 4096)`.
    private func arguments(of line: String) -> [String] {
        guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { return [] }
        return line[line.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
