import Glibc
import ModalKitWaylandClient

/// The write end of the self-pipe the signal handler writes to (the only thing it touches).
private var terminationPipeWrite: Int32 = -1

/// SIGTERM and SIGINT (Ctrl+C) end a window as the compositor's close does: the window is closed in
/// the event loop, its Wayland objects destroyed in protocol order, and ``WaylandConnection/run()``
/// returns normally (the process exits 0).
///
/// The handler only writes a byte to a non-blocking self-pipe (async-signal-safe); the pipe's read
/// end is watched by ``WaylandConnection/watch(fd:events:onReady:)``, and `poll` returns for the
/// signal (EINTR) or the byte, so a window waiting for events closes at once. The handlers and the
/// pipe are process-wide, installed by the first window that asks; each window watches the pipe.
final class TerminationSignals {
    private static var readEnd: Int32 = -1
    private weak var connection: WaylandConnection?
    private var watch: FDWatch?

    /// Installs the handlers (once per process) and watches the pipe on `connection`'s loop; `close`
    /// runs in the loop after a signal. Without a pipe the signals keep their default action (the
    /// process ends at once).
    init(connection: WaylandConnection, close: @escaping () -> Void) {
        guard Self.install() else { return }
        self.connection = connection
        let fd = Self.readEnd
        watch = connection.watch(fd: fd) { _ in
            var buffer = [UInt8](repeating: 0, count: 16)
            while read(fd, &buffer, buffer.count) > 0 {}
            close()
        }
    }

    deinit {
        if let watch { connection?.removeWatch(watch) }
    }

    private static func install() -> Bool {
        if readEnd >= 0 { return true }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return false }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        terminationPipeWrite = fds[1]
        readEnd = fds[0]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(terminationPipeWrite, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_RESTART)
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
        return true
    }
}
