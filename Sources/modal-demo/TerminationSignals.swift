import Glibc
import WaylandClient

/// The write end of the self-pipe the signal handler writes to (the only thing it touches).
private var terminationPipeWrite: Int32 = -1

/// SIGTERM and SIGINT (Ctrl+C) end the window as the compositor's close does: the window is closed
/// in the event loop, its Wayland objects destroyed in protocol order, and the demo exits 0.
///
/// The handler only writes a byte to a non-blocking self-pipe (async-signal-safe); the pipe's read
/// end is watched by ``WaylandConnection/watch(fd:events:onReady:)``, and `poll` returns for the
/// signal (EINTR) or the byte, so a window waiting for events closes at once.
enum TerminationSignals {
    /// Installs the handlers; `close` runs in the event loop after a signal.
    /// - Returns: the watch, or nil when the pipe cannot be made (the signals then keep their
    ///   default action: the process ends at once).
    static func install(on connection: WaylandConnection, close: @escaping () -> Void) -> FDWatch? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        terminationPipeWrite = fds[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(terminationPipeWrite, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_RESTART)
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
        let readEnd = fds[0]
        return connection.watch(fd: readEnd) { _ in
            var buffer = [UInt8](repeating: 0, count: 16)
            while read(readEnd, &buffer, buffer.count) > 0 {}
            close()
        }
    }
}
