// Acceptance: a compositor that lacks a needed global, offers it only below the version the
// client needs, or goes away mid-handshake → modal-demo exits with status 1 and prints exactly
// one stderr line naming it; no crash (signal), no hang.
//
// The compositor is Fixtures/fake_compositor.c (libwayland-server), compiled at test time with the
// committed xdg-shell interface tables and run on a socket in a private XDG_RUNTIME_DIR. modal-demo
// needs wl_compositor (version 4: wl_surface.damage_buffer is "since 4" in wayland.xml), wl_shm and
// xdg_wm_base (WaylandConnection, GlobalVersions; docs/design.md, module graph).
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class MissingGlobalTests: CompositorTestCase {
    /// A running fake compositor: its process and the environment a client needs to reach it.
    private struct FakeCompositor {
        let process: ChildProcess
        let runtimeDirectory: String
        let socketName: String

        var clientEnvironment: [String: String] {
            harnessEnvironment(["WAYLAND_DISPLAY": socketName, "WAYLAND_SOCKET": nil,
                                "XDG_RUNTIME_DIR": runtimeDirectory])
        }

        /// Waits (bounded) for a line of its stderr log (one per bind, request and disconnect)
        /// that satisfies `predicate`.
        func waitForLog(timeout: Double, _ predicate: @escaping (String) -> Bool) -> Bool {
            process.stderr.wait(timeout: timeout) { $0.contains(where: predicate) ? true : nil } ?? false
        }
    }

    private var fixtureSource: String { PluginTestSupport.packageRoot + "/Tests/ModalKitTestHarness/Fixtures/fake_compositor.c" }
    private var xdgShellTables: String { PluginTestSupport.packageRoot + "/CWayland/Protocols/xdg-shell-protocol.c" }
    private var viewporterTables: String { PluginTestSupport.packageRoot + "/CWayland/Protocols/viewporter-protocol.c" }

    /// Compiles the fake compositor into a temporary directory (removed at tear-down).
    private func compileFakeCompositor() throws -> String {
        guard let pkgConfig = findExecutable("pkg-config") else {
            throw PluginTestFailure("pkg-config not found (needed for wayland-server flags; it also builds the package)")
        }
        let flags = try PluginTestSupport.run(pkgConfig, ["--cflags", "--libs", "wayland-server"], timeout: 30)
        guard flags.status == 0 else {
            throw PluginTestFailure("pkg-config --cflags --libs wayland-server failed (libwayland-dev installed?): \(flags.stderr)")
        }
        let directory = try PluginTestSupport.temporaryDirectory(self, "fake-compositor")
        let binary = directory + "/fake_compositor"
        let arguments = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-o", binary, fixtureSource, xdgShellTables, viewporterTables]
            + flags.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let compiler = try PluginTestSupport.cCompiler()
        let result = try PluginTestSupport.run(compiler, arguments, timeout: 120)
        guard result.status == 0 else {
            throw PluginTestFailure("\(compiler) \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
        return binary
    }

    /// Compiles and starts the fake compositor with `arguments` on a new socket in a new private
    /// runtime directory, and waits (bounded) until it listens. Stopped by PID at tear-down.
    private func startFakeCompositor(_ arguments: [String]) throws -> FakeCompositor {
        let binary = try compileFakeCompositor()
        let runtimeDirectory = try SessionUser(name: "self", uid: getuid(), gid: getgid())
            .makePrivateDirectory(prefix: "modalkit-fakecomp")
        addTeardownBlock { removeTree(runtimeDirectory) }
        let socketName = "fake-wayland-\(getpid())"
        let process = try ChildProcess([binary, "--socket", socketName, "--lifetime", "120"] + arguments,
                                       environment: harnessEnvironment(["XDG_RUNTIME_DIR": runtimeDirectory,
                                                                        "WAYLAND_DISPLAY": nil]),
                                       name: "fake_compositor")
        addTeardownBlock { process.stop(timeout: 3) }   // registered after removeTree: runs before it
        let fake = FakeCompositor(process: process, runtimeDirectory: runtimeDirectory, socketName: socketName)
        // "ready" is printed after wl_display_add_socket returned, i.e. once the socket listens.
        let ready = process.stdout.wait(timeout: eventTimeout) { $0.contains("ready") ? true : nil } ?? false
        guard ready, isSocket(runtimeDirectory + "/" + socketName) else {
            throw HarnessError("fake compositor not listening on \(runtimeDirectory)/\(socketName) within \(eventTimeout) s:\n\(process.diagnostics())")
        }
        return fake
    }

    /// Runs modal-demo against `fake` and checks the rule: exit status 1 within a bounded time
    /// (not a signal, not a hang), exactly one stderr line, which contains `expected`, and no
    /// window was configured. Returns the line.
    @discardableResult
    private func expectOneLineExit(against fake: FakeCompositor, naming expected: String,
                                   file: StaticString = #filePath, line: UInt = #line) throws -> String? {
        let demo = try startDemo(["--log-events"], environment: fake.clientEnvironment)
        let status = demo.waitForExit(timeout: eventTimeout)
        XCTAssertEqual(status, .exited(1), "modal-demo must exit with status 1 (nil = still running after \(eventTimeout) s)\n\(demo.diagnostics())\n\(fake.process.diagnostics())",
                       file: file, line: line)
        demo.drainOutput()
        XCTAssertEqual(demo.stderrLines.count, 1, "exactly one stderr line: \(demo.stderrLines)", file: file, line: line)
        let message = demo.stderrLines.first
        XCTAssertTrue(message?.hasPrefix("modal-demo: ") ?? false, "the line says who speaks: \(demo.stderrLines)", file: file, line: line)
        XCTAssertTrue(message?.contains(expected) ?? false, "the line names \(expected): \(demo.stderrLines)", file: file, line: line)
        XCTAssertEqual(demo.events("configure"), [], "no window may be configured", file: file, line: line)
        return message
    }

    /// Missing a global: the compositor is still there (the client gave up, it was not cut off),
    /// and the line names the missing interface and none of the advertised ones.
    private func checkMissing(_ missing: String, advertising globals: String, alsoAdvertised: [String],
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let fake = try startFakeCompositor(["--globals", globals])
        let message = try expectOneLineExit(against: fake, naming: missing, file: file, line: line)
        for other in alsoAdvertised {
            XCTAssertFalse(message?.contains(other) ?? false, "the line names only the missing global: \(message ?? "")",
                           file: file, line: line)
        }
        XCTAssertTrue(fake.process.isRunning, "the fake compositor kept running\n\(fake.process.diagnostics())",
                      file: file, line: line)
    }

    func testMissingXdgWmBaseExitsOneWithOneLineNamingIt() throws {
        try checkMissing("xdg_wm_base", advertising: "compositor,shm", alsoAdvertised: ["wl_compositor", "wl_shm"])
    }

    func testMissingWlCompositorExitsOneWithOneLineNamingIt() throws {
        try checkMissing("wl_compositor", advertising: "shm,xdg_wm_base", alsoAdvertised: ["wl_shm", "xdg_wm_base"])
    }

    func testMissingWlShmExitsOneWithOneLineNamingIt() throws {
        try checkMissing("wl_shm", advertising: "compositor,xdg_wm_base", alsoAdvertised: ["wl_compositor", "xdg_wm_base"])
    }

    /// wl_compositor offered at version 3, below the 4 that wl_surface.damage_buffer needs: one
    /// line naming the interface, the version offered and the one needed; the client never binds it.
    func testWlCompositorBelowVersionFourExitsOneWithOneLineNamingBothVersions() throws {
        let fake = try startFakeCompositor(["--globals", "compositor:3,shm,xdg_wm_base"])
        let message = try expectOneLineExit(
            against: fake, naming: "the compositor offers wl_compositor version 3; modal-demo needs 4 (for wl_surface.damage_buffer)")
        XCTAssertEqual(message, "modal-demo: the compositor offers wl_compositor version 3; modal-demo needs 4 (for wl_surface.damage_buffer)")
        XCTAssertTrue(fake.process.isRunning, "the fake compositor kept running\n\(fake.process.diagnostics())")
        XCTAssertFalse(fake.process.stderr.lines.contains { $0.hasPrefix("fake_compositor: bound wl_compositor") },
                       "a global below the minimum is not bound\n\(fake.process.diagnostics())")
    }

    /// The minimum itself is enough, and a newer version than the client implements is bound at
    /// the client's (xdg_wm_base offered at 5 = the client's newest: bound at 5; wl_compositor at
    /// exactly 4): the client goes on to ask for its toplevel and waits for the configure.
    func testGlobalsAtTheMinimumAreBoundAndTheClientCarriesOn() throws {
        let fake = try startFakeCompositor(["--globals", "compositor:4,shm:1,xdg_wm_base:5"])
        let demo = try startDemo(["--log-events"], environment: fake.clientEnvironment)
        XCTAssertTrue(fake.waitForLog(timeout: eventTimeout) { $0 == "fake_compositor: request xdg_surface.get_toplevel" },
                      "the client asked for its toplevel\n\(demo.diagnostics())\n\(fake.process.diagnostics())")
        let lines = fake.process.stderr.lines
        XCTAssertTrue(lines.contains("fake_compositor: bound wl_compositor v4"), "\(lines)")
        XCTAssertTrue(lines.contains("fake_compositor: bound xdg_wm_base v5"), "\(lines)")
        XCTAssertTrue(lines.contains("fake_compositor: bound wl_shm v1"), "\(lines)")
        XCTAssertNil(demo.waitForExit(timeout: 0.5), "the client waits for its configure\n\(demo.diagnostics())")
    }

    /// Every global advertised, but the compositor closes the connection when the client binds
    /// the first one (right after the roundtrip that listed them): the second roundtrip fails.
    func testCompositorGoingAwayAfterBindExitsOneWithOneLine() throws {
        let fake = try startFakeCompositor(["--disconnect-after-bind"])
        try expectOneLineExit(against: fake, naming: "lost connection to the Wayland compositor")
        XCTAssertTrue(fake.waitForLog(timeout: eventTimeout) { $0.hasPrefix("fake_compositor: disconnected client after bind of ") },
                      "the fake compositor cut the client off after a bind\n\(fake.process.diagnostics())")
    }

    /// The compositor closes the connection when the client asks for its toplevel: the client is
    /// then in its event loop waiting for the first configure, and must not wait forever.
    func testCompositorGoingAwayBeforeFirstConfigureExitsOneWithOneLine() throws {
        let fake = try startFakeCompositor(["--disconnect-on-request", "get_toplevel"])
        try expectOneLineExit(against: fake, naming: "lost connection to the Wayland compositor")
        XCTAssertTrue(fake.waitForLog(timeout: eventTimeout) { $0 == "fake_compositor: disconnected client on request get_toplevel" },
                      "the fake compositor cut the client off at get_toplevel\n\(fake.process.diagnostics())")
    }

    // MARK: the sub-surface backend's globals (--compositing)

    /// `--compositing subsurface` on a compositor without `missing`: a bad command line for this
    /// compositor — exit 2, one line naming the missing global, no window.
    private func checkSubsurfaceRefused(missing: String, advertising globals: String,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        let fake = try startFakeCompositor(["--globals", globals])
        let demo = try startDemo(["--log-events", "--compositing", "subsurface"], environment: fake.clientEnvironment)
        let status = demo.waitForExit(timeout: eventTimeout)
        XCTAssertEqual(status, .exited(2), "exit 2\n\(demo.diagnostics())", file: file, line: line)
        demo.drainOutput()
        XCTAssertEqual(demo.stderrLines, ["modal-demo: --compositing subsurface needs \(missing), which the compositor does not offer"],
                       file: file, line: line)
        XCTAssertEqual(demo.events("configure"), [], "no window", file: file, line: line)
        XCTAssertFalse(fake.process.stderr.lines.contains { $0.contains("get_toplevel") }, "no toplevel was asked for",
                       file: file, line: line)
    }

    func testSubsurfaceCompositingWithoutSubcompositorExitsTwoNamingIt() throws {
        try checkSubsurfaceRefused(missing: "wl_subcompositor", advertising: "compositor,shm,xdg_wm_base,viewporter")
    }

    func testSubsurfaceCompositingWithoutViewporterExitsTwoNamingIt() throws {
        try checkSubsurfaceRefused(missing: "wp_viewporter", advertising: "compositor,shm,xdg_wm_base,subcompositor")
    }

    /// `--compositing auto` (the default) on the same compositors falls back to pixman: the client
    /// carries on to its toplevel and waits for the configure; it never makes a sub-surface.
    func testAutoCompositingWithoutTheGlobalsCarriesOnWithPixman() throws {
        for globals in ["compositor,shm,xdg_wm_base,viewporter", "compositor,shm,xdg_wm_base,subcompositor"] {
            let fake = try startFakeCompositor(["--globals", globals])
            let demo = try startDemo(["--log-events"], environment: fake.clientEnvironment)
            XCTAssertTrue(fake.waitForLog(timeout: eventTimeout) { $0 == "fake_compositor: request xdg_surface.get_toplevel" },
                          "the client asked for its toplevel\n\(demo.diagnostics())\n\(fake.process.diagnostics())")
            XCTAssertNil(demo.waitForExit(timeout: 0.5), "the client waits for its configure\n\(demo.diagnostics())")
            XCTAssertFalse(fake.process.stderr.lines.contains { $0.contains("get_subsurface") }, "\(fake.process.stderr.lines)")
            demo.stop()
            fake.process.stop(timeout: 3)
        }
    }
}
