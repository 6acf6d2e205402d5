import CModalKitWaylandClient
import Glibc

/// libwayland-client's log messages.
///
/// libwayland prints errors itself (for example `xdg_surface@12: error 3: …` before a protocol
/// error closes the connection). This client turns every failure into one thrown ``WaylandError``
/// and one stderr line, so the messages are captured here instead and the last one is folded into
/// the error it explains. Warnings (lines starting with "warning") still go to stderr.
enum LibwaylandLog {
    /// The last message libwayland logged, without its trailing newline ("" for none).
    private(set) static var lastMessage = ""

    /// Installs the handler (process-wide, once).
    static let install: Void = {
        wl_log_set_handler_client { format, arguments in
            guard let format, let arguments else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            var message = String(cString: buffer)
            while message.hasSuffix("\n") { message.removeLast() }
            if message.hasPrefix("warning") || message.hasPrefix("  ") {
                fputs(message + "\n", stderr)
            } else {
                LibwaylandLog.lastMessage = message
            }
        }
    }()

    /// Forgets the last message (before an operation whose failure should not pick up an old one).
    static func clear() { lastMessage = "" }
}
