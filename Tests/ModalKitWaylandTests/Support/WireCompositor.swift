import Foundation
import Glibc
import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// A compositor on the other end of a `socketpair(2)`, speaking enough of the Wayland wire protocol
/// (wayland.xml, xdg-shell.xml, presentation-time.xml; the wire format of the Wayland book, "Wire
/// protocol basics") to show one xdg-shell toplevel drawn with `wl_shm` buffers — the same start as
/// ModalKitWaylandClientTests' `SocketPairCompositor`, plus what a window's frames need: it sends
/// `xdg_toplevel.configure` and `xdg_surface.configure`, answers frame callbacks with
/// `wl_callback.done`, releases a buffer (`wl_buffer.release`) once a newer one is committed (as a
/// compositor that copies shm buffers does), reports `wp_presentation_feedback.presented`, and
/// sends pointer events for the window's surface. With `zwp_text_input_manager_v3` among its
/// globals it records every `zwp_text_input_v3` request and sends `enter`, `commit_string` and
/// `done` (text-input-unstable-v3.xml) for the window's surface.
///
/// After ``connect()`` the compositor serves from the client's own loop (a watch on its socket,
/// `WaylandConnection/watch(fd:events:onReady:)`): requests are read and events written on the
/// test's thread, between the client's iterations, so a test sees one order of events every run.
/// Every request it does not know is read and ignored (file descriptors sent with them are closed).
final class WireCompositor {
    /// (interface, version) in registry-name order (names 1, 2, …).
    let globals: [(interface: String, version: UInt32)]
    private let serverFD: Int32
    private var clientFD: Int32
    private var input: [UInt8] = []
    private var serial: UInt32 = 100
    private var watch: FDWatch?
    private weak var connection: WaylandConnection?

    /// Objects the client made, by id: what each is.
    private enum Object {
        case registry, compositor, shm, pool, wmBase, seat, pointer, presentation
        case surface, xdgSurface(surface: UInt32), toplevel(xdgSurface: UInt32)
        case buffer(width: Int, height: Int), frameCallback, feedback
        case textInputManager, textInput
    }
    private var objects: [UInt32: Object] = [:]
    /// The toplevel's ids: its wl_surface, xdg_surface and xdg_toplevel.
    private(set) var surface: UInt32 = 0
    private var xdgSurface: UInt32 = 0
    private var toplevel: UInt32 = 0
    /// The window surface's pending state (applied at its commit) and committed state.
    private var pendingBuffer: UInt32?
    private var pendingCallbacks: [UInt32] = []
    private var pendingFeedbacks: [UInt32] = []
    private var committedBuffer: UInt32?
    private var callbacks: [UInt32] = []
    private var feedbacks: [UInt32] = []
    private var pointer: UInt32 = 0
    private var doneTimer: EventLoopTimer?
    /// The client's `zwp_text_input_v3` objects.
    private var textInputs: [UInt32] = []

    /// `zwp_text_input_v3` request opcodes (text-input-unstable-v3.xml).
    enum TextInputRequest: UInt32 {
        case destroy, enable, disable, setSurroundingText, setTextChangeCause, setContentType, setCursorRectangle, commit
    }
    /// Every `zwp_text_input_v3` request so far, in order (unknown opcodes are dropped).
    private(set) var textInputRequests: [TextInputRequest] = []

    /// One `wl_surface.commit` of the window's surface.
    struct Commit {
        /// 1, 2, …: the window surface's commits.
        var index: Int
        /// The size in buffer pixels of the buffer attached with it, nil when none was.
        var buffer: (width: Int, height: Int)?
        /// Whether it asked for a frame callback.
        var asksForFrame: Bool
    }
    /// The window surface's commits so far.
    private(set) var commits: [Commit] = []
    /// Called after each commit of the window's surface (on the client's loop).
    var onCommit: ((Commit) -> Void)?
    /// The size of the configure sent at the window's first commit (xdg-shell: the client's first
    /// commit, without a buffer, asks for it). Points.
    var initialSize = (width: 200, height: 300)
    /// `wl_callback.done` for the window's frame callbacks this long (seconds) after the commit
    /// that asked for them (a refresh); nil: only when the test calls ``sendFrameDone()``.
    var frameDoneDelay: Double? = 0.01
    /// With each automatic frame callback, `wp_presentation_feedback.presented` for the feedback
    /// requested with the same commits.
    var presentsWithFrameDone = false

    static let base: [(interface: String, version: UInt32)] =
        [("wl_compositor", 4), ("wl_shm", 1), ("xdg_wm_base", 1), ("wl_seat", 5)]

    init(globals: [(interface: String, version: UInt32)] = WireCompositor.base) throws {
        self.globals = globals
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw WireError("socketpair: \(String(cString: strerror(errno)))")
        }
        serverFD = fds[0]
        clientFD = fds[1]
    }

    deinit {
        stop()
        close(serverFD)
        if clientFD >= 0 { close(clientFD) }
    }

    /// A ``WaylandConnection`` over the pair: its start-up roundtrips answered on a thread of this
    /// object's own (which ends before this returns), everything after from the connection's loop.
    func connect() throws -> WaylandConnection {
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw WireError("pipe: \(String(cString: strerror(errno)))") }
        let stop = (read: pipeFDs[0], write: pipeFDs[1])
        defer { close(stop.read); close(stop.write) }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            serveOnThread(until: stop.read)
            done.signal()
        }
        thread.start()
        setenv("WAYLAND_SOCKET", "\(clientFD)", 1)
        clientFD = -1   // libwayland's from now on
        defer { unsetenv("WAYLAND_SOCKET") }
        let result = Result { try WaylandConnection(socket: nil) }
        _ = Glibc.write(stop.write, "x", 1)
        done.wait()
        let connection = try result.get()
        self.connection = connection
        watch = connection.watch(fd: serverFD, events: .readable) { [weak self] _ in self?.pump() }
        return connection
    }

    /// Stops serving (the watch and timers leave the client's loop).
    func stop() {
        if let watch { connection?.removeWatch(watch) }
        watch = nil
        doneTimer?.invalidate()
        doneTimer = nil
    }

    // MARK: Events the test sends

    /// `xdg_toplevel.configure(width, height, [])` then `xdg_surface.configure(serial)`.
    func configure(width: Int, height: Int) {
        serial += 1
        send(object: toplevel, opcode: 0, [UInt32(width), UInt32(height), 0])
        send(object: xdgSurface, opcode: 0, [serial])
    }

    /// `wl_callback.done` for every frame callback of the window's committed state.
    func sendFrameDone() {
        let now = UInt32(truncatingIfNeeded: Int(monotonicSeconds() * 1000))
        for id in callbacks {
            send(object: id, opcode: 0, [now])
            send(object: 1, opcode: 1, [id])   // wl_display.delete_id
            objects[id] = nil
        }
        callbacks.removeAll()
    }

    /// `wp_presentation_feedback.presented` at `time` (monotonic seconds) for every feedback of the
    /// window's committed state.
    func sendPresented(at time: Double = monotonicSeconds()) {
        let seconds = UInt64(time)
        let nanoseconds = UInt32((time - Double(seconds)) * 1e9)
        for id in feedbacks {
            // tv_sec_hi, tv_sec_lo, tv_nsec, refresh (ns), seq_hi, seq_lo, flags
            send(object: id, opcode: 1, [UInt32(seconds >> 32), UInt32(seconds & 0xFFFF_FFFF), nanoseconds,
                                         16_666_666, 0, 0, 0])
            send(object: 1, opcode: 1, [id])
            objects[id] = nil
        }
        feedbacks.removeAll()
    }

    /// A pointer event for the window's surface (`wl_pointer`, seat version 5), `time` in ms.
    enum PointerEvent {
        case enter(x: Double, y: Double)
        case motion(time: UInt32, x: Double, y: Double)
        case button(time: UInt32, pressed: Bool)
        case frame
    }

    /// `events` in one write, read by the client together.
    func sendPointer(_ events: [PointerEvent]) {
        for event in events {
            switch event {
            case let .enter(x, y):
                serial += 1
                send(object: pointer, opcode: 0, [serial, surface, fixed(x), fixed(y)])
            case let .motion(time, x, y):
                send(object: pointer, opcode: 2, [time, fixed(x), fixed(y)])
            case let .button(time, pressed):
                serial += 1
                send(object: pointer, opcode: 3, [serial, time, 0x110, pressed ? 1 : 0])   // BTN_LEFT
            case .frame:
                send(object: pointer, opcode: 5, [])
            }
        }
    }

    private func fixed(_ v: Double) -> UInt32 { UInt32(bitPattern: Int32(v * 256)) }

    /// `zwp_text_input_v3.enter(surface)` on every text input: the window's surface has text-input focus.
    func enterTextInput() {
        for id in textInputs { send(object: id, opcode: 0, [surface]) }
    }

    /// An input method's `commit_string(text)` then `done(serial)` on every text input.
    func commitText(_ text: String, serial: UInt32) {
        var bytes = Array(text.utf8) + [0]
        let length = UInt32(bytes.count)
        while bytes.count % 4 != 0 { bytes.append(0) }
        let words = [length] + stride(from: 0, to: bytes.count, by: 4).map { word(bytes, $0) }
        for id in textInputs {
            send(object: id, opcode: 3, words)
            send(object: id, opcode: 5, [serial])
        }
    }

    // MARK: Serving

    private func serveOnThread(until stopFD: Int32) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var fds = [pollfd(fd: serverFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            // Bounded: the client's start-up roundtrip has a deadline of its own, and the test
            // signals the stop pipe right after it.
            guard poll(&fds, 2, 30_000) > 0, fds[1].revents == 0 else { return }
            let n = read(serverFD, &chunk, chunk.count)
            if n <= 0 { return }
            input.append(contentsOf: chunk[0..<n])
            handleMessages()
        }
    }

    /// Reads what the client sent (without waiting) and answers it.
    private func pump() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(serverFD, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if n > 0 {
                input.append(contentsOf: chunk[0..<n])
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n == 0 { stop() }   // the client hung up
            break
        }
        handleMessages()
    }

    private func handleMessages() {
        while input.count >= 8 {
            let object = word(input, 0)
            let size = Int(word(input, 4) >> 16)
            let opcode = word(input, 4) & 0xFFFF
            guard size >= 8, input.count >= size else { return }
            let args = Array(input[8..<size])
            input.removeFirst(size)
            handle(object: object, opcode: opcode, args)
        }
    }

    private func handle(object: UInt32, opcode: UInt32, _ args: [UInt8]) {
        if object == 1 {
            switch opcode {
            case 0:                                             // wl_display.sync(callback)
                let callback = word(args, 0)
                serial += 1
                send(object: callback, opcode: 0, [serial])
                send(object: 1, opcode: 1, [callback])
            case 1:                                             // wl_display.get_registry(registry)
                let registry = word(args, 0)
                objects[registry] = .registry
                for (index, global) in globals.enumerated() {
                    sendGlobal(registry: registry, name: UInt32(index + 1), global.interface, global.version)
                }
            default: break
            }
            return
        }
        switch (objects[object], opcode) {
        case (.registry?, 0):                                   // bind(name, interface, version, id)
            let name = Int(word(args, 0))
            let length = Int(word(args, 4))
            let id = word(args, 8 + (length + 3) / 4 * 4 + 4)
            guard name >= 1, name <= globals.count else { return }
            switch globals[name - 1].interface {
            case "wl_compositor": objects[id] = .compositor
            case "wl_shm": objects[id] = .shm
            case "xdg_wm_base": objects[id] = .wmBase
            case "wl_seat":
                objects[id] = .seat
                send(object: id, opcode: 0, [7])                // capabilities(pointer|keyboard|touch)
            case "zwp_text_input_manager_v3": objects[id] = .textInputManager
            case "wp_presentation":
                objects[id] = .presentation
                send(object: id, opcode: 0, [UInt32(CLOCK_MONOTONIC)])   // clock_id
            default: break
            }
        case (.compositor?, 0): objects[word(args, 0)] = .surface                   // create_surface(id)
        case (.shm?, 0): objects[word(args, 0)] = .pool                             // create_pool(id, fd, size)
        case (.pool?, 0):                                       // create_buffer(id, offset, width, height, stride, format)
            objects[word(args, 0)] = .buffer(width: Int(word(args, 8)), height: Int(word(args, 12)))
        case (.wmBase?, 2):                                     // get_xdg_surface(id, surface)
            objects[word(args, 0)] = .xdgSurface(surface: word(args, 4))
        case (.wmBase?, 3): break                               // pong
        case let (.xdgSurface(s)?, 1):                          // get_toplevel(id)
            toplevel = word(args, 0)
            objects[toplevel] = .toplevel(xdgSurface: object)
            xdgSurface = object
            surface = s
        case (.seat?, 0):                                       // get_pointer(id)
            pointer = word(args, 0)
            objects[pointer] = .pointer
        case (.textInputManager?, 1):                           // get_text_input(id, seat)
            objects[word(args, 0)] = .textInput
            textInputs.append(word(args, 0))
        case (.textInput?, _):
            if let request = TextInputRequest(rawValue: opcode) { textInputRequests.append(request) }
        case (.presentation?, 1):                               // feedback(surface, id)
            let id = word(args, 4)
            objects[id] = .feedback
            if word(args, 0) == surface { pendingFeedbacks.append(id) }
        case (.surface?, _) where object == surface:
            surfaceRequest(opcode, args)
        default: break
        }
    }

    /// A request on the window's `wl_surface`.
    private func surfaceRequest(_ opcode: UInt32, _ args: [UInt8]) {
        switch opcode {
        case 1: pendingBuffer = word(args, 0)                   // attach(buffer, x, y)
        case 3:                                                 // frame(callback)
            let id = word(args, 0)
            objects[id] = .frameCallback
            pendingCallbacks.append(id)
        case 6: commit()
        default: break
        }
    }

    private func commit() {
        var size: (width: Int, height: Int)?
        if let buffer = pendingBuffer {
            if case let .buffer(w, h)? = objects[buffer] { size = (w, h) }
            if let old = committedBuffer, old != buffer, objects[old] != nil {
                send(object: old, opcode: 0, [])                // wl_buffer.release
            }
            committedBuffer = buffer
            pendingBuffer = nil
        }
        let asksForFrame = !pendingCallbacks.isEmpty
        callbacks += pendingCallbacks
        pendingCallbacks.removeAll()
        feedbacks += pendingFeedbacks
        pendingFeedbacks.removeAll()
        let c = Commit(index: commits.count + 1, buffer: size, asksForFrame: asksForFrame)
        commits.append(c)
        if c.index == 1 { configure(width: initialSize.width, height: initialSize.height) }
        if asksForFrame, let delay = frameDoneDelay, let connection {
            if doneTimer == nil {
                doneTimer = EventLoopTimer(connection: connection) { [weak self] in
                    guard let self else { return }
                    if presentsWithFrameDone { sendPresented() }
                    sendFrameDone()
                }
            }
            doneTimer?.schedule(after: delay)
        }
        onCommit?(c)
    }

    // MARK: Wire

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
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}

struct WireError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
