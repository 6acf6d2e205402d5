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
/// Every request is recorded with the interface of its object (``requests``: the interfaces of
/// the objects the client makes are followed from `wl_registry.bind` and the requests that make
/// them), so a test counts what reached the wire; file descriptors sent with them are dropped.
///
/// While ``serve(deadline:)`` runs it also acts as a compositor for one toplevel
/// (``actsAsCompositor``): the first commit of the toplevel's surface gets a configure
/// (``sendConfigure(width:height:states:)``: `xdg_toplevel.configure` then `xdg_surface.configure`),
/// each commit of a surface the `done` of the frame callbacks requested for it
/// (``sendFrameDone(_:)``) and, when it replaces the surface's buffer, the `wl_buffer.release` of
/// the one it replaces (``sendRelease(_:)``).
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

    /// One request as it reached the compositor: the object's id and interface, the opcode and
    /// the argument words (file descriptors travel beside them).
    struct Request {
        var object: UInt32
        var interface: String
        var opcode: UInt32
        var args: [UInt8]
        /// The argument word at `index` (0-based).
        func word(_ index: Int) -> UInt32 {
            args.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self) }
        }
    }
    /// Every request read, in order. Read it only while no thread serves (after ``connect()`` or
    /// ``serve(deadline:)`` returned).
    private(set) var requests: [Request] = []
    /// The interface of each object the client made, by id (`wl_display` is 1).
    private(set) var interfaces: [UInt32: String] = [1: "wl_display"]
    /// The `wl_surface` ids in creation order.
    private(set) var surfaces: [UInt32] = []
    /// The toplevel's `xdg_surface`, `xdg_toplevel` and `wl_surface` (the first toplevel made).
    private(set) var xdgSurface: UInt32?
    private(set) var xdgToplevel: UInt32?
    private(set) var toplevelSurface: UInt32?
    /// Answer commits as a compositor does (configure, frame `done`, `wl_buffer.release`).
    var actsAsCompositor = false
    /// The size of the first configure (0 × 0: the client decides, as weston's first configure).
    var firstConfigure: (width: Int32, height: Int32) = (0, 0)
    /// Runs on the serving thread right after the toplevel's first commit with a buffer (its first
    /// frame) has been answered: send input from here (``sendEvent(_:opcode:_:)``).
    var afterFirstFrame: ((SocketPairCompositor) -> Void)?
    private var sawFirstFrame = false
    private var configured = false
    /// Per surface: frame callbacks requested since its last commit, the buffer attached since
    /// then (0 = a null attach), and the buffer it shows.
    private var pendingCallbacks: [UInt32: [UInt32]] = [:]
    private var pendingBuffer: [UInt32: UInt32] = [:]
    private var shownBuffer: [UInt32: UInt32] = [:]

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

    /// Serves on a thread of its own while `body` runs (the client's event loop, typically), then
    /// stops. When `body` has not returned after `deadline` seconds the socket is shut down, so a
    /// client waiting in `poll` sees the compositor gone and `run()` throws instead of hanging.
    func serve<T>(deadline: Double = 30, _ body: () throws -> T) throws -> T {
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw SocketPairError("pipe: \(String(cString: strerror(errno)))") }
        let stop = (read: pipeFDs[0], write: pipeFDs[1])
        defer { close(stop.read); close(stop.write) }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            if !serve(until: stop.read, timeout: deadline) { shutdown(serverFD, Int32(SHUT_RDWR)) }
            done.signal()
        }
        thread.start()
        let result = Result { try body() }
        _ = Glibc.write(stop.write, "x", 1)
        done.wait()
        return try result.get()
    }

    /// The requests on `object`.
    func requests(on object: UInt32) -> [Request] { requests.filter { $0.object == object } }

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

    /// Reads and answers until the stop pipe is written (true) or `timeout` seconds pass (false).
    @discardableResult
    private func serve(until stopFD: Int32, timeout: Double = 30) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var fds = [pollfd(fd: serverFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            // Bounded: the client's start-up roundtrip has a deadline of its own, and the test
            // signals the stop pipe right after it.
            let left = deadline.timeIntervalSinceNow
            guard left > 0, poll(&fds, 2, Int32(left * 1000) + 1) > 0 else { return false }
            if fds[1].revents != 0 {
                // Whatever the client sent before the stop is recorded too.
                while case let n = recv(serverFD, &chunk, chunk.count, Int32(MSG_DONTWAIT)), n > 0 {
                    input.append(contentsOf: chunk[0..<n])
                    handleMessages()
                }
                return true
            }
            let n = read(serverFD, &chunk, chunk.count)
            if n <= 0 {
                if n == 0 || errno == ECONNRESET { sawEOF = true }
                if n < 0 && errno == EINTR { continue }
                // The client hung up: wait for the stop.
                var stop = pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)
                return poll(&stop, 1, Int32(max(0, deadline.timeIntervalSinceNow) * 1000) + 1) > 0
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
            let request = Request(object: object, interface: interfaces[object] ?? "?", opcode: opcode, args: args)
            requests.append(request)
            track(request)
            if object == 1 && opcode == 0 {                    // wl_display.sync(callback)
                let callback = word(args, 0)
                serial += 1
                send(object: callback, opcode: 0, [serial])     // wl_callback.done(serial)
                send(object: 1, opcode: 1, [callback])         // wl_display.delete_id(id)
            } else if object == 1 && opcode == 1 {             // wl_display.get_registry(registry)
                let registry = word(args, 0)
                registries.insert(registry)
                interfaces[registry] = "wl_registry"
                for (index, global) in globals.enumerated() {
                    sendGlobal(registry: registry, name: UInt32(index + 1), global.interface, global.version)
                }
            } else if registries.contains(object) && opcode == 0 { // wl_registry.bind(name, interface, version, id)
                let name = Int(word(args, 0))
                let length = Int(word(args, 4))
                let id = word(args, 8 + (length + 3) / 4 * 4 + 4)
                if name >= 1, name <= globals.count {
                    interfaces[id] = globals[name - 1].interface
                    if globals[name - 1].interface == "wl_seat" {
                        send(object: id, opcode: 0, [7])            // wl_seat.capabilities(pointer|keyboard|touch)
                    }
                }
            }
        }
    }

    /// Follows the objects a request makes (wayland.xml, xdg-shell.xml and the other protocols'
    /// argument orders) and, while acting as a compositor, answers commits.
    private func track(_ r: Request) {
        switch (r.interface, r.opcode) {
        case ("wl_compositor", 0):                          // create_surface(id)
            interfaces[r.word(0)] = "wl_surface"
            surfaces.append(r.word(0))
        case ("wl_compositor", 1): interfaces[r.word(0)] = "wl_region"
        case ("wl_shm", 0): interfaces[r.word(0)] = "wl_shm_pool"          // create_pool(id, fd, size)
        case ("wl_shm_pool", 0): interfaces[r.word(0)] = "wl_buffer"       // create_buffer(id, …)
        case ("wl_subcompositor", 1): interfaces[r.word(0)] = "wl_subsurface"
        case ("wp_viewporter", 1): interfaces[r.word(0)] = "wp_viewport"
        case ("wp_presentation", 1): interfaces[r.word(1)] = "wp_presentation_feedback"   // feedback(surface, id)
        case ("zxdg_decoration_manager_v1", 1): interfaces[r.word(0)] = "zxdg_toplevel_decoration_v1"
        case ("wp_fractional_scale_manager_v1", 1): interfaces[r.word(0)] = "wp_fractional_scale_v1"
        case ("zwp_text_input_manager_v3", 1): interfaces[r.word(0)] = "zwp_text_input_v3"   // get_text_input(id, seat)
        case ("wl_seat", 0): interfaces[r.word(0)] = "wl_pointer"
        case ("wl_seat", 1): interfaces[r.word(0)] = "wl_keyboard"
        case ("wl_seat", 2): interfaces[r.word(0)] = "wl_touch"
        case ("xdg_wm_base", 2):                            // get_xdg_surface(id, surface)
            interfaces[r.word(0)] = "xdg_surface"
            if xdgSurface == nil { xdgSurface = r.word(0); toplevelSurface = r.word(1) }
        case ("xdg_surface", 1):                            // get_toplevel(id)
            interfaces[r.word(0)] = "xdg_toplevel"
            if xdgToplevel == nil { xdgToplevel = r.word(0) }
        case ("wl_surface", 1):                             // attach(buffer, x, y)
            pendingBuffer[r.object] = r.word(0)
        case ("wl_surface", 3):                             // frame(callback)
            interfaces[r.word(0)] = "wl_callback"
            pendingCallbacks[r.object, default: []].append(r.word(0))
        case ("wl_surface", 6):                             // commit
            guard actsAsCompositor else { break }
            if r.object == toplevelSurface, !configured, let xdgSurface, let xdgToplevel {
                configured = true
                sendConfigure(xdgSurface: xdgSurface, xdgToplevel: xdgToplevel,
                              width: firstConfigure.width, height: firstConfigure.height, states: [])
            }
            let attached = pendingBuffer.removeValue(forKey: r.object)
            if let buffer = attached {
                if let shown = shownBuffer[r.object], shown != buffer { sendRelease(shown) }
                shownBuffer[r.object] = buffer == 0 ? nil : buffer
            }
            for callback in pendingCallbacks.removeValue(forKey: r.object) ?? [] { sendFrameDone(callback) }
            if r.object == toplevelSurface, let attached, attached != 0, !sawFirstFrame {
                sawFirstFrame = true
                afterFirstFrame?(self)
            }
        default:
            break
        }
    }

    /// `xdg_toplevel.configure(width, height, states)` then `xdg_surface.configure(serial)`.
    func sendConfigure(xdgSurface: UInt32, xdgToplevel: UInt32, width: Int32, height: Int32, states: [UInt32]) {
        send(object: xdgToplevel, opcode: 0,
             [UInt32(bitPattern: width), UInt32(bitPattern: height), UInt32(4 * states.count)] + states)
        serial += 1
        send(object: xdgSurface, opcode: 0, [serial])
    }

    /// `wl_callback.done(time)`, then `wl_display.delete_id` (the callback is gone).
    func sendFrameDone(_ callback: UInt32) {
        send(object: callback, opcode: 0, [UInt32(truncatingIfNeeded: serial)])
        send(object: 1, opcode: 1, [callback])
    }

    /// `wl_buffer.release`.
    func sendRelease(_ buffer: UInt32) { send(object: buffer, opcode: 0, []) }

    /// Any event: `opcode` of `object` with `words` as its arguments (wl_fixed: ``fixed(_:)``).
    func sendEvent(_ object: UInt32, opcode: UInt32, _ words: [UInt32]) { send(object: object, opcode: opcode, words) }

    /// A `string` argument as words: its length with the NUL, the bytes, NUL-padded to 4 bytes.
    static func string(_ text: String) -> [UInt32] {
        var bytes = Array(text.utf8) + [0]
        let length = UInt32(bytes.count)
        while bytes.count % 4 != 0 { bytes.append(0) }
        return [length] + stride(from: 0, to: bytes.count, by: 4).map {
            UInt32(bytes[$0]) | UInt32(bytes[$0 + 1]) << 8 | UInt32(bytes[$0 + 2]) << 16 | UInt32(bytes[$0 + 3]) << 24
        }
    }

    /// A `wl_fixed_t` (24.8) as an argument word.
    static func fixed(_ value: Double) -> UInt32 { UInt32(bitPattern: Int32((value * 256).rounded())) }

    /// The id of the first object of `interface` the client made.
    func object(_ interface: String) -> UInt32? {
        interfaces.filter { $0.value == interface }.map(\.key).min()
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
