import Foundation
import Glibc
import ModalKitWaylandClient

/// A compositor at the far end of a `socketpair(2)` that speaks enough of the Wayland wire protocol
/// (wayland.xml, xdg-shell, viewporter, xdg-decoration; the wire format of the Wayland book,
/// "Wire protocol basics") for a `PresentationWindow` with sub-surface layers to run whole
/// presentations without a compositor, and that keeps what a compositor keeps of its surfaces:
///
/// - the globals `wl_compositor` 4, `wl_shm`, `xdg_wm_base`, `wl_subcompositor`, `wp_viewporter`,
///   `zxdg_decoration_manager_v1` (server-side decorations, so the window has no title bar);
/// - the toplevel is configured at `width` × `height` after its first commit;
/// - every frame callback is answered (`done`) at the commit that carries it;
/// - a buffer is released (`wl_buffer.release`) when another replaces it on screen;
/// - sub-surfaces are synchronized (wl_subsurface): a sub-surface's commit caches its state
///   (buffer, viewport destination), the parent's commit applies the cached state and the pending
///   positions.
///
/// It records every request (``log``) and checks each parent commit against the rule a compositor
/// that repaints only damage needs (sway 1.7 does not repaint the area of a sub-surface that its
/// null buffer unmaps): a commit that unmaps a sub-surface damages the window's buffer over the
/// rectangle that sub-surface showed (``violations``). Read its state after ``stop()``: destroyed
/// surfaces and sub-surfaces (the window's close) stay in the model as they were left.
final class SubsurfaceModelCompositor: @unchecked Sendable {
    /// A rectangle in surface-local points, or in buffer pixels for damage.
    struct Box: Equatable, CustomStringConvertible {
        var x, y, width, height: Int
        var description: String { "\(width)x\(height)+\(x)+\(y)" }
        func intersection(_ o: Box) -> Box? {
            let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(x + width, o.x + o.width), y1 = min(y + height, o.y + o.height)
            return x1 > x0 && y1 > y0 ? Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
    }

    /// One `wl_surface` as the compositor keeps it.
    final class SurfaceState {
        let id: UInt32
        /// The parent surface when it is a sub-surface.
        var parent: UInt32?
        var pendingBuffer: UInt32??
        var pendingDestination: (Int, Int)?
        var pendingDamage: [Box] = []
        var pendingPosition: (Int, Int)?
        /// A sub-surface's committed state, waiting for the parent's commit.
        var cachedBuffer: UInt32??
        var cachedDestination: (Int, Int)?
        var hasCached = false
        /// What is on screen (buffer 0: none).
        var buffer: UInt32 = 0
        var destination: (Int, Int)?
        var position = (0, 0)
        var frameCallbacks: [UInt32] = []
        /// The last buffer attached (0: a null attach), whatever happened to it since.
        var lastAttached: UInt32?
        init(id: UInt32) { self.id = id }
        /// The rectangle it shows on screen, nil when unmapped.
        var shown: Box? {
            guard buffer != 0, let d = destination else { return nil }
            return Box(x: position.0, y: position.1, width: d.0, height: d.1)
        }
    }

    let width: Int, height: Int
    /// The integer scale of the one output (offered as a `wl_output` when above 1): the window's
    /// buffers are that many pixels per point, damage in buffer pixels.
    let scale: Int
    /// fractional-scale-v1's `preferred_scale` (n/120, e.g. 180 = 1.5) sent for every surface when
    /// set: `wp_fractional_scale_manager_v1` is offered, and the window draws its buffers at n/120
    /// pixels per point, shown through its viewport.
    let fractional120: UInt32?
    /// Buffer pixels per point of the window's buffers (the fractional scale, else ``scale``).
    var pixelScale: Double { fractional120.map { Double($0) / 120 } ?? Double(scale) }
    private let serverFD: Int32
    private var clientFD: Int32
    private var stopPipe: (read: Int32, write: Int32) = (-1, -1)
    private let finished = DispatchSemaphore(value: 0)
    private var running = false
    private var input: [UInt8] = []
    private var serial: UInt32 = 100
    private let globals: [(interface: String, version: UInt32)]

    /// Object id → interface.
    private var objects: [UInt32: String] = [1: "wl_display"]
    private(set) var surfaces: [UInt32: SurfaceState] = [:]
    /// wl_subsurface / wp_viewport id → its surface.
    private var roleSurface: [UInt32: UInt32] = [:]
    private var toplevelSurface: UInt32?
    private var xdgSurfaceOf: [UInt32: UInt32] = [:]   // xdg_surface → wl_surface
    private var toplevelOf: [UInt32: UInt32] = [:]     // xdg_toplevel → xdg_surface
    private var decoration: UInt32?
    private var configured = false

    /// Every request, one line each (`wl_surface#12.attach(#20)`), in order.
    private(set) var log: [String] = []
    /// Each parent commit that unmapped a sub-surface without damaging what it uncovered.
    private(set) var violations: [String] = []
    /// Parent commits so far.
    private(set) var parentCommits = 0

    init(width: Int, height: Int, scale: Int = 1, fractional120: UInt32? = nil) throws {
        self.width = width
        self.height = height
        self.scale = scale
        self.fractional120 = fractional120
        globals = [("wl_compositor", 4), ("wl_shm", 1), ("xdg_wm_base", 1), ("wl_subcompositor", 1), ("wp_viewporter", 1),
                   ("zxdg_decoration_manager_v1", 1)] + (scale > 1 ? [("wl_output", 2)] : [])
                  + (fractional120 != nil ? [("wp_fractional_scale_manager_v1", 1)] : [])
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw SubsurfaceModelError("socketpair: \(String(cString: strerror(errno)))")
        }
        serverFD = fds[0]
        clientFD = fds[1]
    }

    deinit {
        stop()
        close(serverFD)
        if clientFD >= 0 { close(clientFD) }
    }

    /// Starts answering on a thread of its own (until ``stop()``) and returns a connection to it.
    func connect() throws -> WaylandConnection {
        var p: [Int32] = [-1, -1]
        guard pipe(&p) == 0 else { throw SubsurfaceModelError("pipe: \(String(cString: strerror(errno)))") }
        stopPipe = (p[0], p[1])
        running = true
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.start()
        setenv("WAYLAND_SOCKET", "\(clientFD)", 1)
        clientFD = -1   // libwayland's from now on
        defer { unsetenv("WAYLAND_SOCKET") }
        return try WaylandConnection(socket: nil)
    }

    /// Stops the server thread (bounded: it polls with a timeout) and waits for it.
    func stop() {
        guard running else { return }
        running = false
        _ = Glibc.write(stopPipe.write, "x", 1)
        _ = finished.wait(timeout: .now() + 10)
        close(stopPipe.read)
        close(stopPipe.write)
    }

    /// The sub-surfaces of the toplevel's surface, in creation order.
    var layers: [SurfaceState] {
        surfaces.values.filter { $0.parent != nil && $0.parent == toplevelSurface }.sorted { $0.id < $1.id }
    }

    // MARK: The server loop

    private func serve() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var fds = [pollfd(fd: serverFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, 30_000) > 0, fds[1].revents == 0 else { return }
            // recvmsg: the file descriptors sent with wl_shm.create_pool are taken and closed.
            var control = [UInt8](repeating: 0, count: 256)
            let n = chunk.withUnsafeMutableBytes { buffer -> Int in
                control.withUnsafeMutableBytes { cbuf -> Int in
                    var iov = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
                    return withUnsafeMutablePointer(to: &iov) { iovp -> Int in
                        var msg = msghdr()
                        msg.msg_iov = iovp
                        msg.msg_iovlen = 1
                        msg.msg_control = cbuf.baseAddress
                        msg.msg_controllen = cbuf.count
                        let r = recvmsg(serverFD, &msg, Int32(MSG_CMSG_CLOEXEC))
                        if r > 0 { closeDescriptors(msg) }
                        return r
                    }
                }
            }
            if n <= 0 { return }
            input.append(contentsOf: chunk[0..<n])
            handleMessages()
        }
    }

    private func closeDescriptors(_ msg: msghdr) {
        guard let base = msg.msg_control, msg.msg_controllen >= MemoryLayout<cmsghdr>.size else { return }
        var offset = 0
        while offset + MemoryLayout<cmsghdr>.size <= msg.msg_controllen {
            let header = base.advanced(by: offset).assumingMemoryBound(to: cmsghdr.self).pointee
            guard header.cmsg_len >= MemoryLayout<cmsghdr>.size else { return }
            if header.cmsg_level == SOL_SOCKET && header.cmsg_type == Int32(SCM_RIGHTS) {
                let count = (Int(header.cmsg_len) - MemoryLayout<cmsghdr>.size) / 4
                let fds = base.advanced(by: offset + MemoryLayout<cmsghdr>.size).assumingMemoryBound(to: Int32.self)
                for i in 0..<count { close(fds[i]) }
            }
            offset += (Int(header.cmsg_len) + 7) & ~7
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
            handle(object: object, interface: objects[object] ?? "?", opcode: opcode, args)
        }
    }

    private func newObject(_ args: [UInt8], at index: Int, _ interface: String) -> UInt32 {
        let id = word(args, index * 4)
        objects[id] = interface
        return id
    }

    private func handle(object: UInt32, interface: String, opcode: UInt32, _ a: [UInt8]) {
        let name = "\(interface)#\(object)"
        switch (interface, opcode) {
        case ("wl_display", 0):
            let callback = word(a, 0)
            serial += 1
            send(callback, 0, [serial])
            send(1, 1, [callback])
        case ("wl_display", 1):
            let registry = newObject(a, at: 0, "wl_registry")
            for (i, g) in globals.enumerated() { sendGlobal(registry, UInt32(i + 1), g.interface, g.version) }
        case ("wl_registry", 0):
            let global = Int(word(a, 0))
            let length = Int(word(a, 4))
            let idOffset = 8 + (length + 3) / 4 * 4 + 4
            guard global >= 1, global <= globals.count else { return }
            let id = word(a, idOffset)
            objects[id] = globals[global - 1].interface
            if globals[global - 1].interface == "wl_output" {
                send(id, 3, [UInt32(scale)])   // wl_output.scale
                send(id, 2, [])                // wl_output.done
            }
        case ("wl_compositor", 0):
            let id = newObject(a, at: 0, "wl_surface")
            surfaces[id] = SurfaceState(id: id)
        case ("wl_compositor", 1): _ = newObject(a, at: 0, "wl_region")
        case ("wl_shm", 0): _ = newObject(a, at: 0, "wl_shm_pool")
        case ("wl_shm_pool", 0): _ = newObject(a, at: 0, "wl_buffer")
        case ("wl_subcompositor", 1):
            let id = newObject(a, at: 0, "wl_subsurface")
            let surface = word(a, 4), parent = word(a, 8)
            roleSurface[id] = surface
            surfaces[surface]?.parent = parent
            log.append("\(name).get_subsurface(#\(id), surface #\(surface), parent #\(parent))")
        case ("wl_subsurface", 0):
            // Kept in the model: the window destroys its layers only when it closes, and the test
            // reads the state they were left in.
            log.append("\(name).destroy")
        case ("wl_subsurface", 1):
            let x = Int(Int32(bitPattern: word(a, 0))), y = Int(Int32(bitPattern: word(a, 4)))
            if let s = roleSurface[object] { surfaces[s]?.pendingPosition = (x, y) }
            log.append("\(name).set_position(\(x), \(y))")
        case ("wp_fractional_scale_manager_v1", 1):
            // get_fractional_scale(id, surface): the preferred scale at once (fractional-scale-v1).
            let id = newObject(a, at: 0, "wp_fractional_scale_v1")
            if let n = fractional120 { send(id, 0, [n]) }
        case ("wp_viewporter", 1):
            let id = newObject(a, at: 0, "wp_viewport")
            roleSurface[id] = word(a, 4)
        case ("wp_viewport", 2):
            let w = Int(Int32(bitPattern: word(a, 0))), h = Int(Int32(bitPattern: word(a, 4)))
            if let s = roleSurface[object] { surfaces[s]?.pendingDestination = (w, h) }
            log.append("\(name)(surface #\(roleSurface[object] ?? 0)).set_destination(\(w), \(h))")
        case ("xdg_wm_base", 1): _ = newObject(a, at: 0, "xdg_positioner")
        case ("xdg_wm_base", 2):
            let id = newObject(a, at: 0, "xdg_surface")
            xdgSurfaceOf[id] = word(a, 4)
        case ("xdg_surface", 1):
            let id = newObject(a, at: 0, "xdg_toplevel")
            toplevelOf[id] = object
            toplevelSurface = xdgSurfaceOf[object]
        case ("zxdg_decoration_manager_v1", 1): decoration = newObject(a, at: 0, "zxdg_toplevel_decoration_v1")
        case ("wl_surface", 0):
            log.append("\(name).destroy")   // kept in the model too
        case ("wl_surface", 1):
            let buffer = word(a, 0)
            surfaces[object]?.pendingBuffer = .some(buffer)
            surfaces[object]?.lastAttached = buffer
            log.append("\(name).attach(\(buffer == 0 ? "nil" : "#\(buffer)"))")
        case ("wl_surface", 3):
            let callback = newObject(a, at: 0, "wl_callback")
            surfaces[object]?.frameCallbacks.append(callback)
        case ("wl_surface", 9):
            let box = Box(x: Int(Int32(bitPattern: word(a, 0))), y: Int(Int32(bitPattern: word(a, 4))),
                          width: Int(Int32(bitPattern: word(a, 8))), height: Int(Int32(bitPattern: word(a, 12))))
            surfaces[object]?.pendingDamage.append(box)
            log.append("\(name).damage_buffer(\(box))")
        case ("wl_surface", 6):
            log.append("\(name).commit")
            commit(object)
        default:
            break
        }
    }

    // MARK: Surface state

    private func commit(_ id: UInt32) {
        guard let s = surfaces[id] else { return }
        if s.parent != nil {
            // Synchronized: cached until the parent's commit.
            if let b = s.pendingBuffer { s.cachedBuffer = .some(b) }
            if let d = s.pendingDestination { s.cachedDestination = d }
            s.pendingBuffer = nil
            s.pendingDestination = nil
            s.pendingDamage.removeAll()
            s.hasCached = true
            return
        }
        let damage = s.pendingDamage
        s.pendingDamage.removeAll()
        if let b = s.pendingBuffer { replace(s, with: b ?? 0) }
        s.pendingBuffer = nil
        if id == toplevelSurface {
            parentCommits += 1
            for child in surfaces.values where child.parent == id {
                let before = child.shown
                if child.hasCached {
                    if let b = child.cachedBuffer { replace(child, with: b ?? 0) }
                    if let d = child.cachedDestination { child.destination = d }
                    child.cachedBuffer = nil
                    child.cachedDestination = nil
                    child.hasCached = false
                }
                if let p = child.pendingPosition { child.position = p }
                child.pendingPosition = nil
                if let gone = before, child.shown == nil, let inside = gone.intersection(Box(x: 0, y: 0, width: width, height: height)) {
                    // Buffer pixels, as the damage: every pixel the rectangle touches (at a
                    // fractional scale an edge at a half pixel covers that pixel in part).
                    let s = pixelScale
                    let x0 = Int((Double(inside.x) * s).rounded(.down)), y0 = Int((Double(inside.y) * s).rounded(.down))
                    let x1 = Int((Double(inside.x + inside.width) * s).rounded(.up))
                    let y1 = Int((Double(inside.y + inside.height) * s).rounded(.up))
                    let uncovered = Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
                    if !covers(damage, uncovered) {
                        violations.append("parent commit \(parentCommits) unmaps sub-surface #\(child.id) (it showed \(gone)) "
                                          + "with damage \(damage), not over \(uncovered)")
                    }
                }
            }
            if !configured {
                configured = true
                if let t = toplevelOf.first(where: { xdgSurfaceOf[$0.value] == id })?.key {
                    send(t, 0, [UInt32(width), UInt32(height), 0])   // xdg_toplevel.configure(w, h, [])
                }
                if let d = decoration { send(d, 0, [2]) }             // server-side
                if let x = xdgSurfaceOf.first(where: { $0.value == id })?.key {
                    serial += 1
                    send(x, 0, [serial])                              // xdg_surface.configure
                }
            }
        }
        for callback in s.frameCallbacks {
            send(callback, 0, [serial])   // wl_callback.done
            send(1, 1, [callback])        // wl_display.delete_id
        }
        s.frameCallbacks.removeAll()
    }

    /// `s` shows `buffer` now (0: none): the one it showed is released.
    private func replace(_ s: SurfaceState, with buffer: UInt32) {
        if s.buffer != 0, s.buffer != buffer { send(s.buffer, 0, []) }   // wl_buffer.release
        s.buffer = buffer
    }

    /// Whether the union of `rects` covers `box` (checked per pixel row band: the rectangles the
    /// window sends are few).
    private func covers(_ rects: [Box], _ box: Box) -> Bool {
        for y in box.y..<(box.y + box.height) {
            var spans = rects.filter { $0.y <= y && y < $0.y + $0.height }.map { ($0.x, $0.x + $0.width) }.sorted { $0.0 < $1.0 }
            var reach = box.x
            while let first = spans.first, first.0 <= reach {
                reach = max(reach, first.1)
                spans.removeFirst()
            }
            if reach < box.x + box.width { return false }
        }
        return true
    }

    // MARK: Wire

    private func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }

    private func send(_ object: UInt32, _ opcode: UInt32, _ words: [UInt32]) {
        var message = [object, UInt32(8 + 4 * words.count) << 16 | opcode] + words
        writeAll(&message, count: message.count * 4)
    }

    private func sendGlobal(_ registry: UInt32, _ name: UInt32, _ interface: String, _ version: UInt32) {
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

struct SubsurfaceModelError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
