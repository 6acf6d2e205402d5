// A private headless weston: a second, independent compositor (desktop-shell, pixman renderer,
// no input devices). Its first xdg_toplevel.configure is 0×0 ("client chooses").
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `weston --backend=headless-backend.so --use-pixman --debug` with its own XDG_RUNTIME_DIR and
/// socket. Runs as the current user (weston, unlike sway, accepts root). `--debug` enables the
/// screenshooter protocol that `weston-screenshooter` uses.
public final class HeadlessWeston: WaylandSession {
    /// The background weston paints where no window is (0xRRGGBB, set through weston.ini).
    public static let background = RGB(0x20, 0x30, 0x40)

    public let runtimeDirectory: String
    public let displayName: String
    public let process: ChildProcess
    private let teardown: SessionTeardown

    /// Starts weston and waits (bounded) for its socket. `width`×`height` is the output's size in
    /// pixels; `scale` its integer `wl_output.scale`.
    /// - Throws: `HarnessError` with weston's log when it does not come up within `timeout` s.
    /// `repaintWindow`: weston.ini's `[core] repaint-window` (ms before the next refresh at which
    /// weston composes). The headless backend finishes a frame 16 ms after composing it, so its
    /// cadence is 16 ms + (16.67 ms − the window): ~25 ms with the default 7; 16 gives 60 Hz.
    public init(width: Int = 800, height: Int = 600, scale: Int = 1, repaintWindow: Int? = nil, timeout: Double = 15) throws {
        let me = SessionUser(name: "self", uid: getuid(), gid: getgid())
        runtimeDirectory = try me.makePrivateDirectory(prefix: "modalkit-weston")
        teardown = SessionTeardown(removing: runtimeDirectory)
        displayName = "modalkit-weston-\(getpid())"
        let ini = runtimeDirectory + "/weston.ini"
        let bg = HeadlessWeston.background
        do {
            // No panel, no input-method helper, no idle blanking, a known background colour.
            try """
            [core]
            idle-time=0
            require-input=false
            \(repaintWindow.map { "repaint-window=\($0)" } ?? "")
            [input-method]
            path=
            [shell]
            panel-position=none
            background-color=0xff\(String(format: "%02x%02x%02x", bg.r, bg.g, bg.b))
            locking=false
            animation=none
            close-animation=none
            startup-animation=none

            """.write(toFile: ini, atomically: false, encoding: .utf8)
        } catch {
            teardown.run()
            throw HarnessError("cannot write \(ini): \(error)")
        }
        let env = sessionProcessEnvironment(runtimeDirectory)
        do {
            process = try ChildProcess(
                ["weston", "--backend=headless-backend.so", "--use-pixman", "--debug",
                 "--socket=\(displayName)", "--width=\(width)", "--height=\(height)", "--scale=\(scale)",
                 "--config=\(ini)", "--idle-time=0"],
                environment: env)
        } catch {
            teardown.run()
            throw error
        }
        teardown.add(process)
        let socket = runtimeDirectory + "/" + displayName
        let up = waitUntil(timeout: timeout, interval: 0.05) { !process.isRunning || isSocket(socket) }
        guard up, process.isRunning else {
            stop()
            throw HarnessError("headless weston did not start:\n\(process.diagnostics())")
        }
        // desktop-shell's helper client draws the background after start-up; wait until a
        // screenshot shows it so that tests see a known picture.
        let painted = waitUntil(timeout: timeout, interval: 0.1) {
            guard let shot = try? screenshot() else { return false }
            return shot[shot.width / 2, shot.height / 2] == bg
        }
        guard painted else {
            stop()
            throw HarnessError("headless weston never showed its background:\n\(process.diagnostics())")
        }
    }

    deinit { stop() }

    public func stop() { teardown.run() }

    /// A screenshot of the output: `weston-screenshooter` writes a PNG into its working directory.
    public func screenshot() throws -> RGBImage {
        let dir = runtimeDirectory + "/shot-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { removeTree(dir) }
        let r = try ChildProcess.run(["weston-screenshooter"], environment: clientEnvironment,
                                     workingDirectory: dir, timeout: 10)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir))?.filter { $0.hasSuffix(".png") } ?? []
        guard r.status == .exited(0), let file = files.first else {
            throw HarnessError("weston-screenshooter failed (\(r.status)): \(r.stderr)")
        }
        return try RGBImage.loadPNG(path: dir + "/" + file)
    }
}
