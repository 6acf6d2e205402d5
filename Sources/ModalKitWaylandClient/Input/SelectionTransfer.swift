import Glibc
import ModalKitSystemSupport

/// Reads a selection's data from the pipe a `receive` request gave the source's client, on the
/// connection's loop (an ``EventLoopSource``): the descriptor is non-blocking, each wake-up reads
/// what is there, and the completion runs once — with the bytes as text (invalid UTF-8 repaired)
/// at end of file, at most ``cap`` bytes (a longer selection is cut at the last whole character
/// below the cap, with one line on stderr), or nil when the read fails or the source sends nothing
/// for ``idleTimeout`` seconds. Never blocks the loop. Owns the read end and closes it when done.
final class SelectionReader: EventLoopSource {
    /// The most a paste reads: 16 MiB.
    static let cap = 16 << 20
    /// How long a source may send nothing before the read is given up (seconds).
    static let idleTimeout = 10.0

    private var fd: Int32
    private var data: [UInt8] = []
    private var completion: ((String?) -> Void)?
    private weak var connection: WaylandConnection?
    private var deadline: Double
    private let what: String

    /// Starts reading `fd` (nil: nothing offered; the completion gets nil on the next iteration).
    /// - Parameter what: the selection's name for the stderr line ("clipboard", "primary selection").
    init(fd: Int32?, what: String, connection: WaylandConnection, completion: @escaping (String?) -> Void) {
        self.fd = fd ?? -1
        self.what = what
        self.connection = connection
        self.completion = completion
        deadline = monotonicSeconds() + Self.idleTimeout
        if let fd { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        connection.addSource(self)
    }

    func prepare(_ descriptors: inout [PollDescriptor]) -> Double? {
        guard fd >= 0 else { return 0 }
        descriptors.append(PollDescriptor(fd: fd, events: .readable))
        return max(0, deadline - monotonicSeconds())
    }

    func dispatch(_ descriptors: [PollDescriptor]) {
        guard fd >= 0 else { return finish(nil) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                deadline = monotonicSeconds() + Self.idleTimeout
                data.append(contentsOf: chunk[0..<n])
                if data.count > Self.cap {
                    fputs("warning: the \(what) holds more than \(Self.cap) bytes (16 MiB); pasting only the first \(Self.cap)\n", stderr)
                    return finish(Array(Self.cut(data, toAtMost: Self.cap)))
                }
            } else if n == 0 {
                return finish(data)
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN {
                break
            } else {
                fputs("warning: reading the \(what) failed: \(errnoDescription())\n", stderr)
                return finish(nil)
            }
        }
        if monotonicSeconds() >= deadline {
            fputs("warning: the \(what)'s owner sent nothing for \(Int(Self.idleTimeout)) s; paste abandoned\n", stderr)
            finish(nil)
        }
    }

    /// `data` cut to at most `cap` bytes (all of it when it fits), leaving out the character that
    /// crosses the cap: the lead byte at most 3 bytes before it (UTF-8's longest sequence is 4)
    /// whose sequence reaches past it. Continuation bytes that follow no such lead byte are kept
    /// (decoded as U+FFFD, as anywhere else in the text).
    static func cut(_ data: [UInt8], toAtMost cap: Int) -> ArraySlice<UInt8> {
        let cap = max(0, cap)
        guard data.count > cap else { return data[...] }
        var lead = cap
        while lead > max(0, cap - 3) && data[lead] & 0xC0 == 0x80 { lead -= 1 }
        let b = data[lead], length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
        return data[..<(b >= 0xC0 && lead + length > cap ? lead : cap)]
    }

    private func finish(_ bytes: [UInt8]?) {
        if fd >= 0 { close(fd) }
        fd = -1
        connection?.removeSource(self)
        let completion = self.completion
        self.completion = nil
        completion?(bytes.map { String(decoding: $0, as: UTF8.self) })
    }
}

/// Writes the bytes of a selection this client owns into the pipe of a `send` event, on the
/// connection's loop: non-blocking, as much as the pipe takes per wake-up, then closes it. A reader
/// that goes away (`EPIPE`) ends the write without a `SIGPIPE` (blocked on this thread around the
/// write, a pending one consumed). Owns the descriptor.
final class SelectionWriter: EventLoopSource {
    private var fd: Int32
    private let bytes: [UInt8]
    private var offset = 0
    private weak var connection: WaylandConnection?
    private var deadline: Double

    /// Starts writing `bytes` to `fd` (takes ownership of it).
    init(fd: Int32, bytes: [UInt8], connection: WaylandConnection) {
        self.fd = fd
        self.bytes = bytes
        self.connection = connection
        deadline = monotonicSeconds() + SelectionReader.idleTimeout
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        connection.addSource(self)
    }

    func prepare(_ descriptors: inout [PollDescriptor]) -> Double? {
        descriptors.append(PollDescriptor(fd: fd, events: .writable))
        return max(0, deadline - monotonicSeconds())
    }

    func dispatch(_ descriptors: [PollDescriptor]) {
        var blocked = sigset_t(), old = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 {
                offset += n
                deadline = monotonicSeconds() + SelectionReader.idleTimeout
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && errno == EAGAIN {
                if monotonicSeconds() >= deadline { return finish() }   // a reader that stopped reading
                return
            } else {
                if errno == EPIPE {
                    var zero = timespec()
                    _ = sigtimedwait(&blocked, nil, &zero)   // the SIGPIPE this write raised
                }
                return finish()
            }
        }
        finish()
    }

    private func finish() {
        close(fd)
        connection?.removeSource(self)
    }
}
