// Shared memory and sizes under a private headless sway (article "Buffers"):
// - No memfd (memfd_create fails with ENOSYS, as on kernels before 3.17 or under a seccomp filter
//   that does not know it; an LD_PRELOAD shim, Fixtures/no_memfd.c, compiled here): the window
//   takes its buffers from shm_open'ed objects, unlinked at once, and draws and works with both
//   the sub-surface and the pixman backend. Before: pixman exited 1, sub-surfaces never drew and
//   never exited.
// - No shared memory at all (shm_open fails too): exit 1 with one line naming both causes, with
//   both backends — never a window left open without frames.
// - A window over the buffer cap even at 1 pixel per point (a 17000-point wide tile): exit 1 with
//   one line.
// - At rest after a presentation and its dismissal, the window keeps only the buffer the compositor
//   shows, as foot does (docs/design.md, start-up and footprint), with both backends.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class SharedMemorySwayTests: CompositorTestCase {
    typealias Support = PluginTestSupport

    /// The shim compiled into a temporary directory, and the marker file it appends a line to on
    /// each call it intercepts.
    private func compileShim(noShmOpen: Bool = false) throws -> (library: String, marker: String) {
        let dir = try Support.temporaryDirectory(self, "no-memfd")
        let library = dir + "/libno_memfd.so", marker = dir + "/calls"
        let arguments = ["-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror", "-DNO_MEMFD_MARKER=\"\(marker)\""]
            + (noShmOpen ? ["-DNO_SHM_OPEN"] : [])
            + ["-o", library, Support.packageRoot + "/Tests/ModalKitTestHarness/Fixtures/no_memfd.c"]
        let compiler = try Support.cCompiler()
        let result = try Support.run(compiler, arguments, timeout: 120)
        guard result.status == 0 else {
            throw PluginTestFailure("\(compiler) \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
        return (library, marker)
    }

    private func modalkitObjectsInDevShm() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []).filter { $0.hasPrefix("modalkit-") }
    }

    func testWithoutMemfdTheSubsurfaceBackendDrawsAndWorks() throws {
        try checkWithoutMemfd(compositing: "subsurface", backend: "subsurface")
    }

    func testWithoutMemfdThePixmanBackendDrawsAndWorks() throws {
        try checkWithoutMemfd(compositing: "pixman", backend: "pixman")
    }

    private func checkWithoutMemfd(compositing: String, backend: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let shim = try compileShim()
        let sway = try startSway()
        let leftBefore = modalkitObjectsInDevShm()
        let (demo, window) = try launchDemo(["--compositing", compositing], in: sway, environment: ["LD_PRELOAD": shim.library],
                                            file: file, line: line)
        let calls = (try? String(contentsOfFile: shim.marker, encoding: .utf8)) ?? ""
        XCTAssertTrue(calls.contains("memfd_create"), "the shim took memfd_create away: \(calls)", file: file, line: line)

        // The buffers are shm_open'ed objects, mapped and already unlinked: "(deleted)" in the maps,
        // nothing of ours left in /dev/shm.
        // Read whole (`readProcFile`): Foundation's String(contentsOfFile:) stops after the first
        // 4 KiB of a /proc file, which holds only the first few dozen mappings.
        let maps = readProcFile("/proc/\(demo.pid)/maps") ?? ""
        let shared = maps.split(separator: "\n").filter { $0.contains("/dev/shm/modalkit-wl_shm-") }
        XCTAssertFalse(shared.isEmpty, "window buffers from /dev/shm/modalkit-wl_shm-…", file: file, line: line)
        XCTAssertTrue(shared.allSatisfy { $0.hasSuffix("(deleted)") }, "unlinked at once: \(shared)", file: file, line: line)
        XCTAssertEqual(modalkitObjectsInDevShm(), leftBefore, "no name left in /dev/shm", file: file, line: line)

        // It draws: the Present button in the middle of the tile.
        let shot = try sway.stableScreenshot()
        keep(shot, "window")
        let button = findButton(in: shot, window: window.rect)
        XCTAssertNotNil(button, "the Present button drawn in \(window.rect)", file: file, line: line)
        if let button {
            XCTAssertEqual(button.midX, window.rect.midX, accuracy: 1.5, "\(button)", file: file, line: line)
            XCTAssertEqual(button.midY, window.rect.midY, accuracy: 1.5, "\(button)", file: file, line: line)
        }
        // And works: Return presents (the dim and the presented view: colour buffers and layer
        // images on the sub-surface backend), Escape dismisses.
        let vnc = try startVNC(sway)
        let mark = demo.mark()
        try vnc.key("enter")
        expectEvent(demo, "presented", since: mark, file: file, line: line)
        if backend == "subsurface" {
            // While the dim is shown: its colour buffers are mapped.
            let layerMaps = (readProcFile("/proc/\(demo.pid)/maps") ?? "")
                .split(separator: "\n").filter { $0.contains("/dev/shm/modalkit-colors-") }
            XCTAssertFalse(layerMaps.isEmpty, "the dim's colour buffers from /dev/shm too", file: file, line: line)
        }
        try vnc.key("esc")
        expectEvent(demo, "dismissed", since: mark, file: file, line: line)
        let frames = demo.events("frame", since: mark)
        XCTAssertTrue(frames.contains { $0.contains("backend=\(backend)") }, "frames of the \(backend) backend: \(frames.prefix(4))",
                      file: file, line: line)
        XCTAssertEqual(modalkitObjectsInDevShm(), leftBefore, "no name left in /dev/shm", file: file, line: line)

        kill(demo.pid, SIGTERM)
        XCTAssertEqual(demo.waitForExit(timeout: eventTimeout), .exited(0), demo.diagnostics(), file: file, line: line)
        demo.drainOutput()
        XCTAssertEqual(demo.stderrLines, [], "nothing to say", file: file, line: line)
    }

    func testWithoutAnySharedMemoryTheSubsurfaceBackendExitsOneWithOneLine() throws {
        try checkWithoutSharedMemory(compositing: "subsurface")
    }

    func testWithoutAnySharedMemoryThePixmanBackendExitsOneWithOneLine() throws {
        try checkWithoutSharedMemory(compositing: "pixman")
    }

    private func checkWithoutSharedMemory(compositing: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let shim = try compileShim(noShmOpen: true)
        let sway = try startSway()
        var env = sway.clientEnvironment
        env["LD_PRELOAD"] = shim.library
        let demo = try startDemo(["--compositing", compositing, "--log-events"], environment: env)
        XCTAssertEqual(demo.waitForExit(timeout: eventTimeout), .exited(1), "exit 1, not a window without frames\n\(demo.diagnostics())",
                       file: file, line: line)
        demo.drainOutput()
        XCTAssertEqual(demo.stderrLines,
                       ["modal-demo: cannot allocate a shared-memory buffer: memfd_create: Function not implemented; shm_open: Permission denied"],
                       file: file, line: line)
        XCTAssertEqual(demo.events("frame"), [], "no frame was committed", file: file, line: line)
        let calls = (try? String(contentsOfFile: shim.marker, encoding: .utf8)) ?? ""
        XCTAssertTrue(calls.contains("memfd_create") && calls.contains("shm_open"), calls, file: file, line: line)
    }

    /// A tile 17000 points wide is over the 16384-pixel side even at scale 1: exit 1 with one line
    /// (the window cannot draw below one pixel per point).
    func testAtRestOnlyTheShownBufferStaysMappedWithSubsurfaces() throws {
        try checkAtRest(compositing: "subsurface")
    }

    func testAtRestOnlyTheShownBufferStaysMappedWithPixman() throws {
        try checkAtRest(compositing: "pixman")
    }

    /// `--autoplay` presents and dismisses once; then, with nothing left to draw, the window's
    /// `wl_shm` buffers come down to one: 800 × 600 × 4 bytes, the one sway shows (a compositor
    /// holding the one before it releases that one when it likes; the window destroys it then, or
    /// at once when it was already released). No presented view's image buffer stays.
    private func checkAtRest(compositing: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let sway = try startSway(windowWidth: 800, windowHeight: 600)
        let (demo, window) = try launchDemo(["--autoplay", "--compositing", compositing, "--duration", "0.3"], in: sway,
                                            file: file, line: line)
        XCTAssertEqual(window.rect.width, 800, file: file, line: line)
        XCTAssertEqual(window.rect.height, 600, file: file, line: line)
        guard expectEvent(demo, "dismissed", timeout: 20, file: file, line: line) != nil else { return }
        /// The sizes in bytes of the window's and layers' buffer mappings (`/memfd:modalkit-wl_shm`).
        func bufferMappings() -> [Int] {
            guard let maps = readProcFile("/proc/\(demo.pid)/maps") else { return [] }
            return maps.split(separator: "\n")
                .filter { $0.contains("/memfd:modalkit-wl_shm") }
                .compactMap { entry -> Int? in
                    let range = entry.prefix { $0 != " " }.split(separator: "-")
                    guard range.count == 2, let start = Int(range[0], radix: 16), let end = Int(range[1], radix: 16) else { return nil }
                    return end - start
                }
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let shown = (800 * 600 * 4 + page - 1) / page * page
        var last: [Int] = []
        let rested = waitUntil(timeout: eventTimeout, interval: 0.1) {
            last = bufferMappings()
            return last == [shown]
        }
        XCTAssertTrue(rested, "\(compositing): at rest only the shown buffer (\(shown) bytes) is mapped: \(last)",
                      file: file, line: line)
        XCTAssertTrue(demo.isRunning, file: file, line: line)
        kill(demo.pid, SIGTERM)
        XCTAssertEqual(demo.waitForExit(timeout: eventTimeout), .exited(0), demo.diagnostics(), file: file, line: line)
    }

    func testAWindowOverTheCapAtScaleOneExitsOneWithOneLine() throws {
        let sway = try startSway(windowWidth: 17000, windowHeight: 200)
        let demo = try startDemo(["--log-events"], in: sway)
        XCTAssertEqual(demo.waitForExit(timeout: eventTimeout), .exited(1), demo.diagnostics())
        demo.drainOutput()
        XCTAssertEqual(demo.stderrLines,
                       ["modal-demo: the compositor asked for a 17000x200-point window, over the buffer cap (16384 pixels a side, 67108864 pixels) even at 1 pixel per point"])
    }
}
