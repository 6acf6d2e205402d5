import Foundation
import Glibc
import XCTest
@testable import ModalKitWaylandClient

/// The compositor's end of a `socketpair(2)`, speaking just enough of the Wayland wire protocol
/// (wayland.xml; the wire format of the Wayland book, "Wire protocol basics") for
/// ``WaylandConnection/init(socket:)`` to succeed without a compositor: `wl_display.get_registry`
/// is answered with one `wl_registry.global` per entry of `globals`, `wl_display.sync` with
/// `wl_callback.done` and `wl_display.delete_id`, and a `wl_registry.bind` of `wl_seat` with
/// `wl_seat.capabilities` (pointer, keyboard and touch), so the client makes its input devices.
/// Every other request is read and ignored (file descriptors sent with them are dropped).
///
/// The client gets its end through `WAYLAND_SOCKET` (libwayland takes it over and closes it in
/// `wl_display_disconnect`). While ``connect()`` runs, a thread answers; afterwards the test reads
/// the socket itself: ``clientHungUp()`` tells whether the client's end has been closed, i.e.
/// whether the client's `wl_display` is disconnected.
final class SocketPairCompositor: @unchecked Sendable {
    /// (interface, version) in registry-name order (names 1, 2, …).
    let globals: [(interface: String, version: UInt32)]
    private let serverFD: Int32
    private var clientFD: Int32
    private var input: [UInt8] = []
    private var registries: Set<UInt32> = []
    private var serial: UInt32 = 100
    /// The client closed its end (EOF read).
    private var sawEOF = false

    static let required: [(interface: String, version: UInt32)] =
        [("wl_compositor", 4), ("wl_shm", 1), ("xdg_wm_base", 1)]
    /// Everything the client binds: the sub-surface backend's globals, decorations, presentation
    /// time, a seat and an output besides the required ones.
    static let everything: [(interface: String, version: UInt32)] =
        required + [("wl_subcompositor", 1), ("wp_viewporter", 1), ("zxdg_decoration_manager_v1", 1),
                    ("wp_presentation", 1), ("wl_seat", 5), ("wl_output", 3)]

    init(globals: [(interface: String, version: UInt32)]) throws {
        self.globals = globals
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw SocketPairError("socketpair: \(String(cString: strerror(errno)))")
        }
        serverFD = fds[0]
        clientFD = fds[1]
    }

    deinit {
        close(serverFD)
        if clientFD >= 0 { close(clientFD) }
    }

    /// A ``WaylandConnection`` over the pair (its start-up roundtrips answered on a thread of this
    /// object's own, which ends before this returns).
    func connect() throws -> WaylandConnection {
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw SocketPairError("pipe: \(String(cString: strerror(errno)))") }
        let stop = (read: pipeFDs[0], write: pipeFDs[1])
        defer { close(stop.read); close(stop.write) }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            serve(until: stop.read)
            done.signal()
        }
        thread.start()
        setenv("WAYLAND_SOCKET", "\(clientFD)", 1)
        clientFD = -1   // libwayland's from now on (wl_display_connect takes it over, even on failure)
        defer { unsetenv("WAYLAND_SOCKET") }
        let result = Result { try WaylandConnection(socket: nil) }
        _ = Glibc.write(stop.write, "x", 1)
        done.wait()
        return try result.get()
    }

    /// Whether the client's end of the socket is closed (its `wl_display` disconnected): reads
    /// whatever the client sent meanwhile without waiting (a close is seen at once on a
    /// socketpair: end of file, or `ECONNRESET` when the client closed with events it had not read).
    func clientHungUp() -> Bool {
        guard !sawEOF else { return true }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(serverFD, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if n > 0 { continue }
            if n < 0 && errno == EINTR { continue }
            if n == 0 || errno == ECONNRESET { sawEOF = true }
            return sawEOF
        }
    }

    // MARK: The server loop (on the thread of connect())

    private func serve(until stopFD: Int32) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var fds = [pollfd(fd: serverFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            // Bounded: the client's start-up roundtrip has a deadline of its own, and the test
            // signals the stop pipe right after it.
            guard poll(&fds, 2, 30_000) > 0, fds[1].revents == 0 else { return }
            let n = read(serverFD, &chunk, chunk.count)
            if n <= 0 {
                if n == 0 || errno == ECONNRESET { sawEOF = true }
                return
            }
            input.append(contentsOf: chunk[0..<n])
            handleMessages()
        }
    }

    private func handleMessages() {
        while input.count >= 8 {
            let object = word(input, 0)
            let size = Int(word(input, 4) >> 16)
            let opcode = word(input, 4) & 0xFFFF
            guard size >= 8, input.count >= size else { return }
            let args = Array(input[8..<size])
            input.removeFirst(size)
            if object == 1 && opcode == 0 {                    // wl_display.sync(callback)
                let callback = word(args, 0)
                serial += 1
                send(object: callback, opcode: 0, [serial])     // wl_callback.done(serial)
                send(object: 1, opcode: 1, [callback])         // wl_display.delete_id(id)
            } else if object == 1 && opcode == 1 {             // wl_display.get_registry(registry)
                let registry = word(args, 0)
                registries.insert(registry)
                for (index, global) in globals.enumerated() {
                    sendGlobal(registry: registry, name: UInt32(index + 1), global.interface, global.version)
                }
            } else if registries.contains(object) && opcode == 0 { // wl_registry.bind(name, interface, version, id)
                let name = Int(word(args, 0))
                let length = Int(word(args, 4))
                let id = word(args, 8 + (length + 3) / 4 * 4 + 4)
                if name >= 1, name <= globals.count, globals[name - 1].interface == "wl_seat" {
                    send(object: id, opcode: 0, [7])                // wl_seat.capabilities(pointer|keyboard|touch)
                }
            }
        }
    }

    private func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }

    private func send(object: UInt32, opcode: UInt32, _ words: [UInt32]) {
        var message = [object, UInt32(8 + 4 * words.count) << 16 | opcode] + words
        writeAll(&message, count: message.count * 4)
    }

    private func sendGlobal(registry: UInt32, name: UInt32, _ interface: String, _ version: UInt32) {
        var text = Array(interface.utf8) + [0]
        let length = UInt32(text.count)
        while text.count % 4 != 0 { text.append(0) }
        var bytes: [UInt8] = []
        for w in [registry, UInt32(8 + 4 + 4 + text.count + 4) << 16 | 0, name, length] {
            withUnsafeBytes(of: w) { bytes.append(contentsOf: $0) }
        }
        bytes += text
        withUnsafeBytes(of: version) { bytes.append(contentsOf: $0) }
        writeAll(&bytes, count: bytes.count)
    }

    private func writeAll(_ pointer: UnsafeRawPointer, count: Int) {
        var offset = 0
        while offset < count {
            let n = Glibc.write(serverFD, pointer + offset, count - offset)
            if n <= 0 { return }
            offset += n
        }
    }
}

struct SocketPairError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
